"""Calls that used to break the graph or run in real NumPy and now trace into the one graph, with NumPy's values,
dtypes and shapes (found by tests/programs' single-graph summary)."""

import numpy as np
import pytest

import npcompile

from .conftest import same


def one_graph(fn, *args):
    """``fn(*args)`` compiled (aot_eager): asserts it is one graph with no break or fallback, and returns the
    compiled function."""
    report = npcompile.explain(fn, backend="aot_eager")(*args)
    assert (report.graph_count, report.graph_break_count, report.fallbacks) == (1, 0, []), str(report)
    return report.compiled


def _reduceats(x, idx):
    return (np.add.reduceat(x, idx), np.maximum.reduceat(x, idx), np.minimum.reduceat(x.T, idx, axis=1),
            np.multiply.reduceat(x.astype(np.int32), idx), np.add.reduceat(x > 4, idx))


def test_reduceat_with_indices_from_the_data_is_one_graph():
    """reduceat whose indices are an array argument: the segments' lengths are data-dependent, so it ran in NumPy;
    now each segment is its first element combined with a segment tree's blocks (fixed sizes). Indices that
    decrease (NumPy: the one element idx[i]), repeat, end on the last element, and none; a NaN propagates."""
    x = np.arange(1.0, 17.0).reshape(8, 2)
    x[3, 1] = np.nan
    g = one_graph(_reduceats, x, np.array([0, 4, 1, 5]))
    rng = np.random.default_rng(0)
    cases = [[0, 4, 1, 5], [7, 7, 0], [], [0, 2, 2, 5], [3], list(rng.integers(0, 8, 12)), list(range(8))]
    for idx in cases:
        idx = np.array(idx, dtype=np.int64)
        with np.errstate(invalid="ignore"):
            want = _reduceats(x, idx)
            got = g(x, idx)
        assert same(got, want), (idx, got, want)
    for idx in ([0, 8], [-1, 2]):  # NumPy's exception type, checked when the compiled code runs
        with pytest.raises(IndexError, match="out-of-bounds in add.reduceat"):
            g(x, np.array(idx))


def test_csr_matrix_vector_product_by_reduceat_is_one_graph():
    def spmv(data, indices, indptr, x):
        return np.add.reduceat(data * x[indices], indptr[:-1])

    rng = np.random.default_rng(1)
    args = (rng.standard_normal(12), rng.integers(0, 5, 12), np.array([0, 3, 3, 7, 12]), rng.standard_normal(5))
    g = one_graph(spmv, *args)
    assert same(g(*args), spmv(*args))


def _to_power_series(c):
    P = np.polynomial
    return (P.chebyshev.cheb2poly(c), P.legendre.leg2poly(c), P.hermite.herm2poly(c), P.laguerre.lag2poly(c),
            P.hermite_e.herme2poly(c), P.chebyshev.poly2cheb(c), P.legendre.poly2leg(c), P.hermite.poly2herm(c))


def test_basis_conversions_are_one_graph():
    """cheb2poly & co. trimmed the input's trailing zeros first, a data-dependent length that the fixed map then
    had to know (a graph break); the map now takes the whole series and only the result is trimmed, a length
    read from the data. Trailing zeros (NumPy drops them), all zeros (one 0 is kept), integer coefficients."""
    g = one_graph(_to_power_series, np.array([1.0, 2.0, 3.0, 4.0]))
    for c in ([1.0, 2.0, 3.0, 4.0], [1.0, -2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, 1.5, 0.0], [5.0, 0.0, 0.0, 0.0]):
        c = np.array(c)
        assert same(g(c), _to_power_series(c)), c
    g = one_graph(_to_power_series, np.array([3, 0, 2, 0]))
    assert same(g(np.array([3, 0, 2, 0])), _to_power_series(np.array([3, 0, 2, 0])))


def _complex_scalars(x):
    return (np.complex128(x[0], x[1]), np.complex64(x[0], x[1]), np.complex128(x[0], 2), np.complex64(-1.5, x[1]),
            np.complex128(x[1], True))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.bool_])
def test_complex_scalar_of_two_array_scalars_is_one_graph(dtype):
    """np.complex128(x[0], x[1]) read both parts as Python floats (a graph break); they are now put together as
    float64 tensors, as complex() converts them: signed zeros, NaN, and complex64's rounding (and overflow) of
    the float64 parts are NumPy's."""
    cases = [[1.5, -2.0], [0.0, -0.0], [1e300, np.nan], [-np.inf, 3.25], [200.0, 7.0]]
    x = np.array(cases[0]).astype(dtype)
    g = one_graph(_complex_scalars, x)
    for c in cases:
        with np.errstate(all="ignore"):
            x = np.array(c).astype(dtype)
            want = _complex_scalars(x)
            got = g(x)
        assert same(got, want), (c, got, want)


