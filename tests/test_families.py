"""Family records: each family's planner, updates-shape rule, reading, export loop, title and URL slug."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
from scatter_core.families import FAMILIES, Family, family_by_slug, family_of

ROOT = Path(__file__).resolve().parent.parent
# the packages that read the family records, and the pages' files the issue named (check page, spec diff)
SOURCE_DIRS = ("scatter_core", "scatter_export", "runtime_check", "scatter_practice", "scatter_models")
SOURCE_FILES = ("scatter_ui/check_page.py", "scatter_ui/specdiff.py", "scatter_ui/home.py")


def test_every_version_has_a_complete_family_record():
    for spec in sc.OPERATORS_LIST:
        f = family_of(spec)
        assert f.name == spec.family and f.title and f.slug and f.reading and callable(f.plan)
        assert callable(f.updates_shape) and callable(f.export_loop)
        assert (ROOT / f.page).exists(), f.page  # the explorer page the record names
        for flag in f.spec_flags:
            assert hasattr(spec, flag)
    assert sc.FAMILY_TITLES == {name: f.title for name, f in FAMILIES.items()}
    assert len({f.slug for f in FAMILIES.values()}) == len(FAMILIES)
    for f in FAMILIES.values():
        assert family_by_slug(f.slug) is f


def test_unknown_family_and_slug_are_scatter_errors():
    with pytest.raises(sc.ScatterError, match="family 'nope' is not known"):
        family_of("nope")
    with pytest.raises(sc.ScatterError, match="no family has the URL path 'nope'"):
        family_by_slug("nope")
    with pytest.raises(ValueError, match="indices must be one of"):
        Family("x", "X", "x", FAMILIES["nd"].plan, FAMILIES["nd"].updates_shape, "r", FAMILIES["nd"].export_loop,
               indices="maybe")


@pytest.mark.parametrize("op,data,indices,attrs,want", [
    ("ScatterElements-18", (3, 4), (2, 4), {"axis": 0}, (2, 4)),
    ("ScatterND-18", (3, 4, 5), (2, 2), {}, (2, 5)),
    ("ScatterUpdate-3", (3, 4, 5), (2,), {"axis": -2}, (3, 2, 5)),
])
def test_updates_shape_rule_matches_what_the_planner_accepts(op, data, indices, attrs, want):
    spec = sc.OPERATORS[op]
    shape = family_of(spec).updates_shape(data, indices, attrs)
    assert shape == want
    idx = np.zeros(indices, dtype=np.int64)
    sc.scatter(op, np.zeros(data), idx, np.ones(shape), **attrs)  # accepted as the rule says


def test_no_family_branch_outside_the_family_records():
    """Pages, checking, exports and runtime checks read the family records; only families.py knows the names."""
    pattern = re.compile(r"""family\s*(==|!=)\s*["']|family\s+(not\s+)?in\s*[(\[{]\s*["']|FAMILY_URL_PATHS"""
                         r"""|\.get\([\w.]*family\b""")
    offenders = []
    paths = [p for folder in SOURCE_DIRS for p in sorted((ROOT / folder).rglob("*.py"))]
    for path in paths + [ROOT / f for f in SOURCE_FILES]:
        if True:
            if path.name == "families.py":
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_the_module_docstring_says_how_to_add_a_family():
    doc = sc.families.__doc__
    for words in ("How to add a family", "plan(spec, data, indices, updates, attrs)", "updates_shape",
                  "export_loop", "OpSpec", "example file", "slug"):
        assert words in doc


# -- a new family is one planner + one family record + one OpSpec record (no other code) ----------------------
def _window_plan(spec, data, indices, updates, attrs):
    """A toy family: updates (1-D) are written to data[start:start + len(updates)] in order; no indices."""
    from scatter_core.plan import Plan, iota

    start, n = attrs["start"], updates.size
    if data.ndim != 1 or updates.ndim != 1 or not 0 <= start <= data.size - n:
        raise sc.ScatterError(f"start = {start} and {n} updates do not fit data of shape {data.shape}",
                              argument="start", rule="window")
    loop = iota(n)
    empty = np.zeros((n, 0), dtype=np.int64)
    return Plan(loop_shape=(n,), targets=(loop + start).reshape(n, 1), sources=loop.reshape(n, 1),
                index_cells=empty, index_raw=empty, index_norm=empty, target_free_axes=(), source_free_axes=(),
                updates_shape=(n,))


def test_a_new_family_needs_no_code_outside_its_records(monkeypatch):
    import dataclasses

    from scatter_core import families, registry
    from scatter_core.spec import AttrSpec
    from scatter_export import numpy_loop, pytest_case

    window = Family("window", "Window", "window", _window_plan, lambda d, i, a: None, "no indices at all",
                    lambda case: ("for j in range(updates.shape[0]):",
                                  f"    apply(out, contributions, ({case.resolved['start']} + j,), updates[j])"),
                    indices="unused")
    spec = dataclasses.replace(
        sc.OPERATORS["ScatterElementsUpdate-12"], name="Window-1", op_type="Window", version=1, family="window",
        attributes=(AttrSpec("start", "int", required=True),
                    sc.OPERATORS["ScatterElementsUpdate-12"].attribute("reduction")), previous=None)
    monkeypatch.setattr(families, "FAMILIES", {**FAMILIES, "window": window})
    monkeypatch.setattr(registry, "OPERATORS", {**sc.OPERATORS, "Window-1": spec})
    data = np.int32([1, 2, 3, 4, 5])
    assert sc.scatter("Window-1", data, None, np.int32([7, 8]), start=2, reduction="sum").tolist() == [1, 2, 10, 12, 5]
    t = sc.trace("Window-1", data, None, np.int32([7, 8]), start=1)
    assert len(t) == 2 and t.output.tolist() == [1, 7, 8, 4, 5] and "updates[1] = 8 goes to output[2]" in t.describe(1)
    r = sc.check_expected("Window-1", data, None, np.int32([7, 8]), [1, 7, 8, 4, 5], start=1)
    assert r.matches
    c = sc.case("Window-1", data, None, np.int32([7, 8]), start=1)
    assert c.replace(start=3).run().tolist() == [1, 2, 3, 7, 8] and c.attr_text() == "start=1, reduction='none'"
    with pytest.raises(sc.ScatterError, match="reads no indices"):
        sc.scatter("Window-1", data, [0], np.int32([7]), start=0)
    with pytest.raises(sc.ScatterError, match="start is a required attribute"):
        sc.scatter("Window-1", data, None, np.int32([7]))
    namespace = {}
    exec(compile(numpy_loop("Window-1", data, None, np.int32([7, 8]), {"start": 1}), "loop", "exec"), namespace)
    assert namespace["scatter_reference"](data, None, np.int32([7, 8])).tolist() == [1, 7, 8, 4, 5]
    assert "def test_window_1_case" in pytest_case("Window-1", data, None, np.int32([7, 8]), attrs={"start": 1})
