"""Shown text as CommonMark renders it, and the check that an example page shows its source strings as written."""

from __future__ import annotations

import html
import re

import numpy as np
from markdown_it import MarkdownIt


TOO_LARGE = 50_000_000

ARITHMETIC = re.compile(r"\d+(?:\s*[*/+\-^]\s*\d+)+(?:\s*=\s*\d+)?")


_renderer = MarkdownIt("commonmark").enable("strikethrough")


def shown(markdown_source: str) -> str:
    """What a reader sees: the Markdown rendered, tags dropped, entities decoded, spaces collapsed."""
    rendered = _renderer.render(markdown_source)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rendered)).split())


def _page_text(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success")
             for e in getattr(at, kind)]
    return " ".join(shown(str(p)) for p in parts)


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
