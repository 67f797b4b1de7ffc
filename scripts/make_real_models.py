"""Make tests/data/real_models/: small models written by real exporters, for the "Your model" tests.

Each model is built from code or a small config (nothing is downloaded) and exported by the exporter its kind
names; the files are committed, so the tests need neither torch nor transformers. Run it again to remake them:

    pip install torch==2.13.0 transformers onnxscript torch_geometric  # torch's CPU wheel; see VERSIONS.txt
    python scripts/make_real_models.py

Kinds: a Llama and a Qwen2 decode step with a static KV cache (transformers, torch.onnx.export), GNNs: one of
torch_geometric's own layers and pools, and one hand-written the way torch_geometric.utils.scatter writes it
(scatter_reduce and index_add_ over edge indices and a batch vector), a TorchScript loop, a torch.cond, masked
post-processing, and two OpenVINO IRs from openvino.convert_model. Hidden sizes are tiny: each file is a few KB.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "real_models"


def _torch():
    import torch

    torch.manual_seed(0)
    return torch


def _export(module, args, name, input_names, dynamic_axes=None, dynamo=True, **kw):
    torch = _torch()
    path = OUT / f"{name}.onnx"
    torch.onnx.export(module, args, str(path), input_names=input_names, dynamic_axes=dynamic_axes,
                      opset_version=18, dynamo=dynamo, **kw)
    import onnx

    model = onnx.load(str(path))  # inline any external data the exporter wrote beside it
    onnx.save(model, str(path), save_as_external_data=False)
    for extra in OUT.glob(f"{name}.onnx.data"):
        extra.unlink()
    return path


# -- GNN layers as PyG writes them ------------------------------------------------------------------------------

def gnn_module():
    torch = _torch()

    class MaxSumConv(torch.nn.Module):
        """A message-passing layer (x_j @ W gathered along edges, aggregated at targets by max and by sum, as
        torch_geometric.utils.scatter does with scatter_reduce_/index_add_), then global add and max pooling over
        the batch vector."""

        def __init__(self, f_in=4, f_out=4, graphs=2):
            super().__init__()
            self.lin = torch.nn.Linear(f_in, f_out)
            self.graphs = graphs

        def forward(self, x, edge_index, batch):
            src, dst = edge_index[0], edge_index[1]
            msg = self.lin(x)[src]
            idx = dst.unsqueeze(-1).expand_as(msg)
            agg_max = torch.zeros(x.size(0), msg.size(1)).scatter_reduce(0, idx, msg, "amax", include_self=False)
            agg_sum = torch.zeros(x.size(0), msg.size(1)).index_add(0, dst, msg)
            h = torch.relu(agg_max + agg_sum)
            b = batch.unsqueeze(-1).expand_as(h)
            pooled_sum = torch.zeros(self.graphs, h.size(1)).scatter_add(0, b, h)
            pooled_max = torch.zeros(self.graphs, h.size(1)).scatter_reduce(0, b, h, "amax", include_self=False)
            return pooled_sum, pooled_max

    x = torch.randn(6, 4)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 1, 2], [1, 0, 3, 2, 5, 4, 2, 1]])
    batch = torch.tensor([0, 0, 0, 1, 1, 1])
    return MaxSumConv().eval(), (x, edge_index, batch)


def make_gnn():
    module, args = gnn_module()
    _export(module, args, "gnn_max_sum", ["x", "edge_index", "batch"],
            dynamic_axes={"x": {0: "num_nodes"}, "edge_index": {1: "num_edges"}, "batch": {0: "num_nodes"}})


def pyg_module():
    """Layers of torch_geometric itself (SAGEConv with max aggregation, GraphConv with sum), then
    global_add_pool and global_max_pool over the batch vector."""
    torch = _torch()
    from torch_geometric.nn import GraphConv, SAGEConv, global_add_pool, global_max_pool

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = SAGEConv(4, 4, aggr="max")
            self.conv2 = GraphConv(4, 4, aggr="add")

        def forward(self, x, edge_index, batch):
            h = torch.relu(self.conv1(x, edge_index))
            h = self.conv2(h, edge_index)
            return global_add_pool(h, batch, size=2), global_max_pool(h, batch, size=2)

    _, args = gnn_module()
    return Net().eval(), args


def make_pyg():
    module, args = pyg_module()
    _export(module, args, "pyg_sage_graphconv", ["x", "edge_index", "batch"],
            dynamic_axes={"x": {0: "num_nodes"}, "edge_index": {1: "num_edges"}, "batch": {0: "num_nodes"}})


# -- a TorchScript loop ------------------------------------------------------------------------------------------

def make_loop():
    torch = _torch()

    class Accumulate(torch.nn.Module):
        def forward(self, acc, index, updates, steps):
            for _ in range(int(steps)):
                acc = acc.scatter_add(0, index, updates)
            return acc

    scripted = torch.jit.script(Accumulate())
    args = (torch.zeros(5, 3), torch.tensor([[0, 1, 2], [4, 3, 2]]), torch.ones(2, 3), torch.tensor(3))
    _export(scripted, args, "scripted_loop", ["acc", "index", "updates", "steps"], dynamo=False)


# -- torch.cond -------------------------------------------------------------------------------------------------

def make_cond():
    torch = _torch()

    class Branchy(torch.nn.Module):
        def forward(self, data, index, updates):
            def write(d, i, u):
                return d.scatter(0, i, u)

            def add(d, i, u):
                return d.scatter_add(0, i, u)

            return torch.cond(updates.sum() > 0, write, add, (data, index, updates))

    args = (torch.zeros(4, 3), torch.tensor([[1, 0, 3], [2, 2, 0]]), torch.ones(2, 3))
    _export(Branchy(), args, "torch_cond", ["data", "index", "updates"])


# -- masked post-processing -------------------------------------------------------------------------------------

def postprocess_module():
    torch = _torch()

    class KeepBest(torch.nn.Module):
        """Detections: scores under a threshold are zeroed by a mask, and each box's best class is written into
        a per-class table at the class index (index_put)."""

        def forward(self, scores, labels):
            keep = scores > 0.5
            scores = scores.masked_fill(~keep, 0.0)
            table = torch.zeros(3, scores.size(0))
            rows = labels
            cols = torch.arange(scores.size(0))
            table = table.index_put((rows, cols), scores)
            return table

    return KeepBest().eval(), (torch.tensor([0.9, 0.2, 0.7, 0.6, 0.1]), torch.tensor([1, 2, 0, 1, 2]))


def make_postprocess():
    module, args = postprocess_module()
    _export(module, args, "masked_postprocess", ["scores", "labels"],
            dynamic_axes={"scores": {0: "boxes"}, "labels": {0: "boxes"}})


# -- decode steps with a static KV cache (transformers) ----------------------------------------------------------

def decode_module(kind: str):
    torch = _torch()
    import transformers

    if kind == "llama":
        config = transformers.LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                          num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=16,
                                          head_dim=8)
        model = transformers.LlamaForCausalLM(config)
    else:
        config = transformers.Qwen2Config(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                          num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=16)
        model = transformers.Qwen2ForCausalLM(config)
    model.eval()
    cache_len = 8

    class DecodeStep(torch.nn.Module):
        """One decode step: this token's keys and values written into a static cache at cache_position
        (index_copy_ along the sequence axis, as transformers' StaticCache does), then attention over the cache."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, cache_position, past_key, past_value):
            cache = transformers.StaticCache(config=config, max_cache_len=cache_len)
            layer = cache.layers[0]
            layer.lazy_initialization(past_key[:, :, :1], past_value[:, :, :1])
            # the step's own state: the cache so far, and where this step writes (StaticLayer writes
            # arange(tokens) + cumulative_length)
            layer.keys, layer.values = past_key.clone(), past_value.clone()
            layer.cumulative_length = cache_position[:1].clone()
            out = self.model(input_ids=input_ids, past_key_values=cache, cache_position=cache_position,
                             position_ids=cache_position.unsqueeze(0), use_cache=True)
            return out.logits, layer.keys, layer.values

    head_dim = config.hidden_size // config.num_attention_heads
    shape = (1, config.num_key_value_heads, cache_len, head_dim)
    args = (torch.tensor([[5]]), torch.tensor([3]), torch.zeros(shape), torch.zeros(shape))
    return DecodeStep().eval(), args


def make_decode(kind: str):
    module, args = decode_module(kind)
    _export(module, args, f"{kind}_decode_static_cache", ["input_ids", "cache_position", "past_key", "past_value"])


# -- OpenVINO IRs from convert_model ------------------------------------------------------------------------------

def make_irs():
    import openvino as ov

    for name, (module, args) in (("ov_gnn_max_sum", gnn_module()), ("ov_llama_decode", decode_module("llama"))):
        model = ov.convert_model(module, example_input=args)
        ov.save_model(model, str(OUT / f"{name}.xml"), compress_to_fp16=False)


def versions() -> str:
    import importlib.metadata as md

    lines = [f"python {sys.version.split()[0]}"]
    for dist in ("torch", "transformers", "torch_geometric", "onnx", "onnxscript", "openvino", "numpy"):
        try:
            lines.append(f"{dist} {md.version(dist)}")
        except md.PackageNotFoundError:
            lines.append(f"{dist} (not installed)")
    return "\n".join(lines) + "\n"


MAKERS = {"gnn": make_gnn, "pyg": make_pyg, "loop": make_loop, "cond": make_cond, "postprocess": make_postprocess,
          "llama": lambda: make_decode("llama"), "qwen2": lambda: make_decode("qwen2"), "irs": make_irs}


def main(argv=None) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = (argv if argv is not None else sys.argv[1:]) or list(MAKERS)
    for key in wanted:
        MAKERS[key]()
        print(f"made {key}")
    (OUT / "VERSIONS.txt").write_text(versions(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
