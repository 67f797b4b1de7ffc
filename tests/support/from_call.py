""""From your code" test helpers: the call shapes by framework, reading a typed tensor, running a framework's own call
or an exported model, and running exported tests where no framework can be imported."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

import from_code as fc
from from_code.case import framework_code, framework_inputs


def read(text, dtype=None):
    """from_call's answer, with every name the text leaves open (mask or indices) read as integer indices: the
    tensors these tests give them are integers (tests/from_code/test_from_call_masks.py reads them as masks)."""
    tr = fc.from_call(text, dtype)
    return tr.readings[0] if tr.readings else tr


def run_framework(tr, tensors, framework=None) -> np.ndarray:
    """The call in its framework, in this process (the app runs the same generated code in a child process).
    Only framework_code's generated text runs: fixed names and the literals from_call read."""
    namespace = dict(framework_inputs(tr, tensors))
    exec(compile(framework_code(tr, framework), "<generated>", "exec"), namespace)  # noqa: S102 - generated
    return namespace["out"]

TORCH_REDUCES = ("sum", "prod", "mean", "amax", "amin")

SHAPES = {
    "PyTorch": [
        "x.scatter(1, idx, src)", "x.scatter_(0, idx, 2.5)", "torch.scatter(x, -1, idx, src, reduce='add')",
        "x.scatter(0, index=idx, src=src, reduce='multiply')", "x.scatter_add(0, idx, src)",
        *(f"x.scatter_reduce(0, idx, src, reduce={r!r}, include_self={b})" for r in TORCH_REDUCES
          for b in (True, False)),
        "x.index_put_((i, j), v)", "x.index_put((idx,), v, accumulate=True)", "torch.index_put(x, (i, j), v, True)",
        "x.index_add(1, idx, src)", "x.index_add_(0, idx, src, alpha=2)", "x.index_copy_(0, idx, src)",
        *(f"x.index_reduce(0, idx, src, {r!r}, include_self={b})" for r in ("prod", "mean", "amax", "amin")
          for b in (True, False)),
        "x.index_fill(0, idx, -1)", "x.masked_scatter(m, src)",
        "torch.slice_scatter(x, src, dim=0, start=1, end=3)", "x.slice_scatter(src, 0, None, None, 2)",
        "torch.select_scatter(x, src, 0, -1)",
        "x[i, j] = v", "x[idx] = v", "x[:, idx] = v", "x[1:3] = v", "x[x > 0] = 0", "x[idx] += v",
        "x[i, j] -= v", "x[:, idx] *= v", "x[::2] += 1",
    ],
    "TensorFlow": [*(f"tf.{op}(t, idx, upd)" for op in ("tensor_scatter_nd_update", "tensor_scatter_nd_add",
                                                         "tensor_scatter_nd_sub", "tensor_scatter_nd_max",
                                                         "tensor_scatter_nd_min")),
                   "tf.scatter_nd(idx, upd, shape)"],
    "JAX": [*(f"x.at[{sub}].{m}(v)" for m in ("set", "add", "multiply", "min", "max")
              for sub in ("idx", "i, j", ":, idx", "1:3", "i, 0")),
            'x.at[idx].set(v, mode="drop")', "x.at[::-1, 0].set(v)", "x.at[0, 1:].add(1)",
            "x.at[i].add(v, unique_indices=False, indices_are_sorted=False)"],
    "NumPy": [*(f"np.{u}.at(a, {ix}, b)" for u in ("add", "subtract", "multiply", "maximum", "minimum")
                for ix in ("idx", "(i, j)")),
              "np.add.at(a, idx, 1)", "np.put_along_axis(a, idx, v, axis=1)", "np.put_along_axis(a, idx, 0, axis=-1)",
              "np.put(a, ind, v)", "np.put(a, ind, v, mode='wrap')", "numpy.put(a, ind, 7, mode='clip')"],
}

ALL = [(fw, text) for fw, texts in SHAPES.items() for text in texts]


