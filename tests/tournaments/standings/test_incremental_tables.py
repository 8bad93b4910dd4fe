"""The recompute's path for tables of many (``incremental.compute(..., tables=...)``): whatever
the previous computation and whatever the order of the records, it gives what
``compute_standings`` gives from scratch over the same tables and results (hypothesis), and a
later computation without tables is the two-entry one again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.test_multiplayer import NAMES, POINTS, table_events
from tests.tournaments.standings.test_properties import events
from tournaments.standings import (
    Entry,
    PlacingPoints,
    PointsConfig,
    Result,
    TableResult,
    compute_standings,
)
from tournaments.standings.incremental import compute

TableEvent = tuple[list[Entry], list[Result | TableResult], PlacingPoints]


def split(results: list[Result | TableResult]) -> tuple[list[Result], list[TableResult]]:
    pairs = [r for r in results if isinstance(r, Result)]
    tables = [r for r in results if isinstance(r, TableResult)]
    return pairs, tables


@settings(max_examples=100, deadline=None)
@given(
    data=st.data(),
    event=table_events(),
    names=st.permutations(NAMES),
    before=st.one_of(st.none(), events(), table_events()),
)
def test_tables_of_many_give_the_standings_from_scratch_in_any_order(
    data: st.DataObject, event: TableEvent, names: list[str], before: object
) -> None:
    entries, results, placing = event
    previous = None
    if isinstance(before, tuple) and len(before) == 4:  # a two-entry event's computation
        b_entries, b_results, b_points, b_names = before
        previous = compute(b_entries, b_results, points=b_points, tiebreaks=b_names)
    elif isinstance(before, tuple):  # another computation with tables
        b_entries, b_results, b_placing = before
        pairs, tables = split(b_results)
        previous = compute(
            b_entries, pairs, points=POINTS, tiebreaks=names, tables=tables, placing=b_placing
        )
    pairs, tables = split(data.draw(st.permutations(results)))
    c = compute(
        data.draw(st.permutations(entries)),
        pairs,
        points=POINTS,
        tiebreaks=names,
        previous=previous,
        tables=tables,
        placing=placing,
    )
    fresh = compute_standings(entries, results, points=POINTS, tiebreaks=names, placing=placing)
    if tables:
        assert c.changed is None
    assert c.standings == fresh
    assert c.standings.to_json_bytes() == fresh.to_json_bytes()


@settings(max_examples=60, deadline=None)
@given(event=table_events(), names=st.permutations(NAMES))
def test_after_tables_a_two_entry_computation_is_the_two_entry_one(
    event: TableEvent, names: list[str]
) -> None:
    entries, results, placing = event
    pairs, tables = split(results)
    with_tables = compute(
        entries, pairs, points=POINTS, tiebreaks=names, tables=tables, placing=placing
    )
    points = PointsConfig(win=POINTS.win, draw=POINTS.draw, loss=POINTS.loss, bye=POINTS.bye)
    after = compute(entries, pairs, points=points, tiebreaks=names, previous=with_tables)
    fresh = compute_standings(entries, pairs, points=points, tiebreaks=names)
    assert after.standings.to_json_bytes() == fresh.to_json_bytes()
