"""Integer, byte and mask vectors in AVX2 code: loads, the conversions ATen leaves generic, int64 division.

Inductor's C++ vector loops are tiled by the lanes of one float vector (8 on AVX2) and load each operand with
ATen's ``Vectorized<T>::loadu(p, count)``.  For floats and doubles that is one load; for integers and 16-bit
floats on AVX2 it is a stack array filled with 1s (zeros for float16/bfloat16), a ``memcpy`` of the elements and
a vector load of the array, which waits on the stores, also when the count fills the vector (int32, int64).
ATen's AVX2 code also lacks some conversions: int8/uint8 -> int64, int32 -> 8 bits, int8 <-> uint8, and the mask
casts between bytes and floats (``img > 128`` is a byte mask; stored, or used in float code, a float mask) and
between doubles and int32 (``np.isfinite(a).all()`` of float64 combines two double masks as int32 ones): those take
its generic conversion, a store, a scalar loop and that same reload.  Measured on an AMD EPYC (Zen 3, AVX2, 2
threads): 4096x4096 uint8 -> float32 took 10 ms compiled where NumPy takes 3.7, ``a * np.uint8(3)`` 9.2 (NumPy
1.2), a bool mask's row sums 12.8 (NumPy 5.5; bools are read as bytes), 2048x2048 uint8 -> int64 9.4 (NumPy 1.7),
int64 -> uint8 9.2 (1.6), int8 -> uint8 3.5 (0.17), ``img > 128`` 11.1 (0.24), ``np.isfinite(a).all()`` of 4M
float64 4.6 (2.0).

Here a load is one 8-, 16- or 32-byte load per vector, put into a register of the same fill where it is partial
(the 1s keep integer division of the unused lanes defined), and the missing conversions are explicit
specializations of ATen's ``VecConvert`` and ``VecMaskCast`` made of AVX2's widening and packing instructions, with
NumPy's (and C's) wrap-around for narrowing.  AVX-512's ``loadu`` is a masked load already, and its conversions are
left alone.

int64 floor division (``a // 7``, ``idx // ncols``) was a C division per lane through memory (4M values: 8-10 ms,
NumPy 3.7 with its multiply-by-reciprocal for a scalar divisor); here it is float64 division and floor, exact for
operands below 2^51 (2.4 ms), other vectors keeping the C division.
"""

from __future__ import annotations

import functools
import re

from ._transposed_tiles import _PREFIX

