"""Hypothesis strategies shared by every differential test: dtypes, shapes, arrays (also 0-D, empty and
non-contiguous views), axes and array-likes."""

from __future__ import annotations

import numpy
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

BOOL = [numpy.dtype("bool")]
SIGNED = [numpy.dtype(t) for t in ("int8", "int16", "int32", "int64")]
UNSIGNED = [numpy.dtype(t) for t in ("uint8", "uint16", "uint32", "uint64")]
INTEGER = SIGNED + UNSIGNED
FLOAT = [numpy.dtype(t) for t in ("float16", "float32", "float64")]
COMPLEX = [numpy.dtype(t) for t in ("complex64", "complex128")]
REAL = BOOL + INTEGER + FLOAT
ALL = REAL + COMPLEX


def dtypes(kinds=ALL):
    return st.sampled_from(list(kinds))


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=5):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def _elements(dtype, finite):
    if dtype.kind == "f":
        return st.floats(allow_nan=not finite, allow_infinity=not finite, width=dtype.itemsize * 8,
                         min_value=-1e4 if finite else None, max_value=1e4 if finite else None)
    if dtype.kind == "c":
        w = dtype.itemsize * 4
        f = st.floats(allow_nan=not finite, allow_infinity=not finite, width=w,
                      min_value=-1e4 if finite else None, max_value=1e4 if finite else None)
        return st.builds(complex, f, f)
    return None


@st.composite
def arrays(draw, dtype=dtypes(), shape=shapes(), finite=False, views=True):
    """NumPy arrays; with ``views`` sometimes a non-contiguous view (a strided slice or a transpose)."""
    dt = draw(dtype) if isinstance(dtype, st.SearchStrategy) else numpy.dtype(dtype)
    shp = draw(shape) if isinstance(shape, st.SearchStrategy) else tuple(shape)
    if views and len(shp) >= 1 and draw(st.booleans()):
        kind = draw(st.sampled_from(["step", "transpose"]))
        if kind == "step":
            big = (shp[0] * 2,) + shp[1:]
            a = draw(hnp.arrays(dt, big, elements=_elements(dt, finite)))
            return a[::2]
        a = draw(hnp.arrays(dt, shp[::-1], elements=_elements(dt, finite)))
        return a.T
    return draw(hnp.arrays(dt, shp, elements=_elements(dt, finite)))


@st.composite
def axes(draw, ndim, allow_none=True, allow_tuple=True, allow_out_of_range=False):
    """An axis argument valid for ``ndim`` dims: None, an int (maybe negative), or a tuple of distinct ints."""
    opts = []
    if allow_none:
        opts.append(st.none())
    if ndim > 0:
        opts.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            opts.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(
                lambda xs: tuple(x - ndim if i % 2 else x for i, x in enumerate(xs))))
    if allow_out_of_range:
        opts.append(st.sampled_from([ndim, -ndim - 1]))
    return draw(st.one_of(opts)) if opts else None


def python_scalars():
    return st.one_of(st.booleans(), st.integers(-300, 300), st.floats(-1e3, 1e3, allow_nan=False),
                     st.complex_numbers(max_magnitude=1e3, allow_nan=False))


@st.composite
def array_likes(draw, dtype=dtypes(REAL), shape=shapes(max_dims=2, max_side=4)):
    """Nested lists (the array-like form users write), Python scalars, or NumPy arrays."""
    a = draw(arrays(dtype, shape, finite=True, views=False))
    form = draw(st.sampled_from(["list", "array", "scalar"]))
    if form == "list":
        return a.tolist()
    if form == "scalar" and a.ndim == 0:
        return a.item()
    return a


@st.composite
def near_ends(draw, dtype=dtypes(INTEGER), shape=shapes(min_dims=1, max_dims=2, min_side=1, max_side=6)):
    """Integer arrays crowding the ends of their dtype's range (the wide unsigned types compute in wider
    types there, which must stay exact)."""
    dt = draw(dtype) if isinstance(dtype, st.SearchStrategy) else numpy.dtype(dtype)
    info = numpy.iinfo(dt)
    ends = st.one_of(st.integers(info.max - 3, info.max), st.integers(info.min, info.min + 3),
                     st.integers(info.min, info.max))
    return draw(hnp.arrays(dt, draw(shape) if isinstance(shape, st.SearchStrategy) else shape, elements=ends))
