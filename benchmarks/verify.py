"""Compare a compiled column's outputs with NumPy's: npcompile promises NumPy's answers, so a value or
dtype difference is reported in the table (column 'ok') rather than hidden behind a speedup."""
import numpy as np

F64_RTOL, F64_ATOL = 1e-6, 1e-9
F32_RTOL, F32_ATOL = 1e-3, 1e-5


def as_outputs(result):
    """A kernel result (array, scalar, tuple of them, or stray torch tensors) as a tuple of ndarrays."""
    items = result if isinstance(result, (tuple, list)) else (result,)
    out = []
    for x in items:
        if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch.Tensor leaking out of a compiled fn
            x = x.detach().cpu().numpy()
        out.append(np.asarray(x))
    return tuple(out)


def compare(module, ref, got):
    """(status, detail): status is 'ok', 'DIFF' (values/shapes) or 'DTYPE' (values ok, dtype differs)."""
    if hasattr(module, "check"):
        ok, detail = module.check(ref, got)
        return ("ok" if ok else "DIFF"), detail
    if len(ref) != len(got):
        return "DIFF", f"{len(got)} outputs, NumPy gives {len(ref)}"
    dtype_notes = []
    for i, (r, g) in enumerate(zip(ref, got)):
        if r.shape != g.shape:
            return "DIFF", f"output {i}: shape {g.shape} != {r.shape}"
        if r.dtype != g.dtype:
            dtype_notes.append(f"output {i}: dtype {g.dtype} != {r.dtype}")
        if r.dtype.kind in "biu" and g.dtype.kind in "biu":
            if not np.array_equal(r, g):
                return "DIFF", f"output {i}: {int((r != g).sum())} of {r.size} integers differ"
            continue
        loose = np.float32 in (r.dtype.type, g.dtype.type) or r.dtype.kind == "c" and r.dtype.itemsize <= 8
        rtol = getattr(module, "RTOL", F32_RTOL if loose else F64_RTOL)
        atol = getattr(module, "ATOL", F32_ATOL if loose else F64_ATOL)
        if loose:
            rtol, atol = max(rtol, F32_RTOL), max(atol, F32_ATOL)
        if not np.allclose(g, r, rtol=rtol, atol=atol, equal_nan=True):
            with np.errstate(all="ignore"):
                err = np.abs(g.astype(np.float64) - r.astype(np.float64))
                worst = float(np.nanmax(err)) if err.size else 0.0
            return "DIFF", f"output {i}: max abs err {worst:.3g} (rtol={rtol:g}, atol={atol:g})"
    if dtype_notes:
        return "DTYPE", "; ".join(dtype_notes)
    return "ok", ""
