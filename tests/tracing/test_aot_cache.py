"""AOTAutograd's cache for graphs that call the shim (npcompile/tracing/_aot_cache.py): a warm compile loads
the compiled graph instead of tracing it again, and graphs that print alike but run different shim functions
do not share an entry."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
import npcompile._numpy as shim
from npcompile.tracing._aot_cache import cacheable
from npcompile.tracing._dynamo_patch import ShimCall, shim_attr

from .conftest import same


def _compiled_again(f, *args):
    """``f`` compiled in a fresh Dynamo state (as a new process would, with the on-disk caches kept): its result
    and AOTAutograd's cache counters for that compile."""
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters["aot_autograd"].clear()
    got = C.compile(f)(*args)
    return got, dict(counters["aot_autograd"])


@pytest.mark.inductor
def test_warm_compile_loads_the_graph_and_shim_functions_are_told_apart():
    from torch._inductor.utils import fresh_cache

    a = np.arange(24.0).reshape(2, 3, 4)
    with fresh_cache():
        first, c1 = _compiled_again(lambda x: np.diagonal(x) * 2.0, a)
        again, c2 = _compiled_again(lambda x: np.diagonal(x) * 2.0, a)
        # np.linalg.diagonal takes the last two axes, np.diagonal the first two: both nodes print as npc_diagonal
        other, c3 = _compiled_again(lambda x: np.linalg.diagonal(x) * 2.0, a)
    assert c1.get("autograd_cache_miss") == 1 and c2.get("autograd_cache_hit") == 1
    assert c3.get("autograd_cache_miss") == 1
    assert same(first, np.diagonal(a) * 2.0) and same(again, first) and same(other, np.linalg.diagonal(a) * 2.0)


def test_graphs_with_what_the_key_cannot_see_are_not_marked():
    """A graph with a call the cache key would not tell apart (here a generator's draw: its state is not in the
    key) keeps AOTAutograd's own refusal; the shim's functions and array attributes are named."""
    import contextlib

    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.output(graph.call_function(ShimCall(shim.sin), (graph.call_function(shim_attr, (x, "T")),)))
    assert not isinstance(cacheable(torch.fx.GraphModule({}, graph), ()), contextlib.nullcontext)
    graph.call_function(ShimCall(shim.random.default_rng(0).random), (3,))
    assert isinstance(cacheable(torch.fx.GraphModule({}, graph), ()), contextlib.nullcontext)


def _write_column(y, img, prev, j):
    y[:, j] = img[:, j] + 0.5 * prev
    return y[:, j]


@pytest.mark.inductor
def test_arguments_sharing_memory_are_not_answered_from_the_cache():
    """``prev`` is the column the previous call wrote and returned, a view into ``y``: each call compiles again
    (its offset in ``y`` changes), and AOTAutograd's cache, whose key does not see that offset, answered the third
    call with the second's graph (column 0 read for column 1)."""
    img = np.arange(1.0, 13.0).reshape(3, 4)
    f = C.compile(_write_column)
    y, prev, y_np, prev_np = np.zeros_like(img), np.zeros(3), np.zeros_like(img), np.zeros(3)
    for j in range(4):
        prev, prev_np = f(y, img, prev, j), _write_column(y_np, img, prev_np, j)
        assert np.shares_memory(prev, y) and same(prev, prev_np)
    assert same(y, y_np)
