"""The player's JavaScript: its modules' unit tests under Node's test runner (tests/ui/js/*.test.mjs), the join that makes
them the one script Streamlit is sent (scatter_ui/player/script.py), and the rules Python and the player both hold."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
from scatter_ui.figures import views
from scatter_ui.figures.heatmaps import StepFigure
from scatter_ui.player import component as player_mod
from scatter_ui.player.script import ORDER, SOURCE_DIR, join, script
from tests.support.skipping import skip_or_fail

JS_TESTS = Path(__file__).resolve().parent / "js"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found (scripts/install-test-deps.sh installs Node.js: Debian's nodejs, or with npm)")
    return node


def _run_module(node: str, code: str) -> str:
    run = subprocess.run([node, "--input-type=module", "-e", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_the_player_modules_pass_their_unit_tests_under_node():
    node = _node()
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    assert {Path(f).name.removesuffix(".test.mjs") for f in files} >= {"contract", "layout", "drawing", "controls"}
    run = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"node --test failed:\n{run.stdout}\n{run.stderr}"
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout


def test_the_joined_script_is_one_module_with_only_the_player_as_its_export(tmp_path):
    text = script()
    assert text == script() == player_mod.JS  # deterministic: what Streamlit is sent
    exports = [line for line in text.splitlines() if line.startswith(("import ", "export "))]
    assert exports == ["export default function (component) {"]
    assert [line for line in text.splitlines() if line.startswith("// ---- ")] == [f"// ---- {n} ----" for n in ORDER]
    assert set(ORDER) == {p.name for p in SOURCE_DIR.glob("*.mjs")}  # every module is joined
    (tmp_path / "player.mjs").write_text(text, encoding="utf-8")  # it loads: no name declared twice, none missing
    url = json.dumps((tmp_path / "player.mjs").as_uri())
    code = f"const m = await import({url}); console.log(Object.keys(m), typeof m.default)"
    assert _run_module(_node(), code).split() == ["[", "'default'", "]", "function"]


def test_the_join_strips_only_the_simple_import_and_export_forms_and_says_what_it_refuses():
    ok = join({"a.mjs": 'export const A = 1;\nexport function f() { return A; }\n',
               "b.mjs": 'import { A, f } from "./a.mjs";\nimport {\n  f as g } from "./a.mjs";\n'
                        "export default function () { return f() + A; }\n"},
              order=("a.mjs", "b.mjs"))
    assert ok == ("// ---- a.mjs ----\nconst A = 1;\nfunction f() { return A; }\n\n"
                  "// ---- b.mjs ----\nexport default function () { return f() + A; }\n")
    refused = {
        "a later module": ({"a.mjs": 'import { B } from "./b.mjs";\n', "b.mjs": "export const B = 1;\n"},
                           "a.mjs imports ./b.mjs, which is not one of the modules before it"),
        "another form": ({"a.mjs": "export { A };\nconst A = 1;\n", "b.mjs": ""},
                         "a.mjs, line 1 (after the joins): 'export { A };'"),
        "a default not last": ({"a.mjs": "export default function () {}\n", "b.mjs": ""}, "a.mjs, line 1"),
        "a package": ({"a.mjs": 'import fs from "node:fs";\n', "b.mjs": ""}, "a.mjs, line 1"),
    }
    for name, (sources, message) in refused.items():
        with pytest.raises(ValueError) as info:
            join(sources, order=("a.mjs", "b.mjs"))
        assert message in str(info.value), (name, str(info.value))


def test_the_rules_python_and_the_player_both_hold_agree():
    """The short window, the fewest columns of a panel and the rerun's event name are written in both languages; the
    player reads a clicked cell's coordinates from the hover text Python writes."""
    t = sc.trace(sc.case("ScatterND-18", np.zeros((3, 4)), [[1, 2], [1, 2], [0, 3]], [5.0, 6.0, 7.0]))
    hover = StepFigure(t).figure(2)["data"][2]["customdata"]
    code = f"""
import * as layout from {json.dumps((SOURCE_DIR / "layout.mjs").as_uri())};
import * as controls from {json.dumps((SOURCE_DIR / "controls.mjs").as_uri())};
import * as contract from {json.dumps((SOURCE_DIR / "contract.mjs").as_uri())};
const hover = {json.dumps(hover)};
console.log(JSON.stringify({{ SHORT: layout.SHORT, MIN_COLUMNS: layout.MIN_COLUMNS, RERUN_EVENT: controls.RERUN_EVENT,
                             cells: hover.map((row) => row.map((h) => contract.cellOfHover(h))) }}));
"""
    got = json.loads(_run_module(_node(), code))
    assert got["SHORT"] == player_mod.SHORT_WINDOW
    assert got["MIN_COLUMNS"] == views.MIN_COLUMNS
    assert got["RERUN_EVENT"] == player_mod.RERUN_EVENT
    assert got["cells"] == [[[r, c] for c in range(4)] for r in range(3)]
