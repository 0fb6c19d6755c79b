"""Differential tests for array products: dot, vdot, inner, outer, tensordot, einsum, einsum_path, kron, cross,
trace, and the matmul ufunc's exact integer/bool paths."""

from __future__ import annotations

import warnings

import numpy
import pytest
from hypothesis import example, given, strategies as st

import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import ALL, arrays, dtypes, shapes

FLOAT16_EINSUM = numpy.dtype("float16")


def small(a):
    """Make float/complex entries small integers, in place (keeps views): products and sums are then exact in every
    float dtype, so results compare exactly whatever the summation order.  Integers keep their full range
    (wraparound is part of what is tested)."""
    if a.dtype.kind == "f":
        a[...] = numpy.clip(numpy.rint(a), -6, 6)
    elif a.dtype.kind == "c":
        a.real[...] = numpy.clip(numpy.rint(a.real), -6, 6)
        a.imag[...] = numpy.clip(numpy.rint(a.imag), -6, 6)
    return a


def operand(draw, shape, dtype=dtypes(ALL)):
    return small(draw(arrays(dtype=dtype, shape=st.just(tuple(shape)), finite=True)))


side = st.integers(0, 4)


@st.composite
def dot_operands(draw):
    """Two arrays with dot-compatible shapes (0-D to 3-D), sometimes with a mismatched core dimension."""
    da, db = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    sa = [draw(side) for _ in range(da)]
    sb = [draw(side) for _ in range(db)]
    if da and db:
        sb[max(db - 2, 0)] = sa[-1]
        if draw(st.integers(0, 9)) == 0:
            sb[max(db - 2, 0)] += 1
    return operand(draw, sa), operand(draw, sb)


@given(dot_operands())
def test_dot(ab):
    assert_matches(lambda xp, a, b: xp.dot(a, b), *ab)


@given(dot_operands())
def test_dot_method_and_matmul_exact(ab):
    a, b = ab
    assert_matches(lambda xp, a, b: xp.asarray(a).dot(b), a, b)
    if a.ndim and b.ndim and b.shape[max(b.ndim - 2, 0)] == a.shape[-1]:
        assert_matches(lambda xp, a, b: xp.matmul(a, b), a, b)


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)), ((0,), (0,)),
                                   ((2, 0), (0, 3)), ((0, 3), (3,)), ((3,), (4,)), ((2, 3), (2, 3)), ((3,), (2, 3))])
def test_dot_direct(sa, sb, monkeypatch):
    """dot of two arrays of one float or complex dtype, up to 2-D (torch's matmul directly) against NumPy: values,
    dtype, shape, also on transposed views, and NumPy's alignment error; the general path runs only for errors."""
    import npcompile._numpy._products as products

    rng = numpy.random.default_rng(0)
    for dt in ("float16", "float32", "float64", "complex64", "complex128"):
        a, b = (rng.standard_normal(s).astype(dt) for s in (sa, sb))
        for x, y in ((a, b), (a.T.copy().T, b.T.copy().T)):
            assert_matches(lambda xp, x, y: xp.dot(x, y), x, y)
    ok = sa[-1] == sb[max(len(sb) - 2, 0)]
    if ok:  # the general path is not needed
        monkeypatch.setattr(products, "_dot", None)
        assert_matches(lambda xp, x, y: xp.dot(x, y), a, b)
    else:
        with pytest.raises(ValueError, match="not aligned"):
            shim.dot(shim.asarray(a), shim.asarray(b))


def test_matmul_bool_counts_past_255():
    a, b = numpy.ones((2, 300), bool), numpy.ones((300, 3), bool)
    assert_matches(lambda xp, a, b: xp.matmul(a, b), a, b)
    assert_matches(lambda xp, a, b: xp.dot(a, b), a, b)


