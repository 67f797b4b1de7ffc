"""The check page's "as PyTorch / TensorFlow / JAX" exports (scatter_export.frameworks).

Each script is run in a child Python (JAX in CI; PyTorch and TensorFlow where installed) and
must print the same output as scatter_core.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import framework_map as fm
import scatter_core as sc
import scatter_export as se
from tests.support.skipping import require_framework

CASES = [  # (op, data, indices, updates, attrs): duplicates, negative indices, use_init_val, slices, mean
    ("ScatterElementsUpdate-12", [[1, 2, 3], [4, 5, 6]], [[0, -1, 0]], [[7, 8, 9]],
     {"axis": 1, "reduction": "mean", "use_init_val": False}),
    ("ScatterElements-18", [1.5, 2.5, 3.5], [0, 0, -1], [10.0, 20.0, 30.0], {"axis": 0, "reduction": "max"}),
    ("ScatterND-16", [[1, 2], [3, 4], [5, 6]], [[0], [2], [0]], [[1, 1], [2, 2], [3, 3]], {"reduction": "mul"}),
    ("ScatterNDUpdate-15", [1, 2, 3, 4], [[1], [-1], [1]], [5, 6, 7], {"reduction": "sub"}),
    ("ScatterUpdate-3", np.zeros((2, 3), np.float32), [[0, 2]], np.ones((2, 1, 2), np.float32), {"axis": 1}),
]


RUNNER = "import runpy, sys\nfor p in sys.argv[1:]:\n    print('==', p)\n    runpy.run_path(p)\n"


@pytest.mark.parametrize("framework", se.SNIPPET_FRAMEWORKS)
def test_framework_snippets_reproduce_scatter_core(framework, tmp_path):
    """Every case's script, run in one child Python per framework (importing a framework takes seconds)."""
    require_framework(framework)
    paths = []
    for i, (op, data, indices, updates, attrs) in enumerate(CASES):
        code = se.framework_snippet(framework, sc.case(op, data, indices, updates, **attrs))
        assert "def " in code and "# Where" in code
        paths.append(tmp_path / f"case{i}.py")
        paths[-1].write_text(code)
    done = subprocess.run([sys.executable, "-c", RUNNER, *map(str, paths)], capture_output=True, text=True,
                          timeout=300, env={"TF_CPP_MIN_LOG_LEVEL": "3", "PATH": "/usr/bin:/bin",
                                            "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr[-2000:]
    outputs = done.stdout.split("== ")[1:]
    assert len(outputs) == len(CASES)
    for (op, *_), out in zip(CASES, outputs):
        assert "equal to Scatter Explorer's output: True" in out, (op, out)


def test_snippet_names_the_record_and_its_divergences():
    code = se.framework_snippet("PyTorch", sc.case("ScatterElementsUpdate-12", [1, 2], [0, 0], [5, 6], axis=0, reduction="min", use_init_val=False))
    entry = fm.BY_ID["torch.scatter_reduce"]
    assert "'torch.scatter_reduce'" in code and fm.source_of(entry) in code
    for topic in fm.TOPICS:
        assert f"#   {topic}: {entry.divergences[topic]}" in code
    assert "reduce='amin', include_self=False" in code
    assert "expected = np.array([5, 2], dtype=np.int64)" in code


def test_no_snippet_where_no_faithful_mapping_exists():
    # ScatterND with k = 0 (indices.shape[-1] == 0) is outside every record's verified domain
    case = sc.case("ScatterND-11", [1, 2], np.zeros((1, 0), np.int64), [[7, 8]])
    reason = se.framework_unavailable_reason("JAX", case)
    assert reason and "k = 0" in reason
    with pytest.raises(sc.ScatterError, match="no faithful JAX mapping"):
        se.framework_snippet("JAX", case)
    assert se.framework_unavailable_reason("JAX", sc.case("ScatterND-11", [1, 2], [[1]], [5])) is None
