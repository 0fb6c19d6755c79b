"""Sums, maxima and minima fold their vector lanes with shuffles, in NumPy's pairwise order.

A vectorized reduction in Inductor's C++ ends with ``at::vec::vec_reduce_all``, which folds the accumulator's lanes
into one value.  ATen folds a float vector with shuffles, but has no such fold for double or the integers: its
generic one stores the vector and folds the lanes one at a time, each through a vector built in memory.  Where a
reduction's rows are short, that fold is most of the kernel.  Rows of 8 (500000 of them): a float64 sum took 11.2 ms
(NumPy 11.4, float32 0.5), now 0.7; an int32 sum 18.6 ms (NumPy 6.4), now 0.5; an int64 sum 9.1, now 0.7.  A k-means
assignment (distances of 20000 points to 16 centroids in 8 dimensions, summed over the dimensions) took 8 ms (NumPy
11), now 1.

Ours folds eight partial results in a tree, neighbours first: ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7)), the
order in which NumPy's pairwise sum adds its eight partial sums; lanes 8 to 15 (float32 on AVX-512, or a second
vector) are first added to lanes 0 to 7, as NumPy adds a row's second block of 8 to its first.  So float64 and float32
sums over 8 or 16 contiguous elements round as NumPy's (ATen's float fold, halves first, did not).  (Inductor writes
out sums of fewer than 8 static elements as adds in order, NumPy's order there; other lengths round as neither.)
Integer folds and ``max``/``min`` do not depend on the order.  float64 products keep the order of ATen's fold
(NumPy's own up to 8 elements on AVX-512, where it multiplies in order), without its round trips through memory
(rows of 8: 13.8 -> 0.9 ms, the same bits); float32 products keep ATen's shuffle fold.
The shuffles need GCC/Clang with AVX2 or AVX-512, as ATen's float folds; elsewhere the tree is ATen's fold.
"""

from __future__ import annotations

import torch

from ._transposed_tiles import _PREFIX