def test_uint64_products_are_exact():
    a = numpy.array([[2**63 + 5, 3, 2**64 - 1]], numpy.uint64)
    b = numpy.array([[3], [2**62], [7]], numpy.uint64)
    for f in (lambda xp, a, b: xp.dot(a, b), lambda xp, a, b: xp.matmul(a, b),
              lambda xp, a, b: xp.einsum("ij,jk", a, b), lambda xp, a, b: xp.tensordot(a, b, 1),
              lambda xp, a, b: xp.inner(a, b.T), lambda xp, a, b: xp.vdot(a, b)):
        assert_matches(f, a, b)


@given(st.sampled_from(["float32", "int16", "float64"]))
def test_dot_out(dt):
    a, b = numpy.ones((2, 3)), numpy.ones((3, 4))
    assert_matches(lambda xp, a, b: xp.dot(a, b, out=xp.zeros((2, 4), dtype=dt)), a, b)
    assert_matches(lambda xp, a, b: xp.dot(a, b, out=xp.zeros((2, 5))), a, b)
    assert_matches(lambda xp, a, b: xp.dot(a, b, out=xp.zeros((4, 2)).T), a, b)


@st.composite
def same_size_pair(draw):
    shp = draw(shapes(max_dims=3, max_side=4))
    n = int(numpy.prod(shp))
    other = draw(st.sampled_from([shp, (n,), (n + 1,)]))
    return operand(draw, shp), operand(draw, other)


@given(same_size_pair())
def test_vdot(ab):
    assert_matches(lambda xp, a, b: xp.vdot(a, b), *ab)


@st.composite
def inner_operands(draw):
    da, db = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    sa = [draw(side) for _ in range(da)]
    sb = [draw(side) for _ in range(db)]
    if da and db:
        sb[-1] = sa[-1] + (draw(st.integers(0, 9)) == 0)
    return operand(draw, sa), operand(draw, sb)


@given(inner_operands())
def test_inner(ab):
    assert_matches(lambda xp, a, b: xp.inner(a, b), *ab)


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=2, max_side=4), finite=True),
       arrays(dtype=dtypes(ALL), shape=shapes(max_dims=2, max_side=4), finite=True))
def test_outer_and_kron(a, b):
    small(a), small(b)
    assert_matches(lambda xp, a, b: xp.outer(a, b), a, b)
    assert_matches(lambda xp, a, b: xp.kron(a, b), a, b)


def test_outer_out_and_kron_scalars():
    a, b = numpy.arange(3), numpy.arange(4.0)
    assert_matches(lambda xp, a, b: xp.outer(a, b, out=xp.zeros((3, 4))), a, b)
    assert_matches(lambda xp, a, b: xp.outer(a, b, out=xp.zeros((3, 4), dtype=int)), a, b)
    assert_matches(lambda xp: xp.kron(2, 3))
    assert_matches(lambda xp, a: xp.kron(a, 3), a)
    assert_matches(lambda xp, a: xp.kron(2.5, a), a)


@st.composite
def tensordot_case(draw):
    sa = draw(shapes(max_dims=4, max_side=3))
    kind = draw(st.sampled_from(["int", "pairs", "pairs-int", "bad"]))
    if kind == "int":
        n = draw(st.integers(0, len(sa)))
        sb = list(sa[len(sa) - n:]) + [draw(side) for _ in range(draw(st.integers(0, 2)))]
        axes = n
    else:
        k = draw(st.integers(0, len(sa)))
        ax_a = draw(st.permutations(range(len(sa))))[:k]
        nb = k + draw(st.integers(0, 2))
        pos = draw(st.permutations(range(nb)))[:k]
        sb = [draw(side) for _ in range(nb)]
        for i, j in zip(ax_a, pos):
            sb[j] = sa[i]
        ax_a = [i - len(sa) if draw(st.booleans()) else i for i in ax_a]
        axes = (ax_a, list(pos))
        if kind == "pairs-int" and k == 1:
            axes = (ax_a[0], pos[0])
        if kind == "bad":
            axes = draw(st.sampled_from([(ax_a, list(pos) + [0]), ([len(sa)], [0]), len(sa) + 1]))
    return operand(draw, sa), operand(draw, sb), axes


