"""The case passed whole (issue #34): trace, check_expected, the exports and the panels take a scatter_core.Case;
no package takes a Case (or a record holding one, or a Trace) apart into its inputs to build or check it again;
the side-by-side comparison figure is drawn by one function from what a report gives."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import scatter_core as sc
import scatter_export as se

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scatter_core", "scatter_ui", "scatter_export", "runtime_check", "scatter_practice", "framework_map",
            "from_code", "spec_examples", "scatter_models", "scatter_explorer")
ROLES = {"data", "indices", "updates"}
# what takes a case: the core's builders and readers, the exports, the panels
TAKERS = {"case", "prepare", "trace", "check_expected", "render", "crosscheck_panel", "pytest_case", "numpy_loop",
          "example_json", "onnx_model", "onnx_test_case", "framework_snippet", "framework_unavailable_reason"}
# (file, function): where a case is built from another record's inputs on purpose, each with why
ALLOWED = {
    ("scatter_core/case.py", "for_version"): "the Case's own re-check of its inputs under another operator version "
                                             "(the one place a Case is rebuilt from its given inputs)",
    ("runtime_check/divergences.py", "checked"): "an Unchecked record (inputs the core refused with the runtime's "
                                                 "attributes) checked again with some attributes changed",
}


def _sources():
    paths = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    return paths + [ROOT / "app.py"] + sorted((ROOT / "app_pages").glob("*.py"))


def _name(func) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _pieces(call: ast.Call) -> bool:
    """Whether two or more of the call's arguments are inputs read off one object (``x.data, x.indices``, or
    ``*x.given()``), a conditional's branch included (``t.indices if t.indices_given else None``)."""
    by_base: dict[str, set] = {}
    for arg in call.args:
        if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Call) and _name(arg.value.func) == "given":
            by_base.setdefault(ast.dump(arg.value.func.value), set()).update(ROLES)
        for node in (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,):
            if isinstance(node, ast.Attribute) and node.attr in ROLES:
                by_base.setdefault(ast.dump(node.value), set()).add(node.attr)
    return any(len(roles) >= 2 for roles in by_base.values())


def unpacked_calls(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, enclosing function, callee) of every call to a case taker fed a record's inputs piece by piece."""
    found = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call) and _name(child.func) in TAKERS and _pieces(child):
                found.append((child.lineno, function, _name(child.func)))
            visit(child, inner)

    visit(tree, "")
    return found


def _unpacked() -> list[tuple[str, str, str]]:
    return [(str(path.relative_to(ROOT)), function, f"{path.relative_to(ROOT)}:{line}: {callee}(...) in {function}")
            for path in _sources()
            for line, function, callee in unpacked_calls(ast.parse(path.read_text(encoding="utf-8"), str(path)))]


def test_no_package_takes_a_case_apart_to_build_or_check_it_again():
    """A Case is passed whole: no package reads a case's (a record's, a trace's) data, indices and updates off it
    to build a case, trace or check one, export one or draw a panel of one again."""
    found = _unpacked()
    offenders = [what for where, function, what in found if (where, function) not in ALLOWED]
    assert offenders == []
    for where, function in ALLOWED:  # an allowance nothing needs any more goes
        assert any((w, f) == (where, function) for w, f, _ in found), (where, function)
    assert all(len(why) > 40 for why in ALLOWED.values())


def test_the_guard_catches_a_planted_unpacking(tmp_path, monkeypatch):
    """The calls issue 34 found, planted in a copy of the tree's layout, are each reported; passing the Case is not."""
    planted = tmp_path / "scatter_practice" / "_planted.py"
    planted.parent.mkdir()
    planted.write_text(
        "import scatter_core as sc\n\n\n"
        "def grade(ex, cast):\n"
        "    return sc.check_expected(sc.case(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs), cast)\n\n\n"
        "def again(case, attrs):\n"
        "    return sc.trace(sc.case(case.spec, case.data, case.indices, case.updates, **attrs))\n\n\n"
        "def exports(trace, key):\n"
        "    render(trace.op, trace.data, trace.indices, trace.updates, trace.output, dict(trace.attrs), key)\n\n\n"
        "def panel(op, trace, attrs):\n"
        "    crosscheck_panel(op, trace.data, trace.indices if trace.indices_given else None, trace.updates, attrs)\n\n\n"
        "def given(case):\n"
        "    return sc.check_expected(sc.case(case.spec, *case.given()), case.run())\n\n\n"
        "def whole(ex, cast):\n"
        "    return sc.check_expected(ex.case, cast), sc.trace(ex.case), sc.case('ScatterND-18', ex.a, ex.data, [1])\n",
        encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "_sources", lambda: [planted])
    assert [what for _, _, what in _unpacked()] == [
        "scatter_practice/_planted.py:5: case(...) in grade",
        "scatter_practice/_planted.py:9: case(...) in again",
        "scatter_practice/_planted.py:13: render(...) in exports",
        "scatter_practice/_planted.py:17: crosscheck_panel(...) in panel",
        "scatter_practice/_planted.py:21: case(...) in given",
    ]


