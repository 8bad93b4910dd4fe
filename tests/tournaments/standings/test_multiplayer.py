"""Tables of three and four in the standings: placings, match points with ties, tiebreaks over
tablemates, and order independence (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    Entry,
    EntryId,
    PlacingPoints,
    PointsConfig,
    Result,
    RoundKind,
    Standings,
    TableResult,
    compute_standings,
    placings,
    table_points,
)

from .builders import bye, entries, half, win

POINTS = PointsConfig(win=2, draw=1, loss=0, bye=2)


def table(
    mid: int, rnd: int, seats: tuple[EntryId, ...], scores: tuple[object, ...]
) -> TableResult:
    return TableResult(mid, rnd, RoundKind.SWISS, seats, scores)  # type: ignore[arg-type]


def test_placings_share_places_and_skip_the_next() -> None:
    assert placings(table(1, 1, (1, 2, 3, 4), (250, 120, 120, 45))) == {1: 1, 2: 2, 3: 2, 4: 4}
    assert placings(table(2, 1, (1, 2, 3), (90, 90, 30))) == {1: 1, 2: 1, 3: 3}
    assert placings(table(3, 1, (1, 2, 3), (0, 0, 0))) == {1: 1, 2: 1, 3: 1}
    # a split award of All Fives at three keeps halves: 152.5 beats 152
    assert placings(table(4, 1, (1, 2, 3), (half(305), 152, 10))) == {1: 1, 2: 2, 3: 3}


def test_match_points_by_placing_share_the_places_points() -> None:
    four = PlacingPoints()
    assert table_points(table(1, 1, (1, 2, 3, 4), (250, 120, 120, 45)), four) == {
        1: 4,
        2: Fraction(3, 2),
        3: Fraction(3, 2),
        4: 0,
    }
    assert table_points(table(2, 1, (1, 2, 3, 4), (10, 10, 10, 10)), four) == dict.fromkeys(
        (1, 2, 3, 4), Fraction(7, 4)
    )
    assert table_points(table(3, 1, (1, 2, 3), (200, 80, 80)), four) == {1: 4, 2: 1, 3: 1}
    custom = PlacingPoints(places=((3, (3, 1, 0)), (4, (5, 3, 1, 0))))
    assert table_points(table(4, 1, (1, 2, 3), (200, 200, 80)), custom) == {1: 2, 2: 2, 3: 0}
    with pytest.raises(ValueError, match="tables of 2"):
        table_points(table(5, 1, (1, 2), (1, 0)), custom)


def test_match_points_in_proportion_to_score() -> None:
    setting = PlacingPoints(proportional=12)
    got = table_points(table(1, 1, (1, 2, 3), (150, 100, 50)), setting)
    assert got == {1: 6, 2: 4, 3: 2}
    assert sum(got.values()) == 12
    assert table_points(table(2, 1, (1, 2, 3), (0, 0, 0)), setting) == {1: 4, 2: 4, 3: 4}


def test_table_results_are_checked() -> None:
    with pytest.raises(ValueError, match="distinct"):
        table(1, 1, (1, 1, 2), (1, 2, 3))
    with pytest.raises(ValueError, match="one score per seat"):
        table(1, 1, (1, 2, 3), (1, 2))
    with pytest.raises(ValueError, match="ints or Fractions"):
        table(1, 1, (1, 2, 3), (1.5, 2, 3))
    with pytest.raises(ValueError, match="unique highest"):
        TableResult(1, 1, RoundKind.SWISS, (1, 2, 3), (5, 5, 1), winner=1)
    with pytest.raises(ValueError, match="unknown entry"):
        compute_standings(
            entries(1, 2),
            [table(1, 1, (1, 2, 9), (1, 2, 3))],
            points=POINTS,
            tiebreaks=["match_points"],
        )


def test_standings_over_tables_of_three_and_four() -> None:
    es = entries(1, 2, 3, 4, 5, 6, 7)
    results = [
        table(1, 1, (1, 2, 3, 4), (250, 120, 120, 45)),  # 4, 3/2, 3/2, 0
        table(2, 1, (5, 6, 7), (200, 150, 20)),  # 4, 2, 0
        table(3, 2, (1, 5, 6), (100, 210, 180)),  # 0, 4, 2
        table(
            4, 2, (2, 3, 4, 7), (80, 160, 90, 40)
        ),  # 0, 4, 2... 2: 0, 3: 4, 4: 2, 7: 1? see below
    ]
    s = compute_standings(
        es, results, points=POINTS, tiebreaks=["match_points", "buchholz", "spread"]
    )
    mp = {r.entry_id: r.match_points for r in s.rows}
    # round 2, table 4 (four players): 3 first (4), 4 second (2), 2 third (1), 7 fourth (0)
    assert mp == {1: 4, 2: Fraction(5, 2), 3: Fraction(11, 2), 4: 2, 5: 8, 6: 4, 7: 0}
    assert [r.entry_id for r in s.rows][:2] == [5, 3]
    row5 = s.row(5)
    assert (row5.played, row5.wins, row5.draws, row5.losses) == (2, 2, 0, 0)
    # Buchholz: every tablemate's match points, once per table
    assert s.value(s.row(1), "buchholz") == (mp[2] + mp[3] + mp[4] + mp[5] + mp[6])
    # spread: own score minus the tablemates' mean, per table
    assert s.value(row5, "spread") == (200 - Fraction(150 + 20, 2)) + (210 - Fraction(100 + 180, 2))
    assert Standings.from_json_bytes(s.to_json_bytes()) == s


def test_head_to_head_reads_shared_tables() -> None:
    es = entries(1, 2, 3)
    results = [table(1, 1, (1, 2, 3), (100, 100, 50)), table(2, 2, (1, 2, 3), (60, 70, 200))]
    s = compute_standings(
        es,
        results,
        points=POINTS,
        tiebreaks=["match_points", "head_to_head"],
        placing=PlacingPoints(places=((3, (3, 1, 0)),)),
    )
    # mp: 1 = 2 + 0 = 2; 2 = 2 + 1 = 3; 3 = 0 + 3 = 3. 2 and 3 tied; head to head: 2 beat 3 once
    # (100 > 50) and lost once (70 < 200): 2 points each, still tied
    assert [(r.rank, r.entry_id) for r in s.rows] == [(1, 2), (1, 3), (3, 1)]


def test_tables_mix_with_byes_and_two_entry_matches() -> None:
    es = entries(1, 2, 3, 4, 5)
    results = [
        table(-1, 1, (1, 2, 3, 4), (10, 20, 30, 40)),  # 0 1 2 4
        bye(1, 5),
        win(2, 5, 1, 300, 100),  # a table of two, as a two-entry result
        table(-3, 2, (2, 3, 4), (50, 40, 30)),  # 4 2 0
    ]
    s = compute_standings(es, results, points=POINTS, tiebreaks=["match_points", "wins"])
    assert {r.entry_id: r.match_points for r in s.rows} == {1: 0, 2: 5, 3: 4, 4: 4, 5: 4}
    assert s.row(1).match_ids == (-1, results[2].match_id)  # round order
    assert s.row(1).played == 2 and s.row(1).losses == 2
    assert s.row(5).byes == 1 and s.row(5).played == 1


def test_without_tables_the_bytes_are_the_two_entry_ones() -> None:
    es = entries(1, 2, 3)
    results = [win(1, 1, 2), bye(1, 3), win(2, 3, 1, 200, 190)]
    names = ["match_points", "buchholz", "spread", "head_to_head", "opponents_win_rate"]
    plain = compute_standings(es, results, points=POINTS, tiebreaks=names)
    with_setting = compute_standings(
        es, results, points=POINTS, tiebreaks=names, placing=PlacingPoints()
    )
    assert with_setting.to_json_bytes() == plain.to_json_bytes()


SCORES = st.one_of(
    st.integers(min_value=0, max_value=300).map(lambda n: n * 5),
    st.integers(min_value=0, max_value=600).map(lambda n: Fraction(n * 5, 2)),
)


@st.composite
def table_events(draw: st.DrawFn) -> tuple[list[Entry], list[Result | TableResult], PlacingPoints]:
    n = draw(st.integers(min_value=3, max_value=13))
    ids: list[EntryId] = list(range(1, n + 1))
    results: list[Result | TableResult] = []
    mid = 0
    for rnd in range(1, draw(st.integers(min_value=0, max_value=4)) + 1):
        order = draw(st.permutations(ids))
        at = 0
        while len(order) - at >= 3:
            size = 4 if len(order) - at >= 4 and draw(st.booleans()) else 3
            seats = tuple(order[at : at + size])
            mid += 1
            results.append(
                TableResult(mid, rnd, RoundKind.SWISS, seats, tuple(draw(SCORES) for _ in seats))
            )
            at += size
        for left in order[at:]:
            mid += 1
            results.append(Result(mid, rnd, RoundKind.SWISS, left, None, 0, 0, None))
    placing = draw(
        st.sampled_from(
            [
                PlacingPoints(),
                PlacingPoints(proportional=10),
                PlacingPoints(places=((3, (3, 1, 0)), (4, (5, 3, 1, 0)))),
            ]
        )
    )
    return [Entry(i, f"P{i}") for i in ids], results, placing


NAMES = [
    "match_points",
    "buchholz",
    "median_buchholz",
    "spread",
    "head_to_head",
    "wins",
    "opponents_win_rate",
    "points_for",
]


@settings(max_examples=120, deadline=None)
@given(data=st.data(), event=table_events(), names=st.permutations(NAMES))
def test_table_standings_do_not_depend_on_input_order(
    data: st.DataObject,
    event: tuple[list[Entry], list[Result | TableResult], PlacingPoints],
    names: list[str],
) -> None:
    es, results, placing = event
    first = compute_standings(es, results, points=POINTS, tiebreaks=names, placing=placing)
    again = compute_standings(
        data.draw(st.permutations(es)),
        data.draw(st.permutations(results)),
        points=POINTS,
        tiebreaks=names,
        placing=placing,
    )
    assert again == first
    assert again.to_json_bytes() == first.to_json_bytes()
    assert Standings.from_json_bytes(first.to_json_bytes()) == first
    # match points add up: every table hands out its points, every bye its own
    total = sum(r.match_points for r in first.rows)
    expected = sum(
        sum(table_points(r, placing).values()) if isinstance(r, TableResult) else POINTS.bye
        for r in results
    )
    assert total == expected
