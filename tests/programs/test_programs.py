"""Each NumPy program, compiled with npcompile.compile (aot_eager in the default run: fast, and it exercises
AOTAutograd's tracing of the shim), against plain NumPy on fresh random inputs."""

import copy

import numpy as np
import pytest
import torch
from torch._dynamo.backends.registry import lookup_backend

from npcompile import _compile as C

from . import programs2, programs3, programs4  # noqa: F401  (register their programs into PROGRAMS)
from .programs import PROGRAMS

_RESULTS: dict = {}  # name -> (graph count, fallback features)

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _assert_close(got, exp, rtol, atol, path="result"):
    if isinstance(exp, (tuple, list)):
        assert type(got) is type(exp) and len(got) == len(exp), f"{path}: {type(got)} vs {type(exp)}"
        for i, (g, e) in enumerate(zip(got, exp)):
            _assert_close(g, e, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(exp, dict):
        assert type(got) is dict and got.keys() == exp.keys()
        for k in exp:
            _assert_close(got[k], exp[k], rtol, atol, f"{path}[{k!r}]")
        return
    if isinstance(exp, (np.ndarray, np.generic)):
        assert type(got) is type(exp), f"{path}: type {type(got).__name__}, NumPy gives {type(exp).__name__}"
        assert got.dtype == exp.dtype, f"{path}: dtype {got.dtype}, NumPy gives {exp.dtype}"
        assert np.shape(got) == np.shape(exp), f"{path}: shape {np.shape(got)} vs {np.shape(exp)}"
        if exp.dtype.kind in "fc":
            np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol, err_msg=path)
        else:
            np.testing.assert_array_equal(got, exp, err_msg=path)
        return
    if isinstance(exp, float):
        assert type(got) is float
        np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol, err_msg=path)
        return
    assert got == exp, path


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if PROGRAMS[n].slow else n
                                  for n in sorted(PROGRAMS)])
def test_program_matches_numpy(name, request):
    prog = PROGRAMS[name]
    if prog.known_bug:
        request.applymarker(pytest.mark.xfail(reason=prog.known_bug, strict=True))
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    inputs = prog.make_inputs(rng)
    exp_args = copy.deepcopy(inputs)
    expected = prog.fn(*exp_args)
    graphs = []
    aot = lookup_backend("aot_eager")

    def backend(gm, example_inputs):
        graphs.append(gm)
        return aot(gm, example_inputs)

    got_args = copy.deepcopy(inputs)
    report = C.explain(prog.fn, backend=backend)(*got_args)
    _assert_close(report.result, expected, prog.rtol, prog.atol)
    _assert_close(got_args, exp_args, prog.rtol, prog.atol, "arguments after the call")  # in-place writes
    # a second call with fresh inputs of the same shapes reuses the compiled code and is still right
    inputs2 = prog.make_inputs(rng)
    _assert_close(report.compiled(*copy.deepcopy(inputs2)), prog.fn(*copy.deepcopy(inputs2)), prog.rtol, prog.atol)
    loops = sum(e.feature == "outlined loop" for e in report.graph_breaks)
    _RESULTS[name] = (report.graph_count, sorted({e.feature for e in report.fallbacks}),
                      report.graph_break_count, loops)



@pytest.mark.slow
@pytest.mark.inductor
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_under_inductor(name):
    """Each program compiled by Inductor, the default backend (5 minutes for all on 2 cores: slow): NumPy's answer,
    and no function handed back to NumPy because Inductor failed to compile it (the fallback feature "frame").  What
    aot_eager cannot see: generated C++, our lowerings, AOTAutograd's cache (``deriche_rows`` was wrong there)."""
    prog = PROGRAMS[name]
    inputs = prog.make_inputs(np.random.default_rng(abs(hash(name)) % 2**32))
    expected = prog.fn(*copy.deepcopy(inputs))
    report = C.explain(prog.fn, backend="inductor")(*copy.deepcopy(inputs))
    _assert_close(report.result, expected, prog.rtol, prog.atol)
    assert "frame" not in {e.feature for e in report.fallbacks}, str(report)

def test_zz_summary_single_graph_programs(capsys):
    """Counts programs captured as exactly one graph with no fallback (grows as the shim grows), and those
    whose only breaks are deliberately outlined loops (``config.outline_loops``: each part one graph)."""
    if len(_RESULTS) < sum(not p.slow for p in PROGRAMS.values()):
        pytest.skip("run with the whole program set")
    single = sorted(n for n, (g, fb, br, _) in _RESULTS.items() if g == 1 and not fb and br == 0)
    outlined = sorted(n for n, (g, fb, br, loops) in _RESULTS.items() if not fb and br and br == loops)
    lines = [f"{len(single)}/{len(_RESULTS)} programs compile to a single graph with no fallback, "
             f"{len(outlined)} more to single graphs around outlined loops"]
    for n, (g, fb, br, loops) in sorted(_RESULTS.items()):
        if n not in single and n not in outlined:
            lines.append(f"  {n}: {g} graph(s), {br} break(s), fallbacks: {', '.join(fb) or '-'}")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert len(PROGRAMS) >= 40
