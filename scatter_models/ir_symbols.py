"""Sizes an OpenVINO IR's dynamic dims can take, and its graph for the draws, found with OpenVINO's own shape
inference (run in a child process, ``python -m scatter_models.ir_symbols DIR``: the server never imports
OpenVINO).

Each dynamic dim of each Parameter gets a symbol; OpenVINO's shape inference carries the symbols through the
graph. Where one meets another (an elementwise op, a MatMul's inner dims, a Concat's other axes, a scatter's
indices and updates) they are one size; where one meets a fixed size other than 1, it is that size. The dims left
free are then tried, smallest change first, until OpenVINO's static shape inference accepts the whole model
(each try is a ``Model.reshape``): the sizes found are the defaults of the dims boxes. When no try passes, the
refusal names the node, the dims that reach it and OpenVINO's words.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ELEMENTWISE = {"Add", "Subtract", "Multiply", "Divide", "Maximum", "Minimum", "Power", "Equal", "NotEqual", "Less",
               "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr", "SquaredDifference", "FloorMod",
               "Mod", "Select"}
SAME_SHAPE = {"ScatterElementsUpdate": (1, 2), "ScatterUpdate": (), "ScatterNDUpdate": ()}
CANDIDATES = (1, 2, 8, 16, 32)  # tried for a free dim after the default, when the default is refused
MAX_TRIES = 40
KEEP_CONST = 64
KEEP_MODELS = 4  # answers kept by model digest, for the same IR opened in other sessions
_BY_DIGEST: dict = {}


class _Union:
    def __init__(self):
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def _dims_of(pshape, names):
    """A partial shape's dims: ints, the Parameter dim a symbol stands for, None."""
    if pshape.rank.is_dynamic:
        return None
    out = []
    for i in range(pshape.rank.get_length()):
        d = pshape[i]
        if d.is_static:
            out.append(d.get_length())
        elif d.has_symbol():
            out.append(next((n for n, s in names if s == d.get_symbol()), None))
        else:
            out.append(None)
    return out


def _const_axis(op, port: int):
    try:
        src = op.input(port).get_source_output().get_node()
        return int(src.get_data().reshape(-1)[0]) if src.get_type_name() == "Constant" else None
    except Exception:  # noqa: BLE001 - no such port, or not a constant
        return None


