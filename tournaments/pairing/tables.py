"""Table numbers: table 1 to the top match, pinned entries keep their table.

Rule: walk the matches in rank order (the order the caller gives, top match first). A match with
a pinned entry takes that table (when both entries are pinned to different tables, the
higher-ranked entry's pin wins if its table is still free, else the other's; when two matches
claim one table, the higher-ranked match keeps it). Every other match takes the lowest table
number not claimed by a pin, in rank order. So without pins, the k-th match sits at table k;
with pins, the unpinned matches fill the remaining tables in order. Conflicts are reported as
notes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .reasons import Reason, gettext_noop, reason


def assign_tables(
    matches: Sequence[tuple[int, int]], pins: Mapping[int, int]
) -> tuple[list[int], list[str]]:
    """Return one table number per match (same order) and notes (English) about unsatisfiable
    pins (``assign_tables_explained`` gives the notes as templates and arguments)."""
    tables, notes = assign_tables_explained(matches, pins)
    return tables, [n.text for n in notes]


def assign_tables_explained(
    matches: Sequence[tuple[int, int]], pins: Mapping[int, int]
) -> tuple[list[int], list[Reason]]:
    """Return one table number per match (same order) and notes about unsatisfiable pins.

    ``matches`` are (seat A entry, seat B entry), top match first; ``pins`` maps an entry id to
    its pinned table.
    """
    claimed: dict[int, int] = {}  # table -> match index
    chosen: list[int | None] = [None] * len(matches)
    notes: list[Reason] = []
    for index, (a, b) in enumerate(matches):
        wanted = [(e, pins[e]) for e in (a, b) if e in pins]
        if not wanted:
            continue
        free_pins = [(e, t) for e, t in wanted if t not in claimed]
        for e, t in wanted:
            if t in claimed:
                notes.append(
                    reason(
                        gettext_noop(
                            "table %(table)s is held by an earlier pinned match; entry %(entry)s "
                            "moves"
                        ),
                        table=t,
                        entry=e,
                    )
                )
            elif free_pins and (e, t) != free_pins[0]:
                notes.append(
                    reason(
                        gettext_noop(
                            "entries %(a)s and %(b)s are pinned to different tables; entry "
                            "%(keeper)s keeps table %(table)s"
                        ),
                        a=a,
                        b=b,
                        keeper=free_pins[0][0],
                        table=free_pins[0][1],
                    )
                )
        if free_pins:
            claimed[free_pins[0][1]] = index
            chosen[index] = free_pins[0][1]
    free = 1
    tables: list[int] = []
    for index in range(len(matches)):
        fixed = chosen[index]
        if fixed is not None:
            tables.append(fixed)
            continue
        while free in claimed:
            free += 1
        tables.append(free)
        free += 1
    return tables, notes
