"""The step player's contract (scatter_ui/player/contract.py): the payloads Python sends conform to it, the
reports Python reads are checked against it, the shipped JSON Schema is generated from it, and the player
validates with the same rules (run under Node here; in Chromium in tests/browser/test_browser_player_contract.py).

Every AppTest that reads a player's payload (devtools.apptest.figures -> scatter_ui.player.component.read_payload) checks
it against the contract too: every spec example on its explorer page (tests/ui/test_app.py), large stand-ins,
Practice, the model page.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess

import jsonschema
import numpy as np
import pytest

import scatter_core as sc
import spec_examples
from scatter_core.families import FAMILIES
from scatter_ui.figures import heatmaps as figures
from scatter_ui.player import component as player_mod
from scatter_ui.player import contract as pc
from scatter_ui.figures.heatmaps import StepFigure
from scatter_ui.player.component import ASSET_DIR, read_payload, reported_step
from scatter_ui.player.script import SOURCE_DIR
from tests.support.skipping import skip_or_fail

OPTIONS = {"view": "v", "step": 0, "name": "x", "report": True, "url_param": "step", "plotly_url": "/p.js",
           "contract_url": "/c.json", "check": True, "controls": None,
           "room_below": None}


def payload_of(fig: dict, **options) -> dict:
    return read_payload(player_mod.payload(fig, {**OPTIONS, **options}), check=False)


def runnable_examples():
    out = []
    for ex in spec_examples.load_all():
        try:
            out.append((ex, sc.trace(sc.case(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs))))
        except sc.ScatterError:
            continue  # too large to run: its stand-in is checked below
    return out


EXAMPLES = runnable_examples()


def test_the_shipped_schema_is_generated_from_the_typed_description_and_is_valid_json_schema():
    assert pc.SCHEMA_FILE.parent == ASSET_DIR  # shipped with the player's assets (package data)
    assert pc.SCHEMA_FILE.read_text(encoding="utf-8") == pc.schema_text(), \
        "player-contract.json is stale: python -m scatter_ui.player.contract"
    doc = pc.shipped()
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$ref"] == "#/$defs/Payload"
    assert set(doc["x-messages"]["state"].values()) | set(doc["x-messages"]["triggers"].values()) <= set(doc["$defs"])
    payload = doc["$defs"]["Payload"]
    assert payload["additionalProperties"] is False and "palette" in payload["required"]
    assert doc["$defs"]["StepReport"]["required"] == ["step", "view"]  # n is optional: Python's default has none


@pytest.mark.slow
def test_every_example_of_every_family_sends_a_payload_on_the_contract():
    """At a middle step (the frames of the initial state and the final output come with it, when they fit the
    window); tests/ui/test_app.py opens every example in the app too, and reads its payload back, checked."""
    families = set()
    for ex, trace in EXAMPLES:
        k = len(trace) // 2
        pc.check_payload(payload_of(StepFigure(trace).figure(k), step=k))
        families.add(sc.family_of(trace.spec).name)
    assert families == set(FAMILIES)


def test_an_independent_validator_agrees_the_payloads_conform():
    """jsonschema (draft 2020-12), not the project's own validator, on one example of each family."""
    validator = jsonschema.Draft202012Validator(pc.shipped())
    seen = set()
    for ex, trace in EXAMPLES:
        family = sc.family_of(trace.spec).name
        if family in seen:
            continue
        seen.add(family)
        data = payload_of(StepFigure(trace).figure(len(trace)))
        assert [e.message for e in validator.iter_errors(data)] == []
    assert seen == set(FAMILIES)


