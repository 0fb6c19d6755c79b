"""Eager use of the shim does not import torch's symbolic-shape machinery (and sympy with it): 0.45 s of the
shim's import, which only a trace needs (``_trace._symbolic_shapes``)."""

import subprocess
import sys


def test_eager_use_does_not_import_sympy():
    code = ("import sys; import npcompile, npcompile._numpy as np; a = np.arange(12.0).reshape(3, 4); "
            "a[a > 3].sum(); a[:, 1:3] = 0; np.var(a, ddof=1); np.add(a, 1, out=a); np.take(a, 1, axis=1); "
            "assert not [m for m in sys.modules if m == 'sympy' or m.endswith('symbolic_shapes')], "
            "sorted(m for m in sys.modules if 'sympy' in m or 'symbolic_shapes' in m)[:5]")
    subprocess.run([sys.executable, "-c", code], check=True)
