"""The framework map: schema (every record names its divergences) and the JAX differential test.

The differential test runs every JAX record on random valid cases of every configuration
(operator version x reduction x use_init_val) it claims, against scatter_core; cases are
built to contain duplicate indices, and every record must meet some. PyTorch and TensorFlow
run in scripts/verify_frameworks.py (recorded in docs/frameworks.md).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

import from_code as fc
import framework_map as fm
import scatter_core as sc
from framework_map import differential
from tests.support.skipping import require_framework, require_or_skip

ROOT = Path(__file__).resolve().parents[2]


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
    for path in [*(ROOT / "framework_map").glob("*.py"), *(ROOT / "from_code").glob("*.py")]:
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
    case = differential.DrawnCase(sc.case("ScatterND-16", np.array([1, 2, 3]), np.array([[0], [0]]),
                                          np.array([10, 20])), np.array([20, 2, 3]), True)
    assert differential.compare(config, case, np.array([20, 2, 3])) == "exact"
    assert differential.compare(config, case, np.array([10, 2, 3])) == "other-winner"
    assert differential.compare(config, case, np.array([1, 2, 3])).startswith("got")  # no write at all: wrong
    add = fm.Config("ScatterND-16", "add")
    case = differential.DrawnCase(sc.case("ScatterND-18", np.array([1, 2, 3]), np.array([[0], [0]]),
                                          np.array([10, 20]), reduction="add"), np.array([31, 2, 3]), True)
    assert differential.compare(add, case, np.array([21, 2, 3])).startswith("got")


# ------------------------------------------------------------------------------ JAX, differential
CASES_PER_PAIR = 4  # 2 float32 + 2 int32; JAX compiles per shape, so this is what 2 cores afford in CI


@pytest.mark.slow
def test_every_jax_entry_agrees_with_scatter_core_on_random_cases():
    require_or_skip("jax")
    rng = np.random.default_rng()  # new cases each run; a failure prints the case
    pairs = list(differential.pairs("JAX"))
    assert {e.id for e, _ in pairs} == {e.id for e in fm.ENTRIES if e.framework == "JAX"}
    configs = {c.label for spec in sc.OPERATORS_LIST for c in fm.configurations(spec)}
    assert {c.label for _, c in pairs} == configs  # every configuration of every version is covered
    failures, duplicates = [], defaultdict(int)
    can_duplicate = {e.id for e, _ in pairs if e.family not in differential.DUPLICATE_FREE}
    for entry, config in pairs:
        outcome = differential.check_entry(entry, config, rng, CASES_PER_PAIR)
        assert outcome.cases == CASES_PER_PAIR
        failures += [f"{entry.id} / {config.label}: {f}" for f in outcome.failures]
        duplicates[entry.id] += outcome.duplicates
    for entry, config in pairs:  # a record with one configuration can miss duplicates by chance: a few more rounds
        for _ in range(5 if entry.id in can_duplicate and not duplicates[entry.id] else 0):
            outcome = differential.check_entry(entry, config, rng, CASES_PER_PAIR)
            failures += [f"{entry.id} / {config.label}: {f}" for f in outcome.failures]
            duplicates[entry.id] += outcome.duplicates
            if duplicates[entry.id]:
                break
    assert not failures, "\n".join(failures[:10])
    assert all(duplicates[e] > 0 for e in can_duplicate), dict(duplicates)
    assert not any(duplicates[e.id] for e, _ in pairs if e.family in differential.DUPLICATE_FREE), dict(duplicates)


# ------------------------------------------------------------------------------ TensorScatter-24, SliceScatter-15
def test_duplicate_free_families_are_the_ones_scatter_core_says_cannot_have_duplicates():
    for spec in sc.OPERATORS_LIST:
        free = spec.family in differential.DUPLICATE_FREE
        assert free == ("cannot occur" in spec.duplicate_policy), (spec.name, spec.duplicate_policy)


def test_cache_and_slice_cases_cover_their_edge_cases():
    rng = np.random.default_rng(5)

    def cases(op):
        return [differential.random_case(rng, c, "int32") for c in fm.configurations(op) for _ in range(60)]

    cache = cases("TensorScatter-24")
    assert {c.attrs["mode"] for c in cache} == {"linear", "circular"}
    assert any(c.indices is None for c in cache) and any(c.indices is not None for c in cache)
    wraps = [c for c in cache if c.attrs["mode"] == "circular" and c.indices is not None
             and (c.indices + c.updates.shape[c.axis] > c.data.shape[c.axis]).any()]
    assert wraps  # circular writes that run past the end and continue at position 0
    slices = cases("SliceScatter-15")
    assert any(min(c.attrs["step"]) < 0 for c in slices) and any(c.attrs["axes"] is None for c in slices)
    assert any(c.attrs["axes"] is not None and min(c.attrs["axes"]) < 0 for c in slices)
    assert any(c.updates.size == 0 for c in slices) and sum(c.updates.size > 0 for c in slices) > 30
    for c in slices:  # the expected output is scatter_core's
        np.testing.assert_array_equal(c.expected, sc.scatter("SliceScatter-15", c.data, None, c.updates, **c.attrs))


def test_run_passes_no_indices_to_slice_records_and_none_for_left_out_write_indices():
    require_or_skip("jax")
    data = np.arange(12, dtype=np.int32).reshape(3, 4)
    attrs = {"start": [-1, 3], "stop": [-10, 0], "step": [-2, -2], "axes": [0, -1]}  # clamped, backwards
    want = sc.scatter("SliceScatter-15", data, None, np.array([[-1, -2], [-3, -4]], np.int32), **attrs)
    got = fm.run(fm.BY_ID["jax.at.slice"], fm.Config("SliceScatter-15", "none"), data, None,
                 np.array([[-1, -2], [-3, -4]], np.int32), None, attrs)
    np.testing.assert_array_equal(got, want)
    cache, update = np.zeros((2, 3, 2), np.int32), np.ones((2, 2, 2), np.int32)
    got = fm.run(fm.BY_ID["jax.at.cache"], fm.Config("TensorScatter-24", "none"), cache, None, update, 1,
                 {"mode": "linear"})
    np.testing.assert_array_equal(got, sc.scatter("TensorScatter-24", cache, None, update, axis=1))


SNIPPET_CASES = [  # one per version: a circular write that wraps around; a two-axis slice with a negative step
    ("TensorScatter-24", np.zeros((2, 4, 2), np.float32), [3, 1], np.arange(12, dtype=np.float32).reshape(2, 3, 2),
     {"axis": 1, "mode": "circular"}),
    ("SliceScatter-15", np.zeros((3, 5), np.int32), None, np.array([[1, 2, 3], [4, 5, 6]], np.int32),
     {"start": [-1, 0], "stop": [-10, 5], "step": [-2, 2], "axes": [0, 1]}),
]


SNIPPET_RECORDS = {"JAX": ("jax.at.cache", "jax.at.slice"),
                   "PyTorch": ("torch.index_put.cache", "torch.slice_scatter"),
                   "TensorFlow": ("tf.tensor_scatter_nd_update.cache", "tf.raw_ops.TensorStridedSliceUpdate")}


@pytest.mark.slow
@pytest.mark.parametrize("framework", list(SNIPPET_RECORDS))
@pytest.mark.parametrize("case", SNIPPET_CASES, ids=lambda c: c[0])
def test_the_as_framework_export_of_the_new_versions_runs_and_reproduces_scatter_core(case, framework, tmp_path):
    """JAX in CI; PyTorch and TensorFlow where installed."""
    import scatter_export as se

    require_framework(framework)
    op, data, indices, updates, attrs = case
    assert se.framework_unavailable_reason(framework, sc.case(op, data, indices, updates, **attrs)) is None
    code = se.framework_snippet(framework, sc.case(op, data, indices, updates, **attrs))
    path = tmp_path / "snippet.py"
    path.write_text(code)
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "equal to Scatter Explorer's output: True" in done.stdout, done.stdout
    entry = fm.BY_ID[SNIPPET_RECORDS[framework][SNIPPET_CASES.index(case)]]
    assert fm.source_of(entry) in code and f"#   duplicates: {entry.divergences['duplicates']}" in code


@pytest.mark.parametrize("spec", [s for s in sc.OPERATORS_LIST if s.attribute("use_init_val") is None],
                         ids=lambda s: s.name)
def test_the_initial_value_row_speaks_in_the_versions_own_terms(spec):
    """#22: under ONNX ScatterElements-18 (no use_init_val) the TF and JAX rows said "use_init_val = false ..."."""
    for config in fm.configurations(spec):
        for entries in fm.by_framework(config).values():
            for entry in entries:
                said = fm.divergences(entry, config)
                assert set(said) == set(fm.TOPICS)
                assert "use_init_val" not in said["initial value"], (config.label, entry.id)
                if config.canonical != "none" and not entry.divergences["initial value"].startswith("n/a"):
                    assert said["initial value"].startswith(f"same: {spec.name} has no switch"), entry.id
                    if entry.init_arg == "include_self":
                        assert "include_self=True" in said["initial value"]


