"""Differential tests for indexing: a[index], a[index] = value, and the index functions."""

from __future__ import annotations

import math
import warnings

import numpy
import pytest
import torch
from hypothesis import given, strategies as st

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from tests.numpy_conformance.harness import assert_matches, assert_same, to_shim
from tests.numpy_conformance.strategies import ALL, REAL, arrays, dtypes, shapes

INDEX_DTYPES = [numpy.dtype(t) for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")]


# ---------------------------------------------------------------- index strategies


@st.composite
def index_entries(draw, shape, pos):
    """One entry of an index tuple; ``pos`` is the array dim it would apply to (may be past the end)."""
    n = shape[pos] if pos < len(shape) else 3
    kind = draw(st.sampled_from(["int", "int", "slice", "slice", "none", "ellipsis", "intarray", "boollist",
                                 "mask", "bool0", "npint"]))
    if kind == "int":
        return draw(st.integers(-n - 1, n))
    if kind == "npint":
        return numpy.int64(draw(st.integers(-n, max(n - 1, -n))))
    if kind == "slice":
        bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
        return slice(draw(bound), draw(bound), draw(st.one_of(st.none(), st.integers(-3, 3).filter(bool))))
    if kind == "none":
        return None
    if kind == "ellipsis":
        return Ellipsis
    if kind == "bool0":
        return draw(st.sampled_from([True, False, numpy.True_, numpy.array(False)]))
    if kind == "intarray":
        idx_shape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
        dt = draw(st.sampled_from(INDEX_DTYPES))
        lo = 0 if dt.kind == "u" else -n
        vals = numpy.array(draw(st.lists(st.integers(lo, max(n - 1, lo)), min_size=int(numpy.prod(idx_shape)),
                                         max_size=int(numpy.prod(idx_shape)))), dtype=dt).reshape(idx_shape)
        if n == 0 and vals.size:
            vals[...] = 0  # out of bounds on purpose: an IndexError either way
        form = draw(st.sampled_from(["array", "list"]))
        return vals.tolist() if form == "list" and vals.ndim else vals
    if kind == "boollist":
        length = draw(st.sampled_from([n, n, max(n - 1, 0)]))
        return draw(st.lists(st.booleans(), min_size=length, max_size=length))
    k = draw(st.integers(1, max(1, min(2, len(shape) - pos))))
    mshape = tuple(shape[pos:pos + k]) if pos + k <= len(shape) else (n,)
    return draw(arrays(numpy.bool_, mshape, views=False))


@st.composite
def indices(draw, shape):
    count = draw(st.integers(0, len(shape) + 1))
    entries, pos = [], 0
    for _ in range(count):
        e = draw(index_entries(shape, pos))
        entries.append(e)
        if isinstance(e, numpy.ndarray) and e.dtype == bool:
            pos += max(e.ndim, 0)
        elif e is not None and e is not Ellipsis and not isinstance(e, (bool, numpy.bool_)):
            pos += 1
    if len(entries) == 1 and draw(st.booleans()):
        return entries[0]
    return tuple(entries)


def _shim_index(index):
    """The index with NumPy arrays as shim arrays (lists, scalars and slices stay as they are)."""
    if isinstance(index, tuple):
        return tuple(_shim_index(i) for i in index)
    if isinstance(index, numpy.ndarray):
        return shim.asarray(index)
    return index


def _np_call(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as e:  # NumPy's exception type is the oracle
            return None, e


# ---------------------------------------------------------------- getitem


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(max_dims=3, max_side=4)))
def test_getitem(data, a):
    index = data.draw(indices(a.shape))
    expected, err = _np_call(lambda: a[index])
    s = shim.asarray(a.copy())
    if err is not None:
        with pytest.raises(type(err)):
            s[_shim_index(index)]
        return
    got = s[_shim_index(index)]
    assert_same(expected, got)


@given(data=st.data(), a=arrays(dtypes(REAL), shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)))
def test_basic_getitem_is_a_view(data, a):
    """Basic indices (no negative steps) give views: writing into the result changes the original."""
    index = data.draw(indices(a.shape).filter(_is_basic))
    n, s = a.copy(), shim.asarray(a.copy())
    r_np, err = _np_call(lambda: n[index])
    if err is not None or not isinstance(r_np, numpy.ndarray):
        return
    r = s[_shim_index(index)]
    r_np[...] = 1
    r[...] = 1
    assert_same(n, s)
    assert r.base is not None


def test_element_is_not_a_view():
    """An index picking one element gives NumPy's scalar: later writes to the array do not change it."""
    for a, index in [(numpy.arange(5.0), 3), (numpy.arange(6.0).reshape(2, 3), (1, -1)), (numpy.array(7.0), ())]:
        s = shim.asarray(a.copy())
        x = s[index]
        s[...] = -1
        assert x.ndim == 0 and float(x) == a[index]


def _is_basic(index):
    entries = index if isinstance(index, tuple) else (index,)
    return all(e is None or e is Ellipsis or type(e) is int or (isinstance(e, slice) and (e.step or 1) > 0)
               for e in entries)


def test_getitem_examples():
    a = numpy.arange(120).reshape(2, 3, 4, 5)
    for index in [(slice(None), 0, slice(None), [0, 1]), (0, slice(None), [0, 1]), ([0, 1], None, [0, 1]),
                  (slice(None), [0, 1, 2], None, [0, 1, 2]), (slice(None), [0, 1, 2], Ellipsis, [0, 1, 2]),
                  (slice(None), [0, 1, 2], True, [0, 1, 2]), (0, True), ([0, 1], True), (Ellipsis, None),
                  (slice(None), numpy.ones((3, 4), bool)), (slice(None), numpy.ones((3, 4), bool), [0]),
                  numpy.array(1), (numpy.array(1), slice(None), [0, 1]), ([[0, 1], [1, 0]], slice(None, None, -1)),
                  (slice(None, None, -2), [2, 0], slice(3, 0, -1)), ()]:
        assert_matches(lambda xp, a: a[_shim_index(index) if xp is shim else index], a)


