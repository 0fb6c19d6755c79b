"""What test drives of user-style NumPy programs through the compile path found, each pinned by a small case
compared with NumPy: values, dtypes and the types of results."""

import numpy as np
import pytest

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
