"""What test drives of user-style NumPy programs through the compile path found, each pinned by a small case
compared with NumPy: values, dtypes and the types of results."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C

from .conftest import same


def _unique_forms(a):
    return np.unique_counts(a), np.unique_inverse(a), np.unique_all(a)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_unique_forms_return_numpys_named_results(backend):
    a = np.array([[3, 1], [1, 2]])
    got, want = C.compile(_unique_forms, backend=backend)(a), _unique_forms(a)
    assert [type(x) for x in got] == [type(x) for x in want]  # were the shim's own NamedTuple classes
    assert same(tuple(map(tuple, got)), tuple(map(tuple, want)))


def _add(a, k):
    return a + k


def _compare(a, k):
    return a == k, a < k


def _where(a, k):
    return np.where(a > 1, a, k)


def _set(a, k):
    a[0] = k
    return a


def _fill(a, k):
    return np.full(a.shape, k, dtype=a.dtype)


def _fill_method(a, k):
    a.fill(k)
    return a


def _insert(a, k):
    return np.insert(a, 0, k)


def _big_ints(a, k):
    return np.searchsorted(a, k), np.select([a > 3], [a], default=k), np.add.reduce(a, initial=k)


def _data_int(a, b):
    return a + int(b.max()), a == int(b.max())


def _outcome(fn, *args):
    try:
        return fn(*args)
    except OverflowError:
        return OverflowError


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("fn,dtype", [(_add, np.uint8), (_add, np.int8), (_add, np.int64), (_add, np.uint64),
                                      (_compare, np.uint8), (_where, np.uint8), (_set, np.int8), (_fill, np.uint8),
                                      (_fill_method, np.uint8), (_insert, np.uint8), (_big_ints, np.uint8)])
def test_an_int_argument_made_dynamic_keeps_numpys_conversion(fn, dtype, backend):
    """From its second value on, Dynamo passes an int argument as a symbol (one graph for all values): the shim
    took it unchecked, so a uint8 array + 300 wrapped (NumPy: OverflowError), np.where(m, uint8, k) came back int64
    (strong, not NEP 50's weak int), and a value >= 2**63 wrapped to int64 or failed in torch (a graph's symbol is
    an int64: such a value is now a constant of its own graph)."""
    compiled = C.compile(fn, backend=backend)
    for k in [1, 2, 3, 300, -1, 2**40, 2**63, 2**64 - 1, 5]:
        want, got = _outcome(fn, np.arange(5, dtype=dtype), k), _outcome(compiled, np.arange(5, dtype=dtype), k)
        assert want is got is OverflowError or same(got, want), (k, got, want)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_an_int_read_from_the_data_keeps_numpys_conversion(backend):
    compiled = C.compile(_data_int, backend=backend)
    for v in [1, 2, 300, -1]:
        args = np.arange(5, dtype=np.uint8), np.array([v, 0])
        want, got = _outcome(_data_int, *args), _outcome(compiled, *args)
        assert want is got is OverflowError or same(got, want), (v, got, want)


def _signed(a, k):
    return np.copysign(1.0, a * k), 1.0 / (a * 0 + k)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_a_float_argument_zero_is_told_from_minus_zero(backend):
    """Dynamo guards a float argument on ==, which takes -0.0 for 0.0: the graph traced for 0.0 ran for -0.0."""
    compiled = C.compile(_signed, backend=backend)
    for k in [0.0, -0.0, 0.0, np.float64(0.0), np.float64(-0.0), np.float32(-0.0), np.float32(0.0), 1.0, -0.0]:
        assert same(compiled(np.ones(3), k), _signed(np.ones(3), k)), k


# compiled from a string: pytest rewrites the assert statements of test modules
exec(compile("""
def _asserts(a):
    assert (a >= 0).all()
    assert a.min() > 0, "must be positive"
    return a.sum()
