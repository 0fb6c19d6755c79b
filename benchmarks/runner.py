"""Kernel benchmark runner: every kernel under NumPy, npcompile.compile and torch.compile in one process,
with the machine's triad bandwidth measured in the same run, results checked against NumPy, a table on
stdout and JSON on disk. Compile times from a cold/warm inductor cache and peak memory are measured in
fresh subprocesses (--compile-times, --memory) because in-process state would skew them."""
import argparse
import contextlib
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_JSON = os.path.join(HERE, "results", "latest.json")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument("--kernels", help="comma-separated kernel names (default: all)")
    p.add_argument("--size", choices=("small", "default", "gpu"), default="default")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--repeat", type=int, help="fixed number of timed samples (default: adaptive, ~0.5 s each)")
    p.add_argument("--tensors", action="store_true",
                   help="compiled columns take and return torch tensors on --device (wrap_numpy), inputs moved "
                        "there once; numpy runs on the CPU")
    p.add_argument("--no-torch-compile", action="store_true")
    p.add_argument("--no-npcompile", action="store_true")
    p.add_argument("--cold", action="store_true",
                   help="start from an empty inductor cache (fresh TORCHINDUCTOR_CACHE_DIR, one per column)")
    p.add_argument("--compile-times", action="store_true",
                   help="also measure cold and warm-cache compile times in fresh subprocesses")
    p.add_argument("--memory", action="store_true", help="also measure peak memory per call in subprocesses")
    p.add_argument("--threads", type=int, help="torch intra-op threads (default: torch's choice, all cores)")
    p.add_argument("--json", default=DEFAULT_JSON, help="where to write results (default: %(default)s)")
    p.add_argument("--list", action="store_true", help="list kernels and exit")
    return p.parse_args(argv)


def _short_error(e):
    msg = str(e).strip().splitlines()
    return f"{type(e).__name__}: {msg[0][:200] if msg else ''}"