@pytest.mark.parametrize("step", [2**62, 2**63 - 1, 2**63, 2**64, -2**63 + 1, -2**63, -2**64])
def test_huge_slice_steps(step):
    """A step beyond any dim's length selects one element (NumPy clamps it to the largest index); torch's length
    arithmetic overflowed near 2**63 (a[::2**63] was empty, a 2-D a[::2**63, 1] raised RuntimeError)."""
    a = numpy.arange(12).reshape(4, 3)
    for index in [slice(None, None, step), slice(1, None, step), (slice(None, None, step), 1)]:
        assert_matches(lambda xp, a: a[index], a)

    def assign(xp, a):
        a[1::step] = 7
        a[::step, 2] += 1
        return a
    assert_matches(assign, a)


@pytest.mark.parametrize("index,exc", [
    (1.0, IndexError), ([1.0], IndexError), (numpy.array(1.5), IndexError), (slice(1.0, 2), TypeError),
    ((Ellipsis, Ellipsis), IndexError), ((0, 0, 0), IndexError), (5, IndexError), (-6, IndexError),
    (numpy.array([5]), IndexError), ([True, False], IndexError), ("a", IndexError), ([slice(None)], IndexError),
    ([[0, 1], [2]], ValueError), (([0, 1], [0, 1, 2]), IndexError), (slice(None, None, 0), ValueError),
    (numpy.array([2**63], numpy.uint64), IndexError),
])
def test_getitem_errors(index, exc):
    a = numpy.arange(5).reshape(5, 1)[:, 0] if not isinstance(index, tuple) or len(index) != 2 else \
        numpy.arange(15).reshape(5, 3)
    with pytest.raises(exc):
        a[index]
    with pytest.raises(exc):
        shim.asarray(a)[_shim_index(index)]


def test_getitem_error_message():
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        shim.arange(3)[[0, 5]] if hasattr(shim, "arange") else shim.asarray([1, 2, 3])[[0, 5]]


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64"])
def test_wide_unsigned(dt):
    a = (numpy.arange(12, dtype=dt) + numpy.array(2**(numpy.dtype(dt).itemsize * 8) - 20, dt)).reshape(3, 4)
    for index in [([0, 2], slice(None, None, -1)), a > a[1, 1], (slice(None), [3, 0]),
                  (Ellipsis, slice(None, None, -2))]:
        assert_matches(lambda xp, a: a[_shim_index(index) if xp is shim else index], a)

        def assign(xp, a):
            a[_shim_index(index) if xp is shim else index] = a.dtype.type(7) if xp is numpy else 7
            return a
        assert_matches(assign, a)


# ---------------------------------------------------------------- setitem


@st.composite
def values_for(draw, shape, dtype):
    kind = draw(st.sampled_from(["pyscalar", "array", "array", "list", "bad"]))
    if kind == "pyscalar":
        if dtype.kind in "iu":
            info = numpy.iinfo(dtype)
            return draw(st.one_of(st.integers(int(info.min), int(info.max)), st.booleans(), st.integers(-300, 300)))
        return draw(st.one_of(st.floats(-100, 100), st.integers(-100, 100), st.booleans()))
    vshape = draw(st.sampled_from([shape, shape[1:], (1,) + tuple(shape), (2,), ()])) if kind != "bad" else \
        draw(shapes(max_dims=2, max_side=3))
    vdt = draw(st.sampled_from([dtype] + REAL))
    v = draw(arrays(vdt, vshape, finite=True))
    if dtype.kind in "iub" and vdt.kind == "f":
        v = numpy.clip(v, -100, 100)
    return v.tolist() if kind == "list" and v.ndim and dtype.kind == vdt.kind else v


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(max_dims=3, max_side=4)))
def test_setitem(data, a):
    index = data.draw(indices(a.shape))
    n = a.copy()
    target, err = _np_call(lambda: n[index])
    shape = target.shape if isinstance(target, numpy.ndarray) else ()
    value = data.draw(values_for(shape, a.dtype))
    _, err = _np_call(lambda: n.__setitem__(index, value))
    s = shim.asarray(a.copy())
    if err is not None:
        with pytest.raises(type(err)):
            s[_shim_index(index)] = to_shim(value)
        assert_same(a, s)  # nothing half-written
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            s[_shim_index(index)] = to_shim(value)
        except UnsupportedFeature:
            return  # documented: a sequence assigned to one boolean element
    assert_same(n, s)


def test_setitem_repeated_indices_last_wins():
    for index, value in [([0, 0, 1, 0], [1, 2, 3, 4]), (([0, 0], [1, 1]), [5, 6]), ([[0, 0], [0, 0]], [[1], [2]])]:
        a = numpy.zeros((3, 4))

        def assign(xp, a):
            a[index] = value
            return a
        assert_matches(assign, a)
    big = numpy.zeros(10)
    idx = numpy.random.default_rng(0).integers(0, 10, 100_000)
    vals = numpy.arange(100_000.0)
    s = shim.asarray(big.copy())
    s[shim.asarray(idx)] = shim.asarray(vals)
    big[idx] = vals
    assert_same(big, s)


