"""Real browser, as a new user: upload a sample model on /model, see its node, capture, open the node in the
player, step, and download the bug report."""

from __future__ import annotations

import io
import zipfile

import pytest

from scatter_models.samples import sample_path
from tests.support.browser_support import SCREENSHOTS, real_errors, watched_page
from tests.support.browser_model import settle

pytestmark = pytest.mark.browser

PLAYER = "[data-testid=scatter-player]"
FIGURE = "[data-testid=scatter-figure]"


def test_upload_capture_step_and_download_bug_report(server, browser, tmp_path):
    ctx, pg = watched_page(browser, viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    errors = pg.errors
    pg.goto(server.url)
    pg.get_by_text("Every worked example").first.wait_for(timeout=90_000)
    pg.locator("[data-testid=stSidebar] a[data-testid=stPageLink-NavLink]", has_text="Your model").click()
    pg.get_by_text("Upload a model in the sidebar").first.wait_for(timeout=90_000)
    settle(pg)

    pg.locator("[data-testid=stSidebar] input[type=file]").first.set_input_files(str(sample_path("index_put")))
    pg.get_by_text("1 of 1 scatter nodes").first.wait_for(timeout=90_000)
    settle(pg)
    body = pg.locator("[data-testid=stMain]").inner_text()
    assert "index_put_accumulate.onnx" in body and "1 scatter node(s)" in body
    pg.wait_for_selector("[data-testid=stDataFrame]", timeout=30_000)
    assert pg.locator("[data-testid=stDataFrame]").count() == 1

    pg.get_by_role("button", name="Capture").click()
    pg.get_by_text("Captured nodes").first.wait_for(timeout=120_000)
    settle(pg)
    body = pg.locator("[data-testid=stMain]").inner_text()
    assert "index_put_accumulate · ScatterND-18" in body
    assert "The output from onnxruntime matches ScatterND-18" in body  # the deployed runtime by default
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=90_000)
    assert pg.locator(PLAYER).get_attribute("data-step") == "0"
    pg.get_by_test_id("player-next").click()
    pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '1'", timeout=30_000)
    assert pg.locator("[data-testid=scatter-caption]").inner_text().startswith("step 1 of 5")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / "model-index-put-captured.png"))

    settle(pg)  # the step's fragment rerun has ended: the button clicked is the one on the page
    with pg.expect_download(timeout=90_000) as download:  # the report is built on the click (slow on a busy machine)
        pg.get_by_role("button", name="Bug report (.zip)").click()
    path = tmp_path / "report.zip"
    download.value.save_as(path)
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        names = set(z.namelist())
        readme = z.read("README.md").decode()
    assert {"README.md", "tensors.npz", "test_case.py", "onnx_case.zip"} <= names
    assert "ScatterND-18" in readme and "written more than once" in readme
    assert "## Cross-check on every installed runtime" in readme  # built on the click, in child processes
    listed = {line.split("`")[1] for line in readme.split("## Files", 1)[1].splitlines() if line.startswith("- `")}
    assert listed == names - {"README.md"}  # exactly the files it holds
    assert real_errors(errors) == []
    ctx.close()


def _server_output(server) -> str:
    """What the server has printed so far (read without blocking: its stdout is a pipe)."""
    import os

    fd = server.proc.stdout.fileno()
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def test_every_download_of_a_captured_node_works(server, browser, tmp_path):
    """Issue #23's take-away: on /model?sample=index_put, after Capture, the bug report and every button under
    'Export this case' give a file, with no error on the page, in the console or in the server's output."""
    _server_output(server)  # what earlier tests left
    ctx, pg = watched_page(browser, viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    errors = pg.errors
    pg.goto(server.url + "/model?sample=index_put")
    pg.get_by_role("button", name="Capture").wait_for(timeout=90_000)
    settle(pg)
    pg.get_by_role("button", name="Capture").click()
    pg.get_by_text("Captured nodes").first.wait_for(timeout=120_000)
    settle(pg)
    pg.get_by_text("Export this case").first.click()
    pg.get_by_role("button", name="pytest test (.py)").wait_for(timeout=60_000)
    settle(pg)
    buttons = pg.locator("[data-testid=stDownloadButton] button:visible")
    labels = [buttons.nth(i).inner_text().splitlines()[-1] for i in range(buttons.count())]
    assert {"Bug report (.zip)", "pytest test (.py)", "spec_examples JSON", "NumPy loop (.py)",
            "ONNX model + tensors (.zip)"} <= set(labels)
    for i, label in enumerate(labels):
        with pg.expect_download(timeout=60_000) as download:
            buttons.nth(i).click()
        path = tmp_path / download.value.suggested_filename
        download.value.save_as(path)
        body = path.read_bytes()
        assert body and b"export failed" not in body and not body.startswith(b"# export failed"), label
        if path.suffix == ".zip":
            with zipfile.ZipFile(io.BytesIO(body)) as z:
                assert "ERROR.txt" not in z.namelist(), label
        settle(pg)
    main = pg.locator("[data-testid=stMain]")
    assert main.locator("[data-testid=stException]").count() == 0
    assert "Failed to generate file" not in main.inner_text()
    assert real_errors(errors) == []
    out = _server_output(server)
    assert "Traceback" not in out and "Error executing deferred callable" not in out, out[-2000:]
    ctx.close()


def test_a_node_named_with_an_address_and_markdown_shows_that_text_and_no_link(server, browser, tmp_path):
    """Streamlit's Markdown links a bare address (http://..., www...., a@b.c) however its characters are escaped:
    md() sets such a piece as code, so a model's node name is shown as written, with no link made of it."""
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node

    name = "see http://example.com/x www.example.org me@example.net **b** [l](u)"
    path = tmp_path / "named.onnx"
    from onnx import helper as h

    path.write_bytes(graph_model([scatter_nd_node(name=name)], value_infos(), [h.make_tensor_value_info("o", 1, [4])])
                     .SerializeToString())
    ctx, pg = watched_page(browser, viewport={"width": 1400, "height": 1000})
    pg.goto(f"{server.url}/model")
    pg.get_by_text("Upload a model in the sidebar").first.wait_for(timeout=90_000)
    settle(pg)
    pg.locator("[data-testid=stSidebar] input[type=file]").first.set_input_files(str(path))
    pg.get_by_text("1 of 1 scatter nodes").first.wait_for(timeout=90_000)
    settle(pg)
    pg.get_by_role("button", name="Capture").click()
    pg.get_by_text("Captured nodes").first.wait_for(timeout=120_000)
    settle(pg)
    main = pg.locator("[data-testid=stMain]")
    assert name in " ".join(main.inner_text().split())  # the name as written, asterisks and brackets included
    hrefs = main.locator("a").evaluate_all("els => els.map(a => a.getAttribute('href') || '')")
    assert not [h for h in hrefs if "example." in h or h.startswith("mailto:") or h == "u"], hrefs
    assert real_errors(pg.errors) == []
    ctx.close()
