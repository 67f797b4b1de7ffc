"""A captured OpenVINO node as a one-node IR (``.xml`` and ``.bin``), made with OpenVINO's Python API in a child
process (the server never imports OpenVINO for it), with a time limit.

``python -m scatter_models.one_node_ir FOLDER`` reads ``FOLDER/tensors.npz`` (data, indices, updates) and
``FOLDER/request.json`` (the operator version and its attributes), and writes ``node.xml``, ``node.bin`` and
``params.json`` (the parameters' names, in input order) there.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import scatter_core as sc

from .errors import ModelError

TIMEOUT = 60.0


def _json_attrs(attrs: dict) -> dict:
    out = {}
    for key, value in attrs.items():
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, (np.integer, np.bool_)):
            value = value.item()
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def build(case, timeout: float = TIMEOUT) -> tuple[bytes, bytes, list[str]]:
    """(xml bytes, bin bytes, parameter names) of ``case`` (an OpenVINO operator version) as a one-node IR; a
    ModelError saying why when OpenVINO is missing, refuses the node or the child passes its time limit."""
    from .capture import PACKAGE_ROOT, _worker_env

    data, indices, updates = case.given()
    with tempfile.TemporaryDirectory(prefix="scatter_models_ir_") as tmp:
        folder = Path(tmp)
        arrays = {"data": data, "updates": updates}
        if indices is not None:
            arrays["indices"] = indices
        np.savez(folder / "tensors.npz", **arrays)
        (folder / "request.json").write_text(json.dumps({"op": case.op, "attrs": _json_attrs(dict(case.attrs))}),
                                             encoding="utf-8")
        try:
            done = subprocess.run([sys.executable, "-m", "scatter_models.one_node_ir", str(folder)],
                                  capture_output=True, timeout=timeout, cwd=PACKAGE_ROOT, env=_worker_env(),
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise ModelError(f"the one-node IR of {case.op} took over {timeout:g} s to build", rule="time-limit") \
                from None
        if done.returncode != 0 or not (folder / "node.xml").exists():
            why = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
            raise ModelError(f"OpenVINO could not save {case.op} as a one-node IR: {(why or ['no message'])[-1][:300]}",
                             rule="one-node-ir")
        names = json.loads((folder / "params.json").read_text(encoding="utf-8"))
        return (folder / "node.xml").read_bytes(), (folder / "node.bin").read_bytes(), names


def main(argv=None) -> int:
    import runtime_check as rc

    folder = Path((argv or sys.argv[1:])[0])
    request = json.loads((folder / "request.json").read_text(encoding="utf-8"))
    with np.load(folder / "tensors.npz", allow_pickle=False) as t:
        arrays = {k: t[k] for k in t.files}
    spec = sc.get_spec(request["op"])
    names = rc.save_openvino_ir(spec.name, arrays["data"], arrays.get("indices"), arrays["updates"],
                                folder / "node.xml", **request["attrs"])
    (folder / "params.json").write_text(json.dumps(names), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
