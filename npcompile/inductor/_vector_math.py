"""Vector math of our C++ kernels where Inductor's vectorized functions are inaccurate or slow.

Inaccurate: Inductor's vectorized C++ writes expm1 as exp(x) - 1 and atanh as log((1 + x) / (1 - x)) / 2 "for
speed": both cancel near 0 (compiled expm1(1e-10) gave 0 in float32, 1.0000000827e-10 in float64; atanh(1e-7)
was 19% off; -0.0 lost its sign).  Ours call ATen's vectorized (SLEEF, 1-ulp) functions.  SLEEF's acosh gives inf
above sqrt of the dtype's max (arccosh(1.8e308) is 710.48); above 2**28 it is log(x) + log(2), as C's acosh
computes it there.

Slow: float32 tanh.  SLEEF's (``Sleef_tanhf16_u10``) took 6.4 ms for 4M elements on our two cores, NumPy's 1.7
to 2.5 ms on one, so a compiled GELU ran at 20% of the memory bandwidth.  Ours is two branches on |x| computed for
every lane and blended: below 0.9 an odd polynomial, x + x s Q(s) with s = x**2 and Q fitted here (a weighted
least-squares fit of (tanh(x) - x) / x**3 on Chebyshev nodes, rounded to float32); from 0.9 on,
1 - 2 / (exp(2|x|) + 1) on SLEEF's 1-ulp expf, which saturates to 1 and takes inf and NaN as tanh does; then x's
sign by a bit mask (so tanh(-0.0) is -0.0; ``copysign`` is a call into SLEEF and cost as much as the rest).
4M elements: 1.8 ms; the GELU benchmark 8.4 -> 3.6 to 4.3 ms.  Error against a long-double reference on 16M float32
values over every binade: at most 0.97 ulp (NumPy's own float32 tanh: 1.36, SLEEF's 1.0).  Only
``Vectorized<float>`` takes it; float64 (where the polynomial would need twice the terms) keeps SLEEF's.
"""

from __future__ import annotations

from ._transposed_tiles import _PREFIX

_TANH = r"""
#ifndef NPC_VEC_MATH
#define NPC_VEC_MATH
namespace npc_vec_math {
template <typename V>
inline V tanh(const V& x) {
  if constexpr (std::is_same_v<V, at::vec::Vectorized<float>>) {
    V a = x.abs();
    V s = a * a;
    V q = V(-0.00045608545769937336f);
    q = at::vec::fmadd(q, s, V(0.0025843291077762842f));
    q = at::vec::fmadd(q, s, V(-0.008266231045126915f));
    q = at::vec::fmadd(q, s, V(0.02166435308754444f));
    q = at::vec::fmadd(q, s, V(-0.05392948165535927f));
    q = at::vec::fmadd(q, s, V(0.13332979381084442f));
    q = at::vec::fmadd(q, s, V(-0.33333322405815125f));
    V small = at::vec::fmadd(a * s, q, a);
    V big = V(1.0f) - V(2.0f) / ((a + a).exp() + V(1.0f));
    return V::blendv(big, small, a < V(0.9f)) | (x & V(-0.0f));  // x's sign (copysign is a call into SLEEF)
  } else {
    return x.tanh();
  }
}
}  // namespace npc_vec_math
#endif
"""


def _acosh(x):
    return (f"decltype({x})::blendv({x}.acosh(), {x}.log() + decltype({x})(0.6931471805599453), "
            f"decltype({x})(268435456.0) < {x})")


def _copysign(x, y):
    return f"({x}.abs() | ({y} & decltype({y})(-0.0)))"


# CppVecOverrides methods: the C++ expression of each op on vector variables.
OVERRIDES = {"expm1": lambda x: f"{x}.expm1()", "atanh": lambda x: f"{x}.atanh()", "acosh": _acosh,
             "tanh": lambda x: f"npc_vec_math::tanh({x})", "copysign": _copysign}


def with_vector_math(source: str) -> str:
    """``source`` (a C++ kernel group) with the functions above when it calls them."""
    if "npc_vec_math::" not in source or _PREFIX not in source:
        return source
    return source.replace(_PREFIX, _PREFIX + _TANH, 1)
