"""Text for Markdown elements: the app's one escaper (no streamlit import, so pure modules such as
``specdiff`` use it too).

Computed and transcribed text goes through :func:`md` before it reaches ``st.markdown`` (or any
element that renders Markdown): a ``*`` that disappears turns true arithmetic into false.
"""

from __future__ import annotations

import re

_MD_ANYWHERE = re.compile(r"([\\`*_\[\]<>$~|&])")  # emphasis, code, links, HTML, LaTeX, strikes, tables
_MD_SHORTCODE = re.compile(r":(?=[A-Za-z_])")  # Streamlit's :emoji: and :material/...: shortcodes
_MD_LINE_START = re.compile(r"^(\s*)([-+=#>!]|\d+[.)])", re.M)  # lists, headings, quotes, setext lines


def md(text) -> str:
    """``text`` escaped for Markdown: what Markdown (or Streamlit's shortcodes and LaTeX) could
    read is backslash-escaped, so ``1*10*50`` shows as written; ordinary punctuation stays."""
    out = _MD_ANYWHERE.sub(r"\\\1", str(text))
    out = _MD_SHORTCODE.sub(r"\\:", out)
    return _MD_LINE_START.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], out)
