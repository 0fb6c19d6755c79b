"""Small helpers shared by kernel modules (byte counts for memory-bound kernels)."""


def nbytes(*arrays):
    """Total size in bytes of the given arrays: what one pass over them reads or writes."""
    return int(sum(a.nbytes for a in arrays))
