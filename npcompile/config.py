"""npcompile settings.  Change them at run time: ``npcompile.config.trace_numpy = False``.

Each setting is read when a function is compiled (not per call), except where noted.
"""

# Trace NumPy calls into fused kernels.  False: every NumPy call runs eagerly in real NumPy (torch code in the
# function is still compiled).
trace_numpy = True

# Emit ``npcompile.FallbackWarning`` (once per feature) when part of a function runs in real NumPy because
# npcompile cannot compile it (an unsupported dtype, a function the shim lacks, an ndarray subclass...).
warn_on_fallback = False

# Boolean-mask indexing (``a[a > 0]``) and other ops whose output size depends on the data: capture them in
# the graph (True) or graph-break around them (False).
capture_dynamic_output_shape_ops = True

# How many specialised versions of one function to keep before running it eagerly (Dynamo's recompile limit).
recompile_limit = 16

# Never crash on an internal compiler error: run the affected frame in real NumPy instead (ignored with
# ``fullgraph=True``, which raises).
suppress_errors = True

# Let a graph break inside a nested call resume inside that call (TorchDynamo's ``nested_graph_breaks``):
# fewer, larger graphs around breaks (9 of the 54 test programs have one graph more without).  Only for
# functions called directly, not those a builtin calls (``sorted(key=...)``, ``map``: see
# ``tracing._dynamo_patch._tx_inline_user_function_return``).  Ignored on torch releases without a correct one
# (``tracing._dynamo_patch.NESTED_GRAPH_BREAKS``).
nested_graph_breaks = True

# Run Python loops over arrays in Python, calling their body (compiled once) per step, not unrolled (tracing._loops).
outline_loops = True

# Cut a function at its first top-level ``if`` on array values into compiled parts around a Python ``if``, instead
# of a graph break that costs about 100 µs per call (tracing._branches).
cut_branches = True
