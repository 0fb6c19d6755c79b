"""npcompile: ordinary NumPy code, compiled into fused kernels through TorchDynamo and Inductor.

``@npcompile.compile`` traces a NumPy function through ``npcompile._numpy`` (NumPy on torch tensors) and
compiles it; ``wrap_numpy`` makes a NumPy function a differentiable function of torch tensors.

The compile path is imported on first use, so ``import npcompile._numpy`` alone stays light and never loads
TorchDynamo (which would also load ``torch._numpy``).
"""

import importlib

from ._memory import keep_freed_memory

keep_freed_memory()

from ._errors import UnsupportedFeature
from .wrap_numpy import wrap_numpy  # eager: a lazy name would be shadowed by the same-named submodule

_LAZY = {
    "config": (".config", None),
    "CompileError": ("._compile", "CompileError"),
    "allow_in_graph": ("._compile", "allow_in_graph"),
    "compile": ("._compile", "compile"),
    "disable": ("._compile", "disable"),
    "disallow_in_graph": ("._compile", "disallow_in_graph"),
    "explain": ("._compile", "explain"),
    "graph_break": ("._compile", "graph_break"),
    "reset": ("._compile", "reset"),
    "FallbackWarning": (".fallback", "FallbackWarning"),
}

__all__ = ["UnsupportedFeature", "wrap_numpy", *_LAZY]
__version__ = "0.1.0"


def __getattr__(name):
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'npcompile' has no attribute {name!r}") from None
    mod = importlib.import_module(module, __name__)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
