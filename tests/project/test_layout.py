"""The test suite's own layout (tests/README.md): a folder per package, helpers in tests/support/, no test module
importing another (or conftest), the test files the repository names existing, and the packages' private names
used by tests held to a short, reasoned list."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
FOLDERS = {"core", "ui", "from_code", "export", "models", "practice", "runtimes", "project", "browser"}
PACKAGES = ("scatter_core", "scatter_ui", "from_code", "framework_map", "scatter_export", "scatter_models",
            "scatter_practice", "runtime_check", "spec_examples", "scatter_explorer", "devtools")


def python_files():
    return sorted(p for p in TESTS.rglob("*.py") if "data" not in p.relative_to(TESTS).parts)


def imported_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` imports (inside functions too), as absolute dotted names."""
    package = ".".join(path.relative_to(root).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found += [(node.lineno, base)] + [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def test_every_test_module_sits_in_its_packages_folder_and_helpers_in_support():
    loose = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert loose == [], f"test modules directly in tests/ (put them in a package's folder, tests/README.md): {loose}"
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))}
    assert folders == FOLDERS | {"support", "data"}, "a new folder under tests/: add it to FOLDERS and tests/README.md"
    for folder in FOLDERS | {"support"}:
        assert (TESTS / folder / "__init__.py").exists(), f"tests/{folder}/ is not a package (module names would clash)"
    assert not list((TESTS / "support").glob("test_*.py")), "tests/support/ holds helpers, not tests"


def test_module_imports(path: Path, root: Path = ROOT) -> list[str]:
    """The imports in ``path`` of a test module or of conftest (helpers in tests/support/ are fine)."""
    bad = []
    for line, name in imported_modules(path, root):
        parts = name.split(".")
        if parts[0] == "tests" and len(parts) > 1 and (parts[1] == "conftest" or any(p.startswith("test_") for p in parts[1:])):
            bad.append(f"{path.relative_to(root)}:{line} imports {name}")
    return bad


test_module_imports.__test__ = False  # a helper, not a test


def test_no_test_module_imports_another_test_module_or_conftest():
    """What two test modules share lives in tests/support/; a test module imported by another runs its module-level
    code twice, and moving or deleting it breaks tests elsewhere."""
    bad = [b for path in python_files() for b in test_module_imports(path)]
    assert bad == [], "move what is shared into tests/support/:\n" + "\n".join(bad)


def test_the_scan_sees_an_import_between_test_modules(tmp_path):
    """The check above is not vacuous: planted imports of other test modules (absolute, relative, inside a function,
    of conftest) are each found, and a support import is not."""
    fake = tmp_path / "tests" / "core"
    fake.mkdir(parents=True)
    (fake / "test_a.py").write_text("from tests.ui.test_b import helper\nfrom .test_c import other\n"
                                    "from tests.support.strategies import cases\n"
                                    "def f():\n    import tests.conftest\n")
    assert test_module_imports(fake / "test_a.py", tmp_path) == [
        "tests/core/test_a.py:1 imports tests.ui.test_b", "tests/core/test_a.py:1 imports tests.ui.test_b.helper",
        "tests/core/test_a.py:2 imports tests.core.test_c", "tests/core/test_a.py:2 imports tests.core.test_c.other",
        "tests/core/test_a.py:5 imports tests.conftest"]


# Files that name a test file as it was when they were written, not as it is now.
HISTORY = {"CHANGELOG.md", "docs/performance.md"}  # history: the paths as they were then
TEST_PATH = re.compile(r"\btests/[\w/]*?test_\w+\.py")


