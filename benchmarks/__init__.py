"""npcompile benchmarks: NumPy vs npcompile.compile vs torch.compile on plain NumPy kernels.

Run `python -m benchmarks --help`; see README.md in this folder.
"""
