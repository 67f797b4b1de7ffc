"""The registry is complete, consistent and free of dangling references."""

import pytest

from scatter_core import OPERATORS, REDUCTIONS
from scatter_core.families import FAMILIES

EXPECTED = [
    "Scatter-9", "Scatter-11", "ScatterElements-11", "ScatterElements-13", "ScatterElements-16",
    "ScatterElements-18", "ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18",
    "ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15", "ScatterElementsUpdate-3",
    "ScatterElementsUpdate-12",
    "TensorScatter-24", "SliceScatter-15",  # issue 16
]
# the families whose loop runs along one axis (ScatterND's k-tuples and SliceScatter's slice have none)
AXIS_FAMILIES = {"elements", "update", "cache"}


def test_every_required_version_is_registered():
    assert sorted(OPERATORS) == sorted(EXPECTED)


@pytest.mark.parametrize("name", EXPECTED)
def test_record_is_consistent(name):
    spec = OPERATORS[name]
    assert spec.name == f"{spec.op_type}-{spec.version}"
    assert spec.framework in ("ONNX", "OpenVINO")
    assert spec.family in FAMILIES
    assert spec.url.startswith("https://")
    assert spec.reductions and spec.reductions[0] == ("none", "none")
    for spelling, canonical in spec.reductions:
        assert canonical in REDUCTIONS, (name, spelling)
    has_attr = spec.attribute("reduction") is not None
    assert has_attr == (len(spec.reductions) > 1)
    assert set(spec.duplicates_forbidden_with) <= {c for _, c in spec.reductions}
    assert spec.index_rule.negative in ("allowed", "forbidden", "unstated")
    assert spec.shape_rules and spec.changes and spec.summary and spec.duplicate_policy
    if spec.previous is not None:
        assert spec.previous in OPERATORS
        assert OPERATORS[spec.previous].family == spec.family
    axis = spec.attribute("axis")
    assert (axis is not None) == (spec.family in AXIS_FAMILIES)


def test_reduction_spellings_follow_each_framework():
    assert OPERATORS["ScatterND-18"].reduction_spellings == ("none", "add", "mul", "max", "min")
    assert OPERATORS["ScatterND-16"].reduction_spellings == ("none", "add", "mul")
    assert OPERATORS["ScatterNDUpdate-15"].reduction_spellings == ("none", "sum", "sub", "prod", "min", "max")
    assert OPERATORS["ScatterElementsUpdate-12"].reduction_spellings == (
        "none", "sum", "prod", "min", "max", "mean")
    assert OPERATORS["ScatterElementsUpdate-12"].attribute("use_init_val").default is True
    assert OPERATORS["ScatterElementsUpdate-12"].attribute("axis").is_input


def test_registry_is_read_only():
    with pytest.raises(TypeError):
        OPERATORS["X-1"] = OPERATORS["ScatterND-11"]