def analyse(xml: str, default: int) -> dict:
    import numpy as np
    import openvino as ov

    core = ov.Core()
    model = core.read_model(xml)
    names, params = [], []
    for p in model.get_parameters():
        ps = p.get_partial_shape()
        if ps.rank.is_dynamic:
            continue
        dims = []
        for i in range(ps.rank.get_length()):
            if ps[i].is_static:
                dims.append(ps[i])
                continue
            d, s = ov.Dimension(), ov.Symbol()
            d.set_symbol(s)
            names.append((f"{p.get_friendly_name()}[{i}]", s))
            dims.append(d)
        p.set_partial_shape(ov.PartialShape(dims))
        params.append(p)
    model.validate_nodes_and_infer_types()
    union, fixed = _Union(), {}

    def meet(a, b):
        if isinstance(a, str) and isinstance(b, str):
            union.join(a, b)
        elif isinstance(a, str) and isinstance(b, int) and b != 1:
            fixed.setdefault(a, b)
        elif isinstance(b, str) and isinstance(a, int) and a != 1:
            fixed.setdefault(b, a)

    nodes, consts = [], {}

    def tensor(out) -> str:
        node = out.get_node()
        if node.get_type_name() == "Parameter":
            return node.get_friendly_name()
        return f"{node.get_friendly_name()}:{out.get_index()}"

    for op in model.get_ordered_ops():
        kind = op.get_type_name()
        shapes = [_dims_of(op.get_input_partial_shape(i), names) for i in range(op.get_input_size())]
        if kind in ELEMENTWISE and len(shapes) >= 2:
            ins = shapes[1:] if kind == "Select" else shapes
            for a, b in zip(ins, ins[1:]):
                if a is not None and b is not None:
                    for x, y in zip(reversed(a), reversed(b)):
                        meet(x, y)
        elif kind == "MatMul" and all(s is not None and len(s) >= 2 for s in shapes[:2]):
            attrs = op.get_attributes()
            a, b = shapes[0], shapes[1]
            meet(a[-2] if attrs.get("transpose_a") else a[-1], b[-1] if attrs.get("transpose_b") else b[-2])
        elif kind == "Concat" and all(s is not None for s in shapes) and shapes:
            axis = op.get_attributes().get("axis", 0)
            for s in shapes[1:]:
                if len(s) == len(shapes[0]):
                    for i, (x, y) in enumerate(zip(shapes[0], s)):
                        if i != axis % len(s):
                            meet(x, y)
        elif kind in SAME_SHAPE and len(SAME_SHAPE[kind]) == 2:
            a, b = (shapes[i] for i in SAME_SHAPE[kind])
            if a is not None and b is not None and len(a) == len(b):
                for x, y in zip(a, b):
                    meet(x, y)
            data, axis = shapes[0], _const_axis(op, 3)
            if data is not None and b is not None and len(data) == len(b) and axis is not None:
                for i, (x, y) in enumerate(zip(data, b)):  # a cache written along one axis: the others match
                    if i != axis % len(data):
                        meet(x, y)
        elif kind == "ScaledDotProductAttention" and all(s is not None for s in shapes[:3]):
            q, k, v = shapes[:3]
            if len(q) == len(k) == len(v) >= 2:
                meet(q[-1], k[-1])
                meet(k[-2], v[-2])
                for x, y, z in zip(q[:-2], k[:-2], v[:-2]):
                    meet(x, y)
                    meet(y, z) if y != 1 else None
                mask = shapes[3] if len(shapes) > 3 else None
                if mask:
                    meet(mask[-1], k[-2])
        if kind == "Constant":
            try:
                arr = op.get_data()
                if arr.size <= KEEP_CONST and arr.dtype.kind in "iu":
                    consts[op.get_friendly_name() + ":0"] = arr.tolist()
            except Exception:  # noqa: BLE001 - a constant it cannot read is left out
                pass
        nodes.append({"op": kind, "name": op.get_friendly_name(),
                      "inputs": [tensor(i.get_source_output()) for i in op.inputs()],
                      "outputs": [tensor(op.output(k)) for k in range(op.get_output_size())],
                      "attrs": {k: v for k, v in op.get_attributes().items() if isinstance(v, (int, float, str))},
                      "shapes": shapes})
    for i, (a, sa) in enumerate(names):  # dims OpenVINO's inference found equal are one size
        for b, sb in names[i + 1:]:
            if sa == sb:
                union.join(a, b)
    classes: dict = {}
    for n, _ in names:
        classes.setdefault(union.find(n), []).append(n)
    value = {}
    for root, members in classes.items():
        known = [fixed[m] for m in members if m in fixed]
        value[root] = known[0] if known else None
    sizes, refusal = _settle(model, xml, params, names, classes, value, default, ov, np)
    return {"nodes": nodes, "consts": consts, "sizes": sizes, "refusal": refusal,
            "classes": [m for m in classes.values() if len(m) > 1],
            "fixed": {m: value[r] for r, ms in classes.items() for m in ms if value[r] is not None}}


