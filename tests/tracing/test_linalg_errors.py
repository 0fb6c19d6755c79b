"""NumPy's LinAlgError from compiled code: the shim's data checks (a singular matrix, a matrix that is not positive
definite) become assertions in the graph, raised as LinAlgError where the compiled graph is called."""

import numpy as np
import pytest

from npcompile import _compile as C


def _inverse_doubled(a):
    return np.linalg.inv(a) * 2.0


def _solved(a, b):
    return np.linalg.solve(a, b) + 1.0


def _cholesky(a):
    return np.linalg.cholesky(a)


def _helper_inverse(a):
    return np.linalg.inv(a)


def _caught_in_caller(a):
    try:
        return _helper_inverse(a)
    except np.linalg.LinAlgError as e:
        return str(e)


@pytest.mark.parametrize("backend", ["aot_eager", "eager"])
@pytest.mark.parametrize("fn, good, bad", [
    (_inverse_doubled, (np.eye(3) * 2,), (np.ones((3, 3)),)),
    (_solved, (np.eye(3) * 2, np.ones(3)), (np.zeros((3, 3)), np.ones(3))),
    (_cholesky, (np.eye(3) * 4,), (-np.eye(3),)),
    (_inverse_doubled, (np.eye(2)[None].repeat(4, 0),), (np.stack([np.eye(2)] * 3 + [np.zeros((2, 2))]),)),
])
def test_failed_checks_raise_numpy_linalg_error(backend, fn, good, bad):
    f = C.compile(fn, backend=backend, fullgraph=True)
    np.testing.assert_allclose(f(*good), fn(*good))
    with pytest.raises(np.linalg.LinAlgError) as numpy_raised:
        fn(*bad)
    with pytest.raises(np.linalg.LinAlgError) as compiled_raised:
        f(*bad)
    assert str(compiled_raised.value) == str(numpy_raised.value)
    np.testing.assert_allclose(f(*good), fn(*good))  # the same compiled code still serves good input


def test_caught_by_the_callers_except_clause():
    f = C.compile(_caught_in_caller, backend="aot_eager")
    assert f(np.zeros((2, 2))) == _caught_in_caller(np.zeros((2, 2))) == "Singular matrix"
    np.testing.assert_allclose(f(np.eye(2) * 2), np.eye(2) / 2)


def test_only_graphs_calling_linalg_get_the_error_wrapper(rec):
    C.compile(lambda a: np.linalg.inv(a) + np.sin(a), backend=rec)(np.eye(2))
    C.compile(lambda a: np.sin(a) @ a, backend=rec)(np.eye(2))
    assert [C._has_checks(g) for g in rec.graphs] == [True, False]
