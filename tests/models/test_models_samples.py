"""The committed sample models are exactly what scripts/make_sample_models.py makes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from scatter_models.samples import HERE, SAMPLES
from tests.support.skipping import require_or_skip

ROOT = Path(__file__).resolve().parents[2]


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


def _mean_cells(case) -> tuple[np.ndarray, np.ndarray]:
    """ScatterElementsUpdate-12 mean (axis 0, use_init_val true) of a captured case, by hand: each cell's
    (floored, truncated) mean of its own value and the updates written to it."""
    data, indices, updates = (np.asarray(a) for a in case.given())
    assert dict(case.attrs) == {"axis": 0, "reduction": "mean", "use_init_val": True}
    total, count = data.astype(np.int64), np.ones(data.shape, np.int64)
    for (i, j), row in np.ndenumerate(indices):
        total[row, j] += updates[i, j]
        count[row, j] += 1
    return total // count, np.trunc(total / count).astype(np.int64)


@pytest.mark.parametrize("runtime", ["reference", "openvino"])
def test_the_mean_samples_drawn_inputs_show_truncation_against_floor(runtime):
    """ov_mean's default capture (seed 0, inputs drawn in [0, 4) and centred by the graph's zero point) reaches
    the scatter with negative values, so at least one cell's mean floors and truncates differently; scatter_core
    floors it, as the spec says, and OpenVINO's CPU plugin truncates it."""
    require_or_skip("openvino")
    import scatter_models as sm

    model = sm.open_model(HERE / SAMPLES["ov_mean"].file)
    rec = model.capture(runtime=runtime)["mean_update"]
    assert rec.case.given()[0].min() < 0 and rec.case.given()[2].min() < 0
    floored, truncated = _mean_cells(rec.case)
    differ = floored != truncated
    assert differ.any()
    np.testing.assert_array_equal(rec.case.run(), floored)
    if runtime == "openvino":
        assert "CPU" in rec.output_source
        np.testing.assert_array_equal(rec.output, truncated)
        assert (rec.output != rec.case.run()).sum() == differ.sum()
