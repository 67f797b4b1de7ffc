"""Real browser, hostile inputs on "Your model": a zip bomb, a zip with a path outside it, a .pb that is not a
tensor, a tensor of 10^9 elements declared in 100 bytes, pickled object arrays, an input no model has. Each gets a
message naming the file and the rule, the server's memory stays within 100 MB of where it started, and a zipped
test_data_set_0 folder then captures."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from tests.support.browser_support import real_errors, watched_page
from tests.support.browser_model import settle
from tests.support.model_builders import huge_npy_header, huge_pb, npz_bytes, pb_bytes, zip_bytes

pytestmark = pytest.mark.browser

INPUTS = "[data-testid=stSidebar] input[type=file] >> nth=1"  # the second uploader: the inputs


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))


def _bomb(path):
    from numpy.lib import format as npformat

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("past_key.npy", "w", force_zip64=True) as m:
            npformat.write_array_header_1_0(m, {"descr": "|u1", "fortran_order": False, "shape": (10**9,)})
            chunk, left = bytes(2**24), 10**9
            while left > 0:
                m.write(chunk[:min(left, len(chunk))])
                left -= len(chunk)
    return path


def _pickled_npz() -> bytes:
    buf = io.BytesIO()
    np.savez(buf, p=np.array([{"x": 1}, 2], dtype=object))
    return buf.getvalue()


def _test_data_set_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("test_data_set_0/input_0.pb", pb_bytes(np.zeros((2, 6, 4), np.float32), "past_key"))
        z.writestr("test_data_set_0/input_3.pb", pb_bytes(np.array([5]), "p"))
        z.writestr("test_data_set_0/output_0.pb", b"expected output: not read")
    return buf.getvalue()


def test_hostile_inputs_are_named_and_the_server_keeps_its_memory(server, browser, tmp_path):
    files = {
        "bomb.npz": _bomb(tmp_path / "bomb.npz").read_bytes(),
        "escape.zip": zip_bytes({"test_data_set_0/../../etc/input_0.pb": pb_bytes(np.array([1]), "p")}),
        "input_0.pb": b"\x08\x96\x01 this is not a tensor \xff\xff",
        "huge.zip": zip_bytes({"test_data_set_0/input_1.pb": huge_pb()}),
        "new_key.npy": huge_npy_header(),
        "objects.npz": _pickled_npz(),
        "other.npz": npz_bytes(nope=np.ones(3)),
    }
    expected = {  # what each message must say besides the file's name
        "bomb.npz": "capture budget", "escape.zip": "outside the zip", "input_0.pb": "not an ONNX TensorProto",
        "huge.zip": "1,000,000,000 elements", "new_key.npy": "8,000,000,000 bytes", "objects.npz": "never unpickled",
        "other.npz": "'nope'",
    }
    ctx, pg = watched_page(browser, viewport={"width": 1400, "height": 1000})
    pg.goto(f"{server.url}/model?sample=kv_cache")
    pg.get_by_text("1 of 1 scatter nodes").first.wait_for(timeout=90_000)
    settle(pg)
    start = _rss(server.proc.pid)
    peak = start
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        pg.locator(INPUTS).set_input_files(str(path))
        alert = pg.locator("[data-testid=stMain] [data-testid=stAlertContentError]", has_text=name)
        alert.first.wait_for(timeout=60_000)
        settle(pg)
        text = " ".join(alert.first.inner_text().split())
        assert expected[name] in text and "Traceback" not in text, (name, text)
        peak = max(peak, _rss(server.proc.pid))
        chips = pg.locator("[data-testid=stSidebar] [data-testid=stFileChip]", has_text=name[:8])
        chips.first.locator("[data-testid=stFileChipDeleteBtn]").click()  # removed with ×, as a user would
        pg.locator("[data-testid=stMain] [data-testid=stAlertContentError]", has_text=name).first.wait_for(
            state="detached", timeout=30_000)
        settle(pg)
    assert peak - start < 100 * 2**20, (start, peak)
    # what an engineer has: a zipped test_data_set_0 folder fixes the cache's dim and captures
    path = tmp_path / "test_data_set_0.zip"
    path.write_bytes(_test_data_set_zip())
    pg.locator(INPUTS).set_input_files(str(path))
    settle(pg)
    pg.get_by_role("button", name="Capture").click()
    pg.get_by_text("Captured nodes").first.wait_for(timeout=120_000)
    settle(pg)
    body = pg.locator("[data-testid=stMain]").inner_text()
    assert "dims max_seq=6" in body and "matches ScatterND-18" in body, body[-1500:]
    assert _rss(server.proc.pid) - start < 100 * 2**20
    assert real_errors(pg.errors) == []
    ctx.close()
