"""spec_examples: the catalogue loads, every printed output is reproduced or explained by one erratum."""

import hashlib
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
import spec_examples as se
from scatter_core.checks import MAX_ELEMENTS
from spec_examples import generate as gen
from spec_examples.loader import DATA_DIR, Catalogue, CatalogueError

ROOT = Path(__file__).resolve().parents[2]

# The full id list in catalogue order. A renamed, dropped or added example fails here:
# ids are stable, so the app's links (?example=...) keep working.
PINNED_IDS = [
    "onnx-scatter-9-example-1", "onnx-scatter-9-example-2",
    "onnx-scatter-11-example-1", "onnx-scatter-11-example-2",
    "onnx-scatterelements-11-example-1", "onnx-scatterelements-11-example-2",
    "onnx-scatterelements-13-example-1", "onnx-scatterelements-13-example-2",
    "onnx-scatterelements-16-example-1", "onnx-scatterelements-16-example-2",
    "onnx-scatterelements-18-example-1", "onnx-scatterelements-18-example-2",
    "onnx-scatternd-11-example-1", "onnx-scatternd-11-example-2",
    "onnx-scatternd-13-example-1", "onnx-scatternd-13-example-2",
    "onnx-scatternd-16-example-1", "onnx-scatternd-16-example-2",
    "onnx-scatternd-18-example-1", "onnx-scatternd-18-example-2",
    "ov-scatter-elements-update-3-example",
    "ov-scatter-elements-update-12-example-1", "ov-scatter-elements-update-12-example-2",
    "ov-scatter-elements-update-12-example-3", "ov-scatter-elements-update-12-example-4",
    "ov-scatter-elements-update-12-example-5", "ov-scatter-elements-update-12-example-6",
    "ov-scatter-nd-update-3-example-1", "ov-scatter-nd-update-3-example-2", "ov-scatter-nd-update-3-layer-example",
    "ov-scatter-nd-update-15-example-1", "ov-scatter-nd-update-15-example-two-slices",
    "ov-scatter-nd-update-15-xml-example-1", "ov-scatter-nd-update-15-xml-example-2",
    "ov-scatter-nd-update-15-xml-example-3", "ov-scatter-nd-update-15-xml-example-4",
    "ov-scatter-nd-update-15-xml-example-5",
    "ov-scatter-update-3-example-1", "ov-scatter-update-3-example-2",
    "ov-slice-scatter-15-example-1", "ov-slice-scatter-15-example-2", "ov-slice-scatter-15-example-3",
    "onnx-node-scatter-without-axis", "onnx-node-scatter-with-axis",
    "onnx-node-scatter-elements-without-axis", "onnx-node-scatter-elements-with-axis",
    "onnx-node-scatter-elements-with-negative-indices", "onnx-node-scatter-elements-with-duplicate-indices",
    "onnx-node-scatter-elements-with-reduction-max", "onnx-node-scatter-elements-with-reduction-min",
    "onnx-node-scatternd", "onnx-node-scatternd-add", "onnx-node-scatternd-multiply",
    "onnx-node-scatternd-max", "onnx-node-scatternd-min",
    "onnx-node-scatternd-max-with-element-indices", "onnx-node-scatternd-min-with-element-indices",
    "onnx-node-tensorscatter", "onnx-node-tensorscatter-circular", "onnx-node-tensorscatter-3d",
    "teach-duplicates-none", "teach-duplicates-none-first-wins",
    "teach-float-sum-order", "teach-float-sum-order-swapped", "teach-mean-negative-int",
    "teach-no-init-min", "teach-no-init-max", "teach-no-init-prod", "teach-rank3-k2",
    "teach-nd-update-15-max", "teach-nd-update-15-min",
    "teach-tensorscatter-prefill", "teach-tensorscatter-circular-decode", "teach-slice-scatter-negative-step",
]

