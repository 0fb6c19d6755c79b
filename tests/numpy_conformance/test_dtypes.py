"""dtypes, scalar types, the abstract hierarchy and promotion, against the installed NumPy."""

import builtins
import itertools

import numpy
import pytest
from hypothesis import given, strategies as st

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import ALL, arrays, dtypes

SCALAR_NAMES = ["bool", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128", "byte", "short", "intc", "int_",
                "intp", "long", "longlong", "ubyte", "ushort", "uintc", "uint", "uintp", "ulong", "ulonglong",
                "half", "single", "double", "csingle", "cdouble"]
ABSTRACT = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
            "complexfloating"]
DTYPE_LIKES = ["f4", "float32", "<f8", "=i2", "i8", "u1", "?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q",
               "e", "f", "d", "F", "D", "c8", "complex128", "int", "float", "bool", "uint", "intp", "double",
               builtins.int, builtins.float, builtins.complex, builtins.bool, None]
NON_NUMERIC = ["U", "S5", "O", "M8[s]", "m8", "V8", "g", "G", [("a", "f4")], str, bytes, object]


@pytest.mark.parametrize("name", SCALAR_NAMES)
def test_scalar_types(name):
    t, nt = getattr(shim, name), getattr(numpy, name)
    assert numpy.dtype(t) == numpy.dtype(nt) and shim.dtype(t) == numpy.dtype(nt)
    assert t.__name__ == numpy.dtype(nt).name  # aliases (longlong, double...) are the canonical type
    x = t(3)
    assert isinstance(x, shim.ndarray) and x.ndim == 0 and x.dtype == numpy.dtype(nt)  # scalars are 0-D arrays
    assert isinstance(x, t) and not isinstance(shim.zeros(2, nt), t)
    assert x.item() == nt(3).item() and type(x.item()) is type(nt(3).item())
    assert issubclass(t, shim.generic) and issubclass(numpy.dtype(t).type, t)


def test_scalar_construction():
    assert_matches(lambda xp: xp.float32(3.5), )
    assert_matches(lambda xp: xp.int8(100))
    assert_matches(lambda xp: xp.uint8(3.7))
    assert_matches(lambda xp: xp.complex64(1 + 2j))
    assert_matches(lambda xp: xp.float64())
    assert_matches(lambda xp: xp.bool(0))
    assert_matches(lambda xp: xp.int16([1, 2, 3]))
    assert_matches(lambda xp: xp.int8(300))  # OverflowError
    with pytest.raises(TypeError):
        shim.floating(1.0)  # abstract


@pytest.mark.parametrize("name, args", [
    ("float64", (None,)), ("float16", (None,)), ("complex64", (None,)), ("bool", (None,)), ("uint8", (None,)),
    ("int64", (None,)), ("complex128", (1, 2)), ("complex64", (1.5, -2)), ("complex128", (numpy.inf, -0.0)),
    ("float64", (1, 2)), ("complex128", (1, 2, 3)), ("complex128", ("1", 2)),
])
def test_scalar_construction_from_none_and_two_parts(name, args):
    """None is NaN, False, or int()'s TypeError; complex types take (real, imag) as Python's complex."""
    assert_matches(lambda xp: getattr(xp, name)(*args))


@pytest.mark.parametrize("name", ABSTRACT)
def test_abstract_hierarchy(name):
    t, nt = getattr(shim, name), getattr(numpy, name)
    for other in ABSTRACT + ["float32", "int8", "uint64", "complex64", "bool"]:
        o, no = getattr(shim, other), getattr(numpy, other)
        assert issubclass(o, t) == issubclass(no, nt), (other, name)
        assert shim.issubdtype(o, t) == numpy.issubdtype(no, nt), (other, name)
    for d in ALL:
        assert shim.issubdtype(d, t) == numpy.issubdtype(d, nt)
        assert isinstance(shim.zeros((), d), t) == isinstance(numpy.zeros((), d)[()], nt)
    assert isinstance(shim.float32(1), shim.floating) and not isinstance(shim.float32(1), shim.integer)


