"""What the HPC-style programs (tests/programs, the "hpc" domain) found, each pinned by a small case: NumPy's answer,
and how the code is captured (one graph, no run in NumPy)."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS

from ..numpy_conformance.harness import assert_matches
from ..programs.programs import levinson_durbin
from .conftest import same


def _captured(fn, *args):
    """Compiles and runs ``fn`` (aot_eager: the aten graph runs, as Inductor's would); its report."""
    rep = C.explain(fn, backend="aot_eager")(*args)
    assert not rep.fallbacks, rep
    return rep


def _mandelbrot_step(z, c):
    m = np.abs(z) <= 2.0
    z[m] = z[m] ** 2 + c[m]
    return z


def _rows_of_other_array(x, y):
    x[x[:, 0] > 0] = y[y[:, 0] > 0] * 2  # a mask over rows; the same count picked in another array
    return x


def _one_from_another_mask(x):
    x[x > 0] = x[x == x.max()]  # one value picked by another mask: NumPy broadcasts it
    return x


def _cast_into_ints(a, f):
    a[a > 2] = f[a > 2]  # float64 values into int64: truncated, as NumPy's setitem does
    return a


@pytest.mark.parametrize("fn, make", [
    (_mandelbrot_step, lambda r: (np.linspace(-3, 3, 12) + 1j * r.standard_normal(12), r.standard_normal(12) + 0j)),
    (_mandelbrot_step, lambda r: (np.full(5, 9.0), r.standard_normal(5))),  # the mask picks nothing
    (_rows_of_other_array, lambda r: (r.standard_normal((6, 3)), (r.standard_normal((6, 3))))),
    (_one_from_another_mask, lambda r: (r.standard_normal(9),)),
    (_cast_into_ints, lambda r: (np.arange(8), r.standard_normal(8) * 10)),
])
def test_masked_assignment_of_masked_values_is_one_graph(fn, make):
    """``z[m] = z[m] ** 2 + c[m]``: the value's length and the mask's count are each data-dependent; the write is
    traced (a where over the array, the lengths checked when the code runs) instead of running in NumPy."""
    args = make(np.random.default_rng(0))
    if fn is _rows_of_other_array:
        args[1][:, 0] = np.where(args[0][:, 0] > 0, 1.0, -1.0)  # the same rows picked in both
    expected = fn(*[a.copy() for a in args])
    got_args = [a.copy() for a in args]
    rep = _captured(fn, *got_args)
    assert rep.graph_count == 1
    assert same(rep.result, expected) and same(got_args[0], expected)


def test_masked_assignment_of_a_wrong_length_still_raises():
    def f(x, y):
        x[x > 0] = y[y > 0]
        return x

    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, -1.0])
    with pytest.raises(ValueError):
        f(x.copy(), y)
    with pytest.raises(ValueError):  # compiled, the check runs in the graph and raises NumPy's error
        C.compile(f, backend="aot_eager")(x.copy(), y)


@pytest.mark.parametrize("window, axis", [((2, 3), None), (2, 1), ((2,), (0,)), ((2, 2), (1, 1)), ((1,), -1),
                                          ((5,), 1), ((-1,), 0), ((2,), None), ((2, 3), 1), ((2,), 3), (2.0, 0)])
def test_sliding_window_view_is_numpys(window, axis):
    x = np.arange(20.0).reshape(4, 5)
    r = assert_matches(lambda xp, a: xp.lib.stride_tricks.sliding_window_view(a, window, axis), x)
    if r is not None:
        assert not r.flags.writeable and r.base is not None


def test_convolution_with_sliding_windows_is_one_graph():
    def conv(img, k):
        win = np.lib.stride_tricks.sliding_window_view(img, k.shape)
        return np.einsum("hwij,ij->hw", win, k)

    img, k = np.random.default_rng(0).random((9, 8)), np.ones((3, 2))
    rep = _captured(conv, img, k)
    assert rep.graph_count == 1 and not rep.graph_breaks
    assert same(rep.result, conv(img, k))


def test_negative_step_slices_with_a_loop_counter_compile_once():
    """``r[k:0:-1]`` in a loop over k: the slice's bounds were asked for their exact values (``slice.indices``),
    which compiled the loop body once per k and ran it in NumPy after Dynamo's recompile limit."""
    levinson = levinson_durbin
    r = np.concatenate(([1.0], 0.5 ** np.arange(1, 14) * np.linspace(0.5, 1.0, 13)))
    rep = _captured(levinson, r)
    np.testing.assert_allclose(rep.result, levinson(r), rtol=1e-12)
    # (it was 18, then the body ran in NumPy at Dynamo's recompile limit; torch 2.11 splits the entry function too)
    assert rep.graph_count <= (6 if NESTED_GRAPH_BREAKS else 7)


