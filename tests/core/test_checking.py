"""check_expected: verdict, chains and the planted mistake of every diagnosis kind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
from scatter_core.checking import DEFAULT_ATOL, DEFAULT_RTOL


def kinds(report):
    return {d.kind for d in report.diagnoses}


def find(report, kind):
    hits = [d for d in report.diagnoses if d.kind == kind]
    assert hits, f"no {kind!r} diagnosis in {[(d.kind, dict(d.attrs)) for d in report.diagnoses]}"
    return hits


# -- verdict ----------------------------------------------------------------------------------------
def test_matching_case_has_no_mismatches_and_no_diagnoses():
    r = sc.check_expected(sc.case("ScatterND-16", [1, 2, 3, 4], [[0], [2]], [10, 20]), [10, 2, 20, 4])
    assert r.matches is True
    assert r.mismatches == [] and r.chains == [] and r.diagnoses == []
    assert "matches" in r.summary
    assert isinstance(r, sc.CheckReport)


def test_mismatch_lists_cells_and_chain_of_writes():
    r = sc.check_expected(sc.case("ScatterElements-18", [[0, 0], [0, 0]], [[1, 1], [1, 1]], [[1, 2], [3, 4]], axis=0, reduction="none"), [[0, 0], [1, 4]])
    assert not r.matches
    assert r.mismatches == [(1, 0)]
    (chain,) = r.chains
    assert chain.cell == (1, 0)
    assert chain.initial == 0 and chain.final == 3 and chain.expected == 1
    assert [(s.step, s.source, s.value, s.before, s.after) for s in chain.steps] == [
        (0, (0, 0), 1, 0, 1), (2, (1, 0), 3, 1, 3)]
    text = chain.explain()
    assert "output[1, 0] starts at 0" in text and "step 3 applies updates[1, 0] = 3" in text
    assert "Computed 3; you expected 1" in text
    # a runtime's output is not the user's expectation: the page comparing one says whose value it is
    other = chain.explain("onnxruntime gave")
    assert "Computed 3; onnxruntime gave 1" in other and "you expected" not in other


def test_unreached_cell_chain_says_data_value_is_kept():
    r = sc.check_expected(sc.case("ScatterND-11", [1, 2, 3], [[0]], [9]), [9, 5, 3])
    (chain,) = r.chains
    assert chain.steps == () and "keeps data's value 2" in chain.explain()
    assert chain.explain("openvino CPU gave").endswith("keeps data's value 2; openvino CPU gave 5.")


def test_wrong_shape_raises_scatter_error_naming_expected():
    with pytest.raises(sc.ScatterError) as exc:
        sc.check_expected(sc.case("ScatterND-16", [1, 2, 3, 4], [[0]], [10]), [10, 2, 3])
    assert exc.value.argument == "expected" and "shape" in str(exc.value)


def test_invalid_inputs_raise_scatter_error():
    with pytest.raises(sc.ScatterError):
        sc.check_expected(sc.case("ScatterND-16", [1, 2, 3, 4], [[7]], [10]), [10, 2, 3, 4])


def test_lossy_cast_is_reported_and_compared_after_the_cast():
    r = sc.check_expected(sc.case("ScatterND-16", np.array([1, 2, 3], np.int32), [[0]], np.array([5], np.int32)), [5.7, 2.0, 3.0])
    assert r.lossy_cast == ((0,),)
    assert r.expected.dtype == np.int32 and r.expected[0] == 5
    assert r.matches  # 5.7 becomes 5 in int32: the cast values agree
    assert any("changes 1 value" in n for n in r.notes)


def test_lossless_cast_is_not_lossy():
    r = sc.check_expected(sc.case("ScatterND-16", np.array([1, 2, 3], np.float32), [[0]], np.array([0.1], np.float32)), [0.1, 2, 3])
    assert r.lossy_cast == () and r.matches


def test_float_tolerance_is_explicit_and_applied():
    data = np.zeros(2, np.float64)
    upd = np.array([0.1, 0.2])
    r = sc.check_expected(sc.case("ScatterElements-18", data, [0, 0], upd, axis=0, reduction="add"), [0.3, 0.0])
    assert r.matches and (r.rtol, r.atol) == (DEFAULT_RTOL, DEFAULT_ATOL)
    assert "rtol = 1e-06" in r.tolerance
    exact = sc.check_expected(sc.case("ScatterElements-18", data, [0, 0], upd, axis=0, reduction="add"), [0.3, 0.0], rtol=0, atol=0)
    assert not exact.matches and exact.mismatches == [(0,)] and "bit-exact" in exact.tolerance
    far = sc.check_expected(sc.case("ScatterElements-18", data, [0, 0], upd, axis=0, reduction="add"), [0.31, 0.0])
    assert not far.matches


def test_nan_equals_nan_and_inf_needs_inf():
    data = np.array([np.nan, 1.0, 2.0])
    r = sc.check_expected(sc.case("ScatterND-16", data, [[2]], [np.inf]), [np.nan, 1.0, np.inf])
    assert r.matches and any("NaN" in n for n in r.notes)
    r2 = sc.check_expected(sc.case("ScatterND-16", data, [[2]], [np.inf]), [np.nan, 1.0, 1e308])
    assert r2.mismatches == [(2,)]


def test_integer_outputs_compare_exactly():
    r = sc.check_expected(sc.case("ScatterND-16", [1000000000, 2], [[1]], [3]), [1000000001, 3])
    assert r.mismatches == [(0,)] and "exact" in r.tolerance


def test_bad_tolerance_is_refused():
    with pytest.raises(sc.ScatterError):
        sc.check_expected(sc.case("ScatterND-16", [1.0], [[0]], [2.0]), [2.0], rtol=-1)


# -- diagnoses: one planted mistake per kind --------------------------------------------------------
def test_diagnoses_another_reduction():
    r = sc.check_expected(sc.case("ScatterElements-18", [1, 2, 3, 4], [0, 0, 2], [10, 20, 30], axis=0, reduction="none"), [31, 2, 33, 4])
    (d,) = find(r, "reduction")
    assert dict(d.change) == {"reduction": "add"}
    assert dict(d.attrs) == {"axis": 0, "reduction": "add"}  # every attribute under which it is reproduced
    assert "reduction='add'" in d.message and "you chose 'none'" in d.message


def test_diagnoses_reduction_in_openvino_spelling():
    r = sc.check_expected(sc.case("ScatterNDUpdate-15", [1, 2, 3], [[0], [0]], [5, 7], reduction="sum"), [-11, 2, 3])
    (d,) = find(r, "reduction")
    assert dict(d.change) == {"reduction": "sub"}


def test_diagnoses_use_init_val_flipped():
    r = sc.check_expected(sc.case("ScatterElementsUpdate-12", [1, 2, 3, 4], [0, 0, 2], [10, 20, 30], axis=0, reduction="sum"), [30, 2, 30, 4])
    (d,) = find(r, "use_init_val")
    assert dict(d.change) == {"use_init_val": False}
    assert dict(d.attrs) == {"axis": 0, "reduction": "sum", "use_init_val": False}
    assert "use_init_val=false" in d.message


def test_diagnoses_another_axis():
    data = np.zeros((2, 2), np.int64)
    mine = sc.scatter("ScatterElements-13", data, [[1, 0]], [[5, 6]], axis=1)
    r = sc.check_expected(sc.case("ScatterElements-13", data, [[1, 0]], [[5, 6]], axis=0), mine)
    (d,) = find(r, "axis")
    assert dict(d.change) == {"axis": 1} and "axis=1" in d.message and "you chose axis=0" in d.message


def test_diagnoses_first_write_wins():
    r = sc.check_expected(sc.case("ScatterND-16", [1, 2, 3, 4], [[0], [2], [0]], [10, 20, 30]), [10, 2, 20, 4])
    (d,) = find(r, "first-write-wins")
    assert "first write" in d.message


def test_diagnoses_negative_indices_skipped():
    r = sc.check_expected(sc.case("ScatterElements-18", [1, 2, 3, 4], [-1, 1], [10, 20], axis=0), [1, 20, 3, 4])
    hits = find(r, "negative-index")
    assert {"negative_indices": "skipped"} in [dict(d.change) for d in hits]


def test_diagnoses_negative_indices_wrapped_with_another_size():
    # data is 2x4, the index along axis 1 is -1: counted from 2 (the wrong dimension) it lands on column 1
    data = np.zeros((2, 4), np.int64)
    r = sc.check_expected(sc.case("ScatterElements-18", data, [[-1]], [[7]], axis=1), [[0, 7, 0, 0], [0, 0, 0, 0]])
    hits = find(r, "negative-index")
    assert {"negative_indices": "v + 2"} in [dict(d.change) for d in hits]
    assert all("v + 4" not in d.message for d in hits)  # the correct size reproduces the spec, not the mistake


def test_diagnoses_elements_vs_nd_reading():
    data = np.zeros((2, 2, 2), np.int64)
    idx, upd = [[[1, 0]]], [[[5, 6]]]
    nd_reading = sc.scatter("ScatterND-18", data, idx, upd)
    r = sc.check_expected(sc.case("ScatterElements-18", data, idx, upd, axis=0), nd_reading)
    (d,) = find(r, "family")
    assert d.attrs["op"] == "ScatterND-18"
    assert "ScatterND-18" in d.message and "coordinate tuple" in d.message
    # and the other way round
    el_reading = sc.scatter("ScatterElements-18", data, idx, upd, axis=0)
    r2 = sc.check_expected(sc.case("ScatterND-18", data, idx, upd), el_reading)
    hits = find(r2, "family")
    assert any(h.attrs["op"].startswith("ScatterElements") and h.attrs.get("axis") == 0 for h in hits)


def test_diagnoses_neighbouring_version():
    # ScatterND-13 has no reduction: a hand computation that ignored reduction='add' is what it gives
    r = sc.check_expected(sc.case("ScatterND-16", [1, 2, 3, 4], [[0], [0]], [10, 20], reduction="add"), [20, 2, 3, 4])
    hits = find(r, "version")
    assert [dict(d.attrs) for d in hits] == [{"op": "ScatterND-13"}]
    assert "ScatterND-13" in hits[0].message and "reduction='add'" in hits[0].message


def test_diagnoses_integer_mean_truncated():
    r = sc.check_expected(sc.case("ScatterElementsUpdate-12", [0, 5, -4], [0, 2, 2], [-3, 1, 2], axis=0, reduction="mean"), [-1, 5, 0])
    # spec: floor(-3/2) = -2 and floor((-4+1+2)/3) = -1; truncation gives -1 and 0
    assert r.computed.tolist() == [-2, 5, -1]
    (d,) = find(r, "mean-truncated")
    assert d.attrs["rounding"] == "toward zero" and "OpenVINO" in d.message


def test_integer_mean_truncated_without_init_value():
    r = sc.check_expected(sc.case("ScatterElementsUpdate-12", [9, 5], [0, 0], [-3, -2], axis=0, reduction="mean", use_init_val=False), [-2, 5])
    assert r.computed.tolist() == [-3, 5]
    find(r, "mean-truncated")


def test_nothing_reproduces_says_so():
    r = sc.check_expected(sc.case("ScatterND-16", [1, 2, 3, 4], [[0]], [10]), [99, 98, 97, 96])
    assert not r.matches and r.diagnoses == []
    assert "None of the alternative readings" in r.summary


def test_every_diagnosis_reproduces_the_expected_output_exactly():
    r = sc.check_expected(sc.case("ScatterElements-18", [1, 2, 3, 4], [0, 0, 2], [10, 20, 30], axis=0, reduction="none"), [31, 2, 33, 4])
    for d in r.diagnoses:
        attrs = {k: v for k, v in d.attrs.items() if k != "op"}
        out = sc.scatter(d.attrs.get("op", "ScatterElements-18"), [1, 2, 3, 4], [0, 0, 2], [10, 20, 30],
                         **{**{"axis": 0}, **attrs})
        assert out.tolist() == [31, 2, 33, 4]


def test_diagnosis_search_names_no_operator():
    """The alternatives come from the registry: checking.py never branches on an operator's name."""
    source = (Path(sc.__file__).parent / "checking.py").read_text()
    for spec in sc.OPERATORS_LIST:
        assert f'"{spec.name}"' not in source and f'"{spec.op_type}"' not in source