def test_large_views_windows_small_multiples_and_pinned_views_are_on_the_contract():
    rng = np.random.default_rng(1)
    big = sc.trace(sc.case("ScatterElements-18", np.zeros(400), rng.integers(0, 400, 900), rng.random(900)))
    sf = StepFigure(big)
    fig = sf.figure(600)
    assert 0 < fig["k0"] <= 600 <= fig["k1"] < fig["n"]  # a window of frames, not all of them
    pc.check_payload(payload_of(fig, step=600))
    cube = sc.trace(sc.case("ScatterND-18", np.zeros((3, 4, 5)), [[0], [2]], np.ones((2, 4, 5))))
    for axis in (0, 1, 2):
        data = payload_of(StepFigure(cube, panel_axis=axis).figure(1))
        assert max(m[0] for m in data["multiples"]) > 1
        pc.check_payload(data)
    wide = sc.trace(sc.case("ScatterElements-18", np.zeros((40, 40)), np.zeros((1, 40), dtype=np.int64), np.ones((1, 40))))
    pinned = StepFigure(wide, pinned={0: 10}, follow=False).figure(3)
    pc.check_payload(payload_of(pinned, step=3))
    from scatter_ui.state import large
    from scatter_ui.pages.explorer import stand_in_figure

    stand_ins = [ex for ex in spec_examples.load_all() if large.too_large(ex)]
    assert stand_ins
    for ex in stand_ins:
        family = sc.OPERATORS[ex.op].family
        sfig = stand_in_figure(ex.op, ex.id, family)
        pc.check_payload(payload_of(sfig.figure(1), view=f"stand-in:{ex.id}", step=1))


def test_practice_payloads_are_on_the_contract():
    """The Practice page's step figure: a window ending at the step, its own colour range, the picked cell
    outlined, fewer controls and no reports."""
    import scatter_practice as sp
    from scatter_ui.pages.practice import STEPPING, STILL, outline, step_figure

    for seed, level in ((1, 1), (2, 3), (5, 2)):
        ex = sp.make_exercise(seed, level)
        for frame in (0, 1):
            fig, view = step_figure(ex, frame)
            outline(fig, view, (0,) * ex.answer.ndim)
            data = payload_of(fig, report=False, url_param=None, step=frame,
                              controls=list(STEPPING if frame else STILL))
            pc.check_payload(data)


def test_the_palette_is_defined_once_and_sent_to_the_player_as_data():
    sf = StepFigure(sc.trace(sc.case("ScatterND-18", np.zeros(4), [[1], [1]], [5.0, 6.0])))
    data = payload_of(sf.figure(2))
    assert data["palette"] == json.loads(json.dumps(pc.PALETTE))
    assert data["palette"]["light"]["value"] == figures.VALUE_SCALE and figures.VALUE_SCALE is pc.VALUE_SCALE
    assert data["figure"]["layout"]["coloraxis"]["colorscale"] == pc.VALUE_SCALE
    assert figures.HIGHLIGHT is pc.HIGHLIGHT and figures.DARK_VALUE_SCALE is pc.DARK_VALUE_SCALE
    # the player's script and player.css hold none of these colours: they read them from the data
    js = player_mod.JS.lower()
    css = (ASSET_DIR / "player.css").read_text(encoding="utf-8").lower()
    colours = {pc.HIGHLIGHT, pc.WRITTEN, pc.DESTINATION, pc.DARK_CELL_TEXT, pc.DARK_WRITTEN}
    colours |= {c for _, c in pc.VALUE_SCALE + pc.DARK_VALUE_SCALE}
    assert [c for c in colours if c.lower() in js or c.lower() in css] == []
    assert "data.palette" in js and "var(--sx-highlight" in css


def test_the_step_report_reader_takes_what_the_browser_sends_and_rejects_the_rest_clearly():
    assert pc.read_step_report({"step": 3, "view": "a", "n": 2}) == {"step": 3, "view": "a", "n": 2}
    assert pc.read_step_report({"step": 0, "view": "a"})["step"] == 0  # Python's own default state
    bad = {
        "x": r"\$: \"x\" is not of type object",
        None: r"\$: null is not of type object",
        (): r"\$: \[\] is not of type object",
        "no view": r"\$: the required key 'view' is missing",
        "string step": r"\$\.step: \"3\" is not of type integer",
        "fraction": r"\$\.step: 1\.5 is not of type integer",
        "bool": r"\$\.step: true is not of type integer",
        "negative": r"\$\.step: -2 is below the minimum 0",
        "extra": r"\$: the key 'cell' is not in the contract",
        "view": r"\$\.view: 7 is not of type string",
        "count": r"\$\.n: 0 is below the minimum 1",
    }
    values = {"x": "x", None: None, (): [], "no view": {"step": 1}, "string step": {"step": "3", "view": "a"},
              "fraction": {"step": 1.5, "view": "a"}, "bool": {"step": True, "view": "a"},
              "negative": {"step": -2, "view": "a"}, "extra": {"step": 1, "view": "a", "cell": [0]},
              "view": {"step": 1, "view": 7}, "count": {"step": 1, "view": "a", "n": 0}}
    for name, pattern in bad.items():
        with pytest.raises(pc.ContractError, match=r"step report is off its contract \(StepReport\): " + pattern):
            pc.read_step_report(values[name])
        assert reported_step({"step": values[name]}, "a") is None  # the page goes on without it


