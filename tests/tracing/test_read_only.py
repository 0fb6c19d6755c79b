"""Read-only arrays in compiled code: a write into one raises NumPy's error (type and message), leaves every
array unchanged, and a graph traced for a read-only array is never reused for a writeable one, nor the reverse.
Reading read-only arrays stays compiled (one graph, no break)."""

import numpy as np
import pytest

import npcompile
import npcompile._numpy as snp
from npcompile import fallback
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS
from tests.numpy_conformance.harness import assert_matches


def _ro(a):
    a = np.array(a, dtype=float)
    a.flags.writeable = False
    return a


def _outcome(fn, *args, **kwargs):
    try:
        return "ok", fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e), str(e)


def _check(fn, make, backend="eager"):
    """``fn`` on arrays from ``make()`` (a tuple of args), compiled and in NumPy: same outcome, same arrays after.
    Then the same compiled function on writeable copies, then read-only ones again (one compiled object)."""
    cf = npcompile.compile(fn, backend=backend)
    for writeable in (False, True, False):
        ours, theirs = make(), make()
        if writeable:
            ours, theirs = [[np.array(a) for a in x] for x in (ours, theirs)]
        got, want = _outcome(cf, *ours), _outcome(fn, *theirs)
        assert got[0] == want[0], (writeable, got, want)
        if want[0] == "ok":
            np.testing.assert_array_equal(got[1], want[1])
        else:
            assert got[1] == want[1]
        for a, b in zip(ours, theirs):
            np.testing.assert_array_equal(a, b)
            assert a.flags.writeable == b.flags.writeable


def _iadd(x):
    x += 1
    return x.sum()


def _setitem(x):
    x[...] = 3
    return x.sum()


def _setitem_one(x):
    y = x * 2
    x[1] = 3
    return y


def _out(x):
    np.add(x, 1, out=x)
    return x.sum()


def _fill(x):
    x.fill(0)
    return x


def _sort(x):
    x.sort()
    return x


def _put(x):
    np.put(x, [0], 5)
    return x


def _copyto(x):
    np.copyto(x, 5)
    return x


def _view_write(x):
    v = x[1:]
    v += 1
    return x


def _flat_set(x):
    x.flat[0] = 5
    return x


def _putmask(x):
    np.putmask(x, x > 1, 0)
    return x


def _shuffle(x):
    np.random.shuffle(x)
    return x


def test_shuffle():  # (random: only the read-only call compared)
    x = _ro([0, 1, 2])
    assert _outcome(npcompile.compile(_shuffle, backend="eager"), x) == _outcome(_shuffle, x)
    assert x.tolist() == [0, 1, 2]


def _break_then_write(x):
    y = x + 1
    print(end="")  # a graph break: x is rebuilt after it (read-only)
    x[0] = y[1]
    return y


def _read(x):
    return np.sin(x) * 2 + x[::2].sum()


@pytest.mark.parametrize("fn", [_iadd, _setitem, _setitem_one, _out, _fill, _sort, _put, _copyto, _view_write,
                                _flat_set, _putmask, _break_then_write, _read])
def test_positional_argument(fn):
    _check(fn, lambda: (_ro([3.0, 1.0, 2.0, 0.0]),))


def _two(x, y):
    y += x
    return x + y


def test_second_argument_read_only_first_writeable():
    def make():
        return np.arange(4.0), _ro([1, 2, 3, 4])
    _check(_two, make)


def test_keyword_argument():
    def f(a, *, x):
        x += a
        return x

    cf = npcompile.compile(f, backend="eager")
    x = _ro([1, 2])
    with pytest.raises(ValueError, match="^output array is read-only$"):
        cf(1.0, x=x)
    assert x.tolist() == [1, 2] and not x.flags.writeable
    w = np.array([1.0, 2.0])
    assert cf(1.0, x=w) is w and w.tolist() == [2, 3]


@pytest.mark.parametrize("wrap", [lambda a: [a], lambda a: (a,), lambda a: {"k": a}], ids=["list", "tuple", "dict"])
def test_inside_a_container(wrap):
    def f(c):
        v = c[0] if not isinstance(c, dict) else c["k"]
        v *= 2
        return v.sum()

    cf = npcompile.compile(f, backend="eager")
    a = _ro([1, 2])
    with pytest.raises(ValueError, match="^output array is read-only$"):
        cf(wrap(a))
    assert a.tolist() == [1, 2] and not a.flags.writeable
    w = np.array([1.0, 2.0])
    assert cf(wrap(w)) == 6 and w.tolist() == [2, 4]
    with pytest.raises(ValueError, match="^output array is read-only$"):
        cf(wrap(a))
    assert a.tolist() == [1, 2]


