"""Developer tool: compiled npcompile code against NumPy and the eager shim, op by op, on adversarial values.

    python -m tests.tracing.compiled_sweep                       # every dtype group, Inductor
    python -m tests.tracing.compiled_sweep -d int8 float16 -k div mod   # some dtypes, ops whose name has div/mod
    python -m tests.tracing.compiled_sweep --backend aot_eager    # the traced graph without Inductor's codegen

Not collected by pytest (no ``test_`` prefix), and slow: a dtype group is about 530 results, compiled 100 to a
function (each op NumPy accepts, applied to the grid of all value pairs and a 0-D array; some also to a
non-contiguous view and an empty array; reductions along each axis), 3-6 minutes per dtype on two busy cores, so
narrow it with -d and -k while working.  An op that cannot be captured in one graph is reported, not compiled.  Results are
compared in dtype, shape and value: exactly for bools and integers, bit for bit (zero signs and NaNs included) for
floats, where a difference of one unit in the last place is listed apart as ``ulp``.  Each line also says whether
the eager shim gives NumPy's answer, which tells a compiled-only difference from a shim one.  The ops NumPy refuses
on these inputs are compiled one by one and must raise NumPy's exception (NO-RAISE, OTHER-RAISE where not).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy

import npcompile
import npcompile._numpy as shim

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
DTYPES = ["bool", *INTS, *FLOATS, *COMPLEX]


# ------------------------------------------------------------------------------------------------ values
def values(dtype: str) -> numpy.ndarray:
    """About twenty adversarial values of ``dtype``: zeros, extremes, NaN/inf, rounding boundaries."""
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return numpy.array([False, True, True, False])
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        bits = dt.itemsize * 8
        vals = [0, 1, 2, 3, 7, bits - 1, bits, bits + 1, info.max, info.max - 1, 1 << (bits - 2)]
        if dt.kind == "i":
            vals += [-1, -2, -3, -7, -bits, info.min, info.min + 1]
        else:
            vals += [info.max // 2, info.max // 2 + 1]
        if bits == 64:  # rounded by float64, and by float32 (rounding through float64 rounds twice)
            vals += [2**53 + 1, 2**60 + 2**36 + 1]
        return numpy.array(vals, dtype=dt)
    if dt.kind == "f":
        info = numpy.finfo(dt)
        vals = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.0,
                info.max, -info.max, info.tiny, info.smallest_subnormal, -info.smallest_subnormal,
                numpy.nextafter(dt.type(0.5), dt.type(0)), 100.0]
        vals += [2.0 ** 31, -(2.0 ** 31) - 1, 2.0 ** 63, 300.0, -129.0, 65504.0, 65520.0]
        with numpy.errstate(over="ignore"):
            return numpy.array(vals, dtype=dt)
    base = values("float64" if dt.itemsize == 16 else "float32")
    re = base[[0, 1, 2, 3, 4, 5, 6, 7, 10, 14, 15, 17, 0, 2, 4, 5, 1, 9]]
    im = base[[0, 0, 1, 4, 0, 5, 2, 6, 11, 14, 4, 1, 2, 3, 4, 6, 1, 5]]
    return (re + 1j * im).astype(dt) if not numpy.isnan(im).any() else _complex(re, im, dt)


def _complex(re, im, dt):
    out = numpy.empty(re.shape, dt)
    out.real, out.imag = re, im
    return out


def inputs(dtype: str) -> dict:
    """The named inputs of one dtype group; ops take ``(x, y)`` or ``(x,)`` from these pairs."""
    v = values(dtype)
    n = len(v)
    big = numpy.zeros((3 * n, 5), dtype=v.dtype)
    big[::3, 2] = v
    big[1::3, 4] = v[::-1]
    strided = big[::3, ::2]  # (n, 3) non-contiguous, column 1 holds the values
    return {
        "grid": (v[:, None], v[None, :]),            # every pair of values (broadcast binary ops)
        "view": (strided, big[1::3, ::2]),           # non-contiguous 2-D views
        "0d": (numpy.array(v[min(4, n - 1)]), numpy.array(v[1])),
        "empty": (v[:0].reshape(0, 3), v[:0].reshape(0, 3)),
    }


# ------------------------------------------------------------------------------------------------ ops
def _iadd(np, x, y):
    c = x.copy()
    c += y
    return c


def _imul_cast(np, x, y):
    c = x.copy()
    np.multiply(c, y, out=c, casting="unsafe")
    return c


def _out_add(np, x, y):
    out = np.zeros(np.broadcast_shapes(x.shape, y.shape), dtype=np.float32)
    np.add(x, y, out=out, casting="unsafe")
    return out


def _setitem(np, x, y):
    c = np.zeros(x.shape, dtype=np.int16)
    c[...] = x.astype(np.int16)
    return c


UNARY = {
    "negative": lambda np, x: np.negative(x), "positive": lambda np, x: +x, "abs": lambda np, x: np.abs(x),
    "fabs": lambda np, x: np.fabs(x), "sign": lambda np, x: np.sign(x), "square": lambda np, x: np.square(x),
    "reciprocal": lambda np, x: np.reciprocal(x), "sqrt": lambda np, x: np.sqrt(x), "cbrt": lambda np, x: np.cbrt(x),
    "exp": lambda np, x: np.exp(x), "exp2": lambda np, x: np.exp2(x), "expm1": lambda np, x: np.expm1(x),
    "log": lambda np, x: np.log(x), "log2": lambda np, x: np.log2(x), "log10": lambda np, x: np.log10(x),
    "log1p": lambda np, x: np.log1p(x), "sin": lambda np, x: np.sin(x), "cos": lambda np, x: np.cos(x),
    "tan": lambda np, x: np.tan(x), "arcsin": lambda np, x: np.arcsin(x), "arccos": lambda np, x: np.arccos(x),
    "arctan": lambda np, x: np.arctan(x), "sinh": lambda np, x: np.sinh(x), "cosh": lambda np, x: np.cosh(x),
    "tanh": lambda np, x: np.tanh(x), "arcsinh": lambda np, x: np.arcsinh(x),
    "arccosh": lambda np, x: np.arccosh(x), "arctanh": lambda np, x: np.arctanh(x),
    "floor": lambda np, x: np.floor(x), "ceil": lambda np, x: np.ceil(x), "trunc": lambda np, x: np.trunc(x),
    "rint": lambda np, x: np.rint(x), "round0": lambda np, x: np.round(x), "round1": lambda np, x: np.round(x, 1),
    "round-1": lambda np, x: np.round(x, -1), "isnan": lambda np, x: np.isnan(x),
    "isinf": lambda np, x: np.isinf(x), "isfinite": lambda np, x: np.isfinite(x),
    "signbit": lambda np, x: np.signbit(x), "invert": lambda np, x: ~x,
    "logical_not": lambda np, x: np.logical_not(x), "nan_to_num": lambda np, x: np.nan_to_num(x),
    "nan_to_num_args": lambda np, x: np.nan_to_num(x, nan=-1.5, posinf=7, neginf=-7),
    "conj": lambda np, x: np.conj(x), "real": lambda np, x: np.real(x), "imag": lambda np, x: np.imag(x),
    "angle": lambda np, x: np.angle(x), "deg2rad": lambda np, x: np.deg2rad(x), "modf": lambda np, x: np.modf(x),
    "frexp": lambda np, x: np.frexp(x), "spacing": lambda np, x: np.spacing(x),
    "pow2": lambda np, x: x ** 2, "pow3": lambda np, x: x ** 3, "pow_half": lambda np, x: x ** 0.5,
    "pow_neg1": lambda np, x: x ** -1.0, "add1": lambda np, x: x + 1, "mul2.5": lambda np, x: x * 2.5,
    "floordiv0": lambda np, x: x // 0, "mod0": lambda np, x: x % 0, "floordiv-1": lambda np, x: x // -1,
    "mod-1": lambda np, x: x % -1, "floordiv3": lambda np, x: x // 3, "mod-3": lambda np, x: x % -3,
    "fmod-3": lambda np, x: np.fmod(x, -3), "truediv0": lambda np, x: x / 0,
    "lshift3": lambda np, x: x << 3, "rshift3": lambda np, x: x >> 3, "sub_from_0": lambda np, x: 0 - x,
    "bool": lambda np, x: x.astype(bool), "ne0": lambda np, x: x != 0, "gt0": lambda np, x: x > 0,
    "clip_1_5": lambda np, x: np.clip(x, 1, 5), "clip_nan": lambda np, x: np.clip(x, numpy.nan, 5.0),
    "clip_lohi": lambda np, x: np.clip(x, 5, 1), "copy_T": lambda np, x: x.T.copy(),
    "where_mixed": lambda np, x: np.where(x > 1, x, 1.5), "where_int": lambda np, x: np.where(x != 0, x, 7),
    "heaviside": lambda np, x: np.heaviside(x, 0.5),
}
for _name in DTYPES:  # every cast, and a round trip through float16 / float32
    UNARY[f"astype_{_name}"] = (lambda t: lambda np, x: x.astype(t))(_name)
UNARY["astype_f16_f32"] = lambda np, x: x.astype(numpy.float16).astype(numpy.float32)
UNARY["astype_f64_i32_u8"] = lambda np, x: x.astype(numpy.float64).astype(numpy.int32).astype(numpy.uint8)

BINARY = {
    "add": lambda np, x, y: x + y, "sub": lambda np, x, y: x - y, "mul": lambda np, x, y: x * y,
    "truediv": lambda np, x, y: x / y, "floordiv": lambda np, x, y: x // y, "mod": lambda np, x, y: x % y,
    "fmod": lambda np, x, y: np.fmod(x, y), "divmod": lambda np, x, y: np.divmod(x, y),
    "power": lambda np, x, y: np.power(x, y), "float_power": lambda np, x, y: np.float_power(x, y),
    "maximum": lambda np, x, y: np.maximum(x, y), "minimum": lambda np, x, y: np.minimum(x, y),
    "fmax": lambda np, x, y: np.fmax(x, y), "fmin": lambda np, x, y: np.fmin(x, y),
    "copysign": lambda np, x, y: np.copysign(x, y), "nextafter": lambda np, x, y: np.nextafter(x, y),
    "arctan2": lambda np, x, y: np.arctan2(x, y), "hypot": lambda np, x, y: np.hypot(x, y),
    "logaddexp": lambda np, x, y: np.logaddexp(x, y), "logaddexp2": lambda np, x, y: np.logaddexp2(x, y),
    "lshift": lambda np, x, y: x << y, "rshift": lambda np, x, y: x >> y, "and": lambda np, x, y: x & y,
    "or": lambda np, x, y: x | y, "xor": lambda np, x, y: x ^ y,
    "logical_and": lambda np, x, y: np.logical_and(x, y), "logical_xor": lambda np, x, y: np.logical_xor(x, y),
    "lt": lambda np, x, y: x < y, "le": lambda np, x, y: x <= y, "eq": lambda np, x, y: x == y,
    "ne": lambda np, x, y: x != y, "gcd": lambda np, x, y: np.gcd(x, y), "lcm": lambda np, x, y: np.lcm(x, y),
    "heaviside2": lambda np, x, y: np.heaviside(x, y), "ldexp": lambda np, x, y: np.ldexp(x, y),
    "iadd": _iadd, "imul_unsafe": _imul_cast, "out_add_f32": _out_add, "setitem_i16": _setitem,
    "where": lambda np, x, y: np.where(x > y, x, y), "clip_xy": lambda np, x, y: np.clip(x, y, 3),
    "isclose": lambda np, x, y: np.isclose(x, y),
}

REDUCE_AXES = {"all": None, "ax0": 0, "ax1": 1}
REDUCTIONS = {
    "sum": lambda np, x, a: np.sum(x, axis=a), "prod": lambda np, x, a: np.prod(x, axis=a),
    "mean": lambda np, x, a: np.mean(x, axis=a), "var": lambda np, x, a: np.var(x, axis=a),
    "std": lambda np, x, a: np.std(x, axis=a), "min": lambda np, x, a: np.min(x, axis=a),
    "max": lambda np, x, a: np.max(x, axis=a), "argmin": lambda np, x, a: np.argmin(x, axis=a),
    "argmax": lambda np, x, a: np.argmax(x, axis=a), "nanmin": lambda np, x, a: np.nanmin(x, axis=a),
    "nanmax": lambda np, x, a: np.nanmax(x, axis=a), "nansum": lambda np, x, a: np.nansum(x, axis=a),
    "nanmean": lambda np, x, a: np.nanmean(x, axis=a), "ptp": lambda np, x, a: np.ptp(x, axis=a),
    "cumsum": lambda np, x, a: np.cumsum(x, axis=a), "cumprod": lambda np, x, a: np.cumprod(x, axis=a),
    "all": lambda np, x, a: np.all(x, axis=a), "any": lambda np, x, a: np.any(x, axis=a),
    "count_nonzero": lambda np, x, a: np.count_nonzero(x, axis=a),
    # stable: NumPy's default sort leaves the order of equal values (0.0 and -0.0) to its SIMD algorithm
    "sort": lambda np, x, a: np.sort(x, axis=-1 if a is None else a, kind="stable"),
    "argsort": lambda np, x, a: np.argsort(x, axis=-1 if a is None else a, stable=True),
    "median": lambda np, x, a: np.median(x, axis=a), "sum_f64": lambda np, x, a: np.sum(x, axis=a, dtype=numpy.float64),
    "mean_f32": lambda np, x, a: np.mean(x, axis=a, dtype=numpy.float32),
}


# Elementwise ops also swept on the non-contiguous and the empty inputs (the rest: the value grid and 0-D).
LAYOUT_OPS = ("astype", "abs", "sign", "floordiv", "mod", "round", "nan_to_num", "add", "power", "where", "iadd",
              "out_add", "clip", "maximum", "fmax", "copysign", "lshift", "isnan")


def cases(dtype: str, pattern: list[str] | None):
    """(label, function of the numpy-like module, input arrays) for one dtype group."""
    ins = inputs(dtype)
    out = []
    for name, f in UNARY.items():
        for key, (x, _) in ins.items():
            if key in ("view", "empty") and not name.startswith(LAYOUT_OPS):
                continue
            out.append((f"{name}[{key}]", (lambda f: lambda np, x, y: f(np, x))(f), (x, x)))
    for name, f in BINARY.items():
        for key, (x, y) in ins.items():
            if key in ("view", "empty") and not name.startswith(LAYOUT_OPS):
                continue
            out.append((f"{name}[{key}]", f, (x, y)))
    v = values(dtype)
    for name, f in REDUCTIONS.items():
        for key, x in {"grid": numpy.broadcast_to(v[:, None], (len(v), 3)).copy(), "view": ins["view"][0],
                       "T": ins["view"][1].T, "empty": ins["empty"][0]}.items():
            for akey, a in REDUCE_AXES.items():
                if (key, akey) in (("view", "ax0"), ("view", "all"), ("T", "ax1"), ("T", "all"), ("empty", "ax0")):
                    continue
                out.append((f"{name}[{key},{akey}]", (lambda f, a: lambda np, x, y: f(np, x, a))(f, a), (x, x)))
    if pattern:
        out = [c for c in out if any(p in c[0] for p in pattern)]
    return out


# ------------------------------------------------------------------------------------------------ comparing
def _bits(a):
    a = numpy.asarray(a)
    if a.dtype.kind == "c":
        return numpy.concatenate([_bits(a.real), _bits(a.imag)])
    if a.dtype.kind == "f":
        nan = numpy.isnan(a)
        u = a.view(numpy.dtype(f"u{a.itemsize}")).copy()
        u[nan] = 1  # any NaN is NaN
        return u.ravel()
    return a.ravel()


def _ulp_close(a, b):
    a, b = numpy.asarray(a), numpy.asarray(b)
    if a.dtype.kind == "c":
        return _ulp_close(a.real, b.real) and _ulp_close(a.imag, b.imag)
    with numpy.errstate(all="ignore"):
        same = (a == b) | (numpy.isnan(a) & numpy.isnan(b))
        near = numpy.abs(a - b) <= numpy.spacing(numpy.maximum(numpy.abs(a), numpy.abs(b)))
        flipped = (a == 0) & (b == 0) & (numpy.signbit(a) != numpy.signbit(b))  # a zero's sign is no ulp
    return bool(numpy.all((same | near) & ~flipped))


def compare(want, got) -> str | None:
    """None when ``got`` is NumPy's ``want``; else 'ulp' or a short description of the difference."""
    if isinstance(want, tuple):
        if not isinstance(got, tuple) or len(got) != len(want):
            return f"type {type(got).__name__} != tuple"
        diffs = [compare(w, g) for w, g in zip(want, got)]
        bad = [d for d in diffs if d and d not in ("ulp", "0-D")]
        return bad[0] if bad else next((d for d in diffs if d), None)
    if type(want) is not type(numpy.asarray(got)) and not isinstance(got, (numpy.generic, numpy.ndarray)):
        return f"type {type(got).__name__}"
    w, g = numpy.asarray(want), numpy.asarray(got)
    if isinstance(want, numpy.generic) != isinstance(got, numpy.generic):
        if isinstance(got, numpy.generic) and w.ndim == 0 and compare(want[()], got) is None:
            return "0-D"  # a 0-D array result leaves a compiled function as a NumPy scalar (README)
        return f"scalar-ness {type(got).__name__} != {type(want).__name__}"
    if w.dtype != g.dtype:
        return f"dtype {g.dtype} != {w.dtype}"
    if w.shape != g.shape:
        return f"shape {g.shape} != {w.shape}"
    if numpy.array_equal(_bits(w), _bits(g)):
        return None
    if w.dtype.kind in "fc" and _ulp_close(w, g):
        return "ulp"
    bad = _bits(w) != _bits(g)
    wf, gf = w.ravel(), g.ravel()
    if w.dtype.kind == "c":
        bad = bad[:bad.size // 2] | bad[bad.size // 2:]
    idx = numpy.flatnonzero(bad)[:3]
    return f"{bad.sum()}/{bad.size} differ, e.g. " + ", ".join(f"{wf[i]!r}->{gf[i]!r}" for i in idx)


def _at(want, got, arrs):
    """The inputs of the first differing element, where the result has the inputs' broadcast shape."""
    if isinstance(want, tuple):
        return _at(want[0], got[0], arrs)
    w, g = numpy.asarray(want), numpy.asarray(got)
    try:
        xs = numpy.broadcast_arrays(*arrs)
    except ValueError:
        return ""
    if w.shape != g.shape or w.shape != xs[0].shape or w.dtype != g.dtype or w.size == 0:
        return ""
    bad = numpy.flatnonzero(_bits(w) != _bits(g)) % w.size
    return f" at inputs {xs[0].ravel()[bad[0]]!r}, {xs[1].ravel()[bad[0]]!r}" if bad.size else ""


def run_numpy(fn, arrs, np=numpy):
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return True, fn(np, *arrs)
        except Exception as e:  # noqa: BLE001 - NumPy's refusal decides what is swept
            return False, e


def to_numpy(x, like):
    """A shim result as NumPy would give it (the shim's scalars are 0-D arrays, a README deviation)."""
    if isinstance(x, tuple):
        return tuple(to_numpy(e, w) for e, w in zip(x, like))
    if isinstance(x, shim.ndarray):
        r = numpy.asarray(x)
        return r[()] if r.ndim == 0 and isinstance(like, numpy.generic) else r
    return x


# ------------------------------------------------------------------------------------------------ compiling
def _make(group, backend, fullgraph):
    fns = tuple(f for _, f, _ in group)

    def swept(*arrs):
        return tuple(f(numpy, arrs[2 * i], arrs[2 * i + 1]) for i, f in enumerate(fns))

    return npcompile.compile(swept, backend=backend, fullgraph=fullgraph)


def _flat(group):
    return [a for _, _, arrs in group for a in (arrs[0].copy() if arrs[0].ndim == 0 else arrs[0], arrs[1])]


def run_compiled(group, backend, chunk=None):
    """{label: result or exception} for ``group``, compiled ``chunk`` results per function (Inductor's
    fusion is quadratic in the graph's size), halving a chunk that fails down to the op that fails."""
    if chunk and len(group) > chunk:
        out = {}
        for i in range(0, len(group), chunk):
            out.update(run_compiled(group[i:i + chunk], backend))
        return out
    try:
        with numpy.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = _make(group, backend, True)(*_flat(group))
        return {label: r for (label, _, _), r in zip(group, res)}
    except Exception as e:  # noqa: BLE001 - find the op that fails by halving
        if len(group) == 1:
            return {group[0][0]: e}
        half = len(group) // 2
        return {**run_compiled(group[:half], backend), **run_compiled(group[half:], backend)}


def _capturable(group):
    """Split off the ops that Dynamo cannot capture in one graph (cheap: the eager backend)."""
    res = run_compiled(group, "eager", 400)
    broken = {label: r for label, r in res.items() if isinstance(r, Exception)}
    return [c for c in group if c[0] not in broken], broken


def unraised(refused, backend):
    """Report lines for the ops NumPy refuses whose compiled call (each alone; most fail while tracing) does not
    raise NumPy's exception: NO-RAISE where it returns, OTHER-RAISE where it raises another type."""
    report = []
    for label, f, arrs, want in refused:
        ok, got = run_numpy(lambda np, *a: _make([(label, f, arrs)], backend, False)(*a), _flat([(label, f, arrs)]))
        if not ok and isinstance(got, type(want)):
            continue
        ok_e, eager = run_numpy(f, tuple(shim.asarray(a.copy()) for a in arrs), shim)
        report.append((label, "NO-RAISE" if ok else "OTHER-RAISE",
                       f"NumPy raises {type(want).__name__}" + ("" if ok else f", compiled {type(got).__name__}"),
                       "eager raises it" if not ok_e and isinstance(eager, type(want)) else "eager does not"))
    return report


def sweep(dtype, pattern, backend, verbose, prefilter, chunk):
    group = []
    refused = []
    for label, f, arrs in cases(dtype, pattern):
        ok, want = run_numpy(f, arrs)
        (group if ok else refused).append((label, f, arrs, want))
    wants = {label: want for label, _, _, want in group}
    group = [(label, f, arrs) for label, f, arrs, _ in group]
    broken = {}
    if prefilter:
        group, broken = _capturable(group)
    t0 = time.perf_counter()
    got = run_compiled(group, backend, chunk)
    took = time.perf_counter() - t0
    report = []
    for label, f, arrs in group:
        r = got[label]
        if isinstance(r, Exception):
            report.append((label, "COMPILE-ERROR", f"{type(r).__name__}: {str(r).splitlines()[0][:200]}", ""))
            continue
        d = compare(wants[label], r)
        if d is None:
            continue
        kind = d if d in ("ulp", "0-D") else "DIFF"
        d += _at(wants[label], r, arrs)
        ok, eager = run_numpy(f, tuple(shim.asarray(a.copy()) for a in arrs), shim)
        ed = compare(wants[label], to_numpy(eager, wants[label])) if ok else f"eager raises {type(eager).__name__}"
        report.append((label, kind, d, "eager ok" if ed is None else f"eager: {ed}"))
    for label, e in broken.items():
        report.append((label, "NOT-CAPTURED", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}", ""))
    report += unraised(refused, backend)
    print(f"== {dtype}: {len(group)} results compiled ({backend}, {took:.1f} s), {len(refused)} refused by NumPy, "
          f"{sum(k == 'DIFF' for _, k, _, _ in report)} differ, {sum(k == 'ulp' for _, k, _, _ in report)} by an ulp "
          f"(listed with -v; a real difference for exact operations: casts, + - * /, sqrt)", flush=True)
    for label, kind, d, e in report:
        if kind not in ("ulp", "0-D") or verbose:
            print(f"  {kind:13s} {label:28s} {d}  [{e}]", flush=True)
    return report


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-d", "--dtypes", nargs="*", default=DTYPES)
    p.add_argument("-k", "--ops", nargs="*", help="only ops whose label contains one of these")
    p.add_argument("--backend", default="inductor")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list ulp differences and 0-D results that come back as NumPy scalars too")
    p.add_argument("--prefilter", action="store_true",
                   help="find the ops that cannot be captured with the eager backend first (saves Inductor "
                        "compiles when many cannot)")
    p.add_argument("--chunk", type=int, default=100, help="results per compiled function")
    args = p.parse_args(argv)
    npcompile.config.outline_loops = False
    npcompile.config.suppress_errors = False
    total = 0
    for dtype in args.dtypes:
        report = sweep(dtype, args.ops, args.backend, args.verbose, args.prefilter, args.chunk)
        total += sum(k not in ("ulp", "0-D") for _, k, _, _ in report)
        npcompile.reset()
    print(f"{total} differences")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
