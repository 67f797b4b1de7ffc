"""Checks on a pasted call's characters before it is parsed (From your code).

A name that only looks like one the reader knows (Cyrillic ``х`` for ``x``, fullwidth ``ｔｏｒｃｈ``,
which Python itself reads as ``torch``) would be read as another name or silently as the right one:
names are read in ASCII only, and the message names the character, its code point and the ASCII
letter it looks like. Control characters are named too. Strings and comments may hold any character.
The work is one pass of Python's tokenizer over a text already bounded in length.
"""

from __future__ import annotations

import io
import tokenize
import unicodedata

import scatter_core as sc

# letters of other scripts that look like ASCII ones (a few; NFKC covers the fullwidth and styled forms)
LOOK_ALIKES = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
               "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ο": "o", "α": "a", "ν": "v", "ι": "i", "κ": "k",
               "τ": "t", "ρ": "p", "ѵ": "v", "ɡ": "g", "ı": "i"}
FREE_TOKENS = (tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)


def _char(ch: str) -> str:
    name = unicodedata.name(ch, "a control character" if unicodedata.category(ch) == "Cc" else "unnamed")
    plain = LOOK_ALIKES.get(ch) or unicodedata.normalize("NFKC", ch)
    alike = f", which looks like {plain!r}" if plain.isascii() and plain.isprintable() and plain != ch else ""
    return f"{ch!r} (U+{ord(ch):04X} {name}){alike}"


def check_call_text(text: str) -> None:
    """Refuse control characters anywhere but tabs and line ends, and any non-ASCII character outside a
    string or a comment, with a ScatterError naming it (argument ``call``, rule ``ascii-names``).

    >>> check_call_text('x.scatter_(0, idx, src)  # ≥ 0')
    >>> check_call_text('х.scatter_(0, idx, src)')
    Traceback (most recent call last):
    ...
    scatter_core.errors.ScatterError: 'х' (U+0445 CYRILLIC SMALL LETTER HA), which looks like 'x', in 'х'; names are read in ASCII only: retype it
    """
    for ch in text:
        if (ch < " " and ch not in "\t\n\r") or ch == "\x7f":
            raise sc.ScatterError(f"the text holds a control character, {_char(ch)}; paste the call as plain text",
                                  argument="call", rule="ascii-names")
    if text.isascii():
        return
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text.strip()).readline))
    except (tokenize.TokenError, SyntaxError, ValueError):
        tokens = None  # the parser names the syntax error itself; still, no foreign letter gets through
    spans = [t.string for t in tokens if t.type not in FREE_TOKENS] if tokens is not None else [text]
    for span in spans:
        for ch in span:
            if not ch.isascii():
                where = f", in {span[:40]!r}" if tokens is not None else ""
                raise sc.ScatterError(f"{_char(ch)}{where}; names are read in ASCII only: retype it",
                                      argument="call", rule="ascii-names")
