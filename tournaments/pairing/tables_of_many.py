"""Swiss rounds at tables of 3 or 4 (or mixed sizes): score-group seeding, then local search.

The problem
-----------
Every active entry (usually one player) is seated at a table of an allowed size, or sits out (a
bye). Among all such seatings we want, in strict order of priority:

1. **table sizes** (``table_sizes``): the fewest byes, then the most tables of the preferred
   (largest allowed) size, then the fewest tables (``plan_tables``; e.g. 10 players at sizes
   (4, 3) play 4 + 3 + 3, 9 play 3 + 3 + 3, 5 play 4 and one bye; with sizes (4,) 10 play
   4 + 4 and two byes). This is settled first, exactly, by enumeration.
2. **byes** go to the lowest-ranked entries among those with the fewest byes so far (as in the
   two-entry Swiss), chosen before the tables are formed.
3. **repeat meetings**: the number of pairs of entries at one table who have met before (any
   player of one has shared a table with any player of the other; partners are not opponents).
4. **director's constraints** (rounds ``1 .. constraint_until`` only): pairs of entries of the
   same ``club``, or named in each other's ``avoid``, at one table.
5. **equal match points**: the sum over pairs at a table of the squared match-point difference.
6. director's constraints again, in the later rounds (below the score tier there).
7. **close rank**: the sum over pairs at a table of their distance in the ranking (keeps floats
   at the edges of score groups, and the seating predictable).

Tiers 3 to 7 are packed into one integer cost per table with units that make them
lexicographic, exactly as in ``swiss`` (each unit exceeds the largest total all lower tiers can
reach in one round), so "minimise the total cost" is "minimise the tiers in order".

The algorithm, and what is optimal
----------------------------------
a. Rank the active entries (``ranking.rank_with_draws``: match points, spread, salted lot).
b. Plan the table sizes (tier 1, exact) and give the byes (tier 2, exact by its rule).
c. Seed: the remaining entries fill the tables top down in rank order, larger tables first (so
   the smaller tables are at the bottom); each table takes the best unseated entry, then the
   next unseated entries within 12 places who have met nobody at the table (and, for the
   director's constraints, are not kept apart from anybody there), then fills up in rank order.
   Without history and constraints this is contiguous blocks of the ranking: optimal for tiers
   5 and 7.
d. Local search (a heuristic): repeatedly take a table with a repeat meeting or a constraint
   pair, try every swap of one of its entries with an entry of another table within ``w`` tables
   of it, and make the swap that lowers the total cost most; ``w`` starts at
   ``initial_window`` and doubles whenever no swap helps, up to the whole field. Then a
   polishing pass makes improving swaps between neighbouring tables (tiers 5 to 7). Every
   accepted swap strictly lowers the integer cost, so the search ends.
e. If repeat meetings remain above the lower bound (below): simulated annealing on the repeat
   count alone (``walk_steps`` random swaps, its generator seeded from the salted lot
   ``repair-walk``, so reproducible), then the local search again; kept if the total cost fell.
f. Small fields: at most ``exact_limit`` seated entries (12), an exhaustive search over every
   partition into the planned tables gives the true optimum of tiers 3 to 7, whatever the
   repeats (at the lower bound the lower tiers may still be off: issue 30's 10 players at
   tables of 3 and 2). Larger fields still above the bound: at most ``bound_limit`` (40), a
   branch and bound on repeat meetings alone
   (``bound_budget`` nodes) proves the fewest repeats when it finishes, and its seating is
   polished by the local search (tiers 4 to 7 stay heuristic there).

So: tiers 1 and 2 are optimal by construction. Tier 3 (repeat meetings) is proven optimal when
it equals the lower bound, for fields of at most ``exact_limit`` entries, and when the branch and
bound finishes (the notes say which); otherwise it is a heuristic result. Tiers 4 to 7 are
optimal for fields of at most ``exact_limit`` entries and otherwise a local optimum under single
swaps. ``repeat_lower_bound`` is a proven bound: a player who has not
met ``u`` of the others but sits with ``s - 1`` tablemates (``s`` the smallest planned size) has
at least ``s - 1 - u`` repeat tablemates; summing over players, halving (each repeat pair is
counted twice) and leaving out the ``b`` largest deficits (the byes) bounds every seating. It is
weak late in small events (it knows nothing of how the unmet players fit together), which is
what the exact searches are for. Exact minimisation of repeat meetings at tables of 3 or more is
NP-hard in general (it contains partitioning a graph into triangles), hence the heuristic, the
bound and the budgets.

Seat order and first leader
---------------------------
At each table the seat order is a salted draw (purpose ``seat-order``, context the table's entry
ids in ascending order, so it does not depend on the table number), and the first leader a
salted draw among all players at the table (purpose ``first-leader``, context the entry ids in
seat order, as ``draw.first_leader`` does for two entries). Both are recorded.

Tables: table 1 hosts the top-ranked table; an entry pinned to a table keeps it when free (the
highest-ranked pin of a table wins; conflicts are noted).

Modules: this one builds the field and the round (``pair_tables``); the records are in
``tables_records``, the packed cost and the seating search (steps c to f) in ``tables_search``;
all their public names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from . import draw
from .common import active_by_id
from .ranking import RankKey, rank_with_draws
from .records import (
    DrawRecord,
    EntryRecord,
    Number,
    PastMatch,
    constraint_between,
)
from .tables_records import (
    PastTable,
    Table,
    TableBye,
    TableExplanation,
    TablesOptions,
    TablesRound,
)
from .tables_search import (
    TablesField,
    exhaustive,
    fewest_repeat_seating,
    local_search,
    pair_cost,
    repair,
    repeat_lower_bound,
    seed_tables,
    table_cost,
)

__all__ = [
    "SEAT_PURPOSE",
    "PastTable",
    "Table",
    "TableBye",
    "TableExplanation",
    "TablesOptions",
    "TablesRound",
    "exhaustive",
    "fewest_repeat_seating",
    "local_search",
    "met_ids",
    "pair_cost",
    "pair_tables",
    "plan_tables",
    "repair",
    "repeat_lower_bound",
    "seat_lookup",
    "seed_tables",
    "table_cost",
    "table_history",
    "tablemates_by_player",
]

SEAT_PURPOSE = "seat-order"


# ---------------------------------------------------------------------------- table sizes


def plan_tables(players: int, sizes: Iterable[int]) -> tuple[list[int], int]:
    """The table sizes for ``players`` (largest first) and the number of byes.

    Fewest byes, then the most tables of the largest allowed size, then the fewest tables.

    >>> plan_tables(10, (4, 3)), plan_tables(9, (4, 3)), plan_tables(5, (4, 3))
    (([4, 3, 3], 0), ([3, 3, 3], 0), ([4], 1))
    >>> plan_tables(10, (4,)), plan_tables(2, (3, 4))
    (([4, 4], 2), ([], 2))
    """
    allowed = sorted(set(sizes), reverse=True)
    if not allowed or any(s < 2 for s in allowed):
        raise ValueError(f"table sizes must be 2 or more, not {tuple(sizes)}")
    largest, others = allowed[0], allowed[1:]
    # fill[r]: the fewest byes, then the fewest tables, seating r players at the other sizes
    fill: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    for r in range(1, players + 1):
        options = [(fill[r - 1][0] + 1, fill[r - 1][1], fill[r - 1][2])]  # one more bye
        for size in others:
            if r >= size:
                byes, tables, plan = fill[r - size]
                options.append((byes, tables + 1, (*plan, size)))
        fill.append(min(options, key=lambda o: (o[0], o[1])))
    best: tuple[int, int, int] | None = None
    best_plan: list[int] = []
    for count in range(players // largest, -1, -1):
        byes, tables, plan = fill[players - count * largest]
        key = (byes, -count, tables + count)
        if best is None or key < best:
            best, best_plan = key, [largest] * count + sorted(plan, reverse=True)
    return best_plan, (best[0] if best is not None else players)


# ---------------------------------------------------------------------------- history


def table_history(history: Iterable[PastMatch | PastTable]) -> list[PastTable]:
    """Every past match or table as a ``PastTable`` (a two-entry ``PastMatch`` is a table of 2)."""
    out: list[PastTable] = []
    for item in history:
        if isinstance(item, PastTable):
            out.append(item)
        elif item.entry_b is None:
            out.append(PastTable(item.round_no, (item.entry_a,), (item.players_a,)))
        else:
            out.append(
                PastTable(
                    item.round_no,
                    (item.entry_a, item.entry_b),
                    (item.players_a, item.players_b),
                )
            )
    return out


def tablemates_by_player(history: Iterable[PastMatch | PastTable]) -> dict[int, set[int]]:
    """For each player, every player of another seat they have shared a table with."""
    met: dict[int, set[int]] = {}
    for t in table_history(history):
        for i, players in enumerate(t.players):
            others = set().union(*(q for j, q in enumerate(t.players) if j != i))
            for p in players:
                met.setdefault(p, set()).update(others)
    return met


def met_ids(
    entries: Sequence[EntryRecord], history: Iterable[PastMatch | PastTable]
) -> dict[int, set[int]]:
    """For each given entry id, the ids of the other given entries it has met."""
    owner = {p: e.entry_id for e in entries for p in e.player_ids}
    mates = tablemates_by_player(history)
    out: dict[int, set[int]] = {e.entry_id: set() for e in entries}
    for e in entries:
        for p in e.player_ids:
            for q in mates.get(p, ()):
                other = owner.get(q)
                if other is not None and other != e.entry_id:
                    out[e.entry_id].add(other)
    return out


constrained = constraint_between


# ---------------------------------------------------------------------------- the field


def _scaled(value: Number, scale: int) -> int:
    scaled = Fraction(value) * scale
    if scaled.denominator != 1:
        raise ValueError(f"match points {value} times {scale} is not an integer; raise mp_scale")
    return int(scaled)


def _field(
    ranked: Sequence[EntryRecord],
    history: Sequence[PastMatch | PastTable],
    seated: int,
    round_no: int,
    options: TablesOptions,
) -> TablesField:
    index = {e.entry_id: i for i, e in enumerate(ranked)}
    met_by_id = met_ids(ranked, history)
    met = tuple(frozenset(index[o] for o in met_by_id[e.entry_id]) for e in ranked)
    apart_sets: list[set[int]] = [set() for _ in ranked]
    if any(e.club is not None or e.avoid for e in ranked):
        for i, j in combinations(range(len(ranked)), 2):
            if constrained(ranked[i], ranked[j]) is not None:
                apart_sets[i].add(j)
                apart_sets[j].add(i)
    mp = tuple(_scaled(e.match_points, options.mp_scale) for e in ranked)
    n = len(ranked)
    pairs = 6 * max(seated, 1)  # at most 6 pairs per table of 4; n/2 tables at most (loose)
    spread = max(mp) - min(mp) if mp else 0
    rank_max = pairs * n
    late_unit = rank_max + 1
    late_max = pairs * late_unit + rank_max
    mp_unit = late_max + 1
    mp_max = pairs * spread * spread * mp_unit + late_max
    early_unit = mp_max + 1
    repeat_unit = pairs * early_unit + mp_max + 1
    return TablesField(
        order=tuple(ranked),
        met=met,
        apart=tuple(frozenset(s) for s in apart_sets),
        mp=mp,
        early=round_no <= options.constraint_until,
        repeat_unit=repeat_unit,
        early_unit=early_unit,
        mp_unit=mp_unit,
        late_unit=late_unit,
    )


# ---------------------------------------------------------------------------- the round


def _pins(groups: list[list[int]], ranked: Sequence[EntryRecord]) -> tuple[list[int], list[str]]:
    """Table numbers for groups (top group first), pins kept where free."""
    claimed: dict[int, int] = {}
    chosen: list[int | None] = [None] * len(groups)
    notes: list[str] = []
    for g, members in enumerate(groups):
        for i in members:
            pin = ranked[i].pinned_table
            if pin is None:
                continue
            if chosen[g] is not None:
                if chosen[g] != pin:
                    notes.append(f"entry {ranked[i].entry_id}'s table {pin} is not kept")
                continue
            if pin in claimed:
                notes.append(f"table {pin} is held by an earlier pinned table")
                continue
            claimed[pin] = g
            chosen[g] = pin
    free = 1
    out: list[int] = []
    for g in range(len(groups)):
        fixed = chosen[g]
        if fixed is not None:
            out.append(fixed)
            continue
        while free in claimed:
            free += 1
        out.append(free)
        free += 1
    return out, notes


def _describe(field: TablesField, members: Sequence[int]) -> TableExplanation:
    ranked = field.order
    repeats = tuple(
        (ranked[i].entry_id, ranked[j].entry_id)
        for i, j in combinations(sorted(members), 2)
        if j in field.met[i]
    )
    constraints = []
    for i, j in combinations(sorted(members), 2):
        why = constrained(ranked[i], ranked[j])
        if why is not None:
            constraints.append(f"{why} {ranked[i].entry_id}-{ranked[j].entry_id}")
    groups = tuple(ranked[i].match_points for i in sorted(members))
    distinct = sorted(set(groups), reverse=True)
    if len(distinct) == 1:
        reason = f"score group {distinct[0]}: ranks " + ", ".join(str(i + 1) for i in members)
    else:
        reason = (
            "mixed score groups "
            + "/".join(str(g) for g in distinct)
            + ": ranks "
            + (", ".join(str(i + 1) for i in sorted(members)))
        )
    if repeats:
        reason += f"; REPEAT MEETING(S) {len(repeats)}: the search found no seating without"
    if constraints:
        reason += "; director's constraint not kept: " + ", ".join(constraints)
    return TableExplanation(
        method="swiss_tables",
        reason=reason,
        score_groups=groups,
        ranks=tuple(i + 1 for i in sorted(members)),
        repeats=repeats,
        constraints=tuple(constraints),
    )


def pair_tables(
    entries: Sequence[EntryRecord],
    history: Iterable[PastMatch | PastTable],
    *,
    round_no: int,
    salt: str,
    key: RankKey | None = None,
    options: TablesOptions | None = None,
) -> TablesRound:
    """Seat one Swiss round of the active ``entries`` at tables of the allowed sizes.

    ``history`` holds the earlier rounds (``PastTable``, or ``PastMatch`` for tables of two).
    Round 1 works too (no history: the ranking's salted lot makes it a random draw when every
    entry has 0 match points). See the module docstring for the order of priorities.
    """
    opts = options or TablesOptions()
    past = list(history)
    by_id = active_by_id(entries)
    order, draws = rank_with_draws(by_id.values(), salt=salt, round_no=round_no, key=key)
    ranked = [by_id[i] for i in order]
    n = len(ranked)
    sizes, bye_count = plan_tables(n, opts.table_sizes)
    bye_idx = _bye_indices(ranked, bye_count)
    seated = [i for i in range(n) if i not in set(bye_idx)]
    field = _field(ranked, past, len(seated), round_no, opts)
    seating = _search_seating(field, seated, sizes, bye_count, salt, round_no, opts)
    groups = [sorted(g) for g in seating.groups]
    groups.sort(key=lambda g: g[0])
    numbers, pin_notes = _pins(groups, ranked)
    tables, seat_draws, leader_draws = _seat_tables(
        field, numbers, groups, by_id, salt, round_no, opts
    )
    constraint_pairs = sum(len(t.explanation.constraints) for t in tables)
    notes = _round_notes(field, sizes, bye_count, seating, constraint_pairs, round_no, opts)
    return TablesRound(
        round_no=round_no,
        tables=tuple(tables),
        byes=tuple(_table_byes(ranked, bye_idx, bye_count, opts)),
        ranking=tuple(order),
        draws=tuple(draws + seat_draws + leader_draws),
        notes=tuple(notes + pin_notes),
        repeats=seating.repeats,
        repeat_lower_bound=seating.bound,
        constraint_pairs=constraint_pairs,
        total_cost=sum(table_cost(field, g) for g in groups),
        table_sizes=tuple(opts.table_sizes),
    )


def _bye_indices(ranked: Sequence[EntryRecord], bye_count: int) -> list[int]:
    """The byes (tier 2): the lowest-ranked among the fewest byes so far, as rank indices."""
    n = len(ranked)
    bye_idx: list[int] = []
    if bye_count:
        fewest = sorted({e.byes_received for e in ranked})
        for level in fewest:
            for i in range(n - 1, -1, -1):
                if ranked[i].byes_received == level and len(bye_idx) < bye_count:
                    bye_idx.append(i)
            if len(bye_idx) == bye_count:
                break
    return bye_idx


@dataclass(frozen=True, slots=True)
class _Seating:
    """The search's outcome: the tables (rank indices), their repeat meetings, the lower bound,
    and whether an exact search proved the repeats fewest."""

    groups: list[list[int]]
    repeats: int
    bound: int
    exact: bool


def _search_seating(
    field: TablesField,
    seated: list[int],
    sizes: list[int],
    bye_count: int,
    salt: str,
    round_no: int,
    opts: TablesOptions,
) -> _Seating:
    """Steps c to f of the module docstring: seed, local search, then while repeat meetings stay
    above the lower bound the annealing repair, and the exact searches on small fields."""
    groups = seed_tables(field, seated, sizes)
    groups = local_search(field, groups, opts.initial_window)
    smallest = min(sizes) if sizes else 0
    bound = repeat_lower_bound(field.met, smallest, bye_count) if sizes else 0

    def count_repeats(gs: list[list[int]]) -> int:
        return sum(1 for g in gs for i, j in combinations(g, 2) if j in field.met[i])

    repeats = count_repeats(groups)
    if repeats > bound:
        walk_seed = draw.lot(salt, "repair-walk", round_no, 0)
        walked = repair(field, groups, walk_seed, opts.walk_steps)
        walked = local_search(field, walked, opts.initial_window)
        if sum(table_cost(field, g) for g in walked) < sum(table_cost(field, g) for g in groups):
            groups = walked
            repeats = count_repeats(groups)
    exact = False
    if len(seated) <= opts.exact_limit:
        # Whatever the repeats: the lower tiers (constraints, score groups, close rank) are
        # only exact from the exhaustive search (issue 30: 0 repeats, yet 11 squared
        # match-point differences where 3 were possible).
        groups = exhaustive(field, seated, sizes, start=groups)
        repeats = count_repeats(groups)
        exact = True
    elif repeats > bound and len(seated) <= opts.bound_limit:
        fewer, exact = fewest_repeat_seating(field, seated, sizes, repeats, opts.bound_budget)
        if fewer is not None:
            groups = local_search(field, fewer, opts.initial_window)
            repeats = count_repeats(groups)
    return _Seating(groups, repeats, bound, exact)


def _seat_tables(
    field: TablesField,
    numbers: list[int],
    groups: list[list[int]],
    by_id: Mapping[int, EntryRecord],
    salt: str,
    round_no: int,
    opts: TablesOptions,
) -> tuple[list[Table], list[DrawRecord], list[DrawRecord]]:
    """The tables by number, each in its drawn seat order with its explanation; returns the
    tables, the seat-order draws and the first-leader draws."""
    ranked = field.order
    tables: list[Table] = []
    leader_draws: list[DrawRecord] = []
    seat_draws: list[DrawRecord] = []
    for number, members in zip(numbers, groups, strict=True):
        ids = sorted(ranked[i].entry_id for i in members)
        seats, record = draw.shuffle(salt, SEAT_PURPOSE, round_no, ids, context=ids)
        seat_draws.append(record)
        if opts.draw_leaders:
            players = sorted(p for e in seats for p in by_id[e].player_ids)
            _, lead = draw.choose(salt, draw.LEADER_PURPOSE, round_no, players, context=seats)
            leader_draws.append(lead)
        why = _describe(field, members)
        rank_of = {ranked[i].entry_id: i + 1 for i in members}
        why = TableExplanation(
            method=why.method,
            reason=why.reason,
            score_groups=tuple(by_id[e].match_points for e in seats),
            ranks=tuple(rank_of[e] for e in seats),
            repeats=why.repeats,
            constraints=why.constraints,
        )
        tables.append(Table(table=number, entries=tuple(seats), explanation=why))
    tables.sort(key=lambda t: t.table)
    return tables, seat_draws, leader_draws


def _table_byes(
    ranked: Sequence[EntryRecord], bye_idx: list[int], bye_count: int, opts: TablesOptions
) -> list[TableBye]:
    """The byes in rank order, each with why this entry sits out."""
    n = len(ranked)
    byes = []
    for i in sorted(bye_idx):
        e = ranked[i]
        who = "without a bye" if e.byes_received == 0 else f"with {e.byes_received} bye(s)"
        byes.append(
            TableBye(
                e.entry_id,
                TableExplanation(
                    method="swiss_tables",
                    reason=(
                        f"{n} entries at tables of {'/'.join(map(str, opts.table_sizes))}: "
                        f"{bye_count} sit(s) out; rank {i + 1}, lowest-ranked {who}"
                    ),
                    score_groups=(e.match_points,),
                    ranks=(i + 1,),
                ),
            )
        )
    return byes


def _round_notes(
    field: TablesField,
    sizes: list[int],
    bye_count: int,
    seating: _Seating,
    constraint_pairs: int,
    round_no: int,
    opts: TablesOptions,
) -> list[str]:
    """The round's notes: the table plan, how good the repeat count is, the constraints' tier."""
    repeats, bound = seating.repeats, seating.bound
    plan = ", ".join(f"{sizes.count(k)} of {k}" for k in sorted(set(sizes), reverse=True))
    notes = [f"tables: {plan or 'none'}" + (f"; {bye_count} bye(s)" if bye_count else "")]
    if seating.exact:
        notes.append(
            f"repeat meetings {repeats}: the fewest possible; every tier exact (exhaustive search)"
        )
    elif repeats == bound:
        notes.append(f"repeat meetings {repeats}: the fewest possible (lower bound {bound})")
    else:
        notes.append(
            f"repeat meetings {repeats} (lower bound {bound}; local search, not proven optimal)"
        )
    if any(e.club is not None or e.avoid for e in field.order):
        tier = "above" if field.early else "below"
        notes.append(
            f"director's constraints rank {tier} score groups in round {round_no} "
            f"(above in rounds 1-{opts.constraint_until}); {constraint_pairs} pair(s) not kept"
        )
    return notes


def seat_lookup(round_: TablesRound) -> Mapping[int, int]:
    """entry id -> table number, for the round's seated entries."""
    return {e: t.table for t in round_.tables for e in t.entries}
