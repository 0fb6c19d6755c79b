"""Graph breaks inside called functions (``config.nested_graph_breaks``): right values, few graphs."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS

from .conftest import RecordingBackend, same


def _sorted_key_breaks(a):
    d = {"x": a * 2, "y": a + 1}
    return sorted(d.items(), key=lambda kv: str(kv))[0]  # str() of an array: a break inside the key function


def _sorted_key_index(a):
    d = {a.shape: a * 2}
    return sorted(d.items(), key=lambda kv: str(kv))[0][1] + 1


def _map_breaks(a):
    return list(map(lambda v: str(v), [a, a + 1]))


def _max_key_breaks(a):
    return max([a, a + 1], key=lambda v: float(v.sum()))


def _filter_breaks(a):
    return list(filter(lambda v: float(v.sum()) > 0, [a, -a]))


@pytest.mark.parametrize("helper", [_sorted_key_breaks, _sorted_key_index, _map_breaks, _max_key_breaks,
                                    _filter_breaks])
def test_break_in_a_function_a_builtin_calls(helper):
    # torch 2.13 resumed the caller after the builtin's call with the key function's value as the builtin's
    # result (sorted(...)[0] gave '(', len(list(map(...))) the length of a string)
    def user(a):
        y = a * 3
        r = helper(a)
        return (len(r) if isinstance(r, list) else r), np.sin(y)

    a = np.linspace(0.1, 1, 5)
    assert same(C.compile(user, backend="eager")(a), user(a))


def test_break_in_a_called_function_resumes_inside_it():
    def inner(a):
        b = np.cos(a)
        print(end="")  # a break
        return b * 2

    def user(a):
        return inner(a + 1) - 1

    rec = RecordingBackend()
    a = np.linspace(0, 1, 7)
    assert same(C.compile(user, backend=rec)(a), user(a))
    # nested: (a + 1, cos) and (* 2, - 1); without (torch 2.11) each frame splits around the call: 6
    assert len(rec.graphs) == (2 if NESTED_GRAPH_BREAKS else 6)
