"""Family records: each family's planner, updates-shape rule, reading, export loop, title and URL slug."""

from __future__ import annotations

import ast
import dataclasses
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
from scatter_core.families import FAMILIES, Family, family_by_slug, family_of

ROOT = Path(__file__).resolve().parents[2]
# every package and the app: only the records (registry.py, families.py) may name a family or an operator
PACKAGES = ("scatter_core", "scatter_ui", "scatter_export", "runtime_check", "scatter_practice", "framework_map", "from_code",
            "spec_examples", "scatter_models", "scatter_explorer")
RECORDS = ("scatter_core/registry.py", "scatter_core/families.py")
# (file, a piece of the line): what the guard's patterns meet that is not a branch on a family or operator name
ALLOWED = (
    ("scatter_core/tracing.py", '"update": ['),  # a table column named for the updates input, not the family
)
# Whole files the guard does not read yet, each with why (none now: From your code's index forms are Form records
# whose operators come from the family records' call_forms, issue 25).
ALLOWED_FILES: dict[str, str] = {
    "scatter_models/draws.py": "reads a user's graph: which ONNX and OpenVINO graph ops index an axis (Gather, the "
                               "scatters), by the names the model file spells, to draw integer inputs in range",
    "scatter_models/ir_symbols.py": "reads a user's IR: which OpenVINO ops keep their input's shape, by the names "
                                    "the IR spells, to settle its dynamic dims",
}