# -- properties on random valid cases ------------------------------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.support.strategies import cases  # noqa: E402
from tests.support.profiles import examples


def _wrong_value(x):
    if isinstance(x, (bool, np.bool_)):
        return not x
    if np.issubdtype(type(x), np.floating) and not np.isfinite(x):
        return type(x)(0)
    with np.errstate(all="ignore"):
        return x + type(x)(max(1, min(abs(int(x)) if np.issubdtype(type(x), np.integer) else abs(x), 100)))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(), st.data())
def test_random_cases_match_themselves_and_locate_one_planted_error(case, draw):
    op, data, indices, updates, attrs = case
    out = sc.scatter(op, data, indices, updates, **attrs)
    ok = sc.check_expected(sc.case(op, data, indices, updates, **attrs), out)
    assert ok.matches and ok.mismatches == [] and ok.diagnoses == []
    if out.size == 0:
        return
    flat = draw.draw(st.integers(0, out.size - 1))
    pos = tuple(int(v) for v in np.unravel_index(flat, out.shape))
    wrong = out.copy()
    wrong[pos] = _wrong_value(out[pos])
    if wrong[pos] == out[pos] or (out.dtype.kind == "f" and np.isclose(wrong[pos], out[pos], rtol=1e-6)):
        return
    r = sc.check_expected(sc.case(op, data, indices, updates, **attrs), wrong)
    assert not r.matches and r.mismatches == [pos]
    (chain,) = r.chains
    assert chain.cell == pos and chain.final == out[pos]
    assert all(s.step < len(r.trace) for s in chain.steps)
    for d in r.diagnoses:  # every diagnosis that names plain attributes reproduces the planted output
        if d.kind not in ("reduction", "use_init_val", "axis", "version", "family") or \
                "indices_shape" in d.attrs or "updates_shape" in d.attrs:
            continue
        other = d.attrs.get("op", op)
        spec = sc.OPERATORS[other]
        given = {k: v for k, v in d.attrs.items() if k != "op"}
        merged = given if "op" in d.attrs else {**dict(r.attrs), **given}
        merged = {k: v for k, v in merged.items() if k in spec.attribute_names}
        got = sc.scatter(other, data, indices, updates, **merged)
        if got.dtype.kind == "f":
            assert np.allclose(got, wrong, rtol=1e-6, atol=1e-9, equal_nan=True), d
        else:
            assert np.array_equal(got, wrong), d


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(), st.lists(st.integers(-300, 300), min_size=0, max_size=12))
def test_check_expected_raises_only_scatter_error_on_arbitrary_expected(case, values):
    op, data, indices, updates, attrs = case
    try:
        sc.check_expected(sc.case(op, data, indices, updates, **attrs), np.array(values, dtype=np.int64))
    except sc.ScatterError:
        pass


