"""No Markdown by accident: computed and transcribed text is shown as written."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import spec_examples
from scatter_ui.parts.controls import md
from tests.support.apptest_helpers import open_page
from tests.support.markdown_checks import shown
from tests.support.profiles import examples


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=80))
@settings(max_examples=examples(300), deadline=None)
def test_escaped_text_renders_as_itself(text):
    assert shown(md(text)) == " ".join(text.split())


def test_the_arithmetic_of_the_issue_survives():
    assert shown(md("Position 0: 1*10*50 = 500")) == "Position 0: 1*10*50 = 500"
    assert shown("Position 0: 1*10*50 = 500") != "Position 0: 1*10*50 = 500"  # what went wrong before


EXAMPLES = spec_examples.load_all()


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
