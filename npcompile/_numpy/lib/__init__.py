"""``numpy.lib``: the numeric submodules (``stride_tricks``, ``scimath``, ``array_utils``), and NumPy's own
``NumpyVersion`` (a version string class) and ``Arrayterator`` (pure Python: it iterates over blocks by slicing the
array it is given, so over ours it gives our arrays).  NumPy's documentation and file machinery here (``format``,
``npyio``, ``mixins``, ``introspect``, ``add_docstring``...) raise ``UnsupportedFeature`` naming it."""

from numpy.lib import Arrayterator, NumpyVersion  # noqa: F401

from ..._errors import UnsupportedFeature
from . import array_utils, scimath, stride_tricks  # noqa: F401

_UNSUPPORTED = {"format": "the .npy file format", "npyio": "file IO", "mixins": "NumPy's operator mixin class",
                "introspect": "NumPy internals", "tracemalloc_domain": "NumPy internals"}


def add_docstring(obj, docstring):
    raise UnsupportedFeature("numpy.lib.add_docstring (NumPy internals)")


def add_newdoc(place, obj, doc, warn_on_python=True):
    raise UnsupportedFeature("numpy.lib.add_newdoc (NumPy internals)")


def test(*args, **kwargs):
    raise UnsupportedFeature("numpy.lib.test (NumPy internals)")


def __getattr__(name):
    if name in _UNSUPPORTED:
        raise UnsupportedFeature(f"numpy.lib.{name} ({_UNSUPPORTED[name]})")
    raise AttributeError(f"module 'numpy.lib' has no attribute {name!r}")
