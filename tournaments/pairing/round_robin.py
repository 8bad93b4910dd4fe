"""Round robin by the circle method.

Entries are placed in a circle in the given order (by default: seed, then entry id; entries
without a seed last); an odd field adds an empty place, and whoever faces it has the bye, so the
bye rotates and every entry gets exactly one. Place 0 stays fixed, the others rotate one step
each round. Over ``n - 1`` rounds (even ``n``) or ``n`` rounds (odd ``n``) every pair meets
exactly once. Seat order: the fixed place sits first in even-numbered rounds (0-based) and
second in odd ones; at the other tables the entry on the first half of the circle sits first.
As entries travel round the circle they spend about as many rounds on each half, so every
entry sits first within one round of half its matches (tested for 2 to 16 entries).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .common import active_by_id, seat_pairings
from .reasons import gettext_noop, reason
from .records import Bye, EntryRecord, Explanation, RoundPairing

Slot = int | None


def circle_schedule(entry_ids: Sequence[int]) -> list[list[tuple[Slot, Slot]]]:
    """Every round of the round robin: pairs of entry ids; ``None`` marks the bye's place.

    >>> circle_schedule([1, 2, 3, 4])
    [[(1, 4), (2, 3)], [(3, 1), (4, 2)], [(1, 2), (3, 4)]]
    """
    ids: list[Slot] = list(entry_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("entry ids must be distinct")
    if len(ids) < 2:
        return []
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds: list[list[tuple[Slot, Slot]]] = []
    circle = ids[:]
    for r in range(n - 1):
        pairs: list[tuple[Slot, Slot]] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def default_order(entries: Sequence[EntryRecord]) -> list[int]:
    """The circle order: by seed (entries without one last), then entry id."""
    return [
        e.entry_id for e in sorted(entries, key=lambda e: (e.seed is None, e.seed or 0, e.entry_id))
    ]


def pair_round_robin(
    entries: Sequence[EntryRecord],
    *,
    round_no: int,
    salt: str,
    order: Sequence[int] | None = None,
    draw_leaders: bool = True,
) -> RoundPairing:
    """Round ``round_no`` (1-based) of the round robin over the active ``entries``.

    ``order`` fixes the circle for the whole event (by default: the active entries in
    ``default_order``). It must list every active entry and may also list entries that have
    since withdrawn (``active=False``): the circle is kept, so the remaining pairs still meet
    exactly once, and whoever would have played a withdrawn entry has a bye that round. The
    schedule repeats after a full cycle (a double round robin is simply rounds ``n`` onwards).
    """
    by_id = active_by_id(entries)
    known = {e.entry_id for e in entries}
    circle = list(order) if order is not None else default_order(list(by_id.values()))
    if not set(by_id) <= set(circle) or not set(circle) <= known:
        raise ValueError("order must list every active entry, and only entries of the event")
    schedule = circle_schedule(circle)
    if not schedule:
        return RoundPairing(round_no=round_no, kind="round_robin", pairings=())
    cycle = len(schedule)
    index = (round_no - 1) % cycle
    place = {entry_id: k + 1 for k, entry_id in enumerate(circle)}
    matches, byes = _round_matches(schedule[index], by_id, place, index, cycle)
    matches.sort(key=lambda m: min(place[m[0]], place[m[1]]))
    pairings, draws, notes = seat_pairings(
        matches, by_id, salt=salt, round_no=round_no, draw_leaders=draw_leaders
    )
    return RoundPairing(
        round_no=round_no,
        kind="round_robin",
        pairings=tuple(pairings),
        byes=tuple(byes),
        ranking=tuple(circle),
        draws=tuple(draws),
        notes=tuple(n.text for n in notes),
        note_parts=tuple(notes),
    )


def _round_matches(
    pairs: Sequence[tuple[Slot, Slot]],
    by_id: Mapping[int, EntryRecord],
    place: Mapping[int, int],
    index: int,
    cycle: int,
) -> tuple[list[tuple[int, int, Explanation]], list[Bye]]:
    """One round of the circle as matches and byes: whoever faces the odd field's empty place
    or a withdrawn entry (not in ``by_id``) has a bye; ``place`` is each entry's place in the
    circle (1-based), ``index`` the round's index in the ``cycle``."""
    matches = []
    byes: list[Bye] = []
    for a, b in pairs:
        a = a if a in by_id else None
        b = b if b in by_id else None
        if a is None and b is None:
            continue
        if a is None or b is None:
            sitter = a if b is None else b
            assert sitter is not None
            sits = reason(
                gettext_noop(
                    "no opponent in the circle this round (round %(round)s of %(cycle)s): the odd "
                    "field's empty place or a withdrawn entry"
                ),
                round=index + 1,
                cycle=cycle,
            )
            byes.append(
                Bye(
                    sitter,
                    Explanation(
                        method="round_robin",
                        reason=sits.text,
                        ranks=(place[sitter],),
                        reason_parts=(sits,),
                    ),
                )
            )
            continue
        circle = reason(
            gettext_noop("circle method, round %(round)s of %(cycle)s"),
            round=index + 1,
            cycle=cycle,
        )
        why = Explanation(
            method="round_robin",
            reason=circle.text,
            ranks=(place[a], place[b]),
            reason_parts=(circle,),
        )
        matches.append((a, b, why))
    return matches, byes
