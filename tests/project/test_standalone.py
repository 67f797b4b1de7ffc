"""A product that stands alone (issue #34): no path outside the repository in anything shipped, the project's own
docs/semantics.md kept equal to the table of runtime facts, and `scatter-explorer verify-facts`."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import runtime_check as rc
import scatter_core as sc
from runtime_check import fact_checks, semantics_doc
from scatter_explorer import verify_facts
from tests.support.skipping import require_or_skip

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("../shared", "/work/", "shared/semantics")  # paths a user of the product does not have
PACKAGES = ("scatter_explorer", "scatter_core", "spec_examples", "scatter_ui", "runtime_check", "scatter_export",
            "framework_map", "from_code", "scatter_practice", "scatter_models")
TEXT = (".py", ".json", ".js", ".mjs", ".css", ".html", ".md", ".toml", ".txt", ".mako", ".xml", ".ini", ".cfg")


def shipped_files(root: Path) -> list[Path]:
    """Every text file the wheel ships or the app reads: the packages (their data too), app.py, app_pages/."""
    found = [root / "app.py", *sorted((root / "app_pages").rglob("*.py"))]
    for package in PACKAGES:
        found += sorted(p for p in (root / package).rglob("*") if p.is_file() and p.suffix in TEXT
                        and "__pycache__" not in p.parts)
    return found


def outside_paths(root: Path) -> list[str]:
    """"file: path" for each mention of a path outside the repository in a shipped file."""
    return sorted(f"{p.relative_to(root)}: {word}" for p in shipped_files(root)
            for word in OUTSIDE if word in p.read_text(encoding="utf-8", errors="replace"))


def test_no_shipped_file_names_a_path_outside_the_repository():
    files = shipped_files(ROOT)
    assert ROOT / "spec_examples" / "data" / "errata.json" in files and ROOT / "app_pages" / "model.py" in files
    assert len(files) > 100
    assert outside_paths(ROOT) == []


def test_the_scan_finds_a_planted_path(tmp_path):
    for rel in ("app.py", "spec_examples/data/errata.json", "scatter_ui/figures/specdiff.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("clean", encoding="utf-8")
    (tmp_path / "app_pages").mkdir()
    assert outside_paths(tmp_path) == []
    (tmp_path / "spec_examples/data/errata.json").write_text('{"runtimes": "(from ../shared/semantics.md)"}')
    (tmp_path / "scatter_ui/figures/specdiff.py").write_text('SOURCE = "/work/notes.md"')
    assert outside_paths(tmp_path) == ["scatter_ui/figures/specdiff.py: /work/",
                                       "spec_examples/data/errata.json: ../shared",
                                       "spec_examples/data/errata.json: shared/semantics"]


def test_docs_semantics_md_is_written_from_the_table():
    text = (ROOT / "docs" / "semantics.md").read_text(encoding="utf-8")
    assert semantics_doc.updated(text, semantics_doc.render()) == text, \
        "docs/semantics.md is out of date: run python -m runtime_check.semantics_doc"
    for f in sc.FACTS:  # described facts have their entry with how they were verified; the others (NEW) none
        assert (f"(`{f.id}`)" in text) == f.documented, f.id
    ort = sc.FACT_BY_ID["ort-scatter-9-negative-index"]
    assert f"`{ort.source.where}`, on onnxruntime {sc.verified_versions()['onnxruntime']}" in text


def test_the_rendered_facts_change_with_the_table():
    fact = dataclasses.replace(sc.FACT_BY_ID["ov-int64"], text="a planted behaviour")
    assert "a planted behaviour" in semantics_doc.render([fact])
    assert semantics_doc.render([dataclasses.replace(fact, documented=False)]).count("- **") == 0


# -- scatter-explorer verify-facts ------------------------------------------------------------------------------
def test_every_fact_has_a_check():
    assert set(fact_checks.CHECKS) == set(sc.FACT_BY_ID)
    assert all(fact_checks.CHECKS[f.id] for f in sc.FACTS)


@pytest.mark.runtimes
def test_verify_facts_names_a_fact_that_no_longer_holds(monkeypatch, capsys):
    """A planted wrong expectation (the CPU plugin said to keep int64 whole) fails the fact: exit status 1."""
    require_or_skip("openvino-cpu", "openvino-reference", "openvino-onnx")
    wrong = tuple(dataclasses.replace(p, output=[2**40 + 3, 1]) if p.runtime == "openvino-cpu" else p
                  for p in fact_checks.CHECKS["ov-int64"])
    monkeypatch.setitem(fact_checks.CHECKS, "ov-int64", wrong)
    assert verify_facts.main(["--fact", "ov-int64", "--fact", "ov-f16"]) == 1
    out = capsys.readouterr().out
    assert "No longer hold: 1\n  ov-int64\n" in out and "Still hold: 1\n  ov-f16\n" in out
    assert "FAILS: openvino-cpu ScatterUpdate-3: expected output [1099511627779, 1]; got output [3, 1]" in out
    assert f"openvino-cpu: installed {rc.available()['openvino-cpu']}, verified on " in out


def test_verify_facts_reports_a_missing_runtime_as_not_run(capsys):
    with rc.pretend_installed({"onnxruntime": None}):
        assert verify_facts.main(["--fact", "ort-nd-int64", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    (fact,) = result["facts"]
    assert fact["status"] == "not run" and fact["details"] == ["onnxruntime is not installed"]
    assert fact["versions"]["onnxruntime"] == {"installed": None, "verified": sc.verified_versions()["onnxruntime"]}
    assert result["summary"] == {"holds": 0, "fails": 0, "not run": 1, "no check": 0}


@pytest.mark.runtimes
def test_verify_facts_command_holds_on_the_verified_runtimes_and_says_the_versions():
    require_or_skip(*rc.RUNTIMES)
    env = {**os.environ, "PYTHONPATH": str(ROOT), rc.core.PRETEND_ENV: "onnxruntime=1.32.0,openvino-reference="}
    done = subprocess.run([sys.executable, "-m", "scatter_explorer.cli", "verify-facts", "--fact", "ov-int64",
                           "--fact", "ort-scatter-9-negative-index", "--fact", "ov-ref-mean-i8"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    verified = sc.verified_versions()
    assert f"onnxruntime: installed 1.32.0, verified on {verified['onnxruntime']}" in done.stdout
    assert "Not run (a runtime is missing): 2\n  ov-int64\n" in done.stdout  # it needs the OpenVINO reference
    assert "Still hold: 1\n  ort-scatter-9-negative-index\n" in done.stdout
    assert done.stdout.rstrip().endswith("3 facts: 0 fails, 2 not run, 0 no check, 1 holds.")


def test_verify_facts_refuses_an_unknown_fact_with_exit_status_2(capsys):
    assert verify_facts.main(["--fact", "ov-int65"]) == 2
    assert "--fact 'ov-int65' is not a fact of the table" in capsys.readouterr().err
