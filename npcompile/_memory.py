"""Reuse of freed buffers between compiled calls (glibc only).

Each call of a compiled kernel allocates fresh output and temporary buffers and frees them.  With glibc's
defaults a freed multi-megabyte buffer goes back to the OS, and the next call's buffer of the same size is
faulted in again one 4 KB page at a time: for a fused softmax on 32 MB that was more time than the kernel
(33 ms instead of 12.5 ms per call on our 2-core machine; a 1000x1000 heat step 9 ms instead of 2.9 ms; joining two
2048x2048 float64 arrays, a 64 MB result, 20 ms instead of 4.1, where NumPy, whose large arrays get huge pages,
took 5.8).  NumPy's own temporaries pay the same and gain the same.  So npcompile asks glibc to serve buffers up
to 256 MB from the heap and to keep up to 512 MB of freed heap for reuse.  Torch's huge-page switch
(``THP_MEM_ALLOC_ENABLE``) was tried instead: it only works when set before torch's first allocation, and on
a long-running machine the kernel's huge-page compaction made some kernels 3x slower.

A process that sets ``MALLOC_MMAP_THRESHOLD_`` or ``MALLOC_TRIM_THRESHOLD_`` itself keeps its own choice.
"""

from __future__ import annotations

import ctypes
import os
import platform

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 256 << 20
_TRIM_THRESHOLD = 512 << 20


def keep_freed_memory() -> bool:
    """Apply the settings above; False where they do not apply (not glibc, or the user chose)."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD) and mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
