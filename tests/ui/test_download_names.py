"""Download names built from user or model text (issue 35 §3): a node or operator name holding ``../``, control
characters, path separators or look-alike letters never reaches a file name (scatter_ui.figures.text.file_stem)."""

from __future__ import annotations

import pytest

from scatter_ui.figures.text import file_stem
from tests.support.apptest_models import model_page_with

HOSTILE = ["../../etc/passwd", "..\\..\\windows\\system32", "a\x00b\nc\rd\x1b[31m", "\u202eexe.txt",
           "\u0445\uff58\u00e9", "/abs/path", "..", "", "   ", "CON", "name with spaces.onnx"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_file_stem_is_ascii_letters_digits_and_underscores(text):
    stem = file_stem(text)
    assert stem and stem.replace("_", "").isalnum() and stem.isascii()
    assert "/" not in stem and "\\" not in stem and ".." not in stem and not stem.startswith("_")


def test_a_file_stem_keeps_ordinary_names_and_the_limit():
    assert file_stem("scatterelements-18") == "scatterelements_18"
    assert file_stem("x" * 500) == "x" * 60 and file_stem("x" * 500, 10) == "x" * 10
    assert file_stem("\u0445") == "case"  # a Cyrillic look-alike alone: nothing ASCII is left


def test_the_model_pages_bug_report_is_named_from_a_hostile_node_name_safely(monkeypatch):
    from onnx import helper as h
    from streamlit.delta_generator import DeltaGenerator

    import scatter_models as sm
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node

    name = "../../\x1b[31m\u202eevil\x00/\u0445"
    m = sm.open_model(graph_model([scatter_nd_node(name=name)], value_infos(), [h.make_tensor_value_info("o", 1, [4])])
                      .SerializeToString())
    recorded, original = [], DeltaGenerator.download_button

    def recording(self, label, *args, **kwargs):
        recorded.append(kwargs.get("file_name") or "")
        return original(self, label, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recording)
    at = model_page_with(m)
    at.button(key="model:capture").click().run()
    assert not at.exception
    names = [n for n in recorded if n]
    bug = [n for n in names if n.endswith("_bug_report.zip")]
    assert bug, names
    for n in names:
        assert n.isascii() and "/" not in n and "\\" not in n and ".." not in n and "\x00" not in n, n
    assert bug[0].startswith("ScatterND_") and "evil" in bug[0]