def test_the_cell_click_reader_rejects_what_is_not_a_list_of_coordinates(caplog):
    assert pc.read_cell([2, 0]) == [2, 0] and pc.read_cell([]) == []
    for value, pattern in (("1,2", r"\$: \"1,2\" is not of type array"),
                           ([1.5], r"\$\[0\]: 1\.5 is not of type integer"),
                           ([-1], r"\$\[0\]: -1 is below the minimum 0"),
                           ({"0": 1}, r'\$: \{"0":1\} is not of type array')):
        with pytest.raises(pc.ContractError, match=r"cell click is off its contract \(CellClick\): " + pattern):
            pc.read_cell(value)
    with caplog.at_level("WARNING"):
        assert player_mod.read_cell_click([1, "x"]) is None
    assert "$[1]: \"x\" is not of type integer" in caplog.text


def _good() -> dict:
    t = sc.trace(sc.case("ScatterElements-18", np.zeros((2, 3)), [[1, 0, 1]], [[1.0, 2.0, 3.0]]))
    return payload_of(StepFigure(t).figure(1))


BREACHES = {  # what is changed -> where the error must point
    "a panel too few": (lambda d: d["hidden"].pop(), r"\$\.hidden: 2 item\(s\), fewer than 3"),
    "no step count": (lambda d: d.pop("n"), r"\$: the required key 'n' is missing"),
    "a key the player does not know": (lambda d: d.update(colour="red"),
                                       r"\$: the key 'colour' is not in the contract"),
    "a text that is not text": (lambda d: d["frames"][1]["data"][0]["text"][0].__setitem__(0, 5),
                                r"\$\.frames\[1\]\.data\[0\]\.text\[0\]\[0\]: 5 is not of type string"),
    "a write count below 0": (lambda d: d["frames"][1]["data"][0]["counts"][0].__setitem__(0, -1),
                              r"\$\.frames\[1\]\.data\[0\]\.counts\[0\]\[0\]: -1 is below the minimum 0"),
    "a scale stop without its colour": (lambda d: d["palette"]["dark"]["value"].__setitem__(0, [0.0]),
                                        r"\$\.palette\.dark\.value\[0\]: 1 item\(s\), fewer than 2"),
    "an unknown control": (lambda d: d.update(controls=["play", "rewind"]),
                           r"\$\.controls: \[\"play\",\"rewind\"\] is none of the allowed kinds"),
    "room below as text": (lambda d: d.update(room_below="200px"), r"\$\.room_below: .*200px"),
    "frames out of order": (lambda d: d["frames"].reverse(), r"\$\.frames: named .* not the steps 0\.\.3 in order"),
    "a caption missing": (lambda d: d["captions"].pop("2"), r"\$\.captions: the steps"),
    "an active step outside the frames": (lambda d: d.update(active=5), r"k0 ≤ active ≤ k1 ≤ n does not hold"),
}


