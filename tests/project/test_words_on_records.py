"""Words live on their records: every finding kind has its title on scatter_core's kind record (the pages read
``finding.title``), and no code outside a framework's record branches on a framework's name."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc

ROOT = Path(__file__).resolve().parents[2]


def _constructed_kinds(tree: ast.AST) -> set[str]:
    """The kind strings a module passes first to ``Finding(...)`` or ``PlanNote(...)``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                "Finding", "PlanNote") and node.args and isinstance(node.args[0], ast.Constant):
            out.add(node.args[0].value)
    return out


def test_every_kind_scatter_core_makes_has_a_title():
    made = set().union(*(_constructed_kinds(ast.parse(p.read_text())) for p in (ROOT / "scatter_core").rglob("*.py")))
    assert len(made) >= 15, made  # the scan sees the checks and the planners' notes
    missing = sorted(k for k in made if not (k in sc.FINDING_KINDS and sc.FINDING_KINDS[k].title.strip()))
    assert not missing, f"finding kinds without a title on their record: {missing}"
    assert all(kind.title.strip() and kind.name == name for name, kind in sc.FINDING_KINDS.items())


def test_the_scan_sees_a_kind_without_a_title():
    planted = ast.parse('Finding("no-title-yet", "info", "x")\nPlanNote("neither", "info", "y")')
    assert _constructed_kinds(planted) == {"no-title-yet", "neither"}
    assert not {"no-title-yet", "neither"} & set(sc.FINDING_KINDS)


def test_a_finding_of_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="'no-title-yet'.*KINDS"):
        sc.Finding("no-title-yet", "info", "x")


def test_a_finding_reads_its_title_from_its_kind():
    tr = sc.trace(sc.case("ScatterND-18", np.zeros(4, np.float32), np.array([[1], [1]]), np.array([1.0, 2.0], np.float32)))
    shown = {f.kind: f.title for f in tr.findings}
    assert shown["duplicate-index"] == "Duplicate indices"
    assert shown["order-dependent"] == "Write order"
    order = next(f for f in tr.findings if f.kind == "order-dependent")
    assert order.closer_look == "orders side by side"  # the values differ: the comparison is worth opening


def test_equal_duplicates_offer_no_order_comparison():
    tr = sc.trace(sc.case("ScatterND-18", np.zeros(4, np.float32), np.array([[1], [1]]), np.array([2.0, 2.0], np.float32)))
    assert next(f for f in tr.findings if f.kind == "order-dependent").closer_look == ""


def test_every_closer_look_has_a_view():
    from scatter_ui.parts import panels
    assert set(panels.CLOSER_LOOKS) == set(sc.FINDING_CLOSER_LOOKS)


# ----------------------------------------------------------------------------- frameworks: no branch on a name
FRAMEWORK_NAMES = frozenset(__import__("framework_map").FRAMEWORK_RECORDS)
OWN_RECORDS = ("framework_map/records.py",)  # the records, and each framework's impl_*.py, may name themselves


def _scanned() -> list[Path]:
    packages = [p.parent for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests"]
    files = [f for pkg in packages for f in pkg.rglob("*.py")] + [*ROOT.glob("app_pages/*.py"), ROOT / "app.py"]
    return [f for f in files if not f.name.startswith("impl_") and f.relative_to(ROOT).as_posix() not in OWN_RECORDS]


def _names_in(node: ast.AST) -> set[str]:
    """Framework names a compared operand spells: a string, or a tuple / list / set of strings."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return {i.value for i in items if isinstance(i, ast.Constant) and i.value in FRAMEWORK_NAMES}


def framework_branches(text: str, where: str = "<text>") -> list[str]:
    """Each comparison (==, !=, in, not in, a match case) against a framework's name, as ``where:line: code``."""
    out = []
    for node in ast.walk(ast.parse(text, where)):
        if isinstance(node, ast.Compare):
            hit = set().union(*(_names_in(n) for n in (node.left, *node.comparators)))
        elif isinstance(node, ast.MatchValue):
            hit = _names_in(node.value)
        else:
            continue
        if hit:
            out.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return out


def test_the_scan_finds_a_planted_branch_on_a_framework_name():
    planted = ('if tr.framework == "PyTorch":\n    pass\n'
               'ok = fw != "NumPy"\n'
               'both = name in ("JAX", "TensorFlow")\n'
               'match fw:\n    case "WebNN":\n        pass\n'
               'fine = fw == "torch.scatter" or FRAMEWORK_RECORDS[fw].sources_exact\n')
    found = framework_branches(planted)
    assert [f.split(":")[1] for f in found] == ["1", "3", "4", "6"], found


def test_no_code_branches_on_a_framework_name_outside_its_record():
    files = _scanned()
    assert ROOT / "from_code" / "case.py" in files and ROOT / "scatter_ui" / "pages" / "from_code.py" in files
    assert not any(f.name.startswith("impl_") for f in files)
    found = [b for f in files for b in framework_branches(f.read_text(), f.relative_to(ROOT).as_posix())]
    assert not found, "read a field of framework_map.records.FRAMEWORK_RECORDS instead:\n" + "\n".join(found)


def test_every_framework_a_call_names_has_a_record():
    from from_code.translate import CALL_WRITERS, CALLS, READERS
    named = {c.framework for c in CALLS.values()}
    assert named <= set(READERS) == set(CALL_WRITERS) <= FRAMEWORK_NAMES
    assert all(__import__("framework_map").FRAMEWORK_RECORDS[f].module for f in named)
