"""Subprocess worker: one (kernel, column) measured in a fresh interpreter, for what an in-process run
cannot measure cleanly. `memory`: the extra resident memory at the peak of one warm call (and of the
first, compiling call); `compile`: first-call time, whose inductor cache state the parent controls
through TORCHINDUCTOR_CACHE_DIR (empty dir = cold, reused dir = warm). Prints one JSON line."""
import argparse
import contextlib
import gc
import json
import statistics
import sys
import time

MARK = "PROBE_JSON "


def _column(key):
    from .columns import ALL

    for cls in ALL:
        if cls.key == key:
            return cls()
    raise SystemExit(f"unknown column {key}")


def run(task, kernel, column, size, device):
    from . import inputs as kin
    from . import kernels, procmem
    from .columns import dynamo_counts, warm_up

    mod = kernels.load(kernel)
    col = _column(column)
    args = kin.make(mod, size)
    if col.dynamo:
        import torch  # noqa: F401 - imported before the first call, so its memory is not counted
        import torch._dynamo.utils  # noqa: F401
    out = {"kernel": kernel, "column": column, "size": size, "device": device}
    if col.dynamo:
        out["process_init_s"] = warm_up(col, device)
    fn = col.build(mod.kernel, device)
    gc.collect()
    cuda = device != "cpu"
    if cuda:
        import torch

        torch.cuda.synchronize()
    rss_before_first = procmem.rss_bytes()
    out["hwm_resettable"] = procmem.reset_hwm()
    with dynamo_counts(out) if col.dynamo else contextlib.nullcontext():
        t0 = time.perf_counter()
        result = fn(*args)
        out["first_call_s"] = time.perf_counter() - t0
    out["first_call_peak_bytes"] = procmem.hwm_bytes() - rss_before_first
    del result
    steady = []
    for _ in range(3):
        t0 = time.perf_counter()
        result = fn(*args)
        steady.append(time.perf_counter() - t0)
        del result
    out["steady_s"] = statistics.median(steady)
    out["compile_s"] = max(0.0, out["first_call_s"] - out["steady_s"])
    if task == "memory":
        gc.collect()
        if cuda:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            cuda_base = torch.cuda.memory_allocated()
        rss0 = procmem.rss_bytes()
        procmem.reset_hwm()
        result = fn(*args)
        out["peak_bytes"] = procmem.hwm_bytes() - rss0
        if cuda:
            out["cuda_peak_bytes"] = torch.cuda.max_memory_allocated() - cuda_base
        from .verify import as_outputs

        out["output_bytes"] = int(sum(a.nbytes for a in as_outputs(result)))
        out["input_bytes"] = int(sum(a.nbytes for a in args))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("task", choices=("memory", "compile"))
    p.add_argument("--kernel", required=True)
    p.add_argument("--column", required=True)
    p.add_argument("--size", default="default")
    p.add_argument("--device", default="cpu")
    a = p.parse_args(argv)
    try:
        res = run(a.task, a.kernel, a.column, a.size, a.device)
    except Exception as e:  # noqa: BLE001 - reported to the parent as data
        res = {"error": f"{type(e).__name__}: {str(e).strip().splitlines()[0][:200] if str(e).strip() else ''}"}
    sys.stdout.flush()
    print(MARK + json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
