"""The one table of runtime facts (scatter_core.facts): sources, the versions they were verified on, and the
facts upstream issues and spec pages report, each checked on the verified runtimes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import runtime_check as rc
import scatter_core as sc
from tests.support.skipping import require_or_skip

ROOT = Path(__file__).resolve().parents[2]
PINNED = ("1.31.1", "2026.4.1", "1.23.2")
TEST_FUNCTIONS = {f"{p.stem}::{m.group(1)}" for p in (ROOT / "tests").rglob("test_*.py")
                  for m in re.finditer(r"^def (test_\w+)", p.read_text(encoding="utf-8"), re.M)}


def test_every_fact_has_a_source_a_known_status_and_known_runtimes():
    assert len({f.id for f in sc.FACTS}) == len(sc.FACTS)
    for f in sc.FACTS:
        assert f.source.kind in ("spec", "issue", "test") and f.source.where, f.id
        assert f.status in ("holds", "not reproduced") and f.text and f.topic, f.id
        assert f.runtimes and set(f.runtimes) <= set(sc.RUNTIME_NAMES), f.id
        # this project's test that observed (or checked) it exists; an issue or a spec page is a link
        assert f.source.observed_by in TEST_FUNCTIONS, (f.id, f.source.observed_by)
        if f.source.kind != "test":
            assert f.source.where.startswith("https://"), f.id
        words = f.source_words()
        assert f.source.where in words and "verified on " in words, f.id
        assert all(f"{d} {sc.verified_versions()[d]}" in words for d in f.distributions), (f.id, words)
        if f.source.kind == "issue" and f.status == "not reproduced" and f.holds_in:
            assert "{onnx}" in f.holds_in and "holds in onnx 1.2" in f.holds_in, f.id


def test_the_source_check_knows_a_test_that_does_not_exist():
    assert "test_differential::test_bool_reductions" in TEST_FUNCTIONS
    assert "test_differential::test_no_such_observation" not in TEST_FUNCTIONS


def test_every_documented_divergence_reads_its_fact():
    for d in rc.DOCUMENTED:
        f = sc.FACT_BY_ID[d.fact]
        assert d.text == f.sentence() and d.source == f.source_words() and d.topic == f.topic, d.label


def test_every_divergence_is_keyed_by_facts_of_the_table():
    for d in rc.KNOWN_DIVERGENCES:
        ids = (d.fact,) if d.documented else d.observed_facts
        assert ids and all(i in sc.FACT_BY_ID for i in ids), d.label
        assert all(sc.FACT_BY_ID[i].status == "holds" for i in ids), d.label
        assert d.topic == sc.FACT_BY_ID[ids[0]].topic, d.label
        if not d.documented:
            assert d.text_for(sc.OPERATORS_LIST[0]).startswith("Not in docs/semantics.md: "), d.label


def test_operator_records_read_their_notes_from_the_table():
    for spec in sc.OPERATORS_LIST:
        from_table = [f.id for f in sc.facts_for(spec.name) if f.status == "holds"]
        assert [n.fact for n in spec.runtime_notes] == from_table, spec.name
    with_notes = {f.id for s in sc.OPERATORS_LIST for f in sc.facts_for(s.name)}
    divergence_facts = {d.fact for d in rc.DOCUMENTED} | {i for d in rc.KNOWN_DIVERGENCES for i in d.observed_facts}
    trackers = {f.id for f in sc.FACTS if f.source.kind in ("issue", "spec")}
    from scatter_models.worker import LOOP_CONDITION_FACT  # the capture reads it (and says it) when it applies

    assert with_notes | divergence_facts | trackers | {LOOP_CONDITION_FACT} == set(sc.FACT_BY_ID)  # none unread


def test_versions_come_from_the_verified_versions():
    pins = {"onnx": "9.9.9", "onnxruntime": "8.8.8", "openvino": "7.7.7"}
    f = next(f for f in sc.FACTS if "openvino-cpu" in f.runtimes and f.label.count("{") == 1)
    assert "7.7.7" in f.runtimes_label(pins) and "{" not in f.runtimes_label(pins)
    assert sc.resolve_versions("onnxruntime {onnxruntime}", {}) == "onnxruntime (unknown)"
    note = sc.OPERATORS["ScatterUpdate-3"].notes_on("int64")[0]
    assert sc.verified_versions()["openvino"] in note.runtimes


def test_the_verified_versions_the_constraints_and_the_runtimes_extra_agree():
    """constraints/verified.txt (what the test suite installs) pins exactly the versions the facts were verified
    on, and the runtimes extra starts at them (>=, so a newer runtime is never downgraded)."""
    constraints = (ROOT / "constraints" / "verified.txt").read_text(encoding="utf-8")
    assert sc.pins_in_text(constraints) == sc.verified_versions() == dict(sc.facts.VERIFIED_ON)
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]["runtimes"]
    assert sc.pins_in_text("\n".join(extra), ">=") == sc.verified_versions()
    assert not sc.pins_in_text("\n".join(extra)), "the runtimes extra pins an exact version"
    script = (ROOT / "scripts" / "install-test-deps.sh").read_text(encoding="utf-8")
    assert "-c constraints/verified.txt" in script


CODE = sorted(str(p.relative_to(ROOT)) for pkg in ("scatter_core", "runtime_check") for p in (ROOT / pkg).rglob("*.py"))


def hand_written_versions(text: str) -> list[str]:
    """Runtime versions written into code: a verified version anywhere but in the one line that states them
    (``VERIFIED_ON``), or "<runtime> x.y.z" outside an issue fact's holds_in (which may name the older versions a
    report holds in)."""
    text = re.sub(r"^VERIFIED_ON: Mapping\[str, str\] = \{[^}\n]*\}$", "", text, flags=re.M)
    found = [v for v in PINNED if v in text]
    text = re.sub(r'holds_in="(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|\\.)*")*', "", text)
    return found + [m.group(0) for m in re.finditer(r"\b(?:onnxruntime|onnx|OpenVINO|openvino) \d+\.\d+\.\d+", text)]


def test_the_version_guard_finds_versions():
    assert hand_written_versions('ORT = "onnxruntime 1.31.1"') == ["1.31.1", "onnxruntime 1.31.1"]
    assert hand_written_versions('x = "OpenVINO 2025.1.0 CPU"') == ["OpenVINO 2025.1.0"]
    assert hand_written_versions('holds_in="holds in onnx 1.21.0"') == []
    assert hand_written_versions('label = "onnx {onnx}"') == []
    assert hand_written_versions('VERIFIED_ON: Mapping[str, str] = {"onnx": "1.23.2"}') == []
    assert hand_written_versions('VERIFIED = {"onnx": "1.23.2"}') == ["1.23.2"]


@pytest.mark.parametrize("path", CODE)
def test_no_runtime_version_is_written_by_hand(path):
    found = hand_written_versions((ROOT / path).read_text(encoding="utf-8"))
    assert not found, f"{path} hard-codes {found}: take versions from scatter_core.verified_versions()"


def test_the_unverified_webnn_report_is_not_a_fact():
    assert "webnn-scatternd-returns-rank" not in sc.FACT_BY_ID
    assert "could not be verified" in sc.facts.UNVERIFIED["webnn-scatternd-returns-rank"]


# -- upstream issues and spec pages, checked on the verified runtimes ------------------------------------------------------
def _reference(op, data, indices, updates, **attrs):
    result = rc.run("onnx.reference", op, data, indices, updates, **attrs)
    assert result.error is None, result.error
    return result.output


@pytest.mark.runtimes
def test_onnx_reference_scatternd_max_min_on_single_elements():
    require_or_skip("onnx.reference")
    f = sc.FACT_BY_ID["onnx-ref-nd-maxmin-tuple"]
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    indices = np.array([[0, 1], [1, 2], [0, 1]], np.int64)
    updates = np.array([9, -1, 2], np.float32)
    for reduction in ("max", "min"):
        want = sc.scatter("ScatterND-18", data, indices, updates, reduction=reduction)
        assert np.array_equal(_reference("ScatterND-18", data, indices, updates, reduction=reduction), want)
    assert f.status == "not reproduced"


@pytest.mark.runtimes
def test_onnx_reference_scatterelements_multiplies():
    require_or_skip("onnx.reference")
    data = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    indices = np.array([[1, 0, 1], [1, 0, 1]], np.int64)
    updates = np.array([[2, 3, 4], [5, 6, 7]], np.float32)
    got = _reference("ScatterElements-18", data, indices, updates, axis=1, reduction="mul")
    assert got.tolist() == [[3.0, 16.0, 3.0], [24.0, 175.0, 6.0]]  # 2*4 on (0, 1) would be none's 4
    assert sc.FACT_BY_ID["onnx-ref-elements-mul-missing"].status == "not reproduced"


@pytest.mark.runtimes
@pytest.mark.parametrize("shape", [(2, 2, 2, 2, 2), (2, 1, 2, 1, 2, 2)])
def test_onnx_reference_scatterelements_above_rank_4(shape):
    require_or_skip("onnx.reference")
    rng = np.random.default_rng(len(shape))
    data = rng.integers(0, 9, shape).astype(np.float32)
    indices = rng.integers(0, 2, shape).astype(np.int64)
    updates = rng.integers(1, 9, shape).astype(np.float32)
    for reduction in ("none", "add", "mul", "max", "min"):
        want = sc.scatter("ScatterElements-18", data, indices, updates, axis=-1, reduction=reduction)
        assert np.array_equal(_reference("ScatterElements-18", data, indices, updates, axis=-1,
                                         reduction=reduction), want), reduction
    assert sc.FACT_BY_ID["onnx-ref-elements-rank-above-4"].status == "not reproduced"


def _openvino_both(op, data, indices, updates, **attrs):
    out = []
    for runtime in ("openvino-cpu", "openvino-reference"):
        result = rc.run(runtime, op, data, indices, updates, **attrs)
        assert result.error is None, (runtime, result.error)
        out.append(result.output.tolist())
    return out


@pytest.mark.runtimes
def test_scatter_nd_update_15_example_1_hides_a_duplicate():
    require_or_skip("openvino-cpu", "openvino-reference")
    indices = np.array([[4], [3], [1], [7], [-2], [-4]], np.int32)
    assert sorted(int(i) % 8 for i in indices[:, 0]).count(4) == 2  # 4 and -4 name one element
    cpu, ref = _openvino_both("ScatterNDUpdate-15", np.arange(1, 9, dtype=np.int32), indices,
                              np.array([9, 10, 11, 12, 13, 14], np.int32), reduction="none")
    # the page prints 4 at position 4; the reference loop keeps the last write (14). The CPU plugin writes
    # duplicates in parallel, in no fixed order (the documented duplicates-parallel-order fact): either write
    assert ref == [1, 11, 3, 10, 14, 6, 13, 12]
    assert cpu[:4] + cpu[5:] == ref[:4] + ref[5:] and cpu[4] in (9, 14)
    assert sc.FACT_BY_ID["ov-nd-update-15-example-1-duplicate"].status == "holds"


@pytest.mark.runtimes
def test_scatter_nd_update_15_prod_example():
    require_or_skip("openvino-cpu", "openvino-reference")
    cpu, ref = _openvino_both("ScatterNDUpdate-15", np.array([1, 2, 3, 4], np.float32),
                              np.array([[0], [2], [-3], [-3], [0]], np.int32),
                              np.array([10, 20, 30, 40, 50], np.float32), reduction="prod")
    assert cpu == ref == [500, 2400, 60, 4]
    assert "[500, 2400, 60, 4]" in sc.FACT_BY_ID["ov-nd-update-15-prod-example"].text


def test_the_runtimes_tab_lists_issue_and_spec_reports_with_the_verified_versions():
    from scatter_ui.figures.specdiff import runtime_rows, tracker_rows

    rows = tracker_rows("elements")
    assert {r["on the verified runtimes"] for r in rows} == {"not reproduced"}
    assert all("{" not in r["versions"] + r["runtime (version)"] for r in rows)
    assert any(sc.verified_versions()["onnx"] in r["versions"] for r in rows)
    assert all(r["source"].startswith("upstream issue https://github.com/onnx/onnx/") for r in rows)
    nd = {r["report"]: r for r in tracker_rows("nd")}
    assert any("[500, 2400, 60, 4]" in text and r["on the verified runtimes"] == "holds" for text, r in nd.items())
    assert any(r["source"].startswith("spec page https://docs.openvino.ai/") for r in nd.values())
    sources = [r["source"] for r in runtime_rows(sc.OPERATORS["ScatterElementsUpdate-12"])]
    assert ("this project's test test_differential::test_integer_mean_cpu_truncates_reference_floors; verified on "
            f"openvino {sc.verified_versions()['openvino']}") in sources
    assert any(s.startswith("NEW: this project's test ") for s in sources)


def test_a_fact_that_names_dtypes_is_shown_only_on_those_dtypes():
    """The int8/uint8 mean fact is not appended to an int32 mean finding; it is to an int8 one."""
    spec = sc.OPERATORS["ScatterElementsUpdate-12"]
    (i8,) = [n for n in spec.notes_on("integer-mean") if n.fact == "ov-ref-mean-i8"]
    assert i8.dtypes == ("int8", "uint8")
    assert i8 not in spec.notes_on("integer-mean", np.dtype("int32")) and i8 in spec.notes_on("integer-mean", np.int8)

    def finding(dtype):
        data = np.zeros(3, dtype=dtype)
        trace = sc.case("ScatterElementsUpdate-12", data, np.array([0, 0]), np.array([-1, -1], dtype=dtype),
                        axis=0, reduction="mean").trace()
        (f,) = [f for f in trace.findings if f.details.get("topic") == "integer-mean"]
        return f.message

    assert "int8/uint8" not in finding("int32") and "truncates toward zero" in finding("int32")
    assert "int8/uint8" in finding("int8")


def test_a_facts_dtypes_agree_with_its_divergences_condition():
    """Where a fact names dtypes, runtime_check's divergence for it applies on those dtypes and no other."""
    for d in rc.KNOWN_DIVERGENCES:
        fact = sc.FACT_BY_ID.get(d.fact) if d.fact else None
        if fact is None or not fact.dtypes:
            continue
        spec = sc.OPERATORS[fact.operators[0]]
        for dtype in ("int8", "uint8", "int16", "int32", "int64", "float32"):
            case = rc.RuntimeCase.of(d.runtimes[0], spec, np.zeros(3, dtype), np.array([0, 0]), np.ones(2, dtype),
                                     {"axis": 0, "reduction": "mean"})
            assert bool(d.applies(case)) == (dtype in fact.dtypes), (d.label, dtype)
