"""float64 sums, maxima and minima fold their vector lanes with shuffles, in NumPy's pairwise order.

A vectorized reduction in Inductor's C++ ends with ``at::vec::vec_reduce_all``, which folds the accumulator's lanes
into one value.  ATen folds a float vector with shuffles, but has no such fold for double: its generic one stores
the vector and adds the lanes one at a time, each through a vector built in memory.  Where a reduction's rows are
short, that fold is most of the kernel: ``a.sum(axis=-1)`` of 500000 x 8 float64 took 11.2 ms (NumPy 11.4, float32
0.5), now 0.7; a k-means assignment (distances of 20000 points to 16 centroids in 8 dimensions, summed over the
dimensions) 8 ms (NumPy 11), now 1.0.

Ours folds the lanes in a tree, neighbours first: ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7)), the order in
which NumPy's pairwise sum adds its eight partial sums, so a sum over 8 or 16 contiguous elements rounds as NumPy's.
(Inductor writes out sums of fewer than 8 static elements as adds in order, NumPy's order there; other lengths
round as neither.)  ``max`` and ``min`` do not depend on the order.  Products and the other folds keep ATen's:
NumPy multiplies in order.  The shuffles need GCC/Clang with AVX2 or AVX-512, as ATen's float folds; elsewhere the
tree is ATen's fold.
"""

from __future__ import annotations

import torch

_PREFIX = "#include <torch/csrc/inductor/cpp_prefix.h>"
_TREE = r"""
#ifndef NPC_DOUBLE_LANE_FOLDS
#define NPC_DOUBLE_LANE_FOLDS
namespace npc_fold {
// The N vectors combined in order, then the lanes folded neighbours first: ((v0 . v1) . (v2 . v3)) . ((v4 . v5) . ...).
template <int N, typename Op>
inline double tree(const Op& op, const at::vec::VectorizedN<double, N>& acc) {
  using Vec = at::vec::Vectorized<double>;
  Vec v = acc[0];
  for (int i = 1; i < N; i++) {
    Vec w = acc[i];  // (named: Inductor's folding lambdas take lvalue references)
    v = op(v, w);
  }
#if defined(__GNUC__) && !defined(_MSC_VER) && defined(CPU_CAPABILITY_AVX512)
  Vec w = _mm512_permute_pd(v, 0x55);  // (v1, v0, v3, v2, ...)
  v = op(v, w);
  w = _mm512_permutex_pd(v, 0x4E);  // the 128-bit halves of each 256 swapped
  v = op(v, w);
  w = _mm512_shuffle_f64x2(v, v, 0x4E);  // the 256-bit halves swapped
  v = op(v, w);
  return _mm512_cvtsd_f64(v);
#elif defined(__GNUC__) && !defined(_MSC_VER) && defined(CPU_CAPABILITY_AVX2)
  Vec w = _mm256_permute_pd(v, 0x5);  // (v1, v0, v3, v2)
  v = op(v, w);
  w = _mm256_permute2f128_pd(v, v, 0x1);  // the 128-bit halves swapped
  v = op(v, w);
  return _mm256_cvtsd_f64(v);
#else
  return at::vec::vec_reduce_all<double>(op, v);
#endif
}
}  // namespace npc_fold
#endif
"""
_FOLDED = ("sum", "max", "min")


def tree_folds(reduction):
    """Wraps ``CppVecKernel.reduction``: the final fold of a float64 sum, max or min is ``npc_fold::tree``."""

    def reduce(self, dtype, src_dtype, reduction_type, value):
        lines = self.reduction_suffix._lines
        start = len(lines)
        result = reduction(self, dtype, src_dtype, reduction_type, value)
        if dtype == torch.float64 and reduction_type in _FOLDED:
            for i in range(start, len(lines)):
                if isinstance(lines[i], str):
                    lines[i] = lines[i].replace("at::vec::vec_reduce_all<double, ", "npc_fold::tree<")
        return result

    return reduce


def with_double_lane_folds(source: str) -> str:
    """``source`` (a C++ kernel group) with the fold above where it calls it."""
    if "npc_fold::" not in source or _PREFIX not in source:
        return source
    return source.replace(_PREFIX, _PREFIX + _TREE, 1)
