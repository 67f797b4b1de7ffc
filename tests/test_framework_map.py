"""The framework map: schema (every record names its divergences) and the JAX differential test.

The differential test runs every JAX record on random valid cases of every configuration
(operator version x reduction x use_init_val) it claims, against scatter_core; cases are
built to contain duplicate indices, and every record must meet some. PyTorch and TensorFlow
run in scripts/verify_frameworks.py (recorded in docs/frameworks.md).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

import framework_map as fm
import scatter_core as sc
from framework_map import differential
from tests.conftest import require_or_skip

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------------------ schema
@pytest.mark.parametrize("entry", fm.ENTRIES, ids=lambda e: e.id)
def test_every_entry_names_its_divergences_on_every_topic(entry):
    assert set(entry.divergences) == set(fm.TOPICS), entry.id
    assert all(isinstance(v, str) and len(v.strip()) > 1 for v in entry.divergences.values()), entry.id
    assert entry.framework in fm.FRAMEWORKS and entry.kind in fm.KINDS
    assert entry.family in sc.FAMILY_TITLES
    assert entry.reductions and set(entry.reductions) <= set(sc.REDUCTIONS), entry.id
    assert entry.docs.startswith("https://")
    assert entry.init_arg in (None, "include_self", "init")
    if entry.executable:  # the function and helpers exist in the impl module's source (read, not imported)
        tree = ast.parse((ROOT / (fm.MODULES[entry.framework].replace(".", "/") + ".py")).read_text())
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert {entry.function, *entry.helpers} <= names, entry.id
        src = fm.source_of(entry)
        assert f"def {entry.function}(" in src
    else:
        assert entry.framework == "WebNN", f"{entry.id}: only WebNN records may be unexecutable"


def test_ids_are_unique_and_the_map_is_pure():
    assert len(fm.BY_ID) == len(fm.ENTRIES)
    for path in (ROOT / "framework_map").glob("*.py"):
        tree = ast.parse(path.read_text())
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        mods = {a.name.split(".")[0] for n in top if isinstance(n, ast.Import) for a in n.names} | {
            (n.module or "").split(".")[0] for n in top if isinstance(n, ast.ImportFrom)}
        assert not mods & {"streamlit", "plotly"}, path.name
        if not path.name.startswith("impl_"):  # frameworks are imported only by their impl modules
            assert not mods & {"torch", "tensorflow", "jax"}, path.name


@pytest.mark.parametrize("spec", sc.OPERATORS_LIST, ids=lambda s: s.name)
def test_every_configuration_has_an_entry_in_every_framework(spec):
    for config in fm.configurations(spec):
        found = fm.by_framework(config)
        for framework in ("PyTorch", "TensorFlow", "JAX"):
            assert found[framework], (config.label, framework)
            assert any(e.executable for e in found[framework]), (config.label, framework)


def test_configurations_follow_the_registry():
    labels = [c.label for c in fm.configurations("ScatterElementsUpdate-12")]
    assert len(labels) == 2 * len(sc.OPERATORS["ScatterElementsUpdate-12"].reductions)
    assert "ScatterElementsUpdate-12 reduction=mean, use_init_val=false" in labels
    assert [c.reduction for c in fm.configurations("ScatterND-18")] == ["none", "add", "mul", "max", "min"]
    # include_self follows use_init_val; a neutral init only when use_init_val is false
    c = fm.Config("ScatterElementsUpdate-12", "min", False)
    assert fm.call_kwargs(fm.BY_ID["torch.scatter_reduce"], c, "int32", 0) == {
        "axis": 0, "reduce": "amin", "include_self": False}
    assert fm.call_kwargs(fm.BY_ID["jax.at.elements"], c, "int32", 1)["init"] == np.iinfo(np.int32).max
    assert fm.call_kwargs(fm.BY_ID["jax.at.elements"], fm.Config("ScatterElements-18", "min"), "int32", 1)[
        "init"] is None


def test_differential_compare_accepts_another_duplicate_winner_only_under_replacement():
    config = fm.Config("ScatterND-16", "none")
    case = differential.Case(np.array([1, 2, 3]), np.array([[0], [0]]), np.array([10, 20]), None,
                             np.array([20, 2, 3]), True)
    assert differential.compare(config, case, np.array([20, 2, 3])) == "exact"
    assert differential.compare(config, case, np.array([10, 2, 3])) == "other-winner"
    assert differential.compare(config, case, np.array([1, 2, 3])).startswith("got")  # no write at all: wrong
    add = fm.Config("ScatterND-16", "add")
    case = differential.Case(np.array([1, 2, 3]), np.array([[0], [0]]), np.array([10, 20]), None,
                             np.array([31, 2, 3]), True)
    assert differential.compare(add, case, np.array([21, 2, 3])).startswith("got")


# ------------------------------------------------------------------------------ JAX, differential
CASES_PER_PAIR = 4  # 2 float32 + 2 int32; JAX compiles per shape, so this is what 2 cores afford in CI


def test_every_jax_entry_agrees_with_scatter_core_on_random_cases():
    require_or_skip("jax")
    rng = np.random.default_rng()  # new cases each run; a failure prints the case
    pairs = list(differential.pairs("JAX"))
    assert {e.id for e, _ in pairs} == {e.id for e in fm.ENTRIES if e.framework == "JAX"}
    configs = {c.label for spec in sc.OPERATORS_LIST for c in fm.configurations(spec)}
    assert {c.label for _, c in pairs} == configs  # every configuration of every version is covered
    failures, duplicates = [], defaultdict(int)
    for entry, config in pairs:
        outcome = differential.check_entry(entry, config, rng, CASES_PER_PAIR)
        assert outcome.cases == CASES_PER_PAIR
        failures += [f"{entry.id} / {config.label}: {f}" for f in outcome.failures]
        duplicates[entry.id] += outcome.duplicates
    assert not failures, "\n".join(failures[:10])
    assert all(duplicates[e] > 0 for e in {e.id for e, _ in pairs}), dict(duplicates)
