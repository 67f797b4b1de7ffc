"""Family records: each family's planner, updates-shape rule, reading, export loop, title and URL slug."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
from scatter_core.families import FAMILIES, Family, family_by_slug, family_of

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("scatter_core", "scatter_export", "runtime_check", "scatter_ui", "scatter_practice", "pages",
               "spec_examples")


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
    for folder in SOURCE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
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