def _memory_questions(a):
    b = a.copy()
    col = b[:, 0]
    col -= col.mean()
    return (b, np.shares_memory(col, b), np.shares_memory(b[:, ::2], b[:, 1::2]),
            np.may_share_memory(b[:, ::2], b[:, 1::2]), np.shares_memory(a, b), np.shares_memory(a[0], a[1]),
            np.shares_memory(b.T, b[1]), np.may_share_memory(a, a.T.copy()), np.shares_memory(b[:0], b),
            np.shares_memory(b.view(np.int32)[:, 1], b[:, 0]), np.may_share_memory(a[:, 1:3], a[1:, 2:], max_work=-1), np.may_share_memory(a[:, :2], a[:, 2:]))


def test_shares_memory_of_arrays_the_code_made_is_one_graph():
    """shares_memory read the data (a graph break); now answered at trace time from where the fake tensors lie:
    views of one array by their layouts (NumPy's own test), arrays of different storages where one was made by
    the code as sharing nothing."""
    a = np.arange(12.0).reshape(3, 4)
    g = one_graph(_memory_questions, a)
    assert same(g(a), _memory_questions(a))


def test_shares_memory_of_two_arguments_runs_in_numpy():
    """Two arguments may overlap in memory where their tensors' storages do not show it (or view one storage in
    ways the next call may not): real NumPy answers."""
    def f(x, y):
        return np.shares_memory(x, y), np.may_share_memory(x, y)

    a = np.arange(12.0)
    for y in (a[1:], a.copy(), a.view(np.int64), a[::2]):
        report = npcompile.explain(f, backend="aot_eager")(a, y)
        assert report.result == f(a, y) and report.graph_break_count >= 1


def _permutations(x, m):
    rng = np.random.default_rng(11)
    return rng.permutation(x), rng.permutation(m, axis=1), rng.permutation(m), rng.permutation(5), rng.random(3)


def test_permutation_of_an_array_by_a_seeded_generator_is_one_graph():
    """rng.permutation(x) of an array, rng made inside with a constant seed, broke the graph (its argument is no
    constant); NumPy draws it as rng.permutation(len) and takes those positions, so the positions are folded
    like the generator's other draws, the take is traced: NumPy's exact stream, and the draws after it too."""
    x, m = np.arange(10.0) * 3, np.arange(12, dtype=np.int8).reshape(3, 4)
    g = one_graph(_permutations, x, m)
    assert same(g(x, m), _permutations(x, m))
    assert same(g(x[::-1].copy(), m + 1), _permutations(x[::-1].copy(), m + 1))


def _builtin_dtypes(x):
    return (x.astype(complex), np.zeros(3, dtype=complex), np.asarray(x, complex) * 1j, np.ones(2, dtype=float),
            np.arange(3, dtype=int), np.full(2, 1, dtype=bool), np.dtype(complex), x.astype(complex).dtype)


def test_python_types_as_dtypes_are_one_graph():
    """``dtype=complex`` (common in physics code) ran in real NumPy; ``float``, ``int`` and ``bool`` were traced."""
    x = np.array([0.5, -2.0, 3.0])
    assert same(one_graph(_builtin_dtypes, x)(x), _builtin_dtypes(x))


def _index_tricks(a, counts, n):
    return (np.r_[0, np.cumsum(counts)[:-1]], np.r_[a[:2], 0, 1:4], np.r_[2.5, counts], np.r_["0,2", a[:3], a[3:6]],
            np.c_[a[:3], a[3:6]], np.mgrid[0:3, 0:2], np.ogrid[0:3, 0:1][0] + 1, np.mgrid[0:1:5j], np.mgrid[0:n],
            np.r_[0:n, 7], a[np.s_[1:4]], a[np.index_exp[::2]])


def test_index_tricks_are_one_graph():
    """``np.r_[...]``, ``np.c_``, ``np.mgrid``, ``np.ogrid``, ``np.s_`` and ``np.index_exp`` ran NumPy's Python code
    in real NumPy (``np.r_[0, np.cumsum(counts)[:-1]]``, segment starts, is common); a bound from an int argument
    stays an integer grid when the argument turns symbolic."""
    a, counts = np.arange(8.0), np.array([2, 3, 1])
    g = one_graph(_index_tricks, a, counts, 4)
    for n in (4, 6, 9):
        assert same(g(a, counts + n, n), _index_tricks(a, counts + n, n))


def _group_reductions(keys, vals):
    _, counts = np.unique(keys, return_counts=True)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    ordered = vals[np.argsort(keys, kind="stable")]
    return np.add.reduceat(ordered, starts), np.maximum.reduceat(ordered, starts)


def test_reduceat_at_group_starts_from_unique_is_one_graph():
    """Per-group sums at the starts that ``np.unique``'s counts give: the number of indices is known only when the
    code runs, and the segment ends were built from a size test on it (a fallback to NumPy)."""
    rng = np.random.default_rng(2)
    keys, vals = rng.integers(0, 3, 7), rng.standard_normal(7)
    g = one_graph(_group_reductions, keys, vals)
    for n, m in ((20, 5), (9, 9), (1, 1)):
        keys, vals = rng.integers(0, m, n), rng.standard_normal(n)
        assert same(g(keys, vals), _group_reductions(keys, vals))


def _histograms(x):
    return (np.histogram(x, bins=7), np.histogram(x, bins=5, density=True), np.histogram_bin_edges(x, 3),
            np.histogram2d(x, x[::-1], bins=4, density=True))