def test_every_test_file_the_repository_names_exists():
    skip_dirs = {".git", "node_modules", ".venv", ".venv-newest", "__pycache__", ".pytest_cache", "build", "dist"}
    files = []
    for top, dirs, names in os.walk(ROOT):  # symbolic links to folders (node_modules) not followed
        dirs[:] = [d for d in dirs if d not in skip_dirs and not d.endswith(".egg-info")]  # egg-info: made by pip
        files += [Path(top) / n for n in names if Path(n).suffix in (".py", ".md", ".toml", ".sh", ".json", ".cfg", ".in", "")]
    missing = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if rel in HISTORY or rel.startswith("tests/data/") or path == Path(__file__).resolve():  # its own planted paths
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        missing += [f"{rel}: {m}" for m in sorted(set(TEST_PATH.findall(text))) if not (ROOT / m).exists()]
    assert missing == [], "\n".join(missing)


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(path: Path) -> list[str]:
    """The project packages' private names ``path`` uses: ``from pkg import _x``, ``pkg.mod._x`` (and deeper, like
    ``pkg.mod.STORE._x``), ``setattr(mod, "_x", ...)`` and ``"pkg.mod._x"`` strings (monkeypatch targets)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases, uses = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PACKAGES:
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PACKAGES:
            for a in node.names:
                if private(a.name):
                    uses.append(f"{node.module}.{a.name}")
                else:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            chain, value = [node.attr], node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in aliases:
                uses.append(".".join([aliases[value.id], *reversed(chain)]))
        elif (isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[0], ast.Name)
              and node.args[0].id in aliases and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str) and private(node.args[1].value)):
            uses.append(f"{aliases[node.args[0].id]}.{node.args[1].value}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and " " not in node.value
              and node.value.split(".")[0] in PACKAGES and any(private(p) for p in node.value.split("."))):
            uses.append(node.value)
    return uses


# The private names tests may still use, each with why a public name would be worse. Keep it short.
PRIVATE_ALLOWED: dict[str, str] = {}


def test_tests_use_the_packages_public_names():
    """Tests go through what a package offers (its public functions and documented hooks), so a package can
    rename its internals freely; a name a test needs gets a public, documented name in its package."""
    found = {}
    for path in python_files():
        if path == Path(__file__).resolve():  # its own planted examples
            continue
        for name in private_uses(path):
            found.setdefault(name, []).append(str(path.relative_to(ROOT)))
    unexpected = {n: sorted(set(w)) for n, w in found.items() if n not in PRIVATE_ALLOWED}
    assert unexpected == {}, "give these a public name in their package, or test through its public API:\n" + \
        "\n".join(f"{n}: {', '.join(w)}" for n, w in sorted(unexpected.items()))
    stale = sorted(set(PRIVATE_ALLOWED) - set(found))
    assert stale == [], f"no test uses these any more: take them off PRIVATE_ALLOWED: {stale}"


def test_the_private_name_scan_sees_each_form(tmp_path):
    planted = tmp_path / "test_planted.py"
    planted.write_text("import scatter_core as sc\nfrom scatter_ui.state import cache\nfrom scatter_models import _x\n"
                       "sc.fast._y\ncache.STORE._z\nsetattr(cache, '_w', 1)\nm.setattr('scatter_ui.state.cache._v', 1)\n"
                       "sc.public\nother._hidden\n")
    assert sorted(private_uses(planted)) == sorted([
        "scatter_models._x", "scatter_core.fast._y", "scatter_ui.state.cache.STORE._z", "scatter_ui.state.cache._w",
        "scatter_ui.state.cache._v"])


def test_ci_draws_every_example_and_the_default_loop_a_tenth():
    from hypothesis import settings

    from tests.support.profiles import chosen, examples

    assert chosen({"CI": "true"}) == "thorough" and chosen({}) == "quick" and chosen({"CI": "false"}) == "quick"
    assert chosen({"CI": "true", "HYPOTHESIS_PROFILE": "quick"}) == "quick"  # asked for by hand
    before = settings.default
    try:
        settings.load_profile("thorough")
        assert settings.default.max_examples == 100 and [examples(n) for n in (1, 25, 400, 600)] == [1, 25, 400, 600]
        settings.load_profile("quick")
        assert settings.default.max_examples == 10 and [examples(n) for n in (1, 25, 400, 600)] == [1, 10, 40, 60]
    finally:
        settings.load_profile(chosen(os.environ))
    assert settings.default.max_examples == before.max_examples