def test_versions_accepting_refused_inputs():
    from scatter_core.checking import versions_accepting

    # ScatterElementsUpdate-3 forbids negative indices; version 12 counts them from the end
    with pytest.raises(sc.ScatterError):
        sc.check_expected(sc.case("ScatterElementsUpdate-3", [1, 2, 3, 4], [-1], [9], axis=0), [1, 2, 3, 9])
    (hint,) = versions_accepting("ScatterElementsUpdate-3", [1, 2, 3, 4], [-1], [9], [1, 2, 3, 9], axis=0)
    assert hint.attrs["op"] == "ScatterElementsUpdate-12" and "refuses these inputs" in hint.message
    assert versions_accepting("ScatterElementsUpdate-3", [1, 2, 3, 4], [-1], [9], [9, 2, 3, 4], axis=0) == []


# TensorScatter-24: batch entry 0 writes 2 rows at position 3 of a cache of 4 (runs past the end)
TS_PAST = np.arange(8, dtype=np.float32).reshape(2, 4, 1)
TS_UPDATE = np.array([[[10], [11]], [[20], [21]]], dtype=np.float32)
TS_WRITE = np.array([3, 1])


def test_choices_accepting_names_the_other_mode():
    from scatter_core.checking import choices_accepting

    circular = sc.scatter("TensorScatter-24", TS_PAST, TS_WRITE, TS_UPDATE, mode="circular")
    assert circular.ravel().tolist() == [11, 1, 2, 10, 4, 20, 21, 7]  # row 3, then wrapped to row 0
    with pytest.raises(sc.ScatterError, match="past the end"):
        sc.check_expected(sc.case("TensorScatter-24", TS_PAST, TS_WRITE, TS_UPDATE, mode="linear"), circular)
    (hint,) = choices_accepting("TensorScatter-24", TS_PAST, TS_WRITE, TS_UPDATE, circular, axis=-2, mode="linear")
    assert hint.kind == "mode" and dict(hint.change) == {"mode": "circular"}
    assert dict(hint.attrs) == {"axis": -2, "mode": "circular"}
    assert "mode='linear'" in hint.message and "mode='circular' accepts them" in hint.message
    # another expected output, or an operator whose other choices refuse too: nothing to say
    assert choices_accepting("TensorScatter-24", TS_PAST, TS_WRITE, TS_UPDATE, TS_PAST, mode="linear") == []
    assert choices_accepting("ScatterElementsUpdate-3", [1, 2, 3, 4], [-1], [9], [1, 2, 3, 9], axis=0) == []
    assert choices_accepting("NoSuchOp-1", [1], [0], [2], [2]) == []


