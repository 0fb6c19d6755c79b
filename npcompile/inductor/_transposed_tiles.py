"""SIMD transposed tiles of bytes for Inductor's C++ kernels.

A channels-last -> channels-first copy (``np.ascontiguousarray(np.transpose(img, (2, 0, 1)))`` of a uint8 image)
is a tiled kernel: each 16 x 3 tile of the input is transposed into a buffer by ``transpose_mxn<uint8_t, 16, 3>``,
which for bytes is ATen's generic double loop, one byte at a time (GCC does not vectorize it: Inductor builds
with ``-fno-tree-loop-vectorize``).  A tile whose rows are contiguous (``ld_src == N``) is M * N contiguous bytes,
and its transpose is a fixed permutation of them: here N vector loads, a few two-vector shuffles per output row
(``__builtin_shuffle``, which GCC lowers to the machine's byte permutes: ``vpermt2b`` with AVX-512 VBMI, ``pshufb``
with SSSE3/AVX2) and N stores.  Measured on our AVX-512 machine (kernels built as Inductor builds them,
interleaved medians, one thread): a uint8 CHW copy of 3 channels 3.1x faster, 4 channels 2.4x, 5 1.8x, 6 1.3x,
2 channels 1.08x, 8 channels 0.92x (so rows of 2 to 6 bytes only); the image_preprocess benchmark (this tile,
then float math) 1.24x to 1.26x from 384 x 384 to 2048 x 2048, the time of a plain 48-byte copy in place of the
transpose; compiled by npcompile, 2048 x 2048 at one thread 7.7 -> 5.8 to 6.3 ms (58% -> 71 to 76% of a triad
moving its bytes).  While other processes saturate the memory bus both versions run at its speed.  The same shuffles
for float and double tiles were slower than ATen's (float has an AVX-512 transpose; a double tile is 8-byte
moves), so only 1-byte types take them.

The tile functions go into the kernel's source after ``cpp_prefix.h``, as explicit specializations of
``transpose_mxn`` for exactly the tile shapes the kernel calls (other kernels' sources, and so their cache keys,
do not change).  Tiles of other shapes or strides, and compilers other than GCC, take ATen's loop as before.
"""

from __future__ import annotations

import re

_PREFIX = "#include <torch/csrc/inductor/cpp_prefix.h>"
# A fixed-shape transposed load or store as Inductor's CppTile2DKernel writes it: transpose_mxn<uint8_t,
# static_cast<int64_t>(16),static_cast<int64_t>(3L),false>(...)
_CALL = re.compile(r"transpose_mxn<(uint8_t|int8_t|bool),\s*static_cast<int64_t>\((\d+)L?\),\s*"
                   r"static_cast<int64_t>\((\d+)L?\),\s*false>")

# Row j of the M x N tile, from the N vectors of M bytes that hold it: byte i is element i * N + j of their
# concatenation; the first shuffle takes what lies in vectors 0 and 1, each further one what lies in vector v.
_TILES = r"""
#ifndef NPC_BYTE_TILES
#define NPC_BYTE_TILES
#include <cstring>
#include <utility>
namespace npc_byte_tiles {
#if defined(__GNUC__) && !defined(__clang__)
template <int M, int N>
struct Deinterleave {
  typedef uint8_t Vec __attribute__((vector_size(M)));
  template <int J, int V, size_t... I>
  static Vec indices(std::index_sequence<I...>) {
    if constexpr (V == 1) {
      return Vec{static_cast<uint8_t>(int(I) * N + J < 2 * M ? int(I) * N + J : 0)...};
    } else {
      return Vec{static_cast<uint8_t>((int(I) * N + J) / M == V ? M + int(I) * N + J - V * M : int(I))...};
    }
  }
  template <int J, int V>
  static Vec gather(const Vec* in, Vec row) {
    if constexpr (V == N) {
      return row;
    } else {
      return gather<J, V + 1>(in, __builtin_shuffle(row, in[V], indices<J, V>(std::make_index_sequence<M>())));
    }
  }
  template <size_t... J>
  static void run(const uint8_t* src, uint8_t* dst, int64_t ld_dst, std::index_sequence<J...>) {
    Vec in[N];
    std::memcpy(in, src, sizeof(in));
    ((void)[&] {
      Vec row = gather<J, 2>(in, __builtin_shuffle(in[0], in[1], indices<J, 1>(std::make_index_sequence<M>())));
      std::memcpy(dst + J * ld_dst, &row, sizeof(row));
    }(), ...);
  }
};
// Shapes measured faster than the byte loop: rows of 2 to 6 bytes, a whole vector of them.
template <int M, int N>
constexpr bool fast = 2 <= N && N <= 6 && 8 <= M && M <= 64 && (M & (M - 1)) == 0;
#else
template <int M, int N>
constexpr bool fast = false;
#endif

template <typename T, int M, int N>
inline void transpose(const T* src, int64_t ld_src, T* dst, int64_t ld_dst) {
  static_assert(sizeof(T) == 1);
#if defined(__GNUC__) && !defined(__clang__)
  if constexpr (fast<M, N>) {
    if (ld_src == N) {
      Deinterleave<M, N>::run(reinterpret_cast<const uint8_t*>(src), reinterpret_cast<uint8_t*>(dst), ld_dst,
                              std::make_index_sequence<N>());
      return;
    }
  }
#endif
  ::transpose_mxn<T, false>(src, ld_src, dst, ld_dst, M, N);
}
}  // namespace npc_byte_tiles
#endif
"""

_SPECIALIZATION = """
#ifndef NPC_BYTE_TILE_{t}_{m}_{n}
#define NPC_BYTE_TILE_{t}_{m}_{n}
template <>
inline void transpose_mxn<{t}, {m}, {n}, false>(const {t}* src, int64_t ld_src, {t}* dst, int64_t ld_dst) {{
  npc_byte_tiles::transpose<{t}, {m}, {n}>(src, ld_src, dst, ld_dst);
}}
#endif
"""


def with_byte_tiles(source: str) -> str:
    """``source`` (a C++ kernel group) with the byte tiles above for the tile shapes it calls."""
    shapes = sorted(set(_CALL.findall(source)))
    if not shapes or _PREFIX not in source:
        return source
    specs = "".join(_SPECIALIZATION.format(t=t, m=int(m), n=int(n)) for t, m, n in shapes)
    return source.replace(_PREFIX, _PREFIX + _TILES + specs, 1)
