"""The layout is the architecture: imports point one way (``api``/``jobs`` -> ``graph``; inside
``graph``, ``store``, ``models`` and ``text`` import nothing above them, and the root modules
only those three) and no modules import each other, directly or round a longer loop.
Function-local imports count too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "hippograph"
# What graph.store and graph.models may import from the project besides themselves.
FOUNDATION = {"hippograph.graph.errors", "hippograph.graph.model", "hippograph.settings"}
# Subpackages of graph that must not import each other, in either order.
FORBIDDEN = [("hippograph.graph.store", "hippograph.graph.models")]
# Known, deliberate crossings between graph's middle layers, with the reason.
ALLOWED_CROSSINGS: set[tuple[str, str]] = set()
# What graph.text may import from the project besides itself: pure text analysis, no I/O.
TEXT_FOUNDATION = {"hippograph.graph.errors", "hippograph.graph.model", "hippograph.graph.clock"}
# The subpackages graph's root modules stand on; the others (write, recall, upkeep) use them.
BELOW_ROOT = ("hippograph.graph.store", "hippograph.graph.models", "hippograph.graph.text")
# The composition root, which wires every layer together.
COMPOSITION_ROOT = "hippograph.graph.runtime"
# Root modules importing a subpackage above them, with the reason.
ALLOWED_ROOT_IMPORTS: set[tuple[str, str]] = set()


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imports(name: str) -> Iterator[str]:
    """Every project module ``name`` imports, at any depth of its code."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from pkg import mod`` imports a module; ``from mod import name`` the module.
            targets = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                for a in node.names
            ]
        else:
            continue
        yield from (t for t in targets if t in MODULES and t != name)


GRAPH = {name: set(_imports(name)) for name in MODULES}


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_modules_are_found() -> None:
    assert "hippograph.graph.recall.retrieval" in GRAPH
    assert "hippograph.graph.store.store" in GRAPH["hippograph.graph.recall.retrieval"]


@pytest.mark.parametrize("package", ["hippograph.graph"])
def test_graph_imports_neither_api_nor_jobs(package: str) -> None:
    bad = sorted(
        (a, b)
        for a, deps in GRAPH.items()
        if _within(a, package)
        for b in deps
        if _within(b, "hippograph.api") or _within(b, "hippograph.jobs")
    )
    assert bad == []


def test_nothing_outside_api_imports_api() -> None:
    bad = sorted(
        (a, b)
        for a, deps in GRAPH.items()
        if not _within(a, "hippograph.api")
        for b in deps
        if _within(b, "hippograph.api")
    )
    assert bad == []


@pytest.mark.parametrize("package", ["hippograph.graph.store", "hippograph.graph.models"])
def test_store_and_models_import_nothing_above_them(package: str) -> None:
    bad = sorted(
        (a, b)
        for a, deps in GRAPH.items()
        if _within(a, package)
        for b in deps
        if not _within(b, package) and b not in FOUNDATION
    )
    assert bad == []


def test_text_imports_only_the_root_foundations() -> None:
    bad = sorted(
        (a, b)
        for a, deps in GRAPH.items()
        if _within(a, "hippograph.graph.text")
        for b in deps
        if not _within(b, "hippograph.graph.text") and b not in TEXT_FOUNDATION
    )
    assert bad == []


def _root_module(name: str) -> bool:
    """A module directly in ``hippograph/graph/`` (not a subpackage, not the package itself)."""
    return MODULES[name].parent == ROOT / "graph" and MODULES[name].name != "__init__.py"


def test_the_root_modules_import_no_subpackage_above_them() -> None:
    assert "hippograph.graph.memories" in GRAPH and _root_module("hippograph.graph.memories")
    bad = sorted(
        (a, b)
        for a, deps in GRAPH.items()
        if _root_module(a) and a != COMPOSITION_ROOT
        for b in deps
        if _within(b, "hippograph.graph")
        and not _root_module(b)
        and not any(_within(b, p) for p in BELOW_ROOT)
        and (a, b) not in ALLOWED_ROOT_IMPORTS
    )
    assert bad == []


def test_middle_layers_keep_apart() -> None:
    """The write path is below recall and upkeep: they use it (the decider, tag terms), it
    uses neither."""
    bad = []
    for low, high in [*FORBIDDEN, *((h, lo) for lo, h in FORBIDDEN)]:
        bad += [
            (a, b) for a, deps in GRAPH.items() if _within(a, low) for b in deps if _within(b, high)
        ]
    write_up = [
        (a, b)
        for a, deps in GRAPH.items()
        if _within(a, "hippograph.graph.write")
        for b in deps
        if (_within(b, "hippograph.graph.recall") or _within(b, "hippograph.graph.upkeep"))
        and (a, b) not in ALLOWED_CROSSINGS
    ]
    assert sorted(bad + write_up) == []


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components: any component of two or more modules is a
    cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert cycles == []


def test_every_subpackage_says_what_lives_there() -> None:
    for name, path in MODULES.items():
        if path.name == "__init__.py" and _within(name, "hippograph.graph"):
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            assert doc and len(doc) > 80, f"{name} has no docstring saying what lives there"