def test_trace_check_expected_and_the_exports_take_a_case_and_say_so_to_anything_else():
    case = sc.case("ScatterND-18", [1, 2, 3, 4], [[0], [2]], [10, 20])
    assert sc.trace(case).output.tolist() == [10, 2, 20, 4] and sc.check_expected(case, [10, 2, 20, 4]).matches
    assert "scatter_reference" in se.numpy_loop(case) and se.framework_unavailable_reason("JAX", case) is None
    for call in (lambda: sc.trace("ScatterND-18"), lambda: sc.check_expected("ScatterND-18", [1, 2, 3, 4]),
                 lambda: se.numpy_loop(sc.trace(case)), lambda: se.pytest_case("ScatterND-18", [1, 2, 3, 4])):
        with pytest.raises(sc.ScatterError, match=r"takes? a scatter_core\.Case, built by scatter_core\.case\(op, "
                                                  r"data, indices, updates, \*\*attrs\); got ") as info:
            call()
        assert info.value.argument == "case"
    with pytest.raises(TypeError):  # the piece form is gone
        sc.trace("ScatterND-18", [1, 2, 3, 4], [[0], [2]], [10, 20])


# -- one comparison figure --------------------------------------------------------------------------------------------
def _duplicates():
    """ScatterND-18 writing output[0] twice: your [10, 9, 20, 4] keeps the first write at 0 (allowed) and is wrong at 1."""
    case = sc.case("ScatterND-18", np.array([1.0, 2.0, 3.0, 4.0]), [[0], [2], [0]], np.array([10.0, 20.0, 30.0]))
    return case, np.array([10.0, 9.0, 20.0, 4.0])


def test_a_check_report_gives_what_its_comparison_figure_draws():
    case, yours = _duplicates()
    report = sc.check_expected(case, yours)
    c = report.comparison
    assert isinstance(c, sc.Comparison) and c.trace is report.trace
    assert c.left is report.expected and c.right is report.computed
    assert c.differ_flat.tolist() == [0, 1] and c.allowed_flat.tolist() == [0]  # report.mismatches, report.allowed
    matching = sc.check_expected(case, report.computed).comparison
    assert matching.differ_flat.size == 0 and matching.allowed_flat.size == 0


def test_the_check_model_and_practice_pages_draw_one_figure_from_one_answer():
    """The same answer on the check page (a CheckReport), on the model page (a runtime's output, checked by
    scatter_models) and in Practice (a graded Feedback) gives one figure: the one function's, from one Comparison."""
    import scatter_practice as sp
    from scatter_models.report import comparison as model_comparison
    from scatter_ui.figures.heatmaps import comparison_figure

    case, yours = _duplicates()
    titles = ("left", "right")
    checked = comparison_figure(sc.check_expected(case, yours).comparison, titles, dark=True).to_dict()
    model = model_comparison(SimpleNamespace(case=case, output=yours))
    assert comparison_figure(model.comparison, titles, dark=True).to_dict() == checked
    ex = sp.Exercise.of(case, seed=0, level=5)
    fb = sp.grade_output(ex, yours)
    assert fb.wrong_cells == ((1,),) and [n.cell for n in fb.allowed] == [(0,)]
    practice = fb.comparison(ex, yours)
    assert practice.differ_flat.tolist() == [1, 0] and practice.allowed_flat.tolist() == [0]  # the wrong cell first
    assert comparison_figure(practice, titles, dark=True).to_dict() == checked


def test_every_page_draws_its_comparison_through_the_one_function():
    """No page computes a figure's flat indices itself: each calls ``comparison_figure`` once with a Comparison a
    report or a feedback gives (or, for first-write-wins vs last-write-wins, one built from the trace)."""
    calls = {}
    for path in sorted((ROOT / "scatter_ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) == "comparison_figure":
                first = node.args[0]
                given = first.func if isinstance(first, ast.Call) else first
                calls.setdefault(str(path.relative_to(ROOT)), []).append(_name(given))
    assert calls == {"scatter_ui/pages/check_expected.py": ["comparison"], "scatter_ui/pages/model.py": ["comparison"],
                     "scatter_ui/pages/practice.py": ["comparison"], "scatter_ui/parts/panels.py": ["Comparison"]}
