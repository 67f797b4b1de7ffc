"""The facts part of docs/semantics.md, written from the one table of runtime facts.

``python -m runtime_check.semantics_doc`` rewrites the part between the two markers of docs/semantics.md
from ``scatter_core.FACTS``: each documented fact in its own words, under its topic, with how it was
verified (its source, the versions, and the command that checks it again). tests/project/test_standalone.py keeps
the file equal to :func:`render`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import scatter_core

BEGIN = "<!-- facts: written by `python -m runtime_check.semantics_doc`; edit scatter_core/facts.py -->"
END = "<!-- end of facts -->"
DOC = Path(__file__).resolve().parent.parent / "docs" / "semantics.md"


def _fact_lines(f: scatter_core.Fact) -> list[str]:
    where = f"`{f.source.where}`" if f.source.kind == "test" else f"<{f.source.where}>"
    how = {"test": f"observed by this project's test {where}",
           "issue": f"reported in the upstream issue {where}",
           "spec": f"from the spec page {where}"}[f.source.kind]
    if f.source.test:
        how += f", checked by this project's test `{f.source.test}`"
    lines = [f"- **{f.sentence().rstrip('.')}.** (`{f.id}`)",
             f"  Verified: {how}, on {f.verified_words()}; `scatter-explorer verify-facts --fact {f.id}` runs its "
             f"check again."]
    if f.status != "holds":
        lines.append(f"  Status on those versions: {f.status}"
                     + (f" ({scatter_core.resolve_versions(f.holds_in, scatter_core.verified_versions())})"
                        if f.holds_in else "") + ".")
    return lines


def render(facts=None) -> str:
    """The documented facts as Markdown, grouped by topic in table order."""
    facts = [f for f in (scatter_core.FACTS if facts is None else facts) if f.documented]
    topics: dict[str, list] = {}
    for f in facts:
        topics.setdefault(f.topic, []).append(f)
    out = [BEGIN, ""]
    for topic, mine in topics.items():
        out += [f"### {topic}", ""]
        for f in mine:
            out += _fact_lines(f)
        out.append("")
    return "\n".join(out + [END])


def updated(text: str, block: str) -> str:
    """``text`` with the part between the markers replaced by ``block`` (which carries the markers)."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + block + text[end:]


def main() -> int:
    DOC.write_text(updated(DOC.read_text(encoding="utf-8"), render()), encoding="utf-8")
    print(f"wrote the facts of {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