def test_the_choice_alternative_offers_every_other_value_of_each_choice_attribute():
    from scatter_core.checking import alt_choice

    case = sc.case("TensorScatter-24", TS_PAST, np.array([1, 0]), TS_UPDATE, mode="circular")
    ((kind, attrs, message, compute),) = alt_choice(case, case.trace())
    assert kind == "mode" and attrs == {"mode": "linear"}
    assert message == "Your expected output is what mode='linear' gives (you chose mode='circular')."
    assert compute().tolist() == case.run().tolist()  # no wrap-around: both modes agree
    wrapping = sc.case("TensorScatter-24", TS_PAST, TS_WRITE, TS_UPDATE, mode="circular")
    ((_, _, _, compute),) = alt_choice(wrapping, wrapping.trace())
    with pytest.raises(sc.ScatterError):  # where the modes differ, linear refuses (diagnose skips it)
        compute()
    plain = sc.case("ScatterElements-18", [1, 2], [0], [5], axis=0)
    assert list(alt_choice(plain, plain.trace())) == []  # no choice attribute (reduction has its own)


def test_printed_spec_outputs_match_exactly_unless_an_erratum_says_otherwise():
    import spec_examples

    checked = 0
    for ex in spec_examples.load_all():
        if ex.expected is None or ex.shapes_only:
            continue
        r = sc.check_expected(sc.case(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs), ex.expected)
        output_errata = [e for e in ex.errata if spec_examples.loader.catalogue().errata[e].kind == "example-output"]
        assert r.matches == (not output_errata), (ex.id, r.summary)
        if not r.matches:
            assert r.chains and all(c.expected == ex.expected[c.cell] for c in r.chains)
        checked += 1
    assert checked > 40