def _name_pattern() -> re.Pattern:
    """A comparison with, membership test on, dict key, subscript or assignment of a family or operator name
    (``== "nd"``, ``family in ("nd", ...)``, ``op_type == "Scatter"``, ``{"cache": ...}``, ``FAMILIES["nd"]``),
    or a page file named after a family (``app_pages/spec_nd.py``)."""
    names = set(FAMILIES) | {s.op_type for s in sc.OPERATORS_LIST} | set(sc.OPERATORS)
    lit = "[\"'](?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")[\"']"
    slugs = "|".join(re.escape(f.slug) for f in FAMILIES.values())
    return re.compile(
        rf"(==|!=)\s*{lit}|{lit}\s*(==|!=)|\bin\s*[(\[{{]\s*{lit}|(^\s*|[{{,]\s*){lit}\s*:\s*\S"
        rf"|\[\s*{lit}\s*\]|\.get\(\s*{lit}|family_of\(\s*{lit}|(?i:family)\w*\s*=\s*{lit}"
        rf"|app_pages/(spec_)?(?:{slugs})(_family)?\.py|\.get\([\w.]*family\b|FAMILY_URL_PATHS")


def _sources():
    paths = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    return paths + [ROOT / "app.py"] + sorted((ROOT / "app_pages").glob("*.py"))


def test_every_version_has_a_complete_family_record():
    for spec in sc.OPERATORS_LIST:
        f = family_of(spec)
        assert f.name == spec.family and f.title and f.slug and f.reading and callable(f.plan)
        assert callable(f.updates_shape) and callable(f.export_loop)
        assert f.explorer_title and f.spec_page_title and f.icon  # its two pages (scatter_ui.pages.navigation)
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
    """Every package and the app read the family records; only the records know the family and operator names."""
    pattern = _name_pattern()
    offenders, allowed_seen = [], set()
    for path in _sources():
        where = str(path.relative_to(ROOT))
        if where in RECORDS or where in ALLOWED_FILES:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if not pattern.search(code):
                continue
            allowed = [a for a in ALLOWED if a[0] == where and a[1] in code]
            if allowed:
                allowed_seen.update(allowed)
            else:
                offenders.append(f"{where}:{n}: {line.strip()}")
    assert offenders == []
    assert allowed_seen == set(ALLOWED)  # an allow-list entry nothing needs any more goes


@pytest.mark.parametrize("line", [
    'if spec.family == "nd":', 'if family in ("cache", "slice"):', 'ok = c.spec.op_type == "Scatter"',
    'DRAWERS = {"elements": draw_elements}', '    "slice": FamilyDrawer(_slice_case),', 'f = FAMILIES["update"]',
    'if "ScatterND-16" != op:', 'LEVEL1_FAMILY = "elements"', 'st.Page("app_pages/spec_nd.py")',
])
def test_the_guard_pattern_catches_branches_on_names(line):
    assert _name_pattern().search(line)


@pytest.mark.parametrize("line", [
    'if spec.family == other.family:', 'for family in FAMILIES.values():', 'x = {"data": 1, "indices": 2}',
    'if f.index_tuples:', 'render(name, slug)',
])
def test_the_guard_pattern_lets_record_reads_through(line):
    assert not _name_pattern().search(line)


# the attribute codec (scatter_core/attributes.py) and the records are the only code that may branch on an
# attribute's name (issue 25)
ATTRIBUTE_RECORDS = ("scatter_core/attributes.py", "scatter_core/registry.py")
# (file, a piece of the line, why): a name the attribute guard meets that is not one of our attributes
ATTRIBUTE_ALLOWED = (
    ("scatter_ui/pages/practice.py", '"mode" in given', "Practice's own mode parameter (predict, fill, pick)"),
    ("scatter_ui/pages/spec.py", 'k != "axis"', "a framework call's keywords (the framework map's axis=)"),
    ("scatter_practice/grading.py", 'd.kind == "reduction"', "a diagnosis kind (combining instead of replacing)"),
)
# Whole files the attribute guard does not read, each with why.
ATTRIBUTE_ALLOWED_FILES = {
    "scatter_models/draws.py": "reads a user's graph node's own attributes (a Gather's axis), not a case's",
    "from_code/translate.py": "reads a framework call's own keywords (NumPy's mode=, a Python slice's start "
                                  "and step): not our attributes",
}


def _attribute_pattern() -> re.Pattern:
    """A comparison with, or a membership test of, an attribute's name (``== "axis"``, ``"reduction" != x``,
    ``name in ("use_init_val", ...)``, ``if "axis" in attrs``): code that treats one attribute apart."""
    names = {a.name for s in sc.OPERATORS_LIST for a in s.attributes}
    lit = "[\"'](?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")[\"']"
    return re.compile(rf"(==|!=)\s*{lit}|{lit}\s*(==|!=)|\bin\s*[(\[{{][^)\]}}]*{lit}(?!\s*:)"
                      rf"|{lit}\s+(not\s+)?in\b")


FOR_CLAUSE = re.compile(r"\bfor\s+[\w\s,()]+?\s+in\b")  # `for a in (...)` walks a tuple: not a membership test


def _branches_on_attribute(line: str) -> bool:
    return bool(_attribute_pattern().search(FOR_CLAUSE.sub("for _ over", line.split("#")[0])))


def _offenders(pattern: re.Pattern, skip, allowed=()) -> list[str]:
    found = []
    for path in _sources():
        where = str(path.relative_to(ROOT))
        if where in skip:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = FOR_CLAUSE.sub("for _ over", line.split("#")[0])
            if pattern.search(code) and not any(a[0] == where and a[1] in code for a in allowed):
                found.append(f"{where}:{n}: {line.strip()}")
    return found


def test_no_branch_on_an_attribute_name_outside_the_codec():
    """Every attribute is read, written and checked by its codec (scatter_core.codec_of): nothing else
    compares an attribute's name or tests for it (axis, reduction and use_init_val are ordinary kinds)."""
    pattern = _attribute_pattern()
    assert _offenders(pattern, set(ATTRIBUTE_RECORDS) | set(ATTRIBUTE_ALLOWED_FILES), ATTRIBUTE_ALLOWED) == []
    everything = _offenders(pattern, set(ATTRIBUTE_RECORDS))
    for where in ATTRIBUTE_ALLOWED_FILES:  # an allowance nothing needs any more goes
        assert any(o.startswith(f"{where}:") for o in everything), where
    for where, piece, _ in ATTRIBUTE_ALLOWED:
        assert any(o.startswith(f"{where}:") and piece in o for o in everything), (where, piece)


@pytest.mark.parametrize("line", [
    'if attr.name == "axis":', 'if name in ("axis", "step"):', 'if "use_init_val" in ex.attrs:',
    'elif "reduction" != name:', 'value = int(v) if n == "axis" else v', "if key == 'mode' and x:",
    'if "axis" not in self.attrs:', 'ok = any(n in ["start", "stop"] for n in names)',
])
def test_the_attribute_guard_catches_branches_on_attribute_names(line):
    assert _branches_on_attribute(line)


def test_the_attribute_guard_catches_a_planted_breach(tmp_path, monkeypatch):
    """A module of a package (planted in a copy of the tree's layout) with a branch on an attribute's
    name is reported by the guard, and the same branch in the codec is not."""
    planted = tmp_path / "scatter_ui" / "_planted_attribute_branch.py"
    codec = tmp_path / "scatter_core" / "attributes.py"
    for path in (planted, codec):
        path.parent.mkdir()
        path.write_text('def f(attr):\n    return 0 if attr.name == "axis" else 1\n', encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "_sources", lambda: [planted, codec])
    found = _offenders(_attribute_pattern(), set(ATTRIBUTE_RECORDS))
    assert found == ['scatter_ui/_planted_attribute_branch.py:2: return 0 if attr.name == "axis" else 1']


@pytest.mark.parametrize("line", [
    'value = attrs.get("axis")', 'axis = case.resolved.axis', 'codec = sc.codec_of(spec, "reduction")',
    'x = {"axis": 0}', 'if spec.attribute("use_init_val") is None:', 'if name == PAGE_STEP:',
    'for k, v in {**attrs, "reduction": r}.items():', 'values = tuple(a.get(n) for n in ("start", "stop"))',
])
def test_the_attribute_guard_lets_reads_of_one_attribute_through(line):
    assert not _branches_on_attribute(line)


# -- one case: scatter_core.Case (and its Unchecked, for inputs the core refuses) is the only class that carries a
# case's inputs or attributes; a record that needs a case (an example, an exercise, a runtime comparison, a drawn
# differential case, a stand-in) holds one (issue 25)
CASE_FIELDS = ("data", "indices", "updates", "attrs")
# (file, class): why the class keeps a field of one of those names that is not a case's
CASE_HOLDERS_ALLOWED = {
    ("scatter_models/draws.py", "Node"):
        "a node of a user's graph as the draws follow it (its op, inputs and attributes), not a scatter case",
    ("scatter_models/model.py", "ScatterNode"):
        "a scatter node of a user's model: only the attributes the node declares, no tensors (they are the "
        "model's, often unknown), its operator possibly one the registry lacks and a value possibly of the "
        "wrong kind, both of which the static check must name, so no Case (nor Unchecked) can hold it",
    ("scatter_models/onnx_file.py", "RawNode"):
        "the same node as the ONNX reader finds it, before its ScatterNode is made (same reason)",
    ("scatter_models/ir_file.py", "IRNode"):
        "the same node as the OpenVINO IR reader finds it, before its ScatterNode is made (same reason)",
    ("scatter_models/ir_file.py", "IRLayer"):
        "an IR layer's <data> element (the XML's own name for a layer's attributes), of any layer type",
    ("scatter_export/graphs.py", "GraphNode"):
        "a node of any ONNX operator in an exported composition (Where, Reshape, ...): attributes in "
        "onnx.helper's form, no tensors",
    ("scatter_ui/player/contract.py", "Figure"):
        "the type of a Plotly figure sent to the player: its key 'data' is Plotly's list of traces",
    ("scatter_ui/player/contract.py", "Frame"):
        "the type of a Plotly animation frame: its key 'data' is Plotly's list of traces",
    ("bench/bench_core.py", "Workload"):
        "a benchmark's raw arrays, timed under several versions and reductions and fed to the runtimes as "
        "they are: no one operator version, so no one Case",
}


def _case_holder_sources():
    """Every package (scatter_core's own records are the exception the guard is about), the app, and the
    scripts beside them (bench, devtools, scripts)."""
    extra = [p for d in ("bench", "devtools", "scripts") for p in sorted((ROOT / d).rglob("*.py"))]
    return [p for p in _sources() + extra if p.relative_to(ROOT).parts[0] != "scatter_core"]


def _case_fields(tree: ast.AST) -> list[tuple[str, int, str]]:
    """(class, line, field) for each field named like a case's input or attributes (a leading underscore does not
    hide it) that a class declares: an annotated or assigned name in its body, an entry of ``__slots__``, or
    ``self.<name> = ...`` / ``setattr(self, "<name>", ...)`` in one of its methods."""
    found = []

    def note(cls, node, name):
        if isinstance(name, str) and name.lstrip("_") in CASE_FIELDS and not name.startswith("__"):
            found.append((cls.name, node.lineno, name))

    for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
        for stmt in cls.body:
            targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else getattr(stmt, "targets", [])
            for target in targets:
                if not isinstance(target, ast.Name):
                    continue
                if target.id == "__slots__":
                    for item in ast.walk(stmt.value):
                        if isinstance(item, ast.Constant):
                            note(cls, item, item.value)
                else:
                    note(cls, target, target.id)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.args.args:
                me = stmt.args.args[0].arg  # self
                for node in ast.walk(stmt):
                    if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                            and isinstance(node.value, ast.Name) and node.value.id == me):
                        note(cls, node, node.attr)
                    elif (isinstance(node, ast.Call) and len(node.args) >= 2
                          and ((isinstance(node.func, ast.Name) and node.func.id == "setattr")
                               or (isinstance(node.func, ast.Attribute) and node.func.attr == "__setattr__"))
                          and isinstance(node.args[0], ast.Name) and node.args[0].id == me
                          and isinstance(node.args[1], ast.Constant)):
                        note(cls, node, node.args[1].value)
    return found


