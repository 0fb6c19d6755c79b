"""Exceptions shared by every part of npcompile."""


class UnsupportedFeature(NotImplementedError):
    """A NumPy feature the torch-backed shim does not model (strings, object dtypes, ...).

    The compiler catches it and runs the call in real NumPy instead.
    """

    def __init__(self, feature: str):
        super().__init__(f"npcompile does not support {feature}")
        self.feature = feature


# A traced check that NumPy would raise on (a singular matrix in linalg.inv): the shim emits
# ``torch._assert_async(ok, LINALG_TAG + message)``, which the compiled code raises as a RuntimeError carrying
# that text; ``numpy_error`` turns it back into NumPy's exception where compiled graphs are called.
LINALG_TAG = "numpy.linalg.LinAlgError: "


def numpy_error(e: RuntimeError) -> Exception | None:
    """NumPy's exception for a RuntimeError raised by a traced check, else None."""
    text = str(e)
    at = text.find(LINALG_TAG)
    if at < 0:
        return None
    from numpy.linalg import LinAlgError

    return LinAlgError(text[at + len(LINALG_TAG):].splitlines()[0])