def test_a_version_with_use_init_val_keeps_the_records_words():
    config = fm.Config("ScatterElementsUpdate-12", "sum", False)
    for entries in fm.by_framework(config).values():
        for entry in entries:
            assert fm.divergences(entry, config) == dict(entry.divergences)
    none = fm.Config("ScatterElementsUpdate-12", "none", True)
    tf = fm.BY_ID["tf.tensor_scatter_nd.elements"]
    assert fm.divergences(tf, none)["initial value"].startswith("n/a")


# ------------------------------------------------------------------------------ a tracker report, probed
def test_the_tensorflow_out_of_range_sentence_says_what_verify_frameworks_probed():
    """tensorflow#56567 (tf.scatter_nd dropping a negative index silently on CPU for float updates) was probed on
    the installed TensorFlow by scripts/verify_frameworks.py; every TensorFlow record's sentence says the result
    with the version, and re-probing where TensorFlow is installed (the same version) gives the same answer."""
    import importlib.metadata

    from framework_map.verified import VERIFIED

    res = VERIFIED["TensorFlow"]
    probed = res["out_of_range"]
    assert probed["cases"] >= 12 and set(probed) == {*differential.TF_OUT_OF_RANGE_MODES, "cases"}
    said = {e.id: e.divergences["out-of-range indices"] for e in fm.ENTRIES if e.framework == "TensorFlow"
            and "InvalidArgumentError" in e.divergences["out-of-range indices"]}
    assert len(said) >= 9  # every record calling tf.scatter_nd / tensor_scatter_nd_* on indices
    for entry_id, text in said.items():
        entry = fm.BY_ID[entry_id]
        assert "tensorflow#56567" in text and res["version"] in text, entry.id
        assert ("is not reproduced on" in text) == (probed["eager"] == "error"), entry.id
        assert ("jit_compile=True) silently drops" in text) == (
            probed["tf.function(jit_compile=True)"] == "dropped"), entry.id
    require_framework("TensorFlow")
    installed = [f"{d} {importlib.metadata.version(d)}" for d in ("tensorflow-cpu", "tensorflow")
                 if _installed(d)]
    if res["version"] not in installed:
        pytest.skip(f"TensorFlow {installed} is not the version recorded ({res['version']})")
    assert differential.tensorflow_out_of_range() == probed


