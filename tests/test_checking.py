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
    r = sc.check_expected("ScatterND-16", [1, 2, 3, 4], [[0], [2]], [10, 20], [10, 2, 20, 4])
    assert r.matches is True
    assert r.mismatches == [] and r.chains == [] and r.diagnoses == []
    assert "matches" in r.summary
    assert isinstance(r, sc.CheckReport)


def test_mismatch_lists_cells_and_chain_of_writes():
    r = sc.check_expected("ScatterElements-18", [[0, 0], [0, 0]], [[1, 1], [1, 1]], [[1, 2], [3, 4]],
                          [[0, 0], [1, 4]], axis=0, reduction="none")
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


def test_unreached_cell_chain_says_data_value_is_kept():
    r = sc.check_expected("ScatterND-11", [1, 2, 3], [[0]], [9], [9, 5, 3])
    (chain,) = r.chains
    assert chain.steps == () and "keeps data's value 2" in chain.explain()


def test_wrong_shape_raises_scatter_error_naming_expected():
    with pytest.raises(sc.ScatterError) as exc:
        sc.check_expected("ScatterND-16", [1, 2, 3, 4], [[0]], [10], [10, 2, 3])
    assert exc.value.argument == "expected" and "shape" in str(exc.value)


def test_invalid_inputs_raise_scatter_error():
    with pytest.raises(sc.ScatterError):
        sc.check_expected("ScatterND-16", [1, 2, 3, 4], [[7]], [10], [10, 2, 3, 4])


def test_lossy_cast_is_reported_and_compared_after_the_cast():
    r = sc.check_expected("ScatterND-16", np.array([1, 2, 3], np.int32), [[0]], np.array([5], np.int32),
                          [5.7, 2.0, 3.0])
    assert r.lossy_cast == ((0,),)
    assert r.expected.dtype == np.int32 and r.expected[0] == 5
    assert r.matches  # 5.7 becomes 5 in int32: the cast values agree
    assert any("changes 1 value" in n for n in r.notes)


def test_lossless_cast_is_not_lossy():
    r = sc.check_expected("ScatterND-16", np.array([1, 2, 3], np.float32), [[0]], np.array([0.1], np.float32),
                          [0.1, 2, 3])
    assert r.lossy_cast == () and r.matches


def test_float_tolerance_is_explicit_and_applied():
    data = np.zeros(2, np.float64)
    upd = np.array([0.1, 0.2])
    r = sc.check_expected("ScatterElements-18", data, [0, 0], upd, [0.3, 0.0], axis=0, reduction="add")
    assert r.matches and (r.rtol, r.atol) == (DEFAULT_RTOL, DEFAULT_ATOL)
    assert "rtol = 1e-06" in r.tolerance
    exact = sc.check_expected("ScatterElements-18", data, [0, 0], upd, [0.3, 0.0], axis=0, reduction="add",
                              rtol=0, atol=0)
    assert not exact.matches and exact.mismatches == [(0,)] and "bit-exact" in exact.tolerance
    far = sc.check_expected("ScatterElements-18", data, [0, 0], upd, [0.31, 0.0], axis=0, reduction="add")
    assert not far.matches


def test_nan_equals_nan_and_inf_needs_inf():
    data = np.array([np.nan, 1.0, 2.0])
    r = sc.check_expected("ScatterND-16", data, [[2]], [np.inf], [np.nan, 1.0, np.inf])
    assert r.matches and any("NaN" in n for n in r.notes)
    r2 = sc.check_expected("ScatterND-16", data, [[2]], [np.inf], [np.nan, 1.0, 1e308])
    assert r2.mismatches == [(2,)]


def test_integer_outputs_compare_exactly():
    r = sc.check_expected("ScatterND-16", [1000000000, 2], [[1]], [3], [1000000001, 3])
    assert r.mismatches == [(0,)] and "exact" in r.tolerance


def test_bad_tolerance_is_refused():
    with pytest.raises(sc.ScatterError):
        sc.check_expected("ScatterND-16", [1.0], [[0]], [2.0], [2.0], rtol=-1)


