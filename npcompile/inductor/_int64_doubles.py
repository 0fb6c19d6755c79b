"""int64 -> float64 vector conversions on AVX-512: one instruction per vector.

ATen has no AVX-512 specialization of this ``VecConvert``: its generic one stores the int64 vectors, converts them
in a loop and loads the doubles back, and the load waits on the stores (GCC vectorizes the loop in 256-bit halves,
which a 512-bit load cannot take forwarded).  Dividing 2000x2000 float64 by an int64 row took 2.25 ms, by a float64
row 1.24; ``x / np.arange(1, n + 1)``, the running mean's divisor, 2.09.  ``_mm512_cvtepi64_pd`` (AVX512DQ, which
ATen's AVX-512 code is compiled with) rounds as the scalar cast does, to nearest.
"""

from __future__ import annotations

from ._transposed_tiles import _PREFIX

_CODE = r"""
#ifndef NPC_INT64_DOUBLES
#define NPC_INT64_DOUBLES
#if defined(CPU_CAPABILITY_AVX512) && !defined(_MSC_VER)
namespace at::vec {
inline namespace CPU_CAPABILITY {
template <int N>
struct VecConvert<double, N, int64_t, N, void> {
  static inline VectorizedN<double, N> apply(const VectorizedN<int64_t, N>& src) {
    VectorizedN<double, N> result;
    for (int i = 0; i < N; i++) {
      result[i] = Vectorized<double>(_mm512_cvtepi64_pd(src[i]));
    }
    return result;
  }
};
}  // namespace CPU_CAPABILITY
}  // namespace at::vec
#endif
#endif
"""


def with_int64_doubles(source: str) -> str:
    """``source`` (a C++ kernel group) with the conversion above where it converts int64 vectors to double."""
    if "convert<double," not in source or "int64_t" not in source or _PREFIX not in source:
        return source
    return source.replace(_PREFIX, _PREFIX + _CODE, 1)