# -- conformance: the outputs the spec allows ------------------------------------------------------------
ISSUE_DATA = np.arange(16).reshape(4, 4)
ISSUE_UPDATES = np.arange(100, 112).reshape(3, 4)


def issue_first_wins():
    """Issue 22's scenario: ScatterND-18, reduction none, rows 0, 2, 0; the duplicated row keeps its first write."""
    out = ISSUE_DATA.copy()
    out[2] = ISSUE_UPDATES[1]
    out[0] = ISSUE_UPDATES[0]
    return out


def test_the_issue_scenario_conforms_with_another_winner_in_four_cells():
    r = sc.check_expected(sc.case("ScatterND-18", ISSUE_DATA, [[0], [2], [0]], ISSUE_UPDATES, reduction="none"), issue_first_wins())
    assert (r.matches, r.conforms, r.verdict) == (False, True, "conforms")
    assert r.mismatches == [(0, 0), (0, 1), (0, 2), (0, 3)] and r.allowed == r.mismatches and r.violations == []
    assert "has a different winner in 4 duplicated cells" in r.summary
    assert "output[0, 0] holds 100 (writes: 100 at step 1, 108 at step 3)" in r.summary
    assert "keeps the last write" in r.summary and "real runtimes" in r.summary
    assert "any one of the values written to it" in r.tolerance
    (oc, *_) = r.open_cells
    assert (oc.cell, oc.kind, oc.candidates, oc.steps, oc.loop_value) == ((0, 0), "winner", (100, 108), (0, 2), 108)
    assert "step 1 writes it" in r.chains[0].explain() and "keeps the last one, 108" in r.chains[0].explain()
    (d,) = find(r, "first-write-wins")  # an explanation, not a mistake
    assert d.allowed and "names no winner" in d.message  # ScatterND-18 does not allow duplicates under none


def test_the_loop_order_result_matches_and_conforms():
    t = sc.trace(sc.case("ScatterND-18", ISSUE_DATA, [[0], [2], [0]], ISSUE_UPDATES))
    r = sc.check_expected(sc.case("ScatterND-18", ISSUE_DATA, [[0], [2], [0]], ISSUE_UPDATES), t.output)
    assert (r.matches, r.conforms, r.verdict) == (True, True, "matches")
    assert r.allowed == [] and r.open_cells == () and len(r.opened) == 4  # the whole duplicated row is open


