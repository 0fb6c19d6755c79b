"""Vector math of our C++ kernels where Inductor's vectorized functions are inaccurate or slow.

Inaccurate: Inductor's vectorized C++ writes expm1 as exp(x) - 1 and atanh as log((1 + x) / (1 - x)) / 2 "for
speed": both cancel near 0 (compiled expm1(1e-10) gave 0 in float32, 1.0000000827e-10 in float64; atanh(1e-7)
was 19% off; -0.0 lost its sign).  Ours call ATen's vectorized (SLEEF, 1-ulp) functions.  SLEEF's acosh gives inf
above sqrt of the dtype's max (arccosh(1.8e308) is 710.48); above 2**28 it is log(x) + log(2), as C's acosh
computes it there.  ATen's float32 sin and cos are SLEEF's 3.5-ulp functions (2.3 ulp seen over 4M values;
NumPy's: 1.44): ours call its 1-ulp ones (0.85 ulp there), which take twice as long (sin*cos of 4M float32 in
[-10, 10]: 2.7 -> 5.8 ms; NumPy 11.5 ms).

Slow: float32 tanh.  SLEEF's (``Sleef_tanhf16_u10``) took 6.4 ms for 4M elements on our two cores, NumPy's 1.7
to 2.8 ms on one, so a compiled GELU ran at 20% of the memory bandwidth.  With AVX-512 ours has no exp and no
division: a polynomial per quarter binade of |x| (32 intervals from 2**-4 to 16, the first reaching down to 0),
its coefficients picked per lane from 32-entry tables by one permute each, the value at the interval's start
split in two floats (hi + lo) so that rounding it costs no accuracy.  The coefficients were fitted here (weighted
least squares of tanh in long double toward a minimax fit, rounded to float32 one at a time with the rest refitted).
Every float32 from 0 to 18 checked against long double tanh: at most 0.71 ulp (NumPy's own: 1.36, SLEEF's 1.0).
4M elements: 0.88 ms, where the two-branch float32 code named below took 1.55 ms on the same 16 lanes
(interleaved in one process); a copy takes about 0.9.
Other vector widths (AVX2's 8 lanes) work in float64, where nothing cancels that float32 needs:
tanh(a) = m / (m + 2), m = expm1(2a) from a power of two and a polynomial, one division and no branch; every
float32 from 0 to 18 within 0.503 ulp of float64 tanh.  It replaced two float32 branches blended per lane (a
polynomial below 0.9, 1 - 2 / (exp(2a) + 1) on SLEEF's expf above: 0.97 ulp) and is faster (4M values,
interleaved, FX graph cache off: one thread 4.7 against 5.6 ms, two 2.7 against 3.0); its own exp because
SLEEF's float64 exp made it 13.2 ms; the float32 forms we tried that were faster came out at 1.05 to 1.5 ulp.
All put x's sign back by a bit mask (tanh(-0.0) is -0.0; ``copysign`` is a call into SLEEF and cost as much as
the rest) and take inf and NaN as tanh does.  float64 tanh (where a polynomial would need twice the terms) keeps
SLEEF's.

``isnan`` and ``isinf`` had no vector form: each vector was stored and tested lane by lane with the C function
(``np.isnan(a).sum()`` of 4M float64 4.4 ms, NumPy 3.1); ours are lane compares (1.0 ms), as are the shim's uses of
them (``fmax``, ``sign``, the NaN handling of ``maximum`` on complex values).

float32 sinh and cosh: ATen's vector forms ran the scalar function lane by lane (4M values: 7.1 ms, NumPy 2.0).
Ours take exp in float64 (SLEEF's) and one division, ``(e - 1/e) / 2``, which keeps every bit float32 needs from
|x| = 2**-9 up (below, x + x**3/6): 0.5 ulp over float32 (NumPy's own 1.4 and 2.1), overflow where float32's is;
4.2 ms, the float64 exps being most of it.
"""

from __future__ import annotations

from ._transposed_tiles import _PREFIX

