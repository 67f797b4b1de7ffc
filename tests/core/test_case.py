"""scatter_core.Case: the one public case object (run, trace, replace, for_version, attr_text, key)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scatter_core as sc
from tests.support.reference_loop import reference
from tests.support.strategies import cases
from tests.support.profiles import examples

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_case_runs_and_traces_like_scatter_and_trace():
    args = ("ScatterElementsUpdate-12", np.int32([2, 3, 4, 6]), [1, 0, 0, -2, -1, 2], [10, 20, 30, 40, 70, 60])
    c = sc.case(*args, axis=0, reduction="sum")
    assert c.run().tolist() == [52, 13, 104, 76] == sc.scatter(*args, axis=0, reduction="sum").tolist()
    t = c.trace()
    assert isinstance(t, sc.Trace) and t.output.tolist() == [52, 13, 104, 76] and len(t) == 6
    out = np.zeros(4, np.int32)
    assert c.run(out=out) is out and out.tolist() == [52, 13, 104, 76]
    with pytest.raises(sc.ScatterError, match="out must be"):
        c.run(out=np.zeros(4, np.int64))


def test_case_is_immutable_and_keeps_read_only_views():
    data = np.zeros(3, np.float32)
    c = sc.case("ScatterND-18", data, [[0]], np.float32([5]), reduction="add")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.spec = sc.OPERATORS["ScatterND-16"]
    with pytest.raises(ValueError):
        c.data[0] = 1
    assert data.flags.writeable  # the caller's array is untouched
    assert c.attrs == {"reduction": "add"}
    with pytest.raises(TypeError):
        c.attrs["reduction"] = "mul"


def test_case_key_is_stable_hashable_and_tells_cases_apart():
    a = sc.case("ScatterElements-18", [1.0, 2.0], [0], [5.0], axis=0, reduction="max")
    b = sc.case("ScatterElements-18", np.array([1.0, 2.0]), np.array([0]), np.array([5.0]), axis=-1,
                reduction="max")
    assert a.key == b.key and a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.key[0] == "ScatterElements-18" and a.key[1] == (("axis", 0), ("reduction", "max"))
    other_process = subprocess.run(
        [sys.executable, "-c", "import scatter_core as sc; print(sc.case('ScatterElements-18', [1.0, 2.0], [0], "
         "[5.0], axis=0, reduction='max').key[2])"], capture_output=True, text=True, check=True)
    assert other_process.stdout.strip() == a.key[2]  # a digest, not Python's per-process hash
    different = [
        a.replace(reduction="min"), a.replace(data=[1.0, 3.0]), a.replace(updates=[6.0]),
        sc.case("ScatterElements-18", np.float32([1, 2]), [0], np.float32([5]), axis=0, reduction="max"),
        a.for_version("ScatterElementsUpdate-12"),
    ]
    assert len({a, *different}) == 6


def test_replace_changes_inputs_or_attributes_and_checks_again():
    c = sc.case("ScatterElementsUpdate-12", [0, 0, 0], [0, 0], [1, 2], axis=0, reduction="sum",
                use_init_val=False)
    assert c.replace(reduction="max").run().tolist() == [2, 0, 0]
    assert c.replace(indices=[1, 2]).run().tolist() == [0, 1, 2]
    assert c.replace(use_init_val=None).attrs["use_init_val"] is True  # None: back to the default
    with pytest.raises(sc.ScatterError, match="out of range"):
        c.replace(indices=[3, 0])
    with pytest.raises(sc.ScatterError, match="'bogus' is not an attribute"):
        c.replace(bogus=1)


def test_for_version_translates_spellings():
    c = sc.case("ScatterElements-18", [1, 2, 3], [0, 0], [5, 6], axis=0, reduction="add")
    ov = c.for_version("ScatterElementsUpdate-12")
    assert ov.spec.name == "ScatterElementsUpdate-12"
    assert dict(ov.attrs) == {"axis": 0, "reduction": "sum", "use_init_val": True}
    assert ov.run().tolist() == c.run().tolist() == [12, 2, 3]
    assert ov.for_version("ScatterElements-16").attr_text() == "axis=0, reduction='add'"


@pytest.mark.parametrize("op,attrs,other,why", [
    ("ScatterElements-18", {"axis": 0, "reduction": "max"}, "ScatterElements-16", "it has no reduction='max'"),
    ("ScatterElementsUpdate-12", {"axis": 0, "reduction": "mean"}, "ScatterElements-18", "reduction='mean'"),
    ("ScatterElementsUpdate-12", {"axis": 0, "reduction": "sum", "use_init_val": False}, "ScatterElements-18",
     "use_init_val=false"),
    ("ScatterElements-13", {"axis": 1}, "ScatterND-13", "axis=1"),
])
def test_for_version_says_what_the_other_version_cannot_express(op, attrs, other, why):
    c = sc.case(op, [[1, 2], [3, 4]], [[0], [1]], [[5], [6]], **attrs)
    with pytest.raises(sc.ScatterError, match=f"{other} cannot express this {op} case") as exc:
        c.for_version(other)
    assert why in str(exc.value)


def test_for_version_refusal_of_the_inputs_is_the_other_versions_own_error():
    c = sc.case("ScatterElementsUpdate-12", [1, 2, 3], [-1], [5], axis=0)
    with pytest.raises(sc.ScatterError, match="negative"):
        c.for_version("ScatterElementsUpdate-3")


def test_attr_text():
    assert sc.case("ScatterND-11", [1, 2], [[0]], [3]).attr_text() == "no attributes"
    c = sc.case("ScatterElementsUpdate-12", [1, 2], [0], [3], axis=0, reduction="min", use_init_val=0)
    assert c.attr_text() == "axis=0, reduction='min', use_init_val=false"
    assert sc.attr_text({"start": (0, -1), "axes": None, "mode": "circular"}) == "start=[0, -1], mode='circular'"


@SETTINGS
@given(cases(), st.sampled_from(sorted(sc.OPERATORS)))
def test_for_version_equals_the_plain_loop_of_the_other_version(drawn, other):
    """Property: the case in another version's spellings runs as that version's spec loop does, or is refused
    with a ScatterError that either names what the other version cannot express or is that version's own
    refusal of the inputs."""
    op, data, indices, updates, attrs = drawn
    c = sc.case(op, data, indices, updates, **attrs)
    translated, dropped = sc.translate_attrs(c.spec, c.attrs, sc.OPERATORS[other])
    try:
        moved = c.for_version(other)
    except sc.ScatterError as exc:
        if dropped:
            assert f"{other} cannot express" in str(exc)
            for text in dropped.values():
                assert text in str(exc)
        else:  # the other version refuses these inputs itself
            with pytest.raises(sc.ScatterError):
                sc.scatter(other, data, indices, updates, **translated)
        return
    assert not dropped and moved.spec.name == other
    want = reference(other, data, indices, updates, **dict(moved.attrs))
    assert same_bits(moved.run(), want), (op, other, attrs, dict(moved.attrs))
    assert moved.reduction is c.reduction  # the same meaning, in the other version's spelling
    back = moved.for_version(op)
    assert same_bits(back.run(), c.run())
