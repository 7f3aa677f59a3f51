"""The project's import graph, read from the source (ast, nothing imported): its layers, the arrows that point
up, the import circles and the function-local imports of the project's own modules.

Layers, lowest first: prompts <- models <- assistant (the domain) <- assistant.evaluation <- ui (the
interfaces: the web app and the command line, ui.cli) <- app.py (the Space's entry point). An arrow points up
when a module imports one of a higher layer; no module is exempt. Imports under
`if TYPE_CHECKING:` are left out (they never run). tests/test_layers.py holds the project to it.

Run: .venv/bin/python scripts/import_graph.py [--list]
"""

from __future__ import annotations

import argparse
import ast
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("prompts", "models", "assistant", "ui")
ENTRY = "app"  # app.py, beside the packages: above them all


def layer(module: str) -> int:
    """0 prompts, 1 models, 2 assistant, 3 assistant.evaluation, 4 ui (web app and CLI), 5 app.py."""
    if module == ENTRY:
        return 5
    if module.startswith("ui"):
        return 4
    if module.startswith("assistant.evaluation"):
        return 3
    if module.startswith("assistant"):
        return 2
    if module.startswith("models"):
        return 1
    return 0


@dataclass
class Graph:
    modules: dict[str, Path]
    top: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # at import time
    local: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))  # in functions

    def arrows(self) -> Iterator[tuple[str, str]]:
        for source, targets in self.top.items():
            for target in targets:
                yield source, target
        for source, found in self.local.items():
            for target, _ in found:
                yield source, target

    def upward(self) -> set[tuple[str, str]]:
        return {(a, b) for a, b in self.arrows() if layer(b) > layer(a)}

    def circles(self) -> list[list[str]]:
        """Groups of modules that import each other (strongly connected, function-local imports included)."""
        edges: dict[str, set[str]] = defaultdict(set)
        for a, b in self.arrows():
            edges[a].add(b)
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        out: list[list[str]] = []

        def strong(v: str) -> None:  # Tarjan's algorithm
            index[v] = low[v] = len(index)
            stack.append(v)
            on_stack.add(v)
            for w in edges.get(v, ()):
                if w not in index:
                    strong(w)
                    low[v] = min(low[v], low[w])
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(sorted(group))

        for module in self.modules:
            if module not in index:
                strong(module)
        return out


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def read_graph(root: Path = REPO) -> Graph:
    files = [p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))] + [root / "app.py"]
    graph = Graph({module_name(p, root): p for p in files})

    def resolve(name: str) -> str | None:
        while name and name not in graph.modules:
            name = name.rpartition(".")[0]
        return name or None

    for module, path in graph.modules.items():
        _visit(
            graph,
            module,
            path.name == "__init__.py",
            ast.parse(path.read_text(encoding="utf-8")),
            False,
            resolve,
        )
    return graph


def _visit(graph: Graph, module: str, is_package: bool, node: ast.AST, in_function: bool, resolve) -> None:  # noqa: ANN001
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            for target in _targets(child, module, is_package, resolve):
                if in_function:
                    graph.local[module].append((target, child.lineno))
                else:
                    graph.top[module].add(target)
            continue
        inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
        _visit(graph, module, is_package, child, inside, resolve)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, resolve) -> set[str]:  # noqa: ANN001
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the importing module's package
            package = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
            base = ".".join([*package, *([base] if base else [])])
        names = [base, *(f"{base}.{a.name}" for a in node.names)]
    return {t for n in names if (t := resolve(n)) is not None and t != module}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list every upward arrow and local import")
    args = parser.parse_args()
    graph = read_graph()
    local = sum(len(v) for v in graph.local.values())
    upward = sorted(graph.upward())
    print(f"{len(graph.modules)} modules; {sum(len(v) for v in graph.top.values())} top-of-module imports")
    print(f"arrows pointing up: {len(upward)}")
    print(f"import circles: {len(graph.circles())}")
    print(f"function-local imports of the project's modules: {local} in {len(graph.local)} modules")
    if args.list:
        for a, b in upward:
            print(f"  up: {a} -> {b}")
        for module, found in sorted(graph.local.items()):
            print(f"  local: {module}: " + ", ".join(f"{t} (line {n})" for t, n in found))


if __name__ == "__main__":
    main()