# -- diagnoses: one planted mistake per kind --------------------------------------------------------
def test_diagnoses_another_reduction():
    r = sc.check_expected("ScatterElements-18", [1, 2, 3, 4], [0, 0, 2], [10, 20, 30], [31, 2, 33, 4],
                          axis=0, reduction="none")
    (d,) = find(r, "reduction")
    assert dict(d.change) == {"reduction": "add"}
    assert dict(d.attrs) == {"axis": 0, "reduction": "add"}  # every attribute under which it is reproduced
    assert "reduction='add'" in d.message and "you chose 'none'" in d.message


def test_diagnoses_reduction_in_openvino_spelling():
    r = sc.check_expected("ScatterNDUpdate-15", [1, 2, 3], [[0], [0]], [5, 7], [-11, 2, 3], reduction="sum")
    (d,) = find(r, "reduction")
    assert dict(d.change) == {"reduction": "sub"}


def test_diagnoses_use_init_val_flipped():
    r = sc.check_expected("ScatterElementsUpdate-12", [1, 2, 3, 4], [0, 0, 2], [10, 20, 30], [30, 2, 30, 4],
                          axis=0, reduction="sum")
    (d,) = find(r, "use_init_val")
    assert dict(d.change) == {"use_init_val": False}
    assert dict(d.attrs) == {"axis": 0, "reduction": "sum", "use_init_val": False}
    assert "use_init_val=false" in d.message


def test_diagnoses_another_axis():
    data = np.zeros((2, 2), np.int64)
    mine = sc.scatter("ScatterElements-13", data, [[1, 0]], [[5, 6]], axis=1)
    r = sc.check_expected("ScatterElements-13", data, [[1, 0]], [[5, 6]], mine, axis=0)
    (d,) = find(r, "axis")
    assert dict(d.change) == {"axis": 1} and "axis=1" in d.message and "you chose axis=0" in d.message


def test_diagnoses_first_write_wins():
    r = sc.check_expected("ScatterND-16", [1, 2, 3, 4], [[0], [2], [0]], [10, 20, 30], [10, 2, 20, 4])
    (d,) = find(r, "first-write-wins")
    assert "first write" in d.message


def test_diagnoses_negative_indices_skipped():
    r = sc.check_expected("ScatterElements-18", [1, 2, 3, 4], [-1, 1], [10, 20], [1, 20, 3, 4], axis=0)
    hits = find(r, "negative-index")
    assert {"negative_indices": "skipped"} in [dict(d.change) for d in hits]


def test_diagnoses_negative_indices_wrapped_with_another_size():
    # data is 2x4, the index along axis 1 is -1: counted from 2 (the wrong dimension) it lands on column 1
    data = np.zeros((2, 4), np.int64)
    r = sc.check_expected("ScatterElements-18", data, [[-1]], [[7]], [[0, 7, 0, 0], [0, 0, 0, 0]], axis=1)
    hits = find(r, "negative-index")
    assert {"negative_indices": "v + 2"} in [dict(d.change) for d in hits]
    assert all("v + 4" not in d.message for d in hits)  # the correct size reproduces the spec, not the mistake


def test_diagnoses_elements_vs_nd_reading():
    data = np.zeros((2, 2, 2), np.int64)
    idx, upd = [[[1, 0]]], [[[5, 6]]]
    nd_reading = sc.scatter("ScatterND-18", data, idx, upd)
    r = sc.check_expected("ScatterElements-18", data, idx, upd, nd_reading, axis=0)
    (d,) = find(r, "family")
    assert d.attrs["op"] == "ScatterND-18"
    assert "ScatterND-18" in d.message and "coordinate tuple" in d.message
    # and the other way round
    el_reading = sc.scatter("ScatterElements-18", data, idx, upd, axis=0)
    r2 = sc.check_expected("ScatterND-18", data, idx, upd, el_reading)
    hits = find(r2, "family")
    assert any(h.attrs["op"].startswith("ScatterElements") and h.attrs.get("axis") == 0 for h in hits)


def test_diagnoses_neighbouring_version():
    # ScatterND-13 has no reduction: a hand computation that ignored reduction='add' is what it gives
    r = sc.check_expected("ScatterND-16", [1, 2, 3, 4], [[0], [0]], [10, 20], [20, 2, 3, 4], reduction="add")
    hits = find(r, "version")
    assert [dict(d.attrs) for d in hits] == [{"op": "ScatterND-13"}]
    assert "ScatterND-13" in hits[0].message and "reduction='add'" in hits[0].message


