"""npcompile's ``backend="aot_eager"``: torch's, with the forward graph checking the sizes the data decides.

AOTAutograd retraces Dynamo's graph, whose runtime assertions on data-dependent sizes (``_trace.check``) then read
the retraced sizes.  Where an assertion made a size a constant (``np.interp(x, np.arange(4), fp)`` with ``fp``
from ``np.bincount(d, minlength=4)``: the trace goes on with length 4) the retraced assertion is ``True`` and
nothing checks the size at run time (torch's aot_eager answered from the first 4 of 6 counts, NumPy raises
ValueError).  Inductor asserts them from the ShapeEnv where each size is bound; this does the same for the
forward graph that aot_eager runs.
"""

from torch._dynamo.backends.debugging import aot_eager as _torch_aot_eager, boxed_nop
from torch._guards import detect_fake_mode
from torch.fx.passes.runtime_assert import insert_deferred_runtime_asserts


def _forward(gm, example_inputs):
    mode = detect_fake_mode(example_inputs)
    if mode is not None and mode.shape_env is not None:
        insert_deferred_runtime_asserts(gm, mode.shape_env, "npcompile aot_eager forward")
        gm.recompile()
    return boxed_nop(gm, example_inputs)


def aot_eager(gm, example_inputs, **kwargs):
    return _torch_aot_eager(gm, example_inputs, fw_compiler=_forward, **kwargs)
