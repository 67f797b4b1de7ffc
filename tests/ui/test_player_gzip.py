"""plotly.js travels gzipped (issue #26 §1.2): Streamlit gzips a component's files anew on every request, but
sends one that is gzip already as it is; the player unpacks it in the browser (js/player.mjs, plotlySource)."""

from __future__ import annotations

import gzip

from scatter_ui.player.component import ASSET_DIR


def test_the_gzipped_plotly_is_exactly_the_plain_file():
    plain = (ASSET_DIR / "plotly-cartesian.min.js").read_bytes()
    packed = (ASSET_DIR / "plotly-cartesian.min.js.gz").read_bytes()
    assert gzip.decompress(packed) == plain  # a plotly.js update must update both (gzip -9 -n -k)
    assert len(packed) < len(plain) / 2

