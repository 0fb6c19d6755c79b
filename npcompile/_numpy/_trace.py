"""Whether the shim runs under a tracer, the one test for every value-dependent branch.

Under TorchDynamo, make_fx or fake tensors the values are unknown: checks that read them (singular matrices,
out-of-range parameters, NaN warnings) are skipped there and kept in eager mode.
"""

import torch
from torch._subclasses.fake_tensor import is_fake
from torch.fx.experimental.symbolic_shapes import guard_or_false, guard_or_true


def is_tracing(t=None) -> bool:
    if torch.compiler.is_compiling() or torch._C._len_torch_dispatch_stack():  # Dynamo, or a fake/proxy mode
        return True
    # a plain tensor is real data; only tensor subclasses (fake, functional wrappers of fake) need the slow test
    return isinstance(t, torch.Tensor) and type(t) is not torch.Tensor and is_fake(t)


def check(ok, error: type, message: str) -> None:
    """Raise ``error(message)`` unless ``ok`` (a traced condition on sizes or indices) holds: now where the trace
    can decide it, else when the code runs (a size read from the data: ``np.flatnonzero(m)[0]``,
    ``np.zeros(int(y.max()) + 1)``), as a RuntimeError.  There, torch._check lets the trace go on assuming ``ok``
    and records the assertion that the compiled code checks (Inductor keeps it: npcompile leaves its
    scalar_asserts on)."""
    if guard_or_false(ok):
        return
    if not guard_or_true(ok):
        raise error(message)
    torch._check(ok)
