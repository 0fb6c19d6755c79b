"""Hypothesis profiles.  The default and CI runs are derandomized (the same examples every run), so the README's
test command passes or fails reproducibly; ``HYPOTHESIS_PROFILE=explore`` draws fresh examples to hunt bugs."""

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("default", max_examples=40, derandomize=True, **_COMMON)
settings.register_profile("ci", max_examples=25, derandomize=True, **_COMMON)
settings.register_profile("explore", max_examples=200, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))