def test_the_figure_sends_each_value_as_plain_text_and_the_write_counts_beside_it():
    """Data, not markup: a cell written twice has its value as text and 2 in ``counts`` (the player draws the ×2)."""
    t = sc.trace(sc.case("ScatterElements-18", np.zeros((2, 3)), [[1, 0, 1]], [[1.0, 2.0, 3.0]], axis=1))  # output[0, 1] twice
    data = payload_of(StepFigure(t).figure(3))
    out = data["figure"]["data"][2]
    assert out["text"] == [["2", "3", "0"], ["0", "0", "0"]] and out["counts"] == [[1, 2, 0], [0, 0, 0]]
    by_step = {int(f["name"]): f["data"][f["traces"].index(2)] for f in data["frames"]}
    assert [by_step[k]["counts"][0][1] for k in range(4)] == [0, 1, 1, 2]
    assert [by_step[k]["text"][0][1] for k in range(4)] == ["0", "1", "1", "3"]
    texts = [x for f in data["frames"] for tr in f["data"] for row in tr["text"] for x in row]
    assert texts and not any("<" in x or "×" in x for x in texts)
    assert all("counts" not in data["figure"]["data"][i] for i in (0, 1))  # the inputs are never written


@pytest.mark.parametrize("name", BREACHES)
def test_a_payload_off_the_contract_is_rejected_naming_the_place(name):
    data = _good()
    pc.check_payload(data)
    change, pattern = BREACHES[name]
    change(data)
    with pytest.raises(pc.ContractError, match=r"payload is off its contract .*" + pattern):
        pc.check_payload(data)


def test_read_payload_checks_by_default():
    data = _good()
    data["gap"] = -1
    raw = f"{player_mod.PAYLOAD_MARK}1:0\n".encode() + json.dumps(data).encode()
    with pytest.raises(pc.ContractError, match=r"\$\.gap: -1 is below the minimum 0"):
        read_payload(raw)
    assert read_payload(raw, check=False)["gap"] == -1
    with pytest.raises(pc.ContractError, match="starts with the line sx-player:"):
        read_payload(b"{}\n{}")


def test_the_validator_agrees_with_jsonschema_on_every_breach():
    validator = jsonschema.Draft202012Validator(pc.shipped())
    for name, (change, _) in BREACHES.items():
        data = _good()
        change(data)
        ours = pc.errors(data, "Payload")
        theirs = list(validator.iter_errors(data))
        # the schema's own breaches (the rest are the cross-field rules check_payload adds)
        assert bool(ours) == bool(theirs), name


# -- the player's validator (js/contract.mjs), run by Node on the same payloads ------------------------------------------------------
NODE_CHECK = """
import * as player from %(module)s;
import fs from "node:fs";
const schema = JSON.parse(fs.readFileSync(%(schema)s, "utf8"));
const cases = JSON.parse(fs.readFileSync(%(cases)s, "utf8"));
console.log(JSON.stringify(cases.map(([ref, value]) => player.contractErrors(schema, value, ref, 100))));
"""


def test_player_js_validates_with_the_same_rules_as_python(tmp_path):
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found (scripts/install-test-deps.sh installs it with npm, for axe-core)")
    cases = []
    for ex, trace in EXAMPLES[::7]:  # on the contract: no error on either side
        cases.append(["Payload", payload_of(StepFigure(trace).figure(len(trace) // 2))])
    for name, (change, _) in BREACHES.items():
        data = _good()
        change(data)
        cases.append(["Payload", data])
    cases += [["StepReport", {"step": 2, "view": "v", "n": 1}], ["StepReport", {"step": -1, "view": 3, "x": 0}],
              ["StepReport", {"step": 1.5}], ["CellClick", [0, 2]], ["CellClick", [0, "1", -1]], ["CellClick", "0,1"]]
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    script = NODE_CHECK % {"module": json.dumps((SOURCE_DIR / "contract.mjs").as_uri()),
                           "schema": json.dumps(str(pc.SCHEMA_FILE)), "cases": json.dumps(str(tmp_path / "cases.json"))}
    run = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    in_js = json.loads(run.stdout)
    in_python = [pc.errors(value, ref, limit=100) for ref, value in cases]

    def places(found):  # where each error points (the values' spelling differs: 1.0 vs 1)
        return sorted(re.match(r"(\$[^:]*):", e).group(1) for e in found)

    assert [places(f) for f in in_js] == [places(f) for f in in_python]
    assert in_js[0] == [] and any(in_js)  # both sides accept the good ones and flag the bad ones
    assert in_js[-3:] == [[], ["$[1]: \"1\" is not of type integer", "$[2]: -1 is below the minimum 0"],
                          ["$: \"0,1\" is not of type array"]]
