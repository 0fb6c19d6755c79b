"""The shim's own torch ops, ``npcompile::...``, for what no torch op computes NumPy's way (or as fast).

They are defined through ``torch.library.Library``, not ``custom_op``, whose Python dispatch layers cost some 25 us
a call (an op of a small array is mostly call)."""

import torch

LIB = torch.library.Library("npcompile", "FRAGMENT")
