"""Read a package's imports from its source (ast, nothing is imported) and judge the direction.

The house's rule (README, "Layout"): imports run one way,
``urls -> views/api -> presenters -> services -> selectors -> models and the pure packages``.
:func:`problems` lists every breach in a tree: a cycle, an import against the direction, a pure
package reaching into the app, or an import inside a function that no reason allows.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module (the longest known module the name resolves to)
    line: int
    in_function: bool


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root: Path) -> Iterable[Path]:
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).parts
        if "migrations" in rel or "tests" in rel:
            continue
        yield path


def _resolve(known: set[str], name: str) -> str | None:
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    return [f"{base}.{alias.name}" for alias in node.names] or [base]


def read_imports(root: Path) -> tuple[set[str], list[Import]]:
    """Every module under ``root`` (a package folder) and every import between them."""
    files = {module_name(root, p): p for p in source_files(root)}
    known = set(files)
    found: list[Import] = []
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node, in_function in _walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _targets(node, module, is_package):
                target = _resolve(known, name)
                if target is not None and target != module:
                    found.append(Import(module, target, node.lineno, in_function))
    return known, found


def _walk(tree: ast.AST) -> Iterable[tuple[ast.AST, bool]]:
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        yield node, inside
        nested = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        stack.extend((child, nested) for child in ast.iter_child_nodes(node))


def cycles(modules: set[str], imports: list[Import]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for imp in imports:
        graph[imp.source].add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def layer_of(module: str, layers: Mapping[str, int]) -> int | None:
    """The rank of the longest prefix of ``module`` named in ``layers``."""
    best: tuple[int, int] | None = None
    for prefix, rank in layers.items():
        inside = module == prefix or module.startswith(prefix + ".")
        if inside and (best is None or len(prefix) > best[0]):
            best = (len(prefix), rank)
    return None if best is None else best[1]


def problems(
    root: Path,
    *,
    layers: Mapping[str, int],
    pure: Iterable[str],
    inside_allowed: Mapping[str, str],
) -> list[str]:
    """Every breach of the direction in the package at ``root``, as sentences.

    ``layers`` ranks module prefixes (higher may import lower, never the reverse; equal ranks may
    import each other, the cycle check still applies); ``pure`` names packages that import nothing
    of the app outside themselves; ``inside_allowed`` maps a module prefix to the reason its
    functions may import.
    """
    modules, imports = read_imports(root)
    found = [f"import cycle: {' -> '.join(group)}" for group in cycles(modules, imports)]
    pure = tuple(pure)
    for imp in imports:
        where = f"{imp.source} (line {imp.line}) imports {imp.target}"
        src, dst = layer_of(imp.source, layers), layer_of(imp.target, layers)
        if src is not None and dst is not None and dst > src:
            found.append(f"wrong-way import: {where}")
        for package in pure:
            inside = imp.source == package or imp.source.startswith(package + ".")
            if inside and not (imp.target == package or imp.target.startswith(package + ".")):
                found.append(f"pure package reaches out: {where}")
        if imp.in_function and layer_of(imp.source, {k: 0 for k in inside_allowed}) is None:
            found.append(f"import inside a function with no reason given: {where}")
    return list(dict.fromkeys(found))