""", __name__, "exec"))


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_a_failed_assert_on_array_values_raises_assertion_error(backend):
    """Dynamo compiles ``assert`` on array values into torch._assert_async, which raised a RuntimeError."""
    compiled = C.compile(_asserts, backend=backend)
    assert same(compiled(np.ones(3)), _asserts(np.ones(3)))
    with pytest.raises(AssertionError) as e:
        compiled(-np.ones(3))
    assert e.value.args == ()
    with pytest.raises(AssertionError, match="^must be positive$"):
        compiled(np.zeros(3))


def _zero_d_results(a):
    s = a.squeeze()  # a 0-d array; a.sum() a scalar
    return (s.copy(), s.astype(np.float32), np.cov(a.ravel()), a.sum().copy(), a.sum().astype(np.int8),
            np.where(a.sum() > 0, a.sum(), 0), np.where(s > 0, 1.0, s), np.select([s > 0], [s]),
            np.zeros_like(a.sum()), np.ones_like(s), np.full_like(a.sum(), 2))


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_copies_of_0d_arrays_stay_arrays(backend):
    """A copy or cast of a 0-d array is a 0-d array, of a scalar a scalar; np.cov of one variable, np.where,
    np.select and the *_like functions of scalars are 0-d arrays: they came back as scalars."""
    a = np.full((1, 1), 3.0)
    assert same(C.compile(_zero_d_results, backend=backend)(a), _zero_d_results(a))


def _scatter_rows(a, i, j, v):
    a[i] = v  # repeats in i: NumPy's last write wins
    b = np.zeros_like(a)
    b[i, j] = v[:, 0]
    b[i[:, None], j] = v[:, 1:2]  # repeats across a broadcast 2-D index
    return a, b


@pytest.mark.parametrize("i", [[1, 2, 1, 0], [3, 3, 3, 3], [0, -1, 2, -5], [4, 0, 4, 0]])
def test_setitem_with_an_index_array_and_array_values_traces(i):
    """``u[idx] = values`` with an integer index array and one value per index (finite-element assembly's
    ``u[free] = solve(...)``) made a data-dependent count while choosing the last write to each repeated position:
    a graph break, the write in NumPy.  Each write now carries the value of the last write to its position."""
    i, j, v = np.array(i), np.array([0, 2, 0, 1]), np.arange(12.0).reshape(4, 3)
    a = np.zeros((5, 3))
    got = C.compile(_scatter_rows, backend="aot_eager", fullgraph=True)(a.copy(), i, j, v)
    assert same(got, _scatter_rows(a.copy(), i, j, v))


def _reduce_selection(r, keys):
    tail = r[r < 0.5]
    rows = r.reshape(-1, 2)[r[::2] < 0.5]
    counts = np.unique(keys, return_counts=True)[1]
    return (tail.sum(), tail.mean(), tail.max(), np.argmin(tail), rows.max(axis=0), rows.min(axis=1),
            rows.argmax(axis=0), counts.argmax(), np.max(counts), r[r > 2].mean(), tail.std(),
            rows.var(axis=0, ddof=1))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy: the mean of nothing
@pytest.mark.parametrize("scale", [1.0, 0.4])
def test_reductions_of_a_data_dependent_count_trace(scale):
    """``returns[returns < q].mean()`` (or ``.std()``), ``counts.argmax()`` of ``np.unique``'s counts: the
    reductions tested the count read from the data for zero (a graph break, the call in NumPy).  Now a count that
    is not known counts as not empty (the mean and variance of nothing are NaN, without NumPy's warning there);
    max/min/argmax of nothing raise NumPy's ValueError when the compiled code runs."""
    r, keys = np.random.default_rng(0).random(20) * scale, np.array([3, 1, 3, 2, 3])
    compiled = C.compile(_reduce_selection, backend="aot_eager", fullgraph=True)
    assert same(compiled(r, keys), _reduce_selection(r, keys))


@pytest.mark.parametrize("fn, message", [
    (lambda r: r[r > 2].max(), "zero-size array to reduction operation maximum which has no identity"),
    (lambda r: np.argmax(r[r > 2]), "attempt to get argmax of an empty sequence"),
    (lambda r: r[r > 2].reshape(-1, 1).min(axis=0), "zero-size array to reduction operation minimum"),
    (lambda r: r[r > 2].reshape(-1, 1).argmin(axis=0), "attempt to get argmin of an empty sequence")])
def test_reductions_of_nothing_chosen_by_the_data_raise_numpys_error(fn, message):
    r = np.ones(3)
    with pytest.raises(ValueError, match=message):
        fn(r)
    with pytest.raises(ValueError, match=message):
        C.compile(fn, backend="aot_eager", fullgraph=True)(r)


def _ranges(x, k):
    n = x.shape[0]
    return (np.arange(1, n + 1), np.arange(n), np.arange(n, 0, -1), np.arange(0, n, 3), np.arange(k, n),
            np.arange(n, k, -2), np.cumsum(x) / np.arange(1, n + 1))


def test_arange_of_a_traced_size():
    """``np.arange(1, x.shape[0] + 1)``: once sizes are symbols (the second size), the bound was a SymInt that
    arange took for an object (a graph break; running_mean under wrap_numpy).  Empty where NumPy's is."""
    f = C.compile(_ranges, backend="aot_eager", fullgraph=True)
    for n, k in ((5, 2), (9, 4), (4, 7), (3, 3)):
        x = np.arange(float(n))
        assert same(f(x, k), _ranges(x, k))


def _write_index(x):
    x[...] = 2.5
    return x


def _write_out(x):
    return np.add(x, 1, out=x)


def _write_copyto(x):
    np.copyto(x, 5)
    return x


@pytest.mark.parametrize("fn", [_write_index, _write_out, _write_copyto])
def test_a_write_into_a_numpy_scalar_argument_is_numpys_type_error(fn):
    """NumPy scalars are immutable: ``s[...] = v``, ``out=s`` and ``copyto(s, v)`` raise TypeError.  Found by the
    conformance suite's compiled mode (NPC_CONFORMANCE_COMPILED=1): the shim, eager and traced, wrote into its
    scalar (a 0-d array).  0-d arrays stay writable."""
    with pytest.raises(TypeError):
        fn(np.float64(3.0))
    with pytest.raises(TypeError):
        C.compile(fn, backend="eager")(np.float64(3.0))
    a, b = np.array(3.0), np.array(3.0)
    assert same(C.compile(fn, backend="eager")(b), fn(a)) and same(b, a)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_returned_argument_containers_are_the_callers(backend):
    """A list or dict argument returned comes back as the caller's object, as from Python (it was a new list or
    dict: ``f(l) is l`` False), also after the function appended to it."""
    def append(items, x):
        items.append(x * 2)
        return items, {"k": x}

    def pass_on(items, d=None):
        return items, d, [v * 2 for v in items]

    f, g = C.compile(append, backend=backend), C.compile(pass_on, backend=backend)
    for _ in range(2):
        items, d = [], {"a": np.ones(2)}
        got = f(items, np.arange(2.0))
        assert got[0] is items and len(items) == 1 and type(items[0]) is np.ndarray
        got = g(items, d=d)
        assert got[0] is items and got[1] is d and got[2] is not items
        assert same(got[2], [items[0] * 2])


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_returned_elements_of_argument_containers_are_the_callers(backend):
    """An array returned from a list, tuple or dict argument is the caller's object (it was a new view of it),
    also one the function put there; one it took out before replacing it is a view with its values."""
    def pick(d, items, pair):
        d["b"] = d["a"] + 1
        return d["a"], items[1], pair[0], d["b"], d["a"] * 2

    def swap(items):
        x = items[0]
        items[0] = np.zeros(2)
        return x

    for _ in range(2):
        d, items, pair = {"a": np.arange(3.0)}, [np.ones(2), np.zeros(2)], (np.full(2, 5.0),)
        got = C.compile(pick, backend=backend)(d, items, pair)
        assert got[0] is d["a"] and got[1] is items[1] and got[2] is pair[0] and got[3] is d["b"]
        assert same(got[3], np.arange(3.0) + 1) and same(got[4], np.arange(3.0) * 2)
        items = [np.ones(2)]
        x = C.compile(swap, backend=backend)(items)
        assert same(x, np.ones(2)) and same(items[0], np.zeros(2)) and x is not items[0]


def test_new_compiled_arrays_are_views_of_their_tensors():
    """README deviation: a new array from compiled code is a view of the tensor holding its memory (no copy on the
    way out), so its ``base`` is that tensor (NumPy: None) and it owns no data; it is writeable and shares nothing
    with the argument."""
    a = np.arange(3.0)
    r = C.compile(lambda a: np.copy(a) + 1, backend="eager")(a)
    assert type(r) is np.ndarray and isinstance(r.base, torch.Tensor) and not r.flags.owndata
    assert r.flags.writeable and not np.shares_memory(r, a)
