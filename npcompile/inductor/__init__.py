"""Inductor backend choice and settings for NumPy code.

Inductor generates C++/OpenMP kernels on the CPU and Triton kernels on CUDA, by the device of the graph's tensors;
our backend picks the matching settings per graph.  ``inductor_options()`` gives the config overrides that
npcompile applies to *its own* compiles only: they travel as the ``options`` of the Inductor wrapper, which
applies them with ``torch._inductor.config.patch`` for the duration of each compile, so a plain
``torch.compile`` in the same process sees Inductor's defaults.
"""

from __future__ import annotations

import contextlib
import functools

import torch

# Why each setting:
_CPU_AND_CUDA = {
    # The Python wrapper starts instantly; the C++ wrapper adds a C++ compile per graph for a few µs per call.
    "cpp_wrapper": False,
    # Inductor may pad strides of intermediate/output buffers for alignment; NumPy results are C-contiguous
    # (or follow NumPy's own layout rules), and users look at .strides/.flags, so no padding.
    "comprehensive_padding": False,
    # Per-call assertions on input sizes/strides: Dynamo's guards already check these before the call; skipping
    # them trims per-call overhead for the small arrays where overhead matters.  (scalar_asserts stay: they check
    # what no guard can, data-dependent sizes, e.g. that two slices p[i]:p[i + 1] of arrays of different lengths
    # agree before a matmul; a graph without data-dependent sizes has none.)
    "size_asserts": False,
    "alignment_asserts": False,
    # NumPy rounds every float16 operation's result to float16; fused, Inductor would keep the intermediates in
    # float32 (a*b+c differed from NumPy in 23% of the elements).  Keep each rounding.
    "emulate_precision_casts": True,
}


# CPU only: Inductor's own CPU random numbers (a counter-based generator inlined per element, drawn in float32)
# run slower than ATen's vectorized generators (mc_option 55 -> 32 ms, random_walk 268 -> 131 ms at one
# thread).  The draws that dominate NumPy code (uniforms, normals, exponentials) do not reach either: in a CPU
# graph the shim computes them as hashes of their positions (``npcompile._numpy._hashed_draws``), which fuse
# and run on every core; the rest (integers, gamma, Poisson...) stay ATen's.  On CUDA, Inductor's Triton RNG
# is fast and fuses, so it stays.
_CPU_ONLY = {"fallback_random": True}


def _cpu_passes() -> dict:
    """Our graph passes for CPU graphs (imported on first compile: Inductor's modules load slowly).  Slice writes
    are reinplaced last, after the other passes have made their new nodes."""
    from ._blocked_arg_reductions import BlockedArgReductionPass
    from ._bool_masks import BoolMaskPass
    from ._broadcast_operands import BroadcastOperandPass
    from ._inline_growth import InlineGrowthPass
    from ._outer_reductions import OuterReductionPass
    from ._reinplace import ReinplacePass
    from ._roll_regions import RollRegionPass
    from ._small_axis_reductions import SmallAxisReductionPass
    from ._small_inner_axis import SmallInnerAxisPass
    from ._zero_led_scans import ZeroLedScanPass

    return {"post_grad_custom_pre_pass": OuterReductionPass(first=SmallAxisReductionPass(
                first=BlockedArgReductionPass())),
            "post_grad_custom_post_pass": ReinplacePass(first=InlineGrowthPass(first=BoolMaskPass(
                first=SmallInnerAxisPass(first=BroadcastOperandPass(first=RollRegionPass(first=ZeroLedScanPass()))))))}


