"""The seating search for tables of many: the packed cost of a table, the greedy seeding, the
local search, the annealing repair, and the exact searches for small fields (exhaustive, and a
branch and bound on repeat meetings), with the proven lower bound on repeat meetings.

Every function works on rank indices of a :class:`TablesField`; the priorities, the algorithm and
what is optimal are described in :mod:`tournaments.pairing.tables_of_many`, which builds the field
and calls these steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .records import EntryRecord

# ---------------------------------------------------------------------------- the field and cost


@dataclass(frozen=True, slots=True)
class TablesField:
    """The seated field as the search sees it: entries by rank index, whom each has met and is
    kept apart from (rank indices), match points scaled to integers, and the units that pack
    tiers 3 to 7 into one integer cost (see :mod:`tournaments.pairing.tables_of_many`)."""

    order: tuple[EntryRecord, ...]
    met: tuple[frozenset[int], ...]
    apart: tuple[frozenset[int], ...]
    mp: tuple[int, ...]
    early: bool
    repeat_unit: int
    early_unit: int
    mp_unit: int
    late_unit: int


def table_cost(field: TablesField, members: Sequence[int]) -> int:
    """The packed cost (tiers 3 to 7) of one table of ranked indices."""
    repeats = apart = score = near = 0
    mp = field.mp
    for x in range(len(members)):
        i = members[x]
        met_i, apart_i, mp_i = field.met[i], field.apart[i], mp[i]
        for y in range(x + 1, len(members)):
            j = members[y]
            if j in met_i:
                repeats += 1
            if j in apart_i:
                apart += 1
            d = mp_i - mp[j]
            score += d * d
            near += i - j if i > j else j - i
    constraint_unit = field.early_unit if field.early else field.late_unit
    return repeats * field.repeat_unit + apart * constraint_unit + score * field.mp_unit + near


def _troubled(field: TablesField, members: Sequence[int]) -> list[int]:
    """The members of a table in a repeat meeting or a constraint pair."""
    out = []
    for i in members:
        if any(j in field.met[i] or j in field.apart[i] for j in members if j != i):
            out.append(i)
    return out


# ---------------------------------------------------------------------------- the search


def seed_tables(
    field: TablesField, seated: Sequence[int], sizes: Sequence[int], lookahead: int = 12
) -> list[list[int]]:
    """Greedy seating in rank order: each table takes the best unseated entry, then the next
    unseated entries (within ``lookahead`` places) who have met nobody at it and are not kept
    apart from anybody at it, then fills up in rank order."""
    left = list(seated)
    groups: list[list[int]] = []
    for size in sizes:
        members = [left.pop(0)]
        k = 0
        while len(members) < size and k < len(left) and k < lookahead:
            c = left[k]
            if any(c in field.met[m] or c in field.apart[m] for m in members):
                k += 1
                continue
            members.append(left.pop(k))
        while len(members) < size:
            members.append(left.pop(0))
        groups.append(members)
    return groups


def pair_cost(field: TablesField, i: int, j: int) -> int:
    """The packed cost of entries ``i`` and ``j`` (ranked indices) sharing a table; a table's
    cost is the sum over its pairs."""
    d = field.mp[i] - field.mp[j]
    cost = d * d * field.mp_unit + (i - j if i > j else j - i)
    if j in field.met[i]:
        cost += field.repeat_unit
    if j in field.apart[i]:
        cost += field.early_unit if field.early else field.late_unit
    return cost


def _best_swap(
    field: TablesField,
    tables: list[list[int]],
    t: int,
    movers: Sequence[int],
    window: int,
) -> tuple[int, int, int, int] | None:
    """The most improving swap of a ``mover`` of table ``t`` with a member of a table within
    ``window``: (gain, other table, mover, other member), or None. Gains are computed from the
    pairs that change only (a swap changes ``2 (s - 1)`` pairs per table)."""
    best: tuple[int, int, int, int] | None = None
    best_gain = 0
    here = tables[t]
    lo, hi = max(0, t - window), min(len(tables), t + window + 1)
    for x in movers:
        rest_here = [m for m in here if m != x]
        out_x = sum(pair_cost(field, m, x) for m in rest_here)
        for u in range(lo, hi):
            if u == t:
                continue
            there = tables[u]
            for y in there:
                rest_there = [m for m in there if m != y]
                gain = (
                    out_x
                    - sum(pair_cost(field, m, y) for m in rest_here)
                    + sum(pair_cost(field, m, y) for m in rest_there)
                    - sum(pair_cost(field, m, x) for m in rest_there)
                )
                if gain > best_gain:
                    best, best_gain = (gain, u, x, y), gain
    return best


def _apply(tables: list[list[int]], t: int, u: int, x: int, y: int) -> None:
    tables[t] = sorted([m for m in tables[t] if m != x] + [y])
    tables[u] = sorted([m for m in tables[u] if m != y] + [x])


def local_search(
    field: TablesField, tables: list[list[int]], initial_window: int
) -> list[list[int]]:
    """Swap entries between tables until no troubled table can improve (see the docstring)."""
    tables = [sorted(t) for t in tables]
    full = max(len(tables) - 1, 1)
    window = max(1, min(initial_window, full))
    while True:
        improved = False
        for t in range(len(tables)):
            movers = _troubled(field, tables[t])
            if not movers:
                continue
            found = _best_swap(field, tables, t, movers, window)
            if found is not None:
                _, u, x, y = found
                _apply(tables, t, u, x, y)
                improved = True
        if improved:
            continue
        if window >= full:
            break
        window = min(window * 2, full)
    # polish tiers 5-7 between neighbouring tables
    improved = True
    while improved:
        improved = False
        for t in range(len(tables) - 1):
            found = _best_swap(field, tables, t, tables[t], 1)
            if found is not None:
                _, u, x, y = found
                _apply(tables, t, u, x, y)
                improved = True
    return tables


def _repair_cost(field: TablesField, members: Sequence[int]) -> int:
    """Repeat meetings (and early-round constraint pairs, as a lower tier) of one table."""
    repeats = apart = 0
    for x in range(len(members)):
        i = members[x]
        for y in range(x + 1, len(members)):
            j = members[y]
            repeats += j in field.met[i]
            apart += j in field.apart[i]
    return repeats * 64 + (apart if field.early else 0)


def repair(
    field: TablesField, tables: list[list[int]], rng_seed: int, iterations: int
) -> list[list[int]]:
    """Simulated annealing over random swaps on repeat meetings alone (early-round constraint
    pairs as a lower tier), to leave local optima of the swap search; returns the seating with
    the fewest repeats seen. Reproducible: the generator is seeded from the salt and the round.
    """
    import math
    import random

    rng = random.Random(rng_seed)
    tables = [list(t) for t in tables]
    costs = [_repair_cost(field, t) for t in tables]
    total = sum(costs)
    best, best_total = [list(t) for t in tables], total
    if len(tables) < 2:
        return best
    for step in range(iterations):
        if best_total == 0:
            break
        temperature = 40.0 * (1 - step / iterations) + 0.5
        troubled = [t for t, c in enumerate(costs) if c]
        t = troubled[rng.randrange(len(troubled))]
        u = rng.randrange(len(tables) - 1)
        u += u >= t
        x = tables[t][rng.randrange(len(tables[t]))]
        y = tables[u][rng.randrange(len(tables[u]))]
        here = [m for m in tables[t] if m != x] + [y]
        there = [m for m in tables[u] if m != y] + [x]
        new_here, new_there = _repair_cost(field, here), _repair_cost(field, there)
        delta = new_here + new_there - costs[t] - costs[u]
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            tables[t], tables[u] = here, there
            costs[t], costs[u] = new_here, new_there
            total += delta
            if total < best_total:
                best, best_total = [list(m) for m in tables], total
    return best


def fewest_repeat_seating(
    field: TablesField, seated: Sequence[int], sizes: Sequence[int], upper: int, budget: int
) -> tuple[list[list[int]] | None, bool]:
    """Branch and bound on repeat meetings alone: a seating with fewer than ``upper`` repeats
    (the fewest), or None; and whether the search finished within ``budget`` nodes (then the
    answer is proven: no seating has fewer repeats)."""
    best = upper
    found: list[list[int]] | None = None
    nodes = 0
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    groups: list[list[int]] = []

    class _Budget(Exception):
        pass

    def place(left: list[int], so_far: int) -> None:
        nonlocal best, found
        if so_far >= best:
            return
        if not left:
            best, found = so_far, [list(g) for g in groups]
            return
        first, rest = left[0], left[1:]
        for size in sorted((s for s, c in counts.items() if c > 0), reverse=True):
            counts[size] -= 1
            groups.append([first])
            grow(rest, 0, size, so_far)
            groups.pop()
            counts[size] += 1

    def grow(rest: list[int], start: int, size: int, so_far: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Budget
        if so_far >= best:
            return
        group = groups[-1]
        if len(group) == size:
            place([i for i in rest if i not in group], so_far)
            return
        for k in range(start, len(rest) - (size - len(group)) + 1):
            c = rest[k]
            added = sum(1 for g in group if c in field.met[g])
            group.append(c)
            grow(rest, k + 1, size, so_far + added)
            group.pop()

    try:
        place(sorted(seated), 0)
    except _Budget:
        return found, False
    return found, True


def exhaustive(
    field: TablesField,
    seated: list[int],
    sizes: list[int],
    start: list[list[int]] | None = None,
) -> list[list[int]]:
    """The optimum of tiers 3-7 over every partition of ``seated`` into ``sizes`` (small fields).

    A branch and bound over partitions (the smallest unseated entry's table chosen first, its
    larger sizes first), and a branch stops once its tables cost as much as the best
    seating so far (every table's cost is at least 0). ``start`` (a seating into ``sizes``) is
    that first best: the answer is it unless some seating costs strictly less."""
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    best: list[list[int]] | None = [list(g) for g in start] if start else None
    best_cost = sum(table_cost(field, g) for g in best) if best else None
    groups: list[list[int]] = []

    def place(left: list[int], so_far: int) -> None:
        nonlocal best, best_cost
        if best_cost is not None and so_far >= best_cost:
            return
        if not left:
            best, best_cost = [list(g) for g in groups], so_far
            return
        first, rest = left[0], left[1:]
        for size in sorted((s for s, c in counts.items() if c > 0), reverse=True):
            counts[size] -= 1
            for mates in combinations(rest, size - 1):
                table = [first, *mates]
                groups.append(table)
                place([i for i in rest if i not in mates], so_far + table_cost(field, table))
                groups.pop()
            counts[size] += 1

    place(sorted(seated), 0)
    assert best is not None
    return best


def repeat_lower_bound(field_met: Sequence[frozenset[int]], smallest: int, byes: int) -> int:
    """A proven lower bound on the repeat meetings of any seating (see the module docstring)."""
    n = len(field_met)
    deficits = sorted((max(0, smallest - 1 - (n - 1 - len(m))) for m in field_met), reverse=True)
    total = sum(deficits[byes:])
    return (total + 1) // 2