@pytest.mark.parametrize("like", DTYPE_LIKES, ids=repr)
def test_dtype_from_dtype_likes(like):
    expected = numpy.dtype(like)
    got = shim.dtype(like)
    assert got == expected and isinstance(got, numpy.dtype)
    assert shim.zeros(2, dtype=like).dtype == numpy.zeros(2, dtype=like).dtype


@pytest.mark.parametrize("like", NON_NUMERIC, ids=repr)
def test_non_numeric_dtypes_are_unsupported(like):
    with pytest.raises(UnsupportedFeature):
        shim.zeros(2, dtype=like)


def test_dtype_errors_and_identity():
    with pytest.raises(TypeError):
        shim.zeros(2, dtype="not a dtype")
    with pytest.raises(TypeError):
        shim.zeros(2, dtype=shim.floating)  # abstract types are not dtypes in NumPy 2
    assert shim.float32 == numpy.float32 or numpy.dtype(shim.float32) == numpy.dtype("f4")
    assert numpy.dtype("f4") == shim.zeros(1, "f4").dtype == shim.dtype("float32")
    assert shim.zeros(1).dtype == numpy.float64
    assert shim.dtype is numpy.dtype


@pytest.mark.parametrize("d", ["f2", "f4", "f8", "c8", "c16", float, shim.float32])
def test_finfo(d):
    f, nf = shim.finfo(d), numpy.finfo(numpy.dtype(d))
    for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "smallest_subnormal", "resolution",
                 "precision", "dtype", "machep", "nmant", "maxexp", "minexp"):
        assert getattr(f, attr) == getattr(nf, attr), attr
    assert shim.finfo(shim.zeros(2, d)).dtype == nf.dtype


