"""The league season table on plain records: points per place, shared places, best N, ties,
partnerships."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.standings.season import (
    Placing,
    format_points,
    place_points,
    season_table,
)

POINTS = [25, 18, 15, 12, 10, 8, 6, 4]
NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di", 5: "Ed", 6: "Flo", 7: "Gus", 8: "Hal"}


def _rows(table_rows: tuple) -> list[tuple[int, str, object]]:
    return [(r.rank, r.name, r.total) for r in table_rows]


def test_points_per_place_and_nothing_beyond_the_list() -> None:
    placings = [Placing(1, place, (place,)) for place in range(1, 9)] + [Placing(1, 9, (9,))]
    table = season_table(placings, points=[3, 2, 1], best_of=None, names=NAMES)
    totals = {r.players[0]: r.total for r in table.players}
    assert totals == {1: 3, 2: 2, 3: 1, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0}
    assert next(r for r in table.players if r.players == (9,)).name == "#9"


def test_shared_places_average_the_places_they_cover() -> None:
    # Two semi-final losers share 3rd: (15 + 12) / 2 each; four quarter-final losers share 5th.
    placings = [
        Placing(1, 1, (1,)),
        Placing(1, 2, (2,)),
        Placing(1, 3, (3,)),
        Placing(1, 3, (4,)),
        *(Placing(1, 5, (p,)) for p in (5, 6, 7, 8)),
    ]
    table = season_table(placings, points=POINTS, best_of=None, names=NAMES)
    totals = {r.name: r.total for r in table.players}
    assert totals["Cy"] == totals["Di"] == Fraction(27, 2)
    assert totals["Ed"] == Fraction(10 + 8 + 6 + 4, 4) == 7
    assert place_points(POINTS, 7, sharing=3) == Fraction(6 + 4 + 0, 3)
    assert [r.rank for r in table.players] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert format_points(totals["Cy"]) == "13.5"


def test_best_n_counts_a_players_highest_scores_only() -> None:
    # Ann: 1st, 4th, 2nd -> best 2 = 25 + 18; Bo: 2nd, 1st, 1st -> 25 + 25.
    placings = [
        Placing(1, 1, (1,)),
        Placing(1, 2, (2,)),
        Placing(2, 4, (1,)),
        Placing(2, 1, (2,)),
        Placing(3, 2, (1,)),
        Placing(3, 1, (2,)),
    ]
    table = season_table(placings, points=POINTS, best_of=2, names=NAMES)
    assert _rows(table.players) == [(1, "Bo", 50), (2, "Ann", 43)]
    ann = table.players[1]
    assert (ann.played, ann.counted) == (3, 2)
    dropped = ann.score_in(2)
    assert dropped is not None and (dropped.points, dropped.counted) == (12, False)
    everything = season_table(placings, points=POINTS, best_of=None, names=NAMES)
    assert _rows(everything.players) == [(1, "Bo", 68), (2, "Ann", 55)]


def test_equal_totals_share_a_rank_and_are_listed_by_name() -> None:
    placings = [
        Placing(1, 1, (3,)),  # Cy 25
        Placing(1, 2, (2,)),  # Bo 18
        Placing(2, 1, (1,)),  # Ann 25
        Placing(2, 2, (4,)),  # Di 18
        Placing(3, 3, (5,)),  # Ed 15
    ]
    table = season_table(placings, points=POINTS, best_of=None, names=NAMES)
    assert _rows(table.players) == [
        (1, "Ann", 25),
        (1, "Cy", 25),
        (3, "Bo", 18),
        (3, "Di", 18),
        (5, "Ed", 15),
    ]


def test_a_player_in_two_partnerships_counts_both_for_themselves() -> None:
    # Ann plays with Bo in event 1 and with Cy in event 2.
    placings = [
        Placing(1, 1, (1, 2)),
        Placing(1, 2, (3, 4)),
        Placing(2, 1, (1, 3)),
        Placing(2, 2, (2, 4)),
    ]
    table = season_table(placings, points=POINTS, best_of=None, names=NAMES, partnerships=True)
    assert _rows(table.players)[0] == (1, "Ann", 50)
    assert {r.name: r.total for r in table.players} == {"Ann": 50, "Bo": 43, "Cy": 43, "Di": 36}
    assert _rows(table.partnerships) == [
        (1, "Ann & Bo", 25),
        (1, "Ann & Cy", 25),
        (3, "Bo & Di", 18),
        (3, "Cy & Di", 18),
    ]
    assert table.partnerships[0].key == "1-2"


def test_the_same_two_players_are_one_partnership_across_events() -> None:
    placings = [Placing(1, 2, (2, 1)), Placing(2, 1, (1, 2))]
    table = season_table(placings, points=POINTS, best_of=None, names=NAMES, partnerships=True)
    assert len(table.partnerships) == 1
    assert (table.partnerships[0].total, table.partnerships[0].played) == (43, 2)


def test_partnerships_are_empty_unless_asked_for() -> None:
    table = season_table([Placing(1, 1, (1, 2))], points=POINTS, best_of=None, names=NAMES)
    assert table.partnerships == ()
    assert len(table.players) == 2


def test_a_person_placed_twice_in_one_event_keeps_the_better_place() -> None:
    # Two rows of one person, merged after the event: both placings map to the survivor.
    placings = [Placing(1, 1, (1, 2)), Placing(1, 3, (1, 4))]
    table = season_table(placings, points=POINTS, best_of=None, names=NAMES)
    ann = next(r for r in table.players if r.name == "Ann")
    assert (ann.total, ann.played) == (25, 1)


@pytest.mark.parametrize(
    ("kwargs", "placing"),
    [
        ({"best_of": 0}, None),
        ({"best_of": None, "points": [25, -1]}, None),
        ({"best_of": None}, lambda: Placing(1, 0, (1,))),
        ({"best_of": None}, lambda: Placing(1, 1, ())),
    ],
)
def test_bad_input_is_refused(kwargs: dict, placing: object) -> None:
    with pytest.raises(ValueError):
        rows = [placing()] if callable(placing) else []
        season_table(rows, names=NAMES, **{"points": POINTS, **kwargs})
