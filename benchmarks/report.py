"""Tables for the terminal and the JSON file. Speedups are NumPy time / column time (above 1 = faster
than NumPy); 'npc:tc' is torch.compile time / npcompile time (above 1 = npcompile faster)."""
import json
import math
import os

from .columns import SHORT


def fmt_ms(seconds):
    if seconds is None:
        return "-"
    v = seconds * 1e3
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def fmt_bytes(b):
    if b is None:
        return "-"
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(b) >= scale:
            return f"{b / scale:.1f}{unit}"
    return f"{b}B"


def geomean(values):
    vals = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def _col(rec, key):
    return rec.get("columns", {}).get(key, {})


def _median(rec, key):
    c = _col(rec, key)
    return None if c.get("error") else c.get("median_s")


def speedup(rec, key):
    np_t, t = _median(rec, "numpy"), _median(rec, key)
    return np_t / t if np_t and t else None


def npc_vs_tc(rec):
    a, b = _median(rec, "npcompile"), _median(rec, "torch.compile")
    return b / a if a and b else None


def _table(header, rows, right_from=1):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    def line(r):
        return "  ".join(str(c).ljust(w) if i < right_from else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def _compile_cell(c):
    if c.get("error") or c.get("compile_s") is None:
        return "-"
    g = c.get("graphs")
    brk = c.get("graph_breaks") or 0
    graphs = "" if g is None else f" {g}g" + (f"/{brk}brk" if brk else "")
    return f"{c['compile_s']:.1f}s{graphs}"


def main_table(results, cols):
    keys = [c.key for c in cols]
    compiled = [c.key for c in cols if c.compiled]
    s = {k: SHORT[k] for k in keys}
    both = "npcompile" in keys and "torch.compile" in keys
    header = ["kernel"] + [f"{s[k]} ms" for k in keys] + [f"{s[k]} x" for k in compiled]
    header += ["npc:tc"] if both else []
    header += [f"%bw {s[k]}" for k in keys] + [f"compile {s[k]}" for k in compiled] + [f"ok {s[k]}" for k in compiled]
    rows = []
    for name, rec in results.items():
        row = [name]
        for k in keys:
            c = _col(rec, k)
            row.append("ERR" if c.get("error") else fmt_ms(c.get("median_s")))
        row += [fmt_ratio(speedup(rec, k)) for k in compiled]
        row += [fmt_ratio(npc_vs_tc(rec))] if both else []
        for k in keys:
            p = _col(rec, k).get("pct_triad")
            row.append("-" if p is None else f"{p:.0f}%")
        row += [_compile_cell(_col(rec, k)) for k in compiled]
        row += [_col(rec, k).get("ok", "ERR" if _col(rec, k).get("error") else "-") for k in compiled]
        rows.append(row)
    gm = geomeans(results, cols)
    foot = ["geomean"] + [""] * len(keys) + [fmt_ratio(gm.get(f"{k} speedup")) for k in compiled]
    foot += [fmt_ratio(gm.get("npc:tc"))] if both else []
    foot += [""] * (len(header) - len(foot))
    return _table(header, rows + [foot])


def geomeans(results, cols):
    out = {}
    for c in cols:
        if c.compiled:
            vals = [speedup(r, c.key) for r in results.values()]
            out[f"{c.key} speedup"] = geomean(vals)
            out[f"{c.key} kernels"] = sum(v is not None for v in vals)
    vals = [npc_vs_tc(r) for r in results.values()]
    out["npc:tc"] = geomean(vals)
    out["npc:tc kernels"] = sum(v is not None for v in vals)
    return out


def details(results, cols):
    """Errors, mismatches, graph breaks and loop-kernel compile times, one line each."""
    lines = []
    for name, rec in results.items():
        for k, c in rec.get("columns", {}).items():
            if c.get("error"):
                lines.append(f"ERR   {name} [{k}]: {c['error']}")
            elif c.get("ok") not in (None, "ok"):
                lines.append(f"{c['ok']:<5} {name} [{k}]: {c.get('ok_detail', '')}")
            for reason in c.get("graph_break_reasons", []):
                lines.append(f"BREAK {name} [{k}]: {reason}")
        if rec.get("loop_steps"):
            parts = []
            for k, c in rec.get("columns", {}).items():
                if c.get("compile_s") is not None and not c.get("error"):
                    parts.append(f"{k} compile {c['compile_s']:.1f} s (first call {c['first_call_s']:.1f} s, then {fmt_ms(c['median_s'])} ms/call)")
            if parts:
                lines.append(f"LOOP  {name}: {rec['loop_steps']}-step Python loop (torch.compile unrolls it, npcompile outlines it): " + "; ".join(parts))
    return "\n".join(lines)


def compile_table(compile_times):
    header = ["kernel", "column", "cold s", "warm s", "graphs", "start-up s", "note"]
    rows = []
    for name, per_col in compile_times.items():
        for k, r in per_col.items():
            cold, warm = r.get("cold", {}), r.get("warm", {})
            note = cold.get("error") or warm.get("error") or ""
            g = cold.get("graphs")
            rows.append([name, k, "-" if cold.get("compile_s") is None else f"{cold['compile_s']:.2f}",
                         "-" if warm.get("compile_s") is None else f"{warm['compile_s']:.2f}",
                         "-" if g is None else str(g),
                         "-" if cold.get("process_init_s") is None else f"{cold['process_init_s']:.2f}", note[:80]])
    return _table(header, rows, right_from=2)


def memory_table(memory, cuda=False):
    header = ["kernel", "column", "peak call", "inputs", "outputs", "peak 1st call"] + (["cuda peak"] if cuda else [])
    rows = []
    for name, per_col in memory.items():
        for k, r in per_col.items():
            if r.get("error"):
                rows.append([name, k, "ERR", "", "", r["error"][:60]] + ([""] if cuda else []))
                continue
            rows.append([name, k, fmt_bytes(r.get("peak_bytes")), fmt_bytes(r.get("input_bytes")),
                         fmt_bytes(r.get("output_bytes")), fmt_bytes(r.get("first_call_peak_bytes"))]
                        + ([fmt_bytes(r.get("cuda_peak_bytes"))] if cuda else []))
    return _table(header, rows, right_from=2)


def write_json(path, data):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, default=str)
    os.replace(tmp, path)
