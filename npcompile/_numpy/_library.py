"""The shim's own torch ops, ``npcompile::...``, for what no torch op computes NumPy's way (or as fast), and the
rule for when NumPy's own kernels run on the CPU.

The ops are defined through ``torch.library.Library``, not ``custom_op``, whose Python dispatch layers cost some
25 us a call (an op of a small array is mostly call)."""

import numpy as _np
import torch

from . import _dtypes
from ._trace import is_tracing

LIB = torch.library.Library("npcompile", "FRAGMENT")

# Where torch's CPU kernel is far slower than NumPy's (sorting, membership), NumPy's runs on the arrays' memory
# (an op when traced) and its answer is NumPy's very one.  False: torch's kernels everywhere (the tests' switch).
NUMPY_KERNELS = True


def numpy_kernel_applies(*tensors: torch.Tensor) -> bool:
    """Whether NumPy's own kernel can run on ``tensors``: on the CPU, of dtypes NumPy has, none needing a gradient."""
    return NUMPY_KERNELS and all(t.device.type == "cpu" and _dtypes._TORCH_TO_NP.get(t.dtype) is not None
                                 and not t.requires_grad for t in tensors)


def from_numpy(r) -> torch.Tensor:
    """A NumPy kernel's result as a tensor in C order, as the ops' fakes say (NumPy keeps a strided input's memory
    order; Inductor read such a result with C strides, and ``ascontiguousarray`` makes a 0-d array 1-d)."""
    r = _np.asarray(r)
    return torch.from_numpy(r if r.flags.c_contiguous else r.copy(order="C"))


def as_numpy(t: torch.Tensor) -> _np.ndarray:
    """A CPU tensor's memory as a NumPy array (conjugate and negative views resolved first)."""
    return t.resolve_conj().resolve_neg().numpy()


def numpy_op(schema: str, kernel, fake):
    """Define ``npcompile::<schema>``, run by ``kernel`` (tensors -> NumPy -> ``from_numpy``) on the CPU, ``fake``
    its shapes when traced; returns the call: the op when its first tensor is traced (one opaque node for Inductor),
    else ``kernel`` itself (no dispatcher on the eager path)."""
    name = schema.split("(", 1)[0]
    LIB.define(schema)
    LIB.impl(name, kernel, "CPU")
    torch.library.register_fake(f"npcompile::{name}", fake, lib=LIB)
    op = getattr(torch.ops.npcompile, name).default
    return lambda t, *args: (op if is_tracing(t) else kernel)(t, *args)
