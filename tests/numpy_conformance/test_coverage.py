"""The coverage tool: every public callable of NumPy is implemented or unsupported by design."""


import numpy
import pytest

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from npcompile._numpy import _unsupported, coverage
from npcompile._numpy._unsupported import REASONS


def test_nothing_missing():
    missing = [key for key, status, _ in coverage.classify() if status == "missing"]
    assert not missing, f"missing: {missing}"


def test_tool_runs_and_counts(capsys):
    coverage.main([])  # what ``python -m npcompile._numpy.coverage`` runs
    out = capsys.readouterr().out.splitlines()
    rows = coverage.classify()
    assert len(out) == len(rows) + 1
    assert out[-1] == coverage.summary(rows) and out[-1].startswith("implemented: ")
    assert any(line.startswith("numpy.save ") and "unsupported" in line and "(file IO)" in line for line in out)


def test_reasons_name_real_numpy_callables():
    for key in REASONS:
        module = numpy
        for part in key.split("."):
            module = getattr(module, part)
        assert callable(module), key


def test_stand_ins_raise_unsupported_feature():
    for name in _unsupported.__all__:
        obj = getattr(shim, name)
        assert obj is getattr(_unsupported, name), f"{name} is also defined elsewhere in the shim"
        with pytest.raises(UnsupportedFeature, match=f"numpy.{name} "):
            obj()
    assert not isinstance(shim.zeros(2), shim.datetime64)
    with pytest.raises(UnsupportedFeature):
        shim.zeros(3, dtype=shim.str_)
    assert shim.issubdtype(shim.str_, shim.character)