# Errata docs/semantics.md lists; each must have a record.
SEMANTICS_ERRATA = [
    "onnx-scatternd-mul-wording",                            # 1
    "onnx-scatternd-updates-shape-off-by-one",               # 2
    "onnx-scatternd-loop-missing-tuple",                     # 2
    "onnx-scatter-9-writes-into-data",                       # 3
    "ov-scatter-elements-update-12-axis1-formula",           # 4
    "ov-scatter-elements-update-12-negative-index-formula",  # 4
    "ov-scatter-elements-update-12-mean-rounding",           # 4
    "ov-scatter-elements-update-3-negative-indices",         # 5
    "ov-scatter-nd-update-3-index-range",                    # 5
    "ov-scatter-nd-update-3-dangling-reference",             # 5
    "ov-scatter-nd-update-15-example-1-output",              # 6
    "ov-scatter-nd-update-15-xml-example-1-output",          # 6
    "ov-scatter-nd-update-15-xml-example-4-output",          # 6
    "ov-scatter-nd-update-15-numpy-snippet",                 # 6
    "ov-scatter-nd-update-15-negative-index-formula",        # 6
    "ov-scatter-update-3-nd-formula-brackets",               # 7
    "onnx-reduction-16-runtime-gap",                         # 8
]

# SHA-256 (first 16 hex digits) of the generated arrays' bytes: the same on every run and machine.
GENERATED_DIGESTS = {
    "ov-scatter-elements-update-12-example-6":
        {"data": "38b9a490a0f0fd3b", "indices": "408fe2e122bddb24", "updates": "5cf653a5422f5855"},
    "ov-scatter-elements-update-3-example":
        {"data": "4b999539adfc7c49", "indices": "26ed062d4da62502", "updates": "ae20c1867361b1eb"},
    "ov-scatter-nd-update-15-xml-example-5":
        {"data": "e9947fcf82dd5d4a", "indices": "81b276916ed06adc", "updates": "4d4e18252e4a7304"},
    "ov-scatter-nd-update-3-layer-example":
        {"data": "b40d912c47157120", "indices": "cb1a14bdcf415d65", "updates": "65a8904ee7ba7235"},
    "ov-scatter-update-3-example-1":
        {"data": "9c87dc784c8426eb", "indices": "cac39a26cc501446", "updates": "649daa0da4ef0796"},
}

EXAMPLES = se.load_all()
BY_ID = {ex.id: ex for ex in EXAMPLES}
PRINTED = [ex for ex in EXAMPLES if ex.expected is not None]
GENERATED = [ex for ex in EXAMPLES if ex.shapes_only]
ERRATA = se.load_errata()


def ids(examples):
    return [ex.id for ex in examples]


def run(ex):
    return sc.scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)


def digest(arr):
    base = arr
    while isinstance(base.base, np.ndarray):  # a broadcast view: hash the block it repeats
        base = base.base
    return hashlib.sha256(np.ascontiguousarray(base).tobytes()).hexdigest()[:16]


# ---------------------------------------------------------------- the catalogue


def test_ids_are_unique_and_pinned():
    assert len(set(ids(EXAMPLES))) == len(EXAMPLES)
    assert ids(EXAMPLES) == PINNED_IDS


def test_every_operator_has_an_example():
    covered = {ex.op for ex in EXAMPLES}
    assert [op for op in sc.OPERATORS if op not in covered] == []
    for op in sc.OPERATORS:
        assert se.examples_for(op) and all(ex.op == op for ex in se.examples_for(op))


def test_issue_examples_are_present():
    for v in (11, 13, 16, 18):
        assert {f"onnx-scatternd-{v}-example-1", f"onnx-scatternd-{v}-example-2"} <= set(BY_ID)
    for v in (9, 11):
        ex2 = BY_ID[f"onnx-scatter-{v}-example-2"]
        assert ex2.attrs == {"axis": 1} and ex2.op == f"Scatter-{v}"
    for n in range(1, 7):
        assert BY_ID[f"ov-scatter-elements-update-12-example-{n}"].label == f"Example {n}"
    assert BY_ID["ov-scatter-nd-update-3-layer-example"].shapes_only
    assert BY_ID["ov-scatter-elements-update-12-example-6"].shapes_only
    reductions = {ex.attrs.get("reduction") for ex in se.examples_for("ScatterNDUpdate-15")}
    assert {"none", "sum", "sub", "prod", "min", "max"} <= reductions
    node = {ex.attrs.get("reduction") for ex in EXAMPLES if ex.source.kind == "node-tests"}
    assert {"add", "mul", "max", "min"} <= node


def _each_example(check) -> None:
    for ex in EXAMPLES:
        try:
            check(ex)
        except AssertionError as e:
            raise AssertionError(f"{ex.id}: {e}") from e


@pytest.mark.slow
def test_every_example_loads_with_its_dtypes():
    """The loader's contract, over every example in one test (metadata: no per-example test ids for it)."""
    _each_example(_loads_with_its_dtypes)