_CODE = r"""
#ifndef NPC_AVX2_INTEGERS
#define NPC_AVX2_INTEGERS
namespace npc_avx2 {
// count elements of T from p (at most a vector's), the other lanes as ATen's loadu fills them.
template <typename T>
inline at::vec::Vectorized<T> loadu(const void* p, int64_t count) {
#if defined(CPU_CAPABILITY_AVX2) && !defined(_MSC_VER)
  if constexpr (sizeof(at::vec::Vectorized<T>) == 32 && !std::is_floating_point_v<T>) {
    const int64_t bytes = count * static_cast<int64_t>(sizeof(T));
    if (bytes == 32) {
      return at::vec::Vectorized<T>(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    if (bytes == 8 || bytes == 16) {
      const __m256i fill = !std::is_integral_v<T> ? _mm256_setzero_si256()
          : sizeof(T) == 1 ? _mm256_set1_epi8(1) : sizeof(T) == 2 ? _mm256_set1_epi16(1)
          : sizeof(T) == 4 ? _mm256_set1_epi32(1) : _mm256_set1_epi64x(1);
      const __m128i low = bytes == 16
          ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p))
          : _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                               _mm256_castsi256_si128(fill));
      return at::vec::Vectorized<T>(_mm256_inserti128_si256(fill, low, 0));
    }
  }
#endif
  return at::vec::Vectorized<T>::loadu(p, count);
}

template <typename T, int N>
inline at::vec::VectorizedN<T, N> loadu_n(const void* p, int64_t count) {
  at::vec::VectorizedN<T, N> result;
  constexpr int64_t size = at::vec::Vectorized<T>::size();
  for (int i = 0; i < N; i++, count -= size) {
    result[i] = count > 0 ? loadu<T>(static_cast<const T*>(p) + i * size, std::min(count, size))
                          : at::vec::Vectorized<T>(static_cast<T>(1));
  }
  return result;
}

}  // namespace npc_avx2

#if defined(CPU_CAPABILITY_AVX2) && !defined(_MSC_VER)
namespace at::vec {
inline namespace CPU_CAPABILITY {
// int8 and uint8 to int64: exactly, through int32.
template <typename src_t>
struct VecConvert<int64_t, 2, src_t, 1, std::enable_if_t<is_8bit_integer_v<src_t>>> {
  static inline VectorizedN<int64_t, 2> apply(const VectorizedN<src_t, 1>& src) {
    return VecConvert<int64_t, 2, int32_t, 1>::apply(VecConvert<int32_t, 1, src_t, 1>::apply(src));
  }
};

// int32 to 8 bits, wrapping around: the low byte of each lane, packed into the low 8 lanes, the other lanes 1s
// as ATen's loadu fills them (an integer division of them stays defined).
template <typename dst_t>
struct VecConvert<dst_t, 1, int32_t, 1, std::enable_if_t<is_8bit_integer_v<dst_t>>> {
  static inline VectorizedN<dst_t, 1> apply(const VectorizedN<int32_t, 1>& src) {
    const __m256i low = _mm256_and_si256(src[0], _mm256_set1_epi32(0xff));
    __m256i packed = _mm256_packus_epi32(low, low);  // (lanes 0-3, 0-3 | 4-7, 4-7) as 16 bits
    packed = _mm256_packus_epi16(packed, packed);    // (lanes 0-3 four times | 4-7 four times) as bytes
    const __m256i lanes = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
    return Vectorized<dst_t>(_mm256_blend_epi32(_mm256_set1_epi8(1), lanes, 0x03));
  }
};

// int8 <-> uint8: the same bits.
template <typename dst_t, typename src_t>
struct VecConvert<dst_t, 1, src_t, 1,
                  std::enable_if_t<is_8bit_integer_v<dst_t> && is_8bit_integer_v<src_t> &&
                                   !std::is_same_v<dst_t, src_t>>> {
  static inline VectorizedN<dst_t, 1> apply(const VectorizedN<src_t, 1>& src) {
    return Vectorized<dst_t>(static_cast<__m256i>(src[0]));
  }
};

// A byte mask's 8 lanes (0 or all ones) as a float or int32 mask, sign-extended, and back, packed (the other
// lanes 0, as ATen's generic cast leaves them).
template <typename dst_t, typename src_t>
struct VecMaskCast<dst_t, 1, src_t, 1,
                   std::enable_if_t<(std::is_same_v<dst_t, float> || std::is_same_v<dst_t, int>) &&
                                    is_8bit_integer_v<src_t>>> {
  static inline VecMask<dst_t, 1> apply(const VecMask<src_t, 1>& mask) {
    const __m256i lanes = _mm256_cvtepi8_epi32(_mm256_castsi256_si128(VectorizedN<src_t, 1>(mask)[0]));
    return VecMask<int, 1>(Vectorized<int>(lanes)).template cast<dst_t, 1>();
  }
};

template <typename dst_t, typename src_t>
struct VecMaskCast<dst_t, 1, src_t, 1,
                   std::enable_if_t<is_8bit_integer_v<dst_t> &&
                                    (std::is_same_v<src_t, float> || std::is_same_v<src_t, int>)>> {
  static inline VecMask<dst_t, 1> apply(const VecMask<src_t, 1>& mask) {
    const __m256i lanes = VectorizedN<int, 1>(mask.template cast<int, 1>())[0];
    __m256i packed = _mm256_packs_epi32(lanes, lanes);  // 0 and -1 stay themselves
    packed = _mm256_packs_epi16(packed, packed);
    packed = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
    return VecMask<dst_t, 1>(Vectorized<dst_t>(_mm256_blend_epi32(_mm256_setzero_si256(), packed, 0x03)));
  }
};

// A double mask as an int32 one and back, through ATen's float <-> double mask casts (int <-> float is a bit cast).
template <>
struct VecMaskCast<int, 1, double, 2> {
  static inline VecMask<int, 1> apply(const VecMask<double, 2>& mask) {
    return mask.template cast<float, 1>().template cast<int, 1>();
  }
};

template <>
struct VecMaskCast<double, 2, int, 1> {
  static inline VecMask<double, 2> apply(const VecMask<int, 1>& mask) {
    return mask.template cast<float, 1>().template cast<double, 2>();
  }
};
}  // namespace CPU_CAPABILITY
}  // namespace at::vec
#endif
#endif
"""