_TREE = r"""
#ifndef NPC_LANE_FOLDS
#define NPC_LANE_FOLDS
namespace npc_fold {
#if defined(__GNUC__) && !defined(_MSC_VER) && defined(CPU_CAPABILITY_AVX512)
using Bits = __m512i;
template <typename T> inline Bits bits(const at::vec::Vectorized<T>& v) {
  if constexpr (std::is_same_v<T, double>) { return _mm512_castpd_si512(v); }
  else if constexpr (std::is_same_v<T, float>) { return _mm512_castps_si512(v); } else { return v; }
}
template <typename T> inline at::vec::Vectorized<T> unbits(Bits x) {
  if constexpr (std::is_same_v<T, double>) { return _mm512_castsi512_pd(x); }
  else if constexpr (std::is_same_v<T, float>) { return _mm512_castsi512_ps(x); } else { return x; }
}
// Each lane swapped with its neighbour at the given distance in bytes.
inline Bits swapped(Bits x, int bytes) {
  switch (bytes) {
    case 4: return _mm512_shuffle_epi32(x, static_cast<_MM_PERM_ENUM>(0xB1));
    case 8: return _mm512_shuffle_epi32(x, static_cast<_MM_PERM_ENUM>(0x4E));
    case 16: return _mm512_shuffle_i64x2(x, x, 0xB1);
    default: return _mm512_shuffle_i64x2(x, x, 0x4E);
  }
}
#define NPC_LANE_SHUFFLES 64
#elif defined(__GNUC__) && !defined(_MSC_VER) && defined(CPU_CAPABILITY_AVX2)
using Bits = __m256i;
template <typename T> inline Bits bits(const at::vec::Vectorized<T>& v) {
  if constexpr (std::is_same_v<T, double>) { return _mm256_castpd_si256(v); }
  else if constexpr (std::is_same_v<T, float>) { return _mm256_castps_si256(v); } else { return v; }
}
template <typename T> inline at::vec::Vectorized<T> unbits(Bits x) {
  if constexpr (std::is_same_v<T, double>) { return _mm256_castsi256_pd(x); }
  else if constexpr (std::is_same_v<T, float>) { return _mm256_castsi256_ps(x); } else { return x; }
}
inline Bits swapped(Bits x, int bytes) {
  switch (bytes) {
    case 4: return _mm256_shuffle_epi32(x, 0xB1);
    case 8: return _mm256_shuffle_epi32(x, 0x4E);
    default: return _mm256_permute2x128_si256(x, x, 0x1);
  }
}
#define NPC_LANE_SHUFFLES 32
#endif
// One vector's lanes folded as 8 partial results, neighbours first: ((v0 . v1) . (v2 . v3)) . ((v4 . v5) . ...),
// lane 8 + l first folded into lane l where a vector has 16 (NumPy's partial sums of a row of 16 floats).
template <typename T, typename Op>
inline T lanes_tree(const Op& op, at::vec::Vectorized<T> v) {
  using Vec = at::vec::Vectorized<T>;
#ifdef NPC_LANE_SHUFFLES
  if constexpr (Vec::size() > 8) {
    Vec w = unbits<T>(swapped(bits(v), NPC_LANE_SHUFFLES / 2));  // (named: Inductor's lambdas take lvalue refs)
    v = op(v, w);
  }
  for (int bytes = sizeof(T); bytes < NPC_LANE_SHUFFLES && bytes < 8 * static_cast<int>(sizeof(T)); bytes *= 2) {
    Vec w = unbits<T>(swapped(bits(v), bytes));
    v = op(v, w);
  }
  __at_align__ T lanes[Vec::size()];
  v.store(lanes);
  return lanes[0];
#else
  return at::vec::vec_reduce_all<T>(op, v);
#endif
}
// The accumulator's N vectors (one row's consecutive elements) folded as one tree over 8 partial results, NumPy's
// pairwise sum: 8 lanes to a vector (AVX-512) add up lane by lane first, 4 (AVX2) are folded each, then added.
template <typename T, int N, typename Op>
inline T tree(const Op& op, const at::vec::VectorizedN<T, N>& acc) {
  using Vec = at::vec::Vectorized<T>;
  Vec v = acc[0];
  if constexpr (Vec::size() == 4 && N == 2) {
    Vec a(lanes_tree<T>(op, acc[0])), b(lanes_tree<T>(op, acc[1]));
    __at_align__ T lanes[Vec::size()];
    op(a, b).store(lanes);
    return lanes[0];
  }
  for (int i = 1; i < N; i++) {
    Vec w = acc[i];
    v = op(v, w);
  }
  return lanes_tree<T>(op, v);
}
// ATen's generic fold, without its memory round trip per lane: the N vectors combined lane by lane, then lane 0
// folded with each other lane in order, each broadcast from one store of the vector.
template <typename T, int N, typename Op>
inline T ordered(const Op& op, const at::vec::VectorizedN<T, N>& acc) {
  using Vec = at::vec::Vectorized<T>;
  Vec v = acc[0];
  for (int i = 1; i < N; i++) {
    Vec w = acc[i];
    v = op(v, w);
  }
  __at_align__ T lanes[Vec::size()];
  v.store(lanes);
  for (int i = 1; i < Vec::size(); i++) {
    Vec w(lanes[i]);
    v = op(v, w);
  }
  v.store(lanes);
  return lanes[0];
}
}  // namespace npc_fold
#endif
"""
_TYPES = {torch.float64: "double", torch.float32: "float", torch.int64: "int64_t", torch.int32: "int32_t"}
_FOLDED = ("sum", "max", "min")
_INTEGERS = (torch.int64, torch.int32)  # (their products do not depend on the order)


def tree_folds(reduction):
    """Wraps ``CppVecKernel.reduction``: the final fold of a float64, float32, int64 or int32 sum, max or min (or
    an integer product) is ``npc_fold::tree``; of a float64 product ``npc_fold::ordered``."""

    def reduce(self, dtype, src_dtype, reduction_type, value):
        lines = self.reduction_suffix._lines
        start = len(lines)
        result = reduction(self, dtype, src_dtype, reduction_type, value)
        fold = "tree" if reduction_type in _FOLDED or reduction_type == "prod" and dtype in _INTEGERS else \
            "ordered" if reduction_type == "prod" and dtype == torch.float64 else None
        if dtype in _TYPES and fold:
            aten_fold = f"at::vec::vec_reduce_all<{_TYPES[dtype]}, "
            for i in range(start, len(lines)):
                if isinstance(lines[i], str):
                    lines[i] = lines[i].replace(aten_fold, f"npc_fold::{fold}<{_TYPES[dtype]}, ")
        return result

    return reduce


def with_lane_folds(source: str) -> str:
    """``source`` (a C++ kernel group) with the fold above where it calls it."""
    if "npc_fold::" not in source or _PREFIX not in source:
        return source
    return source.replace(_PREFIX, _PREFIX + _TREE, 1)
