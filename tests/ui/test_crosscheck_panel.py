"""The live cross-check: every spec example on the real runtimes, and the panel on the pages.

* every spec example (up to 1e6 elements per tensor) agrees bit for bit with
  scatter_core on every runtime that can run it, except the documented
  divergences listed in ``EXPECTED_DIVERGENCES``, each asserted with the
  runtime's exact output;
* the panel runs on a button press, caches per case, shows versions, agreement,
  differing cells and known/new divergences;
* a forced runtime crash is a message; the page still renders;
* without the runtimes the panel says how to install them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import runtime_check as rc
from runtime_check import divergences
import spec_examples
import scatter_core as sc
from scatter_core import scatter
from scatter_ui.parts import crosscheck_panel as xp
from tests.support.apptest_helpers import app_on, open_expander, open_page, texts
from tests.support.skipping import require_or_skip

pytestmark = pytest.mark.slow  # every runtime run through the panel's AppTest pages: the full suite runs them, the fast loop does not

LIMIT = xp.MAX_CROSSCHECK_ELEMENTS
TITLE = xp.TITLE
SMALL = [e for e in spec_examples.load_all() if max(a.size for a in e.inputs if a is not None) <= LIMIT]
LARGE = [e for e in spec_examples.load_all() if max(a.size for a in e.inputs if a is not None) > LIMIT]

# (example id, runtime) -> (divergence label, the runtime's exact output)
EXPECTED_DIVERGENCES = {
    ("teach-mean-negative-int", "openvino-cpu"): ("integer-mean-truncation", [-1, -1, -1, 3]),
}
# OpenVINO's reference implementation has no SliceScatter kernel (observed, runtime_check.divergences)
EXPECTED_REFUSALS = {(e.id, "openvino-reference"): "reference-no-kernel"
                     for e in spec_examples.load_all() if e.op == "SliceScatter-15"}
# OpenVINO's ONNX frontend has no conversion rule for TensorScatter-24 (observed, scatter_core.FACTS)
EXPECTED_REFUSALS.update({(e.id, "openvino-onnx"): "frontend-no-conversion-rule"
                          for e in spec_examples.load_all() if e.op == "TensorScatter-24"})


# OpenVINO's CPU plugin splits ScatterND(none) and ScatterUpdate across threads: where a cell is written
# more than once, which write it keeps depends on the machine's threads (documented, docs/semantics.md). On a
# 2-core machine the last write usually wins; on a CI machine with more cores an earlier one did.
ORDER_DIVERGENCE = "duplicates-parallel-order"
# The OpenVINO examples (nd or update family, reduction none) with a cell written twice with different values:
POSSIBLE_ORDER_DIVERGENCES = {"ov-scatter-nd-update-15-example-1", "ov-scatter-nd-update-15-xml-example-1"}



def _needed_runtimes():
    out = set()
    for e in SMALL:
        out.update(rc.runtimes_for(e.op) or rc.runtimes_for(rc.stand_in(e.op)))
    return sorted(out)


@pytest.fixture(autouse=True)
def _fresh_cache():
    xp.cached_run.clear()
    yield
    xp.cached_run.clear()


# ------------------------------------------------------------------------------ every spec example
@pytest.mark.runtimes
def test_every_spec_example_agrees_with_scatter_core_except_documented_divergences():
    require_or_skip(*_needed_runtimes())
    assert len(SMALL) > 50 and all(e.op for e in LARGE)
    seen = {}
    ran = 0
    for ex in SMALL:
        attrs = dict(ex.attrs)
        core = scatter(ex.op, ex.data, ex.indices, ex.updates, **attrs)
        comparisons = rc.compare(ex.op, ex.data, ex.indices, ex.updates, guarded=False, **attrs)
        wanted = rc.runtimes_for(ex.op) or rc.runtimes_for(rc.stand_in(ex.op))
        assert [c.runtime for c in comparisons] == wanted, ex.id
        for c in comparisons:
            ran += 1
            if c.agree:
                assert c.runtime_output.dtype == core.dtype and np.array_equal(c.runtime_output, core), (ex.id, c)
                continue
            seen[(ex.id, c.runtime)] = c
    assert ran > 100
    for key in [k for k, c in seen.items() if c.divergence == ORDER_DIVERGENCE]:
        c = seen.pop(key)
        assert key[1] in ("openvino-cpu", "openvino-onnx") and key[0] in POSSIBLE_ORDER_DIVERGENCES, key
        assert c.outcome == "value" and c.known_divergence == ORDER_DIVERGENCE and not c.new
    assert set(seen) == set(EXPECTED_DIVERGENCES) | set(EXPECTED_REFUSALS), {
        k: (c.outcome, c.divergence, c.runtime_error) for k, c in seen.items()}
    assert len([k for k in EXPECTED_REFUSALS if k[1] == "openvino-onnx"]) >= 3
    for key, label in EXPECTED_REFUSALS.items():
        assert seen[key].outcome == "refused" and seen[key].divergence == label and seen[key].new
    for key, (label, output) in EXPECTED_DIVERGENCES.items():
        c = seen[key]
        assert c.outcome == "value" and c.known_divergence == label and not c.new
        assert c.runtime_output.tolist() == output
        assert c.n_cells == len(c.cells) and c.cells == ((0,), (2,))


@pytest.mark.runtimes
def test_documented_divergence_runs_the_same_in_a_guarded_subprocess():
    require_or_skip("openvino-cpu", "openvino-reference")
    ex = spec_examples.by_id("teach-mean-negative-int")
    result = xp.cached_run(ex.op, "t1", ex.data, ex.indices, ex.updates, xp.attr_items(ex.op, ex.attrs))
    rows = {r["runtime"]: r for r in result["rows"]}
    assert rows["openvino-reference"]["result"] == "agree (bit-identical)"
    cpu = rows["openvino-cpu"]
    assert cpu["result"] == "differ: other values" and cpu["version"] == rc.available()["openvino-cpu"]
    assert cpu["differing cells"] == ("2: output[0]: scatter_core -2, openvino-cpu -1; "
                                      "output[2]: scatter_core -2, openvino-cpu -1")
    assert "integer-mean-truncation" in cpu["explanation"] and "truncates toward zero" in cpu["explanation"]
    assert "test_differential::test_integer_mean_cpu_truncates_reference_floors; verified on openvino" in \
        cpu["explanation"]
    assert not cpu["new"]
    cells = result["cells"]
    assert [r["cell"] for r in cells] == ["output[0]", "output[1]", "output[2]", "output[3]"]
    assert [r["scatter_core"] for r in cells] == ["-2", "-1", "-2", "3"]
    assert [r["openvino-cpu"] for r in cells] == ["≠ -1", "-1", "≠ -1", "3"]
    assert [r["openvino-reference"] for r in cells] == ["-2", "-1", "-2", "3"]


# ------------------------------------------------------------------------------ the panel on a page
def _press(at: AppTest) -> AppTest:
    if not [b for b in at.button if b.label.startswith("Run on ")]:
        open_expander(at, TITLE)  # the panel is built only while open
    buttons = [b for b in at.button if b.label.startswith("Run on ")]
    assert len(buttons) == 1
    buttons[0].click().run()
    return at


@pytest.mark.runtimes
def test_panel_on_the_explorer_shows_agreement_and_versions():
    require_or_skip("onnxruntime", "onnx.reference")
    at = open_page("elements", op="ScatterElements-18", example="onnx-scatterelements-18-example-1")
    open_expander(at, TITLE)  # the panel is built only while open
    assert "Press the button" in texts(at)
    _press(at)
    assert not at.exception
    ok = [str(s.value) for s in at.success]
    versions = rc.available()
    wanted = [r for r in ("onnxruntime", "onnx.reference", "openvino-onnx") if versions[r]]
    for runtime in wanted:
        assert f"**{runtime} {versions[runtime]}**: agree (bit-identical)." in ok
    df = next(d.value for d in at.dataframe if "runtime" in d.value.columns)
    assert df["runtime"].tolist() == wanted
    cells = at.dataframe[-1].value
    assert list(cells.columns) == ["cell", "scatter_core"] + wanted
    assert len(cells) == 9 and not cells.map(lambda v: str(v).startswith("≠")).any().any()
    assert cells.set_index("cell").loc["output[0, 0]"].tolist() == ["2"] * (1 + len(wanted))
    assert cells.set_index("cell").loc["output[0, 1]"].tolist() == ["1.1"] * (1 + len(wanted))  # float32
    assert (df["result"] == "agree (bit-identical)").all() and not df["new"].any()


def test_the_button_names_exactly_the_runtimes_that_run_and_says_why_the_others_do_not(monkeypatch):
    installed = {r: "1.0" for r in rc.RUNTIMES}
    monkeypatch.setattr(rc, "available", lambda: installed)
    at = open_page("elements", op="ScatterElements-18", example="onnx-scatterelements-18-example-1")
    open_expander(at, TITLE)
    assert not at.exception
    assert [b.label for b in at.button if b.label.startswith("Run on ")] == [
        "Run on onnxruntime / onnx.reference / openvino-onnx"]
    lines = texts(at).splitlines()
    runs = [c for c in lines if c.startswith("Runs this case on ")]
    assert len(runs) == 1 and runs[0].startswith(
        "Runs this case on onnxruntime, onnx.reference, openvino-onnx (OpenVINO CPU (ONNX frontend)), each in its own")
    why = [c for c in lines if c.startswith("Not used: ")]
    assert len(why) == 1
    assert why[0].startswith("Not used: openvino-cpu, openvino-reference (they run OpenVINO models, and "
                             "ScatterElements-18 is an ONNX operator")
    assert "OpenVINO runs it as openvino-onnx (OpenVINO CPU (ONNX frontend)), which reads the ONNX model" in why[0]
    assert not why[0].startswith(("Not used: onnxruntime", "Not used: onnx.reference"))  # only the unused ones


def test_the_button_of_an_openvino_operator_leaves_the_onnx_runtimes_out(monkeypatch):
    installed = {r: "1.0" for r in rc.RUNTIMES}
    monkeypatch.setattr(rc, "available", lambda: installed)
    at = open_page("elements", op="ScatterElementsUpdate-12", example="teach-mean-negative-int")
    open_expander(at, TITLE)
    assert not at.exception
    assert [b.label for b in at.button if b.label.startswith("Run on ")] == [
        "Run on openvino-cpu / openvino-reference"]
    why = [c for c in texts(at).splitlines() if c.startswith("Not used: ")]
    assert len(why) == 1 and why[0].startswith("Not used: onnxruntime, onnx.reference, openvino-onnx (they run ONNX "
                                               "models, and ScatterElementsUpdate-12 is an OpenVINO operator")


@pytest.mark.runtimes
def test_panel_names_the_known_divergence_and_caches_the_case(monkeypatch):
    require_or_skip("openvino-cpu", "openvino-reference")
    calls = []
    real = rc.compare
    monkeypatch.setattr(rc, "compare", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    at = open_page("elements", op="ScatterElementsUpdate-12", example="teach-mean-negative-int")
    _press(at)
    warn = [str(w.value) for w in at.warning if "openvino-cpu" in str(w.value)]
    assert len(warn) == 1
    assert "differ: other values" in warn[0] and "output[0]: scatter_core -2, openvino-cpu -1" in warn[0]
    assert "known divergence `integer-mean-truncation`" in warn[0]
    assert "source: this project's test test_differential::test_integer_mean_cpu_truncates_reference_floors" in warn[0]
    assert "NEW" not in warn[0]
    at.run()  # a rerun (no press) shows the kept result without running the runtimes again
    assert any("openvino-cpu" in str(w.value) for w in at.warning)
    _press(at)
    assert calls == ["ScatterElementsUpdate-12"]
    # another case: the old result is not shown for it
    at.selectbox(key="elements:reduction").set_value("sum").run()
    assert "Press the button" in texts(at)


@pytest.mark.runtimes
def test_forced_runtime_crash_is_a_message_and_the_page_survives(monkeypatch):
    require_or_skip("onnxruntime", "onnx.reference", "openvino-onnx")
    monkeypatch.setenv("RUNTIME_CHECK_TEST_FAULT", "segfault")
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1")
    _press(at)
    assert not at.exception
    errors = [str(e.value) for e in at.error]
    crashed = [e for e in errors if "crashed (signal 11" in e]
    assert len(crashed) == 3, errors  # onnxruntime, onnx.reference and openvino-onnx, each in its own child
    assert all("differ: the runtime crashed or hung" in e and "NEW" in e for e in crashed)
    assert not [e for e in errors if "Something went wrong" in e]
    # the rest of the page is still there
    assert at.title[0].value == "ScatterND-18"
    assert any(e.label.startswith("About ScatterND-18") for e in at.expander)
    at.run()
    assert not at.exception


def test_without_the_runtimes_the_panel_says_how_to_install_them(monkeypatch):
    monkeypatch.setattr(rc, "available", lambda: {r: None for r in rc.RUNTIMES})
    at = open_page("update", op="ScatterUpdate-3")
    assert not at.exception
    open_expander(at, TITLE)
    info = [str(i.value) for i in at.info if "runtimes" in str(i.value)]
    assert len(info) == 1 and xp.INSTALL in info[0]
    assert not [b for b in at.button if b.label.startswith("Run on ")]


def test_large_cases_are_not_sent_to_the_runtimes():
    script = ("import numpy as np\nimport scatter_core as sc\nfrom scatter_ui.parts.crosscheck_panel import crosscheck_panel\n"
              f"crosscheck_panel(sc.case('ScatterElements-18', np.zeros({LIMIT + 1}, np.float32), np.zeros(1, np.int64), "
              "np.ones(1, np.float32), axis=0, reduction='none'), key='t')\n")
    at = open_expander(AppTest.from_string(script, default_timeout=60).run(), TITLE)
    assert not at.exception
    if not any(rc.available().values()):
        require_or_skip(*rc.RUNTIMES)  # skips on a laptop without the extra; fails under CI=true
    assert any(f"up to {LIMIT:,} elements" in str(i.value) for i in at.info)
    assert not at.button


@pytest.mark.runtimes
def test_scatter_11_is_checked_through_its_stand_in():
    require_or_skip("onnxruntime", "onnx.reference")
    script = ("import numpy as np\nimport scatter_core as sc\nfrom scatter_ui.parts.crosscheck_panel import crosscheck_panel\n"
              "crosscheck_panel(sc.case('Scatter-11', np.zeros((3, 3), np.float32), np.array([[1, 0, 2]]), "
              "np.ones((1, 3), np.float32), axis=0), key='t')\n")
    at = open_expander(AppTest.from_string(script, default_timeout=60).run(), TITLE)
    at.button[0].click().run()
    assert not at.exception
    df = next(d.value for d in at.dataframe if "ran" in d.value.columns)
    assert set(df["ran"]) == {"ScatterElements-11"} and (df["result"] == "agree (bit-identical)").all()
    assert any("ScatterElements-11, its runtime stand-in" in str(c.value) for c in at.caption)


def test_rows_flag_a_difference_no_runtime_fact_describes():
    c = rc.Comparison(runtime="openvino-cpu", version="9.9", op="ScatterNDUpdate-15", agree=False, outcome="value",
                      core_ok=True, runtime_ok=True, cells=((1,),), n_cells=1, core_values=(5,),
                      runtime_values=(6,), new=True)
    row = xp.rows_from([c])[0]
    assert row["new"] and row["explanation"] == "NEW: no runtime fact of this project describes this difference"
    assert row["differing cells"] == "1: output[1]: scatter_core 5, openvino-cpu 6"
    seen = rc.Comparison(runtime="openvino-cpu", version="9.9", op="ScatterNDUpdate-15", agree=False,
                         outcome="value", core_ok=True, runtime_ok=True, divergence="f64-narrowing", new=True)
    seen_row = xp.rows_from([seen])[0]
    assert seen_row["explanation"].startswith("explained by runtime fact `f64-narrowing`, observed by this project's "
                                              "tests, not (yet) in docs/semantics.md")
    assert not seen_row["new"]  # a fact of the table explains it: not NEW
    many = rc.Comparison(runtime="onnxruntime", version="1", op="ScatterND-18", agree=False, outcome="value",
                         core_ok=True, runtime_ok=True, cells=tuple((i,) for i in range(40)), n_cells=500,
                         core_values=tuple(range(40)), runtime_values=tuple(range(40)), new=True)
    text = xp.rows_from([many])[0]["differing cells"]
    assert text.count("output[") == xp.MAX_SHOWN_CELLS and text.endswith(f"… and {500 - xp.MAX_SHOWN_CELLS} more")


@pytest.mark.runtimes
def test_panel_on_the_check_page_runs_the_typed_case():
    require_or_skip("onnxruntime", "onnx.reference")
    at = app_on("app_pages/check_expected.py")
    at.run()
    assert not at.exception
    assert TITLE in [e.label for e in at.expander]
    _press(at)
    assert not at.exception
    op = at.selectbox(key="check:op").value
    versions = rc.available()
    ok = [str(s.value) for s in at.success]
    for runtime in rc.runtimes_for(op):
        assert f"**{runtime} {versions[runtime]}**: agree (bit-identical)." in ok


@pytest.mark.runtimes
def test_real_openvino_crash_on_a_refused_case_is_a_known_divergence_message():
    """scatter_core refuses an index below -s; the OpenVINO CPU plugin segfaults on it (docs/semantics.md)."""
    require_or_skip("openvino-cpu", "openvino-reference")
    at = open_page("elements", op="ScatterElementsUpdate-12", example="__custom__", data="[1, 2, 3, 4]",
                   indices="[-1000000000]", updates="[9]", axis=0)
    assert any("out of range" in str(e.value) for e in at.error)  # the page's own message
    _press(at)
    assert not at.exception
    crash = [str(e.value) for e in at.error if "openvino-cpu" in str(e.value)]
    assert len(crash) == 1
    if "differ: the runtime accepts" in crash[0]:  # rare: the stray write missed unmapped memory
        assert "explained by runtime fact `index-below-range-silent`" in crash[0]
    else:  # what docs/semantics.md describes, and what -1e9 gives in practice
        assert "differ: the runtime crashed or hung" in crash[0] and "crashed (signal" in crash[0]
        assert "known divergence `index-below-range-crash`" in crash[0] and "NEW" not in crash[0]
    assert any(str(s.value).startswith("**openvino-reference") and "agree (both refuse)" in str(s.value)
               for s in at.success)
    assert any("scatter_core refuses: indices[0] = -1000000000 is out of range" in str(c.value) for c in at.caption)
    at.run()
    assert not at.exception and at.title[0].value == "ScatterElementsUpdate-12"


def test_unparsable_text_draws_no_panel():
    at = open_page("elements", op="ScatterElementsUpdate-12", example="__custom__", data="[1, 2,", indices="[0]",
                   updates="[9]", axis=0)
    assert not at.exception and at.error
    assert TITLE not in [e.label for e in at.expander]


def test_cell_values_are_written_in_their_own_dtype():
    assert [xp.fmt(np.float32(1.1)), xp.fmt(1.100000023841858, np.float32), xp.fmt(np.float64(0.1) + 1e-10)] == [
        "1.1", "1.1", "0.1000000001"]
    assert [xp.fmt(np.float32(-0.0)), xp.fmt(np.float32(np.nan)), xp.fmt(np.int64(-3)), xp.fmt(np.float16(2050))] == [
        "-0", "nan", "-3", "2050"]
    # the one formatter's text, whatever the magnitude (#25: float32 1e20 showed 1.0000000200408773e+20)
    for v in (np.float32(1e20), np.float32(-3.4e38), np.float16(6e-8), np.float64(1e300), np.float32(1e-7)):
        assert xp.fmt(v) == sc.fmt_value(v), v
    assert xp.fmt(np.float32(1e20)) == "1e+20"


def test_verified_versions_are_those_of_the_constraints():
    text = (Path(__file__).resolve().parents[2] / "constraints" / "verified.txt").read_text()
    for runtime, version in xp.verified_versions().items():
        assert f"{rc.pins.DISTRIBUTIONS[runtime]}=={version}" in text
    assert set(xp.verified_versions()) == set(rc.RUNTIMES)
    assert xp.skew("onnxruntime", xp.verified_versions()["onnxruntime"]) == ""
    assert xp.skew("onnxruntime", "0.1") == (f"verified on onnxruntime {xp.verified_versions()['onnxruntime']}; "
                                             "installed 0.1: run `scatter-explorer verify-facts`")
    row = xp.rows_from([rc.Comparison(runtime="onnxruntime", version="0.1", op="ScatterND-18", agree=True,
                                      outcome=None, core_ok=True, runtime_ok=True)])[0]
    assert row["version skew"].startswith("verified on onnxruntime") and not row["new"]


@pytest.mark.runtimes
def test_panel_says_when_the_installed_runtime_is_not_the_verified_version():
    """Faked through the public hook: onnxruntime 1.32.0 installed, the facts verified on another version."""
    require_or_skip("onnxruntime", "onnx.reference")
    verified = xp.verified_versions()["onnxruntime"]
    with rc.pretend_installed({"onnxruntime": "1.32.0"}):
        at = open_expander(open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1"), TITLE)
    warn = [str(w.value) for w in at.warning if str(w.value).startswith("Version skew")]
    assert warn == [f"Version skew: onnxruntime: verified on onnxruntime {verified}; installed 1.32.0: run "
                    "`scatter-explorer verify-facts`. Differences may come from the version rather than the operator."]
    assert any("Installed: onnxruntime 1.32.0" in str(c.value) for c in at.caption)
    at = open_expander(open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1"), TITLE)
    assert not [w for w in at.warning if str(w.value).startswith("Version skew")]  # outside the block: none


@pytest.mark.runtimes
def test_panel_warns_about_version_skew(monkeypatch):
    require_or_skip("onnxruntime", "onnx.reference")
    monkeypatch.setattr(xp, "verified_versions", lambda: {"onnxruntime": "0.1", "onnx.reference": "0.2"})
    at = open_expander(open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1"), TITLE)
    assert any(str(w.value).startswith("Version skew: onnxruntime: verified on onnxruntime 0.1; installed ")
               for w in at.warning)
    _press(at)
    ok = [str(v.value) for v in at.success if "agree (bit-identical)" in str(v.value)]
    skewed = [v for v in ok if "verified on onnx" in v and " 0." in v and "verify-facts" in v]
    assert len(skewed) == 2 and all(v.startswith(("**onnxruntime", "**onnx.reference")) for v in skewed)


@pytest.mark.slow
@pytest.mark.runtimes
def test_large_spec_examples_agree_with_the_runtimes_too():
    """The shapes-only layer examples (generated values, up to 38.4 million elements) agree bit for bit;
    the one above scatter_core's size limit is refused with a message instead."""
    require_or_skip("openvino-cpu", "openvino-reference")
    from scatter_core import ScatterError

    checked = 0
    for ex in LARGE:
        if max(int(np.prod(s)) for s in ex.shapes.values()) > 50_000_000:
            with pytest.raises(ScatterError, match="the limit is"):
                scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)
            continue
        core = scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)
        for c in rc.compare(ex.op, ex.data, ex.indices, ex.updates, guarded=False, **ex.attrs):
            assert c.agree and c.runtime_output.tobytes() == core.tobytes(), (ex.id, c.runtime, c.outcome)
            checked += 1
    assert checked >= 8


