"""Per-call cost of tiny eager array operations (16-element float64): NumPy, our shim npcompile._numpy,
torch._numpy, and the raw torch op it should boil down to. On arrays this small the time is all Python
and dispatch overhead, which is what the shim adds on top of torch; compiled code never pays it, but
eager fallbacks and graph breaks do.

The raw-torch statement is the cheapest torch spelling of NumPy's semantics, not of torch's: ``a[3]`` in
NumPy is a scalar that does not alias ``a``, so its baseline is ``a[3].clone()`` (torch's ``a[3]`` is a view).
Times are CPU time (``time.process_time``) minima over rounds that alternate between a row's columns: robust
to other processes on a shared machine.

    python -m benchmarks.eager_overhead [--repeat 50] [--json PATH]
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
COLUMNS = ("numpy", "npcompile._numpy", "torch._numpy", "torch")


def _short(e):
    """Table cell for a failure: 'ERR: <type>: <message>' (the table shows up to the type only)."""
    return f"ERR: {type(e).__name__}: {str(e).strip().splitlines()[0][:120] if str(e).strip() else ''}"


def namespaces():
    """Per column: a timeit namespace with xp (or torch) and arrays a, b (16,), a2d, m (4, 4); or an error."""
    rng = np.random.default_rng(0)
    base = {"a": rng.standard_normal(16), "b": rng.standard_normal(16),
            "a2d": rng.standard_normal((4, 4)), "m": rng.standard_normal((4, 4))}
    out = {"numpy": {"xp": np, **base}}
    for col, modname in (("npcompile._numpy", "npcompile._numpy"), ("torch._numpy", "torch._numpy")):
        try:
            import importlib
            xp = importlib.import_module(modname)
            out[col] = {"xp": xp, **{k: xp.asarray(v) for k, v in base.items()}}
        except Exception as e:  # noqa: BLE001 - the shim is under construction
            out[col] = _short(e)
    try:
        import torch
        out["torch"] = {"torch": torch, **{k: torch.from_numpy(v.copy()) for k, v in base.items()}}
    except Exception as e:  # noqa: BLE001
        out["torch"] = _short(e)
    return out


def measure(repeat=50):
    """label -> column -> microseconds per call (or an error string); a row's columns are timed in alternating
    rounds, so a change of load hits them alike."""
    spaces = namespaces()
    results = {}
    for label, np_stmt, torch_stmt in CASES:
        row = results[label] = {}
        stmts = {}
        for col in COLUMNS:
            ns, stmt = spaces[col], torch_stmt if col == "torch" else np_stmt
            if isinstance(ns, str):
                row[col] = ns
                continue
            try:
                eval(stmt, dict(ns))  # noqa: S307 - our own statements; fail early with the cell's error
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
    a = p.parse_args(argv)
    try:
        import torch
        torch.set_num_threads(1)  # tiny ops: keep intra-op threading out of the picture
    except Exception:  # noqa: BLE001
        pass
    results = measure(a.repeat)
    print("per-call CPU time in microseconds, 16-element float64 arrays (4x4 for a2d and m), minimum of "
          f"{a.repeat} rounds\nnnp/torch: shim overhead over raw torch; tnp/nnp: torch._numpy time / "
          "npcompile._numpy time (>1: ours faster); nnp/np: ours vs NumPy\n")
    print(table(results))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
