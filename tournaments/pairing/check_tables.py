"""An independent re-check of a round at tables of three or more (``TablesRound``).

Independent of ``tables_of_many``: it shares the record types and the salted draw (the published
rule) only; it rebuilds who has shared a table with whom from the history itself, and proves an
avoidable repeat meeting or constraint pair by a *witness*: a better seating it found.

Rules checked (codes of ``Violation``):

- ``unknown_entry``, ``inactive``, ``duplicate``, ``missing``: every active entry is at exactly
  one table or has a bye, and only active entries of the event are seated;
- ``table``: table numbers are positive and distinct; ``table_size``: every table has an allowed
  size;
- ``bye_count``: the number of byes is the fewest the allowed sizes permit;
  ``second_bye``: no bye goes to an entry with more byes than a seated entry;
- ``repeat``: a repeat meeting (two entries at a table who have shared one before) that a better
  seating avoids: the checker tries every swap of an entry of a table with a repeat meeting with
  an entry of any other table, and, for fields of at most ``exact_limit`` seated entries, a
  branch and bound over every seating; a seating with fewer repeat meetings is the witness;
- ``club`` / ``avoid`` (rounds ``1 .. constraint_until``): a pair the director asked to keep
  apart at one table, when a swap keeps the repeat meetings and lowers such pairs;
- ``seating`` (fields of at most ``tiers_limit`` seated entries, 12, where the generator's
  exhaustive search promises every tier): a seating into the same table sizes, with no more
  repeat meetings, that is better in the lower tiers, in their order: pairs the director keeps
  apart (above the score tier in rounds ``1 .. constraint_until``, below it later) and the sum
  over pairs at a table of the squared match-point difference. Found by its own exhaustive
  search (a branch and bound on those tiers); the close-rank tier, which only orders seatings
  equal in all of these, is not checked;
- ``seat_draw`` (when ``salt`` is given): each table's seat order is the salted ``seat-order``
  draw of its entries, its first leader the salted ``first-leader`` draw among its players, and
  every draw record of the round verifies.

A table or bye carrying a director's ``override`` reports its problems with code ``override``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations

from . import draw
from .reasons import Reason, gettext_noop, reason
from .records import CONSTRAINT_UNTIL, EntryRecord, PastMatch, Violation, constraint_between
from .tables_of_many import PastTable, TablesRound
from .violations import (
    BYE_NOT_ACTIVE,
    BYE_NOT_IN_EVENT,
    NOT_ACTIVE,
    NOT_IN_EVENT,
    TABLE_NUMBER,
    RoundReport,
    already_placed,
    bye_and_placed,
)


def _shared(history: Iterable[PastMatch | PastTable]) -> dict[int, set[int]]:
    """player -> players of other seats they have sat with."""
    seen: dict[int, set[int]] = {}
    for item in history:
        if isinstance(item, PastTable):
            seats = list(item.players)
        else:
            seats = [item.players_a] + ([item.players_b] if item.entry_b is not None else [])
        for i, j in combinations(range(len(seats)), 2):
            for p in seats[i]:
                for q in seats[j]:
                    seen.setdefault(p, set()).add(q)
                    seen.setdefault(q, set()).add(p)
    return seen


def fewest_byes(players: int, sizes: Sequence[int]) -> int:
    """The fewest byes with which ``players`` fill tables of the allowed ``sizes``."""
    fits = [True] + [False] * players
    for k in range(1, players + 1):
        fits[k] = any(k >= s and fits[k - s] for s in sizes)
    return next(b for b in range(players + 1) if fits[players - b])


def _repeats_in(table: Sequence[int], met: dict[int, set[int]]) -> int:
    return sum(1 for a, b in combinations(table, 2) if b in met[a])


def _fewer_by_search(
    tables: list[list[int]], met: dict[int, set[int]], upper: int, budget: int
) -> bool | None:
    """Whether some seating into the same table sizes has fewer than ``upper`` repeat meetings:
    True/False, or None when the budget ran out first."""
    items = sorted(e for t in tables for e in t)
    counts: dict[int, int] = {}
    for t in tables:
        counts[len(t)] = counts.get(len(t), 0) + 1
    nodes = 0

    class Found(Exception):
        pass

    class Spent(Exception):
        pass

    def place(left: list[int], so_far: int) -> None:
        if not left:
            raise Found
        for size in [s for s, c in counts.items() if c > 0]:
            counts[size] -= 1
            grow([left[0]], left[1:], 0, size, so_far)
            counts[size] += 1

    def grow(group: list[int], rest: list[int], start: int, size: int, so_far: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise Spent
        if so_far >= upper:
            return
        if len(group) == size:
            place([e for e in rest if e not in group], so_far)
            return
        for k in range(start, len(rest) - (size - len(group)) + 1):
            c = rest[k]
            group.append(c)
            grow(group, rest, k + 1, size, so_far + sum(1 for g in group[:-1] if c in met[g]))
            group.pop()

    try:
        place(items, 0)
    except Found:
        return True
    except Spent:
        return None
    return False


def check_tables_round(
    round_: TablesRound,
    entries: Sequence[EntryRecord],
    history: Iterable[PastMatch | PastTable],
    *,
    table_sizes: Sequence[int] | None = None,
    constraint_until: int = CONSTRAINT_UNTIL,
    salt: str | None = None,
    exact_limit: int = 16,
    budget: int = 200_000,
    tiers_limit: int = 12,
) -> list[Violation]:
    """Every violation in ``round_`` given the entries (as before the round) and the history of
    earlier rounds; ``table_sizes`` defaults to the round's own. Empty when the round is clean."""
    sizes = tuple(table_sizes or round_.table_sizes)
    by_id = {e.entry_id: e for e in entries}
    active = [e for e in entries if e.active]
    report = RoundReport(round_.round_no)
    seen = _check_seats(round_, by_id, active, sizes, report)
    _check_byes(round_, by_id, len(active), sizes, seen, report)
    history = list(history)
    repeats = _check_meetings(round_, by_id, history, constraint_until, exact_limit, budget, report)
    if not repeats:  # fewer repeat meetings possible: that rule has said so
        _check_tiers(round_, by_id, history, constraint_until, tiers_limit, report)
    if salt is not None:
        _check_seat_draws(round_, by_id, salt, report)
    return report.out