G = _ro([1, 2, 3])


def test_global_and_closure():
    def write_global():
        G[0] = 7
        return G.sum()

    cf = npcompile.compile(write_global, backend="eager")
    for _ in range(2):
        with pytest.raises(ValueError, match="^assignment destination is read-only$"):
            cf()
        assert G.tolist() == [1, 2, 3] and not G.flags.writeable  # (Dynamo itself sets the flag to make its tensor)
    c = _ro([1, 2])

    def closure(a):
        c[...] += a
        return c

    with pytest.raises(ValueError, match="^output array is read-only$"):
        npcompile.compile(closure, backend="eager")(1.0)
    assert c.tolist() == [1, 2] and not c.flags.writeable


def test_global_turns_writeable_between_calls():
    h = _ro([1, 2])

    def f():
        h[0] += 1
        return h.sum()

    cf = npcompile.compile(f, backend="eager")
    with pytest.raises(ValueError):
        cf()
    h.flags.writeable = True
    assert cf() == 4 and h.tolist() == [2, 2]
    h.flags.writeable = False
    with pytest.raises(ValueError):
        cf()
    assert h.tolist() == [2, 2]


def _broadcast_to(x):
    b = np.broadcast_to(x, (3, x.size))
    b += 1
    return b


def _flag_inside(x):
    y = x * 2
    y.flags.writeable = False
    y += 1
    return y


def _as_strided(x):
    y = np.lib.stride_tricks.as_strided(x, (2,), (x.itemsize,), writeable=False)
    y += 1
    return y


def _frombuffer(x):
    y = np.frombuffer(b"\0" * 16, dtype=np.float64)
    y += x[:2]
    return y


def _diagonal(x):
    d = np.diagonal(x.reshape(2, 2))
    d += 1
    return d


def _broadcast_read(x):
    return np.broadcast_to(x, (3, x.size)).sum(axis=0) + x


@pytest.mark.parametrize("fn", [_broadcast_to, _flag_inside, _as_strided, _frombuffer, _diagonal, _broadcast_read])
def test_made_read_only_inside(fn):
    _check(fn, lambda: (np.arange(4.0),))


def test_reading_stays_one_graph():
    x = _ro(np.arange(6.0))
    report = npcompile.explain(_read)(x)
    assert report.graph_count == 1 and not report.events, str(report)
    assert not x.flags.writeable
    # the write raises; explain does not call it a fallback
    with pytest.raises(ValueError):
        npcompile.explain(_setitem_one)(x)
    events = [e for e in fallback.recent_events()[-3:] if "read-only" in e.reason]
    assert events and all(e.kind == "graph_break" for e in events), events


def test_results_that_view_a_read_only_argument():
    def f(x):
        return x, x[1:], x.T

    cf = npcompile.compile(f, backend="eager")
    x = _ro([1, 2, 3])
    same, view, t = cf(x)
    assert same is x
    assert not view.flags.writeable and not t.flags.writeable
    np.testing.assert_array_equal(view, [2, 3])
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 1


def test_a_later_writeable_call_recompiles_no_write_lost():
    cf = npcompile.compile(_iadd, backend="eager")
    w = np.arange(3.0)
    assert cf(w) == 6 and w.tolist() == [1, 2, 3]
    r = _ro([0, 1, 2])
    with pytest.raises(ValueError, match="^output array is read-only$"):
        cf(r)
    assert r.tolist() == [0, 1, 2]
    assert cf(w) == 9 and w.tolist() == [2, 3, 4]


def test_aot_eager_backend():
    _check(_setitem_one, lambda: (_ro([3.0, 1.0, 2.0, 0.0]),), backend="aot_eager")


@pytest.mark.inductor
def test_inductor():
    _check(_iadd, lambda: (_ro(np.arange(8.0)),), backend="inductor")
    _check(_read, lambda: (_ro(np.arange(8.0)),), backend="inductor")


# The eager shim: its own read-only errors, with NumPy's messages.
@pytest.mark.parametrize("fn", [
    lambda xp, a: a.sort(),
    lambda xp, a: a.partition(1),
    lambda xp, a: a.byteswap(inplace=True),
    lambda xp, a: a.flat.__setitem__(0, 5),
    lambda xp, a: setattr(a, "flat", 5),
    lambda xp, a: xp.fill_diagonal(a.reshape(2, 2), 0),
], ids=["sort", "partition", "byteswap", "flat_item", "flat_all", "fill_diagonal"])
def test_shim_messages(fn):
    msgs = []
    for xp in (np, snp):
        a = xp.arange(4.0)
        a.flags.writeable = False
        with pytest.raises(ValueError) as e:
            fn(xp, a)
        msgs.append(str(e.value))
        assert np.asarray(a).tolist() == [0, 1, 2, 3]
    assert msgs[0] == msgs[1]


