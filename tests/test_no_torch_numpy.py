"""npcompile._numpy is our own NumPy: it never imports or touches PyTorch's private ``torch._numpy`` shim."""

import ast
import pathlib
import subprocess
import sys

import pytest

SOURCES = sorted((pathlib.Path(__file__).parent.parent / "npcompile" / "_numpy").rglob("*.py"))


def _offences(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name == "torch._numpy" or a.name.startswith("torch._numpy."))
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod == "torch._numpy" or mod.startswith("torch._numpy.") or (
                    mod == "torch" and any(a.name == "_numpy" for a in node.names)):
                yield f"from {mod} import ..."
        elif isinstance(node, ast.Attribute) and node.attr == "_numpy" and isinstance(node.value, ast.Name) \
                and node.value.id == "torch":
            yield "torch._numpy"
        elif isinstance(node, ast.Constant) and node.value == "torch._numpy":
            yield "'torch._numpy' (importlib)"


def test_sources_never_reference_torch_numpy():
    assert SOURCES
    found = {str(p): list(_offences(ast.parse(p.read_text(), str(p)))) for p in SOURCES}
    found = {p: o for p, o in found.items() if o}
    assert not found, found


def test_import_does_not_load_torch_numpy():
    code = ("import sys; import npcompile._numpy as np; np.add(np.ones(3), 1).sum(); "
            "assert 'torch._numpy' not in sys.modules, sorted(m for m in sys.modules if 'torch._numpy' in m)")
    subprocess.run([sys.executable, "-c", code], check=True)
