"""No Markdown by accident: computed and transcribed text is shown as written."""

from __future__ import annotations

import html
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import spec_examples
from scatter_ui.parts.controls import md
from tests.support.apptest_helpers import open_page

TOO_LARGE = 50_000_000
ARITHMETIC = re.compile(r"\d+(?:\s*[*/+\-^]\s*\d+)+(?:\s*=\s*\d+)?")
_renderer = MarkdownIt("commonmark").enable("strikethrough")


def shown(markdown_source: str) -> str:
    """What a reader sees: the Markdown rendered, tags dropped, entities decoded, spaces collapsed."""
    rendered = _renderer.render(markdown_source)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rendered)).split())


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=80))
@settings(max_examples=300, deadline=None)
def test_escaped_text_renders_as_itself(text):
    assert shown(md(text)) == " ".join(text.split())


def test_the_arithmetic_of_the_issue_survives():
    assert shown(md("Position 0: 1*10*50 = 500")) == "Position 0: 1*10*50 = 500"
    assert shown("Position 0: 1*10*50 = 500") != "Position 0: 1*10*50 = 500"  # what went wrong before


def _page_text(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success")
             for e in getattr(at, kind)]
    return " ".join(shown(str(p)) for p in parts)


EXAMPLES = spec_examples.load_all()


def example_page_shows_its_source_strings_as_written(at, example):
    """Each example's title and notes appear on its page as written (no Markdown by accident): called by
    tests/ui/test_app.py's one test per example, which opens each example's page once for every check."""
    text = _page_text(at)
    sources = [example.title] + ([example.notes] if example.notes else [])
    for source in sources:
        assert " ".join(source.split()) in text, source
        for expr in ARITHMETIC.findall(source):
            assert expr in text, expr
    if max(int(np.prod(s)) for s in example.shapes.values()) > TOO_LARGE:
        assert "cannot run in full" in " ".join(t.value for t in at.text)  # the reason, as written


def test_the_known_cases_are_checked():
    """The two reported cases are among the source strings tests/ui/test_app.py checks on every example's page."""
    notes = {e.id: e.notes or "" for e in EXAMPLES}
    assert "1*10*50" in notes["ov-scatter-nd-update-15-xml-example-4"]
    assert "2*11*12" in notes["ov-scatter-elements-update-12-example-5"]


def test_an_address_is_set_as_code_so_streamlit_makes_no_link_of_it():
    """Streamlit links bare addresses whatever escaping they carry (tests/browser/test_browser_model.py shows it in the
    page); md() puts each in a code span, shown as written."""
    text = "node http://e.com/a_b*c www.e.org x me@e.net 1*2 `tick` http://t.io/`q`"
    out = md(text)
    assert "`http://e.com/a_b*c`" in out and "`www.e.org`" in out and "`me@e.net`" in out
    assert "`` http://t.io/`q` ``" in out  # a backtick inside: a longer fence (padded, as it ends with one)
    assert shown(out) == text
    assert md("a plain name_1") == "a plain name\\_1"  # no address: escaped as before