def _exact_int64_to_float32(get_to_dtype_expr):
    """Inductor's vectorized int64 -> float32 conversion goes through float64 on AVX2 and rounds twice
    (2**60 + 2**36 + 1 gave 2**60; NumPy, eager torch and scalar C++: 2**60 + 2**37).  ATen's generic
    ``VecConvert`` (picked by an ``Enabled`` type no specialization has) casts lane by lane, rounding once."""

    def expr(self, src, dtype, src_dtype, *rest):  # (torch 2.13 adds ``rounding``; 2.11 has no such argument)
        if dtype == torch.float32 and src_dtype == torch.int64 and src.is_vec:
            n, m = self._get_num_vectors(dtype), self._get_num_vectors(src_dtype)
            conv = f"at::vec::VecConvert<float,{n},int64_t,{m},int>::apply({src})"
            return f"at::vec::Vectorized<float>({conv})" if n == 1 else conv
        return get_to_dtype_expr(self, src, dtype, src_dtype, *rest)

    return expr


def _double_scalar_args(cpp_argdefs):
    """Inductor passes a float read from the data (``float(a.sum())``: an unbacked SymFloat) into its C++ kernels
    as ``const float``, so ``np.full(3, float(a.max()))`` or a returned ``float(a[2])`` came back rounded to
    float32; a Python float is a double, and so is the argument here (``parse_arg<double>`` below reads it)."""

    def argdefs(self, *args, **kwargs):
        defs, call_args, types = cpp_argdefs(self, *args, **kwargs)
        scalar = [t == "const float" for t in types]  # pointers to float32 buffers read "const float*"
        return ([d.replace("float", "double", 1) if s else d for d, s in zip(defs, scalar)], call_args,
                ["const double" if s else t for t, s in zip(types, scalar)])

    return argdefs


_PARSE_DOUBLE = """
template <> inline double parse_arg<double>(PyObject* args, size_t n) {{
    auto result = PyFloat_AsDouble(PyTuple_GET_ITEM(args, n));
    if(result == -1.0 && PyErr_Occurred()) [[unlikely]]
        throw std::runtime_error("expected float arg");
    return result;
}}
"""


def _wrapping_integers(ffast_math_flags):
    """NumPy's integers wrap around; in C++ a signed overflow is undefined, and GCC's -O3 took it so in compiled
    code: the shim's uint64 ``%`` and ``//`` (made of int64 operations that overflow by design) gave 2**63 for
    every element of an FNV hash.  ``-fwrapv`` makes signed arithmetic wrap, as NumPy's does."""
    from torch._inductor import cpp_builder

    return lambda: ffast_math_flags() + ([] if cpp_builder._IS_WINDOWS else ["fwrapv"])