@pytest.mark.parametrize("dt,index,value", [
    ("uint8", 0, 300), ("uint8", 0, -1), ("uint8", slice(None), 300), ("uint8", slice(0, 2), [300, 1]),
    ("uint8", [0, 1], 300), ("int64", 0, float("nan")), ("int64", slice(None), float("nan")),
    ("int64", 0, float("inf")), ("int64", slice(None), [float("nan")]), ("float64", 0, 1 + 2j),
    ("float64", slice(None), [1 + 2j]), ("int64", 0, 2.7), ("uint8", 0, -2.7), ("uint8", 0, [1]),
    ("float64", 0, [1]), ("float64", 0, numpy.array([1.0])), ("complex128", 0, [1]), ("int64", 5, 1),
    ("int64", [0, 5], 1), ("uint64", 0, 2**63), ("uint64", 0, 2**64), ("int64", slice(0, 2), numpy.ones((2, 2))),
    ("int64", slice(0, 2), numpy.ones((1, 2))), ("int64", [0, 1], numpy.ones(3)), ("float32", 0, 10**20),
    ("int64", numpy.array([True, False, True]), [7, 8, 9]), ("bool", 0, 1 + 1j), ("bool", slice(None), 2.5),
    ("float16", 0, 1e10), ("int8", slice(None), numpy.array([300.7, -1.5])),
])
def test_setitem_conversions(dt, index, value):
    def assign(xp, a):
        a[index] = value
        return a
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_matches(assign, numpy.zeros(3, dt))


def test_setitem_complex_warning():
    s = shim.asarray(numpy.zeros(3))
    with pytest.warns(numpy.exceptions.ComplexWarning):
        s[:] = shim.asarray(numpy.array([1 + 2j]))
    assert s.tolist() == [1.0, 1.0, 1.0]


def test_negative_step_slices_are_copies_written_back_only_by_assignment():
    """The README's deviation, pinned: assignment and augmented assignment through a[::-1] reach a (Python
    writes those back with __setitem__); other writes into the copy do not (NumPy's view would pass them on)."""
    s = shim.arange(5.0)
    s[::-1] = shim.arange(5.0)
    s[::-1] += 1
    assert s.tolist() == [5.0, 4.0, 3.0, 2.0, 1.0]
    v = s[::-1]
    v[0] = 100.0
    shim.add(s, 1, out=s[::-1])
    s[::-1].fill(7.0)
    assert v.base is not s and s.tolist() == [5.0, 4.0, 3.0, 2.0, 1.0]


def test_setitem_read_only_and_overlap():
    s = shim.asarray(numpy.arange(5.0))
    r = s[1:]
    s.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        s[0] = 1
    s = shim.asarray(numpy.arange(5.0))
    s[1:] = s[:-1]
    assert s.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0]
    s[::-1] = s
    assert s.tolist() == [3.0, 2.0, 1.0, 0.0, 0.0]
    s[[0, 1, 2, 3, 4]] = s[::-1]
    assert s.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0]
    del r


# ---------------------------------------------------------------- fast paths: one index array


def _fast_cases():
    """(array, index array) pairs of the one-array fast paths: every dtype, views, masks over leading dims."""
    rng = numpy.random.default_rng(1)
    for dt in ALL:
        a = (rng.standard_normal((4, 3)) * 10).astype(dt)
        yield a, numpy.array([3, 0, 0, 2])  # repeated rows
        yield a[:, 1], numpy.array([[1, 2], [0, 0]])  # a strided view, a 2-D index
        yield a.T, numpy.array([2, 1])
        yield a, a.real > 0 if dt.kind != "b" else a  # a whole mask
        yield a, numpy.array([True, False, True, True])  # a mask over the leading dim
    a = numpy.arange(5.0)
    yield from [(a, numpy.array([], numpy.int64)), (a, numpy.array([5])), (a, numpy.array([-6, 0])),
                (a, numpy.array([-1, -5])), (a, numpy.array([True, False])), (a, numpy.array([2], numpy.int32)),
                (a, numpy.array(2)), (a, numpy.array(True)), (numpy.array(3.0), numpy.array([True])),
                (numpy.zeros((0, 2)), numpy.array([0])), (numpy.zeros((0, 2)), numpy.array([], numpy.int64))]


@pytest.mark.parametrize("a,index", list(_fast_cases()))
def test_getitem_one_array(a, index):
    """``a[i]`` for one int64 or boolean array (torch's indexing directly) against NumPy: dtype, shape, values,
    errors; the result is a copy."""
    expected, err = _np_call(lambda: a[index])
    s = shim.asarray(a)
    if err is not None:
        with pytest.raises(type(err), match=str(err).replace("(", ".").replace(")", ".")):
            s[shim.asarray(index)]
        return
    got = s[shim.asarray(index)]
    assert_same(expected, got)
    if got.size and index.ndim:
        got[...] = 0
        assert_same(a, s)  # not a view


