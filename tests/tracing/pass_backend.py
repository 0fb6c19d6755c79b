"""Testing one of our Inductor post-grad passes without Inductor: a backend (NumPy code through the shim and
AOTAutograd with Inductor's decompositions, the pass applied to each forward graph as Inductor hands it over, no-op
views removed, and the graph run as it is), and ``rewritten`` for torch code traced with fake tensors."""

import torch
from torch._dynamo.backends.common import aot_autograd
from torch.fx.experimental.proxy_tensor import make_fx
from torch._inductor.decomposition import select_decomp_table
from torch._inductor.fx_passes.post_grad import remove_noop_ops


class PassBackend:
    """The backend; keeps the graphs."""

    def __init__(self, graph_pass):
        self.graph_pass, self.graphs = graph_pass, []

    def fw(self, gm, example_inputs):
        remove_noop_ops(gm.graph)  # (Inductor's post-grad passes do this before ours)
        gm.graph.eliminate_dead_code()
        self.graph_pass(gm.graph)
        gm.graph.lint()
        gm.recompile()
        self.graphs.append(gm)
        return gm

    def __call__(self, gm, example_inputs):
        return aot_autograd(fw_compiler=self.fw, decompositions=select_decomp_table(),
                            keep_inference_input_mutations=True)(gm, example_inputs)

    def calls(self, targets):
        """The nodes of the kept graphs calling one of ``targets``."""
        return [n for g in self.graphs for n in g.graph.nodes if n.target in targets]


def rewritten(graph_pass, fn, *args):
    """``fn`` traced to an aten graph with fake tensors, then rewritten by ``graph_pass``: a module to run."""
    gm = make_fx(fn, tracing_mode="fake")(*args)
    graph_pass(gm.graph)
    gm.graph.lint()
    gm.recompile()
    return gm
