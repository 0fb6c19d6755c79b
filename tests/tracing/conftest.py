import numpy as np
import pytest
import torch

from npcompile import _compile as C


class RecordingBackend:
    """A Dynamo backend that keeps every captured FX graph and runs it as is."""

    def __init__(self):
        self.graphs = []

    def __call__(self, gm, example_inputs):
        self.graphs.append(gm)
        return gm.forward

    def targets(self):
        return [n.target for g in self.graphs for n in g.graph.nodes if n.op == "call_function"]


@pytest.fixture
def rec():
    return RecordingBackend()


@pytest.fixture
def compile_eager():
    def make(fn, **kw):
        kw.setdefault("backend", "eager")
        return C.compile(fn, **kw)

    return make


@pytest.fixture(autouse=True)
def _fresh_fallback_warnings():
    from npcompile import fallback

    fallback.reset_warnings()
    yield


def installed_passes(slot: str, device_type: str = "cpu") -> list[str]:
    """The class names of our Inductor passes in ``slot`` of ``inductor_options`` (a chain linked by ``first``);
    none where the slot is not set."""
    from npcompile.inductor import inductor_options

    names, p = [], inductor_options(device_type=device_type).get(slot)
    while p is not None:
        names.append(type(p).__name__)
        p = getattr(p, "first", None)
    return names


def same(a, b):
    """NumPy-faithful equality: same type, dtype, shape and values (NaNs equal)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (np.ndarray, np.generic)):
        if a.dtype != b.dtype or np.shape(a) != np.shape(b):
            return False
        if a.dtype.kind in "fc":  # a few ulp: torch and NumPy transcendental functions differ in the last bit
            rtol = {2: 1e-3, 4: 1e-6, 8: 1e-13}.get(a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1), 1e-13)
            return bool(np.allclose(a, b, rtol=rtol, atol=0, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, float):
        return a == b or abs(a - b) <= 1e-13 * abs(b) or (a != a and b != b)
    return a == b