def test_one_array_fast_path_taken():
    """The fast paths run for the common cases, and not for those the general path must take."""
    from npcompile._numpy._indexing import _assign_one_array, _one_array

    a, i = shim.arange(5.0), shim.asarray([4, 0, 1])
    t = a.tensor
    assert _one_array(t, i.tensor) is not None and _one_array(t, t > 2) is not None
    assert _one_array(t, shim.asarray([5]).tensor) is None  # out of bounds: NumPy's message from the general path
    assert _one_array(shim.arange(5, dtype="uint32").tensor, i.tensor) is None  # wide unsigned: the general path
    assert _one_array(t, i.astype("int32").tensor) is None
    assert _assign_one_array(t, t > 2, 1.0) and _assign_one_array(t, i.tensor, 2)
    assert _assign_one_array(t, i.tensor, a[:3] + 1)
    for value in (a[:2], a[:3].astype("float32"), numpy.float64(1.0), [1.0, 2.0, 3.0]):  # shape, dtype, type
        assert not _assign_one_array(t, i.tensor, value)
    assert not _assign_one_array(t, shim.asarray([0, 0, 1]).tensor, a[:3])  # repeats: NumPy's last write wins
    assert not _assign_one_array(t, shim.asarray([-1, 0]).tensor, 1.0)  # negative: the general path
    assert not _assign_one_array(t, shim.asarray([5, 0]).tensor, 1.0)  # out of bounds: nothing written
    assert not _assign_one_array(shim.zeros(3, "float32").tensor, i.tensor[1:], 1e300)  # inf: the general path


def _values(a, index):
    """Values to assign at ``a[index]``: Python scalars of each kind, and arrays of the indexed shape in ``a``'s
    dtype (also reading ``a`` itself) and in another dtype."""
    n = numpy.asarray(a[index])
    yield from [1, -3, 2.5, True, 1 + 2j, float("nan"), 1e10, 1e300, 300, 2**63]
    yield (n + 1).astype(a.dtype) if a.dtype.kind != "b" else ~n
    if n.ndim and n.shape == a[:len(n)].shape:
        yield a[:len(n)]  # reads the memory written
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield n.astype(numpy.float32)
    yield n.reshape(-1)[:1]  # broadcasts


@pytest.mark.parametrize("a,index", list(_fast_cases()))
def test_setitem_one_array(a, index):
    """``a[i] = v`` for one int64 or boolean array (torch's masked_fill_, index_fill_, index_copy_ directly for
    scalars and same-dtype arrays of the indexed shape) against NumPy: values, repeats (the last write wins),
    aliasing, conversion errors; nothing is written when NumPy raises."""
    _, err = _np_call(lambda: a[index])
    for value in [None] if err is not None else _values(a, index):
        n, s = a.copy(), shim.asarray(a)
        _, err = _np_call(lambda: n.__setitem__(index, value if value is not None else 1))
        sv = to_shim(value) if value is not None else 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if err is not None:
                with pytest.raises(type(err)):
                    s[shim.asarray(index)] = sv
                assert_same(a, s)  # nothing half-written
            else:
                s[shim.asarray(index)] = sv
                assert_same(n, s)


def test_setitem_one_array_repeats_and_aliasing():
    for idx in ([1, 1, 4, 1], [1, 2, 3, 4]):  # the value reads what the write changes
        n = numpy.arange(6.0)
        s = shim.asarray(n)
        n[numpy.array(idx)] = n[:4]
        s[shim.asarray(idx)] = s[:4]
        assert_same(n, s)
    m = numpy.array([True, False, True])
    sm = shim.asarray(m)
    m[m] = False
    sm[sm] = False
    assert_same(m, sm)
    s.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        s[shim.asarray(idx)] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        s[s > 0] = 1.0


# ---------------------------------------------------------------- take / put / along-axis / choose / compress


def _quiet(fn):
    def run(xp, *args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(xp, *args)
    return run


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(max_dims=3, max_side=4)))
def test_take(data, a):
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    n = a.size if axis is None or a.ndim == 0 else a.shape[axis] if -a.ndim <= axis < a.ndim else 3
    idx = data.draw(arrays(st.sampled_from(INDEX_DTYPES[:4]), shapes(max_dims=2, max_side=3), views=False).map(
        lambda i: _around(i, n)))
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"] if n else ["raise", "clip"]))  # NumPy hangs
    assert_matches(lambda xp, a, i: xp.take(a, i, axis=axis, mode=mode), a, idx)


def _around(i, n):
    """Indices mostly within ``[-n, n]`` (some out of bounds when ``n`` is 0), in ``i``'s dtype where they fit."""
    r = i.astype(numpy.int64) % (2 * n + 1) - n if n else i.astype(numpy.int64)
    return r.astype(i.dtype) if n < numpy.iinfo(i.dtype).max else r


def test_take_forms():
    a = numpy.arange(6.0).reshape(2, 3)
    assert_matches(lambda xp, a: xp.take(a, [1.7]), a)
    assert_matches(lambda xp, a: xp.take(a, 1), a)
    assert_matches(lambda xp, a: xp.take(a, numpy.array([0.5]) if xp is numpy else shim.asarray([0.5])), a)
    assert_matches(lambda xp, a: xp.take(a, [9], axis=1), a)
    assert_matches(lambda xp, a: xp.take(a, [1], mode="foo"), a)
    assert_matches(lambda xp, a: xp.take(a, [0], mode="wrap"), numpy.zeros(0))
    assert_matches(lambda xp, a: xp.take(a, 0, axis=0), numpy.array(5))
    assert_matches(lambda xp, a: xp.take(a, -1, axis=1), a)  # (a 0-d index: a new array, as every take)
    assert_matches(lambda xp, a, i: xp.take(a, i, axis=0), a, numpy.array(1))
    assert_matches(lambda xp, a, o: (xp.take(a, [0, 1], out=o), o)[1], a, numpy.zeros(2, numpy.int8))
    assert_matches(lambda xp, a, o: xp.take(a, [0, 1], out=o), numpy.arange(6), numpy.zeros(2, numpy.float32))