def _loads_with_its_dtypes(ex):
    assert ex.op in sc.OPERATORS and ex.title and ex.label
    assert set(ex.attrs) <= set(sc.OPERATORS[ex.op].attribute_names)
    for role in ("data", "indices", "updates"):
        arr = getattr(ex, role)
        if arr is None:  # an input the version lacks or leaves optional, recorded as null
            assert role == "indices" and sc.family_of(sc.OPERATORS[ex.op]).indices != "required"
            assert ex.dtypes[role] is None and role not in ex.shapes, role
            continue
        assert isinstance(arr, np.ndarray)
        assert arr.dtype == np.dtype(ex.dtypes[role]), role
        assert arr.shape == tuple(ex.shapes[role]), role
        assert not arr.flags.writeable, role
    assert all(a is b for a, b in zip(ex.inputs, (ex.data, ex.indices, ex.updates)))
    if ex.expected is not None:
        assert ex.expected.dtype == ex.data.dtype and ex.expected.shape == ex.data.shape
        assert not ex.expected.flags.writeable
    if sc.OPERATORS[ex.op].family == "nd":
        assert ex.indices.dtype == np.int64 or sc.OPERATORS[ex.op].framework == "OpenVINO"


def test_every_example_names_its_source():
    _each_example(_names_its_source)


def _names_its_source(ex):
    src = ex.source
    assert src.label == ex.label and src.file.endswith(".json")
    if ex.ours:
        assert src.kind == "teaching" and src.page_title == se.TEACHING_SOURCE and ex.id.startswith("teach-")
        assert ex.notes  # the worked answer, in our words
    else:
        assert src.url.startswith("https://") and src.page_title
        assert not ex.id.startswith("teach-")
    if src.kind == "spec-page":
        assert src.url == sc.OPERATORS[ex.op].url  # the same page the registry links to
    if src.kind == "node-tests":
        assert src.url.startswith("https://github.com/onnx/onnx/blob/") and ex.id.startswith("onnx-node-")


def test_spec_page_files_are_named_after_their_page():
    for ex in EXAMPLES:
        if ex.source.kind != "spec-page":
            continue
        spec = sc.OPERATORS[ex.op]
        if spec.framework == "ONNX":
            assert ex.source.file == f"onnx__{ex.op}.json"
        else:
            assert spec.url.endswith("/" + ex.source.file.replace(".json", ".html"))


def test_load_all_returns_the_cached_objects():
    again = se.load_all()
    assert again is not EXAMPLES and all(a is b for a, b in zip(again, EXAMPLES))
    assert se.by_id("onnx-scatternd-16-example-1") is BY_ID["onnx-scatternd-16-example-1"]


def test_lookups_fail_clearly():
    with pytest.raises(LookupError, match="no-such-example"):
        se.by_id("no-such-example")
    with pytest.raises(LookupError, match="ScatterND-99"):
        se.examples_for("ScatterND-99")
    with pytest.raises(LookupError, match="bogus"):
        se.errata_for("bogus")
    with pytest.raises(LookupError, match="nope"):
        se.erratum("nope")


def test_examples_are_immutable():
    ex = BY_ID["ov-scatter-elements-update-12-example-1"]
    attrs = ex.attrs
    attrs["reduction"] = "prod"
    assert ex.attrs["reduction"] == "sum"
    with pytest.raises(ValueError):
        ex.data[0] = 99
    with pytest.raises(AttributeError):
        ex.op = "ScatterND-16"


def test_float32_values_are_compared_in_float32():
    # 2.0 + 1.1 + 2.1 in float32 is not 5.2 in float64, but it is float32(5.2): no erratum needed
    ex = BY_ID["onnx-node-scatter-elements-with-duplicate-indices"]
    assert ex.expected.dtype == np.float32 and ex.expected[0, 1] == np.float32(5.2)
    assert run(ex)[0, 1] == np.float32(5.2) and ex.errata == ()


# ---------------------------------------------------------------- printed outputs vs scatter_core


@pytest.mark.parametrize("ex", PRINTED, ids=ids(PRINTED))
def test_printed_output_is_reproduced_or_explained(ex):
    got = run(ex)
    output_errata = [er for er in se.errata_for(ex.id) if er.kind == "example-output"]
    if got.dtype == ex.expected.dtype and np.array_equal(got, ex.expected):
        assert output_errata == [], "an output erratum for an example that reproduces"
        return
    assert len(output_errata) == 1, f"{ex.id}: core gives {got.tolist()}, printed {ex.expected.tolist()}"
    er = output_errata[0]
    assert er.example_id == ex.id and ex.op in er.ops
    assert np.array_equal(er.printed, ex.expected)
    assert er.spec_rules_give.dtype == got.dtype and np.array_equal(er.spec_rules_give, got)


