"""Importing npcompile before torch turns on torch's huge-page allocation of large CPU buffers (README,
Performance notes), and leaves an explicit user choice alone."""

import os
import subprocess
import sys

import pytest

PROBE = "import npcompile, torch, os; print(os.environ.get('THP_MEM_ALLOC_ENABLE'))"


@pytest.mark.parametrize("preset, expected", [(None, "1"), ("0", "0")])
def test_huge_page_setting(preset, expected):
    env = {k: v for k, v in os.environ.items() if k != "THP_MEM_ALLOC_ENABLE"}
    if preset is not None:
        env["THP_MEM_ALLOC_ENABLE"] = preset
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected


def test_no_setting_when_torch_came_first():
    env = {k: v for k, v in os.environ.items() if k != "THP_MEM_ALLOC_ENABLE"}
    out = subprocess.run([sys.executable, "-c", "import torch; " + PROBE], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "None"  # too late to take effect: not pretended