def _check_seats(
    round_: TablesRound,
    by_id: Mapping[int, EntryRecord],
    active: Sequence[EntryRecord],
    sizes: tuple[int, ...],
    report: RoundReport,
) -> dict[int, int | None]:
    """Table numbers, table sizes, unknown, inactive and doubly seated entries, and every active
    entry seated or given a bye; returns where each entry is (its table, or None for the bye)."""
    seen: dict[int, int | None] = {}
    numbers: set[int] = set()
    for t in round_.tables:
        if t.table < 1 or t.table in numbers:
            report(t.table, "table", reason(TABLE_NUMBER, table=t.table), None)
        numbers.add(t.table)
        if sizes and len(t.entries) not in sizes:
            size = reason(
                gettext_noop("%(count)s entries at a table; allowed sizes %(sizes)s"),
                count=len(t.entries),
                sizes=str(sizes),
            )
            report(t.table, "table_size", size, t.override)
        for e in t.entries:
            if e not in by_id:
                report(t.table, "unknown_entry", reason(NOT_IN_EVENT, entry=e), t.override)
            elif not by_id[e].active:
                report(t.table, "inactive", reason(NOT_ACTIVE, entry=e), t.override)
            if e in seen:
                report(t.table, "duplicate", already_placed(e, seen[e]), t.override)
            seen.setdefault(e, t.table)
    for bye in round_.byes:
        who = bye.entry_id
        if who not in by_id:
            report(None, "unknown_entry", reason(BYE_NOT_IN_EVENT, entry=who), bye.override)
        elif not by_id[who].active:
            report(None, "inactive", reason(BYE_NOT_ACTIVE, entry=who), bye.override)
        if who in seen:
            report(None, "duplicate", bye_and_placed(who, seen[who]), bye.override)
        seen.setdefault(who, None)
    for rec in active:
        if rec.entry_id not in seen:
            unseated = gettext_noop("active entry %(entry)s is not seated")
            report(None, "missing", reason(unseated, entry=rec.entry_id))
    return seen