@pytest.mark.parametrize("d", ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", int, shim.uint16])
def test_iinfo(d):
    i, ni = shim.iinfo(d), numpy.iinfo(numpy.dtype(d))
    assert (i.min, i.max, i.bits, i.dtype, i.kind) == (ni.min, ni.max, ni.bits, ni.dtype, ni.kind)
    assert shim.iinfo(shim.zeros(2, d)).max == ni.max


def test_info_errors():
    with pytest.raises(ValueError):
        shim.finfo("i4")
    with pytest.raises(ValueError):
        shim.iinfo("f8")


def _operand(kind, d):
    if kind == "dtype":
        return d
    if kind == "array":
        return numpy.zeros(2, d)
    return numpy.zeros((), d)


@given(dtypes(), dtypes(), st.sampled_from(["dtype", "array", "0d"]),
       st.sampled_from([None, True, 1, -1, 300, 2**40, 2**63, 1.5, 1e300, 1j]))
def test_result_type(d1, d2, kind, py):
    args = [_operand(kind, d1), _operand(kind, d2)] + ([] if py is None else [py])
    assert_matches(lambda xp, *a: xp.result_type(*a), *args)


def test_result_type_special():
    assert_matches(lambda xp: xp.result_type())  # ValueError
    assert_matches(lambda xp: xp.result_type(1, 2.0))
    assert_matches(lambda xp: xp.result_type(True, 1))
    assert_matches(lambda xp: xp.result_type("f4", 1j))
    assert_matches(lambda xp: xp.result_type(xp.int8, xp.uint8))
    assert shim.result_type(shim.asarray([1], "i2"), 3) == numpy.int16


@pytest.mark.parametrize("d1,d2", list(itertools.product(ALL, ALL)))
def test_promote_types(d1, d2):
    assert shim.promote_types(d1, d2) == numpy.promote_types(d1, d2)
    assert shim.promote_types(d1.char, getattr(shim, d2.name)) == numpy.promote_types(d1, d2)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast(casting):
    for d1, d2 in itertools.product(ALL, ALL):
        assert shim.can_cast(d1, d2, casting) == numpy.can_cast(d1, d2, casting)
        assert shim.can_cast(shim.zeros(2, d1), d2, casting) == numpy.can_cast(numpy.zeros(2, d1), d2, casting)
    assert_matches(lambda xp: xp.can_cast(1, "i1"))  # TypeError: Python scalars no longer allowed (NEP 50)
    assert_matches(lambda xp: xp.can_cast(1.0, "f4"))


@given(st.one_of(st.integers(-(2**64), 2**64), st.floats(), st.complex_numbers(), st.booleans()))
def test_min_scalar_type(v):
    assert_matches(lambda xp, v: xp.min_scalar_type(v), v)


@given(arrays(dtype=dtypes(ALL)))
def test_min_scalar_type_of_arrays(a):
    assert shim.min_scalar_type(shim.asarray(a)) == numpy.min_scalar_type(a)


@pytest.mark.parametrize("kind", ["bool", "signed integer", "unsigned integer", "integral", "real floating",
                                  "complex floating", "numeric", ("integral", "real floating"), "float32",
                                  "uint8", numpy.float64, "int"])
def test_isdtype(kind):
    shim_kind = getattr(shim, kind) if isinstance(kind, str) and hasattr(numpy, kind) and kind != "bool" \
        else kind
    for d in ALL:
        try:
            expected = numpy.isdtype(d, kind if not (isinstance(kind, str) and hasattr(numpy, kind)
                                                     and kind != "bool") else getattr(numpy, kind))
        except Exception as e:
            with pytest.raises(type(e)):
                shim.isdtype(d, shim_kind)
            continue
        assert shim.isdtype(d, shim_kind) == expected
        assert shim.isdtype(getattr(shim, d.name), shim_kind) == expected


def test_common_type_and_type_codes():
    assert shim.common_type(shim.ones(2, "i4"), shim.ones(2, "f4")) is shim.float64
    with pytest.raises(TypeError):
        shim.common_type(shim.ones(2, bool))
    for d in ("i1", "f2", "f4", "c8", "c16"):
        assert numpy.dtype(shim.common_type(shim.ones(2, d))) == numpy.dtype(numpy.common_type(numpy.ones(2, d)))
    assert shim.mintypecode("idF") == numpy.mintypecode("idF")
    assert shim.typename("f") == numpy.typename("f")
    assert shim.typecodes == numpy.typecodes


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64"])
def test_wide_unsigned_selections(dt):
    a = numpy.array([[3, 0, 7], [1, 9, 2]], dtype=dt)
    b = numpy.array([[1, 5, 7], [8, 0, 2]], dtype=dt)
    assert_matches(lambda xp, a, b: (xp.tril(a), xp.triu(a, 1)), a, b)
    assert_matches(lambda xp, a, b: xp.add(a, b, where=a > b, out=xp.zeros_like(a)), a, b)
    assert_matches(lambda xp, a, b: xp.copyto(a, b, where=a > b), a, b, check_inputs=True)
    assert_matches(lambda xp, a, b: (xp.max(a, axis=0, where=a > 1, initial=0), xp.add.reduce(a, None, where=a > 1),
                                     xp.subtract.reduce(a, 1, where=a > 1, initial=100)), a, b)


@pytest.mark.parametrize("dt", ["int8", "uint16", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("value", [-1, 2**40, 2**63, 2**64, -2**63 - 1], ids=["-1", "2**40", "2**63", "2**64", "-2**63-1"])
@pytest.mark.parametrize("how", ["a + v", "a[0] = v", "a.fill(v)"])
def test_python_int_overflow_message(dt, value, how):
    """A Python int that a dtype cannot hold: NumPy's OverflowError and its message, which names the range it was
    checked against (a C long, an unsigned long for uint32 and uint64: "Python int too large to convert to C
    long"; then the dtype's: "Python integer ... out of bounds for ...")."""
    def outcome(xp):
        try:
            exec(how, {"a": xp.ones(2, dt), "v": value})
        except OverflowError as e:
            return str(e)
        return None

    assert outcome(shim) == outcome(numpy)