def test_the_tensorflow_nan_max_min_sentence_says_what_verify_frameworks_probed():
    """A NaN in tf.tensor_scatter_nd_max / _min (found running From your code's calls on tensorflow-cpu 2.21.0):
    the NaN update is ignored where scatter_core and PyTorch make the cell NaN. verify_frameworks probed it on both
    frameworks (verified.py); the max / min TensorFlow records say it with the version, the others do not, and
    re-probing where the recorded versions are installed gives the same answers."""
    import importlib.metadata

    from framework_map.verified import VERIFIED

    tf_res, torch_res = VERIFIED["TensorFlow"], VERIFIED["PyTorch"]
    for res in (tf_res, torch_res):
        assert res["nan_max_min"]["cases"] >= 16 and set(res["nan_max_min"]) == {*differential.NAN_PROBES, "cases"}
    assert torch_res["nan_max_min"]["NaN update"] == "propagated"  # as scatter_core: what the sentence claims
    tf_entries = [e for e in fm.ENTRIES if e.framework == "TensorFlow"]
    said = {e.id for e in tf_entries if "a NaN update" in e.divergences["dtypes"]}
    assert said == {e.id for e in tf_entries if {"max", "min"} & set(e.reductions)}, said
    for entry_id in said:
        text = fm.BY_ID[entry_id].divergences["dtypes"]
        assert tf_res["version"] in text and f"a NaN update is {tf_res['nan_max_min']['NaN update']}" in text
    assert any("a NaN update is ignored" in c for c in fc.from_call("tf.tensor_scatter_nd_min(t, idx, upd)").caveats)
    assert not any("NaN" in c for c in fc.from_call("tf.tensor_scatter_nd_add(t, idx, upd)").caveats)
    for framework, res, probe, dists in (("TensorFlow", tf_res, differential.tensorflow_nan_max_min,
                                          ("tensorflow-cpu", "tensorflow")),
                                         ("PyTorch", torch_res, differential.torch_nan_max_min, ("torch",))):
        require_framework(framework)
        installed = [f"{d} {importlib.metadata.version(d)}" for d in dists if _installed(d)]
        if res["version"] not in installed:
            pytest.skip(f"{framework} {installed} is not the version recorded ({res['version']})")
        assert probe() == res["nan_max_min"], framework


def test_the_index_add_alpha_caveat_says_what_verify_frameworks_probed():
    """torch.index_add with alpha: the rounding verify_frameworks probed (verified.py) is the caveat of every
    index_add call with alpha, with the version, and of no other call (tests/from_code/test_from_call_frameworks.py re-probes
    where the same PyTorch is installed)."""
    from framework_map.verified import VERIFIED

    res = VERIFIED["PyTorch"]
    probed = res["index_add_alpha"]
    assert probed["cases"] == 2 and set(probed) == {*differential.ALPHA_RANKS, "cases"}
    said = [c for c in fc.from_call("x.index_add(1, idx, src, alpha=0.5)").caveats if "alpha * source" in c]
    if all(probed[r] == "rounded twice" for r in differential.ALPHA_RANKS):
        assert not said  # PyTorch rounds as the composition does: nothing to say
        return
    assert len(said) == 1 and res["version"] in said[0]
    assert all(f"data of {r}: {probed[r]}" in said[0] for r in differential.ALPHA_RANKS)
    assert not any("alpha * source" in c for c in fc.from_call("x.index_add(1, idx, src)").caveats)


def _installed(dist: str) -> bool:
    import importlib.metadata

    try:
        importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True
