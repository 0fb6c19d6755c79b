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


def _refuses(x):
    """A stand-in written by hand."""
    from npcompile._errors import UnsupportedFeature as U

    raise U("a feature")


class _Refusing:
    def __init__(self, *args):
        raise UnsupportedFeature(f"the {args} feature")


def test_refusing_callables_are_never_reported_implemented():
    assert coverage.refusal(_refuses) == "a feature"
    assert coverage.refusal(_Refusing) == "f'the {args} feature'"
    assert coverage.refusal(shim.random.get_bit_generator) and coverage.refusal(shim.save)
    for works in (shim.sin, shim.zeros, shim.random.zipf, shim.random.RandomState, shim.ndarray, len):
        assert coverage.refusal(works) is None
    status = {key: s for key, s, _ in coverage.classify()}
    assert status["frompyfunc"] == status["random.get_bit_generator"] == "unsupported"
    for name in ("hypergeometric", "zipf", "logseries", "RandomState", "Generator", "default_rng", "SeedSequence",
                 "PCG64"):
        assert status[f"random.{name}"] == "implemented", name


def test_submodule_stand_ins():
    for key in REASONS:
        module, _, name = key.rpartition(".")
        if module in ("random", "polynomial") and name != "test":
            obj = getattr(getattr(shim, module), name)
            assert obj is not getattr(getattr(numpy, module), name)
            with pytest.raises(UnsupportedFeature, match=f"numpy.{key} "):
                obj()
