"""Bool tensors read and written by vector code on the CPU.

Inductor's vectorized C++ holds bools as masks (``VecMask<float,1>``: 16 lanes of all-ones or zero floats on
AVX512).  It loads a bool buffer through ``VecMask::from(bool*)``, a scalar loop into a stack array reloaded as a
vector, and stores a mask into a bool buffer through ``VecMask::to<bool>()``, the same trip backwards: the sum of
a 1000x1000 bool mask (``m.sum(axis=1)``, ``np.count_nonzero``) took 3.1 ms at one thread where NumPy takes 0.29,
``x != 0`` into a bool array 1.5 ms (NumPy 0.31).  Here the bytes move as a ``Vectorized<uint8_t>``: loaded,
widened to int32 lanes and compared with 0 (0.12 ms for that sum), and stored as the uint8 0/1 of the mask's
lanes (0.52 ms for ``x != 0``, most of it reading the float64 input).  The values are the same; only contiguous
loads and stores of kernels tiled by float lanes (one float vector per tile) are changed.  A cast to bool
(``x.astype(bool)``) went through memory as well (``VecMask::from(vector)``); it is the comparison ``x != 0``.
"""

from __future__ import annotations

import torch


def _one_float_vector(kernel) -> bool:
    """Tiles of one float vector, whose element count the kernel names (``num_elems``; an Inductor without it
    keeps its own code)."""
    return hasattr(kernel, "num_elems") and kernel._get_num_vectors(torch.float) == 1


def fast_bool_load(get_vec_load_line):
    """Wraps ``CppVecKernel._get_vec_load_line``: a contiguous bool load as a uint8 load (still a float mask)."""
    from torch._inductor.codegen.cpp_utils import cexpr_index

    def line(self, var, index, dtype, load_mask=None):
        if dtype != torch.bool or not _one_float_vector(self):
            return get_vec_load_line(self, var, index, dtype, load_mask)
        buf = f"{var} + {cexpr_index(index)}" if index != 0 else var
        u8 = f"at::vec::Vectorized<uint8_t>::loadu({buf}, {cexpr_index(self.num_elems)})"
        return (f"at::vec::VecMask<int32_t,1>(at::vec::convert<int32_t,1,uint8_t,1>({u8}) != "
                f"at::vec::Vectorized<int32_t>(0)).cast<float,1>()")

    return line


# A mask (any VecMask) as the 0/1 bytes of its lanes; a Vectorized<bool> (from a bitcast) is stored as it is.
_BYTES = ("at::vec::convert<{t}>(at::vec::Vectorized<float>::blendv(at::vec::Vectorized<float>(0.0f), "
          "at::vec::Vectorized<float>(1.0f), at::vec::Vectorized<float>(({mask}).template cast<float,1>())))")
_STORE = ("[](const auto& m, bool* p, int64_t n) {{ "
          "if constexpr (std::is_same_v<std::decay_t<decltype(m)>, at::vec::Vectorized<bool>>) {{ m.store(p, n); }} "
          "else {{ " + _BYTES.format(mask="m", t="uint8_t") +
          ".store(reinterpret_cast<uint8_t*>(p), n); }} }}({value}, {ptr}, {n});")


def fast_bool_store(get_store_line):
    """Wraps ``CppVecKernel._get_store_line``: a contiguous store of a mask into a bool buffer writes uint8."""
    from torch._inductor.codegen.common import IndentedBuffer
    from torch._inductor.codegen.cpp_utils import cexpr_index

    def code(self, value, var, index, dtype, *rest, **kwargs):
        out = get_store_line(self, value, var, index, dtype, *rest, **kwargs)
        if dtype != torch.bool or any(rest) or any(kwargs.values()) or not _one_float_vector(self):  # accu_store
            return out
        ptr, n = f"{var} + {cexpr_index(index)}", cexpr_index(self.num_elems)
        if out.getvalue().strip() != f"{value}.store({ptr}, {n});":  # (a strided store: left as it is)
            return out
        fast = IndentedBuffer()
        fast.writeline(_STORE.format(value=value, ptr=ptr, n=n))
        return fast

    return code


_BYTE_TYPES = {torch.uint8: "uint8_t", torch.int8: "int8_t"}
_COMPARABLE = {torch.float64, torch.float32, torch.int64, torch.int32, torch.int8, torch.uint8}


def fast_bool_casts(get_to_dtype_expr):
    """Wraps ``CppVecKernel.get_to_dtype_expr``: a real vector cast to bool is its lanes' ``!= 0`` (NaN is
    true, -0.0 false: C's and NumPy's truth); a mask cast to bytes (``m.astype(np.uint8)``) goes through float
    0/1 lanes, where ATen's generic mask cast went through memory (4M bools 9.6 ms, NumPy 0.22; AVX2)."""

    def expr(self, src, dtype, src_dtype, *rest):
        if dtype == torch.bool and src_dtype in _COMPARABLE and src.is_vec:
            return f"{self._get_mask_type(src_dtype)}({src} != {self._get_vec_type(src_dtype)}(0))"
        if src_dtype == torch.bool and dtype in _BYTE_TYPES and src.is_vec and _one_float_vector(self):
            return _BYTES.format(mask=src, t=_BYTE_TYPES[dtype])
        return get_to_dtype_expr(self, src, dtype, src_dtype, *rest)

    return expr
