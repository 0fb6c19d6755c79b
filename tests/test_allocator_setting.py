"""Importing npcompile asks glibc to keep freed buffers for reuse (npcompile/_memory.py), and leaves a process
that chose its own malloc thresholds alone."""

import os
import platform
import subprocess
import sys

import pytest

PROBE = "import npcompile._memory as m, npcompile; print(m.keep_freed_memory())"

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")


@pytest.mark.parametrize("preset, expected", [(None, "True"), ("MALLOC_TRIM_THRESHOLD_", "False"),
                                              ("MALLOC_MMAP_THRESHOLD_", "False")])
def test_malloc_settings(preset, expected):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    if preset is not None:
        env[preset] = "1048576"
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected

