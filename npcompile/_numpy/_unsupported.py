"""NumPy's public names that the shim leaves out by design, each with its reason.

Every name in ``REASONS`` exists here as a stand-in that raises ``UnsupportedFeature("numpy.<name> (<reason>)")``
when used (called, or instantiated for the types), so the compiler falls back to real NumPy.  The type
stand-ins still work with ``isinstance`` (nothing of ours is an instance).  ``REASONS`` is also the table the
coverage tool (``python -m npcompile._numpy.coverage``) reports from; keys of submodule names are qualified
(``"random.PCG64"``), and ``stand_ins("random")`` gives a submodule its stand-ins.  NumPy's submodules left
out whole (``SUBMODULE_REASONS``: ``char``, ``strings``, ``rec``, ``ma``) are modules of such stand-ins.
"""

from __future__ import annotations

import types

import numpy as _np

from .._errors import UnsupportedFeature

_STRINGS = "non-numeric dtype: strings"
_DATETIME = "non-numeric dtype: datetime64/timedelta64"
_OBJECT = "non-numeric dtype: object"
_STRUCTURED = "non-numeric dtype: structured/record"
_LONGDOUBLE = "extended precision (longdouble): no torch dtype"
_MATRIX = "the matrix class: use 2-D arrays"
_FILE_IO = "file IO"
_INTERNALS = "NumPy internals"
_LEGACY_STATE = "the legacy functions' MT19937 bit generator: their draws come from a torch generator"

REASONS = {
    # strings
    "str_": _STRINGS, "bytes_": _STRINGS, "character": _STRINGS, "flexible": _STRINGS,
    # datetimes
    "datetime64": _DATETIME, "timedelta64": _DATETIME, "datetime_as_string": _DATETIME,
    "datetime_data": _DATETIME, "busday_count": _DATETIME, "busday_offset": _DATETIME, "is_busday": _DATETIME,
    "busdaycalendar": _DATETIME,
    # objects and structured records
    "object_": _OBJECT, "void": _STRUCTURED, "record": _STRUCTURED, "recarray": _STRUCTURED,
    # extended precision
    "longdouble": _LONGDOUBLE, "clongdouble": _LONGDOUBLE, "float128": _LONGDOUBLE, "complex256": _LONGDOUBLE,
    # matrices
    "matrix": _MATRIX, "asmatrix": _MATRIX, "bmat": _MATRIX,
    # files and text parsing
    "save": _FILE_IO, "savez": _FILE_IO, "savez_compressed": _FILE_IO, "load": _FILE_IO, "loadtxt": _FILE_IO,
    "savetxt": _FILE_IO, "genfromtxt": _FILE_IO, "fromfile": _FILE_IO, "fromregex": _FILE_IO,
    "fromstring": _FILE_IO + " (text parsing)", "memmap": _FILE_IO + " (memory-mapped files)",
    # C-level iteration and NumPy's own machinery
    "show_config": _INTERNALS, "show_runtime": _INTERNALS,
    "get_include": _INTERNALS, "test": _INTERNALS, "info": _INTERNALS + " (documentation browser)",
    "getbufsize": _INTERNALS + " (ufunc buffer size)", "setbufsize": _INTERNALS + " (ufunc buffer size)",
    "linalg.test": _INTERNALS, "fft.test": _INTERNALS, "random.test": _INTERNALS, "polynomial.test": _INTERNALS,
    # the legacy functions' MT19937 (NumPy's bit generators and SeedSequence seed ours: npcompile._numpy.random)
    "random.get_bit_generator": _LEGACY_STATE, "random.set_bit_generator": _LEGACY_STATE,
}


def _message(name, reason=None):
    return f"numpy.{name} ({reason or REASONS[name]})"


def _numpy_object(name):
    obj = _np
    for part in name.split("."):
        obj = getattr(obj, part, None)
    return obj


def _function(name, reason=None):
    def unsupported(*args, **kwargs):
        raise UnsupportedFeature(_message(name, reason))

    unsupported.__name__ = unsupported.__qualname__ = name.rpartition(".")[2]
    unsupported.__doc__ = f"Not supported by npcompile: {reason or REASONS[name]}."
    unsupported.__module__ = "npcompile._numpy"
    return unsupported


def _type(name, reason=None):
    def __new__(cls, *args, **kwargs):
        raise UnsupportedFeature(_message(name, reason))

    return type(name.rpartition(".")[2], (), {"__new__": __new__, "__module__": "npcompile._numpy",
                                              "__doc__": f"Not supported by npcompile: {reason or REASONS[name]}.",
                                              "_np_type": _numpy_object(name)})


def _stand_in(name, reason=None):
    """A type for NumPy's types (so ``isinstance`` works), a function otherwise."""
    return _type(name, reason) if isinstance(_numpy_object(name), type) else _function(name, reason)


def stand_ins(module=""):
    """The stand-ins for the ``REASONS`` names of ``numpy.<module>`` (the main namespace for ""), by name."""
    return {k.rpartition(".")[2]: _stand_in(k) for k in REASONS if k.rpartition(".")[0] == module}


# NumPy's submodules left out whole, with their reasons.
SUBMODULE_REASONS = {"char": _STRINGS, "strings": _STRINGS, "rec": _STRUCTURED, "ma": "masked arrays"}


class _Submodule(types.ModuleType):
    """``numpy.<name>`` of SUBMODULE_REASONS: each public name of NumPy's module is a stand-in (made when first
    read), so code written against the shim gets UnsupportedFeature naming the feature where it got an
    AttributeError from the shim; a value that is no callable (``ma.masked``) refuses when read."""

    def __getattr__(self, attr):
        name = f"{self.__name__.rpartition('.')[2]}.{attr}"
        theirs = None if attr.startswith("_") else _numpy_object(name)
        if theirs is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {attr!r}")
        reason = SUBMODULE_REASONS[name.partition(".")[0]]
        if not callable(theirs):
            raise UnsupportedFeature(_message(name, reason))
        stand_in = _stand_in(name, reason)
        setattr(self, attr, stand_in)
        return stand_in


_MAIN = [n for n in REASONS if "." not in n]
globals().update(stand_ins())
globals().update({m: _Submodule(f"npcompile._numpy.{m}") for m in SUBMODULE_REASONS})
__all__ = _MAIN