@contextlib.contextmanager
def _accurate_vector_code():
    """While our CPU graphs compile: our vector math (``_vector_math``), exact int64 -> float32 conversions,
    float64 scalar arguments, wrapping integer arithmetic, bool loads/stores as bytes (``_bool_vectors``), integer
    loads, conversions and division on AVX2 (``_avx2_integers``), SIMD transposed tiles of bytes
    (``_transposed_tiles``), vector loops for costly math (``_costly_math``), reductions of 1-byte integers
    that fold only the lanes holding elements (``_partial_lane_reductions``), sums, maxima and minima folding
    their lanes by shuffles in NumPy's order (``_lane_folds``), int64 -> float64 vector conversions in one AVX-512
    instruction (``_int64_doubles``), prefetches of the rows ahead in large
    inputs (``_prefetch``) and streaming stores for large outputs (``_streaming_stores``)."""
    from torch._inductor import cpp_builder
    from torch._inductor.codecache import CppPythonBindingsCodeCache
    from torch._inductor.codegen.common import KernelArgs
    from torch._inductor.codegen.cpp import CppVecKernel, CppVecOverrides, KernelGroup, TilingSelect

    from ._avx2_integers import integer_floordiv, integer_loads, with_avx2_integers
    from ._bool_vectors import fast_bool_casts, fast_bool_load, fast_bool_store
    from ._costly_math import vectorize_costly_math
    from ._int64_doubles import with_int64_doubles
    from ._lane_folds import tree_folds, with_lane_folds
    from ._partial_lane_reductions import whole_lanes_only
    from ._prefetch import prefetch_ahead
    from ._streaming_stores import streaming_stores, with_streaming_fence
    from ._transposed_tiles import with_byte_tiles
    from ._vector_math import OVERRIDES, with_vector_math

    swaps = [(CppVecOverrides, name, staticmethod(fn)) for name, fn in OVERRIDES.items()]
    swaps.append((CppVecOverrides, "floordiv", staticmethod(integer_floordiv(CppVecOverrides.floordiv))))
    swaps.append((CppVecKernel, "get_to_dtype_expr",
                  fast_bool_casts(_exact_int64_to_float32(CppVecKernel.get_to_dtype_expr))))
    swaps.append((CppVecKernel, "_get_vec_load_line", prefetch_ahead(integer_loads(fast_bool_load(
        CppVecKernel._get_vec_load_line)))))
    swaps.append((CppVecKernel, "_get_store_line", streaming_stores(fast_bool_store(CppVecKernel._get_store_line))))
    swaps.append((CppVecKernel, "reduction", tree_folds(whole_lanes_only(CppVecKernel.reduction))))
    swaps.append((KernelArgs, "cpp_argdefs", _double_scalar_args(KernelArgs.cpp_argdefs)))
    swaps.append((CppPythonBindingsCodeCache, "extra_parse_arg", _PARSE_DOUBLE))
    swaps.append((cpp_builder, "_get_ffast_math_flags", _wrapping_integers(cpp_builder._get_ffast_math_flags)))
    swaps.append((TilingSelect, "select_tiling", vectorize_costly_math(TilingSelect.select_tiling)))
    swaps.append((KernelGroup, "codegen_group", _with_preludes(KernelGroup.codegen_group, with_byte_tiles,
                                                               with_vector_math, with_avx2_integers,
                                                               with_lane_folds, with_int64_doubles,
                                                               with_streaming_fence)))
    with _swapped(swaps):
        yield


def _with_preludes(codegen_group, *add_preludes):
    """``KernelGroup.codegen_group`` whose C++ source goes through each of ``add_preludes`` (source -> source with
    the helper code it calls)."""

    def codegen(self, *args, **kwargs):
        source = codegen_group(self, *args, **kwargs)
        for add in add_preludes:
            source = add(source)
        return source

    return codegen


@contextlib.contextmanager
def _swapped(swaps):
    """Each ``(cls, name, fn)`` of ``swaps`` set as ``cls.name`` while the block runs."""
    saved = [(cls, name, cls.__dict__.get(name)) for cls, name, _ in swaps]
    for cls, name, fn in swaps:
        setattr(cls, name, fn)
    try:
        yield
    finally:
        for cls, name, fn in saved:
            if fn is None:
                delattr(cls, name)
            else:
                setattr(cls, name, fn)


@contextlib.contextmanager
def _contiguous_search_operands():
    """While our CPU graphs compile, ATen's ``searchsorted`` (Inductor's CPU code calls it) gets contiguous
    operands.  Handed strided ones (the shim's ``.contiguous()`` of a transposed array became a buffer in the
    array's own layout: ``np.digitize(a.T, bins)``), it copies them itself with a warning NumPy code never
    prints; here the copy is Inductor's, fused and silent."""
    from torch._inductor import lowering

    op, table = torch.ops.aten.searchsorted.Tensor, lowering._maybe_layout_constraints
    saved = table.get(op)
    table[op] = lowering.require_contiguous
    try:
        yield
    finally:
        if saved is None:
            del table[op]
        else:
            table[op] = saved


