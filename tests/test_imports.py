"""The import graph: no cycle among the project's modules, counting imports inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scatter_core", "scatter_ui", "scatter_export", "runtime_check", "scatter_practice", "framework_map",
            "spec_examples", "scatter_models", "scatter_explorer")


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