def test_the_known_wrong_outputs_are_the_only_mismatches():
    wrong = sorted(ex.id for ex in PRINTED if not np.array_equal(run(ex), ex.expected))
    assert wrong == sorted(er.example_id for er in ERRATA if er.kind == "example-output")
    assert len(wrong) == 7


@pytest.mark.parametrize("ex", [e for e in EXAMPLES if e.ours], ids=ids([e for e in EXAMPLES if e.ours]))
def test_teaching_cases_print_their_answer(ex):
    # our own cases carry a hand-worked expected output; the core must agree with it
    assert ex.expected is not None
    np.testing.assert_array_equal(run(ex), ex.expected, strict=True)


def test_teaching_cases_show_what_they_claim():
    last = BY_ID["teach-duplicates-none"]
    first = BY_ID["teach-duplicates-none-first-wins"]
    assert last.indices.tolist() == first.indices[::-1].tolist()  # the same writes, reversed
    assert last.updates.tolist() == first.updates[::-1].tolist()
    assert run(last)[0] != run(first)[0]
    kinds = {f.kind for f in sc.trace(sc.case(last.op, last.data, last.indices, last.updates, **last.attrs)).findings}
    assert "duplicate-index" in kinds
    a, b = BY_ID["teach-float-sum-order"], BY_ID["teach-float-sum-order-swapped"]
    assert sorted(a.updates.tolist()) == sorted(b.updates.tolist()) and run(a)[0] != run(b)[0]
    mean = BY_ID["teach-mean-negative-int"]
    assert (mean.updates < 0).any() and mean.attrs["reduction"] == "mean"
    assert run(mean).tolist() != np.trunc(  # flooring differs from truncation here
        (mean.data + np.bincount(mean.indices, mean.updates, 4)) / (1 + np.bincount(mean.indices, None, 4))
    ).astype(int).tolist()
    for red in ("min", "max", "prod"):
        ex = BY_ID[f"teach-no-init-{red}"]
        assert ex.attrs == {"axis": 0, "reduction": red, "use_init_val": False}
        with_init = sc.scatter(ex.op, ex.data, ex.indices, ex.updates, **{**ex.attrs, "use_init_val": True})
        assert not np.array_equal(run(ex), with_init)
    k2 = BY_ID["teach-rank3-k2"]
    assert k2.data.ndim == 3 and k2.indices.shape[-1] == 2


# ---------------------------------------------------------------- generated (shapes-only) examples


def test_shapes_only_examples_say_their_values_are_generated():
    assert len(GENERATED) == 5
    for ex in GENERATED:
        assert ex.expected is None and ex.is_generated and isinstance(ex.seed, int)
        assert "generated" in ex.generation.lower() and str(ex.seed) in ex.generation
        assert "generated" in ex.notes
    assert all(ex.generation is None and not ex.is_generated for ex in EXAMPLES if not ex.shapes_only)


def test_generated_shapes_are_the_pages_shapes():
    seu = BY_ID["ov-scatter-elements-update-12-example-6"]
    assert dict(seu.shapes) == {"data": (1000, 256, 7, 7), "indices": (125, 20, 7, 6), "updates": (125, 20, 7, 6)}
    assert seu.attrs == {"axis": 0} and seu.dtypes["data"] == "float32"
    nd = BY_ID["ov-scatter-nd-update-3-layer-example"]
    assert dict(nd.shapes) == {"data": (1000, 256, 10, 15), "indices": (25, 125, 3), "updates": (25, 125, 15)}


@pytest.mark.slow
@pytest.mark.parametrize("ex", GENERATED, ids=ids(GENERATED))
def test_generated_arrays_are_deterministic(ex):
    for role in ("data", "indices", "updates"):
        fresh = gen.build(ex._generate, role, ex.shapes, ex.dtypes)  # bypasses the cache
        cached = getattr(ex, role)
        assert fresh.dtype == cached.dtype and fresh.shape == cached.shape and fresh.strides == cached.strides
        assert digest(fresh) == digest(cached), role  # digest reads the bytes (of a broadcast view's block)
        assert not fresh.flags.writeable
        assert digest(cached) == GENERATED_DIGESTS[ex.id][role], role


