"""The committed sample models are exactly what scripts/make_sample_models.py makes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from scatter_models.samples import HERE, SAMPLES
from tests.conftest import require_or_skip

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("make_sample_models", ROOT / "scripts" / "make_sample_models.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("with_openvino", [False, True])
def test_regenerating_gives_identical_bytes(with_openvino):
    if with_openvino:
        require_or_skip("openvino")
        import openvino.opset12 as ops

        for _ in range(7):  # nodes made earlier in the process (other tests) must not change a sample's names
            ops.result(ops.parameter([1], np.float32))
    files = _script().build(include_openvino=with_openvino)
    for name, data in files.items():
        assert (HERE / name).read_bytes() == data, f"{name} differs from a fresh build"


def test_every_sample_file_exists_and_is_small():
    for sample in SAMPLES.values():
        path = HERE / sample.file
        assert path.exists(), path
        assert path.stat().st_size < 64 * 1024
