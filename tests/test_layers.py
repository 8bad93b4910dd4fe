"""The house's import graph runs one way (issue 11), read from the source with ``ast``.

- selectors never import services (nor tasks, views or the API);
- services never import the tasks module (tasks sit above them; services enqueue by name through
  ``tournaments.queueing``), nor views or the API;
- the pure packages ``tournaments.pairing`` and ``tournaments.standings`` import nothing of
  ``tournaments.*`` but themselves;
- services, selectors and the pure helpers below them form no cycle;
- no import sits inside a function in services or selectors.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tournaments"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """Every module ``path`` imports (``from a import b`` counts ``a`` and ``a.b``), and whether
    the import sits inside a function."""
    tree = ast.parse(path.read_text())
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in inside) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, id(node) in inside))
            found += [(f"{node.module}.{alias.name}", id(node) in inside) for alias in node.names]
    return found


def modules(*folders: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in folders:
        base = PACKAGE / folder
        paths = [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
        for path in paths:
            found[module_name(path)] = path
    return found


def known(name: str, universe: dict[str, Path]) -> str | None:
    """The module of ``universe`` an imported name refers to (a module, or a name in one)."""
    while name and name not in universe:
        name = name.rpartition(".")[0]
    return name or None


def wrong_way(layer: dict[str, Path], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{name} imports {target}"
        for name, path in layer.items()
        for target, _ in imports_of(path)
        if target.startswith(forbidden)
    ]


def test_selectors_never_import_services_tasks_or_edges() -> None:
    forbidden = (
        "tournaments.services",
        "tournaments.tasks",
        "tournaments.views",
        "tournaments.api",
    )
    assert wrong_way(modules("selectors"), forbidden) == []


def test_services_never_import_tasks_or_edges() -> None:
    forbidden = ("tournaments.tasks", "tournaments.views", "tournaments.api")
    assert wrong_way(modules("services"), forbidden) == []


def test_the_pure_packages_import_nothing_of_the_app() -> None:
    for package in ("pairing", "standings"):
        own = f"tournaments.{package}"
        found = [
            f"{name} imports {target}"
            for name, path in modules(package).items()
            for target, _ in imports_of(path)
            if target.startswith("tournaments") and not target.startswith(own)
        ]
        assert found == [], package


def test_no_import_inside_a_function_in_services_or_selectors() -> None:
    found = [
        f"{name} imports {target} inside a function"
        for name, path in modules("services", "selectors").items()
        for target, in_function in imports_of(path)
        if in_function
    ]
    assert found == []


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of ``graph`` as a path (its first node repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return []


def layer_graph() -> dict[str, set[str]]:
    universe = modules(
        "services", "selectors", "results_math.py", "game.py", "queueing.py", "job_kinds.py"
    )
    graph: dict[str, set[str]] = {}
    for name, path in universe.items():
        targets = {known(target, universe) for target, _ in imports_of(path)}
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def test_services_and_selectors_form_no_cycle() -> None:
    assert find_cycle(layer_graph()) == []


def test_the_cycle_check_finds_a_planted_cycle() -> None:
    graph = layer_graph()
    # services.standings reads selectors.standings_records: the reverse import closes a cycle.
    graph["tournaments.selectors.standings_records"].add("tournaments.services.standings")
    cycle = find_cycle(graph)
    assert cycle[0] == cycle[-1] and len(cycle) >= 3
    assert "tournaments.services.standings" in cycle