def test_diagnoses_integer_mean_truncated():
    r = sc.check_expected("ScatterElementsUpdate-12", [0, 5, -4], [0, 2, 2], [-3, 1, 2], [-1, 5, 0], axis=0,
                          reduction="mean")
    # spec: floor(-3/2) = -2 and floor((-4+1+2)/3) = -1; truncation gives -1 and 0
    assert r.computed.tolist() == [-2, 5, -1]
    (d,) = find(r, "mean-truncated")
    assert d.attrs["rounding"] == "toward zero" and "OpenVINO" in d.message


def test_integer_mean_truncated_without_init_value():
    r = sc.check_expected("ScatterElementsUpdate-12", [9, 5], [0, 0], [-3, -2], [-2, 5], axis=0,
                          reduction="mean", use_init_val=False)
    assert r.computed.tolist() == [-3, 5]
    find(r, "mean-truncated")


def test_nothing_reproduces_says_so():
    r = sc.check_expected("ScatterND-16", [1, 2, 3, 4], [[0]], [10], [99, 98, 97, 96])
    assert not r.matches and r.diagnoses == []
    assert "None of the alternative readings" in r.summary


def test_every_diagnosis_reproduces_the_expected_output_exactly():
    r = sc.check_expected("ScatterElements-18", [1, 2, 3, 4], [0, 0, 2], [10, 20, 30], [31, 2, 33, 4],
                          axis=0, reduction="none")
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

from tests.strategies import cases  # noqa: E402


def _wrong_value(x):
    if isinstance(x, (bool, np.bool_)):
        return not x
    if np.issubdtype(type(x), np.floating) and not np.isfinite(x):
        return type(x)(0)
    with np.errstate(all="ignore"):
        return x + type(x)(max(1, min(abs(int(x)) if np.issubdtype(type(x), np.integer) else abs(x), 100)))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(), st.data())
def test_random_cases_match_themselves_and_locate_one_planted_error(case, draw):
    op, data, indices, updates, attrs = case
    out = sc.scatter(op, data, indices, updates, **attrs)
    ok = sc.check_expected(op, data, indices, updates, out, **attrs)
    assert ok.matches and ok.mismatches == [] and ok.diagnoses == []
    if out.size == 0:
        return
    flat = draw.draw(st.integers(0, out.size - 1))
    pos = tuple(int(v) for v in np.unravel_index(flat, out.shape))
    wrong = out.copy()
    wrong[pos] = _wrong_value(out[pos])
    if wrong[pos] == out[pos] or (out.dtype.kind == "f" and np.isclose(wrong[pos], out[pos], rtol=1e-6)):
        return
    r = sc.check_expected(op, data, indices, updates, wrong, **attrs)
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


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(), st.lists(st.integers(-300, 300), min_size=0, max_size=12))
def test_check_expected_raises_only_scatter_error_on_arbitrary_expected(case, values):
    op, data, indices, updates, attrs = case
    try:
        sc.check_expected(op, data, indices, updates, np.array(values, dtype=np.int64), **attrs)
    except sc.ScatterError:
        pass


def test_versions_accepting_refused_inputs():
    from scatter_core.checking import versions_accepting

    # ScatterElementsUpdate-3 forbids negative indices; version 12 counts them from the end
    with pytest.raises(sc.ScatterError):
        sc.check_expected("ScatterElementsUpdate-3", [1, 2, 3, 4], [-1], [9], [1, 2, 3, 9], axis=0)
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
        sc.check_expected("TensorScatter-24", TS_PAST, TS_WRITE, TS_UPDATE, circular, mode="linear")
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
        r = sc.check_expected(ex.op, ex.data, ex.indices, ex.updates, ex.expected, **ex.attrs)
        output_errata = [e for e in ex.errata if spec_examples.loader.catalogue().errata[e].kind == "example-output"]
        assert r.matches == (not output_errata), (ex.id, r.summary)
        if not r.matches:
            assert r.chains and all(c.expected == ex.expected[c.cell] for c in r.chains)
        checked += 1
    assert checked > 40
