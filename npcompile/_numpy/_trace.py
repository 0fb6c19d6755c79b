"""Whether the shim runs under a tracer, the one test for every value-dependent branch.

Under TorchDynamo, make_fx or fake tensors the values are unknown: checks that read them (singular matrices,
out-of-range parameters, NaN warnings) are skipped there and kept in eager mode.
"""

import torch
from torch._subclasses.fake_tensor import is_fake


def is_tracing(t=None) -> bool:
    if torch.compiler.is_compiling() or torch._C._len_torch_dispatch_stack():  # Dynamo, or a fake/proxy mode
        return True
    # a plain tensor is real data; only tensor subclasses (fake, functional wrappers of fake) need the slow test
    return isinstance(t, torch.Tensor) and type(t) is not torch.Tensor and is_fake(t)