def _exact_index_values():
    """Inductor's index propagation computes integer values (an int argument ``n``, ``np.arange``'s positions) as
    sympy index expressions in int64, also across a cast to a float dtype or a narrower integer: ``np.float64(n) *
    n`` overflowed int64 (n = 2**40 gave 0.0), ``np.arange(300).astype(np.int8) // 3`` did not wrap (66 where int8
    gives -19); plain torch.compile 2.13 too.  Here such a value leaves the index expressions at the cast (a float
    or bool index expression, a cast that may change the value), and the kernel computes it in its own dtype."""
    from torch._inductor.index_propagation import SymPyOps, TypedExpr
    from torch._prims_common import is_integer_dtype

    def exact(dtype, src=torch.int64):  # (src: an index expression's dtype; a constant folds exactly anyway)
        return is_integer_dtype(dtype) and (dtype == src or dtype.is_signed and dtype.itemsize > src.itemsize or
                                            not src.is_signed and dtype.itemsize >= src.itemsize)

    def to_dtype(value, dtype, *args, **kwargs):
        if not value.is_constant() and not exact(dtype, value.dtype):
            return NotImplemented
        return TypedExpr(value.expr, dtype)

    def expr(make):
        return staticmethod(lambda value, dtype: make(value, dtype) if exact(dtype, dtype) else NotImplemented)

    swaps = [(SymPyOps, "to_dtype", staticmethod(to_dtype)), (SymPyOps, "index_expr", expr(SymPyOps.index_expr))]
    if hasattr(SymPyOps, "value_expr"):  # (torch 2.13)
        swaps.append((SymPyOps, "value_expr", expr(SymPyOps.value_expr)))
    return _swapped(swaps)


@functools.cache
def code_version() -> bytes:
    """A hash of this package's sources, our passes' ``uuid``: Inductor keys its compiled-graph cache on the
    passes' uuids, so code compiled before a change here (a pass, a setting, the vector-math swap above) is not
    reused from the on-disk cache."""
    from pathlib import Path

    from torch._inductor.custom_graph_pass import get_hash_for_files

    return get_hash_for_files(tuple(str(f) for f in sorted(Path(__file__).parent.glob("*.py"))))


def _known(options: dict) -> dict:
    """Drop keys this torch's Inductor does not have (settings differ across torch 2.11 to 2.13)."""
    import torch._inductor.config as ic

    out = {}
    for key, value in options.items():
        obj = ic
        try:
            for part in key.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        out[key] = value
    return out


def inductor_options(user_options: dict | None = None, device_type: str = "cpu") -> dict:
    """Inductor config overrides for an npcompile compile of a graph on ``device_type``; the user's ``options``
    win."""
    opts = _known({**_CPU_AND_CUDA, **({**_CPU_ONLY, **_cpu_passes()} if device_type == "cpu" else {})})
    if user_options:
        opts.update(user_options)
    return opts


def make_inductor_backend(mode: str | None, options: dict | None, dynamic: bool | None):
    """The Inductor backend callable (gm, example_inputs) -> compiled, with our scoped settings.

    ``torch._TorchCompileInductorWrapper`` is what ``torch.compile(backend="inductor", mode=..., options=...)``
    builds: it maps ``mode`` to config patches and applies everything with ``torch._inductor.config.patch``
    only while compiling.
    """
    merged = {}
    if mode is not None and mode != "default":
        from torch._inductor import list_mode_options

        merged.update(list_mode_options(mode, dynamic))
    merged.update(options or {})
    mode = None  # folded into the options (torch.compile itself refuses mode and options together)
    wrapper_cls = getattr(torch, "_TorchCompileInductorWrapper", None)

    def make(device_type):
        opts = inductor_options(merged, device_type)
        if wrapper_cls is None:  # pragma: no cover - torch layout changed
            from torch._inductor.compile_fx import compile_fx

            return lambda gm, ex: compile_fx(gm, ex, config_patches=opts)
        return wrapper_cls(mode, opts, dynamic)

    on_cpu, elsewhere = make("cpu"), make("cuda")

    def inductor(gm, example_inputs):
        device = next((t.device for t in example_inputs if isinstance(t, torch.Tensor)),
                      torch.get_default_device())
        with _exact_index_values():
            if device.type != "cpu":
                return elsewhere(gm, example_inputs)
            with _accurate_vector_code(), _contiguous_search_operands():
                return on_cpu(gm, example_inputs)

    inductor.compiler_name = "inductor"
    return inductor


__all__ = ["inductor_options", "make_inductor_backend"]
