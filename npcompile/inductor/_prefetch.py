"""Software prefetch of the rows a reduction reads next, for inputs far larger than the caches.

A reduction over the rows of a large array (a softmax, a layer norm, a logsumexp, row statistics) reads a row from
memory, then works on it from L1 (the other passes over the row, the exp, the division), while the memory bus idles:
the hardware prefetcher follows a stream only within a 4 KB page, so it does not fetch the next row ahead.  So in a
kernel whose innermost, vectorized loop reduces, a vector load of a large input also prefetches the vector
``AHEAD_BYTES`` or more further on in the loop just outside: the next row, or the next few short rows (with a
symbolic row length, the next row or ``AHEAD_BYTES`` on, whichever is further).  Measured on our 2-core AVX-512
machine in the benchmark runner's interleaved timing, the same process compiling each kernel with and without:
softmax of 8192x1024 float32 4.90 -> 3.99 ms, layer norm of 8192x768 float32 3.58 -> 2.83, logsumexp of
20000x256 float64 6.48 -> 5.06, row statistics of 4000x1000 float64 2.70 -> 2.42.  Elementwise loops over rows
(the stencils) gained nothing overall (the hardware prefetcher streams them; jacobi2d and a 50-step stencil loop
lost 5-9%, periodic diffusion gained 8-12%), so they are left alone.

A prefetch never faults, so one past the end of the array (the last rows) is harmless.  Inputs of fewer than
``MIN_BYTES`` are left alone too: they are in the caches, where a prefetch is only an extra instruction.
"""

from __future__ import annotations

import sympy
import torch

AHEAD_BYTES = 2048  # how far ahead to fetch: about what a thread's share of the memory bandwidth moves in a miss
MIN_ROW_BYTES = 512  # shorter rows: the hardware prefetcher sees one stream through them
MIN_BYTES = 4 << 20  # about the L2 of both cores


def prefetch_ahead(get_vec_load_line):
    """Wraps ``CppVecKernel._get_vec_load_line``: a load of a large input also prefetches the rows ahead (with
    GCC's and Clang's builtin; MSVC has none)."""
    from torch._inductor import cpp_builder
    from torch._inductor.codegen.cpp import CppTile2DKernel
    from torch._inductor.codegen.cpp_utils import cexpr_index

    if cpp_builder._IS_WINDOWS:
        return get_vec_load_line

    def line(self, var, index, dtype, *rest, **kwargs):
        code = get_vec_load_line(self, var, index, dtype, *rest, **kwargs)
        ahead = None if isinstance(self, CppTile2DKernel) else _ahead(self, var, index, dtype)
        return code if ahead is None else f"(__builtin_prefetch({var} + {cexpr_index(ahead)}), {code})"

    return line


def _ahead(kernel, var, index, dtype: torch.dtype):
    """The index to prefetch with the load of ``var`` at ``index``, or None."""
    from torch._inductor.virtualized import V

    vectorized = kernel.tiling_idx  # (the loops nest in the order of itervars, the reduction's innermost)
    if not isinstance(index, sympy.Expr) or not 1 <= vectorized == len(kernel.itervars) - 1 or \
            vectorized < kernel.reduction_depth:
        return None
    names = [name for name, arg in kernel.args.input_buffers.items() if arg == var]
    if len(names) != 1 or V.graph.sizevars.statically_known_lt(V.graph.get_numel(names[0]) * dtype.itemsize,
                                                                  MIN_BYTES):
        return None
    outer = kernel.itervars[vectorized - 1]
    step = sympy.expand(index.subs(outer, outer + 1) - index)  # a row, in items
    if step.is_Integer:
        if int(step) * dtype.itemsize < MIN_ROW_BYTES:
            return None
        return index.subs(outer, outer + -(-AHEAD_BYTES // (int(step) * dtype.itemsize)))
    if not step.is_nonnegative or any(s in kernel.itervars for s in step.free_symbols):
        return None
    return index + sympy.Max(step, AHEAD_BYTES // dtype.itemsize)  # (a row on, or as far as the short rows ahead)