def _case_holders() -> list[str]:
    """``file:line: Class.field`` for every case field a class outside scatter_core declares."""
    return [f"{path.relative_to(ROOT)}:{line}: {cls}.{name}"
            for path in _case_holder_sources()
            for cls, line, name in _case_fields(ast.parse(path.read_text(encoding="utf-8"), str(path)))]


def test_no_class_outside_the_core_carries_a_cases_inputs_or_attributes():
    """Only scatter_core's Case (and Unchecked) carries data, indices, updates or attributes: every other class
    holds one and reads them through it (Example, Exercise, RuntimeCase, DrawnCase, StandIn ...); the few
    allowed classes carry something else under one of those names, each with why."""
    found = _case_holders()
    allowed = {(where, cls) for where, cls in CASE_HOLDERS_ALLOWED}
    offenders = [f for f in found if (f.split(":")[0], f.split(": ")[1].split(".")[0]) not in allowed]
    assert offenders == []
    for where, cls in CASE_HOLDERS_ALLOWED:  # an allowance nothing needs any more goes
        assert any(f.startswith(f"{where}:") and f": {cls}." in f for f in found), (where, cls)
    assert all(len(why) > 40 for why in CASE_HOLDERS_ALLOWED.values())


def test_the_case_holders_the_issue_named_hold_the_cores_record():
    """The five records issue 25 found carrying a case of their own now hold the core's (a Case, or for inputs
    the core refuses an Unchecked), and read their inputs through it."""
    import spec_examples
    from framework_map import Config, differential
    from runtime_check.divergences import RuntimeCase
    from scatter_practice import make_exercise
    from scatter_ui.state import large

    ex = spec_examples.by_id("onnx-scatterelements-18-example-2")
    assert isinstance(ex.record, sc.Case) and ex.case is ex.record and ex.data is ex.record.data
    assert ex.attrs == {"axis": 1} and ex.record.attrs["reduction"] == "none"  # as printed; the Case's defaults
    generated = spec_examples.by_id("ov-scatter-update-3-example-1")  # shapes only, above the element limit
    assert isinstance(generated.record, sc.Unchecked) and generated.record.data is None
    assert generated.attrs == dict(generated.record.attrs)
    exercise = make_exercise(4, 2, "ScatterElements-18")
    assert exercise.data is exercise.case.data and exercise.attrs["axis"] == exercise.case.given_attrs["axis"]
    drawn = differential.random_case(np.random.default_rng(0), Config("ScatterND-18", "none"), "int32")
    assert drawn.data is drawn.case.data
    refused = RuntimeCase.of("onnxruntime", sc.OPERATORS["ScatterND-18"], np.zeros(3), [[-9]], [1.0], {})
    assert refused.case is None and refused.unchecked.indices == [[-9]]
    stand_in = large.stand_in(generated, generated.record.spec.family)
    assert stand_in is not None and isinstance(stand_in.case, sc.Case)


