"""Tracing NumPy code with TorchDynamo into ``npcompile._numpy`` (all Dynamo internals live in
``_dynamo_patch``)."""

from ._dynamo_patch import (  # noqa: F401
    SUPPORTED_TORCH,
    ShimCall,
    ShimMethodCall,
    ShimOperatorCall,
    ShimTraceError,
    check_torch_version,
    graph_references_torch_numpy,
    is_active,
    numpy_mode,
    numpy_to_shim_ops_in,
    shim_attr,
)