@given(tensordot_case())
def test_tensordot(case):
    a, b, axes = case
    assert_matches(lambda xp, a, b: xp.tensordot(a, b, axes), a, b)
    assert_matches(lambda xp, a, b: xp.linalg.tensordot(a, b, axes=axes), a, b)


# ---------------------------------------------------------------- einsum

_LETTERS = "abcdefgh"


@st.composite
def einsum_case(draw):
    """Operands with random subscripts over a few labels (repeats give diagonals, size 1 broadcasts), maybe an
    ellipsis, and an implicit or explicit output."""
    sizes = {c: draw(st.integers(0, 3)) for c in _LETTERS[:5]}
    n_ops = draw(st.integers(1, 3))
    ell = draw(st.booleans())
    terms, ops, used = [], [], []
    for _ in range(n_ops):
        labels = draw(st.lists(st.sampled_from(_LETTERS[:5]), max_size=3))
        shape = [1 if draw(st.integers(0, 5)) == 0 else sizes[c] for c in labels]
        for c in labels:  # a repeated label needs equal sizes within its operand
            shape[labels.index(c)] = shape[len(labels) - 1 - labels[::-1].index(c)]
        term = "".join(labels)
        if ell and draw(st.booleans()):
            e = draw(st.lists(st.sampled_from([1, 2]), max_size=2))
            at = draw(st.integers(0, len(labels)))
            shape = shape[:at] + e + shape[at:]
            term = term[:at] + "..." + term[at:]
        terms.append(term)
        used += labels
        ops.append(operand(draw, shape, dtypes(ALL)))
    subscripts = ",".join(terms)
    if draw(st.booleans()):
        out = draw(st.permutations(sorted(set(used))))[:draw(st.integers(0, len(set(used))))]
        subscripts += "->" + ("..." if ell and draw(st.booleans()) else "") + "".join(out)
    return subscripts, ops


def _einsum_tol(ops):
    return 2e-2 if any(o.dtype == FLOAT16_EINSUM for o in ops) else None


@given(einsum_case())
def test_einsum(case):
    subscripts, ops = case
    assert_matches(lambda xp, *ops: xp.einsum(subscripts, *ops), *ops, rtol=_einsum_tol(ops))


@given(einsum_case(), st.sampled_from([False, True, "greedy", "optimal"]))
def test_einsum_sublist_form_and_optimize(case, optimize):
    subscripts, ops = case
    if "..." in subscripts:
        return
    if optimize is not False:  # NumPy's paths keep each intermediate in its pair's dtype: give all one dtype
        ops = [o.astype(numpy.result_type(*ops)) for o in ops]
    lhs, _, rhs = subscripts.partition("->")
    to_list = lambda term: [_LETTERS.index(c) for c in term]  # noqa: E731
    args = [x for op, term in zip(ops, lhs.split(",")) for x in (op, to_list(term))]
    if "->" in subscripts:
        args.append(to_list(rhs))

    def f(xp, *arrays):
        call = list(args)
        call[0:2 * len(arrays):2] = arrays
        return xp.einsum(*call, optimize=optimize)

    assert_matches(f, *ops, rtol=_einsum_tol(ops))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(einsum_case(), st.sampled_from(ALL), st.sampled_from(["safe", "same_kind", "unsafe", "no"]))
def test_einsum_dtype_and_casting(case, dt, casting):
    subscripts, ops = case
    assert_matches(lambda xp, *ops: xp.einsum(subscripts, *ops, dtype=dt, casting=casting), *ops,
                   rtol=_einsum_tol(ops) or (2e-2 if dt == FLOAT16_EINSUM else None))