def test_shim_flat_indexing_copies():
    assert_matches(lambda xp, a: (a.flat[1:3].__setitem__(0, 9), a)[1], np.arange(4.0))
    a = snp.arange(4.0)
    a.flags.writeable = False
    b = a.flat[1:3]
    b[0] = 9  # a copy, writeable, as NumPy's
    assert a.tolist() == [0, 1, 2, 3]


def _read_only_results(x):
    return np.broadcast_to(x, (2, 3)), np.broadcast_to(x * 2, (2, 3)), np.diagonal(np.outer(x, x)), x[1:], x


def _read_only_results_after_break(x):
    print(end="")
    return np.broadcast_to(x, x.shape), x


@pytest.mark.parametrize("fn", [_read_only_results, _read_only_results_after_break])
def test_results_numpy_makes_read_only(fn):
    cf = npcompile.compile(fn, backend="eager")
    for _ in range(2):  # traced, then the cached code
        x = np.arange(3.0)
        got, want = cf(x), fn(np.arange(3.0))
        assert [a.flags.writeable for a in got] == [a.flags.writeable for a in want]
        assert got[-1] is x and x.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            got[0][...] = 1
        assert x.tolist() == [0, 1, 2]


# Read-only views used after a graph break: rebuilt read-only there (tracing._dynamo_patch.readonly_numpy), where
# NumPy will not set their writeable flag again; Dynamo must still take them (_writeable_alias).
def _window_view_across_break(x):
    v = np.lib.stride_tricks.sliding_window_view(x, 3)
    print(end="")
    return v.sum(axis=1) * 2, v


def _strided_view_across_break(x):
    v = np.lib.stride_tricks.as_strided(x, (2, 3), (x.strides[0], x.strides[0]), writeable=False)
    print(end="")
    return v @ x[:3], v


def _broadcast_across_break(x):
    v = np.broadcast_to(x, (2, x.size))
    print(end="")
    return v + 1, v


def _argument_across_break(x):
    y = x * 2
    print(end="")
    return y + x, x[1:]


@pytest.mark.parametrize("fn", [_window_view_across_break, _strided_view_across_break, _broadcast_across_break,
                                _argument_across_break])
def test_read_only_view_across_a_break_stays_compiled(fn):
    make = (lambda: (_ro(np.arange(6.0)),)) if fn is _argument_across_break else (lambda: (np.arange(6.0),))
    report = npcompile.explain(fn)(*make())
    graphs = 2 if NESTED_GRAPH_BREAKS else 4  # (2.11: the entry function splits at the call too)
    assert report.graph_count == graphs and [e.kind for e in report.events] == ["graph_break"], str(report)
    for _ in range(2):  # traced, then the cached code
        (x,), (x0,) = make(), make()
        got, want = report.compiled(x), fn(x0)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert not got[1].flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            got[1][0, ...] = 7
        assert x.tolist() == x0.tolist()


def _write_view_after_break(x):
    v = np.lib.stride_tricks.sliding_window_view(x, 2)
    print(end="")
    s = v.sum()
    v[0, 0] = s  # NumPy: ValueError, nothing written
    return s


def test_write_into_read_only_view_after_a_break():
    _check(_write_view_after_break, lambda: (np.arange(4.0),))


_REVERSED = np.arange(4.0)[::-1]
_REVERSED.flags.writeable = False
_BIG_ENDIAN = np.arange(4.0).astype(">f8")
_BIG_ENDIAN.flags.writeable = False


def _add_reversed(a):
    return a + _REVERSED


def _add_big_endian(a):
    return a + _BIG_ENDIAN


@pytest.mark.parametrize("fn, feature", [(_add_reversed, "arrays with negative strides"),
                                         (_add_big_endian, "dtype >f8")])
def test_read_only_global_torch_cannot_view(fn, feature):
    # a break where real NumPy reads it, and its flag stays unset (Dynamo would have set it)
    x = np.ones(4)
    report = npcompile.explain(fn)(x)
    np.testing.assert_array_equal(report.result, fn(x))
    assert [e.feature for e in report.events] == [feature], str(report)
    assert not _REVERSED.flags.writeable and not _BIG_ENDIAN.flags.writeable
