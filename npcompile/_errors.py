"""Exceptions shared by every part of npcompile."""


class UnsupportedFeature(NotImplementedError):
    """A NumPy feature the torch-backed shim does not model (strings, object dtypes, ...).

    The compiler catches it and runs the call in real NumPy instead.
    """

    def __init__(self, feature: str):
        super().__init__(f"npcompile does not support {feature}")
        self.feature = feature