def test_each_element_of_a_duplicated_slice_picks_its_winner_alone():
    expected = issue_first_wins()
    expected[0, 1] = 109  # one element keeps the last write, its neighbours the first
    r = sc.check_expected(sc.case("ScatterND-18", ISSUE_DATA, [[0], [2], [0]], ISSUE_UPDATES), expected)
    assert r.verdict == "conforms" and r.allowed == [(0, 0), (0, 2), (0, 3)]
    assert "different winner in 3 duplicated cells" in r.summary
    assert not kinds(r)  # no single reading gives it, yet the spec allows it


def test_a_value_no_write_brings_is_not_allowed():
    expected = issue_first_wins()
    expected[0, 0] = 104  # written to row 2, never to row 0
    expected[3, 3] = 0  # a cell no update reaches
    r = sc.check_expected(sc.case("ScatterND-18", ISSUE_DATA, [[0], [2], [0]], ISSUE_UPDATES), expected)
    assert (r.matches, r.conforms, r.verdict) == (False, False, "differs")
    assert r.allowed == [(0, 1), (0, 2), (0, 3)] and r.violations == [(0, 0), (3, 3)]
    assert "5 of 16 cells differ" in r.summary and "3 of them are duplicated cells" in r.summary
    assert "the other 2 are not allowed" in r.summary
    chains = {c.cell: c for c in r.chains}
    assert chains[(0, 1)].allowed and not chains[(0, 0)].allowed and not chains[(3, 3)].allowed
    assert "only a value written to this cell: 100, 108; 104 is none of them" in chains[(0, 0)].explain()
    assert chains[(3, 3)].not_allowed == "" and chains[(0, 1)].not_allowed == ""


def test_only_some_duplicated_cells_take_another_winner():
    # ScatterElements-18 axis 0: output[0] gets 10, 30; output[2] gets 20, 40; only output[2] keeps its first write
    r = sc.check_expected(sc.case("ScatterElements-18", [1, 2, 3, 4], [0, 2, 0, 2], [10, 20, 30, 40]), [30, 2, 20, 4])
    assert r.verdict == "conforms" and r.allowed == [(2,)] and len(r.opened) == 2
    assert "different winner in 1 duplicated cell:" in r.summary


@pytest.mark.parametrize("op,data,indices,updates,expected,attrs", [
    ("ScatterElements-11", [[1, 2, 3]], [[1, 1, 1]], [[7, 8, 9]], [[1, 7, 3]], {"axis": 1}),
    ("Scatter-9", [[1, 2, 3]], [[0, 0]], [[7, 8]], [[7, 2, 3]], {"axis": 1}),
    ("ScatterUpdate-3", [[1, 2], [3, 4]], [0, 0], [[5, 6], [7, 8]], [[5, 8], [3, 4]], {"axis": 0}),
    ("ScatterNDUpdate-3", [1, 2, 3], [[1], [1]], [7, 8], [1, 7, 3], {}),
    ("ScatterNDUpdate-15", [1, 2, 3], [[1], [-2]], [7, 8], [1, 7, 3], {"reduction": "none"}),
    ("ScatterElementsUpdate-3", [1, 2, 3], [2, 2], [7, 8], [1, 2, 7], {"axis": 0}),
    ("ScatterElementsUpdate-12", [1, 2, 3], [2, -1], [7, 8], [1, 2, 7], {"axis": 0, "reduction": "none"}),
])
def test_every_family_with_duplicates_under_none_allows_any_write(op, data, indices, updates, expected, attrs):
    r = sc.check_expected(sc.case(op, data, indices, updates, **attrs), expected)
    assert r.verdict == "conforms", r.summary
    wrong = np.array(expected)
    wrong[r.allowed[0]] = 99
    assert sc.check_expected(sc.case(op, data, indices, updates, **attrs), wrong).verdict == "differs"


def test_a_version_whose_text_forbids_duplicates_says_so_in_the_conforming_verdict():
    r = sc.check_expected(sc.case("ScatterNDUpdate-3", [1, 2, 3], [[1], [1]], [7, 8]), [1, 7, 3])
    assert r.conforms and r.outside_spec == sc.OPERATORS["ScatterNDUpdate-3"].duplicate_policy
    assert "text does not allow these inputs: indices must not contain duplicates" in r.summary
    assert "has a different winner in 1 duplicated cell" in r.summary and "defines no output" in r.summary
    # never in the same breath as "the spec leaves open which write wins" or "conforms to": it forbids the input
    assert "leaves open" not in r.summary and "conforms to" not in r.summary
    assert "does not allow duplicate indices here, so it names no winner" in r.diagnoses[0].message
    r = sc.check_expected(sc.case("ScatterNDUpdate-15", [1, 2, 3], [[1], [1]], [7, 8]), [1, 7, 3])
    assert r.conforms and not r.outside_spec and "does not allow" not in r.summary  # allowed there, order open
    assert "leaves open which write to a cell wins" in r.summary
    assert "leaves open which write wins" in r.diagnoses[0].message


