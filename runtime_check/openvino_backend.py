"""OpenVINO runtimes: the CPU plugin and the reference implementation.

Each call builds one node with the Python factory of the version's opset (``extra["openvino_opset"]`` or
``opset<version>``), its tensor inputs as ``Parameter`` nodes of exact types and static shapes, and the
attributes OpenVINO takes as inputs (``axis``; SliceScatter's ``start``, ``stop``, ``step``, ``axes``) as
``Constant`` nodes; ``reduction`` and ``use_init_val`` pass as given, so OpenVINO's own checks apply.

* ``"openvino-cpu"``: the node in an ``ov.Model`` compiled for ``"CPU"`` with the default configuration, as a
  deployed model runs, the plugin's own kernels and divergences included.
* ``"openvino-reference"``: the op's reference kernel through ``Node.evaluate`` (the pinned wheel has no
  reference device); ``evaluate`` returning ``False`` (no kernel for that element type) becomes an error.
  :func:`run_constant_folding` reaches the same kernel by constant folding; the tests check both agree.

Why these paths, and what the plugin does differently: docs/architecture.md, runtime_check/openvino_backend.py.
"""

from __future__ import annotations

import importlib
import re
import threading

import numpy as np

import scatter_core as sc
from scatter_core import OpSpec

from ._common import axis_array, input_arrays, int_list, node_inputs

_CORE = None
_CORE_LOCK = threading.Lock()


def factory(spec: OpSpec):
    """The Python node factory for ``spec`` (from the record, not from a table of names)."""
    opset_name = spec.extra.get("openvino_opset", f"opset{spec.version}")
    module = importlib.import_module(f"openvino.{opset_name}")
    # CamelCase with acronyms to snake_case: ScatterNDUpdate -> scatter_nd_update
    func_name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", spec.op_type).lower()
    return getattr(module, func_name)


def input_array(codec: sc.AttrCodec, value) -> np.ndarray:
    """An attribute given to OpenVINO as a tensor input: a value of its kind (a Python integer or list) in its
    codec's form (an int64 scalar or 1-D list); an array keeps its dtype and anything else goes as given, so
    OpenVINO's own checks apply."""
    if not isinstance(value, np.ndarray) and codec.of_kind(value):
        return codec.to_openvino(value)
    values = int_list(codec.name, value)
    if values is not None and not isinstance(value, np.ndarray):
        return np.asarray(values, dtype=np.int64).reshape(len(values))
    return axis_array(value)


def _split_attrs(spec: OpSpec, attrs: dict):
    """(arrays of the attributes that are inputs, in attribute order; keyword attributes for the factory)."""
    attrs = dict(attrs)
    inputs = []
    for a in spec.attributes:
        if not a.is_input:
            continue
        value = attrs.pop(a.name, None)
        if value is None:
            if a.required:
                raise ValueError(f"{a.name} is a required input of {spec.name}")
            continue  # an optional input left out (SliceScatter's axes)
        inputs.append(input_array(sc.codec_of(spec, a), value))
    kwargs = {}
    for key, value in attrs.items():
        if isinstance(value, np.bool_):
            value = bool(value)
        kwargs[key] = value
    reduction = sc.reduction_codec(spec)
    if spec.attribute(reduction.name) is not None:  # the factories' own default differs per opset
        kwargs.setdefault(reduction.name, reduction.default)
    return inputs, kwargs


def build_node(spec: OpSpec, data: np.ndarray, indices: np.ndarray | None, updates: np.ndarray, attrs: dict,
               *, constant_inputs: bool = False):
    """(node, parameters, input arrays in the node's input order)."""
    import openvino as ov
    from openvino import opset1

    attr_inputs, kwargs = _split_attrs(spec, attrs)
    named = node_inputs(spec, data, indices, updates)
    if constant_inputs:
        params = []
        nodes = [ov.op.Constant(ov.Tensor(a)) for _, a in named]
    else:
        params = [opset1.parameter(list(a.shape), ov.Type(a.dtype.type), name=n) for n, a in named]
        nodes = list(params)
    inputs = [a for _, a in named] + attr_inputs
    nodes += [ov.op.Constant(ov.Tensor(a)) for a in attr_inputs]
    node = factory(spec)(*nodes, **kwargs)
    return node, params, inputs


def _core():
    global _CORE
    import openvino as ov

    with _CORE_LOCK:
        if _CORE is None:
            _CORE = ov.Core()
        return _CORE


def run_cpu(spec: OpSpec, data, indices, updates, attrs: dict) -> np.ndarray:
    import openvino as ov

    data, indices, updates = input_arrays(data, indices, updates)
    node, params, inputs = build_node(spec, data, indices, updates, attrs)
    model = ov.Model([node], params, spec.name.replace("-", "_"))
    compiled = _core().compile_model(model, "CPU")
    request = compiled.create_infer_request()
    request.infer([ov.Tensor(a) for a in inputs[:len(params)]])
    return np.array(request.get_output_tensor(0).data, copy=True)


def save_ir(spec: OpSpec, data, indices, updates, attrs: dict, xml_path) -> list[str]:
    """Save the node as a one-node OpenVINO IR (``xml_path`` and the ``.bin`` beside it), built as
    :func:`run_cpu` builds it; returns the parameters' names, in the order the model takes them."""
    import openvino as ov

    data, indices, updates = input_arrays(data, indices, updates)
    node, params, _ = build_node(spec, data, indices, updates, attrs)
    node.set_friendly_name(spec.op_type)
    model = ov.Model([node], params, spec.name.replace("-", "_"))
    ov.save_model(model, str(xml_path), compress_to_fp16=False)
    return [p.get_friendly_name() for p in params]


def _output_tensor(node):
    import openvino as ov

    shape = node.get_output_partial_shape(0)
    if not shape.is_static:
        raise RuntimeError(f"{node.get_type_name()}: output shape {shape} is not static")
    return ov.Tensor(node.get_output_element_type(0), shape.to_shape())


def run_reference(spec: OpSpec, data, indices, updates, attrs: dict) -> np.ndarray:
    import openvino as ov

    data, indices, updates = input_arrays(data, indices, updates)
    node, _, inputs = build_node(spec, data, indices, updates, attrs)
    out = _output_tensor(node)
    if not node.evaluate([out], [ov.Tensor(a) for a in inputs]):
        raise RuntimeError(
            f"OpenVINO's reference implementation of {node.get_type_name()} "
            f"({node.get_type_info().version_id}) has no kernel for data of type "
            f"{node.get_input_element_type(0).get_type_name()} with these attributes (Node.evaluate returned False)")
    return np.array(out.data, copy=True)


def run_constant_folding(spec: OpSpec, data, indices, updates, attrs: dict) -> np.ndarray:
    """The reference result reached through ``openvino.passes.ConstantFolding`` instead of ``evaluate``."""
    import openvino as ov
    from openvino import opset1, passes

    data, indices, updates = input_arrays(data, indices, updates)
    node, _, _ = build_node(spec, data, indices, updates, attrs, constant_inputs=True)
    model = ov.Model([opset1.result(node)], [], "folded")
    manager = passes.Manager()
    manager.register_pass(passes.ConstantFolding())
    manager.run_passes(model)
    folded = model.get_results()[0].input_value(0).get_node()
    if folded.get_type_name() != "Constant":
        raise RuntimeError(f"constant folding left {folded.get_type_name()} in place (no reference kernel)")
    return np.array(folded.get_data(), copy=True)