@pytest.mark.parametrize("shape,index,axis", [
    ((2, 3), [5, -6, 0], None), ((2, 3), [[1], [2]], None), ((2, 3), 4, None), ((2, 3), [6], None),
    ((2, 3), [-7], None), ((2, 3), [2, -1], 1), ((2, 3), [2, -1], -1), ((2, 3), [1, 0, 1], -2),
    ((2, 3), [[0, 1]], 0), ((2, 3), [3], 1), ((2, 3), [0], 2), ((2, 3), [0], -3), ((), [0, -1], None),
    ((), [1], None), ((0,), [0], None), ((0,), [], None),
    ((0, 3), [1], 1), ((0, 3), [5], 1), ((2, 0), [0], 1), ((4, 3), [3, 0], 0),
])
def test_take_direct(shape, index, axis):
    """take with an int64 index array (torch's gather directly) against NumPy, for every dtype, also views."""
    for dt in ALL:
        a = (numpy.arange(math.prod(shape)) - 2).astype(dt).reshape(shape)
        for x in (a, a.T, a[::2]) if a.ndim == 2 else (a,):
            assert_matches(lambda xp, x, i: xp.take(x, i, axis=axis), x, numpy.array(index, numpy.int64))
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        shim.take(shim.zeros((2, 3)), shim.asarray([6]))


def test_take_direct_taken():
    from npcompile._numpy._indexing import _take_direct

    t, i = shim.arange(6.0).reshape(2, 3).tensor, shim.asarray([1, -1]).tensor
    assert _take_direct(t, i, None) is not None and _take_direct(t, i, -1) is not None
    assert _take_direct(t, i + 5, None) is None and _take_direct(t, i, 2) is None  # errors: the general path
    assert _take_direct(t, i.to(dtype=t.dtype), None) is None


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(min_dims=1, max_dims=2, max_side=4)))
def test_put(data, a):
    n = a.size
    idx = data.draw(st.lists(st.integers(-n - 1, n), max_size=5))
    v = data.draw(arrays(dtypes(REAL), shapes(max_dims=1, max_side=3), finite=True))
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]))
    assert_matches(_quiet(lambda xp, a, v: (xp.put(a, idx, v, mode=mode), a)[1]), a, v)


def test_put_errors():
    for args in [([0], 300), ([0, 9], [1, 2]), ([0], [])]:
        assert_matches(lambda xp, a: (xp.put(a, *args), a)[1], numpy.zeros(4, numpy.uint8))
    assert_matches(lambda xp: xp.put([1, 2], [0], [1]))
    s = shim.asarray(numpy.zeros(3))
    s.flags.writeable = False
    with pytest.raises(ValueError):
        shim.put(s, [0], 1)


@pytest.mark.parametrize("ind", [numpy.array([1.0]), numpy.array([1], numpy.uint64), numpy.array([1], numpy.uint32),
                                 numpy.array([True]), numpy.array(1.0), numpy.array(1, numpy.uint64), [1.0], 1.0,
                                 numpy.float64(1), numpy.uint64(1), [numpy.uint64(1)], [[0], [2]]])
def test_put_index_conversion(ind):
    """put casts an index array safely (uint64 and float arrays, 0-D ones too, are a TypeError); scalars, NumPy's
    included, and sequences convert (1.0 is index 1)."""
    for f in (lambda xp, a: (xp.put(a, ind, 9), a)[1], lambda xp, a: (a.put(ind, 9), a)[1]):
        assert_matches(f, numpy.arange(3))


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(min_dims=1, max_dims=3, max_side=4)))
def test_take_put_along_axis(data, a):
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    ishape = tuple(data.draw(st.sampled_from([s, 1])) if d != axis % a.ndim else data.draw(st.integers(0, 3))
                   for d, s in enumerate(a.shape))
    idx = data.draw(arrays(numpy.int64, ishape, views=False).map(lambda i: i % (2 * n) - n if n else i * 0))
    assert_matches(lambda xp, a, i: xp.take_along_axis(a, i, axis), a, idx)
    vals = data.draw(arrays(a.dtype, ishape, finite=True))
    assert_matches(_quiet(lambda xp, a, i, v: (xp.put_along_axis(a, i, v, axis), a)[1]), a, idx, vals)


def test_along_axis_errors():
    a = numpy.arange(6).reshape(2, 3)
    for idx, axis in [(numpy.array([[0.0]]), 1), (numpy.array([0]), 1), (numpy.array([0, -1]), None),
                      (numpy.array([[0], [1], [1]]), 1), (numpy.array([[5]]), 1), (numpy.array([[0, 0, 0]]), 1)]:
        assert_matches(lambda xp, a, i: xp.take_along_axis(a, i, axis), a, idx)
        assert_matches(lambda xp, a, i: (xp.put_along_axis(a, i, 7, axis), a)[1], a, idx)
    assert_matches(lambda xp, a, i: xp.take_along_axis(a, i, 0), numpy.array(1), numpy.array(0))
    assert_matches(lambda xp, a: (xp.put_along_axis(a, numpy.array([[0, 0, 0]]) if xp is numpy else
                                                    shim.asarray([[0, 0, 0]]), [[1, 2, 3]], 1), a)[1], a)


@given(data=st.data(), shape=shapes(max_dims=2, max_side=4))
def test_choose(data, shape):
    n = data.draw(st.integers(1, 3))
    choices = [data.draw(arrays(dtypes(ALL), st.sampled_from([shape, shape[1:], ()]))) for _ in range(n)]
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]))
    idx = data.draw(arrays(numpy.int64, shape, views=False).map(lambda i: i % (n + 2) - 1))
    assert_matches(lambda xp, i, *c: xp.choose(i, c, mode=mode), idx, *choices)


