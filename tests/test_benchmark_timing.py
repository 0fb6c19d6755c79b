"""The benchmark runner's interleaved timing (``benchmarks/timing.py``): every column is timed right after every
other one equally often, so none always pays for the caches another left behind."""

from collections import Counter

import pytest

from benchmarks import timing


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_each_implementation_follows_each_other_equally_often(n):
    orders = timing._balanced_orders(n)
    assert all(sorted(order) == list(range(n)) for order in orders)
    follows = Counter((a, b) for order in orders for a, b in zip(order, order[1:]))
    assert len(follows) == n * (n - 1) and len(set(follows.values())) <= 1


def test_interleaved_timing_takes_whole_cycles_of_orders():
    fns = {key: (lambda: None) for key in "abc"}
    stats = timing.measure_interleaved(fns, (), repeat=4)  # 3 columns: 6 orders
    assert set(stats) == set(fns) and {s["repeat"] for s in stats.values()} == {6}