def test_a_loop_whose_variable_a_later_loop_reuses_is_outlined():
    """Thomas / vertical advection / Deriche: a forward sweep and a backward sweep both over ``i``.  Unrolled, the
    first sweep's trace grows with the array (a 1000-element Thomas solve: 110 s before the first result)."""
    def two_sweeps(a):
        a = a.copy()
        for i in range(1, a.size):
            a[i] += 0.5 * a[i - 1]
        for i in range(a.size - 2, -1, -1):
            a[i] += 0.5 * a[i + 1]
        return a

    a = np.arange(12.0)
    rep = C.explain(two_sweeps, backend="eager")(a)
    assert same(rep.result, two_sweeps(a))
    assert sum(e.feature == "outlined loop" for e in rep.graph_breaks) == 2


def test_a_loop_nested_in_an_outlined_loop_is_not_unrolled():
    """ADI-style sweeps (a time loop around column sweeps): the inner loop is unrolled into the body's graph, whose
    size (and compile time) grows with the array's width."""
    def nested(u, steps):
        u = u.copy()
        for _ in range(steps):
            for j in range(1, u.shape[1]):
                u[:, j] += 0.5 * u[:, j - 1]
        return u

    counts = []
    for n in (6, 24):
        u = np.random.default_rng(0).random((3, n))
        rep = C.explain(nested, backend="eager")(u, 2)
        assert same(rep.result, nested(u, 2))
        counts.append(rep.op_count)
    assert counts[1] <= counts[0], counts  # (the first compiles a graph more: its inner body static, then dynamic)


def _pick_at_argmax(x, y):
    return y[np.argmax(x)], y[np.argmin(x), 1:], y[1:, np.argmax(x)]


def _first_nonzero(hist, cdf):  # histogram equalisation's cdf_min
    return cdf[np.flatnonzero(hist)[0]], cdf[np.flatnonzero(hist)[-1]]


def _reorder_picked(x):  # find_peaks_masks: sort the picked positions by height
    idx = np.flatnonzero(x > 0)
    return idx[np.argsort(-x[idx], kind="stable")]


@pytest.mark.parametrize("fn, args", [
    (_pick_at_argmax, (np.array([1.0, 3.0, -2.0, 0.0]), np.arange(16.0).reshape(4, 4))),
    (_first_nonzero, (np.array([0, 0, 3, 1, 0]), np.arange(5.0))),
    (_reorder_picked, (np.array([0.5, -1.0, 2.0, 0.1, -0.3]),)),
])
def test_an_index_known_only_when_the_code_runs_is_one_graph(fn, args):
    """``y[np.argmax(x)]`` (torch's ``[]`` reads a 0-d index as a Python int: its value was asked for) and
    ``x[np.flatnonzero(m)[0]]`` (the bounds of [0] on a length known only at run time): graph breaks, NumPy ran."""
    rep = _captured(fn, *args)
    assert rep.graph_count == 1 and not rep.graph_breaks
    assert same(rep.result, fn(*args))


@pytest.mark.parametrize("backend", ["aot_eager", pytest.param("inductor", marks=pytest.mark.inductor)])
def test_an_index_out_of_a_run_time_length_still_raises(backend):
    """NumPy raises IndexError; compiled, the bounds check runs in the graph and raises IndexError too (a
    RuntimeError until the compiled call mapped torch's assertion back), under Inductor too, which once dropped
    the runtime asserts of torch._check (inductor's scalar_asserts): it read past the buffer."""
    hist, cdf = np.array([0, 0, 3, 1, 0]), np.arange(5.0)
    f = C.compile(_first_nonzero, backend=backend)
    assert same(f(hist, cdf), _first_nonzero(hist, cdf))
    with pytest.raises(IndexError):
        _first_nonzero(np.zeros(5, np.int64), cdf)
    with pytest.raises(IndexError, match="index 0 is out of bounds"):
        f(np.zeros(5, np.int64), cdf)


