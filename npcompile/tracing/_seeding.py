"""Random draws in compiled code follow ``numpy.random.seed``.

A ``torch.Generator`` cannot be traced, so the shim's random functions draw from torch's global generator
inside a graph.  Left alone, that generator ignores the user's ``np.random.seed(s)``: every seed gave the same
compiled draws, and seeding twice inside a compiled function gave two different streams.  So each call of a
graph that draws seeds torch's generator (CPU, and the CUDA device it draws on) from NumPy's legacy global
state (one draw from it), or from the shim's own ``np.random.seed`` generator where code written against the
shim set one, and puts torch's state back afterwards: compiled draws depend on the NumPy seed alone, and torch's
own stream is left as it was.  ``np.random.seed``/``get_state``/``set_state`` themselves run in real NumPy
(``npcompile.fallback.REAL_NUMPY_ONLY``), where a graph could not keep their effect.  A graph whose only draws
are an unseeded generator's (``default_rng()``) is seeded from the OS's entropy instead, as NumPy seeds one.
"""

from __future__ import annotations

import os

import numpy as _np
import torch

from .._numpy import random as _random

_SEED_SCALE = float(1 << 53)


def drawing_devices(gm) -> list | None:
    """The devices a graph draws random numbers on (the shim's random functions and Generator methods), or None
    where it draws none."""
    devices = None
    for n, _ in _draws(gm):
        devices = devices or [torch.device("cpu")]
        d = n.target.device
        if d is not None and torch.device(d) not in devices:
            devices.append(torch.device(d))
    return devices


def _draws(gm):
    """(node, shim function) for each node of the graph that draws."""
    for n in gm.graph.nodes:
        f = getattr(n.target, "f", None) if n.op == "call_function" else None
        if f is not None and (isinstance(getattr(f, "__self__", None), _random._Sampler)
                              or getattr(f, "__module__", None) == _random.__name__):
            yield n, f


def fresh_only(gm) -> bool:
    """Whether every draw of the graph is an unseeded generator's (``default_rng()``, ``random.fresh``): such a
    graph is seeded from the OS's entropy, and leaves NumPy's legacy stream alone, as NumPy does."""
    return all(getattr(f, "__self__", None) is _random.fresh for _, f in _draws(gm))


def _generators(devices):
    gens = []
    for d in devices:
        if d.type == "cpu":
            gens.append(torch.default_generator)
        elif d.type == "cuda":
            gens.append(torch.cuda.default_generators[d.index if d.index is not None else torch.cuda.current_device()])
    return gens


def _next_seed() -> int:
    own = _random._state._gen  # set by the shim's np.random.seed(s) (code written against npcompile._numpy)
    if own is not None:
        return int(torch.randint(1 << 53, (), generator=own))
    return int(_np.random.random() * _SEED_SCALE)


def seeded(compiled, devices, entropy=False):
    """``compiled`` drawing from torch's generators seeded at each call by NumPy's legacy state, or with
    ``entropy`` by the OS's (see fresh_only)."""
    gens = _generators(devices)

    def run(*args):
        seed = int.from_bytes(os.urandom(8), "little") >> 11 if entropy else _next_seed()
        saved = [g.get_state() for g in gens]
        for g in gens:
            _random.seed_generator(g, seed)
        try:
            return compiled(*args)
        finally:
            for g, s in zip(gens, saved):
                g.set_state(s)

    return run
