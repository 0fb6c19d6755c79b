"""npcompile benchmarks: NumPy vs npcompile.compile vs torch.compile on plain NumPy kernels.

Run `python -m benchmarks --help`; see README.md in this folder.
"""

import os

# NumPy's OpenBLAS keeps its worker threads spinning for about 0.1 s after each BLAS call; with the columns
# sampled in alternation those spinning threads take a core from the next column's kernel (logreg_grad's compiled
# step measured 23 ms after a NumPy call, 8.7 ms otherwise). Let them sleep at once; set before NumPy loads.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

import npcompile  # noqa: E402,F401  (its malloc settings apply to every column alike)