def test_vectorize_of_a_math_function_runs_only_the_call_in_numpy():
    """``np.vectorize(math.erf)`` (black_scholes_math_erf): Dynamo holds ``math.erf`` as a torch function and put it
    into the graph node as an argument, which fx cannot record: the whole function ran in NumPy."""
    import math

    def prices(s, t):
        ncdf = np.vectorize(lambda z: 0.5 * (1.0 + math.erf(z / math.sqrt(2.0))), otypes=[np.float64])
        erf = np.vectorize(math.erf, otypes=[np.float64])
        d = np.log(s) / np.sqrt(t)
        return s * ncdf(d) - np.exp(-t) * erf(d)

    s, t = np.linspace(0.5, 2.0, 7), np.linspace(0.1, 1.0, 7)
    rep = C.explain(prices, backend="aot_eager")(s, t)
    assert same(rep.result, prices(s, t))
    assert "frame" not in {e.feature for e in rep.fallbacks}, rep  # only the vectorize calls run in NumPy
    assert rep.graph_count >= 2


def _pca(x):
    xc = x - x.mean(axis=0)
    u, s, vt = np.linalg.svd(xc, full_matrices=False)
    return s, np.abs(vt), np.linalg.eigh(xc.T @ xc).eigenvalues, np.linalg.qr(xc)[1].shape


def test_linalg_named_results_are_one_graph():
    """pca_svd: svd, eigh, qr and slogdet return NumPy's named tuples (SVDResult...), which the graph node gave
    back holding shim arrays instead of tensors: a graph break after every such call."""
    x = np.random.default_rng(0).standard_normal((9, 4))
    rep = _captured(_pca, x)
    assert rep.graph_count == 1 and not rep.graph_breaks
    assert same(rep.result, _pca(x))
    whole = _captured(lambda a: np.linalg.slogdet(a.T @ a), x)
    assert whole.graph_count == 1 and type(whole.result) is type(np.linalg.slogdet(x.T @ x))
    assert same(tuple(whole.result), tuple(np.linalg.slogdet(x.T @ x)))


def _group_sums(keys, values):
    uniq, inv, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return np.bincount(inv, weights=values, minlength=uniq.size) / counts, np.bincount(inv, minlength=uniq.size + 2)


def test_bincount_with_a_run_time_minlength_is_one_graph():
    """groupby_unique: ``minlength=uniq.size`` is known only when the code runs; torch.bincount asked for its value
    (a graph break, NumPy ran the rest)."""
    keys, values = np.array([30, 10, 30, 20, 10, 30]), np.arange(6.0)
    rep = _captured(_group_sums, keys, values)
    assert rep.graph_count == 1 and not rep.graph_breaks
    assert same(rep.result, _group_sums(keys, values))


def _energies(x, steps):
    hist = []
    for _ in range(steps):
        x[1:] -= 0.1 * x[:-1]
        hist.append((x * x).sum())
    return np.array(hist)


def test_an_outlined_loop_that_appends_to_a_list_compiles_once():
    """dict_state_oscillators, softmax_sgd_minibatch: Dynamo guards a list argument's length, so an outlined body
    appending to the caller's list recompiled every iteration and, past the recompile limit, ran in NumPy."""
    x = np.linspace(0.0, 1.0, 6)
    rep = C.explain(_energies, backend="eager")(x.copy(), 12)
    assert same(rep.result, _energies(x.copy(), 12))
    assert not rep.fallbacks and rep.graph_count <= 4, rep


def _kahan(x):
    total = comp = 0.0
    for v in x:
        y = v - comp
        t = total + y
        comp = (t - total) - y
        total = t
    return total


def test_a_loop_over_array_elements_is_not_unrolled():
    """kahan_sum: a loop over an array's elements doing scalar arithmetic was unrolled, the trace growing with the
    array (64 elements: 7 s).  Over more than 16 items it is outlined, and its iterations on scalars run in NumPy."""
    counts = []
    for n in (4, 64):
        x = np.random.default_rng(0).standard_normal(n)
        rep = C.explain(_kahan, backend="eager")(x)
        np.testing.assert_allclose(rep.result, _kahan(x), rtol=1e-15)
        counts.append(rep.op_count)
    assert counts[1] <= counts[0], counts


def _resample(x, m):
    rng = np.random.default_rng(123)
    boot = rng.choice(x, size=(40, x.size)).mean(axis=1)
    return boot, rng.choice(x), rng.choice(m, 2, axis=1, replace=False), rng.standard_normal(2)


def test_a_seeded_choice_from_an_array_is_folded():
    """bootstrap_ci: ``rng.choice(x, size)`` of a generator seeded inside had an array argument, so it ran in NumPy
    (a graph break); NumPy draws its positions as ``rng.choice(len(x), size)`` does, which folds, then takes them."""
    x, m = np.random.default_rng(0).exponential(2.0, 10), np.arange(12.0).reshape(3, 4)
    rep = _captured(_resample, x, m)
    assert rep.graph_count == 1 and not rep.graph_breaks
    exp = _resample(x, m)
    np.testing.assert_allclose(rep.result[0], exp[0], rtol=1e-14)  # (a compiled mean rounds in its own order)
    assert same(rep.result[1:], exp[1:])
    with pytest.raises(ValueError, match="larger sample"):
        C.compile(lambda a: np.random.default_rng(1).choice(a, 20, replace=False), backend="eager")(x)


