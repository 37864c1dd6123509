"""The project's import graph, read from the source: Python modules and front-end ES modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "cardplaza"
STATIC = PACKAGE / "web" / "static"


def module_name(path: Path) -> str:
    """``cardplaza.web.live.tables`` for ``src/cardplaza/web/live/tables.py``."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module an imported name lives in (``a.b.c`` may be the attribute ``c`` of
    ``a.b``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def python_imports() -> dict[str, set[str]]:
    """Module → the project modules it imports, wherever in the file (top level, inside
    functions, under ``TYPE_CHECKING``): every import counts."""
    modules = python_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - (node.level - 1)]
                    base = ".".join([*parts, base] if base else parts)
                targets = [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                found = _resolve(t, modules)
                if found is not None and found != name:
                    out.add(found)
        graph[name] = out
    return graph


IMPORT_JS = re.compile(r"""^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|"""
                       r"""^\s*import\s*['"]([^'"]+)['"]""", re.M)


def js_imports() -> dict[str, set[str]]:
    """Front-end module (path under ``static/``) → the modules it imports statically."""
    graph: dict[str, set[str]] = {}
    for path in sorted(STATIC.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        out: set[str] = set()
        for m in IMPORT_JS.finditer(text):
            target = m.group(1) or m.group(2)
            if target.startswith("."):
                out.add((path.parent / target).resolve().relative_to(STATIC).as_posix())
        graph[path.relative_to(STATIC).as_posix()] = out
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)
