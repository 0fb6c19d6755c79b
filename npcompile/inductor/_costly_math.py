"""Loops computing costly math functions are vectorized even where they read strided or gathered data.

Inductor's C++ backend leaves a loop scalar when 12% of its ops or more are loads, stores or index values that are
not contiguous along the vectorized axis (or 35 of them): a rule for data movement, where a vector loop pays a
gather per such load.  A loop computing ``hypot``, ``exp``, ``tanh``... is then a libm call per element, and that
costs far more than the gathers: ``np.abs`` of a complex array (real and imaginary parts read with stride 2) ran
``std::hypot`` per element, 7.5 ms for 1M values on two cores, where the vector loop (SLEEF's hypot on gathered
pairs) takes 0.95 ms (NumPy 0.62).  Such loops are tiled as Inductor tiles them without the rule; the others as
before (turning the rule off everywhere made a batched 3x3 matmul 1.85x and a Jacobi sweep 1.15x slower).
"""

from __future__ import annotations

# ops whose scalar form is a libm call and whose vector form a vector function (SLEEF's or ours)
COSTLY = frozenset({"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
                    "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "hypot", "pow", "erf",
                    "erfc", "erfinv", "lgamma", "fmod"})


def vectorize_costly_math(select_tiling):
    """``TilingSelect.select_tiling`` that, where it chose no vectorization and a loop computes a ``COSTLY``
    function, chooses again with Inductor's tiling heuristics off (torch 2.11 returns two values, 2.13 three)."""
    from torch._inductor import config
    from torch._inductor.codegen.cpp_utils import _get_loop_body

    def select(self, fn_list, var_sizes_list):
        chosen = select_tiling(self, fn_list, var_sizes_list)
        if chosen[0] or not config.cpp.enable_tiling_heuristics or not _computes_costly_math(_get_loop_body(fn_list)):
            return chosen
        with config.patch({"cpp.enable_tiling_heuristics": False}):
            return select_tiling(self, fn_list, var_sizes_list)

    return select


def _computes_costly_math(loop_bodies) -> bool:
    return any(node.target in COSTLY for body in loop_bodies
               for block in [body.root_block, *body.subblocks.values()] for node in block.graph.nodes)