def _check_byes(
    round_: TablesRound,
    by_id: Mapping[int, EntryRecord],
    active: int,
    sizes: tuple[int, ...],
    seen: Mapping[int, int | None],
    report: RoundReport,
) -> None:
    """The number of byes (the fewest the table sizes allow), and no second bye while a seated
    entry has had fewer."""
    expected = fewest_byes(active, sizes) if sizes else 0
    if len(round_.byes) != expected:
        count = reason(
            gettext_noop(
                "%(byes)s byes for %(active)s active entries at tables of %(sizes)s "
                "(expected %(expected)s)"
            ),
            byes=len(round_.byes),
            active=active,
            sizes=str(sizes),
            expected=expected,
        )
        report(None, "bye_count", count)
    byes = {bye.entry_id for bye in round_.byes}
    seated_fewest = min(
        (by_id[e].byes_received for e in seen if e in by_id and e not in byes), default=None
    )
    for bye in round_.byes:
        had = by_id.get(bye.entry_id)
        if had is not None and seated_fewest is not None and had.byes_received > seated_fewest:
            second = reason(
                gettext_noop(
                    "entry %(entry)s already had %(had)s bye(s); a seated entry had %(fewest)s"
                ),
                entry=bye.entry_id,
                had=had.byes_received,
                fewest=seated_fewest,
            )
            report(None, "second_bye", second, bye.override)


def _met(
    ids: Sequence[int],
    by_id: Mapping[int, EntryRecord],
    history: Iterable[PastMatch | PastTable],
) -> dict[int, set[int]]:
    """Which of the entries ``ids`` have met (any of their players shared a table before)."""
    shared = _shared(history)
    met: dict[int, set[int]] = {e: set() for e in ids}
    for a, b in combinations(ids, 2):
        if any(q in shared.get(p, ()) for p in by_id[a].player_ids for q in by_id[b].player_ids):
            met[a].add(b)
            met[b].add(a)
    return met


def _swap_witnesses(
    tables: list[list[int]], met: dict[int, set[int]], by_id: Mapping[int, EntryRecord]
) -> tuple[tuple[int, int, int] | None, tuple[int, int] | None]:
    """A swap of two entries between two tables that removes repeat meetings (the two entries
    and how many it removes), and one that keeps more constraint pairs apart without adding a
    repeat (the two entries); each None when there is none."""

    def apart(table: Sequence[int]) -> int:
        return sum(1 for a, b in combinations(table, 2) if constraint_between(by_id[a], by_id[b]))

    witness: tuple[int, int, int] | None = None
    apart_witness: tuple[int, int] | None = None
    for x in range(len(tables)):
        rx_, ax = _repeats_in(tables[x], met), apart(tables[x])
        if not rx_ and not ax:
            continue
        for y in range(len(tables)):
            if y == x:
                continue
            ry, ay = _repeats_in(tables[y], met), apart(tables[y])
            for a in tables[x]:
                for b in tables[y]:
                    nx = [e for e in tables[x] if e != a] + [b]
                    ny = [e for e in tables[y] if e != b] + [a]
                    dr = _repeats_in(nx, met) + _repeats_in(ny, met) - rx_ - ry
                    if dr < 0 and witness is None:
                        witness = (a, b, -dr)
                    elif dr == 0 and apart(nx) + apart(ny) < ax + ay and apart_witness is None:
                        apart_witness = (a, b)
    return witness, apart_witness