def _one_hot_params(x, y):
    k = int(y.max()) + 1  # softmax_sgd_minibatch: the class count read from the labels
    return np.zeros((x.shape[1], k)), np.eye(k)[y]


def test_arrays_sized_by_a_value_read_from_the_data_are_one_graph():
    """``np.zeros((d, int(y.max()) + 1))``: the size's sign was asked for (NumPy's negative-dimensions check), a
    graph break with NumPy running the rest; it is checked when the code runs."""
    x, y = np.ones((4, 3)), np.array([0, 2, 1, 2])
    rep = _captured(_one_hot_params, x, y)
    assert rep.graph_count == 1 and not rep.graph_breaks
    assert same(rep.result, _one_hot_params(x, y))
    with pytest.raises(ValueError, match="negative dimensions"):  # as NumPy
        C.compile(lambda a: np.zeros(int(a.min()) - 1), backend="aot_eager")(y)


def _equalize(img):
    cdf = np.cumsum(np.bincount(img.ravel(), minlength=256))
    return np.interp(img, np.arange(256), cdf / cdf[-1])


def test_bincount_of_bytes_has_a_known_size():
    """histogram_equalize_uint8: ``np.bincount(img.ravel(), minlength=256)`` of uint8 values has 256 bins, but
    torch.bincount's size depends on the data, and np.interp's length check on it was a graph break."""
    img = (np.random.default_rng(0).random((6, 7)) * 255).astype(np.uint8)
    rep = _captured(_equalize, img)
    assert rep.graph_count == 1 and not rep.graph_breaks
    assert same(rep.result, _equalize(img))


def test_interp_on_a_run_time_length_is_one_graph():
    img = np.random.default_rng(0).integers(0, 256, size=(6, 7))  # int64: the bin count depends on the data
    rep = _captured(_equalize, img)
    assert same(rep.result, _equalize(img))
    assert rep.graph_count == 1 and not rep.graph_breaks


# ------------------------------------------------------------------------- found by tests/programs/programs3.py


def _floats_read_from_data(x):
    return float(x.sum()), np.full(2, float(x.max())), x[2].item() + 1.0


@pytest.mark.inductor
def test_a_float_read_from_the_data_keeps_float64():
    """simpson_richardson, generator_windows: Inductor passed a float read from the data (``float(y.sum())``, an
    unbacked SymFloat) into its C++ kernels as ``const float``: compiled results came back rounded to float32."""
    x = np.random.default_rng(0).random(9)
    got = C.compile(_floats_read_from_data)(x)
    exp = _floats_read_from_data(x)
    assert type(got[0]) is float and got[0] == pytest.approx(exp[0], rel=1e-15, abs=0)
    assert got[1].dtype == np.float64 and np.array_equal(got[1], exp[1]) and got[2] == exp[2]


def _fnv_and_mod(keys):
    h = np.full(keys.shape, 0xCBF29CE484222325, dtype=np.uint64)
    for shift in (0, 8):
        h ^= (keys >> np.uint64(shift)) & np.uint64(0xFF)
        h *= np.uint64(0x100000001B3)
    big = keys | np.uint64(2**63)
    return h, big % np.uint64(7), big // np.uint64(3), keys.astype(np.int32) * np.int32(100000)


@pytest.mark.inductor
def test_uint64_hashing_wraps_as_numpy():
    """hash_uint64_wrap: the shim's uint64 ``%`` and ``//`` are int64 operations that overflow by design; GCC took
    the overflow as undefined and gave 2**63 for every element (``-fwrapv`` now)."""
    keys = np.random.default_rng(0).integers(0, 2**63, 8, dtype=np.uint64)
    assert same(C.compile(_fnv_and_mod)(keys), _fnv_and_mod(keys))


_FNV_PRIME = np.uint64(0x100000001B3)


def _times_global_uint64(k):
    return k * _FNV_PRIME


def test_a_module_level_uint64_scalar_compiles():
    k = np.arange(4, dtype=np.uint64)
    rep = _captured(_times_global_uint64, k)
    assert same(rep.result, _times_global_uint64(k))


