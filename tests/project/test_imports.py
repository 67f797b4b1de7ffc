"""The import graph: no cycle among the project's modules (imports inside functions count), and every other
package, the app, bench/ and scripts/ use scatter_core's public API only, never its submodules."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scatter_core", "scatter_ui", "scatter_export", "runtime_check", "scatter_practice", "framework_map", "from_code",
            "spec_examples", "scatter_models", "scatter_explorer", "devtools")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file (top level or inside functions)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for t in targets:
            while t and t not in known:  # `from pkg import name`: the module pkg.name, else pkg
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    # a package's __init__ importing its own submodules is how a package exposes its API, not a cycle
    graph = {}
    for name, path in modules.items():
        deps = _imports(name, path, known)
        if path.name == "__init__.py":
            deps = {d for d in deps if not d.startswith(name + ".")}
        graph[name] = deps
    return graph


def test_the_graph_finds_imports_inside_functions():
    graph = _graph()
    # case.py imports the planners' families at the top and Case.replace builds through prepare in the module
    assert "scatter_core.families" in graph["scatter_core.case"]
    assert "scatter_core.fast.kernel" in graph["scatter_core.case"]
    # a function-level import counts (tracing collects its findings lazily)
    assert "scatter_core.findings" in graph["scatter_core.tracing"]


def test_the_cycle_finder_finds_a_planted_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_among_the_projects_modules():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles (imports inside functions count): " + "; ".join(" ↔ ".join(c) for c in cycles)


# bench_core.py times the core's own fast paths (the result pool, the copy plan, the radix sort) and reads
# their switches: a white-box benchmark of scatter_core itself, so it may reach inside.
INSIDE_THE_CORE = {"bench/bench_core.py"}


def _core_submodules() -> set[str]:
    """scatter_core's submodules, less the names its public API gives another meaning (``sc.case`` is a function)."""
    import scatter_core

    core = ROOT / "scatter_core"
    modules = {p.stem for p in core.glob("*.py") if p.stem != "__init__"} | {p.name for p in core.iterdir()
                                                                             if (p / "__init__.py").is_file()}
    return modules - set(scatter_core.__all__)


def _submodule_uses(path: Path, submodules: set[str]) -> list[str]:
    """Each place ``path`` reaches into a scatter_core submodule: an import of one, or ``sc.<submodule>.``."""
    found, aliases = [], set()
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("scatter_core."):
                    found.append(f"line {node.lineno}: import {a.name}")
                elif a.name == "scatter_core":
                    aliases.add(a.asname or a.name)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if (node.module or "").startswith("scatter_core."):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            elif node.module == "scatter_core":
                found += [f"line {node.lineno}: from scatter_core import {a.name} (a submodule)"
                          for a in node.names if a.name in submodules]
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr in submodules):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


def _outside_the_core() -> list[Path]:
    files = [p for package in PACKAGES if package != "scatter_core" for p in (ROOT / package).rglob("*.py")]
    files += [ROOT / "app.py", *(ROOT / "app_pages").glob("*.py"), *(ROOT / "bench").glob("*.py"),
              *(ROOT / "scripts").glob("*.py")]
    return [p for p in files if str(p.relative_to(ROOT)) not in INSIDE_THE_CORE]


def test_the_submodule_finder_finds_each_way_in(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("import scatter_core as sc\nimport scatter_core.checking\nfrom scatter_core.describe import "
                       "fmt_value\nfrom scatter_core import fast, Case\nx = sc.parsing.MAX_TEXT\ny = sc.case\n")
    uses = _submodule_uses(planted, _core_submodules())
    assert [u.split(":")[0] for u in uses] == ["line 2", "line 3", "line 4", "line 5"], uses
    assert "Case" not in " ".join(uses)


def test_everything_outside_the_core_uses_its_public_api_only():
    submodules = _core_submodules()
    assert {"checking", "describe", "fast"} <= submodules and "case" not in submodules
    breaches = {str(p.relative_to(ROOT)): uses for p in _outside_the_core()
                if (uses := _submodule_uses(p, submodules))}
    assert not breaches, ("import what you need from scatter_core itself (add it to scatter_core/__init__.py's "
                          f"__all__ if it is not there): {breaches}")


def test_bench_and_scripts_never_import_the_tests():
    offenders = []
    for path in [*(ROOT / "bench").glob("*.py"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "devtools").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)} line {node.lineno}: {n}" for n in names
                          if n == "tests" or n.startswith("tests.")]
    assert not offenders, "bench/ and scripts/ use devtools/, not tests/: " + "; ".join(offenders)


# The packages from the bottom up: a module imports its own package or a package of a lower layer, never one
# of its own layer or above (scatter_ui's parts are layers of their own). A new package gets a row here.
LAYERS = (
    ("scatter_core",),
    ("spec_examples", "framework_map", "scatter_practice"),
    ("scatter_export",),
    ("runtime_check", "from_code"),
    ("scatter_models",),
    ("scatter_ui.figures",),  # pure drawing: never Streamlit (test_figures_never_import_streamlit)
    ("scatter_ui.state",),
    ("scatter_ui.player",),
    ("scatter_ui.parts",),
    ("scatter_ui.pages",),
    ("scatter_explorer",),
    ("devtools",),
)
LAYER = {package: rank for rank, row in enumerate(LAYERS) for package in row}


def _layer_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "scatter_ui" and len(parts) > 1 else parts[0]


def _arrows_up(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for name, deps in graph.items():
        mine = _layer_of(name)
        for dep in deps:
            theirs = _layer_of(dep)
            if theirs != mine and dep != "scatter_ui" and LAYER[theirs] >= LAYER[mine]:
                found.append(f"{name} -> {dep} ({mine} is layer {LAYER[mine]}, {theirs} layer {LAYER[theirs]})")
    return sorted(found)


def test_every_package_has_a_layer():
    packages = {_layer_of(m) for m in _modules()} - {"scatter_ui"}
    assert packages == set(LAYER), f"give these a row in LAYERS: {packages ^ set(LAYER)}"


def test_the_layer_check_finds_a_planted_arrow_up():
    planted = {"framework_map.maps": {"from_code.translate"}, "scatter_ui.figures.views": {"scatter_ui.parts.controls"},
               "from_code.case": {"framework_map.records"}, "runtime_check.pins": {"from_code.translate"}}
    assert [a.split(" ")[0] for a in _arrows_up(planted)] == ["framework_map.maps", "runtime_check.pins",
                                                               "scatter_ui.figures.views"]


def test_no_package_imports_one_above_it():
    arrows = _arrows_up(_graph())
    assert not arrows, "imports that point up the package order (tests/project/test_imports.py LAYERS): " + "; ".join(arrows)


def test_figures_never_import_streamlit():
    offenders = []
    for path in (ROOT / "scatter_ui" / "figures").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)} line {node.lineno}" for n in names if n.split(".")[0] == "streamlit"]
    assert not offenders, "scatter_ui/figures/ is pure drawing; read the theme or draw in parts/ or pages/: " + \
        "; ".join(offenders)
