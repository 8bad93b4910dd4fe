"""The standings again after a few results changed: exactly what a computation from scratch gives.

A recompute during an event follows a handful of new or corrected results; most entries' records
and most tiebreak values are what they were. :func:`compute` takes the previous
:class:`Computation` of the same event and makes again only what the changed results can move:

- the records (:class:`~tournaments.standings.tallying.EntryTally`) of the entries those
  results are, or were, about (the *affected* entries); the rest are kept;
- the entry tiebreaks' values of the affected entries and, for a tiebreak that reads the
  opponents' records (:attr:`~tournaments.standings.tiebreaks.Tiebreak.reach` 1: Buchholz,
  median Buchholz, opponents' win rate), of every entry that met an affected one; the rest are
  kept;
- the order, the group tiebreaks (head to head), the tiebreak rounds, the ranks and the rows:
  always in full, since they depend on which entries are tied.

Anything else is computed from scratch: no previous computation, other entries (or the same in
another order), another points setting or tiebreak list, a tiebreak reaching further than the
opponents, or tables of many (:class:`~tournaments.standings.multiplayer.TableResult`: an
individual event at tables of three or four is tallied in full by
:func:`~tournaments.standings.multiplayer.table_tally` every time; its computation is never
reused, and an event without such tables takes the two-entry path unchanged). Either way the
result equals :func:`~tournaments.standings.compute.compute_standings`
for the same records, whatever ``previous`` is (tests/tournaments/standings/test_incremental.py
checks it over random events and random series of corrections). Records are checked in full
every time.

>>> from tournaments.standings.records import Entry, PointsConfig, Result
>>> entries = [Entry(1, "Ann"), Entry(2, "Bo"), Entry(3, "Cy"), Entry(4, "Di")]
>>> first = [Result(10, 1, "swiss", 1, 2, 305, 120, 1), Result(11, 1, "swiss", 3, 4, 305, 200, 3)]
>>> before = compute(entries, first, points=PointsConfig(), tiebreaks=["match_points", "spread"])
>>> corrected = [first[0], Result(11, 1, "swiss", 3, 4, 200, 305, 4)]
>>> after = compute(entries, corrected, points=PointsConfig(), tiebreaks=["match_points", "spread"],
...                 previous=before)
>>> [r.entry_id for r in after.standings.rows], sorted(after.changed or ())
([1, 4, 3, 2], [11])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.standings.compute import (
    Standings,
    Value,
    _standings,
    entry_columns,
    resolve_tiebreaks,
)
from tournaments.standings.multiplayer import PlacingPoints, TableResult, table_tally
from tournaments.standings.records import Entry, EntryId, MatchId, PointsConfig, Result
from tournaments.standings.tallying import (
    Tally,
    check_records,
    tally_again,
    tally_checked,
)


@dataclass(frozen=True, slots=True)
class Computation:
    """One computation of an event's standings: what it was made from (the entries, the tiebreak
    names; the tally holds the results and the points setting) and what it made (the tally, the
    entry tiebreaks' columns, the standings). Pass it as ``previous`` to the next :func:`compute`.

    ``changed``: the match ids whose result was added, altered or removed since the computation
    this one reused (``None`` when it was computed from scratch).
    """

    entries: tuple[Entry, ...]
    tiebreaks: tuple[str, ...]
    tally: Tally
    columns: tuple[Mapping[EntryId, Value] | None, ...]
    standings: Standings
    changed: frozenset[MatchId] | None = None


def compute(
    entries: Iterable[Entry],
    results: Iterable[Result],
    *,
    points: PointsConfig,
    tiebreaks: Sequence[str],
    previous: Computation | None = None,
    tables: Iterable[TableResult] = (),
    placing: PlacingPoints | None = None,
) -> Computation:
    """The standings of ``entries`` from two-entry ``results``, reusing ``previous`` where the
    results did not change (see the module docstring). Raises :class:`ValueError` as
    ``compute_standings`` does.

    ``tables``: the event's tables of many, scored by ``placing`` (the defaults when None): with
    any, everything is computed from scratch (``changed`` None), exactly as
    :func:`~tournaments.standings.compute.compute_standings` does."""
    specs = resolve_tiebreaks(tiebreaks)
    table_list = list(tables)
    if table_list:
        entry_list = list(entries)
        t: Tally = table_tally(
            entry_list, [*results, *table_list], points, placing or PlacingPoints()
        )
        columns = entry_columns(t, specs)
        standings = _standings(t, dict(entry_list), specs, columns)
        names = tuple(spec.name for spec in specs)
        return Computation(tuple(entry_list), names, t, tuple(columns), standings)
    entry_list, result_list, by_id = check_records(entries, results)
    names = tuple(spec.name for spec in specs)
    if (
        previous is None
        or type(previous.tally) is not Tally  # tables of many: their own tally
        or previous.tally.points != points
        or previous.tiebreaks != names
        or previous.entries != tuple(entry_list)
        or any(spec.reach > 1 for spec in specs)
    ):
        t = tally_checked(entry_list, result_list, by_id, points)
        columns = entry_columns(t, specs)
        standings = _standings(t, dict(entry_list), specs, columns)
        return Computation(tuple(entry_list), names, t, tuple(columns), standings)
    changed = _changed(previous.tally.results_by_id, by_id)
    t, affected = tally_again(previous.tally, entry_list, result_list, by_id, changed)
    again = set(affected)
    if any(spec.reach == 1 for spec in specs):
        # who met an affected entry (whoever met one before, over a result that changed since,
        # is affected too)
        for entry_id in affected:
            again.update(t.entries[entry_id].opponents)
    columns = entry_columns(t, specs, only=again, previous=previous.columns)
    standings = _standings(t, dict(entry_list), specs, columns)
    return Computation(
        previous.entries, names, t, tuple(columns), standings, changed=frozenset(changed)
    )


def _changed(before: Mapping[MatchId, Result], now: Mapping[MatchId, Result]) -> set[MatchId]:
    """The match ids whose result was added, altered or removed."""
    get = before.get
    changed = {m for m, r in now.items() if (b := get(m)) is not r and b != r}
    changed.update(before.keys() - now.keys())
    return changed