def _newton_count(a, b):
    x = np.zeros_like(b)
    for it in range(30):
        f = a @ x + 0.1 * x ** 3 - b
        if np.linalg.norm(f) < 1e-12:
            break
        x = x - np.linalg.solve(a + np.diag(0.3 * x ** 2), f)
    return x, it


def test_a_loop_whose_variable_is_read_after_it_is_outlined():
    rng = np.random.default_rng(0)
    a, b = np.eye(4) * 4 + 0.3 * rng.standard_normal((4, 4)), rng.standard_normal(4)
    rep = _captured(_newton_count, a, b)
    assert same(rep.result, _newton_count(a, b))
    assert {e.feature for e in rep.graph_breaks} == {"outlined loop"}, rep


def _first_close_pair(p, r):
    for i in range(p.shape[0]):
        for j in range(i + 1, p.shape[0]):
            d = np.abs(p[i] - p[j]).sum()
            if d < r:
                return i, j, d
    return -1, -1, np.inf


def test_an_early_return_from_a_nested_loop_is_cut():
    """early_return_nested: the outer body returns the inner loop's ``return i, j, d`` as a tuple with its flag,
    which the inner loop's cut at its exit tests did not take for a plain return (a graph break per call)."""
    p = np.random.default_rng(0).standard_normal((12, 2))
    for r in (1.0, 1e-9):
        rep = _captured(_first_close_pair, p, r)
        assert same(rep.result, _first_close_pair(p, r))
        assert {e.feature for e in rep.graph_breaks} == {"outlined loop"}, rep


def _set_ops(a, b, f):
    common, ia, ib = np.intersect1d(a, b, return_indices=True)
    return common, ia, ib, np.intersect1d(f, f[::2]), np.setdiff1d(a, b), np.setdiff1d(f, b), np.setxor1d(a, b), \
        np.setxor1d(f, f[:5] + 1.0)


def test_set_operations_are_one_graph():
    """set_operations: intersect1d, setdiff1d and setxor1d took ``unique`` of their inputs, sizes made inside the
    call and not returned, so each call ran in NumPy; they are now masks over the sorted inputs (one data-dependent
    size)."""
    rng = np.random.default_rng(0)
    f = rng.choice([0.0, -0.0, 1.0, np.nan, 2.5], 12)
    args = rng.integers(0, 30, 20), rng.integers(10, 40, 15), f
    rep = _captured(_set_ops, *args)
    assert same(rep.result, _set_ops(*args))
    assert rep.graph_count == 1 and not rep.graph_breaks


def _with_dtype(z):
    return z * 3.0, (z * 2j).dtype


def test_a_returned_dtype_keeps_the_arithmetic_in_a_graph():
    z, graphs = np.arange(4, dtype=np.complex64), []

    def backend(gm, example_inputs):
        graphs.append(gm.code)
        return gm.forward

    assert same(C.compile(_with_dtype, backend=backend)(z), _with_dtype(z))
    assert any("mul" in code for code in graphs), graphs


def _sum_of_powers(x, k):
    total = 0.0
    for v in x[:6]:
        total += float(v) ** 2 + float(v) ** 3 - 1.0 / float(v) ** 2 + float(v) ** k
    return total


@pytest.mark.parametrize("backend", ["aot_eager", pytest.param("inductor", marks=pytest.mark.inductor)])
def test_a_power_of_a_negative_float_read_from_the_data(backend):
    """``float(v) ** 2`` with v < 0: torch asserts that the base of a symbolic float's power is >= 0 (so that none
    comes out complex), and the compiled call raised RuntimeError('0 <= zuf0'); an integral exponent is real, also
    an int argument that varies between calls (a symbol)."""
    x = np.array([-1.5, 2.0, -0.25, 3.0, -7.0, 0.5, -1.0])
    f = C.compile(_sum_of_powers, backend=backend)
    for k in (3, 5, -1):
        assert same(f(x, k), _sum_of_powers(x, k))


def _scalars_of_a_0d_argument(s, v):
    return float(s) + 1.0, s.item() * v[1].item(), int(s) - 2


@pytest.mark.inductor
def test_a_python_number_read_from_a_0d_argument():
    """``float(s) + 1`` of a 0-d array argument, returned: Inductor compiled the read as a symbol it never bound
    (a C++ compile error, pytorch#158060), and the whole function ran in NumPy."""
    s, v = np.array(3.5), np.array([1.5, 2.5])
    report = C.explain(_scalars_of_a_0d_argument, backend="inductor")(s, v)
    assert not report.fallbacks, report
    assert same(report.result, _scalars_of_a_0d_argument(s, v))
