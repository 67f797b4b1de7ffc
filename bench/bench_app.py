"""App speed, measured with Streamlit's AppTest (server side, no browser).

For every spec example: the first render of its explorer page, the median time of a
step change (the rerun the step player's report causes), and the size of the data sent to
the player (figure, frames and captions). Run: python bench/bench_app.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

import spec_examples  # noqa: E402
from scatter_core import OPERATORS  # noqa: E402
from scatter_core import FAMILIES  # noqa: E402
from devtools.apptest import figures, switch_to  # noqa: E402

PAGE = {name: family.slug for name, family in FAMILIES.items()}  # explorer pages' URL paths, from the family records
LIMIT = 50_000_000


def measure(example, repeats: int):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()  # AppTest knows the pages' url paths only after a first run
    switch_to(at, PAGE[OPERATORS[example.op].family])
    at.query_params.update({"op": example.op, "example": example.id})
    t0 = time.perf_counter()
    at.run()
    first = time.perf_counter() - t0
    if at.exception:
        return first, None, None, "exception: " + at.exception[0].value[:80]
    figs = figures(at)
    if not figs:
        return first, None, None, (at.error[0].value[:60] if at.error else "no figure")
    size = max(len(el.proto.json) for el in at.get("bidi_component"))
    family = OPERATORS[example.op].family
    n = figs[0]["n"]
    times = []
    for i in range(repeats):
        at.session_state[f"{family}:step"] = (i + 1) % (n + 1)  # what the player's report sets
        t0 = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t0)
    return first, statistics.median(times), size, ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    rows = []
    for ex in spec_examples.load_all():
        if max(int(np.prod(s)) for s in ex.shapes.values()) > LIMIT:
            rows.append((ex.id, None, None, None, "above the 50M-element limit: refused with a message"))
            continue
        rows.append((ex.id, *measure(ex, repeats)))
    print(f"{'example':58} {'first render':>12} {'step change':>12} {'figure':>10}  note")
    for ex_id, first, step, size, note in rows:
        f = f"{first * 1000:9.0f} ms" if first is not None else "-"
        s = f"{step * 1000:9.0f} ms" if step is not None else "-"
        z = f"{size / 1e6:7.2f} MB" if size is not None else "-"
        print(f"{ex_id:58} {f:>12} {s:>12} {z:>10}  {note}")
    steps = [r[2] for r in rows if r[2] is not None]
    sizes = [r[3] for r in rows if r[3] is not None]
    print(f"\nstep change: median {statistics.median(steps) * 1000:.0f} ms, worst {max(steps) * 1000:.0f} ms; "
          f"largest figure {max(sizes) / 1e6:.2f} MB; examples measured: {len(steps)}")


if __name__ == "__main__":
    main()
