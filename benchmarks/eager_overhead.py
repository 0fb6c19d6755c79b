"""Per-call cost of tiny eager array operations (16-element float64): NumPy, our shim npcompile._numpy,
torch._numpy, and the raw torch op it should boil down to. On arrays this small the time is all Python
and dispatch overhead, which is what the shim adds on top of torch; compiled code never pays it, but
eager fallbacks and graph breaks do.

The raw-torch statement is the cheapest torch spelling of NumPy's semantics, not of torch's: ``a[3]`` in
NumPy is a scalar that does not alias ``a``, so its baseline is ``a[3].clone()`` (torch's ``a[3]`` is a view).
Times are CPU time (``time.process_time``) minima over rounds that alternate between a row's columns: robust
to other processes on a shared machine.

Two tables: the issue's ten calls (CASES) and common calls beyond them (EXTRA_CASES).

    python -m benchmarks.eager_overhead [--repeat 50] [--json PATH] [-k TEXT]
"""
import argparse
import json
import os
import sys
import time

import numpy as np

if __package__ in (None, ""):  # allow `python benchmarks/eager_overhead.py`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "benchmarks"

from .timing import per_call_interleaved  # noqa: E402

# (label, statement in NumPy spelling with namespace `xp`, statement for raw torch)
CASES = [
    ("sin(a)", "xp.sin(a)", "torch.sin(a)"),
    ("a + b", "a + b", "a + b"),
    ("sum(a)", "xp.sum(a)", "torch.sum(a)"),
    ("mean(a2d, axis=0)", "xp.mean(a2d, axis=0)", "torch.mean(a2d, dim=0)"),
    ("a[3]", "a[3]", "a[3].clone()"),  # NumPy's scalar does not alias a: a copy, not torch's view
    ("a[2:10]", "a[2:10]", "a[2:10]"),
    ("where(a > 0, a, b)", "xp.where(a > 0, a, b)", "torch.where(a > 0, a, b)"),
    ("concatenate([a, b])", "xp.concatenate([a, b])", "torch.cat([a, b])"),
    ("a.astype(float32)", "a.astype(xp.float32)", "a.to(torch.float32)"),
    ("a.reshape(4, 4)", "a.reshape(4, 4)", "a.reshape(4, 4)"),
    ("matmul(m, m)", "xp.matmul(m, m)", "torch.matmul(m, m)"),
]
# Beyond the ten: other common calls. idx: 8 distinct int64 indices; mask: a > 0; w: an array of its own
# for the assignments (they write in place); p: |a| (sqrt without NumPy's invalid-value warning); a1: (1, 16);
# lst: 16 Python floats; na: a NumPy array (asarray of it is no copy in NumPy: torch.from_numpy).
EXTRA_CASES = [
    ("a[idx]", "a[idx]", "a[idx]"),
    ("a[mask]", "a[mask]", "a[mask]"),
    ("w[idx] = v", "w[idx] = v", "w[idx] = v"),
    ("w[mask] = 0.0", "w[mask] = 0.0", "w[mask] = 0.0"),
    ("where(mask)", "xp.where(mask)", "torch.where(mask)"),
    ("take(a, idx)", "xp.take(a, idx)", "torch.take(a, idx)"),
    ("expand_dims(a, 0)", "xp.expand_dims(a, 0)", "torch.unsqueeze(a, 0)"),
    ("hstack([a, b])", "xp.hstack([a, b])", "torch.cat([a, b])"),
    ("vstack([a, b])", "xp.vstack([a, b])", "torch.vstack([a, b])"),
    ("stack([a, b])", "xp.stack([a, b])", "torch.stack([a, b])"),
    ("squeeze(a1)", "xp.squeeze(a1)", "torch.squeeze(a1)"),
    ("ravel(a2d)", "xp.ravel(a2d)", "torch.ravel(a2d)"),
    ("array(lst)", "xp.array(lst)", "torch.tensor(lst, dtype=torch.float64)"),
    ("asarray(na)", "xp.asarray(na)", "torch.from_numpy(na)"),
    ("dot(a, b)", "xp.dot(a, b)", "torch.dot(a, b)"),
    ("a2d @ m", "a2d @ m", "a2d @ m"),
    ("clip(a, -0.5, 0.5)", "xp.clip(a, -0.5, 0.5)", "torch.clamp(a, -0.5, 0.5)"),
    ("abs(a)", "xp.abs(a)", "torch.abs(a)"),
    ("sqrt(p)", "xp.sqrt(p)", "torch.sqrt(p)"),
    ("exp(a)", "xp.exp(a)", "torch.exp(a)"),
    ("a > b", "a > b", "a > b"),
    ("a * 2.0", "a * 2.0", "a * 2.0"),
    ("a.copy()", "a.copy()", "a.clone()"),
    ("argmax(a)", "xp.argmax(a)", "torch.argmax(a)"),
    ("cumsum(a)", "xp.cumsum(a)", "torch.cumsum(a, 0)"),
    ("max(a2d, axis=0)", "xp.max(a2d, axis=0)", "torch.amax(a2d, 0)"),
    ("a2d.T", "a2d.T", "a2d.T"),
]
COLUMNS = ("numpy", "npcompile._numpy", "torch._numpy", "torch")


