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
4. The director's constraints (entries of one ``club``, or named in each other's ``avoid``):
   when no pair of that fold is to be kept apart, the fold stands as it is. Otherwise the fold's
   pairs are the target and the constraints are broken only where they must be: among all
   pairings of the entries left, the fewest pairs kept apart, then the least *distance from the
   fold*, the sum over pairs (places ``p < q``) of ``|q - p - h/2|`` (0 for a fold pair; 1 for
   place 1 against ``h/2 + 2`` instead of ``h/2 + 1``). Both tiers are packed into one integer
   cost (a kept-apart pair costs more than any sum of distances) and one maximum-weight perfect
   matching (rustworkx) minimises them in that order; the bye (step 2) is not moved.

No history is consulted: round 1 has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import rustworkx as rx

from . import draw
from .common import active_by_id, seat_pairings
from .reasons import Reason, gettext_noop, reason, sentence
from .records import (
    Bye,
    DrawRecord,
    EntryRecord,
    Explanation,
    RoundPairing,
    constraint_between,
)

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
    constrained = any(e.club is not None or e.avoid for e in by_id.values())
    places = keep_apart_fold(playing, by_id) if constrained else fold(len(playing))
    matches = [_match(playing, p, q, by_id, method, order, constrained) for p, q in sorted(places)]
    pairings, leader_draws, notes = seat_pairings(
        matches, by_id, salt=salt, round_no=round_no, draw_leaders=draw_leaders
    )
    if constrained:
        size = len(playing)
        moved = sum(1 for p, q in places if fold_distance(size, p, q))
        kept = sum(1 for _a, _b, why in matches if why.constraint is not None)
        notes = [_constraint_note(moved, size // 2, kept), *notes]
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


def fold(size: int) -> list[tuple[int, int]]:
    """The fold of ``size`` places (0-based, ``size`` even): place ``k`` against ``k + size/2``."""
    half = size // 2
    return [(k, k + half) for k in range(half)]


def fold_distance(size: int, p: int, q: int) -> int:
    """How far the pair of places ``p < q`` is from the fold of ``size``: ``|q - p - size/2|``."""
    return abs(q - p - size // 2)


def keep_apart_fold(
    playing: Sequence[int], by_id: Mapping[int, EntryRecord]
) -> list[tuple[int, int]]:
    """The pairs of places (``p < q``, 0-based in ``playing``): the fold, changed only where the
    director's constraints must break it (step 4 of the module docstring)."""
    size = len(playing)
    records = [by_id[e] for e in playing]

    def apart(p: int, q: int) -> bool:
        return constraint_between(records[p], records[q]) is not None

    pairs = fold(size)
    if not any(apart(p, q) for p, q in pairs):
        return pairs
    unit = (size // 2) * size + 1  # more than any sum of fold distances
    costs = {
        (p, q): unit * apart(p, q) + fold_distance(size, p, q)
        for p in range(size)
        for q in range(p + 1, size)
    }
    base = max(costs.values()) + 1
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from([(p, q, base - cost) for (p, q), cost in costs.items()])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def _match(
    playing: Sequence[int],
    p: int,
    q: int,
    by_id: Mapping[int, EntryRecord],
    method: FirstRoundMethod,
    order: Sequence[int],
    constrained: bool,
) -> tuple[int, int, Explanation]:
    """The match of places ``p < q`` with why: its places in the order, and with the director's
    constraints, a move from the fold or a constraint not kept."""
    a, b = playing[p], playing[q]
    parts = [
        reason(
            gettext_noop("%(order)s: place %(a)s against place %(b)s"),
            order=ORDER_NAMES[method],
            a=p + 1,
            b=q + 1,
        )
    ]
    constraint = constraint_between(by_id[a], by_id[b]) if constrained else None
    half = len(playing) // 2
    if constrained and fold_distance(len(playing), p, q):
        parts.append(
            reason(
                gettext_noop(
                    "the fold had place %(a)s against place %(target)s; changed to keep the "
                    "director's constraints"
                ),
                a=p + 1,
                target=(p + half if p < half else p - half) + 1,
            )
        )
    if constraint is not None:
        parts.append(
            reason(
                gettext_noop(
                    "director's constraint not kept (%(constraint)s): the field could not keep it"
                ),
                constraint=constraint,
            )
        )
    why = Explanation(
        method=f"first-round-{method}",
        reason=sentence(parts),
        ranks=(order.index(a) + 1, order.index(b) + 1),
        constraint=constraint,
        reason_parts=tuple(parts),
    )
    return a, b, why


def _constraint_note(moved: int, pairs: int, kept: int) -> Reason:
    """The round's note on the director's constraints: how many pairs differ from the fold to
    keep them, and how many could not be kept."""
    return reason(
        gettext_noop(
            "director's constraints kept with the fold as the target: %(moved)s of %(pairs)s "
            "pair(s) moved from it; %(kept)s pair(s) not kept"
        ),
        moved=moved,
        pairs=pairs,
        kept=kept,
    )
