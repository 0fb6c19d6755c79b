"""Hypothesis profiles.  The default and CI runs are derandomized (the same examples every run), so the README's
test command passes or fails reproducibly; ``HYPOTHESIS_PROFILE=explore`` draws fresh examples to hunt bugs.
Tests marked ``inductor`` raise on compiler errors instead of falling back to NumPy."""

import os

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("default", max_examples=40, derandomize=True, **_COMMON)
settings.register_profile("ci", max_examples=25, derandomize=True, **_COMMON)
settings.register_profile("explore", max_examples=200, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


@pytest.fixture(autouse=True)
def _compiler_errors_raise(request, monkeypatch):
    """Tests that compile with Inductor fail on an internal compiler error (a C++ kernel that does not build),
    which npcompile would otherwise answer in real NumPy, with NumPy's values."""
    if request.node.get_closest_marker("inductor"):
        import npcompile

        monkeypatch.setattr(npcompile.config, "suppress_errors", False)
