"""Swiss rounds: one global maximum-weight matching per round (rustworkx).

The problem
-----------
Rank the active entries (``ranking.rank``). Every entry must play exactly once; an odd field adds
one *bye* node, so the round is a perfect matching of the entries (plus the bye node). Among all
perfect matchings we want, in strict order of priority:

1. no entry gets a second bye while someone with fewer byes could take it (the bye node is only
   joined to the entries with the fewest byes so far);
2. the fewest rematches (two entries *have met* when any player of one has sat opposite any
   player of the other; see ``history``). Rematch edges are left out of the graph altogether; only
   when no rematch-free perfect matching exists are they added, with a penalty so heavy that the
   matching uses as few as possible, and the round says so (see "Rematches" below);
3. the bye to the lowest-ranked entry among those eligible;
4. opponents with equal match points: the sum over pairs of the squared match-point difference
   (squared, so one float across two score groups costs more than two one-group floats);
5. floats from the edges of score groups: a pair across score groups costs the number of its
   upper entry's score group ranked below that entry plus the number of its lower entry's score
   group ranked above it, so the lowest of a group floats down to the highest of the next (the
   usual Swiss rule), and floats stay local in rank;
6. close spread: the sum over pairs of ``min(|spread difference|, spread_cap)``;
7. close rank: the sum over pairs of their distance in the ranking. This settles ties of spread
   (common: many entries share a spread) in favour of neighbours, which keeps the optimum local
   and the pairing predictable.

The director's constraints
--------------------------
Entries of one ``club``, and an entry and those named in its ``avoid`` (a family, a couple), are
kept apart while possible: each such pair costs one unit of a *constraint* tier. In rounds
``1 .. constraint_until`` (3 by default) that tier sits between 2 and 3 (below "no rematch",
above byes and score groups: the early rounds, when score groups are wide and a club-mate
pairing is what people notice); from the next round on it sits between 5 and 6 (below score
groups and floats, above spread: late rounds decide the standings). When no entry of the field
has a ``club`` or an ``avoid``, the tier does not exist and every unit, weight and pairing is
exactly what it was without this feature.

Integer weights and why they are lexicographic
----------------------------------------------
Let ``n`` be the number of entries, ``P`` the number of pairs (bye included), ``D`` the largest
match-point difference in the field (after ``mp_scale``) and ``C`` the spread cap. The cost of a
pair ``(a, b)``, ``a`` ranked above ``b``, is

    cost = REMATCH * [a and b have met] + MP * (mp_a - mp_b)**2 + FLOAT * f(a, b)
           + SPREAD * min(|spread_a - spread_b|, C) + (rank_b - rank_a)

where ``f`` is the float position of tier 5 (at most ``2 n``), and the cost of giving the bye to
``e`` is ``BYE * (eligible entries ranked below e)``, with

    SPREAD  = P * n + 1
    FLOAT   = P * (C * SPREAD + n) + 1
    MP      = P * (2 n * FLOAT + C * SPREAD + n) + 1
    BYE     = P * (D**2 * MP + 2 n * FLOAT + C * SPREAD + n) + 1
    REMATCH = n * BYE

With the director's constraints, an early round adds ``AVOID = n * BYE`` and then
``REMATCH = (P + 1) * AVOID``; a late round adds ``AVOID = P * (C * SPREAD + n) + 1`` below the
float tier, whose per-pair maximum then includes one ``AVOID`` (the same construction, one tier
more).

Each unit is larger than the largest total that all lower tiers can reach in one matching (a
matching has ``P`` edges, each contributing at most the bracketed amount to the lower tiers, and
at most one bye edge contributing at most ``(n - 1) * BYE``), so one unit of a higher tier
outweighs any combination of lower-tier costs: minimising the total cost minimises the tiers
lexicographically. The edge weight given to rustworkx is ``BASE - cost`` with ``BASE`` one more
than the largest edge cost, so every weight is positive. ``max_cardinality=True`` makes rustworkx
compare only perfect matchings (all with ``P`` edges), so the maximum total weight
``P * BASE - cost`` is the minimum total cost. Weights are Python ints (rustworkx takes 128-bit
integer weights; ``prepare_field`` refuses a field whose weights would not fit).

The window
----------
A dense graph has ``n**2 / 2`` edges; the optimum almost never uses a pair far apart in rank
(every tier's cost grows with rank distance). So each entry is first joined only to the entries
within ``k`` places of it in the ranking (``k = initial_window``), and the window doubles while
(a) the graph has no perfect matching, or (b) the matching is *binding*: it uses a pair more than
``k / 2`` places apart, or gives the bye to anyone but the lowest eligible entry. Both signal
that the window constrains the optimum, so a wider one might do better. (An earlier rule, "a pair
exactly ``k`` apart", missed 1 in 1,500 random histories: the optimum needed a pair 9 apart while
the window-8 matching used none at distance 8.) Condition (b) is a heuristic, not a proof: the
tests (including a property test over random histories, 1,500 of which also agreed offline with
initial windows 1 to 8) and the benchmark compare the windowed total weight with the dense
optimum. When the window reaches the whole field the graph is dense and the result is optimal by
construction. On Swiss-like histories of 500 and 2,000 teams the first window (8) already
satisfies both conditions.

Rematches
---------
An entry that has met a quarter of the field or more is *hard* (``rematches``): it has few
rematch-free partners, possibly far from it in the ranking. When the first window has no perfect
matching, ``rematches.hard_entries`` names the hard entries, whose every pair is a candidate from
then on (and never binds the window), and finds the most rematch-free pairs the field can have,
exactly and without the dense graph (from the hard entries and Dirac's condition on the others).
If that is fewer than the round's pairs, no rematch-free pairing exists: the fewest rematches is the
difference, and the matcher goes straight to a window of candidates with rematches allowed (and
penalised), plus every pair of a hard entry, doubling it until the matching has exactly that many
rematches and does not bind. The number of rematches is therefore always the fewest possible;
the lower tiers are the window's, as in a rematch-free round (1,952 rounds forced into rematches,
12 to 120 entries, matched the dense optimum's total weight; 2,000 entries: the benchmark). When
the count cannot be certified (Dirac's condition fails: a small field, or one where most entries
have met most others), the dense graph decides, as before. ``dense=True`` always uses the dense
graph: the reference the tests compare with.

Seat order: the higher-ranked entry of a pair sits first (seat A). Tables: see ``tables``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import rustworkx as rx

from .common import active_by_id, seat_pairings
from .ranking import RankKey, rank_with_draws
from .reasons import Reason, gettext_noop, reason, sentence
from .records import (
    Bye,
    EntryRecord,
    Explanation,
    PastMatch,
    RoundPairing,
    constraint_between,
)
from .rematches import HardEntries, hard_entries
from .swiss_field import Field, SwissOptions, Units, pair_cost, prepare_field

__all__ = [
    "Field",
    "SwissOptions",
    "Units",
    "candidate_edges",
    "pair_cost",
    "pair_swiss",
    "prepare_field",
    "solve",
    "total_weight",
]


def candidate_edges(
    field: Field,
    window: int,
    *,
    allow_rematches: bool,
    hard: frozenset[int] = frozenset(),
) -> list[tuple[int, int, int]]:
    """The candidate graph: (i, j, weight) for entries within ``window`` ranks of each other
    (rematches only if allowed), every pair with a ``hard`` entry (``rematches``: they have few
    candidates, anywhere in the ranking), and the bye node joined to every eligible entry."""
    u = field.units
    n = field.size
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        met = field.met[i]
        for j in range(i + 1, min(n, i + window + 1)):
            if not allow_rematches and j in met:
                continue
            edges.append((i, j, u.base - pair_cost(field, i, j)))
    for i in sorted(hard):
        for j in range(n):
            if abs(j - i) <= window or (j in hard and j < i):
                continue  # already listed: in the window, or from the other hard entry
            if not allow_rematches and j in field.met[i]:
                continue
            a, b = min(i, j), max(i, j)
            edges.append((a, b, u.base - pair_cost(field, a, b)))
    bye = field.bye_node
    if bye is not None:
        for i, cost in field.bye_cost.items():
            edges.append((i, bye, u.base - cost * u.bye))
    return edges


def _identity(weight: int) -> int:
    return weight


def solve(nodes: int, edges: list[tuple[int, int, int]]) -> dict[int, int] | None:
    """Maximum-weight maximum-cardinality matching; ``None`` unless it is perfect.

    Returns the mate of every node.
    """
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    if 2 * len(matching) != nodes:
        return None
    mate: dict[int, int] = {}
    for a, b in matching:
        mate[a] = b
        mate[b] = a
    return mate


def _binding(
    field: Field, mate: dict[int, int], window: int, hard: frozenset[int] = frozenset()
) -> bool:
    """Whether the window may have constrained the matching: a pair more than ``window / 2``
    apart (a hard entry's pairs excepted: all of them are candidates), or a bye to anyone but
    the lowest eligible entry."""
    bye = field.bye_node
    for a, b in mate.items():
        if b == bye:
            if field.bye_cost.get(a, 0) != 0:
                return True
        elif a < b < field.size and 2 * (b - a) > window and a not in hard and b not in hard:
            return True
    return False


def _match(field: Field, options: SwissOptions) -> tuple[dict[int, int], int, bool]:
    """Find the round's matching: (mate, window used, rematches allowed)."""
    full = max(field.size - 1, 1)
    if options.dense:
        return _dense(field)
    window = max(1, min(options.initial_window, full))
    hard: HardEntries | None = None
    while True:
        extra = hard.entries if hard is not None else frozenset()
        mate = solve(field.nodes, candidate_edges(field, window, allow_rematches=False, hard=extra))
        if mate is not None and (window >= full or not _binding(field, mate, window, extra)):
            return mate, window, False
        if mate is None and hard is None:
            eligible = field.bye_cost if field.bye_node is not None else None
            hard = hard_entries(field.met, eligible)
            if hard.most_pairs is not None and 2 * hard.most_pairs < field.nodes:
                return _fewest_rematches(field, options, hard)  # no rematch-free pairing exists
            if hard.entries:
                continue  # the same window again, with every rematch-free pair of a hard entry
        if window >= full:
            return _fewest_rematches(field, options, hard)
        window = min(window * 2, full)


def _dense(field: Field) -> tuple[dict[int, int], int, bool]:
    """The reference: every rematch-free pair a candidate; if no perfect matching, every pair."""
    full = max(field.size - 1, 1)
    mate = solve(field.nodes, candidate_edges(field, full, allow_rematches=False))
    if mate is not None:
        return mate, full, False
    mate = solve(field.nodes, candidate_edges(field, full, allow_rematches=True))
    if mate is None:  # pragma: no cover - a complete graph always has a perfect matching
        raise RuntimeError("no perfect matching on the complete graph")
    return mate, full, True


def _fewest_rematches(
    field: Field, options: SwissOptions, hard: HardEntries | None
) -> tuple[dict[int, int], int, bool]:
    """No rematch-free pairing exists: the fewest rematches. With their number known
    (``hard.most_pairs``; see ``rematches``), a window of candidates (rematches included) and
    every pair of a hard entry, widened until the matching has that many rematches and the
    window does not bind; otherwise (or once the window is the field) the dense graph."""
    full = max(field.size - 1, 1)
    if hard is None or hard.most_pairs is None:
        return _dense(field)
    fewest = field.nodes // 2 - hard.most_pairs
    window = max(2, min(options.initial_window, full))
    while window < full:
        mate = solve(
            field.nodes, candidate_edges(field, window, allow_rematches=True, hard=hard.entries)
        )
        if (
            mate is not None
            and _rematch_count(field, mate) == fewest
            and not _binding(field, mate, window, hard.entries)
        ):
            return mate, window, True
        window = min(window * 2, full)
    return _dense(field)


def _rematch_count(field: Field, mate: dict[int, int]) -> int:
    return sum(1 for a, b in mate.items() if a < b < field.size and b in field.met[a])


def total_weight(field: Field, mate: dict[int, int]) -> int:
    """The matching's total weight under the round's units."""
    u = field.units
    bye = field.bye_node
    total = 0
    for a, b in mate.items():
        if a > b:
            continue
        if b == bye:
            total += u.base - field.bye_cost[a] * u.bye
        else:
            total += u.base - pair_cost(field, a, b)
    return total


def _pair_explanation(field: Field, i: int, j: int, window: int) -> Explanation:
    a, b = field.order[i], field.order[j]
    rematch = j in field.met[i]
    diff = a.match_points - b.match_points
    ranks = {"high": i + 1, "low": j + 1, "high_mp": a.match_points, "low_mp": b.match_points}
    if diff == 0:
        parts = [
            reason(
                gettext_noop("score group %(group)s: ranks %(high)s and %(low)s"),
                group=a.match_points,
                high=i + 1,
                low=j + 1,
            )
        ]
    elif diff > 0:
        parts = [
            reason(
                gettext_noop(
                    "rank %(low)s (%(low_mp)s mp) paired up %(diff)s against rank %(high)s "
                    "(%(high_mp)s mp)"
                ),
                diff=diff,
                **ranks,
            )
        ]
    else:
        parts = [
            reason(
                gettext_noop(
                    "rank %(low)s (%(low_mp)s mp) paired down %(diff)s against rank %(high)s "
                    "(%(high_mp)s mp)"
                ),
                diff=-diff,
                **ranks,
            )
        ]
    if rematch:
        parts.append(reason(gettext_noop("REMATCH: no rematch-free pairing of the field exists")))
    constraint = constraint_between(a, b) if field.apart else None
    if constraint is not None:
        parts.append(
            reason(
                gettext_noop(
                    "director's constraint not kept (%(constraint)s): the field could not keep it"
                ),
                constraint=constraint,
            )
        )
    return Explanation(
        method="swiss",
        reason=sentence(parts),
        score_group=a.match_points,
        float_points=diff,
        rematch=rematch,
        ranks=(i + 1, j + 1),
        window=window,
        constraint=constraint,
        reason_parts=tuple(parts),
    )


def _bye_explanation(field: Field, i: int, window: int) -> Explanation:
    e = field.order[i]
    below = field.bye_cost[i]
    fewest = e.byes_received
    where = {"rank": i + 1, "size": field.size}
    if below == 0 and fewest == 0:
        why = reason(
            gettext_noop(
                "odd field: lowest-ranked active entry without a bye (rank %(rank)s of %(size)s)"
            ),
            **where,
        )
    elif below == 0:
        why = reason(
            gettext_noop(
                "odd field: lowest-ranked active entry with the fewest byes (%(fewest)s) "
                "(rank %(rank)s of %(size)s)"
            ),
            fewest=fewest,
            **where,
        )
    elif fewest == 0:
        why = reason(
            gettext_noop(
                "odd field: rank %(rank)s of %(size)s; the %(below)s lower-ranked entries without "
                "a bye could not sit out without a rematch"
            ),
            below=below,
            **where,
        )
    else:
        why = reason(
            gettext_noop(
                "odd field: rank %(rank)s of %(size)s; the %(below)s lower-ranked entries with the "
                "fewest byes (%(fewest)s) could not sit out without a rematch"
            ),
            below=below,
            fewest=fewest,
            **where,
        )
    return Explanation(
        method="swiss",
        reason=why.text,
        score_group=e.match_points,
        ranks=(i + 1,),
        window=window,
        reason_parts=(why,),
    )


def pair_swiss(
    entries: Sequence[EntryRecord],
    history: Iterable[PastMatch],
    *,
    round_no: int,
    salt: str,
    key: RankKey | None = None,
    options: SwissOptions | None = None,
) -> RoundPairing:
    """Pair one Swiss round of the active ``entries`` given the ``history`` of earlier rounds.

    ``key`` replaces the ranking's match points / spread order (issue 8's tiebreaks); the salted
    lot stays last. The result lists pairings by table (higher-ranked entry in seat A), at most
    one bye, the rank order used, every draw (rank ties, first leaders), the total weight, the
    number of rematches (non-zero only when unavoidable) and the window that produced it.
    """
    opts = options or SwissOptions()
    history = list(history)
    by_id = active_by_id(entries)
    order, draws = rank_with_draws(by_id.values(), salt=salt, round_no=round_no, key=key)
    field = prepare_field(entries, history, order, opts, round_no)
    if field.size == 0:
        return RoundPairing(round_no=round_no, kind="swiss", pairings=(), draws=tuple(draws))
    mate, window, rematches_allowed = _match(field, opts)
    matches: list[tuple[int, int, Explanation]] = []
    byes: list[Bye] = []
    rematches = 0
    for i in range(field.size):
        j = mate[i]
        if j == field.bye_node:
            byes.append(Bye(field.order[i].entry_id, _bye_explanation(field, i, window)))
        elif i < j:
            why = _pair_explanation(field, i, j, window)
            rematches += why.rematch
            matches.append((field.order[i].entry_id, field.order[j].entry_id, why))
    notes = _round_notes(field, matches, rematches, rematches_allowed, window, round_no, opts)
    pairings, leader_draws, pin_notes = seat_pairings(
        matches, by_id, salt=salt, round_no=round_no, draw_leaders=opts.draw_leaders
    )
    return RoundPairing(
        round_no=round_no,
        kind="swiss",
        pairings=tuple(pairings),
        byes=tuple(byes),
        ranking=tuple(order),
        draws=tuple(draws + leader_draws),
        notes=tuple(n.text for n in notes + pin_notes),
        note_parts=tuple(notes + pin_notes),
        total_weight=total_weight(field, mate),
        rematches=rematches,
        window=window,
    )


def _round_notes(
    field: Field,
    matches: Sequence[tuple[int, int, Explanation]],
    rematches: int,
    rematches_allowed: bool,
    window: int,
    round_no: int,
    opts: SwissOptions,
) -> list[Reason]:
    """The round's notes: rematch-free (and within which window) or the fewest rematches, and
    where the director's constraints ranked this round with how many pairs were not kept."""
    notes: list[Reason] = []
    if rematches_allowed:
        notes.append(
            reason(
                gettext_noop(
                    "no rematch-free pairing exists: %(rematches)s rematch(es), the fewest possible"
                ),
                rematches=rematches,
            )
        )
    else:
        notes.append(
            reason(gettext_noop("rematch-free; candidates within %(window)s ranks"), window=window)
        )
    if field.apart:
        kept = sum(1 for _m, _n, why in matches if why.constraint is not None)
        template = (
            gettext_noop(
                "director's constraints rank above score groups in round %(round)s (above in "
                "rounds 1-%(until)s); %(kept)s pair(s) not kept"
            )
            if round_no <= opts.constraint_until
            else gettext_noop(
                "director's constraints rank below score groups in round %(round)s (above in "
                "rounds 1-%(until)s); %(kept)s pair(s) not kept"
            )
        )
        notes.append(reason(template, round=round_no, until=opts.constraint_until, kept=kept))
    return notes
