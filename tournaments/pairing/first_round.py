"""Round 1: a salted random draw, or seeded by rating or by seed (top half against bottom half).

Method
------
1. Order the active entries: ``random`` by the salted lot (purpose ``first-round``); ``rating``
   by rating, highest first; ``seed`` by seed, 1 first. Entries without a rating / seed come
   last; ties are broken by the salted lot (purpose ``seed-order``, recorded).
2. An odd field: the bye goes to the last entry in that order among those with the fewest byes.
3. With ``h`` entries left, entry ``k`` (1-based) meets entry ``k + h/2``: top half against bottom
   half (for ``random`` that is just another uniformly random pairing). The better-placed entry sits
   first; table 1 hosts entry 1's match, and so on (pins kept).

No history is consulted: round 1 has none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from . import draw
from .common import active_by_id, seat_pairings
from .reasons import gettext_noop, reason
from .records import Bye, DrawRecord, EntryRecord, Explanation, RoundPairing

ORDER_NAMES: dict[str, str] = {
    "random": gettext_noop("random order"),
    "rating": gettext_noop("rating order"),
    "seed": gettext_noop("seed order"),
}
"""Each first-round method's order, as a pairing reason names it (a word the page translates)."""

FirstRoundMethod = Literal["random", "rating", "seed"]


def _ordered(
    entries: list[EntryRecord], method: FirstRoundMethod, salt: str, round_no: int
) -> tuple[list[int], list[DrawRecord]]:
    ids = sorted(e.entry_id for e in entries)
    if method == "random":
        order, record = draw.shuffle(salt, "first-round", round_no, ids)
        return order, [record]

    def strength(e: EntryRecord) -> tuple[Any, ...]:
        if method == "rating":
            return (e.rating is None, -(e.rating or 0))
        return (e.seed is None, e.seed or 0)

    keyed = sorted(
        entries, key=lambda e: (strength(e), draw.lot(salt, "seed-order", round_no, e.entry_id))
    )
    draws: list[DrawRecord] = []
    groups: dict[tuple[Any, ...], list[int]] = {}
    for e in keyed:
        groups.setdefault(strength(e), []).append(e.entry_id)
    for group in groups.values():
        if len(group) > 1:
            _, record = draw.shuffle(salt, "seed-order", round_no, sorted(group))
            draws.append(record)
    return [e.entry_id for e in keyed], draws


def pair_first_round(
    entries: Sequence[EntryRecord],
    *,
    salt: str,
    method: FirstRoundMethod = "random",
    round_no: int = 1,
    draw_leaders: bool = True,
) -> RoundPairing:
    """Pair the first round of the active ``entries`` (see the module docstring)."""
    if method not in ("random", "rating", "seed"):
        raise ValueError(f"unknown first-round method {method!r}")
    by_id = active_by_id(entries)
    order, draws = _ordered(list(by_id.values()), method, salt, round_no)
    byes: list[Bye] = []
    playing = list(order)
    if len(playing) % 2:
        fewest = min(by_id[i].byes_received for i in playing)
        taker = next(i for i in reversed(playing) if by_id[i].byes_received == fewest)
        position = playing.index(taker) + 1
        playing.remove(taker)
        last = reason(
            gettext_noop("odd field: last in the %(order)s (%(position)s of %(size)s)"),
            order=ORDER_NAMES[method],
            position=position,
            size=len(order),
        )
        byes.append(
            Bye(
                taker,
                Explanation(
                    method=f"first-round-{method}",
                    reason=last.text,
                    ranks=(position,),
                    reason_parts=(last,),
                ),
            )
        )
    half = len(playing) // 2
    matches = []
    for k in range(half):
        a, b = playing[k], playing[k + half]
        place = reason(
            gettext_noop("%(order)s: place %(a)s against place %(b)s"),
            order=ORDER_NAMES[method],
            a=k + 1,
            b=k + half + 1,
        )
        why = Explanation(
            method=f"first-round-{method}",
            reason=place.text,
            ranks=(order.index(a) + 1, order.index(b) + 1),
            reason_parts=(place,),
        )
        matches.append((a, b, why))
    pairings, leader_draws, notes = seat_pairings(
        matches, by_id, salt=salt, round_no=round_no, draw_leaders=draw_leaders
    )
    return RoundPairing(
        round_no=round_no,
        kind="swiss",
        pairings=tuple(pairings),
        byes=tuple(byes),
        ranking=tuple(order),
        draws=tuple(draws + leader_draws),
        notes=tuple(n.text for n in notes),
        note_parts=tuple(notes),
    )
