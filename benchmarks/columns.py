"""The implementations compared side by side ("columns"). Each turns a kernel function into a callable
taking and returning NumPy arrays; compiled columns compile lazily on the first call, which the runner
times separately. A column whose package does not import is left out with a note."""
import contextlib
import importlib.util
import types


def fresh_function(fn):
    """A copy of fn with its own code object: Dynamo caches compiled code per code object, and two
    compilers wrapping the same function would otherwise share (and fight over) those cache entries."""
    return types.FunctionType(fn.__code__.replace(), fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


class Column:
    key = ""  # JSON key and table label
    compiled = True
    dynamo = False  # compiled through TorchDynamo: graph counts are recorded
    tensors = False  # --tensors: the compiled columns take and return torch tensors on the device (wrap_numpy)

    def available(self):
        """None when usable, else a short reason why the column is left out."""
        return None

    def build(self, fn, device):
        raise NotImplementedError


class NumpyColumn(Column):
    key = "numpy"
    compiled = False

    def build(self, fn, device):
        return fn


def _on_device(compiled, device):
    """Run compiled under `with torch.device(device)` for cuda (NumPy arrays in and out)."""
    if device == "cpu":
        return compiled
    import torch

    def call(*args):
        with torch.device(device):
            return compiled(*args)

    return call


def _on_tensors(compiled, device):
    """--tensors: the kernel as a function of torch tensors on ``device``.  Each NumPy input is copied there once
    (a cached copy, so in-place updates persist from call to call as they do on NumPy's arrays); each call
    waits for the device, and its tensors stay there (``verify.as_outputs`` fetches them for the comparison)."""
    import numpy as np
    import torch

    moved = {}

    def to_device(a):
        if not isinstance(a, np.ndarray):
            return a
        if id(a) not in moved:
            moved[id(a)] = (a, torch.from_numpy(a).to(device))  # holding a keeps its id unique
        return moved[id(a)][1]

    def call(*args):
        out = compiled(*map(to_device, args))
        if device != "cpu":
            torch.cuda.synchronize()
        return out

    return call


class NpcompileColumn(Column):
    key = "npcompile"
    dynamo = True

    def available(self):
        try:
            import npcompile
        except Exception as e:  # noqa: BLE001 - any import failure means "not available yet"
            return f"npcompile does not import ({type(e).__name__}: {str(e)[:80]})"
        if not callable(getattr(npcompile, "compile", None)):
            return "npcompile.compile does not exist yet"
        return None

    def build(self, fn, device):
        import npcompile

        if self.tensors:
            return _on_tensors(npcompile.compile(npcompile.wrap_numpy(fresh_function(fn))), device)
        return _on_device(npcompile.compile(fresh_function(fn)), device)


class TorchCompileColumn(Column):
    key = "torch.compile"
    dynamo = True

    def build(self, fn, device):
        import torch

        if self.tensors:
            # torch's wrappers share one code object, and with it one recompile limit: each its own copy
            return _on_tensors(torch.compile(fresh_function(torch.compiler.wrap_numpy(fn))), device)
        return _on_device(torch.compile(fresh_function(fn)), device)


class JaxColumn(Column):
    """jax.jit of the kernel with the module's `np` rebound to jax.numpy (helpers and in-place updates
    will not translate; those kernels show ERR)."""

    key = "jax"

    def available(self):
        return None if importlib.util.find_spec("jax") else "jax not installed"

    def build(self, fn, device):
        import jax
        import jax.numpy as jnp
        import numpy as np

        g = types.FunctionType(fn.__code__, {**fn.__globals__, "np": jnp}, fn.__name__, fn.__defaults__, fn.__closure__)
        jitted = jax.jit(g)

        def call(*args):
            out = jitted(*args)
            return tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else np.asarray(out)

        return call


class NumbaColumn(Column):
    key = "numba"

    def available(self):
        return None if importlib.util.find_spec("numba") else "numba not installed"

    def build(self, fn, device):
        if device != "cpu":
            raise RuntimeError("numba column is CPU only")
        import numba

        return numba.njit(cache=False)(fn)


def _trivial(a):
    return a * 2.0 + 1.0


def warm_up(col, device):
    """Compile and run a trivial function once, so the one-off start-up of Dynamo and Inductor in this
    process (imports, toolchain checks, OpenMP) is not charged to the first kernel's compile time.
    Returns the seconds it took."""
    import time

    import numpy as np

    t0 = time.perf_counter()
    col.build(_trivial, device)(np.ones(8))
    try:  # Inductor sets up its pattern matchers (0.6 s) in the first graph it lowers: a trivial graph served
        # from AOTAutograd's cache never gets there, and the first kernel whose graph is not cached would pay it
        from torch._inductor.fx_passes.joint_graph import lazy_init

        lazy_init()
    except Exception:  # noqa: BLE001 - another torch: the kernel pays it, as before
        pass
    return time.perf_counter() - t0


ALL = (NumpyColumn, NpcompileColumn, TorchCompileColumn, JaxColumn, NumbaColumn)
SHORT = {"numpy": "np", "npcompile": "npc", "torch.compile": "tc", "jax": "jax", "numba": "nb"}


def select(no_npcompile=False, no_torch_compile=False, tensors=False):
    """(columns in use, notes about columns left out).  ``tensors``: the compiled columns run on torch tensors
    through wrap_numpy (npcompile's, and torch.compiler's under torch.compile); the others are left out."""
    cols, notes = [], []
    for cls in ALL:
        col = cls()
        if tensors and col.compiled and not col.dynamo:
            notes.append(f"{col.key}: no tensor form (--tensors)")
            continue
        col.tensors = tensors and col.compiled
        if (no_npcompile and col.key == "npcompile") or (no_torch_compile and col.key == "torch.compile"):
            notes.append(f"{col.key}: disabled on the command line")
            continue
        why = col.available()
        if why:
            notes.append(f"{col.key}: column skipped, {why}")
            continue
        cols.append(col)
    return cols, notes


@contextlib.contextmanager
def dynamo_counts(record):
    """Fill record with the Dynamo graphs compiled inside the block, and the graph breaks and
    unsupported constructs (which can make Dynamo run a whole frame eagerly: 0 graphs) it hit."""
    try:
        from torch._dynamo.utils import counters
    except Exception:  # noqa: BLE001
        yield
        return
    kinds = ("graph_break", "unimplemented")
    graphs0 = counters["stats"]["unique_graphs"]
    before = {k: dict(counters[k]) for k in kinds}
    try:
        yield
    finally:
        record["graphs"] = counters["stats"]["unique_graphs"] - graphs0
        new = {}
        for k in kinds:
            for reason, n in counters[k].items():
                if n - before[k].get(reason, 0) > 0:
                    new[_short_reason(reason)] = max(new.get(_short_reason(reason), 0), n - before[k].get(reason, 0))
        record["graph_breaks"] = sum(new.values())
        if new:
            record["graph_break_reasons"] = [r + (f" (x{n})" if n > 1 else "") for r, n in new.items()]


def _short_reason(text):
    """First two lines of a Dynamo graph-break message (the title and its explanation)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[:2])[:300]
