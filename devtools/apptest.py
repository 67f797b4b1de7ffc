"""Reading what the app sent its step players, from a Streamlit AppTest run (tests and bench/bench_app.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from scatter_ui.player import read_payload


def figures(at: AppTest) -> list[dict]:
    """What each step player on the page was sent: its figure (data, layout) with the frames,
    captions, window (k0, k1), step count n, view id and start step."""
    out = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith(".player"):
            data = read_payload(el.proto.bytes)
            out.append(dict(data, data=data["figure"]["data"], layout=data["figure"]["layout"]))
    return out