_TANH = r"""
#ifndef NPC_VEC_MATH
#define NPC_VEC_MATH
namespace npc_vec_math {
#if defined(CPU_CAPABILITY_AVX512)
// tanh(a) = hi + (lo + c1 t + t^2 (q0 + q1 t + q2 t^2 + q3 t^3)), t = a - x0, on 32 intervals [x0, x1) of a
// quarter binade from 2^-4 to 16 (the first is [0, 0.078125) with x0 = 0; a is clamped to 15.5, where tanh is 1).
alignas(64) inline constexpr float tanh_table[7][32] = {
    {0e+0f, 7.7966444e-2f, 9.34763e-2f, 1.0894093e-1f, 1.24353e-1f, 1.5499073e-1f,
     1.853332e-1f, 2.1532634e-1f, 2.4491866e-1f, 3.0270973e-1f, 3.583574e-1f, 4.1157004e-1f,
     4.6211717e-1f, 5.545997e-1f, 6.3514894e-1f, 7.039056e-1f, 7.615942e-1f, 8.4828365e-1f,
     9.0514827e-1f, 9.4137555e-1f, 9.640276e-1f, 9.866143e-1f, 9.950548e-1f, 9.981779e-1f,
     9.993293e-1f, 9.999092e-1f, 9.999877e-1f, 9.9999833e-1f, 9.9999976e-1f, 1e+0f,
     1e+0f, 1e+0f},  // hi
    {0e+0f, -2.8189486e-9f, 1.0474557e-9f, 7.4643136e-10f, 2.7400524e-9f, -2.2982067e-9f,
     -7.341502e-9f, 6.593593e-10f, 3.0742948e-9f, 8.527231e-10f, -1.3512862e-9f, 1.3302272e-8f,
     -8.067063e-9f, 1.9991136e-8f, 9.916737e-9f, 2.1508642e-8f, -2.0336655e-8f, -8.533393e-9f,
     -1.4101105e-8f, -1.5110654e-8f, -3.5232737e-9f, 1.1251863e-8f, -2.775019e-8f, 1.16019825e-8f,
     -2.879792e-8f, -1.7863412e-8f, -9.792381e-9f, 5.873998e-9f, 1.3348255e-8f, -4.1223074e-9f,
     -7.550269e-11f, -1.38288e-12f},  // lo
    {1e+0f, 9.939212e-1f, 9.912622e-1f, 9.881319e-1f, 9.8453635e-1f, 9.759779e-1f,
     9.6565163e-1f, 9.5363456e-1f, 9.4001484e-1f, 9.083668e-1f, 8.7157995e-1f, 8.306101e-1f,
     7.864477e-1f, 6.924191e-1f, 5.965858e-1f, 5.045169e-1f, 4.199748e-1f, 2.8041515e-1f,
     1.8070674e-1f, 1.1381211e-1f, 7.065029e-2f, 2.6591798e-2f, 9.865844e-3f, 3.6408086e-3f,
     1.3403564e-3f, 1.8150214e-4f, 2.4565561e-5f, 3.3246222e-6f, 4.4782067e-7f, 8.192358e-9f,
     1.500482e-10f, 2.7482294e-12f},  // c1
    {2.57212e-8f, -7.7483974e-2f, -9.267002e-2f, -1.0765234e-1f, -1.224359e-1f, -1.5127502e-1f,
     -1.7897548e-1f, -2.0534036e-1f, -2.3022527e-1f, -2.7496815e-1f, -3.1233233e-1f, -3.4185523e-1f,
     -3.6342755e-1f, -3.8401216e-1f, -3.7892118e-1f, -3.551328e-1f, -3.1987604e-1f, -2.3788738e-1f,
     -1.6357225e-1f, -1.07140936e-1f, -6.809438e-2f, -2.6223915e-2f, -9.811641e-3f, -3.6320402e-3f,
     -1.331176e-3f, -1.8035507e-4f, -2.4412073e-5f, -3.3038812e-6f, -4.3067018e-7f, -7.831748e-9f,
     -1.4344324e-10f, -2.627257e-12f},  // q0
    {-3.333364e-1f, -3.269132e-1f, -3.1973112e-1f, -3.168134e-1f, -3.1238967e-1f, -3.011571e-1f,
     -2.8792667e-1f, -2.7388436e-1f, -2.5706166e-1f, -2.1972413e-1f, -1.7884052e-1f, -1.361343e-1f,
     -9.43326e-2f, -1.792964e-2f, 4.182306e-2f, 8.183934e-2f, 1.040828e-1f, 1.08610295e-1f,
     8.79309e-2f, 6.294245e-2f, 4.1975353e-2f, 1.6904825e-2f, 6.4269006e-3f, 2.3929982e-3f,
     8.484746e-4f, 1.1505332e-4f, 1.55749e-5f, 2.107907e-6f, 2.455855e-7f, 4.402375e-9f,
     8.063205e-11f, 1.47683e-12f},  // q1
    {1.0815452e-4f, 1.7671539e-1f, -9.346897e-2f, 6.794747e-3f, 5.8283985e-2f, 6.971781e-2f,
     8.32197e-2f, 1.3590746e-1f, 1.4224227e-1f, 1.6177848e-1f, 1.7309198e-1f, 1.6957532e-1f,
     1.668372e-1f, 1.3918431e-1f, 9.9534385e-2f, 6.0152236e-2f, 2.3865767e-2f, -1.5062182e-2f,
     -2.5944894e-2f, -2.3713347e-2f, -1.7384844e-2f, -7.5665214e-3f, -2.952607e-3f, -1.1096577e-3f,
     -3.4768536e-4f, -4.7195663e-5f, -6.3898387e-6f, -8.6481606e-7f, -7.906873e-8f, -1.3867592e-9f,
     -2.5399247e-11f, -4.652047e-13f},  // q2
    {1.3207348e-1f, -3.1700606e+0f, 4.177021e+0f, 1.7912505e+0f, 3.9549956e-1f, 4.6544558e-1f,
     4.866786e-1f, -3.0393496e-2f, 4.7859155e-2f, 1.4040117e-2f, -2.1042513e-2f, -9.483243e-3f,
     -4.3612793e-2f, -6.326611e-2f, -6.282742e-2f, -5.3697858e-2f, -3.2241575e-2f, -9.63819e-3f,
     1.3230742e-3f, 4.5840284e-3f, 3.993899e-3f, 1.9310119e-3f, 7.779103e-4f, 2.9560048e-4f,
     6.994728e-5f, 9.504354e-6f, 1.2869729e-6f, 1.7418482e-7f, 1.0892997e-8f, 1.8625934e-10f,
     3.4114341e-12f, 6.248283e-14f},  // q3
};

inline __m512 tanh16(__m512 x) {
  const __m512 sign = _mm512_set1_ps(-0.0f);
  __m512 a = _mm512_min_ps(_mm512_set1_ps(15.5f), _mm512_andnot_ps(sign, x));  // min's NaN operand is a: kept
  __m512i bits = _mm512_castps_si512(a);
  __m512i idx = _mm512_max_epi32(_mm512_sub_epi32(_mm512_srli_epi32(bits, 21), _mm512_set1_epi32(492)),
                                 _mm512_setzero_si512());
  __m512 x0 = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, _mm512_set1_ps(0.078125f), _CMP_GE_OQ),
                                  _mm512_castsi512_ps(_mm512_and_si512(bits, _mm512_set1_epi32(0xFFE00000))));
  __m512 t = _mm512_sub_ps(a, x0);  // exact
  auto c = [&](int j) {
    return _mm512_permutex2var_ps(_mm512_load_ps(tanh_table[j]), idx, _mm512_load_ps(tanh_table[j] + 16));
  };
  __m512 q = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_fmadd_ps(c(6), t, c(5)), t, c(4)), t, c(3));
  __m512 r = _mm512_fmadd_ps(t, c(2), _mm512_fmadd_ps(_mm512_mul_ps(t, t), q, c(1)));
  return _mm512_or_ps(_mm512_add_ps(c(0), r), _mm512_and_ps(x, sign));  // x's sign
}
#else
// tanh(a) for 0 <= a <= 9.5 in float64, as float32 needs it: m / (m + 2), m = expm1(2a) = 2^(k+1) expm1(2v)/2
// + 2^k - 1 with a = k ln2/2 + v, |v| <= ln2/4, expm1(2v)/2 = v + v^2 P(v) (P fitted here, relative error 2^-32)
inline at::vec::Vectorized<double> tanh_f64(const at::vec::Vectorized<double>& a) {
  using D = at::vec::Vectorized<double>;
  const D shifter(0x1.8p52);  // adding it rounds to an integer, left in the low bits
  D kf = at::vec::fmadd(a, D(2.8853900817779268), shifter);
  D k = kf - shifter;
  D v = at::vec::fmadd(k, D(-0.34657359027997264), a);
  D v2 = v * v;
  D p01 = at::vec::fmadd(D(0.6666666547460226), v, D(1.0000000088257661));
  D p23 = at::vec::fmadd(D(0.1333342347051127), v, D(0.3333308881982265));
  D p45 = at::vec::fmadd(D(0.012701279682204945), v, D(0.04460997975037714));
  D p = at::vec::fmadd(at::vec::fmadd(p45, v2, p23), v2, p01);
  D half_expm1 = at::vec::fmadd(p, v2, v);
  using I = at::vec::Vectorized<int64_t>;
  D scale = at::vec::cast<double>(at::vec::cast<int64_t>(D(1.0)) + (at::vec::cast<int64_t>(kf) << I(52)));  // 2^k
  D m = at::vec::fmadd(scale + scale, half_expm1, scale - D(1.0));
  return m / (m + D(2.0));
}
#endif

template <typename V>
inline V tanh(const V& x) {
  if constexpr (std::is_same_v<V, at::vec::Vectorized<float>>) {
#if defined(CPU_CAPABILITY_AVX512)
    return V(tanh16(x));
#else
    using D = at::vec::VectorizedN<double, 2>;
    D d = at::vec::convert<double, 2, float, 1>(at::vec::clamp_max(x.abs(), V(9.5f)));  // tanh(9.5f) is 1.0f
    d[0] = tanh_f64(d[0]);
    d[1] = tanh_f64(d[1]);
    return at::vec::convert<float, 1, double, 2>(d) | (x & V(-0.0f));  // x's sign (copysign is a call into SLEEF)
#endif
  } else {
    return x.tanh();
  }
}

// float sin and cos: SLEEF's 1-ulp functions where ATen's call its 3.5-ulp ones
#if defined(CPU_CAPABILITY_AVX512)
#define NPC_SLEEF_F(name) Sleef_##name##f16_u10
#elif defined(CPU_CAPABILITY_AVX2)
#define NPC_SLEEF_F(name) Sleef_##name##f8_u10
#endif
#ifdef NPC_SLEEF_F
#define NPC_ACCURATE(name)                                                        \
  template <typename V>                                                           \
  inline V name(const V& x) {                                                     \
    if constexpr (std::is_same_v<V, at::vec::Vectorized<float>>) {               \
      return V(NPC_SLEEF_F(name)(x));                                             \
    } else {                                                                      \
      return x.name();                                                            \
    }                                                                             \
  }
#else
#define NPC_ACCURATE(name)                                                        \
  template <typename V>                                                           \
  inline V name(const V& x) { return x.name(); }
#endif
NPC_ACCURATE(sin)
NPC_ACCURATE(cos)

// float sinh and cosh from float64 exp (SLEEF's, 1 ulp) and a division; sinh below 2^-9 from x + x^3/6
template <typename V>
inline V sinh(const V& x) {
  if constexpr (std::is_same_v<V, at::vec::Vectorized<float>>) {
    using D = at::vec::VectorizedN<double, 2>;
    D d = at::vec::convert<double, 2, float, 1>(x);
    D e = d.exp();
    D big = (e - D(1.0) / e) * D(0.5);
    D small = d + d * (d * d) * D(1.0 / 6.0);
    return at::vec::convert<float, 1, double, 2>(D::blendv(big, small, d.abs() < D(0x1p-9)));
  } else {
    return x.sinh();
  }
}

template <typename V>
inline V cosh(const V& x) {
  if constexpr (std::is_same_v<V, at::vec::Vectorized<float>>) {
    using D = at::vec::VectorizedN<double, 2>;
    D e = at::vec::convert<double, 2, float, 1>(x).exp();
    return at::vec::convert<float, 1, double, 2>((e + D(1.0) / e) * D(0.5));
  } else {
    return x.cosh();
  }
}

// isnan and isinf as lane compares, x != x and |x| == inf (Inductor's vector code called the C function per lane)
template <typename T, int N>
inline at::vec::VecMask<T, N> isnan(const at::vec::VectorizedN<T, N>& x) {
  return at::vec::VecMask<T, N>(x != x);
}
template <typename T, int N>
inline at::vec::VecMask<T, N> isinf(const at::vec::VectorizedN<T, N>& x) {
  if constexpr (std::numeric_limits<T>::has_infinity) {
    return at::vec::VecMask<T, N>(x.abs() == at::vec::VectorizedN<T, N>(std::numeric_limits<T>::infinity()));
  } else {
    return at::vec::VecMask<T, N>(at::vec::VectorizedN<T, N>(0));
  }
}
template <typename T>
inline at::vec::VecMask<T, 1> isnan(const at::vec::Vectorized<T>& x) {
  return isnan(at::vec::VectorizedN<T, 1>(x));
}
template <typename T>
inline at::vec::VecMask<T, 1> isinf(const at::vec::Vectorized<T>& x) {
  return isinf(at::vec::VectorizedN<T, 1>(x));
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
             "tanh": lambda x: f"npc_vec_math::tanh({x})", "copysign": _copysign,
             "sin": lambda x: f"npc_vec_math::sin({x})", "cos": lambda x: f"npc_vec_math::cos({x})",
             "sinh": lambda x: f"npc_vec_math::sinh({x})", "cosh": lambda x: f"npc_vec_math::cosh({x})",
             "isnan": lambda x: f"npc_vec_math::isnan({x})", "isinf": lambda x: f"npc_vec_math::isinf({x})"}
for _name, _fn in OVERRIDES.items():
    _fn.__name__ = _name  # where an op's operands are all scalars, Inductor calls the scalar op of this name


def with_vector_math(source: str) -> str:
    """``source`` (a C++ kernel group) with the functions above when it calls them."""
    if "npc_vec_math::" not in source or _PREFIX not in source:
        return source
    return source.replace(_PREFIX, _PREFIX + _TANH, 1)
