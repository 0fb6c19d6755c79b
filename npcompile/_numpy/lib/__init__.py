"""``numpy.lib``: the parts code calls functions from (``np.lib.stride_tricks.sliding_window_view``)."""

from . import stride_tricks  # noqa: F401
