"""Peak resident memory from /proc/self/status. tracemalloc does not see torch's allocator and
ru_maxrss cannot be reset, but writing 5 to /proc/self/clear_refs resets VmHWM (Linux >= 4.0), so the
peak of a single call can be measured as VmHWM after it minus VmRSS just before it."""


def _status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def rss_bytes():
    """Current resident set size (VmRSS)."""
    return _status_kib("VmRSS") * 1024


def hwm_bytes():
    """Peak resident set size since start or since the last reset_hwm() (VmHWM)."""
    return _status_kib("VmHWM") * 1024


def reset_hwm():
    """Reset VmHWM to the current RSS; returns False where the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False
