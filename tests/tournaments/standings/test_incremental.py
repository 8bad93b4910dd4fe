"""The standings made again after a few results changed equal the standings made from scratch.

``incremental.compute`` keeps every entry record and tiebreak value the changed results cannot
move; these properties replay random series of corrections (outcomes, scores, forfeits, sides,
round kinds, results added and removed, settings changed) on random events and compare every
step with ``compute_standings`` and ``tally`` from scratch.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.test_properties import SCORES, events
from tournaments.standings import (
    Entry,
    EntryId,
    PointsConfig,
    Result,
    RoundKind,
    compute_standings,
    tally,
)
from tournaments.standings.compute import KnownRows, rows_json
from tournaments.standings.incremental import Computation, compute

Event = tuple[list[Entry], list[Result], PointsConfig, list[str]]
KINDS = st.sampled_from(list(RoundKind))


@st.composite
def corrected(draw: st.DrawFn, entries: list[Entry], results: list[Result]) -> list[Result]:
    """``results`` after one random correction (or a few)."""
    results = list(results)
    ids = [e.entry_id for e in entries]
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        action = draw(st.sampled_from(["outcome", "sides", "kind", "remove", "add", "add"]))
        if action == "add" or not results:
            match_id = 1000 + len(results) + draw(st.integers(0, 10**6))
            results.append(draw(a_result(ids, match_id)))
            continue
        i = draw(st.integers(min_value=0, max_value=len(results) - 1))
        old = results[i]
        if action == "remove":
            del results[i]
        elif action == "kind":
            results[i] = old._replace(kind=draw(KINDS))
        elif action == "sides":
            results[i] = draw(a_result(ids, old.match_id, old.round_number, old.kind))
        else:
            b = old.entry_b
            winner = draw(st.sampled_from([old.entry_a, b, None]))
            forfeit = draw(st.booleans()) and b is not None
            score_a, score_b = draw(SCORES), draw(SCORES)
            results[i] = Result(
                old.match_id, old.round_number, old.kind, old.entry_a, b, score_a, score_b,
                winner if b is not None else None, forfeit,
            )  # fmt: skip
    unique: dict[Any, Result] = {r.match_id: r for r in results}  # an added id may repeat
    return list(unique.values())


@st.composite
def a_result(
    draw: st.DrawFn,
    ids: list[EntryId],
    match_id: Any,
    round_number: int | None = None,
    kind: RoundKind | None = None,
) -> Result:
    a = draw(st.sampled_from(ids))
    others = [e for e in ids if e != a]
    b: EntryId | None = None
    if others and draw(st.integers(min_value=0, max_value=4)) != 0:  # a bye one time in five
        b = draw(st.sampled_from(others))
    winner = draw(st.sampled_from([a, b, None])) if b is not None else None
    return Result(
        match_id,
        round_number or draw(st.integers(min_value=1, max_value=7)),
        kind or draw(KINDS),
        a,
        b,
        draw(SCORES),
        draw(SCORES),
        winner,
        draw(st.booleans()) and b is not None,
    )


def assert_as_from_scratch(
    c: Computation, event: Event, results: list[Result], known: KnownRows | None = None
) -> KnownRows:
    """Every part of ``c`` as from scratch; and the rows' JSON made reusing ``known`` (the rows
    of an earlier computation) as made afresh. Returns the rows known now."""
    entries, _, points, tiebreaks = event
    assert c.standings == compute_standings(entries, results, points=points, tiebreaks=tiebreaks)
    assert c.tally == tally(entries, results, points)
    fresh = compute(entries, results, points=points, tiebreaks=tiebreaks)
    assert c.standings.to_json_bytes() == fresh.standings.to_json_bytes()
    assert c.columns == fresh.columns
    made, now = rows_json(c.standings.rows, known)
    assert c.standings.to_json(made) == fresh.standings.to_json()
    assert made == rows_json(c.standings.rows)[0]
    return now


@settings(max_examples=200, deadline=None)
@given(data=st.data(), event=events())
def test_series_of_corrections_give_the_standings_from_scratch(
    data: st.DataObject, event: Event
) -> None:
    entries, results, points, tiebreaks = event
    c = compute(entries, results, points=points, tiebreaks=tiebreaks)
    assert c.changed is None
    known = assert_as_from_scratch(c, event, results)
    for _ in range(data.draw(st.integers(min_value=1, max_value=6))):
        before = {r.match_id: r for r in results}
        results = data.draw(corrected(entries, results))
        c = compute(entries, results, points=points, tiebreaks=tiebreaks, previous=c)
        now = {r.match_id: r for r in results}
        changed = {m for m in before.keys() | now.keys() if before.get(m) != now.get(m)}
        assert c.changed == frozenset(changed)
        known = assert_as_from_scratch(c, event, results, known)


@settings(max_examples=100, deadline=None)
@given(first=events(), second=events(), other_points=st.booleans())
def test_any_previous_computation_gives_the_standings_from_scratch(
    first: Event, second: Event, other_points: bool
) -> None:
    """Another event, other settings, other entries: ``previous`` never changes the answer."""
    entries, results, points, tiebreaks = second
    before = compute(first[0], first[1], points=first[2], tiebreaks=first[3])
    if other_points:
        points = PointsConfig(win=3, draw=1, loss=0, bye=Fraction(3, 2))
        second = (entries, results, points, tiebreaks)
    c = compute(entries, results, points=points, tiebreaks=tiebreaks, previous=before)
    assert_as_from_scratch(c, second, results, rows_json(before.standings.rows)[1])


def test_only_the_changed_results_entries_and_their_opponents_are_made_again() -> None:
    entries = [Entry(i, f"Team {i}") for i in range(1, 7)]
    results = [
        Result(1, 1, RoundKind.SWISS, 1, 2, 305, 100, 1),
        Result(2, 1, RoundKind.SWISS, 3, 4, 305, 100, 3),
        Result(3, 1, RoundKind.SWISS, 5, 6, 305, 100, 5),
    ]
    tiebreaks = ["match_points", "buchholz", "spread"]
    before = compute(entries, results, points=PointsConfig(), tiebreaks=tiebreaks)
    again = [*results[:2], Result(3, 1, RoundKind.SWISS, 5, 6, 100, 305, 6)]
    after = compute(entries, again, points=PointsConfig(), tiebreaks=tiebreaks, previous=before)
    assert after.changed == frozenset({3})
    kept = [e for e in (1, 2, 3, 4) if after.tally.entries[e] is before.tally.entries[e]]
    assert kept == [1, 2, 3, 4]  # only 5 and 6 were tallied again
    assert [r.entry_id for r in after.standings.rows][:2] == [1, 3]
    assert after.standings.row(6).rank < after.standings.row(5).rank
    # the rows' JSON: a row as it was keeps its JSON, a row moved only gets it with its new rank
    made, known = rows_json(before.standings.rows)
    again_made, _ = rows_json(after.standings.rows, known)
    by_entry = {r["entry_id"]: r for r in made}
    reused = 0
    for row, json in zip(after.standings.rows, again_made, strict=True):
        old = before.standings.row(row.entry_id)
        if old == row:
            assert json is by_entry[row.entry_id]
            reused += 1
        elif old[1:] == row[1:]:
            assert json == {**by_entry[row.entry_id], "rank": row.rank}
    assert reused >= 2  # Teams 1 and 3 did not move
    assert after.standings.to_json(again_made) == after.standings.to_json()
