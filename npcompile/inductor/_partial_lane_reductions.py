"""Reductions across the lanes of a partly filled vector of 1-byte integers on the CPU.

Inductor's C++ backend gives every vector of a kernel the same number of elements, one float vector's (8 on
AVX2, 16 on AVX-512).  An int8 or uint8 ``Vectorized`` has four times that many lanes: a load fills the first 8 and
sets the others to 1, and a reduction along the contiguous axis then folds all lanes into one value, the filler
too.  ``a.min()`` of a uint8 image whose darkest pixel is 2 gave 1, ``a.max()`` of negative int8 values gave 1,
and ``a.sum(dtype=np.int8)`` was off by 24 for every 8 elements (plain torch.compile 2.13 gives the same answers).
Here such a reduction folds only the lanes that hold elements: ATen's ``vec_reduce_all(op, vector, size)``.
"""

from __future__ import annotations

import torch


def whole_lanes_only(reduction):
    """Wraps ``CppVecKernel.reduction``: the final fold of a reduction whose vectors hold fewer elements than lanes
    covers the elements' lanes only."""
    from torch._inductor.codegen.cpp_utils import DTYPE_TO_CPP

    def reduce(self, dtype, src_dtype, reduction_type, value):
        lines = self.reduction_suffix._lines
        start = len(lines)
        result = reduction(self, dtype, src_dtype, reduction_type, value)
        if dtype.is_floating_point or dtype == torch.bool or not hasattr(self, "num_elems"):
            return result  # (floats and bools are held as float vectors, whole)
        if self.tail_size or not isinstance(self.num_elems, int) or \
                self.num_elems * dtype.itemsize * 8 >= self.vec_isa.bit_width():
            return result  # (a tail kernel's partial vectors: Inductor's masked reductions fold their lanes)
        whole = f"at::vec::vec_reduce_all<{DTYPE_TO_CPP[dtype]}, 1>("
        for i in range(start, len(lines)):
            if isinstance(lines[i], str) and whole in lines[i]:
                lines[i] = _fold_first(lines[i], whole, self.num_elems)
        return result

    return reduce


def _fold_first(line: str, call: str, count: int) -> str:
    """``line`` with ``call``'s arguments followed by ``count`` (ATen's overload folding the first lanes only)."""
    begin = line.index(call)
    depth = 0
    for end in range(begin + len(call) - 1, len(line)):
        depth += {"(": 1, ")": -1}.get(line[end], 0)
        if depth == 0:
            break
    return f"{line[:begin]}{call.replace(', 1>', '>')}{line[begin + len(call):end]}, {count}{line[end:]}"
