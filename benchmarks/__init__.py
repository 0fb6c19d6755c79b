"""npcompile benchmarks: NumPy vs npcompile.compile vs torch.compile on plain NumPy kernels.

Run `python -m benchmarks --help`; see README.md in this folder.
"""

import npcompile  # noqa: E402,F401  (its malloc settings apply to every column alike)
