"""Where a compiled function runs: ``with torch.device(d)`` (or ``torch.set_default_device(d)``) around a call.

NumPy arrays live in host memory.  Under a default device other than the CPU, ``npcompile.compile`` moves the
array arguments to that device, runs the graphs there and brings the results back as NumPy arrays, as
``torch.compile`` does for NumPy code.  Under the CPU (or no device context) nothing moves: the graphs run on
the caller's own memory.

A moved argument keeps its exact memory layout (the storage under it is copied, then the same offset, shape
and strides are laid over the copy), so arguments that alias one another on the host alias on the device too,
and an output that views an argument maps back to the same bytes of the caller's array.  After the call, each
argument the graphs wrote to (its version counter moved: every backend bumps it for an in-place update), and
any argument sharing memory with it, is copied back into the caller's array.  What the compiled function does
in real NumPy after a graph break works on host copies of device data, as in ``torch.compile``: in-place
updates made there do not reach the caller.
"""

from __future__ import annotations

import torch

_stack_len = torch._C._len_torch_function_stack


def run_device() -> torch.device | None:
    """The device the active default-device context asks for, or None when the arrays stay where they are."""
    if not _stack_len():  # no torch function mode at all: the common case, one C call
        return None
    d = torch.get_default_device()
    return None if d.type == "cpu" else d


class Moved:
    """Host tensors (sharing the caller's arrays' memory) and their copies on ``device``."""

    __slots__ = ("host", "run", "versions")

    def __init__(self, host: list, device: torch.device):
        # One copy per host storage, as a tensor of which each argument is a view: arguments that share memory
        # share it on the device, and share a version counter, which moves whichever of them is written
        # (a backend may write an aliased argument through a base of its own making).
        bases: dict = {}
        run = []
        for t in host:
            s = t.untyped_storage()
            key = (s.data_ptr(), s.nbytes(), t.dtype)
            base = bases.get(key)
            if base is None:
                copy = torch.UntypedStorage(s.nbytes(), device=device)
                copy.copy_(s)
                base = bases[key] = torch.empty(0, dtype=t.dtype, device=device).set_(copy)
            run.append(base.as_strided(t.shape, t.stride(), t.storage_offset()))
        self.host = host
        self.run = run
        self.versions = [t._version for t in run]

    def copy_back(self) -> None:
        """Write the arguments the call may have updated in place back into the caller's arrays."""
        for h, r, v in zip(self.host, self.run, self.versions):
            if r._version != v:
                h.copy_(r)