@pytest.mark.parametrize("expected,verdict", [([1, 8, 3], "matches"), ([1, 7, 3], "conforms"), ([1, 9, 3], "differs")])
def test_every_verdict_on_forbidden_duplicates_says_the_inputs_are_outside_the_spec(expected, verdict):
    r = sc.check_expected(sc.case("ScatterND-16", [1, 2, 3], [[1], [1]], [7, 8]), expected)
    assert r.verdict == verdict and "ScatterND-16's text does not allow these inputs" in r.summary
    assert "(which the text does not allow)" in r.tolerance
    # a reduction combines duplicates: the same inputs are inside the spec there
    r = sc.check_expected(sc.case("ScatterND-16", [1, 2, 3], [[1], [1]], [7, 8], reduction="add"), [1, 17, 3])
    assert r.matches and not r.outside_spec and "does not allow" not in r.summary


@pytest.mark.parametrize("op,reduction", [("ScatterElements-18", "add"), ("ScatterElements-18", "mul"),
                                          ("ScatterElements-18", "max"), ("ScatterElementsUpdate-12", "mean"),
                                          ("ScatterNDUpdate-15", "sub")])
def test_integer_reductions_leave_nothing_open(op, reduction):
    idx = [[0], [0], [0]] if op.startswith("ScatterND") else [0, 0, 0]
    data, upd = np.array([7, -3], np.int8), np.array([120, -7, 100], np.int8)  # wraps around, still one result
    attrs = {"reduction": reduction, **({"axis": 0} if "axis" in sc.OPERATORS[op].attribute_names else {})}
    t = sc.trace(sc.case(op, data, idx, upd, **attrs))
    assert len(sc.open_cells(t)) == 0 and sc.open_cells(t).kind == ""
    other = t.output.copy()
    other[0] += 1
    r = sc.check_expected(sc.case(op, data, idx, upd, **attrs), other)
    assert r.verdict == "differs" and r.allowed == []


def test_a_truncated_integer_mean_stays_a_mistake():
    r = sc.check_expected(sc.case("ScatterElementsUpdate-12", [0, 5], [0, 0], [-3, -2], axis=0, reduction="mean"), [-1, 5])
    assert r.verdict == "differs" and "mean-truncated" in kinds(r)
    assert not find(r, "mean-truncated")[0].allowed


def _loop_in_order(op, data, indices, updates, order, **attrs):
    """The cell's float reduction applied in the given order of the trace's steps, one rounding at a time."""
    t = sc.trace(sc.case(op, data, indices, updates, **attrs))
    out = t.data.copy()
    combine = t.reduction.combiner(t.data.dtype)
    seen = {}
    for k in order:
        for cell, value in zip(t.plan.targets[k].tolist(), t.values[k]):
            if cell not in seen:
                seen[cell] = int(t.use_init)
                if not t.use_init:
                    out.reshape(-1)[cell] = t.reduction.neutral_for(t.data.dtype)
            seen[cell] += 1
            out.reshape(-1)[cell] = combine(out.reshape(-1)[cell], value)
    if t.reduction.divides:
        for cell, n in seen.items():
            out.reshape(-1)[cell] = out.reshape(-1)[cell] / out.dtype.type(n)
    return t, out


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op,reduction,use_init", [
    ("ScatterElements-18", "add", True), ("ScatterElements-18", "mul", True),
    ("ScatterElementsUpdate-12", "mean", True), ("ScatterElementsUpdate-12", "mean", False),
    ("ScatterElementsUpdate-12", "sum", False), ("ScatterNDUpdate-15", "sub", True),
])
def test_any_order_of_a_float_reduction_conforms_bit_exactly(dtype, op, reduction, use_init):
    rng = np.random.default_rng(22)
    attrs = {"reduction": reduction, **({"axis": 0} if "axis" in sc.OPERATORS[op].attribute_names else {})}
    if "use_init_val" in sc.OPERATORS[op].attribute_names:
        attrs["use_init_val"] = use_init
    differing = 0
    for _ in range(30):
        n = int(rng.integers(3, 9))
        data = rng.uniform(-2, 2, 3).astype(dtype)
        upd = (rng.uniform(0.5, 1.5, n) * rng.choice([-1, 1], n)).astype(dtype)
        idx = rng.integers(0, 2, n)
        indices = idx[:, None] if op.startswith("ScatterND") else idx
        t, shuffled = _loop_in_order(op, data, indices, upd, rng.permutation(n), **attrs)
        np.testing.assert_array_equal(_loop_in_order(op, data, indices, upd, range(n), **attrs)[1], t.output)
        with np.errstate(all="ignore"):
            r = sc.check_expected(sc.case(op, data, indices, upd, **attrs), shuffled, rtol=0, atol=0)
        assert r.conforms, (r.summary, shuffled, t.output)
        if not r.matches:
            differing += 1
            assert r.verdict == "conforms" and "different rounding" in r.summary and "γ(n)" in r.tolerance
        oc = sc.open_cells(t)
        assert oc.kind in ("rounding", "")
        if len(oc):  # well beyond the bound: not allowed
            far = t.output.copy()
            far.reshape(-1)[oc.cells[0]] += dtype(8 * max(float(oc.slack[0]), 1e-3) + 1)
            r_far = sc.check_expected(sc.case(op, data, indices, upd, **attrs), far, rtol=0, atol=0)
            assert r_far.verdict == "differs" and "is further away" in r_far.chains[0].not_allowed
    assert differing >= 3  # the shuffled orders do round differently