def test_the_case_guard_catches_a_planted_case_holder(tmp_path, monkeypatch):
    """A class of a package (planted in a copy of the tree's layout) that keeps a case's inputs or attributes of
    its own, in any of the ways a class can declare a field, is reported; the same class in scatter_core is not."""
    planted = tmp_path / "scatter_ui" / "_planted_case.py"
    core = tmp_path / "scatter_core" / "case.py"
    source = ("from dataclasses import dataclass\n\n\n"
              "@dataclass\nclass Drawn:\n    data: object\n    title: str\n\n\n"
              "class Slotted:\n    __slots__ = ('indices', 'name')\n\n\n"
              "class Kept:\n    def __init__(self, case, attrs):\n        self.case = case\n        self._attrs = attrs\n"
              "        setattr(self, 'updates', None)\n")
    for path in (planted, core):
        path.parent.mkdir()
        path.write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "_sources", lambda: [planted, core])
    assert _case_holders() == ["scatter_ui/_planted_case.py:6: Drawn.data",
                               "scatter_ui/_planted_case.py:11: Slotted.indices",
                               "scatter_ui/_planted_case.py:17: Kept._attrs",
                               "scatter_ui/_planted_case.py:18: Kept.updates"]


@pytest.mark.parametrize("spec", sc.OPERATORS_LIST, ids=lambda s: s.name)
def test_every_sample_hook_draws_valid_cases_within_its_limits(spec):
    rng = np.random.default_rng(11)
    limits = sc.Limits(max_rank=2, max_dim=3)
    cases = [sc.sample_case(rng, spec, dtype="float32", values=(5, 8), limits=limits) for _ in range(40)]
    for c in cases:
        assert c.spec is spec and c.data.dtype == np.float32
        assert 1 <= c.data.ndim <= limits.max_rank + 1  # +1: TensorScatter's batch axis
        assert all(1 <= n <= 3 for n in c.data.shape) and set(np.unique(c.data)) <= {5, 6, 7}
        want = family_of(spec).updates_shape(c.data.shape, None if c.indices is None else c.indices.shape, c.attrs)
        assert want is None or want == c.updates_given_shape or not c.indices_given
    writes = [c.plan.targets.reshape(-1) for c in cases]
    repeats = any(np.unique(t).size < t.size for t in writes)  # some cell written twice
    assert repeats != family_of(spec).writes_once


