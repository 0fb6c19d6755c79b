"""Streaming (non-temporal) stores for graph outputs far larger than the caches.

A plain store first reads the cache line it writes (write-allocate), so a kernel writing a 32 MB result moves
64 MB for it; a streaming store writes whole lines to memory without reading them.  Measured on our 2-core
AVX-512 machine (one float64 pass ``y = x * x + 1`` in C, ``gcc -O3 -march=native``, 2 threads, medians of 30):
with the caches flushed between calls, 4M elements 2.62 -> 1.98 ms (89% -> 118% of a triad moving the
same bytes); with warm caches, 16 MB and more of output were faster streamed (16 MB 1.04 -> 0.73 ms, 32 MB
1.99 -> 1.25), 4 MB broke even and 2 MB was slower (0.12 -> 0.18 ms: a plain store leaves the result in L2, where
the next reader finds it).  So only outputs of at least ``MIN_BYTES`` stream, and only graph outputs (the caller
gets them back; an intermediate buffer is read by the next kernel at once), and only whole, aligned vectors (the
others, a row's masked tail say, store as before).  The 7-point 3-D Laplacian of 160**3 doubles ran 3.7 -> 3.25 ms
(rows of 158 doubles: a quarter of them aligned), 66-68% -> 77-80% of its triad.  Kernels that transpose tiles
store plainly: the image_preprocess benchmark (uint8 HWC -> float32 CHW, three planes written at once) ran 3.2 ->
3.9 ms streamed.

Streaming stores are weakly ordered: each thread that made them fences (``sfence``) before the kernel returns, in
a parallel region of its own after the kernel's loops, so every later reader, on any thread, sees the data.  Within
a kernel, a buffer that several loops write stores plainly (a later loop may write an element again), unless its
graph node is marked ``DISJOINT_WRITES``: a fresh buffer whose elements the graph writes once each (the boxes of
``_roll_regions``).
"""

from __future__ import annotations

import re

import torch

from ._transposed_tiles import _PREFIX

MIN_BYTES = 16 << 20
DISJOINT_WRITES = "npcompile_disjoint_writes"  # (a key of an FX node's meta)

_HELPERS = r"""
#ifndef NPC_STREAMING_STORES
#define NPC_STREAMING_STORES
namespace npc_nt {
// v's count elements at p; a whole vector at an address aligned to the machine's vector, with `stream` set,
// goes past the caches (store<false>: never).  (Streaming the whole lines of a vector that is not aligned, and
// masking plain stores into the lines at its ends, ran slower than plain stores.)
template <bool Streams = true, typename V>
inline void store(const V& v, void* p, int64_t count = V::size(), bool stream = true) {
#if defined(CPU_CAPABILITY_AVX512) || defined(CPU_CAPABILITY_AVX2)
#if defined(CPU_CAPABILITY_AVX512)
  using Chunk = __m512i;
#else
  using Chunk = __m256i;
#endif
  constexpr int64_t bytes = V::size() * sizeof(typename V::value_type);
  if (Streams && stream && count == V::size() && bytes % sizeof(Chunk) == 0 &&
      reinterpret_cast<uintptr_t>(p) % sizeof(Chunk) == 0) {
    alignas(64) unsigned char lanes[bytes];
    v.store(lanes);
    for (int64_t i = 0; i < bytes; i += sizeof(Chunk)) {
#if defined(CPU_CAPABILITY_AVX512)
      _mm512_stream_si512(reinterpret_cast<Chunk*>(static_cast<unsigned char*>(p) + i),
                          _mm512_load_si512(reinterpret_cast<const Chunk*>(lanes + i)));
#else
      _mm256_stream_si256(reinterpret_cast<Chunk*>(static_cast<unsigned char*>(p) + i),
                          _mm256_load_si256(reinterpret_cast<const Chunk*>(lanes + i)));
#endif
    }
    return;
  }
#endif
  v.store(p, count);
}
// Declared first in a kernel that streams: when the kernel returns, every thread of its team (of `threads`, as
// the kernel's own parallel regions ask; 0: OpenMP's default, as they do) fences its stores.
struct FenceOnReturn {
  int threads;
  ~FenceOnReturn() {
#if defined(CPU_CAPABILITY_AVX512) || defined(CPU_CAPABILITY_AVX2)
    if (threads > 0) {
      #pragma omp parallel num_threads(threads)
      { _mm_sfence(); }
    } else {
      #pragma omp parallel
      { _mm_sfence(); }
    }
#endif
  }
};
}  // namespace npc_nt
#endif
"""
_BODY = re.compile(r'(extern "C"[^{]*\{)')
_STREAMED = re.compile(r"npc_nt::store\(\w+, (\w+) \+ ")
_STREAMS = re.compile(r"npc_nt::store(<true>)?\(")
_THREADS = re.compile(r"#pragma omp parallel num_threads\((\d+)\)")