def test_float_max_and_min_and_single_writes_leave_nothing_open():
    data = np.array([0.5, 1.5])
    t = sc.trace(sc.case("ScatterElements-18", data, [0, 0, 0], [0.1, 0.7, 0.3], reduction="max"))
    assert len(sc.open_cells(t)) == 0
    t = sc.trace(sc.case("ScatterElements-18", data, [0, 1], [0.1, 0.7], reduction="add"))  # one write per cell
    assert len(sc.open_cells(t)) == 0
    t = sc.trace(sc.case("ScatterElementsUpdate-12", data, [0, 0], [0.1, 0.7], axis=0, reduction="sum",
                         use_init_val=False))
    assert len(sc.open_cells(t)) == 0  # 0 + a + b: one rounding, no order to choose


def test_a_float_cell_that_overflows_gets_no_slack():
    data = np.array([np.float16(60000)], np.float16)
    upd = np.array([60000, -60000], np.float16)
    r = sc.check_expected(sc.case("ScatterElements-18", data, [0, 0], upd, reduction="add"), np.array([60000], np.float16))
    assert np.isinf(r.computed[0]) and r.verdict == "differs"  # another order would not overflow: not modelled


def test_conforming_is_the_same_rule_cell_by_cell():
    t = sc.trace(sc.case("ScatterND-18", ISSUE_DATA, [[0], [2], [0]], ISSUE_UPDATES))
    mask = sc.conforming(t, issue_first_wins())
    assert mask.all() and mask.shape == (4, 4)
    wrong = issue_first_wins()
    wrong[0, 0] = 104
    assert sc.conforming(t, wrong).sum() == 15 and not sc.conforming(t, wrong)[0, 0]


def test_many_allowed_cells_are_all_listed_and_the_first_explained():
    n = 300
    data = np.zeros((n, 2), np.int64)
    idx = np.concatenate([np.arange(n), np.arange(n)])[:, None]
    upd = np.arange(4 * n).reshape(2 * n, 2)
    expected = upd[:n].copy()  # every row keeps its first write
    r = sc.check_expected(sc.case("ScatterND-18", data, idx, upd), expected)
    assert r.verdict == "conforms" and len(r.allowed) == 2 * n and len(r.open_cells) == 200
    assert "and 596 more" in r.summary


def test_printed_spec_outputs_that_are_errata_do_not_conform():
    """An erratum stays an erratum: no printed output that differs from the loop order is one the spec allows."""
    import spec_examples

    errata = spec_examples.loader.catalogue().errata
    checked = 0
    for ex in spec_examples.load_all():
        if ex.expected is None or ex.shapes_only:
            continue
        r = sc.check_expected(sc.case(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs), ex.expected)
        if any(errata[e].kind == "example-output" for e in ex.errata):
            assert r.verdict == "differs", (ex.id, r.summary)
            checked += 1
    assert checked == 7