def _settle(model, xml_path, params, names, classes, value, default, ov, np):
    """Sizes for every dim OpenVINO's static shape inference accepts, trying the free classes' candidates."""
    if not classes:  # every dim is fixed in the file: nothing to settle
        return {}, None
    free = [r for r in classes if value[r] is None]
    choice = {r: (value[r] if value[r] is not None else default) for r in classes}
    order = [op.get_friendly_name() for op in model.get_ordered_ops()]

    dynamic = []  # the model as the capture compiles it (dynamic shapes: other kernels than a reshaped one)

    def attempt(ch):
        sizes = {m: ch[r] for r, ms in classes.items() for m in ms}
        shapes, feeds = {}, {}
        for p in params:
            ps = p.get_partial_shape()
            dims = [sizes.get(f"{p.get_friendly_name()}[{i}]", ps[i].get_length() if ps[i].is_static else default)
                    for i in range(ps.rank.get_length())]
            shapes[p.output(0)] = ov.PartialShape(dims)
            feeds[p.get_friendly_name()] = np.zeros(dims, dtype=p.get_element_type().to_dtype())
        try:
            model.reshape(shapes)
        except Exception as exc:  # noqa: BLE001 - OpenVINO's words say which node refused
            text = str(exc)
            reached = max((i for i, n in enumerate(order) if n and n in text), default=-1)
            return sizes, text, reached
        try:  # the shapes pass; a run on zeros says whether the kernels take them
            if not dynamic:
                dynamic.append(ov.Core().compile_model(xml_path, "CPU"))
            dynamic[0](feeds)
        except Exception as exc:  # noqa: BLE001
            return sizes, str(exc), len(order) - 1
        return sizes, None, len(order)

    sizes, error, reached = attempt(choice)
    tries = 1
    improved = True
    while error is not None and improved and tries < MAX_TRIES:
        improved = False
        best = None
        for r in free:
            for c in CANDIDATES:
                if c == choice[r] or tries >= MAX_TRIES:
                    continue
                trial = dict(choice, **{r: c})
                s2, e2, reached2 = attempt(trial)
                tries += 1
                if e2 is None:
                    return s2, None
                if reached2 > reached and (best is None or reached2 > best[3]):
                    best = (trial, s2, e2, reached2)
        if best is not None:
            choice, sizes, error, reached = best
            improved = True
    if error is None:
        return sizes, None
    return sizes, error.strip().splitlines()[-1][:600] if error.strip() else "refused"


def ir_info(model, default: int | None = None) -> dict | None:
    """The child process's answer for ``model`` (cached on it); None when OpenVINO is not installed or fails."""
    held = getattr(model, "_ir_info", None)
    if held is None:
        held = _BY_DIGEST.get(model.digest)  # the same file opened in another session
    if held is not None:
        model._ir_info = held
        return held or None
    import importlib.util
    import subprocess
    import tempfile

    from .limits import DEFAULT_DIM, memory_limit, time_limit

    info = False
    if importlib.util.find_spec("openvino") is not None:
        with tempfile.TemporaryDirectory(prefix="scatter_ir_") as tmp:
            d = Path(tmp)
            (d / "model.xml").write_bytes(model._payload)
            (d / "model.bin").write_bytes(model._weights or b"")
            try:
                proc = subprocess.Popen([sys.executable, "-m", "scatter_models.ir_symbols", str(d),
                                         str(default or DEFAULT_DIM)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=_env(), cwd=tmp)
                if _watched(proc, time_limit(), memory_limit()) == 0 and (d / "answer.json").exists():
                    info = json.loads((d / "answer.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                info = False
    model._ir_info = info
    _BY_DIGEST[model.digest] = info
    while len(_BY_DIGEST) > KEEP_MODELS:
        _BY_DIGEST.pop(next(iter(_BY_DIGEST)))
    return info or None


def _watched(proc, seconds: float, max_rss: int) -> int | None:
    """The child's exit code; None when it passed the time or memory limit of a capture (it is killed then)."""
    import time

    end = time.monotonic() + seconds
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status", encoding="ascii") as f:
                rss = next((int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:")), 0)
        except OSError:
            rss = 0
        if rss > max_rss or time.monotonic() > end:
            proc.kill()
            proc.wait()
            return None
        time.sleep(0.02)
    return proc.returncode


def _env() -> dict:
    """The child's environment: this package importable from its folder (as the capture's worker has it)."""
    import os

    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def main(argv) -> int:
    folder = Path(argv[0])
    answer = analyse(str(folder / "model.xml"), int(argv[1]))
    (folder / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