def streaming_stores(get_store_line):
    """Wraps ``CppVecKernel._get_store_line``: a contiguous vector store into a large graph output streams."""
    from torch._inductor.codegen.common import IndentedBuffer
    from torch._inductor.codegen.cpp import CppTile2DKernel
    from torch._inductor.codegen.cpp_utils import cexpr_index

    def code(self, value, var, index, dtype, *rest, **kwargs):
        out = get_store_line(self, value, var, index, dtype, *rest, **kwargs)
        plain = dtype == torch.bool or any(rest) or any(kwargs.values()) or isinstance(self, CppTile2DKernel)
        buffer = None if plain else _output(self, var)
        stream = None if buffer is None else _when_large(self, buffer, dtype)
        if stream is None:
            return out
        ptr = f"{var} + {cexpr_index(index)}"
        n = cexpr_index(self.num_elems)
        if out.getvalue().strip() not in (f"{value}.store({ptr});", f"{value}.store({ptr}, {n});"):
            return out  # (a strided store, say: as it is)
        streamed = IndentedBuffer()
        always = "<true>" if _written_once(buffer) else ""
        streamed.writeline(f"npc_nt::store{always}({value}, {ptr}, {n}{stream});")
        return streamed

    return code


def _output(kernel, var):
    """The buffer of the graph output that ``var`` points to, where this kernel only writes it; else None."""
    from torch._inductor.virtualized import V

    names = [name for name, arg in kernel.args.output_buffers.items() if arg == var]
    if len(names) != 1 or names[0] in kernel.args.input_buffers or names[0] not in V.graph.get_output_names():
        return None
    return V.graph.get_buffer(names[0])


def _when_large(kernel, buffer, dtype) -> str | None:
    """None where ``buffer`` has fewer than MIN_BYTES; else the extra argument of ``npc_nt::store``: none, or with
    symbolic sizes the test of the size when the kernel runs."""
    from torch._inductor.codegen.cpp_utils import cexpr_index
    from torch._inductor.virtualized import V

    size = buffer.get_numel() * dtype.itemsize
    if V.graph.sizevars.statically_known_geq(size, MIN_BYTES):
        return ""
    if V.graph.sizevars.statically_known_lt(size, MIN_BYTES):
        return None
    size = kernel.rename_indexing(size)
    if any(not str(s).startswith("ks") for s in size.free_symbols):  # (a size read from the data: not an argument)
        return None
    return f", {cexpr_index(size)} >= {MIN_BYTES}"


def _written_once(buffer) -> bool:
    """Whether ``buffer`` was made by a graph node marked ``DISJOINT_WRITES``."""
    return any(node.meta.get(DISJOINT_WRITES) for node in getattr(buffer, "origins", ()))


def with_streaming_fence(source: str) -> str:
    """``source`` (a C++ kernel group) with the helpers above, and the fence, where it streams.  A buffer that more
    than one of the group's parallel loops touches (disjoint parts of one array, ``v = u.copy(); v[1:-1] = ...``)
    stores plainly: the loops' barriers are not fences, so a thread's streamed store could land after another
    thread's store to the same element in a later loop (``store<true>``: a buffer written once per element, which
    streams in every loop).  (A kernel whose function this cannot find, so no fence, stores plainly throughout.)"""
    if not _STREAMS.search(source) or _PREFIX not in source:  # (Inductor writes _PREFIX into every group)
        return source
    body = _BODY.search(source)
    loops = source[body.end():].split("#pragma omp for") if body else []
    if body is None:
        source = source.replace("npc_nt::store<true>(", "npc_nt::store(")
    for ptr in set(_STREAMED.findall(source)):
        if body is None or sum(re.search(rf"\b{ptr}\b", loop) is not None for loop in loops) > 1:
            source = re.sub(rf"npc_nt::store\((\w+), {ptr} \+ ", rf"npc_nt::store<false>(\1, {ptr} + ", source)
    source = source.replace(_PREFIX, _PREFIX + _HELPERS, 1)
    if not _STREAMS.search(source):
        return source
    threads = _THREADS.search(source)
    fence = f"npc_nt::FenceOnReturn npc_nt_fence{{{threads.group(1) if threads else 0}}};"
    return _BODY.sub(lambda m: f"{m.group(1)}\n    {fence}", source, count=1)