@pytest.mark.parametrize("ex", GENERATED, ids=ids(GENERATED))
def test_generated_indices_are_valid_and_as_described(ex):
    spec = sc.OPERATORS[ex.op]
    idx = ex.indices.astype(np.int64)
    if spec.index_rule.negative == "forbidden":
        assert idx.min() >= 0
    recipe = gen.recipe_of(ex._generate, "indices")
    if recipe.get("negative"):
        assert idx.min() < 0
    data_shape = ex.shapes["data"]
    if spec.family == "nd":
        k = idx.shape[-1]
        rows = (idx + (idx < 0) * np.array(data_shape[:k])).reshape(-1, k)
        assert ((rows >= 0) & (rows < np.array(data_shape[:k]))).all()
        assert len(np.unique(rows, axis=0)) == len(rows)  # distinct tuples: no order dependence
    else:
        axis = ex.attrs["axis"]
        size = data_shape[axis]
        norm = idx + (idx < 0) * size
        assert ((norm >= 0) & (norm < size)).all()
        if recipe["recipe"] == "elements-distinct":
            moved = np.moveaxis(norm, axis, 0).reshape(norm.shape[axis], -1)
            assert all(len(set(col)) == len(col) for col in moved.T)


@pytest.mark.parametrize("ex", GENERATED, ids=ids(GENERATED))
def test_generated_examples_run(ex):
    too_big = max(getattr(ex, role).size for role in ("data", "indices", "updates")) > MAX_ELEMENTS
    if too_big:  # ScatterUpdate-3 Example 1: updates has 375 million elements
        with pytest.raises(sc.ScatterError) as err:
            run(ex)
        assert err.value.rule == "size"
        assert "larger than Scatter Explorer's core accepts" in ex.notes
        return
    out = run(ex)
    assert out.shape == ex.data.shape and out.dtype == ex.data.dtype
    written = out != ex.data
    assert written.any() and (out[written] >= 1).all()  # updates are in [1, 2), data in [0, 1)


def test_generated_cache_is_bounded_and_shared_with_callers():
    cache = gen.GeneratedCache(limit=1)
    a = cache.get("a", lambda: np.zeros(10))
    b = cache.get("b", lambda: np.ones(10))
    assert list(cache._strong) == ["b"]  # over the limit: only the newest stays strongly held
    assert cache.get("a", lambda: np.full(10, 7.0)) is a  # but a caller still holds a: reused
    del a, b


# ---------------------------------------------------------------- errata


def test_errata_ids_are_unique_and_cover_semantics_md():
    assert len({er.id for er in ERRATA}) == len(ERRATA)
    assert [i for i in SEMANTICS_ERRATA if i not in {er.id for er in ERRATA}] == []


@pytest.mark.parametrize("er", ERRATA, ids=[er.id for er in ERRATA])
def test_erratum_is_complete(er):
    assert er.kind in ("example-output", "prose", "formula", "code")
    for name in ("id", "page_url", "where", "says", "should_say", "runtimes", "explanation"):
        value = getattr(er, name)
        assert isinstance(value, str) and value.strip(), name
    assert er.page_url.startswith("https://")
    assert "\n" not in er.explanation and len(er.explanation) < 240  # one line
    assert er.ops and all(op in sc.OPERATORS for op in er.ops)
    for eid in er.example_ids:
        assert eid in BY_ID and er.id in BY_ID[eid].errata
    if er.kind == "example-output":
        ex = BY_ID[er.example_id]
        assert ex.expected is not None and ex.op in er.ops
        assert er.printed is ex.expected and er.spec_rules_give.dtype == ex.expected.dtype
        assert not np.array_equal(er.printed, er.spec_rules_give)
        for name, out in er.runtime_outputs.items():
            assert re.search(r"\d+\.\d+", name), name  # a runtime name with its version
            assert out.shape == ex.expected.shape
    else:
        assert er.example_id is None and er.printed is None and er.spec_rules_give is None