@pytest.mark.parametrize("op", ["ScatterElements-18", "ScatterND-18", "ScatterUpdate-3"])
@pytest.mark.parametrize("wish", ["yes", "no"])
def test_fitted_draws_keep_the_shape_the_axis_and_the_duplicates_wish(op, wish):
    rng = np.random.default_rng(2)
    spec = sc.OPERATORS[op]
    limits = sc.Limits(data_shape=(3, 4), axis=1, duplicates=wish, max_steps=6)
    drawn = [d for d in (family_of(spec).sample(rng, spec, limits) for _ in range(30)) if d is not None]
    assert len(drawn) >= 10
    for d in drawn:
        c = sc.case(op, np.zeros(d.data_shape, np.int32), d.indices, np.ones(d.updates_shape, np.int32),
                    **{**d.attrs, **({"axis": 1} if spec.attribute("axis") else {})})
        targets = c.plan.targets.reshape(len(c.plan.targets), -1)[:, 0]  # each step's first cell
        assert d.data_shape == (3, 4) and 2 <= len(targets) <= 6 and (d.indices >= 0).all()
        assert (np.unique(targets).size < targets.size) == (wish == "yes")
        assert d.sizes.shape == d.indices.shape and (d.indices < d.sizes).all()


def test_sample_case_names_the_family_without_a_hook(monkeypatch):
    from scatter_core import families

    monkeypatch.setattr(families, "FAMILIES", {**FAMILIES, "nd": dataclasses.replace(FAMILIES["nd"], sample=None)})
    with pytest.raises(sc.ScatterError, match="the nd family has no sample hook"):
        sc.sample_case(np.random.default_rng(0), "ScatterND-16")


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


