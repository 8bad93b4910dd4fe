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
   when no rematch-free perfect matching exists, even on the dense graph, are they added, with a
   penalty so heavy that the matching uses as few as possible, and the round says so;
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

Seat order: the higher-ranked entry of a pair sits first (seat A). Tables: see ``tables``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import rustworkx as rx

from .common import active_by_id, seat_pairings
from .history import met_entries
from .ranking import RankKey, rank_with_draws
from .reasons import Reason, gettext_noop, reason, sentence
from .records import (
    CONSTRAINT_UNTIL,
    Bye,
    EntryRecord,
    Explanation,
    Number,
    PastMatch,
    RoundPairing,
    constraint_between,
)


@dataclass(frozen=True, slots=True)
class SwissOptions:
    """Tuning of the Swiss matcher.

    ``mp_scale`` and ``spread_scale`` turn match points and spread into integers (e.g. 2 when
    half match points exist); spread differences are rounded to the nearest integer after
    scaling. ``spread_cap`` bounds the spread tier. ``dense`` skips the window (reference runs).
    ``draw_leaders`` adds a first-leader draw per table to the round. ``constraint_until`` is
    the last round where the director's constraints rank above score groups.
    """

    initial_window: int = 8
    spread_cap: int = 1000
    mp_scale: int = 1
    spread_scale: int = 1
    dense: bool = False
    draw_leaders: bool = True
    constraint_until: int = CONSTRAINT_UNTIL


@dataclass(frozen=True, slots=True)
class Units:
    """The tier units of one round (see the module docstring)."""

    pairs: int
    spread_cap: int
    spread: int
    float: int
    mp: int
    bye: int
    rematch: int
    base: int
    avoid: int = 0


