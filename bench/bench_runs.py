"""What an explorer page's runs cost the server, section by section, against a bare Streamlit page (issue #26 §1.2).

Server side, through Streamlit's AppTest (no browser), in one process per side. Every figure is CPU time
(``time.process_time``: every thread of the process; wall time on a shared machine measures the others'
load), the median of ``--repeats`` runs.

* ``bare rerun``: a bare page (a title, a line, an ``st.button``) run again: the unit of every ratio.
  (Its first run in a new AppTest is no baseline: AppTest scans the installed components then.)
* ``first run``: an explorer page's first run in a new session (a student opening a link), with the
  process warm (the class's first student paid for the imports and the caches; printed apart as
  ``cold first run``).
* ``step (fragment)``: what a step costs now: ``ExplorerPage.stepped``, the fragment a step report reruns.
* ``step (whole page)``: a rerun of the whole page at another step (what a step cost before the fragment,
  and what a click in the sidebar still costs).
* sections of the first run: the sidebar (its widgets, the page list, the share link), the step
  fragment, the example header, the editor, the exports, the cross-check and the rules panels (built or
  not: the lazy ones are closed), each timed by a wrapper around its function.

``--profile`` prints cProfile's top functions (cumulative) of one first run instead.
``--app-dir DIR`` measures another checkout (its own packages), e.g. this branch's starting commit
(``git worktree add /tmp/before <commit>``); ``--compare DIR`` runs both, alternately, and prints
them side by side.

Run: python bench/bench_runs.py [--repeats 15] [--compare DIR] [--profile] [--url-query QUERY]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE = '''import streamlit as st
st.title("A bare page")
st.write("A line of text.")
st.button("Run again")
'''
QUERY = {"op": "ScatterElements-18", "example": "onnx-scatterelements-18-example-1"}
SECTIONS = {  # label: (module, attribute path) of the function timed
    "sidebar (widgets)": ("scatter_ui.pages.explorer", "ExplorerPage.sidebar"),
    "sidebar (page list)": ("scatter_ui.pages.navigation", "sidebar_links"),
    "step fragment": ("scatter_ui.pages.explorer", "ExplorerPage.stepped"),
    "example header": ("scatter_ui.parts.panels", "example_header"),
    "editor": ("scatter_ui.pages.explorer", "ExplorerPage.editor"),
    "exports": ("scatter_ui.parts.exports_panel", "render_computed"),
    "cross-check": ("scatter_ui.pages.explorer", "crosscheck_panel"),
    "rules panel": ("scatter_ui.parts.panels", "spec_facts"),
    "share link (_url)": ("scatter_ui.pages.explorer", "ExplorerPage._url"),
}


def _timed(spent: dict, label: str, fn):
    def wrapper(*args, **kwargs):
        t0 = time.thread_time()  # the script thread's CPU
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.thread_time() - t0
    return wrapper


def _instrument(spent: dict) -> None:
    import importlib

    for label, (module, path) in SECTIONS.items():
        mod = importlib.import_module(module)
        owner, name = mod, path
        if "." in path:
            cls, name = path.split(".")
            owner = getattr(mod, cls)
        fn = getattr(owner, name, None)
        if fn is not None:
            setattr(owner, name, _timed(spent, label, fn))


def side(repeats: int, query: dict, profile: bool) -> dict:
    """Measure this process's checkout (the current directory); returns the figures (seconds)."""
    sys.path.insert(0, os.getcwd())
    from streamlit.testing.v1 import AppTest

    family = {"ScatterElements": "elements", "ScatterND": "nd", "ScatterUpdate": "update"}
    page = next(f"app_pages/{v}_family.py" for k, v in family.items() if query["op"].startswith(k))
    fam = page.split("/")[1].split("_")[0]

    def explorer() -> AppTest:
        at = AppTest.from_file(str(Path.cwd() / "app.py"), default_timeout=300)
        at.run()
        at.query_params.clear()
        at.switch_page(page)
        at.query_params.update(query)
        return at

    t0 = time.process_time()
    at = explorer()
    at.run()
    cold = time.process_time() - t0
    assert not at.exception, at.exception
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        from scatter_ui.pages import explorer as ex_mod
        real = ex_mod.ExplorerPage.render

        def render(self):
            prof.enable()
            try:
                return real(self)
            finally:
                prof.disable()
        ex_mod.ExplorerPage.render = render
        for _ in range(3):
            explorer().run()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        return {}
    spent: dict = {}
    _instrument(spent)
    rows: dict = {k: [] for k in ("bare rerun", "first run", "step (whole page)", "step (fragment)")}
    sections: dict = {k: [] for k in SECTIONS}
    for i in range(repeats):
        bare = AppTest.from_string(BARE)
        bare.run()
        t0 = time.process_time()
        bare.run()
        rows["bare rerun"].append(time.process_time() - t0)
        at = explorer()
        spent.clear()
        t0 = time.process_time()
        at.run()
        rows["first run"].append(time.process_time() - t0)
        for label in SECTIONS:
            sections[label].append(spent.get(label, 0.0))
        spent.clear()
        at.session_state[f"{fam}:step"] = 1 + i % 5  # what the player's report sets
        t0 = time.process_time()
        at.run()
        rows["step (whole page)"].append(time.process_time() - t0)
        rows["step (fragment)"].append(spent.get("step fragment", 0.0))
    out = {k: statistics.median(v) for k, v in rows.items()}
    out.update({f"  {k}": statistics.median(v) for k, v in sections.items()})
    out["cold first run"] = cold
    return out


def run_side(app_dir: Path, repeats: int, query: dict) -> dict:
    res = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--side", "--repeats", str(repeats),
                          "--url-query", json.dumps(query)], cwd=app_dir, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(app_dir)})
    if res.returncode:
        raise SystemExit(res.stderr[-3000:])
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--app-dir", type=Path, default=ROOT)
    ap.add_argument("--compare", type=Path, help="another checkout, measured alternately with --app-dir")
    ap.add_argument("--rounds", type=int, default=2, help="with --compare: alternations")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--url-query", default=json.dumps(QUERY))
    ap.add_argument("--side", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    query = json.loads(args.url_query)
    args.repeats = max(1, min(args.repeats, 60))
    if args.side or args.profile:
        os.chdir(args.app_dir if not args.side else os.getcwd())
        out = side(args.repeats, query, args.profile)
        if not args.profile:
            print(json.dumps(out))
        return
    dirs = [args.app_dir] + ([args.compare] if args.compare else [])
    results: dict = {d: [] for d in dirs}
    for _ in range(args.rounds if args.compare else 1):
        for d in (dirs if len(results[dirs[0]]) % 2 == 0 else dirs[::-1]):
            results[d].append(run_side(d, args.repeats, query))
    print(f"CPU ms per run (x the bare rerun); load average {os.getloadavg()[0]:.1f}; {args.repeats} repeats "
          f"per round; {query}")
    head = "".join(f"{str(d)[-28:]:>30}" for d in dirs)
    print(f"{'':32}{head}")
    for key in results[dirs[0]][0]:
        cells = []
        for d in dirs:
            value = statistics.median(r[key] for r in results[d])
            bare = statistics.median(r["bare rerun"] for r in results[d])
            cells.append(f"{value * 1000:9.1f} ms ({value / bare:5.1f}x)")
        print(f"{key:32}" + "".join(f"{c:>30}" for c in cells))


if __name__ == "__main__":
    main()