def _check_meetings(
    round_: TablesRound,
    by_id: Mapping[int, EntryRecord],
    history: Iterable[PastMatch | PastTable],
    constraint_until: int,
    exact_limit: int,
    budget: int,
    report: RoundReport,
) -> bool:
    """Repeat meetings and director's constraints, on entries: reported only when a better
    seating is shown to exist (a single swap, or the exhaustive search on small fields). True
    when avoidable repeat meetings were reported."""
    known = [t for t in round_.tables if all(e in by_id for e in t.entries)]
    ids = sorted({e for t in known for e in t.entries})
    met = _met(ids, by_id, history)
    tables = [list(t.entries) for t in known]
    repeats = sum(_repeats_in(t, met) for t in tables)
    swap, apart_swap = _swap_witnesses(tables, met, by_id)
    searched = (
        swap is None
        and bool(repeats)
        and len(ids) <= exact_limit
        and bool(_fewer_by_search(tables, met, repeats, budget))
    )
    for t in known:
        pairs = [(a, b) for a, b in combinations(t.entries, 2) if b in met[a]]
        if pairs and (swap is not None or searched):
            shared = ", ".join(f"{a}-{b}" for a, b in pairs)
            report(t.table, "repeat", _repeat(shared, repeats, swap), t.override)
        if round_.round_no <= constraint_until and apart_swap is not None:
            for a, b in combinations(t.entries, 2):
                why = constraint_between(by_id[a], by_id[b])
                if why is not None:
                    apart = reason(
                        gettext_noop(
                            "entries %(entry_a)s and %(entry_b)s are to be kept apart "
                            "(%(constraint)s); swapping entries %(swap_a)s and %(swap_b)s keeps "
                            "more pairs apart"
                        ),
                        entry_a=a,
                        entry_b=b,
                        constraint=why,
                        swap_a=apart_swap[0],
                        swap_b=apart_swap[1],
                    )
                    code = "club" if why.startswith("club:") else "avoid"
                    report(t.table, code, apart, t.override)
    return swap is not None or searched


def _repeat(shared: str, repeats: int, swap: tuple[int, int, int] | None) -> Reason:
    """The repeat meetings ``shared`` (``"a-b, c-d"``) at a table, and the better seating: the
    ``swap`` of two entries, or (None) the exhaustive search's."""
    if swap is None:
        return reason(
            gettext_noop(
                "entries %(pairs)s have shared a table; the round has %(repeats)s repeat "
                "meeting(s) and a seating with fewer repeat meetings exists (exhaustive search)"
            ),
            pairs=shared,
            repeats=repeats,
        )
    return reason(
        gettext_noop(
            "entries %(pairs)s have shared a table; the round has %(repeats)s repeat meeting(s) "
            "and swapping entries %(swap_a)s and %(swap_b)s removes %(removed)s repeat meeting(s)"
        ),
        pairs=shared,
        repeats=repeats,
        swap_a=swap[0],
        swap_b=swap[1],
        removed=swap[2],
    )


def _check_seat_draws(
    round_: TablesRound, by_id: Mapping[int, EntryRecord], salt: str, report: RoundReport
) -> None:
    """Every recorded draw verifies from the salt; each table sits in its drawn seat order; each
    first-leader draw is over the table's players."""
    r = round_.round_no
    records = {(d.purpose, d.context): d for d in round_.draws}
    for d in round_.draws:
        if not draw.verify(d, salt):
            unverified = gettext_noop("draw %(purpose)s does not verify")
            report(None, "seat_draw", reason(unverified, purpose=d.purpose))
    for t in round_.tables:
        ids_sorted = sorted(t.entries)
        order, _ = draw.shuffle(salt, "seat-order", r, ids_sorted, context=ids_sorted)
        if tuple(order) != t.entries and not t.override:
            seats = reason(
                gettext_noop("seat order %(seats)s is not the drawn order %(drawn)s"),
                seats=str(list(t.entries)),
                drawn=str(order),
            )
            report(t.table, "seat_draw", seats, t.override)
        lead = records.get((draw.LEADER_PURPOSE, t.entries))
        players = sorted(p for e in t.entries if e in by_id for p in by_id[e].player_ids)
        if lead is not None and tuple(sorted(lead.inputs)) != tuple(players):
            lead_draw = gettext_noop("the first-leader draw is not over the table's players")
            report(t.table, "seat_draw", reason(lead_draw), t.override)


Tiers = tuple[int, Fraction | int, int]
"""A seating's lower tiers as ``_check_tiers`` orders them, after its repeat meetings: in an
early round (pairs kept apart, squared match-point differences, 0); later (0, squared
differences, pairs kept apart)."""


