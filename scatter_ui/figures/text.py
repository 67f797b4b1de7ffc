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


# What Streamlit's Markdown turns into a link by itself (an address, a www. name, an e-mail address), however its
# characters are escaped: such a piece is set as a code span, whose text is never linked.
_MD_AUTOLINK = re.compile(r"(?i)(?:\b(?:https?|ftp)://|\bwww\.)\S+|\b\w[\w.+-]*@[\w-]+(?:\.[\w-]+)+")


def md(text) -> str:
    """``text`` escaped for Markdown: what Markdown (or Streamlit's shortcodes and LaTeX) could
    read is backslash-escaped, so ``1*10*50`` shows as written; ordinary punctuation stays. An address that
    Streamlit would turn into a link (``http://...``, ``www....``, ``a@b.c``) is shown as code, with its text
    unchanged."""
    text = str(text)
    pieces, start = [], 0
    for m in _MD_AUTOLINK.finditer(text):
        pieces.append(_escape(text[start:m.start()]))
        pieces.append(_code_span(m.group(0)))
        start = m.end()
    pieces.append(_escape(text[start:]))
    return _MD_LINE_START.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], "".join(pieces))


def _escape(text: str) -> str:
    return _MD_SHORTCODE.sub(r"\\:", _MD_ANYWHERE.sub(r"\\\1", text))


def _code_span(text: str) -> str:
    """``text`` as an inline code span: a fence of one more backtick than the longest run inside it."""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9]+")


def file_stem(text, limit: int = 60, fallback: str = "case") -> str:
    """A download's file name stem from user or model text (a node name, an operator, a call): ASCII letters
    and digits only, every other run of characters one ``_`` (so ``../``, control characters,
    path separators, look-alike letters and direction marks never reach a file name), at most ``limit``
    characters, ``fallback`` when nothing is left.

    >>> file_stem("ScatterND-18_../../etc/passwd\\x00\\n")
    'ScatterND_18_etc_passwd'
    >>> file_stem("\\u0445\\u202e\\uff58"), file_stem("a" * 100, 8)
    ('case', 'aaaaaaaa')
    """
    stem = _UNSAFE_IN_FILE_NAME.sub("_", str(text)).strip("_")[:limit].strip("_")
    return stem or fallback