def test_choose_forms():
    for args in [([0, 1], [numpy.array([1, 2], numpy.int8), 1000]), ([0, 1], [numpy.array([1, 2], numpy.int8), 2.5]),
                 ([0.0, 1], [[1, 2], [3, 4]]), ([[0], [1]], [[1, 2], [3, 4]]), ([0, 1], []),
                 ([True, False], [[1, 2], [3, 4]]), (1, [1, 2]), ([0, 1], numpy.arange(4).reshape(2, 2))]:
        assert_matches(lambda xp: xp.choose(*to_shim(args) if xp is shim else args))
    assert_matches(lambda xp, o: xp.choose([0, 1], [[1, 2], [3, 4]], out=o), numpy.zeros(2, numpy.float32))


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(max_dims=3, max_side=4)))
def test_compress_extract(data, a):
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    n = a.size if axis is None else a.shape[axis] if -a.ndim <= axis < a.ndim else 2
    cond = data.draw(st.lists(st.booleans(), max_size=n + 1))
    assert_matches(lambda xp, a: xp.compress(cond, a, axis=axis), a)
    assert_matches(lambda xp, a: a.compress(cond, axis=axis), a)
    flat = data.draw(st.lists(st.integers(0, 2), max_size=a.size + 1))
    assert_matches(lambda xp, a: xp.extract(flat, a), a)


# ---------------------------------------------------------------- where / select / nonzero family


@given(c=arrays(numpy.bool_, shapes(max_dims=3, max_side=3)), x=arrays(dtypes(ALL), shapes(max_dims=2, max_side=3)),
       y=st.one_of(arrays(dtypes(ALL), shapes(max_dims=2, max_side=3)), st.integers(-200, 200), st.floats(-5, 5),
                   st.booleans()))
def test_where(c, x, y):
    assert_matches(lambda xp, c, x: xp.where(c, x, y), c, x)
    assert_matches(lambda xp, c, x: xp.where(c, y, x), c, x)


def test_where_forms():
    a = numpy.arange(6).reshape(2, 3)
    assert_matches(lambda xp, a: xp.where(a > 2), a)
    assert_matches(lambda xp, a: xp.where(a), numpy.array(1))
    assert_matches(lambda xp, a: xp.where(a > 2, 1), a)
    assert_matches(lambda xp: xp.where([1, 0], 1, 2))
    assert_matches(lambda xp: xp.where(True, 1, 2))
    assert_matches(lambda xp: xp.where([True, False], [1, 2, 3], 0))


@given(a=arrays(dtypes(ALL), shapes(max_dims=3, max_side=4)))
def test_nonzero_family(a):
    assert_matches(lambda xp, a: xp.nonzero(a), a)
    assert_matches(lambda xp, a: xp.argwhere(a), a)
    assert_matches(lambda xp, a: xp.flatnonzero(a), a)


@given(data=st.data(), shape=shapes(max_dims=2, max_side=3))
def test_select(data, shape):
    n = data.draw(st.integers(1, 3))
    conds = [data.draw(arrays(numpy.bool_, st.sampled_from([shape, shape[1:]]))) for _ in range(n)]
    choices = [data.draw(st.one_of(arrays(dtypes(ALL), st.sampled_from([shape, ()])), st.integers(-5, 5)))
               for _ in range(n)]
    default = data.draw(st.one_of(st.integers(-300, 300), st.floats(-2, 2), arrays(dtypes(REAL), st.just(()))))
    assert_matches(lambda xp, cs, vs, d: xp.select(cs, vs, d), conds, choices, default)


def test_select_errors():
    a = numpy.arange(6)
    for args in [([[1, 0]], [[1, 2]]), ([], []), ([a > 1], [a, a]), ([numpy.array(True)], [1])]:
        assert_matches(lambda xp: xp.select(*to_shim(args) if xp is shim else args))


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(min_dims=1, max_dims=2, max_side=4)))
def test_place_putmask(data, a):
    mask = data.draw(arrays(numpy.bool_, st.sampled_from([a.shape, (a.size + 1,)]), views=False))
    vals = data.draw(arrays(dtypes(REAL), shapes(max_dims=1, max_side=3), finite=True))
    assert_matches(_quiet(lambda xp, a, m, v: (xp.place(a, m, v), a)[1]), a, mask, vals)
    assert_matches(_quiet(lambda xp, a, m, v: (xp.putmask(a, m, v), a)[1]), a, mask, vals)


def test_place_putmask_conversions():
    for fn in ("place", "putmask"):
        for vals in ([300], [], [1.5, 2], [1j]):
            assert_matches(lambda xp, a: (getattr(xp, fn)(a, [True, False, True], vals), a)[1],
                           numpy.zeros(3, numpy.uint8))
        assert_matches(lambda xp: getattr(xp, fn)([1, 2], [True, True], [3]))


# ---------------------------------------------------------------- diagonals, triangles, ravel/unravel, ix_


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(max_dims=4, max_side=4)))
def test_diagonal(data, a):
    offset = data.draw(st.integers(-4, 4))
    ax1, ax2 = data.draw(st.integers(-a.ndim - 1, a.ndim)), data.draw(st.integers(-a.ndim - 1, a.ndim))
    r = assert_matches(lambda xp, a: xp.diagonal(a, offset, ax1, ax2), a)
    if r is not None:
        assert not r.flags.writeable and r.base is not None


@given(data=st.data(), a=arrays(dtypes(ALL), shapes(min_dims=1, max_dims=3, max_side=5)))
def test_fill_diagonal(data, a):
    val = data.draw(st.one_of(st.integers(0, 100), arrays(dtypes(REAL), shapes(max_dims=1, max_side=3), finite=True)))
    wrap = data.draw(st.booleans())
    assert_matches(_quiet(lambda xp, a: (xp.fill_diagonal(a, val, wrap), a)[1]), a)