def _window_sample(rng, spec, limits):
    """The toy family's sample hook: a start and updates that fit."""
    size = int(rng.integers(1, limits.max_dim + 1))
    n = int(rng.integers(0 if limits.empty else 1, size + 1))
    return sc.Drawn((size,), None, (n,), {"start": int(rng.integers(0, size - n + 1))})


def test_a_new_family_needs_no_code_outside_its_records(monkeypatch):
    from scatter_core import families, registry
    from scatter_core.spec import AttrSpec
    from scatter_export import numpy_loop, pytest_case

    window = Family("window", "Window", "window", _window_plan, lambda d, i, a: None, "no indices at all",
                    lambda case: ("for j in range(updates.shape[0]):",
                                  f"    apply(out, contributions, ({case.resolved['start']} + j,), updates[j])"),
                    indices="unused", sample=_window_sample, writes_once=True)
    spec = dataclasses.replace(
        sc.OPERATORS["ScatterElementsUpdate-12"], name="Window-1", op_type="Window", version=1, family="window",
        attributes=(AttrSpec("start", "int", required=True),
                    sc.OPERATORS["ScatterElementsUpdate-12"].attribute("reduction")), previous=None)
    monkeypatch.setattr(families, "FAMILIES", {**FAMILIES, "window": window})
    monkeypatch.setattr(registry, "OPERATORS", {**sc.OPERATORS, "Window-1": spec})
    data = np.int32([1, 2, 3, 4, 5])
    assert sc.scatter("Window-1", data, None, np.int32([7, 8]), start=2, reduction="sum").tolist() == [1, 2, 10, 12, 5]
    t = sc.trace(sc.case("Window-1", data, None, np.int32([7, 8]), start=1))
    assert len(t) == 2 and t.output.tolist() == [1, 7, 8, 4, 5] and "updates[1] = 8 goes to output[2]" in t.describe(1)
    r = sc.check_expected(sc.case("Window-1", data, None, np.int32([7, 8]), start=1), [1, 7, 8, 4, 5])
    assert r.matches
    c = sc.case("Window-1", data, None, np.int32([7, 8]), start=1)
    assert c.replace(start=3).run().tolist() == [1, 2, 3, 7, 8] and c.attr_text() == "start=1, reduction='none'"
    with pytest.raises(sc.ScatterError, match="reads no indices"):
        sc.scatter("Window-1", data, [0], np.int32([7]), start=0)
    with pytest.raises(sc.ScatterError, match="start is a required attribute"):
        sc.scatter("Window-1", data, None, np.int32([7]))
    namespace = {}
    exec(compile(numpy_loop(sc.case("Window-1", data, None, np.int32([7, 8]), start=1)), "loop", "exec"), namespace)
    assert namespace["scatter_reference"](data, None, np.int32([7, 8])).tolist() == [1, 7, 8, 4, 5]
    assert "def test_window_1_case" in pytest_case(sc.case("Window-1", data, None, np.int32([7, 8]), start=1))
    # the sample hook: random cases for the core, the tests' strategies and the framework differential
    rng = np.random.default_rng(3)
    drawn = [sc.sample_case(rng, "Window-1", attrs={"reduction": "sum"}) for _ in range(20)]
    assert all(c.spec is spec and c.attrs["reduction"] == "sum" for c in drawn)
    assert {c.data.size for c in drawn} > {1} and all(c.updates.size <= c.data.size for c in drawn)
    from hypothesis import find

    from framework_map import Config, differential
    from tests.support.strategies import cases

    op, d, i, u, attrs = find(cases(ops=["Window-1"]), lambda c: c[3].size >= 2)
    assert op == "Window-1" and i is None and u.size >= 2
    window_of = slice(attrs["start"], attrs["start"] + u.size)
    np.testing.assert_array_equal(sc.scatter(op, d, i, u, **{**attrs, "reduction": "none"})[window_of], u)
    case = differential.random_case(rng, Config("Window-1", "none"), "int32")
    assert case.indices is None and case.axis is None and not case.duplicates
    assert "window" in {name for name, f in families.FAMILIES.items() if f.writes_once}