def _check_tiers(
    round_: TablesRound,
    by_id: Mapping[int, EntryRecord],
    history: Sequence[PastMatch | PastTable],
    constraint_until: int,
    tiers_limit: int,
    report: RoundReport,
) -> None:
    """The ``seating`` rule (see the module docstring): on a field of at most ``tiers_limit``
    seated entries, a seating with no more repeat meetings and better lower tiers."""
    known = [t for t in round_.tables if all(e in by_id for e in t.entries)]
    ids = sorted(e for t in known for e in t.entries)
    if len(known) != len(round_.tables) or len(ids) > tiers_limit or len(known) < 2:
        return
    met = _met(ids, by_id, history)
    early = round_.round_no <= constraint_until

    def table_tiers(table: Sequence[int]) -> tuple[int, Tiers]:
        repeats, apart, score = 0, 0, Fraction(0)
        for a, b in combinations(table, 2):
            repeats += b in met[a]
            apart += constraint_between(by_id[a], by_id[b]) is not None
            gap = Fraction(by_id[a].match_points) - Fraction(by_id[b].match_points)
            score += gap * gap
        return repeats, ((apart, score, 0) if early else (0, score, apart))

    def total(tables: Iterable[Sequence[int]]) -> tuple[int, Tiers]:
        parts = [table_tiers(t) for t in tables]
        return (
            sum(r for r, _ in parts),
            (
                sum(t[0] for _, t in parts),
                sum((t[1] for _, t in parts), Fraction(0)),
                sum(t[2] for _, t in parts),
            ),
        )

    now = total(t.entries for t in known)
    better = _better_seating(ids, [len(t.entries) for t in known], now, table_tiers)
    if better is None:
        return
    found = total(better)
    witness = "".join("(" + " ".join(map(str, g)) + ")" for g in better)
    why = reason(
        gettext_noop(
            "the tables have %(repeats)s repeat meeting(s), %(apart)s pair(s) the director keeps "
            "apart and a sum of squared match-point differences of %(score)s; the seating "
            "%(witness)s has %(best_repeats)s, %(best_apart)s and %(best_score)s (exhaustive "
            "search)"
        ),
        repeats=now[0],
        apart=now[1][0] + now[1][2],
        score=now[1][1],
        witness=witness,
        best_repeats=found[0],
        best_apart=found[1][0] + found[1][2],
        best_score=found[1][1],
    )
    override = next((t.override for t in round_.tables if t.override), None)
    report(None, "seating", why, override)


def _better_seating(
    ids: list[int],
    sizes: list[int],
    now: tuple[int, Tiers],
    table_tiers: Callable[[Sequence[int]], tuple[int, Tiers]],
) -> list[list[int]] | None:
    """The best seating of ``ids`` into tables of ``sizes`` that beats ``now`` (repeat meetings,
    then the lower tiers, compared in order), or None: a branch and bound over partitions (the
    smallest unseated entry's table chosen first), pruned when the partial cost already reaches
    the best (each tier only grows as tables are added)."""
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    best: list[tuple[int, Tiers]] = [now]
    found: list[list[list[int]]] = []
    groups: list[list[int]] = []

    def add(a: tuple[int, Tiers], b: tuple[int, Tiers]) -> tuple[int, Tiers]:
        return a[0] + b[0], (a[1][0] + b[1][0], a[1][1] + b[1][1], a[1][2] + b[1][2])

    def place(left: list[int], so_far: tuple[int, Tiers]) -> None:
        if so_far >= best[0]:
            return
        if not left:
            best[0] = so_far
            found[:] = [[list(g) for g in groups]]
            return
        first, rest = left[0], left[1:]
        for size in sorted(s for s, c in counts.items() if c > 0):
            counts[size] -= 1
            for mates in combinations(rest, size - 1):
                table = [first, *mates]
                groups.append(table)
                place([e for e in rest if e not in mates], add(so_far, table_tiers(table)))
                groups.pop()
            counts[size] += 1

    place(ids, (0, (0, Fraction(0), 0)))
    return found[0] if found else None
