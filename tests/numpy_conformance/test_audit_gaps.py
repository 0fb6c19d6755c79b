"""Differential tests for the names of the shim's spec that no other conformance test called (found by an audit
that recorded every shim call the conformance tests make): the NumPy 2 ufunc alias names, ``asanyarray``, the
ndarray methods used only through their function forms, and ``testing.assert_array_compare``."""

import operator

import numpy
import pytest
from hypothesis import given, settings, strategies as st

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import ALL, INTEGER, REAL, array_likes, arrays, axes, dtypes, shapes

# ------------------------------------------------------------------------------ ufunc alias names

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")

ALIASES = sorted(n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc)
                 and getattr(numpy, n).__name__ != n)
UNARY_ALIASES = [n for n in ALIASES if getattr(numpy, n).nin == 1]
BINARY_ALIASES = [n for n in ALIASES if getattr(numpy, n).nin == 2]


def test_alias_list_is_complete():
    assert set(ALIASES) >= {"abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_invert",
                            "bitwise_left_shift", "bitwise_not", "bitwise_right_shift", "conj", "mod", "pow",
                            "true_divide"}


@pytest.mark.parametrize("name", ALIASES)
def test_alias_is_numpys_target(name):
    target = getattr(numpy, name).__name__
    assert getattr(shim, name) is getattr(shim, target)


@pytest.mark.parametrize("name", UNARY_ALIASES)
@settings(max_examples=15)
@given(a=arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3), finite=True))
def test_unary_alias(name, a):
    assert_matches(lambda xp, a: getattr(xp, name)(a), a)


@pytest.mark.parametrize("name", BINARY_ALIASES)
@settings(max_examples=15)
@given(a=arrays(dtype=dtypes(ALL), shape=st.sampled_from([(), (3,), (2, 3), (0,)]), finite=True),
       b=arrays(dtype=dtypes(ALL), shape=st.sampled_from([(), (3,), (2, 1), (4,)]), finite=True))
def test_binary_alias(name, a, b):
    assert_matches(lambda xp, a, b: getattr(xp, name)(a, b), a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,args", [("pow", ([2, 3], [-1, 2])), ("bitwise_left_shift", ([1.0], [2])),
                                       ("atan2", ([1j], [1.0])), ("bitwise_invert", ([1.5],)),
                                       ("mod", ([1 + 1j], [2]))])
def test_alias_bad_input(name, args):
    assert_matches(lambda xp, *a: getattr(xp, name)(*a), *[numpy.asarray(x) for x in args])


# ------------------------------------------------------------------------------ asanyarray


@given(array_likes(dtype=dtypes(ALL)), st.sampled_from([None, "int16", "float32", "complex128", "bool"]),
       st.sampled_from(["K", "C", "F", "A"]))
def test_asanyarray(a, dtype, order):
    assert_matches(lambda xp, a: xp.asanyarray(a, dtype=dtype, order=order), a)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3)))
def test_asanyarray_of_an_array_is_the_array(a):
    assert_matches(lambda xp, a: (xp.asanyarray(a) is a, xp.asanyarray(a, a.dtype) is a), a)


@pytest.mark.parametrize("bad", [[[1, 2], [3]], [1, [2, 3]]])
def test_asanyarray_bad_input(bad):
    assert_matches(lambda xp: xp.asanyarray(bad))


# ------------------------------------------------------------------------------ ndarray methods


@given(arrays(dtype=dtypes(REAL + [numpy.dtype("complex128")]), shape=shapes(max_dims=3), finite=True), st.data())
def test_argmin_argmax_cumprod_methods(a, data):
    axis = data.draw(axes(a.ndim, allow_tuple=False, allow_out_of_range=True))
    keepdims = data.draw(st.booleans())
    assert_matches(lambda xp, a: a.argmin(axis, keepdims=keepdims), a)
    assert_matches(lambda xp, a: a.argmax(axis, keepdims=keepdims), a)
    dtype = data.draw(st.sampled_from([None, "int64", "float64"]))
    assert_matches(lambda xp, a: a.cumprod(axis, dtype=dtype), a, rtol=1e-3, atol=1e-6)


@given(arrays(dtype=dtypes(REAL), shape=shapes(min_dims=1, max_dims=3)), st.data())
def test_argsort_partition_argpartition_methods(a, data):
    axis = data.draw(st.integers(-a.ndim - 1, a.ndim - 1))
    assert_matches(lambda xp, a: a.argsort(axis, kind="stable"), a)
    assert_matches(lambda xp, a: a.argsort(axis, stable=True), a)
    n = a.shape[axis] if -a.ndim <= axis < a.ndim else 1
    kth = data.draw(st.integers(-n, n))  # n itself is out of bounds

    def partition(xp, a):
        b = a.copy()
        b.partition(kth, axis=axis)
        return _partitioned(xp, b, kth, axis)

    def argpartition(xp, a):
        return _partitioned(xp, xp.take_along_axis(a, a.argpartition(kth, axis=axis), axis), kth, axis)
    assert_matches(partition, a)
    assert_matches(argpartition, a)


def _partitioned(xp, b, kth, axis):
    """What a partition determines: the kth value and the sorted values before and after it."""
    b = xp.moveaxis(b, axis, -1)
    k = kth % b.shape[-1]
    return b[..., k], xp.sort(b[..., :k], axis=-1), xp.sort(b[..., k + 1:], axis=-1)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3)), st.booleans())