def _short(e):
    """Table cell for a failure: 'ERR: <type>: <message>' (the table shows up to the type only)."""
    return f"ERR: {type(e).__name__}: {str(e).strip().splitlines()[0][:120] if str(e).strip() else ''}"


def namespaces():
    """Per column: a timeit namespace with xp (or torch), arrays a, b (16,), a2d, m (4, 4) and the extra rows'
    operands (see EXTRA_CASES); or an error."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal(16)
    base = {"a": a, "b": rng.standard_normal(16), "a2d": rng.standard_normal((4, 4)),
            "m": rng.standard_normal((4, 4)), "idx": rng.permutation(16)[:8], "mask": a > 0,
            "w": rng.standard_normal(16), "v": rng.standard_normal(8), "p": np.abs(a), "a1": a.reshape(1, 16)}
    plain = {"lst": a.tolist(), "na": a.copy()}  # passed as they are: Python and NumPy objects
    out = {"numpy": {"xp": np, **base, **plain}}
    for col, modname in (("npcompile._numpy", "npcompile._numpy"), ("torch._numpy", "torch._numpy")):
        try:
            import importlib
            xp = importlib.import_module(modname)
            out[col] = {"xp": xp, **{k: xp.asarray(v.copy()) for k, v in base.items()}, **plain}
        except Exception as e:  # noqa: BLE001 - the shim is under construction
            out[col] = _short(e)
    try:
        import torch
        out["torch"] = {"torch": torch, **{k: torch.from_numpy(v.copy()) for k, v in base.items()}, **plain}
    except Exception as e:  # noqa: BLE001
        out["torch"] = _short(e)
    return out


def measure(repeat=50, cases=CASES):
    """label -> column -> microseconds per call (or an error string); a row's columns are timed in alternating
    rounds, so a change of load hits them alike."""
    spaces = namespaces()
    results = {}
    for label, np_stmt, torch_stmt in cases:
        row = results[label] = {}
        stmts = {}
        for col in COLUMNS:
            ns, stmt = spaces[col], torch_stmt if col == "torch" else np_stmt
            if isinstance(ns, str):
                row[col] = ns
                continue
            try:
                exec(stmt, dict(ns))  # noqa: S102 - our own statements; fail early with the cell's error
            except Exception as e:  # noqa: BLE001
                row[col] = _short(e)
                continue
            stmts[col] = (stmt, ns)
        times = per_call_interleaved(stmts, repeat=repeat, clock=time.process_time, stat=min)
        row.update({col: t * 1e6 for col, t in times.items()})
    return {label: {col: row[col] for col in COLUMNS} for label, row in results.items()}


def _ratio(x, y):
    return f"{x / y:.2f}" if isinstance(x, float) and isinstance(y, float) and y > 0 else "-"


def table(results):
    header = ["op"] + [f"{c} us" for c in COLUMNS] + ["nnp/torch", "tnp/nnp", "nnp/np"]
    rows = []
    for label, row in results.items():
        cells = [f"{row[c]:.2f}" if isinstance(row[c], float) else row[c].split(": ")[0] + ": " + row[c].split(": ")[1]
                 for c in COLUMNS]
        rows.append([label] + cells + [_ratio(row["npcompile._numpy"], row["torch"]),
                                       _ratio(row["torch._numpy"], row["npcompile._numpy"]),
                                       _ratio(row["npcompile._numpy"], row["numpy"])])
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
    errors = [f"  {label} [{c}]: {row[c]}" for label, row in results.items() for c in COLUMNS if isinstance(row[c], str)]
    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]
                     + (["", "errors:"] + errors if errors else []))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=50, help="timing rounds per cell (the minimum is reported)")
    p.add_argument("--json", help="also write the numbers (microseconds per call) to this file")
    p.add_argument("-k", default="", help="only the rows whose label contains this text")
    a = p.parse_args(argv)
    try:
        import torch
        torch.set_num_threads(1)  # tiny ops: keep intra-op threading out of the picture
    except Exception:  # noqa: BLE001
        pass
    print("per-call CPU time in microseconds, 16-element float64 arrays (4x4 for a2d and m), minimum of "
          f"{a.repeat} rounds\nnnp/torch: shim overhead over raw torch; tnp/nnp: torch._numpy time / "
          "npcompile._numpy time (>1: ours faster); nnp/np: ours vs NumPy")
    results = {}
    for title, cases in (("the issue's ten", CASES), ("beyond the issue's ten", EXTRA_CASES)):
        cases = [c for c in cases if a.k in c[0]]
        if cases:
            results.update(part := measure(a.repeat, cases))
            print(f"\n{title}:\n{table(part)}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