def test_einsum_views_out_and_python_scalars():
    a = numpy.arange(9.0).reshape(3, 3)
    for sub in ("ii->i", "ij->ji", "ij"):
        assert shim.einsum(sub, shim.asarray(a)).base is not None
    assert_matches(lambda xp, a: xp.einsum("ij->i", a, out=xp.zeros(3)), a)
    assert_matches(lambda xp, a: xp.einsum("ij->i", a, out=xp.zeros(3, dtype=numpy.int8)), a)
    assert_matches(lambda xp, a: xp.einsum("ij->i", a, out=xp.zeros(3, dtype=numpy.int8), casting="unsafe"), a)
    b = numpy.arange(3, dtype=numpy.int8)
    assert_matches(lambda xp, b: xp.einsum("i,->i", b, 3), b)  # Python scalars are not weak in einsum
    assert_matches(lambda xp, b: xp.einsum("i,->i", b, 300), b)
    assert_matches(lambda xp: xp.einsum("", 3))
    assert_matches(lambda xp: xp.einsum("->", 3.5))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # (NumPy reading a complex out as int16)
@pytest.mark.parametrize("out_dtype", ["float64", "int8", "int16", "float32", "complex128"])
@pytest.mark.parametrize("casting", ["safe", "unsafe"])
def test_einsum_computes_in_the_common_dtype_with_out(out_dtype, casting):
    """Unoptimized, NumPy's iterator computes in the common dtype of operands and out= (uint8 products into a
    float64 out do not wrap; bools summed into int8 count), and with dtype= out must cast to it as well."""
    u = numpy.array([200, 100, 50], numpy.uint8)
    b = numpy.array([True, True, False])
    for sub, ops in (("i,i", (u, u)), ("i,j->ij", (u, u)), ("i,i", (b, b)), ("i,i,i->", (u, b, u))):
        shape = numpy.einsum(sub, *ops).shape
        assert_matches(lambda xp, *ops: xp.einsum(sub, *ops, out=xp.zeros(shape, out_dtype), casting=casting), *ops)
        assert_matches(lambda xp, *ops: xp.einsum(sub, *ops, out=xp.zeros(shape, out_dtype), dtype=numpy.int16,
                                                  casting=casting), *ops)


BAD_EINSUM = [("i i", [(2,)]), ("i1", [(2,)]), ("ij-", [(2, 3)]), ("ij->->", [(2, 3)]), ("i.j", [(2, 3)]),
              ("...i...", [(2, 3)]), ("i,j->ij", [(2,)]), ("i->i", [(2,), (2,)]), ("i->j", [(3,)]),
              ("i->ii", [(3,)]), ("ii->i", [(2, 3)]), ("i,i", [(2,), (3,)]), ("ij", [(2,)]), ("i", [(2, 3)]),
              ("...i->i", [(2, 3)]), ("...j,...j->...j", [(2, 3), (4, 3)]), ("ij,jk", [(2, 3), (4, 5)])]


@pytest.mark.parametrize("subscripts,shapes_", BAD_EINSUM)
def test_einsum_bad_subscripts(subscripts, shapes_):
    ops = [numpy.ones(s) for s in shapes_]
    assert_matches(lambda xp, *ops: xp.einsum(subscripts, *ops), *ops)


def test_einsum_bad_calls():
    a = numpy.ones(2)
    for f in (lambda xp: xp.einsum(), lambda xp: xp.einsum("i"), lambda xp: xp.einsum(a),
              lambda xp: xp.einsum(a, [52]), lambda xp: xp.einsum(a, [-1]), lambda xp: xp.einsum(a, ["a"]),
              lambda xp: xp.einsum(a, [0], [0, 0]), lambda xp: xp.einsum("i", a, foo=1),
              lambda xp: xp.einsum("i->", a, dtype=int), lambda xp: xp.einsum("i", a, optimize=3)):
        assert_matches(f)