@pytest.mark.parametrize("n,k,m", [(3, 0, None), (4, 1, 2), (3, -1, 5), (0, 0, None), (-1, 0, None), (3, 5, 2)])
def test_triangle_indices(n, k, m):
    assert_matches(lambda xp: xp.tril_indices(n, k, m))
    assert_matches(lambda xp: xp.triu_indices(n, k, m))
    a = numpy.zeros((max(n, 0), m if m is not None else max(n, 0)))
    assert_matches(lambda xp, a: xp.tril_indices_from(a, k), a)
    assert_matches(lambda xp, a: xp.triu_indices_from(a, k), a)
    assert_matches(lambda xp: xp.mask_indices(max(n, 0), xp.triu, k))
    assert_matches(lambda xp, a: xp.tril_indices_from(a), numpy.zeros(3))


def test_diag_indices():
    assert_matches(lambda xp: xp.diag_indices(4, 3))
    for shape in [(3, 3), (2, 2, 2), (2, 3), (3,)]:
        assert_matches(lambda xp, a: xp.diag_indices_from(a), numpy.zeros(shape))


@given(data=st.data(), shape=shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))
def test_unravel_ravel(data, shape):
    size = int(numpy.prod(shape))
    order = data.draw(st.sampled_from(["C", "F"]))
    idx = data.draw(st.one_of(st.integers(-1, size), st.lists(st.integers(0, max(size, 1)), max_size=4)))
    assert_matches(lambda xp: xp.unravel_index(idx, shape, order=order))
    coords = [data.draw(st.lists(st.integers(-2, s + 1), min_size=2, max_size=2)) for s in shape]
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip", tuple("wrap" if i % 2 else "clip" for i in
                                                                     range(len(shape)))]))
    assert_matches(lambda xp: xp.ravel_multi_index(coords, shape, mode=mode, order=order))


def test_ravel_unravel_errors():
    assert_matches(lambda xp: xp.unravel_index([1.5], (3,)))
    assert_matches(lambda xp: xp.unravel_index(1, (3,), order="X"))
    assert_matches(lambda xp: xp.ravel_multi_index(([1],), (3, 4)))
    assert_matches(lambda xp: xp.ravel_multi_index(([1.5], [1]), (3, 4)))


def test_ix():
    for args in [([0, 1], [True, False, True], []), ([[0]],), ([0.5],), (numpy.array([1], numpy.uint8),), (),
                 (numpy.array(1),)]:
        assert_matches(lambda xp: xp.ix_(*to_shim(args) if xp is shim else args))
    a = numpy.arange(12).reshape(3, 4)
    assert_matches(lambda xp, a: a[xp.ix_([0, 2], [1, 3])], a)


# ---------------------------------------------------------------- iteration helpers and index tricks


def test_ndindex_ndenumerate_iterable():
    assert list(shim.ndindex(2, 3)) == list(numpy.ndindex(2, 3))
    assert list(shim.ndindex((2, 1))) == list(numpy.ndindex((2, 1)))
    assert list(shim.ndindex()) == list(numpy.ndindex())
    a = numpy.arange(6).reshape(2, 3)
    got = [(i, v.item()) for i, v in shim.ndenumerate(shim.asarray(a))]
    assert got == [(i, v.item()) for i, v in numpy.ndenumerate(a)]
    for y in [[1], 1, shim.asarray(numpy.array(1)), shim.asarray(a), "ab", (x for x in [])]:
        assert shim.iterable(y) == numpy.iterable(numpy.asarray(y) if isinstance(y, shim.ndarray) else y)


def test_nditer_and_nested_iters_on_our_arrays():
    """NumPy's iterator over our arrays' memory: it reads them and writes through readwrite operands."""
    a = numpy.arange(6.0).reshape(2, 3)
    s = shim.asarray(a.copy())
    with shim.nditer([s, None], op_flags=[["readwrite"], ["writeonly", "allocate"]]) as it:
        for x, y in it:
            y[...] = x * x
            x[...] = 2 * x
        squares = it.operands[1]
    numpy.testing.assert_array_equal(numpy.asarray(s), 2 * a)
    assert type(squares) is numpy.ndarray  # (README: NumPy's iterator, NumPy's arrays)
    numpy.testing.assert_array_equal(squares, a * a)
    with pytest.raises(UnsupportedFeature, match="off the CPU"):
        shim.nditer(shim.ndarray(torch.empty(3, device="meta")))
    assert [x.item() for x in shim.nditer(s.T, order="C")] == [x.item() for x in numpy.nditer((2 * a).T, order="C")]
    outer, inner = shim.nested_iters(s, [[0], [1]], flags=["multi_index"])
    assert [(outer.multi_index, inner.multi_index) for _ in outer for _ in inner] == \
        [((i,), (j,)) for i in range(2) for j in range(3)]
    read_only = shim.asarray(numpy.ones(3))
    read_only.flags.writeable = False
    with pytest.raises(ValueError):
        shim.nditer(read_only, op_flags=["readwrite"])


