"""Integer and 16-bit vectors in compiled AVX2 code (``npcompile/inductor/_avx2_integers.py``): our loads and
the conversions ATen left generic give NumPy's values, wrap-around and partial tails included."""
import numpy as np
import pytest

from npcompile import _compile as C

# Inductor's vector types
_TYPES = [np.bool_, np.uint8, np.int8, np.int32, np.int64, np.float16, np.float32, np.float64]
_PAIRS = [(i, t) for i, s in enumerate(_TYPES) for t in _TYPES if t is not s]


def _casts(*arrays):
    """Every array cast to every other type of ``_TYPES`` (one graph), two divisions of narrowed integers, and byte
    masks used as float masks and back, double masks combined as int32 masks."""
    out = [arrays[i].astype(t) for i, t in _PAIRS]
    b, s, wide, f, d = arrays[1], arrays[2], arrays[4], arrays[6], arrays[7]
    return out + [wide.astype(np.uint8) // (b | 1), wide.astype(np.int8) // (s | 1), b > 100, (s < -3) * f,
                  np.where(f > 50, b, np.uint8(7)), np.where(f < 20, s, s // 3), np.isfinite(d / (d - 3))]


@pytest.mark.inductor
@pytest.mark.parametrize("simdlen", [None, 256], ids=["native", "avx2"])
def test_integer_vectors_convert_as_numpy(simdlen):
    """All casts between bool, 8-, 32- and 64-bit integers, float16 and float32 (1003 elements: a partial
    vector at the end; values past each narrower type's range, so narrowing wraps), bit for bit NumPy's; on AVX2
    integer loads are ours (ATen's staged them through a stack array)."""
    import torch._inductor.config as inductor_config
    from torch._inductor.cpu_vec_isa import pick_vec_isa
    from torch._inductor.utils import run_and_get_code

    rng = np.random.default_rng(3)
    wide = rng.integers(-2**40, 2**40, 1003)
    wide[:8] = [0, 255, 256, -1, -129, 2**31 + 5, -2**31 - 7, 65535 + 3]
    with np.errstate(over="ignore"):
        arrays = [t(wide % 7 == 0) if t is np.bool_ else wide.astype(t) for t in _TYPES]
    arrays[-3:] = [(wide % 128).astype(t) for t in _TYPES[-3:]]  # (a float out of an integer's range is undefined)
    with np.errstate(over="ignore", divide="ignore"), inductor_config.patch({"cpp.simdlen": simdlen}):
        got, codes = run_and_get_code(C.compile(_casts), *arrays)
        absolute, abs_codes = run_and_get_code(C.compile(lambda a: np.abs(a)), wide)  # (loads, no conversion)
        avx2 = str(pick_vec_isa()) == "avx2"
        want = _casts(*arrays)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes()
    assert np.array_equal(absolute, np.abs(wide))
    assert all("namespace npc_avx2" in code for code in codes + abs_codes if "npc_avx2::" in code)
    if avx2:
        assert "npc_avx2::loadu<uint8_t>" in "".join(codes) and "Vectorized<int64_t>::loadu" not in "".join(codes)


def _divisions(a, b, c):
    return a // b, a // 7, a // -3, c // b


@pytest.mark.inductor
@pytest.mark.parametrize("simdlen", [None, 256], ids=["native", "avx2"])
def test_int64_floor_division_as_numpy(simdlen):
    """int64 ``//`` (in float64 on AVX2 where operands are below 2^51) bit for bit NumPy's: both signs, exact
    multiples and their neighbours, the 2^51 edge, huge values and zero divisors (NumPy's 0) in some vectors."""
    import torch._inductor.config as inductor_config

    rng = np.random.default_rng(6)
    n = 40003
    scale = 2.0 ** rng.uniform(0, 62, n)
    a = (rng.choice([-1, 1], n) * scale).astype(np.int64)
    b = (rng.choice([-1, 1], n) * 2.0 ** rng.uniform(0, 30, n)).astype(np.int64)
    b[b == 0] = 1
    k = rng.integers(-1000, 1000, n)
    a[::5] = k[::5] * b[::5] + rng.integers(-1, 2, n)[::5]  # multiples of b and their neighbours
    a[:8] = [2**51 - 1, -(2**51) + 1, 2**51, -(2**51), 2**63 - 1, -(2**63), 0, -1]
    c = a.copy()
    c[20000:20016] = 2**62  # (vectors beyond 2^51 take the C division)
    z = b.copy()
    z[::1001] = 0
    with np.errstate(divide="ignore", over="ignore"), inductor_config.patch({"cpp.simdlen": simdlen}):
        got = C.compile(_divisions)(a, b, c) + (C.compile(lambda a, z: a // z)(a, z),)
        want = _divisions(a, b, c) + (a // z,)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and np.array_equal(g, w)