def test_einsum_path():
    a, b, c = numpy.ones((2, 3)), numpy.ones((3, 4)), numpy.ones((4, 5))
    for opt in ("greedy", False, True, ["einsum_path", (1, 2), (0, 1)], ("greedy", 100)):
        path, report = shim.einsum_path("ij,jk,kl->il", a, b, c, optimize=opt)
        np_path, np_report = numpy.einsum_path("ij,jk,kl->il", a, b, c, optimize=opt)
        assert path == np_path and report == np_report
    path, report = shim.einsum_path("ij->i", a)
    assert (path, report) == numpy.einsum_path("ij->i", a)
    assert shim.einsum_path(a, [0, 1], b, [1, 2], optimize="optimal") == numpy.einsum_path(a, [0, 1], b, [1, 2])
    with pytest.raises(IndexError):
        shim.einsum_path("ij,jk,kl->il", a, b, c, optimize=["einsum_path", (1, 5), (0, 1)])


# ---------------------------------------------------------------- cross and trace


@st.composite
def cross_case(draw):
    """2- or 3-vectors (4: an error) over broadcastable (sometimes not) leading shapes."""
    lead = draw(shapes(max_dims=2, max_side=3))
    lead_b = lead if draw(st.integers(0, 4)) else draw(shapes(max_dims=2, max_side=3))
    a = operand(draw, lead + (draw(st.sampled_from([2, 3])),))
    b = operand(draw, lead_b + (draw(st.sampled_from([2, 3, 4])),))
    return a, b


@given(cross_case(), st.sampled_from([{}, {"axisc": 0}, {"axis": -1}, {"axisc": -1}]))
@example((numpy.array([1.0, 2.0]), numpy.array([3.0, 4.0])), {})  # a 0-d array, not a scalar (explore)
def test_cross(ab, kw):
    a, b = ab
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_matches(lambda xp, a, b: xp.cross(a, b, **kw), a, b)
        assert_matches(lambda xp, a, b: xp.cross(a, b, axisa=0, axisb=-1, axisc=0), numpy.moveaxis(a, -1, 0), b)


@given(cross_case())
def test_linalg_cross(ab):
    assert_matches(lambda xp, a, b: xp.linalg.cross(a, b), *ab)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=4, max_side=4), finite=True), st.integers(-4, 4),
       st.integers(-5, 4), st.integers(-5, 4), st.sampled_from([None, "int8", "float32", "uint64", "complex64"]))
def test_trace(a, offset, axis1, axis2, dt):
    small(a)
    assert_matches(lambda xp, a: xp.trace(a, offset, axis1, axis2, dtype=dt), a)
    assert_matches(lambda xp, a: xp.asarray(a).trace(offset, axis1, axis2), a)
    assert_matches(lambda xp, a: xp.linalg.trace(a, offset=offset), a)


def test_trace_out():
    a = numpy.arange(24).reshape(2, 3, 4)
    assert_matches(lambda xp, a: xp.trace(a, out=xp.zeros(4)), a)
    assert_matches(lambda xp, a: xp.trace(a, 1, 1, 2, out=xp.zeros(2, dtype=numpy.int8)), a)


@given(einsum_case())
def test_integer_contraction_without_matmul_kernels(case):
    """The GPU path for integer contractions (broadcast multiply and sum), exercised here on the CPU."""
    import torch

    from npcompile._numpy import _products

    subscripts, ops = case
    ints = [numpy.asarray(o).real.astype(numpy.int64) for o in ops]
    try:
        expected = numpy.einsum(subscripts, *ints)
    except ValueError:
        return
    subs, out_sub, sizes = _products._parse(subscripts, [o.shape for o in ints])
    rename = {x: i for i, x in enumerate(sorted(sizes))}.get
    subs, out_sub = [list(map(rename, s)) for s in subs], list(map(rename, out_sub))
    got = _products._contract_by_broadcast([torch.from_numpy(o) for o in ints], subs, out_sub)
    numpy.testing.assert_array_equal(got.numpy(), expected)