@pytest.mark.parametrize("x", [np.random.default_rng(0).standard_normal(500),
                               np.random.default_rng(0).standard_normal(200).astype(np.float32),
                               np.random.default_rng(0).integers(-5, 9, 300), np.full(10, 3.0),
                               np.array([0.0, 5e-324, 1e-323, 5e-324, 1e-322])],
                         ids=["float64", "float32", "int64", "one point", "subnormal extent"])
def test_histograms_of_the_datas_extent_are_one_graph(x):
    """``np.histogram(x, bins=n)`` with no range: the extent of the data was read back as Python numbers (a
    fallback to NumPy).  It stays in the graph; NumPy's density is its order of divisions, bit for bit."""
    g = one_graph(_histograms, x)
    got, want = g(x), _histograms(x)
    assert same(got, want) and np.array_equal(got[1][0], want[1][0]) and np.array_equal(got[3][0], want[3][0])


@pytest.mark.parametrize("x", [np.array([1.0, np.inf]), np.array([np.nan, 1.0]), np.array([0.0, 5e-324]),
                               np.array([-1e308, 1e308])], ids=["inf", "nan", "too narrow", "too wide"])
def test_traced_histogram_checks_of_the_extent_raise_numpys_error(x):
    g = one_graph(lambda x: np.histogram(x, bins=7), np.arange(3.0))
    with pytest.raises(ValueError) as want:
        np.histogram(x, bins=7)
    with pytest.raises(ValueError, match=str(want.value)[:20]):
        g(x)


def _casting_questions(a, b):
    return (a * 2, np.can_cast(a, np.float32), np.can_cast(a, np.float32, casting="same_kind"), np.can_cast(b, a.dtype),
            np.can_cast(a.dtype, "i4"), np.can_cast(b[0], np.int8, "same_kind"))


def test_can_cast_of_arrays_is_one_graph():
    """``np.can_cast`` of an array asks about its dtype alone (NumPy 2), which the trace knows: it broke the graph.
    A Python number (NumPy's TypeError) or an array given as the target still reach NumPy."""
    a, b = np.ones((5, 4)), np.arange(3, dtype=np.int16)
    assert same(one_graph(_casting_questions, a, b)(a, b), _casting_questions(a, b))
    for bad in (lambda a: np.can_cast(1.0, np.float32), lambda a: np.can_cast(np.float32, a)):
        with pytest.raises(TypeError):
            npcompile.compile(bad, backend="aot_eager")(a)


def _scatter_of_other_dtypes(m):
    grid = np.zeros((5, 5))
    np.add.at(grid, (m[:, 0], m[:, 1]), m[:, 2])
    top = np.zeros(5, dtype=np.int64)
    np.maximum.at(top, m[:, 0], m[:, 2] > 2)
    return grid, top


def test_ufunc_at_with_values_of_another_dtype_is_one_graph():
    """``np.add.at(float_grid, idx, int_values)``: values that the loop casts (same_kind) ran an index-by-index loop
    that reads the indices back (a fallback to NumPy)."""
    m = np.random.default_rng(4).integers(0, 5, (40, 3))
    assert same(one_graph(_scatter_of_other_dtypes, m)(m), _scatter_of_other_dtypes(m))


def _placed(a):
    z = np.zeros_like(a)
    np.place(z, a > 0.5, [1, 2, 3])
    w = a.T.copy()
    np.place(w, a.T < 0, 9.0)
    return z, w


def test_place_is_one_graph():
    """``np.place`` cycles its values over the mask's true positions, a count known only at run time (a fallback to
    NumPy); the k-th position's value is now picked by a running count of the mask."""
    rng = np.random.default_rng(5)
    g = one_graph(_placed, rng.standard_normal((4, 5)))
    for a in (rng.standard_normal((4, 5)) * 3, -np.ones((4, 5)), np.ones((4, 5))):
        assert same(g(a), _placed(a))


def _flag_reads(a, b):
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    v = np.broadcast_to(b, (2, 3))
    return (a * 2, a.flags.c_contiguous, b.flags["F_CONTIGUOUS"], b.T.flags.f_contiguous, b[::2].flags.forc,
            b.flags.writeable, v.flags.writeable, v.flags["W"], b.flags.aligned, b[:1].flags.carray, (a + 1).flags["C"])


def test_flags_of_layout_and_writeability_are_one_graph():
    """``a.flags.c_contiguous`` (and the other layout flags, and writeable) broke the graph; the graph is specialised
    on strides and writeability, so they are constants.  ``owndata`` (a view or not) still breaks."""
    x = np.arange(12.0).reshape(3, 4)
    for a in (x, x.T, x[:, ::2]):
        b = np.arange(3.0)
        ro = b.copy()
        ro.flags.writeable = False
        for arg in (b, ro):
            g = one_graph(_flag_reads, a, arg)
            assert same(g(a, arg), _flag_reads(a, arg))
    report = npcompile.explain(lambda a: (a * 2, a.flags.owndata), backend="aot_eager")(x[1:])
    assert report.graph_break_count == 1 and report.compiled(x[1:])[1] is False