@pytest.mark.slow
@pytest.mark.runtimes
def test_a_hanging_runtime_times_out_and_the_page_recovers(monkeypatch):
    require_or_skip("onnxruntime", "onnx.reference")
    monkeypatch.setenv("RUNTIME_CHECK_TEST_FAULT", "hang")
    healthy_timeout = xp.TIMEOUT_S
    monkeypatch.setattr(xp, "TIMEOUT_S", 2.0)
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1")
    _press(at)
    assert not at.exception
    errors = [str(e.value) for e in at.error]
    want = len([r for r in rc.runtimes_for("ScatterND-18") if rc.available()[r]])  # and openvino-onnx, installed
    assert want >= 2 and len([e for e in errors if "timed out" in e]) == want, errors
    monkeypatch.delenv("RUNTIME_CHECK_TEST_FAULT")
    # healthy again, with the page's own time limit (2 s is too short for a real run on a loaded machine)
    monkeypatch.setattr(xp, "TIMEOUT_S", healthy_timeout)
    xp.cached_run.clear()
    _press(at)  # the same page, runtimes healthy again: the cross-check now agrees
    assert not at.exception
    assert not [e for e in at.error if "timed out" in str(e.value)]


def test_attribute_items_are_plain_sorted_and_hashable_by_their_codecs():
    items = xp.attr_items("SliceScatter-15", {"step": [np.int64(1)], "start": (0,), "stop": np.array([2]),
                                               "axes": None})
    assert [n for n, _ in items] == ["start", "step", "stop"]  # sorted; None: left out
    assert items[0] == ("start", (0,)) and items[1] == ("step", (1,)) and type(items[1][1][0]) is int
    assert items[2][1].tolist() == [2]  # an array as given (the runtime reads it)
    assert xp.attr_items("ScatterElementsUpdate-12", [("use_init_val", np.bool_(False)), ("axis", np.int64(0))]) \
        == (("axis", 0), ("use_init_val", False))
    assert xp.attr_items("ScatterND-18", {"colour": np.int64(2)}) == (("colour", 2),)  # a name it lacks
    hash(xp.attr_items("SliceScatter-15", {"start": [1], "stop": [2], "step": [1]}))
