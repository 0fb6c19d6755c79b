"""Random draws in compiled code follow ``numpy.random.seed``.

A ``torch.Generator`` cannot be traced, so the shim's random functions draw from torch's global generator
inside a graph.  Left alone, that generator ignores the user's ``np.random.seed(s)``: every seed gave the same
compiled draws, and seeding twice inside a compiled function gave two different streams.  So each call of a
graph that draws seeds torch's generator (CPU, and the CUDA device it draws on) from NumPy's legacy global
state (one draw from it), or from the shim's own ``np.random.seed`` generator where code written against the
shim set one, and puts torch's state back afterwards: compiled draws depend on the NumPy seed alone, and torch's
own stream is left as it was.  ``np.random.seed``/``get_state``/``set_state`` themselves run in real NumPy
(``npcompile.fallback.REAL_NUMPY_ONLY``), where a graph could not keep their effect.
"""

from __future__ import annotations

import numpy as _np
import torch

from .._numpy import random as _random
from .._numpy._hashed_draws import GAMMA, mix64

_SEED_SCALE = float(1 << 53)


def drawing_devices(gm) -> list | None:
    """The devices a graph draws random numbers on (the shim's random functions and Generator methods), or None
    where it draws none."""
    devices = None
    for n in gm.graph.nodes:
        f = getattr(n.target, "f", None) if n.op == "call_function" else None
        if f is not None and (isinstance(getattr(f, "__self__", None), _random._Sampler)
                              or getattr(f, "__module__", None) == _random.__name__):
            devices = devices or [torch.device("cpu")]
            d = n.target.device
            if d is not None and torch.device(d) not in devices:
                devices.append(torch.device(d))
    return devices


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


# A CPU generator's state (torch 2.11 to 2.13): a header that a fresh ``manual_seed`` leaves as it must be, then
# MT19937's 624 state words in 64-bit slots from byte 24 on, then a cache of normals marked empty.  One buffer,
# refilled per seed (``set_state`` copies it).
_CPU_STATE = torch.Generator().manual_seed(0).get_state()
_CPU_WORDS = _CPU_STATE[24:24 + 8 * 624].view(torch.int64).numpy()
_POSITIONS = _np.arange(1, 625, dtype=_np.int64)


def _seed(g: torch.Generator, seed: int) -> None:
    """Seed ``g`` with all of ``seed``'s 53 bits.  A CPU generator's ``manual_seed`` keeps 32 (MT19937's
    initialization), which would let two calls share their draws after about 77000 calls (the birthday bound
    of 2**32); its state words are filled by SplitMix64 from the whole seed instead (about 8 us)."""
    if g.device.type != "cpu":
        g.manual_seed(seed)
        return
    _np.bitwise_and(mix64((_POSITIONS + seed) * GAMMA), 0xFFFFFFFF, out=_CPU_WORDS)
    g.set_state(_CPU_STATE)


def seeded(compiled, devices):
    """``compiled`` drawing from torch's generators seeded by NumPy's legacy state at each call."""
    gens = _generators(devices)

    def run(*args):
        seed = _next_seed()
        saved = [g.get_state() for g in gens]
        for g in gens:
            _seed(g, seed)
        try:
            return compiled(*args)
        finally:
            for g, s in zip(gens, saved):
                g.set_state(s)

    return run
