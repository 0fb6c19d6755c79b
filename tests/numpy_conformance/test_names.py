"""Every name the shim's spec requires exists in ``npcompile._numpy`` (and its linalg/fft/random)."""

import numpy
import pytest

import npcompile._numpy as shim
from npcompile._numpy._unsupported import REASONS

CREATION = """array asarray asanyarray ascontiguousarray copy empty zeros ones full empty_like zeros_like ones_like
full_like arange linspace logspace geomspace eye identity diag diagflat tri tril triu meshgrid fromfunction
frombuffer indices vander"""
REDUCTIONS = """sum prod mean std var min max amin amax argmin argmax all any ptp cumsum cumprod cumulative_sum
cumulative_prod count_nonzero average median percentile quantile nansum nanprod nanmean nanstd nanvar nanmin
nanmax nanargmin nanargmax nancumsum nancumprod nanmedian nanpercentile nanquantile"""
INDEXING = """take put take_along_axis put_along_axis choose compress where nonzero argwhere flatnonzero extract
place putmask select diagonal ix_ r_ c_ mgrid ogrid unravel_index ravel_multi_index tril_indices triu_indices
tril_indices_from triu_indices_from"""
MANIPULATION = """reshape ravel transpose permute_dims moveaxis swapaxes rollaxis expand_dims squeeze broadcast_to
broadcast_arrays broadcast_shapes atleast_1d atleast_2d atleast_3d concatenate concat stack vstack hstack dstack
column_stack block split array_split hsplit vsplit dsplit unstack tile repeat flip fliplr flipud roll rot90 pad
delete insert append resize trim_zeros"""
DTYPES = "result_type promote_types can_cast min_scalar_type isdtype issubdtype finfo iinfo"
MAIN = sorted(set(" ".join([CREATION, REDUCTIONS, INDEXING, MANIPULATION, DTYPES]).split()))
UFUNCS = sorted(n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc))


def _submodule_names(prefix, module):
    return sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
                  and not isinstance(getattr(module, n), type(numpy)) and f"{prefix}.{n}" not in REASONS)


SUBMODULES = [(p, n) for p, m in (("linalg", numpy.linalg), ("fft", numpy.fft), ("random", numpy.random))
              for n in _submodule_names(p, m)]


def test_spec_names_exist():
    missing = [n for n in MAIN if not hasattr(shim, n)]
    assert not missing, f"missing from npcompile._numpy: {missing}"


def test_every_ufunc_exists_and_is_a_ufunc():
    missing = [n for n in UFUNCS if not isinstance(getattr(shim, n, None), shim.ufunc)]
    assert not missing, f"missing ufuncs: {missing}"


@pytest.mark.parametrize("prefix", ["linalg", "fft", "random"])
def test_submodule_names_exist(prefix):
    module = getattr(shim, prefix)
    missing = [n for p, n in SUBMODULES if p == prefix and not hasattr(module, n)]
    assert not missing, f"missing from npcompile._numpy.{prefix}: {missing}"


def test_names_are_callable_like_numpys():
    """A required name is callable exactly where NumPy's is (r_/c_/mgrid/ogrid are index objects)."""
    wrong = [n for n in MAIN if hasattr(shim, n) and callable(getattr(shim, n)) != callable(getattr(numpy, n))]
    assert not wrong, wrong
