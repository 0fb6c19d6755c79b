"""Eager draws of every ``Generator`` distribution, NumPy vs npcompile._numpy.random: 10^5 samples each (``--n``),
CPU time (``time.process_time``) minima over ``--repeat`` rounds at one torch thread, and their ratio.  Several
parameter settings where a sampler's cost depends on them (rejection rates, window widths, counts).

    python -m benchmarks.random_distributions [--n 100000] [--repeat 5] [-k TEXT]
"""
import argparse
import time

import numpy
import torch

import npcompile._numpy as shim

# label -> (method, positional parameters, keywords); size=n is added
CASES = {
    "random": ("random", (), {}), "standard_normal": ("standard_normal", (), {}),
    "standard_exponential": ("standard_exponential", (), {}), "standard_gamma": ("standard_gamma", (2.5,), {}),
    "uniform": ("uniform", (0, 1), {}), "normal": ("normal", (0, 1), {}), "exponential": ("exponential", (1.0,), {}),
    "gamma": ("gamma", (2.5, 1.0), {}), "gamma(a=0.1)": ("gamma", (0.1, 1.0), {}), "beta": ("beta", (2.0, 3.0), {}),
    "chisquare": ("chisquare", (3.0,), {}), "noncentral_chisquare": ("noncentral_chisquare", (3.0, 2.0), {}),
    "f": ("f", (3.0, 5.0), {}), "noncentral_f": ("noncentral_f", (3.0, 5.0, 2.0), {}),
    "standard_t": ("standard_t", (5.0,), {}), "standard_cauchy": ("standard_cauchy", (), {}),
    "lognormal": ("lognormal", (0.0, 1.0), {}), "laplace": ("laplace", (0.0, 1.0), {}),
    "logistic": ("logistic", (0.0, 1.0), {}), "gumbel": ("gumbel", (0.0, 1.0), {}),
    "rayleigh": ("rayleigh", (1.0,), {}),
    "weibull": ("weibull", (2.0,), {}), "pareto": ("pareto", (3.0,), {}), "power": ("power", (3.0,), {}),
    "wald": ("wald", (1.0, 2.0), {}), "triangular": ("triangular", (0.0, 0.5, 1.0), {}),
    "vonmises(k=0.5)": ("vonmises", (0.0, 0.5), {}), "vonmises(k=4)": ("vonmises", (0.0, 4.0), {}),
    "vonmises(k=100)": ("vonmises", (0.0, 100.0), {}), "poisson": ("poisson", (5.0,), {}),
    "poisson(lam=1e4)": ("poisson", (1e4,), {}), "binomial": ("binomial", (20, 0.3), {}),
    "binomial(n=1e6)": ("binomial", (10**6, 0.3), {}), "negative_binomial": ("negative_binomial", (5, 0.4), {}),
    "geometric": ("geometric", (0.2,), {}), "hypergeometric": ("hypergeometric", (20, 30, 10), {}),
    "hypergeometric(big)": ("hypergeometric", (10**6, 10**6, 10**5), {}),
    "zipf(a=1.1)": ("zipf", (1.1,), {}), "zipf(a=2)": ("zipf", (2.0,), {}), "zipf(a=5)": ("zipf", (5.0,), {}),
    "logseries": ("logseries", (0.6,), {}), "logseries(p=0.99)": ("logseries", (0.99,), {}),
    "integers": ("integers", (0, 100), {}), "multinomial": ("multinomial", (20, [0.2, 0.3, 0.5]), {}),
    "dirichlet": ("dirichlet", ([1.0, 2.0, 3.0],), {}),
    "multivariate_normal": ("multivariate_normal", ([0.0, 0.0], [[1.0, 0.5], [0.5, 2.0]]), {}),
    "multivariate_hypergeometric": ("multivariate_hypergeometric", ([10, 20, 30], 15), {}),
    "multivariate_hypergeometric(count)": ("multivariate_hypergeometric", ([10, 20, 30], 15), {"method": "count"}),
    "multivariate_hypergeometric(big)": ("multivariate_hypergeometric", ([10**4, 2 * 10**4, 3 * 10**4], 5000), {}),
    "choice": ("choice", (1000,), {}), "choice(p)": ("choice", (5,), {"p": [0.1, 0.2, 0.3, 0.2, 0.2]}),
    "choice(replace=False)": ("choice", (10**6,), {"replace": False}),
    "choice(10^9, replace=False)": ("choice", (10**9,), {"replace": False}),
}


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("-k", default="", help="only labels containing this text")
    args = p.parse_args()
    torch.set_num_threads(1)
    rn, rs = numpy.random.default_rng(1), shim.random.default_rng(1)
    print(f"{'distribution':36s} {'NumPy ms':>9s} {'shim ms':>9s} {'ratio':>6s}")
    for label, (method, params, kw) in CASES.items():
        if args.k not in label:
            continue
        draw = [lambda g=g: getattr(g, method)(*params, size=args.n, **kw) for g in (rn, rs)]
        draw[1]()  # warm-up
        tn, ts = best(draw[0], args.repeat), best(draw[1], args.repeat)
        print(f"{label:36s} {tn * 1e3:9.2f} {ts * 1e3:9.2f} {ts / tn:6.1f}", flush=True)
    for label, call in (("permutation", lambda g, x: g.permutation(args.n)), ("shuffle", lambda g, x: g.shuffle(x)),
                        ("permuted(axis=1)", lambda g, x: g.permuted(x, axis=1))):
        if args.k not in label:
            continue
        x = numpy.arange(args.n, dtype=float).reshape(100, -1)
        tn = best(lambda: call(rn, x), args.repeat)
        xs = shim.asarray(x)
        ts = best(lambda: call(rs, xs), args.repeat)
        print(f"{label:36s} {tn * 1e3:9.2f} {ts * 1e3:9.2f} {ts / tn:6.1f}", flush=True)


if __name__ == "__main__":
    main()