# (torch 2.11's prefix has no floor_divide_integral, nor does its vector code call one: only where it is called)
_DIVISION = r"""
#ifndef NPC_AVX2_DIVISION
#define NPC_AVX2_DIVISION
namespace npc_avx2 {
// int64 floor division, 4 lanes at a time in float64 where every dividend and divisor is below 2^51 in magnitude
// and no divisor is 0 (the conversions by the magic number 1.5 * 2^52 are exact there).  The floor of the rounded
// quotient is the exact one: a quotient k - d short of an integer k has d >= 1/|b|, more than its rounding error,
// |a/b| 2^-53 < 1/(4|b|).  Other vectors take Inductor's function (a C division per lane).
template <typename V>
inline V floor_divide_integral(const V& a, const V& b) {
#if defined(CPU_CAPABILITY_AVX2) && !defined(_MSC_VER)
  if constexpr (std::is_same_v<V, at::vec::VectorizedN<int64_t, V::size() / 4>>) {
    const __m256i lim = _mm256_set1_epi64x((int64_t(1) << 51) - 1), nlim = _mm256_set1_epi64x(1 - (int64_t(1) << 51));
    const __m256i magic_i = _mm256_set1_epi64x(0x4338000000000000);  // the bits of 1.5 * 2^52
    const __m256d magic = _mm256_set1_pd(6755399441055744.0);
    V out;
    for (int i = 0; i < V::size() / 4; i++) {
      const __m256i x = a[i], y = b[i];
      const __m256i outside = _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpgt_epi64(x, lim), _mm256_cmpgt_epi64(nlim, x)),
          _mm256_or_si256(_mm256_or_si256(_mm256_cmpgt_epi64(y, lim), _mm256_cmpgt_epi64(nlim, y)),
                          _mm256_cmpeq_epi64(y, _mm256_setzero_si256())));
      if (!_mm256_testz_si256(outside, outside)) {
        return ::floor_divide_integral(a, b);
      }
      const __m256d xd = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(x, magic_i)), magic);
      const __m256d yd = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(y, magic_i)), magic);
      const __m256d q = _mm256_floor_pd(_mm256_div_pd(xd, yd));
      out[i] = at::vec::Vectorized<int64_t>(_mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(q, magic)), magic_i));
    }
    return out;
  }
#endif
  return ::floor_divide_integral(a, b);
}
}  // namespace npc_avx2
#endif
"""

_INTEGRAL = r"u?int8_t|int32_t|int64_t|at::Half|at::BFloat16"  # (Inductor vectorizes no other integers)
_LOAD = re.compile(rf"at::vec::Vectorized<({_INTEGRAL})>::loadu\(")
_LOAD_N = re.compile(rf"at::vec::VectorizedN<({_INTEGRAL}),\s*(\d+)>::loadu\(")


def integer_loads(get_vec_load_line):
    """Wraps ``CppVecKernel._get_vec_load_line``: a load of integers or 16-bit floats calls ``npc_avx2``."""

    def line(self, *args, **kwargs):
        code = get_vec_load_line(self, *args, **kwargs)
        return _LOAD_N.sub(r"npc_avx2::loadu_n<\1,\2>(", _LOAD.sub(r"npc_avx2::loadu<\1>(", code))

    return line


def integer_floordiv(floordiv):
    """Wraps ``CppVecOverrides.floordiv``: integer floor division calls ours (int64 in float64 on AVX2)."""

    @functools.wraps(floordiv)  # (its name: with scalar operands only, Inductor calls the scalar op of that name)
    def expr(a, b):
        code = floordiv(a, b)
        return "npc_avx2::" + code if code.startswith("floor_divide_integral(") else code

    return expr


def with_avx2_integers(source: str) -> str:
    """``source`` (a C++ kernel group) with the loads and conversions above when it has vector code (a kernel
    of integer loads and methods, ``np.abs(a)``, names no ``at::vec::``)."""
    if ("at::vec::" not in source and "npc_avx2::" not in source) or _PREFIX not in source:
        return source
    division = _DIVISION if "npc_avx2::floor_divide_integral" in source else ""
    return source.replace(_PREFIX, _PREFIX + _CODE + division, 1)