def _machine(args):
    import numpy as np
    info = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "loadavg_start": os.getloadavg(),
        "args": vars(args),
    }
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), None)
    except OSError:
        pass
    try:
        import torch
        info["torch"] = torch.__version__
        info["torch_threads"] = torch.get_num_threads()
        if args.device == "cuda":
            info["cuda_device"] = torch.cuda.get_device_name()
    except Exception as e:  # noqa: BLE001
        info["torch"] = _short_error(e)
    try:
        info["git_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                                            text=True, timeout=10).stdout.strip()
    except Exception:  # noqa: BLE001
        pass
    return info


def run_kernel(mod, cols, args, triad, cold_root):
    """Measure one kernel in every column; returns its JSON record."""
    from . import bandwidth, timing
    from . import inputs as kin
    from .columns import dynamo_counts
    from .verify import as_outputs, compare

    arrays = kin.make(mod, args.size)
    nbytes = mod.BYTES(arrays) if mod.MEMORY_BOUND else None
    rec = {"inputs": kin.describe(arrays), "memory_bound": bool(mod.MEMORY_BOUND), "bytes": nbytes,
           "loop_steps": getattr(mod, "LOOP_STEPS", None), "columns": {}}
    ref, ready = None, {}
    for col in cols:  # first (compiling) call and verification, one column after the other
        c = rec["columns"][col.key] = {}
        if col.key != "numpy" and ref is None:
            c["error"] = "no NumPy reference"
            continue
        try:
            if cold_root and col.compiled:
                _fresh_inductor_cache(os.path.join(cold_root, col.key.replace(".", "_")))
            fn = col.build(mod.kernel, args.device)
            with dynamo_counts(c) if col.dynamo else contextlib.nullcontext():
                c["first_call_s"], result = timing.first_call(fn, arrays)
            outputs = as_outputs(result)
            if col.key == "numpy":
                ref = outputs
            else:
                c["ok"], c["ok_detail"] = compare(mod, ref, outputs)
            del result, outputs
            ready[col.key] = fn
        except Exception as e:  # noqa: BLE001 - one kernel's failure must not stop the run
            c["error"] = _short_error(e)
    # memory-bound kernels are timed together with a triad of their byte count on each device they run on
    triads = {f"triad {dev}": bandwidth.matched_triad(nbytes, dev) for dev in triad} if nbytes else {}
    try:  # steady-state timing, the columns sampled in alternation
        stats = timing.measure_interleaved({**ready, **triads}, arrays, repeat=args.repeat)
    except Exception:  # noqa: BLE001 - a column that fails only on later calls: time them one by one
        stats = {key: timing.measure(fn, arrays, repeat=args.repeat) for key, fn in triads.items()}
        for key, fn in ready.items():
            try:
                stats[key] = timing.measure(fn, arrays, repeat=args.repeat)
            except Exception as e:  # noqa: BLE001
                rec["columns"][key]["error"] = _short_error(e)
    if nbytes:
        rec["triad"] = {dev: {**stats[f"triad {dev}"], "gbps": nbytes / stats[f"triad {dev}"]["median_s"] / 1e9}
                        for dev in triad}
    for col in cols:
        c = rec["columns"][col.key]
        if col.key not in stats:
            continue
        c.update(stats[col.key])
        if col.compiled:
            c["compile_s"] = max(0.0, c["first_call_s"] - c["median_s"])
        if nbytes:
            dev = "cpu" if col.key == "numpy" else args.device
            c["gbps"] = nbytes / c["median_s"] / 1e9
            c["pct_triad"] = 100.0 * c["gbps"] / rec["triad"][dev]["gbps"]
            c["pct_machine_triad"] = 100.0 * c["gbps"] / triad[dev]["median_gbps"]
    return rec


def _fresh_inductor_cache(directory):
    """Point Inductor at its own on-disk cache dir and drop its in-memory caches, so a column does not
    reuse code another column compiled for the same graph in this process (--cold)."""
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = directory
    try:
        from torch._inductor.utils import clear_caches
        clear_caches()
    except Exception:  # noqa: BLE001 - older or newer torch without it: the dir switch still applies
        pass


def _probe(task, kernel, column, args, cache_dir, timeout=900):
    from .probe import MARK
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache_dir,
               # fixed mmap threshold: big blocks are mmapped and returned on free, so RSS tracks them
               MALLOC_MMAP_THRESHOLD_="131072")
    cmd = [sys.executable, "-m", "benchmarks.probe", task, "--kernel", kernel, "--column", column,
           "--size", args.size, "--device", args.device]
    try:
        p = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout} s"}
    for line in reversed(p.stdout.splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": f"probe exit {p.returncode}: {tail[:200]}"}


def compile_times(mods, cols, args):
    """Per compiled column: first-call compile time with an empty cache dir (cold), then again in a new
    process reusing that dir (warm: inductor's FX-graph and autograd caches hit, Dynamo still traces)."""
    out = {}
    for mod in mods:
        out[mod.NAME] = {}
        for col in cols:
            if not col.dynamo:
                continue
            with tempfile.TemporaryDirectory(prefix="npc-bench-cache-") as d:
                cold = _probe("compile", mod.NAME, col.key, args, d)
                warm = _probe("compile", mod.NAME, col.key, args, d)
            out[mod.NAME][col.key] = {"cold": cold, "warm": warm}
            print(f"  compile {mod.NAME} [{col.key}]: cold {cold.get('compile_s', cold.get('error'))}, "
                  f"warm {warm.get('compile_s', warm.get('error'))}", file=sys.stderr, flush=True)
    return out


def memory(mods, cols, args, cache_dir):
    out = {}
    for mod in mods:
        out[mod.NAME] = {}
        for col in cols:
            out[mod.NAME][col.key] = r = _probe("memory", mod.NAME, col.key, args, cache_dir)
            print(f"  memory {mod.NAME} [{col.key}]: peak {r.get('peak_bytes', r.get('error'))}",
                  file=sys.stderr, flush=True)
    return out


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    cold_root = None
    if args.cold:  # before torch is imported, so nothing reads the default cache dir first
        cold_root = tempfile.mkdtemp(prefix="npc-bench-cold-")
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cold_root
    try:
        return _run(args, cold_root)
    finally:
        if cold_root:
            shutil.rmtree(cold_root, ignore_errors=True)


def _run(args, cold_root):
    from . import bandwidth, kernels, report
    from .columns import select, warm_up

    if args.threads:
        import torch
        torch.set_num_threads(args.threads)

    if args.list:
        for name in kernels.kernel_names():
            m = kernels.load(name)
            print(f"{name:22s} {'memory-bound' if m.MEMORY_BOUND else ''}")
        return 0
    mods = kernels.load_all(args.kernels.split(",") if args.kernels else None)
    cols, notes = select(args.no_npcompile, args.no_torch_compile, args.tensors)
    if args.device == "cuda":
        import torch
        if not torch.cuda.is_available():
            raise SystemExit("--device cuda: torch.cuda is not available")
    if args.tensors:
        notes.append(f"--tensors: compiled columns run on torch tensors on {args.device} through wrap_numpy "
                     "(npcompile.wrap_numpy, torch.compiler.wrap_numpy), inputs moved there once")
    elif args.device == "cuda":
        notes.append("cuda: compiled columns run under torch.device('cuda') with NumPy inputs and outputs "
                     "(host<->device copies are part of each call); numpy runs on the CPU")
    if cold_root:
        notes.append(f"--cold: inductor cache dirs under {cold_root} (one per column), empty at start")
    data = {"machine": _machine(args), "columns": [c.key for c in cols], "notes": notes, "kernels": {}}

    print("measuring triad bandwidth ...", file=sys.stderr, flush=True)
    triad = {"cpu": bandwidth.triad("cpu")}
    if args.device == "cuda":
        triad["cuda"] = bandwidth.triad("cuda")
    data["triad"] = triad

    data["process_init_s"] = {}
    for col in cols:
        if col.dynamo:
            try:
                data["process_init_s"][col.key] = warm_up(col, args.device)
            except Exception as e:  # noqa: BLE001
                notes.append(f"{col.key}: warm-up of a trivial function failed: {_short_error(e)}")

    t_start = time.perf_counter()
    for i, mod in enumerate(mods, 1):
        rec = run_kernel(mod, cols, args, triad, cold_root)
        data["kernels"][mod.NAME] = rec
        summary = ", ".join(f"{k} {'ERR' if c.get('error') else report.fmt_ms(c.get('median_s')) + ' ms'}"
                            for k, c in rec["columns"].items())
        print(f"[{i}/{len(mods)}] {mod.NAME}: {summary}", file=sys.stderr, flush=True)
        data["geomean"] = report.geomeans(data["kernels"], cols)
        report.write_json(args.json, data)  # partial results survive an interrupted run
    data["elapsed_s"] = time.perf_counter() - t_start
    data["machine"]["loadavg_end_of_timing"] = os.getloadavg()

    if args.compile_times:
        print("compile times (fresh subprocesses) ...", file=sys.stderr, flush=True)
        data["compile_times"] = compile_times(mods, cols, args)
        report.write_json(args.json, data)
    if args.memory:
        print("peak memory (fresh subprocesses) ...", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix="npc-bench-mem-") as d:
            data["memory"] = memory(mods, cols, args, os.environ.get("TORCHINDUCTOR_CACHE_DIR", d))
        report.write_json(args.json, data)

    m = data["machine"]
    tr = triad["cpu"]
    print(f"\nnpcompile benchmarks: size={args.size} device={args.device}  {m.get('cpu')} x{m.get('cpu_count')}  "
          f"numpy {m['numpy']}  torch {m.get('torch')} ({m.get('torch_threads')} threads)")
    print(f"triad a=b+s*c on {tr['array_mb']:.0f} MB float64 arrays: numpy {tr.get('numpy_gbps', 0):.1f} GB/s, "
          f"torch {tr.get('torch_gbps', 0):.1f} GB/s -> {tr['best_gbps']:.1f} GB/s "
          "(the machine's figure; %bw compares each kernel with a triad of its own size)"
          + (f"; cuda {triad['cuda']['best_gbps']:.0f} GB/s" if "cuda" in triad else ""))
    busy = max(m["loadavg_start"][0], m["loadavg_end_of_timing"][0])
    if busy - 1.0 > 0.5 * (m["cpu_count"] or 1):  # this run itself keeps about one core busy
        print(f"WARNING: machine busy (1-min load average {busy:.1f} on {m['cpu_count']} cores): other processes "
              "compete for the cores; multi-threaded columns suffer most (OpenMP threads wait for descheduled ones)")
    print("ms: median per call; x: speedup vs NumPy; npc:tc: torch.compile time / npcompile time; "
          "%bw: bytes moved / median time as % of a triad moving the same bytes, timed in the same rounds "
          "(memory-bound kernels); compile: first call - median (g = graphs)\n")
    if data["process_init_s"]:
        print("one-off Dynamo/Inductor start-up, compiling a trivial function first (not in 'compile'; the first "
              "column also pays Inductor's start-up, shared by all): "
              + ", ".join(f"{k} {v:.1f} s" for k, v in data["process_init_s"].items()) + "\n")
    print(report.main_table(data["kernels"], cols))
    for n in notes:
        print(f"note: {n}")
    det = report.details(data["kernels"], cols)
    if det:
        print("\n" + det)
    if "compile_times" in data:
        print("\ncompile times, fresh process (cold = empty inductor cache dir, warm = same dir reused):\n")
        print(report.compile_table(data["compile_times"]))
    if "memory" in data:
        print("\npeak memory of one warm call above the resident set before it (VmHWM - VmRSS, fresh process):\n")
        print(report.memory_table(data["memory"], cuda=args.device == "cuda"))
    print(f"\nJSON: {args.json}")
    return 0