def test_byteswap_conj_tobytes_methods(a, inplace):
    assert_matches(lambda xp, a: a.byteswap(), a)
    assert_matches(lambda xp, a: a.byteswap(inplace=True) is a, a, check_inputs=True)
    assert_matches(lambda xp, a: (a.conj(), a.conjugate()), a)
    for order in ("C", "F", "A"):
        assert_matches(lambda xp, a: a.tobytes(order), a)


@given(arrays(dtype=dtypes(INTEGER), shape=shapes(max_dims=2, max_side=4)),
       arrays(dtype=dtypes(ALL), shape=st.sampled_from([(3,), (3, 1), (3, 4), (2,)]), views=False),
       st.sampled_from(["raise", "wrap", "clip"]))
def test_choose_method(a, choices, mode):
    assert_matches(lambda xp, a, c: a.choose(c, mode=mode), a, choices)
    assert_matches(lambda xp, a, c: a.choose(list(c), mode=mode), a, choices)


@given(arrays(dtype=dtypes(ALL), shape=shapes(min_dims=0, max_dims=4)), st.data())
def test_diagonal_swapaxes_nonzero_methods(a, data):
    a1 = data.draw(st.integers(-a.ndim - 1, a.ndim))
    a2 = data.draw(st.integers(-a.ndim - 1, a.ndim))
    offset = data.draw(st.integers(-3, 3))
    assert_matches(lambda xp, a: a.diagonal(offset, a1, a2), a)
    assert_matches(lambda xp, a: a.swapaxes(a1, a2), a)
    assert_matches(lambda xp, a: a.nonzero(), a)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3, max_side=4)), st.lists(st.integers(-30, 30), max_size=5),
       st.sampled_from(["raise", "wrap", "clip"]), st.sampled_from([None, 0, -1, 3]))
def test_take_and_put_methods(a, ind, mode, axis):
    ind = numpy.asarray(ind, dtype=numpy.intp)
    assert_matches(lambda xp, a: a.take(ind, axis=axis, mode=mode), a)
    v = numpy.arange(1, 4).astype(a.dtype)
    assert_matches(lambda xp, a, v: a.put(ind, v, mode=mode), a, v, check_inputs=True)
    assert_matches(lambda xp, a: a.put(ind, 7.5, mode=mode), a.astype(numpy.float64), check_inputs=True)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3, max_side=4)),
       st.one_of(st.integers(0, 7), st.tuples(st.integers(0, 4), st.integers(0, 4)), st.just(-1)))
def test_resize_method(a, new_shape):
    def resize(xp, a):
        b = a.copy()
        b.resize(new_shape, refcheck=False)
        return b
    assert_matches(resize, a)
    assert_matches(lambda xp, a: a.resize(new_shape, refcheck=False), a[::2] if a.ndim and a.shape[0] > 2 else a)


@given(arrays(dtype=dtypes(REAL), shape=shapes(min_dims=0, max_dims=2, max_side=6)),
       arrays(dtype=dtypes(REAL), shape=shapes(max_dims=2, max_side=3)), st.sampled_from(["left", "right"]),
       st.booleans())
def test_searchsorted_method(a, v, side, use_sorter):
    def search(xp, a, v):
        if use_sorter:
            return a.searchsorted(v, side, sorter=a.argsort(kind="stable"))
        return xp.sort(a).searchsorted(v, side=side)
    assert_matches(search, a, v)


def test_searchsorted_method_bad_sorter():
    a = numpy.array([3.0, 1.0, 2.0])
    assert_matches(lambda xp, a: a.searchsorted(2.0, sorter=[0, 1]), a)
    assert_matches(lambda xp, a: a.searchsorted(2.0, side="middle"), a)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=2)))
def test_setflags_method(a):
    def freeze(xp, a):
        b = a.copy()
        b.setflags(write=False)
        with pytest.raises(ValueError):
            b[...] = 0
        view = b[...]
        with pytest.raises(ValueError):  # a view of a read-only array cannot be made writeable
            view.setflags(write=True)
        b.setflags(write=True)
        b[...] = 1
        return b, b.flags.writeable, view.flags.writeable
    assert_matches(freeze, a)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3)), st.sampled_from([0, 1, 2.5, 1j, True]))
def test_contains_and_delitem(a, value):
    assert_matches(lambda xp, a: value in a, a)
    assert_matches(lambda xp, a: a.__delitem__(0), a)


def test_contains_broadcast_error():
    assert_matches(lambda xp, a: xp.arange(4) in a, numpy.arange(6).reshape(2, 3))


@pytest.mark.parametrize("call", [lambda a: a.getfield(numpy.float32), lambda a: a.setfield(1.0, numpy.float64),
                                  lambda a: a.dumps(), lambda a: a.dump("x.npy"), lambda a: a.tofile("x.bin")])
def test_record_and_file_methods_are_unsupported(call):
    with pytest.raises(UnsupportedFeature):
        call(shim.arange(3.0))


# ------------------------------------------------------------------------------ testing


@given(arrays(dtype=dtypes(REAL), shape=st.sampled_from([(3,), (2, 3), ()]), finite=True),
       arrays(dtype=dtypes(REAL), shape=st.sampled_from([(3,), (2, 3), (2,)]), finite=True),
       st.sampled_from([operator.lt, operator.le, operator.eq]))
def test_assert_array_compare(x, y, op):
    assert_matches(lambda xp, x, y: xp.testing.assert_array_compare(op, x, y), x, y)
    assert_matches(lambda xp, x: xp.testing.assert_array_compare(op, x, x, equal_inf=False), x)
