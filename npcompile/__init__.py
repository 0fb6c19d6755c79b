"""npcompile: ordinary NumPy code, compiled into fused kernels through TorchDynamo and Inductor.

``@npcompile.compile`` traces a NumPy function through ``npcompile._numpy`` (NumPy on torch tensors) and
compiles it; ``wrap_numpy`` makes a NumPy function a differentiable function of torch tensors.
"""

from ._errors import UnsupportedFeature
from . import config
from ._compile import (
    CompileError, allow_in_graph, compile, disable, disallow_in_graph, explain, graph_break, reset,
)
from .fallback import FallbackWarning
from .wrap_numpy import wrap_numpy

__all__ = ["UnsupportedFeature", "FallbackWarning", "CompileError", "compile", "explain", "disable",
           "allow_in_graph", "disallow_in_graph", "graph_break", "reset", "config", "wrap_numpy"]
__version__ = "0.1.0"
