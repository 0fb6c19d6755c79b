"""The last small NumPy names: asarray_chkfinite, broadcast, from_dlpack, isfortran, row_stack."""

import numpy
import pytest
import torch

import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches


@pytest.mark.parametrize("data", [[1.0, 2.0], [1.0, numpy.nan], [numpy.inf], [1, 2]])
def test_asarray_chkfinite(data):
    assert_matches(lambda xp, a: xp.asarray_chkfinite(a), numpy.asarray(data))


@pytest.mark.parametrize("shapes", [[(2, 1), (3,)], [(4,)], [(2, 3), (2, 1), (1, 3)], [(2,), (3,)]])
def test_broadcast(shapes):
    arrays = [numpy.arange(numpy.prod(s), dtype=float).reshape(s) for s in shapes]
    try:
        want = numpy.broadcast(*arrays)
    except ValueError:
        with pytest.raises(ValueError):
            shim.broadcast(*[shim.asarray(a) for a in arrays])
        return
    got = shim.broadcast(*[shim.asarray(a) for a in arrays])
    assert (got.shape, got.nd, got.ndim, got.size, got.numiter) == (want.shape, want.nd, want.ndim, want.size,
                                                                   want.numiter)
    assert [tuple(float(v) for v in t) for t in got] == [tuple(float(v) for v in t) for t in want]


def test_from_dlpack_shares_memory():
    t = torch.arange(4.0)
    a = shim.from_dlpack(t)
    a[0] = 7
    assert t[0] == 7 and a.dtype == numpy.float32
    assert numpy.asarray(shim.from_dlpack(numpy.arange(3))).tolist() == [0, 1, 2]


@pytest.mark.parametrize("make", [lambda: numpy.ones((2, 3)), lambda: numpy.ones((2, 3)).T, lambda: numpy.ones(3),
                                  lambda: numpy.ones((3, 1))])
def test_isfortran(make):
    assert_matches(lambda xp, a: xp.isfortran(a), make())


def test_row_stack_warns_and_stacks():
    with pytest.warns(DeprecationWarning):
        got = shim.row_stack([shim.asarray([1, 2]), [3, 4]])
    with pytest.warns(DeprecationWarning):
        want = numpy.row_stack([numpy.asarray([1, 2]), [3, 4]])
    assert numpy.array_equal(numpy.asarray(got), want) and got.dtype == want.dtype