def run_model(model: bytes, feeds: dict) -> dict[str, np.ndarray]:
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator

    options = ort.SessionOptions()
    options.log_severity_level = 3  # an initializer only some graphs use is not worth a warning per run
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    return {"onnxruntime": session.run(None, feeds)[0], "onnx.reference": ReferenceEvaluator(model).run(None, feeds)[0]}


BOOL, INT = np.zeros(0, bool), np.zeros(0, np.int64)


# ------------------------------------------------------------------------------ masked writes
MASKED = {
    "PyTorch": ["x.masked_fill(m, 0)", "x.masked_fill_(m, v)", "x.masked_scatter(m, src)", "torch.where(m, v, x)",
                "torch.where(m, x, 0)", "x[m] = 0", "x[m] = v", "x[m] += v", "x[i, m] = v", "x[:, m] = v",
                "x.index_put_((m,), v)", "x.index_put_((m,), v, accumulate=True)"],
    "TensorFlow": ["tf.where(m, v, t)"],
    "JAX": ["jnp.where(m, v, x)", "jnp.where(m, x, 0)", "x.at[m].set(v)", "x.at[m].add(v)", "x.at[..., m].set(0)",
            "x.at[m].max(v)"],
    "NumPy": ["np.where(m, v, x)", "np.where(m, 1, a)", "np.putmask(a, m, v)", "np.putmask(a, m, 7)",
              "np.add.at(a, m, b)", "np.subtract.at(a, (i, m), b)"],
}

GIVEN = {"m": BOOL, "i": INT}  # the names as these tests mean them: m a mask, i indices


# ------------------------------------------------------------------------------ a mask beside indices or slices
MIXED = {  # the separated ones (a slice between two indices): NumPy puts the indices' broadcast axes first
    "PyTorch": ["x[i, m] = v", "x[i, m] = 0", "x[:, m] = v", "x[m, :] = v", "x[i, :, m] = v", "x[:, m, i] = v",
                "x[i, ..., m] = v", "x[:, i, :, m] += v", "x.index_put_((i, m), v)",
                "x.index_put_((i, m), v, accumulate=True)", "x[i, m] -= v"],
    "JAX": ["x.at[i, m].set(v)", "x.at[..., m].set(v)", "x.at[i, :, m].set(v)", "x.at[:, m, i].add(v)",
            "x.at[m, :, i].multiply(v)", "x.at[0, :, m].set(v)", "x.at[:, 1, :, m].set(v)"],
    "NumPy": ["np.add.at(a, (i, m), b)", "np.subtract.at(a, (i, m), b)"],
}

TORCH_SELECTS = ["x[0, :, m] = v", "x[:, 1, :, m] = v"]  # PyTorch selects by an integer first; NumPy does not

BLOCKED = ("torch", "tensorflow", "jax", "jaxlib")

BLOCKER = f'''"""No framework here: importing {", ".join(BLOCKED)} raises ModuleNotFoundError (a test's skip)."""
import sys


class _NoFrameworks:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked: a machine without frameworks)")
        return None


sys.meta_path.insert(0, _NoFrameworks())
'''


def run_without_frameworks(directory: Path, blocker: Path) -> dict[tuple[str, str], str]:
    """pytest -v on the files in ``directory`` in a fresh interpreter with the blocker's sitecustomize on its
    path (and not this project): {(file, test): PASSED / FAILED / SKIPPED / ERROR}."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(blocker), JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-rs", "-p", "no:cacheprovider", "-p",
                           "no:randomly", "--rootdir", str(directory), str(directory)], cwd=directory, env=env,
                          capture_output=True, text=True, timeout=1200)
    outcomes = {(m[1], m[2]): m[3] for m in re.finditer(r"^(\S+?\.py)::(\w+) (PASSED|FAILED|SKIPPED|ERROR)",
                                                          done.stdout, re.M)}
    assert outcomes, done.stdout[-3000:] + done.stderr[-2000:]
    return outcomes
