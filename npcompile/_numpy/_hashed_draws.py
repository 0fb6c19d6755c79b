"""Random numbers as a hash of (key, position): how compiled CPU code draws.

ATen's CPU generator (MT19937) is serial and opaque to the compiler: 2M float64 uniforms take 6.8 ms on one
core whatever the thread count, and the draw is written to memory before the arithmetic that uses it reads it
back.  Inside a graph, element ``i`` of a draw is instead a keyed hash of ``i`` built from SplitMix64 (which
passes BigCrush; ``_bits``): plain int64 arithmetic, which Inductor vectorizes, runs on every core and fuses
into whatever consumes the draw (0.9 ms for the same draw on 2 cores, and nothing stored when fused).  The key
is drawn from torch's generator, so compiled draws follow ``numpy.random.seed`` through
``npcompile.tracing._seeding``.

Uniforms keep NumPy's resolution: 53 random bits for float64, 24 for float32, on the grid k * 2**-bits.
"""

from __future__ import annotations

import math

import torch

# SplitMix64's constants as signed int64 (the arithmetic wraps modulo 2**64 either way)
GAMMA = 0x9E3779B97F4A7C15 - (1 << 64)
_MIX1 = 0xBF58476D1CE4E5B9 - (1 << 64)
_MIX2 = 0x94D049BB133111EB - (1 << 64)
_BITS = {torch.float64: 53, torch.float32: 24}


def new_key(device) -> torch.Tensor:
    """Two 62-bit words drawn from torch's global generator (in a graph: one random op, never merged with
    another, so each draw gets its own key)."""
    return torch.randint(0, 1 << 62, (2,), dtype=torch.int64, device=device)


def _shift_right(z: torch.Tensor, k: int) -> torch.Tensor:
    """Logical shift of int64 bits (torch's ``>>`` is arithmetic)."""
    return (z >> k) & ((1 << (64 - k)) - 1)


def mix64(z):
    """SplitMix64's output function, a bijection of 64-bit words that scatters every input bit, computed in place
    in ``z`` (an int64 torch tensor or NumPy array: both wrap on overflow)."""
    z ^= _shift_right(z, 30)
    z *= _MIX1
    z ^= _shift_right(z, 27)
    z *= _MIX2
    z ^= _shift_right(z, 31)
    return z


def _bits(key: torch.Tensor, n) -> torch.Tensor:
    """64 random bits (as int64) for positions 0 to n - 1.

    Position p under key (a, b) is mix(mix((p + 1 + a) * gamma) ^ b): the inner mix is SplitMix64's sequence
    seeded with a * gamma (gamma is odd, so distinct a give distinct seeds); the outer one, keyed by b, keeps
    two draws whose seeds happen to lie close on that one 2**64 cycle from sharing numbers.  The key is added
    to the position before the multiplication: Inductor folds constant arithmetic on positions into its index
    expressions, which must not overflow."""
    p = torch.arange(1, n + 1, dtype=torch.int64, device=key.device)
    return mix64(mix64((p + key[0]) * GAMMA) ^ key[1])


def uniform(key: torch.Tensor, shape, dtype=torch.float64) -> torch.Tensor:
    """Uniforms on [0, 1) in ``dtype`` (float32 or float64)."""
    bits = _BITS[dtype]
    z = _shift_right(_bits(key, math.prod(shape)), 64 - bits)
    return (z.to(dtype) * 2.0 ** -bits).reshape(shape)

