"""Issue 5's example, ``np.sum(X[:, :, None] * Y[:, None, :], axis=(-2, -1))`` on 1024x64 tensors, timed on a
device (CUDA when there is one) as a function of tensors: npcompile's wrap_numpy eagerly, under
``npcompile.compile`` and under a plain ``torch.compile``; torch's own ``torch.compiler.wrap_numpy`` under
``torch.compile``; and NumPy on the CPU for reference.

    python -m benchmarks.wrap_numpy_example [--device cuda|cpu]
"""
import argparse
import statistics
import time

import numpy as np
import torch


def outer_sum(X, Y):
    return np.sum(X[:, :, None] * Y[:, None, :], axis=(-2, -1))


def _per_call(fn, args, sync, repeat=7, min_s=0.05):
    fn(*args)
    sync()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn(*args)
        sync()
        if time.perf_counter() - t0 >= min_s:
            break
        n *= 4
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn(*args)
        sync()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


def main(argv=None):
    import npcompile

    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = p.parse_args(argv)
    sync = torch.cuda.synchronize if args.device.startswith("cuda") else (lambda: None)
    print(f"device {args.device} ({torch.cuda.get_device_name() if args.device.startswith('cuda') else 'CPU'}), "
          f"torch {torch.__version__}, numpy {np.__version__}")
    rows = []
    for dtype in (np.float32, np.float64):
        rng = np.random.default_rng(0)
        Xh, Yh = (rng.standard_normal((1024, 64)).astype(dtype) for _ in range(2))
        X, Y = (torch.from_numpy(a).to(args.device) for a in (Xh, Yh))
        want = outer_sum(Xh, Yh)
        columns = {
            "numpy (cpu)": (outer_sum, (Xh, Yh), lambda: None),
            "wrap_numpy eager": (npcompile.wrap_numpy(outer_sum), (X, Y), sync),
            "npcompile.compile(wrap_numpy)": (npcompile.compile(npcompile.wrap_numpy(outer_sum)), (X, Y), sync),
            "torch.compile(wrap_numpy)": (torch.compile(npcompile.wrap_numpy(outer_sum)), (X, Y), sync),
            "torch.compile(torch.compiler.wrap_numpy)":
                (torch.compile(torch.compiler.wrap_numpy(outer_sum)), (X, Y), sync),
        }
        for name, (fn, fargs, fsync) in columns.items():
            try:
                got = fn(*fargs)
                got = got.cpu().numpy() if isinstance(got, torch.Tensor) else got
                ok = np.allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-3)
                rows.append((np.dtype(dtype).name, name, _per_call(fn, fargs, fsync) * 1e6, ok))
            except Exception as e:  # noqa: BLE001 - one column's failure is a row of the table
                rows.append((np.dtype(dtype).name, name, None, f"{type(e).__name__}: {str(e)[:80]}"))
    base = {d: t for d, n, t, _ in rows if n == "numpy (cpu)"}
    print(f"{'dtype':8} {'column':42} {'us/call':>10} {'x numpy':>8}  ok")
    for d, n, t, ok in rows:
        ts = f"{t:10.1f}" if t else f"{'ERR':>10}"
        print(f"{d:8} {n:42} {ts} {base[d] / t if t else 0:8.2f}  {ok}")


if __name__ == "__main__":
    main()