@dataclass(frozen=True, slots=True)
class Field:
    """The prepared field of a round: entries in rank order (index 0 ranks first), the bye node
    (index ``n``, when the field is odd), who has met whom, and the tier units."""

    order: tuple[EntryRecord, ...]
    met: tuple[frozenset[int], ...]
    mp: tuple[int, ...]
    spread: tuple[int | Fraction, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    bye_cost: dict[int, int]
    units: Units
    apart: tuple[frozenset[int], ...] = ()

    @property
    def size(self) -> int:
        return len(self.order)

    @property
    def bye_node(self) -> int | None:
        return self.size if self.size % 2 else None

    @property
    def nodes(self) -> int:
        return self.size + (1 if self.size % 2 else 0)


def _exact(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def _scaled_int(value: Number, scale: int, what: str) -> int:
    if isinstance(value, int):
        return value * scale
    scaled = Fraction(value) * scale
    if scaled.denominator != 1:
        raise ValueError(f"{what} {value} times scale {scale} is not an integer; raise the scale")
    return int(scaled)


def prepare_field(
    entries: Sequence[EntryRecord],
    history: Iterable[PastMatch],
    order: Sequence[int],
    options: SwissOptions,
    round_no: int = 1,
) -> Field:
    """Index the active entries in rank order and compute who has met whom and the units."""
    by_id = active_by_id(entries)
    ranked = tuple(by_id[i] for i in order)
    index = {e.entry_id: i for i, e in enumerate(ranked)}
    met_ids = met_entries(ranked, history)
    met = tuple(frozenset(index[o] for o in met_ids[e.entry_id]) for e in ranked)
    mp = tuple(_scaled_int(e.match_points, options.mp_scale, "match points") for e in ranked)
    # Integral spreads stay ints: Fraction arithmetic is the slowest part of building the graph.
    scale = options.spread_scale
    spread: tuple[int | Fraction, ...] = tuple(
        e.spread * scale if isinstance(e.spread, int) else _exact(e.spread * scale) for e in ranked
    )
    n = len(ranked)
    above, below = _group_positions(mp)
    apart = _apart(ranked)
    early = bool(apart) and round_no <= options.constraint_until
    units = _units(n, mp, options.spread_cap, early=early, late=bool(apart) and not early)
    return Field(ranked, met, mp, spread, above, below, _bye_costs(ranked), units, apart)


def _bye_costs(ranked: Sequence[EntryRecord]) -> dict[int, int]:
    """For an odd field, the bye cost of each entry eligible for the bye (the fewest byes so
    far): how many eligible entries are ranked below it. Empty for an even field."""
    bye_cost: dict[int, int] = {}
    if len(ranked) % 2:
        fewest = min(e.byes_received for e in ranked)
        eligible = [i for i, e in enumerate(ranked) if e.byes_received == fewest]
        # eligible is in rank order; the cost counts the eligible entries ranked below.
        for position, i in enumerate(eligible):
            bye_cost[i] = len(eligible) - 1 - position
    return bye_cost


def _group_positions(mp: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each entry's position inside its score group (entries with equal scaled match points),
    for tier 5: how many of the group are ranked above it, and how many below."""
    n = len(mp)
    above = [0] * n
    below = [0] * n
    group_size: dict[int, int] = {}
    for i in range(n):
        above[i] = group_size.get(mp[i], 0)
        group_size[mp[i]] = above[i] + 1
    for i in range(n):
        below[i] = group_size[mp[i]] - 1 - above[i]
    return tuple(above), tuple(below)


def _apart(ranked: Sequence[EntryRecord]) -> tuple[frozenset[int], ...]:
    """For each rank index, whom the director keeps it apart from; empty when nobody is."""
    n = len(ranked)
    apart: tuple[frozenset[int], ...] = ()
    if any(e.club is not None or e.avoid for e in ranked):
        apart = tuple(
            frozenset(j for j in range(n) if j != i and constraint_between(ranked[i], ranked[j]))
            for i in range(n)
        )
        if not any(apart):
            apart = ()  # nobody is to be kept apart from anybody: no tier
    return apart


def _units(n: int, mp: Sequence[int], cap: int, *, early: bool, late: bool) -> Units:
    """The units that pack the tiers into one weight per pair, each above the most that all
    lower tiers can add up to in one round; the constraint tier sits above the rematch tier in
    the early rounds (``early``) and below the float tier later (``late``)."""
    pairs = (n + 1) // 2
    mp_range = max(mp) - min(mp) if mp else 0
    spread_unit = pairs * n + 1
    tier6_max = cap * spread_unit + n
    avoid_unit = 0
    if late:
        avoid_unit = pairs * tier6_max + 1
        tier6_max += avoid_unit  # the per-pair maximum below the float tier
    float_unit = pairs * tier6_max + 1
    tier5_max = 2 * n * float_unit + tier6_max
    mp_unit = pairs * tier5_max + 1
    lower_max = mp_range**2 * mp_unit + tier5_max
    bye_unit = pairs * lower_max + 1
    rematch_unit = n * bye_unit
    if early:
        avoid_unit = rematch_unit
        rematch_unit = (pairs + 1) * avoid_unit
        lower_max += avoid_unit
    top = max(rematch_unit + lower_max, max(n - 1, 0) * bye_unit)
    if top * max(pairs, 1) >= 2**126:
        raise ValueError("field too large for 128-bit weights; lower spread_cap")
    return Units(
        pairs, cap, spread_unit, float_unit, mp_unit, bye_unit, rematch_unit, top + 1, avoid_unit
    )


def _gap(a: int | Fraction, b: int | Fraction) -> int:
    """|a - b| rounded to the nearest integer (half to even), exact for Fractions."""
    if isinstance(a, int) and isinstance(b, int):
        return abs(a - b)
    return round(abs(Fraction(a) - Fraction(b)))


def pair_cost(field: Field, i: int, j: int) -> int:
    """The cost of pairing the entries ranked ``i`` and ``j`` (0-based)."""
    u = field.units
    d = field.mp[i] - field.mp[j]
    spread = min(_gap(field.spread[i], field.spread[j]), u.spread_cap)
    rematch = u.rematch if j in field.met[i] else 0
    if field.apart and j in field.apart[i]:
        rematch += u.avoid
    near = u.spread * spread + abs(j - i)
    if d == 0:
        return rematch + near
    hi, lo = (i, j) if d > 0 else (j, i)
    return rematch + u.mp * d * d + u.float * (field.below[hi] + field.above[lo]) + near


def candidate_edges(
    field: Field, window: int, *, allow_rematches: bool
) -> list[tuple[int, int, int]]:
    """The candidate graph: (i, j, weight) for entries within ``window`` ranks of each other
    (rematches only if allowed), plus the bye node joined to every eligible entry."""
    u = field.units
    n = field.size
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        met = field.met[i]
        for j in range(i + 1, min(n, i + window + 1)):
            if not allow_rematches and j in met:
                continue
            edges.append((i, j, u.base - pair_cost(field, i, j)))
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


def _binding(field: Field, mate: dict[int, int], window: int) -> bool:
    bye = field.bye_node
    for a, b in mate.items():
        if b == bye:
            if field.bye_cost.get(a, 0) != 0:
                return True
        elif a < b < field.size and 2 * (b - a) > window:
            return True
    return False


def _match(field: Field, options: SwissOptions) -> tuple[dict[int, int], int, bool]:
    """Find the round's matching: (mate, window used, rematches allowed)."""
    n = field.size
    full = max(n - 1, 1)
    window = full if options.dense else max(1, min(options.initial_window, full))
    while True:
        mate = solve(field.nodes, candidate_edges(field, window, allow_rematches=False))
        if window >= full:
            break
        if mate is not None and not _binding(field, mate, window):
            break
        window = min(window * 2, full)
    if mate is not None:
        return mate, window, False
    # No rematch-free perfect matching exists at all: allow the fewest rematches, densely.
    mate = solve(field.nodes, candidate_edges(field, full, allow_rematches=True))
    if mate is None:  # pragma: no cover - a complete graph always has a perfect matching
        raise RuntimeError("no perfect matching on the complete graph")
    return mate, full, True


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