def test_shares_memory():
    a = numpy.arange(24.0).reshape(4, 6)
    s = shim.asarray(a.copy())
    for f, g in [(lambda x: x[0], lambda x: x[1]), (lambda x: x[:, 0], lambda x: x[:, 1]),
                 (lambda x: x, lambda x: x[1]), (lambda x: x[::2], lambda x: x[1::2]),
                 (lambda x: x[:2], lambda x: x[1:]), (lambda x: x, lambda x: x.copy()),
                 (lambda x: x.T, lambda x: x[2:, 3]), (lambda x: x[0], lambda x: [1, 2])]:
        for fn in ("shares_memory", "may_share_memory"):
            assert getattr(shim, fn)(f(s), g(s)) == getattr(numpy, fn)(f(a), g(a)), (fn, f, g)


def test_grids():
    for key in [slice(0, 5), slice(0, 2, 0.5), slice(0, 2, 3j), slice(5, 0, -2), slice(None, 3), slice(0, 0),
                slice(0, 1, 1j), (slice(0, 2), slice(0, 3)), (slice(0, 2, 3j), slice(0, 1, 2j)),
                (slice(0, 2), slice(0, 1, 0.25))]:
        assert_matches(lambda xp: xp.mgrid[key])
        assert_matches(lambda xp: xp.ogrid[key])


@pytest.mark.parametrize("key", [
    (slice(1, 4), 0, 4, [7, 8]), (slice(1, 4), 0.5), ("0,2", [1, 2], [3, 4]), ("-1,2,0", [1, 2], [3, 4]),
    ("1", numpy.ones((2, 2)), numpy.zeros((2, 1))), ("0,2,1", [1, 2], [3, 4]), ("0,3,-1", [1, 2]), ("0,3,0", [1, 2]),
    ("0,3,1", [1, 2]), (), (True, 2), (slice(0, 1, 3j), 5), (numpy.array(5), numpy.array([1])), ([1], "0", [2]),
    ("a", [1]), (numpy.array([1], numpy.int8), 300), (numpy.array([1], numpy.int8), numpy.array(3, numpy.int16)),
])
def test_r_(key):
    assert_matches(lambda xp: xp.r_[to_shim(key) if xp is shim else key])


@pytest.mark.parametrize("key", [
    (numpy.array([1, 2, 3]), numpy.array([4, 5, 6])), (numpy.array([[1, 2, 3]]), 0, 0, numpy.array([[4, 5, 6]])),
    (slice(1, 3), slice(4, 6)),
])
def test_c_(key):
    assert_matches(lambda xp: xp.c_[to_shim(key) if xp is shim else key])


def test_s_index_exp():
    assert shim.s_[1:2] == numpy.s_[1:2] and shim.s_[1] == numpy.s_[1]
    assert shim.index_exp[1] == numpy.index_exp[1] and shim.index_exp[1:2, 3] == numpy.index_exp[1:2, 3]


@pytest.mark.parametrize("shape", [(4, 0), (4, 0, 3), (2, 0, 4), (0,)])
@pytest.mark.parametrize("i", [[4], [-5], [1], []])
def test_index_arrays_into_empty_data_are_bounds_checked(shape, i):
    # torch checks no bounds when the data is empty; NumPy does (found by HYPOTHESIS_PROFILE=explore)
    a, idx = numpy.zeros(shape), numpy.array(i, dtype=numpy.int64)
    assert_matches(lambda xp, a: a[xp.asarray(idx)], a)
    assert_matches(lambda xp, a: a[:, xp.asarray(idx)] if a.ndim > 1 else a[xp.asarray(idx)], a)
    assert_matches(lambda xp, a: xp.take(a, xp.asarray(idx), axis=0), a)
    assert_matches(lambda xp, a: xp.compress(numpy.arange(5) == 4, a, axis=0), a)


@pytest.mark.parametrize("dtype, value", [
    (numpy.int8, numpy.float64(300.0)), (numpy.int8, numpy.int64(300)), (numpy.int8, numpy.uint64(200)),
    (numpy.int8, numpy.float64(numpy.nan)), (numpy.int8, numpy.float32(1e10)), (numpy.int8, numpy.float64(127.9)),
    (numpy.int64, numpy.float64(1e19)), (numpy.int8, numpy.float16(300)), (numpy.int16, numpy.int8(-5)),
    (numpy.int8, numpy.True_), (numpy.uint8, numpy.float64(300.0)), (numpy.uint8, numpy.int64(-1)),
    (numpy.int8, numpy.array(300.0)), (numpy.int8, numpy.array(300)),
])
@pytest.mark.parametrize("write", ["element", "slice", "fancy", "fill"])
def test_numpy_scalar_written_into_an_integer_array(dtype, value, write):
    """A NumPy scalar set by basic indexing or fill into a signed integer array converts as a Python number (out
    of range: OverflowError, NaN: ValueError); by advanced indexing, into an unsigned array, and a 0-d array
    anywhere, it casts (wraps)."""
    def run(xp, v):
        a = xp.zeros(4, dtype)
        if write == "element":
            a[1] = v
        elif write == "slice":
            a[1:3] = v
        elif write == "fancy":
            a[[0, 2]] = v
        else:
            a.fill(v)
        return a

    ours = value if isinstance(value, numpy.ndarray) else shim.asarray(value)[()]  # our scalar of that value
    for v in (value, ours):
        assert_matches(lambda xp, v=v: run(xp, v if xp is shim else value))


def test_scalar_indices_are_integers():
    """A NumPy scalar index (ours: an unmarked 0-d array) places and views as a Python int does; a 0-d integer
    array copies what it selects."""
    m = numpy.arange(6.0).reshape(2, 3)
    assert_matches(lambda xp, a: a[..., xp.int64(1)], numpy.arange(3.0))
    assert_matches(lambda xp, m: m[m.sum(1).argmax()], m)
    assert_matches(lambda xp, m: m[xp.asarray(1)], m)
