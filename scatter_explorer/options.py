"""Command lines that refuse what they do not know: an argparse parser whose every error names the word it
refused and lists what the command takes (exit status 2), and Streamlit's own ``--section.option VALUE``
options, taken apart from a command's own and checked against Streamlit's config before anything starts.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys

# a Streamlit config option on a command line: --section.option (its value follows, or after "=")
STREAMLIT_OPTION = re.compile(r"^--([A-Za-z][\w-]*\.[A-Za-z][\w.-]*)(?:=(.*))?$", re.S)
COMMON = ("server.port", "server.address", "server.headless", "server.maxUploadSize", "theme.base")


class StrictParser(argparse.ArgumentParser):
    """An argparse parser that takes no abbreviation and whose errors say what the command takes.

    >>> p = StrictParser(prog="demo", takes="--n N")
    >>> p.add_argument("--n") and None
    >>> p.parse_args(["--n", "1"]).n
    '1'
    """

    def __init__(self, *args, takes: str = "", **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.takes = takes

    def what_it_takes(self) -> str:
        if self.takes:
            return self.takes
        words, helps = [], []
        for action in self._actions:
            if action.help == argparse.SUPPRESS:
                continue
            if action.option_strings:
                flag = max(action.option_strings, key=len)
                if isinstance(action, argparse._HelpAction):
                    helps.append(flag)
                    continue
                words.append(flag if action.nargs == 0 else f"{flag} {action.metavar or action.dest.upper()}")
            else:
                words.append(action.metavar or action.dest.upper())
        return ", ".join(words + helps)

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {message}\n{self.prog} takes: {self.what_it_takes()}. "
                     f"`{self.prog} --help` says more.\n")

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but a word it does not know is named on its own ("unknown word '9999'")."""
        parsed, rest = self.parse_known_args(args, namespace)
        if rest:
            word = rest[0]
            self.error(f"unknown option {word!r}" if word.startswith("-") else f"unknown word {word!r}")
        return parsed


def streamlit_option_names() -> frozenset[str] | None:
    """Every Streamlit config option a command line may set (``server.port`` ...), None when Streamlit is not
    importable here (a system Python checking a script's words before the venv exists)."""
    try:
        from streamlit import config
    except ImportError:
        return None
    return frozenset(k for k, o in config._config_options_template.items() if not o.sensitive)


def split_streamlit(parser: StrictParser, argv: list[str]) -> tuple[list[str], list[str]]:
    """``argv`` taken apart: (the command's own words, Streamlit's ``--section.option VALUE`` pairs). An option
    Streamlit does not have, or one without its value, is refused through ``parser`` (exit status 2)."""
    own, streamlit = [], []
    known = None
    i = 0
    while i < len(argv):
        word = argv[i]
        found = STREAMLIT_OPTION.match(word)
        if found is None or word == "--":
            own.append(word)
            i += 1
            continue
        name, value = found.group(1), found.group(2)
        if known is None:
            known = streamlit_option_names() or frozenset()
        if known and name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=3)
            parser.error(f"unknown Streamlit option '--{name}'"
                         + (f" (did you mean {', '.join('--' + c for c in close)}?)" if close else
                            " (`streamlit config show` lists Streamlit's options)"))
        if value is None:
            if i + 1 >= len(argv):
                parser.error(f"Streamlit option '--{name}' needs a value (--{name} VALUE)")
            value = argv[i + 1]
            i += 1
        streamlit += [f"--{name}", value]
        i += 1
    return own, streamlit


STREAMLIT_EPILOG = ("Streamlit's own options are taken as --section.option VALUE (e.g. "
                    + ", ".join(f"--{c}" for c in COMMON) + "); `streamlit config show` lists every one.")
