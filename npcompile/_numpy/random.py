"""TODO"""

__all__ = []
