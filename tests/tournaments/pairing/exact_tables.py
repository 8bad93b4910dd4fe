"""An independent exact solver for the test oracle: the fewest repeat meetings of any seating.

Branch and bound over partitions (the smallest unseated entry's table is chosen first, so each
partition is visited once), pruned by the best count found so far. Shares no code with
``tournaments.pairing.tables_of_many`` beyond the record types.
"""

from __future__ import annotations

from collections.abc import Sequence


def fewest_repeats(
    items: Sequence[int], met: dict[int, set[int]], sizes: Sequence[int], upper: int
) -> int:
    """The fewest repeat pairs over every partition of ``items`` into tables of ``sizes``;
    returns ``upper`` when no partition does better than ``upper``."""
    best = upper
    counts: dict[int, int] = {}
    for s in sizes:
        counts[s] = counts.get(s, 0) + 1

    def place(left: list[int], so_far: int) -> None:
        nonlocal best
        if so_far >= best:
            return
        if not left:
            best = so_far
            return
        first, rest = left[0], left[1:]
        for size in sorted(s for s, c in counts.items() if c > 0):
            counts[size] -= 1
            grow([first], rest, 0, size, so_far)
            counts[size] += 1

    def grow(group: list[int], rest: list[int], start: int, size: int, so_far: int) -> None:
        if so_far >= best:
            return
        if len(group) == size:
            place([i for i in rest if i not in group], so_far)
            return
        for k in range(start, len(rest) - (size - len(group)) + 1):
            c = rest[k]
            added = sum(1 for g in group if c in met.get(g, set()))
            group.append(c)
            grow(group, rest, k + 1, size, so_far + added)
            group.pop()

    place(sorted(items), 0)
    return best
