"""The player's one script: its ES modules (``js/*.mjs``) joined in a fixed order (Streamlit imports it from a Blob URL).

A module imported from a Blob URL cannot import others by a relative path, and a second file would cost the page a
round trip before the first figure; so the modules, which Node's tests import one by one, are joined here: each
``import { ... } from "./name.mjs";`` line is dropped (the name's module comes earlier in ``ORDER``), ``export``
is dropped before a declaration, and the last module keeps its ``export default``. Any other import or export is
refused, by file and line. Deterministic: the same files give the same script.
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent / "js"
ORDER = ("contract.mjs", "layout.mjs", "drawing.mjs", "controls.mjs", "player.mjs")  # each imports only earlier ones
_IMPORT = re.compile(r'^import\s*\{[^}]*\}\s*from\s*"\./([\w-]+\.mjs)";[ \t]*\n', re.M)
_EXPORT = re.compile(r"^export (?=(?:const|let|function|async function|class) )", re.M)
_OTHER = re.compile(r"^[ \t]*(?:import|export)\b.*$", re.M)


def join(sources: dict[str, str], order: tuple[str, ...] = ORDER) -> str:
    """The modules ``sources`` ({file name: text}) as one ES module, in ``order``; ValueError names a module that
    imports a later or unknown one, or has an import or export of another form."""
    parts = []
    for at, name in enumerate(order):
        text = sources[name]
        for used in _IMPORT.findall(text):
            if used not in order[:at]:
                raise ValueError(f"player script: {name} imports ./{used}, which is not one of the modules before it "
                                 f"in ORDER {order[:at]}")
        text = _EXPORT.sub("", _IMPORT.sub("", text))
        if at == len(order) - 1:
            text = re.sub(r"^export default (?=function|class|async function)", "\0", text, flags=re.M)
        bad = _OTHER.search(text)
        if bad:
            line = text[:bad.start()].count("\n") + 1
            raise ValueError(f"player script: {name}, line {line} (after the joins): {bad.group(0).strip()!r} is not an "
                             f'import of the form import {{ a, b }} from "./x.mjs"; nor export before a declaration '
                             f"(and export default only in the last module, {order[-1]})")
        parts.append(f"// ---- {name} ----\n" + text.replace("\0", "export default "))
    return "\n".join(parts)


def script() -> str:
    """The player's script from the modules in :data:`SOURCE_DIR`."""
    return join({name: (SOURCE_DIR / name).read_text(encoding="utf-8") for name in ORDER})


if __name__ == "__main__":  # print it (e.g. to look at, or to load by hand)
    print(script(), end="")