def test_errata_for_op_and_example():
    nd15 = {er.id for er in se.errata_for("ScatterNDUpdate-15")}
    assert {"ov-scatter-nd-update-15-example-1-output", "ov-scatter-nd-update-15-numpy-snippet"} <= nd15
    assert all("ScatterNDUpdate-15" in er.ops for er in se.errata_for("ScatterNDUpdate-15"))
    ex = BY_ID["ov-scatter-nd-update-15-xml-example-4"]
    assert [er.id for er in se.errata_for(ex.id)] == list(ex.errata)
    assert "ov-scatter-nd-update-15-xml-indices-shape" in ex.errata
    assert ex.indices.shape == (5, 1)  # stored as five 1-tuples, see that erratum
    assert se.erratum("onnx-scatternd-mul-wording").kind == "prose"


def test_runtime_outputs_of_output_errata_agree_with_the_core():
    # what docs/semantics.md and our own runs record for the runtimes: the spec's own rules, not the print
    for er in ERRATA:
        for name, out in er.runtime_outputs.items():
            assert np.array_equal(out, er.spec_rules_give), (er.id, name)


# ---------------------------------------------------------------- loading: speed, isolation, validation


def test_load_is_fast_lazy_and_imports_no_runtime():
    code = textwrap.dedent("""
        import json, sys, time
        import numpy, scatter_core
        t = time.perf_counter()
        import spec_examples
        from spec_examples import generate
        examples = spec_examples.load_all()
        errata = spec_examples.load_errata()
        took = time.perf_counter() - t
        print(json.dumps({"took": took, "n": len(examples), "generated": len(generate.CACHE._strong),
                          "runtimes": [m for m in ("onnx", "onnxruntime", "openvino") if m in sys.modules]}))
    """)
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    out = json.loads(res.stdout)
    assert out["n"] == len(PINNED_IDS)
    assert out["generated"] == 0  # no large array built by loading
    assert out["runtimes"] == []
    assert out["took"] < 1.0, out


def _copy_data(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(path, fn):
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc))


def test_a_copy_of_the_data_loads(tmp_path):
    cat = Catalogue(_copy_data(tmp_path))
    assert list(cat.examples) == PINNED_IDS and len(cat.errata) == len(ERRATA)


@pytest.mark.parametrize("case, message", [
    ("lossy-int", "not all integers"),
    ("unknown-op", "not in scatter_core.OPERATORS"),
    ("unknown-attr", "is not an attribute of"),
    ("missing-axis", "needs axis"),
    ("duplicate-id", "duplicate example id"),
    ("ragged", "ragged"),
    ("bad-recipe", "unknown recipe"),
    ("output-erratum-without-rules", "spec_rules_give"),
    ("erratum-unknown-example", "not a known example"),
    ("unmarked-teaching", "teaching cases"),
])
def test_malformed_data_is_refused(tmp_path, case, message):
    data = _copy_data(tmp_path)
    nd16, seu12, errata = data / "onnx__ScatterND-16.json", data / "scatter-elements-update-12.json", \
        data / "errata.json"

    def first(doc):
        return doc["examples"][0]

    edits = {
        "lossy-int": (nd16, lambda d: first(d).update(data=[1.5, 2, 3, 4, 5, 6, 7, 8])),
        "unknown-op": (nd16, lambda d: first(d).update(op="ScatterND-17")),
        "unknown-attr": (nd16, lambda d: first(d).update(attrs={"axis": 0})),
        "missing-axis": (seu12, lambda d: first(d)["attrs"].pop("axis")),
        "duplicate-id": (nd16, lambda d: d["examples"][1].update(id=first(d)["id"])),
        "ragged": (nd16, lambda d: first(d).update(indices=[[4], [3, 1]])),
        "bad-recipe": (seu12, lambda d: d["examples"][5]["generate"].update(data="normal")),
        "output-erratum-without-rules": (errata, lambda d: d["errata"][0].pop("spec_rules_give")),
        "erratum-unknown-example": (errata, lambda d: d["errata"][0].update(example_id="nope")),
        "unmarked-teaching": (data / "teaching.json", lambda d: first(d).pop("ours")),
    }
    path, fn = edits[case]
    _edit(path, fn)
    with pytest.raises(CatalogueError, match=message):
        Catalogue(data)


def test_data_files_are_one_per_page_and_hold_no_spec_prose():
    names = sorted(p.name for p in DATA_DIR.glob("*.json"))
    assert "errata.json" in names and "teaching.json" in names
    for name in names:
        text = (DATA_DIR / name).read_text()
        # the spec's own sentences stay on the spec pages; we link to them
        assert "Detailed description**" not in text and "**Required.**" not in text
        assert "The order of iteration in the above loop is not specified" not in text
