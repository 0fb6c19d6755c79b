"""Benchmark kernels: plain NumPy functions from real work, one module each.

Each module defines NAME, kernel(*arrays), make_inputs(size, rng) for size "small" | "default" | "gpu",
MEMORY_BOUND and BYTES(inputs) (bytes read once + written once, None when not memory-bound). Optional:
RTOL / ATOL (verification tolerance), check(ref_outputs, outputs) -> (ok, detail) for kernels whose
results are random, LOOP_STEPS for time-stepping loops (compile time is reported separately).
"""
import importlib
import pkgutil

SIZES = ("small", "default", "gpu")
_REQUIRED = ("NAME", "kernel", "make_inputs", "BYTES", "MEMORY_BOUND")


def kernel_names():
    """Module names of all kernels, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def load(name):
    """Import one kernel module and check it has the required attributes."""
    mod = importlib.import_module(f"{__name__}.{name}")
    missing = [a for a in _REQUIRED if not hasattr(mod, a)]
    if missing:
        raise AttributeError(f"kernel module {name} lacks {', '.join(missing)}")
    return mod


def load_all(names=None):
    """Kernel modules by name (all when names is None), in the given order."""
    names = kernel_names() if names is None else list(names)
    unknown = sorted(set(names) - set(kernel_names()))
    if unknown:
        raise SystemExit(f"unknown kernel(s): {', '.join(unknown)}; known: {', '.join(kernel_names())}")
    return [load(n) for n in names]
