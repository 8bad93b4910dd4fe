"""Forfeits in the standings: the event's forfeit points, the forfeit-spread setting, the
progression's forfeit marks, and snapshots unchanged for events that never set them."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.builders import entries, win
from tests.tournaments.standings.test_properties import events
from tournaments.standings import (
    Entry,
    PointsConfig,
    Result,
    RoundKind,
    Standings,
    compute_standings,
    progression,
)
from tournaments.standings.tallying import result_points

SWISS = RoundKind.SWISS
TIEBREAKS = ["match_points", "spread", "points_for"]


def double_forfeit(rnd: int, a: int, b: int, match_id: int) -> Result:
    return Result(match_id, rnd, SWISS, a, b, 0, 0, None, forfeit=True)


def test_a_forfeit_with_the_default_settings_scores_as_a_win_and_a_loss() -> None:
    points = PointsConfig(win=2, loss=0)
    s = compute_standings(
        entries(1, 2), [win(1, 1, 2, 150, 0, forfeit=True)], points=points, tiebreaks=TIEBREAKS
    )
    a, b = s.row(1), s.row(2)
    assert (a.match_points, a.wins, a.forfeits, a.values) == (2, 1, 1, (2, 150, 150))
    assert (b.match_points, b.losses, b.forfeits, b.values) == (0, 1, 1, (0, -150, 0))


def test_forfeit_points_and_the_forfeit_score_as_the_event_sets_them() -> None:
    points = PointsConfig(win=3, loss=1, forfeit_win=2, forfeit_loss=-1, forfeit_spread=False)
    results = [win(1, 1, 2, 150, 0, forfeit=True), win(2, 2, 1, 305, 200)]
    s = compute_standings(entries(1, 2), results, points=points, tiebreaks=TIEBREAKS)
    one, two = s.row(1), s.row(2)
    # 1: a forfeit win (2) and a played loss (1); 2: a forfeit loss (-1) and a played win (3)
    assert one.match_points == 3 and two.match_points == 2
    # the forfeit's 150-0 counts for nothing: only the played 305-200 makes the spread
    assert s.value(one, "spread") == -105 and s.value(two, "spread") == 105
    assert s.value(one, "points_for") == 200
    counted = PointsConfig(win=3, loss=1, forfeit_win=2, forfeit_loss=-1)
    s = compute_standings(entries(1, 2), results, points=counted, tiebreaks=TIEBREAKS)
    assert s.value(s.row(1), "spread") == 45 and s.row(1).match_points == 3


def test_a_double_forfeit_has_no_winner_and_its_own_points() -> None:
    results = [double_forfeit(1, 1, 2, 50), win(1, 3, 4, 305, 0)]
    default = compute_standings(
        entries(1, 2, 3, 4), results, points=PointsConfig(), tiebreaks=TIEBREAKS
    )
    for e in (1, 2):
        row = default.row(e)
        assert (row.match_points, row.wins, row.draws, row.losses, row.forfeits) == (0, 0, 0, 1, 1)
    points = PointsConfig(loss=0, double_forfeit=Fraction(-1, 2))
    s = compute_standings(entries(1, 2, 3, 4), results, points=points, tiebreaks=TIEBREAKS)
    assert s.row(1).match_points == Fraction(-1, 2) == s.row(2).match_points
    # below the played loss (0): a double forfeit can cost more than losing at the table
    assert [r.entry_id for r in s.rows] == [3, 4, 1, 2]
    assert [r.rank for r in s.rows] == [1, 2, 3, 3]


def test_head_to_head_and_the_margin_bonus_see_the_forfeit_points() -> None:
    points = PointsConfig(win=2, forfeit_win=1, margin_bonus=1, margin_threshold=100)
    r = win(1, 1, 2, 305, 0, forfeit=True)
    assert result_points(r, 1, points) == 1 and points.for_win(305, 0, forfeit=True) == 1
    s = compute_standings(
        entries(1, 2), [r], points=points, tiebreaks=["head_to_head", "match_points"]
    )
    assert s.rows[0].entry_id == 1 and s.rows[0].values == (1, 1)


def test_points_without_forfeit_settings_serialise_as_before() -> None:
    plain = compute_standings(
        entries(1, 2), [win(1, 1, 2, forfeit=True)], points=PointsConfig(), tiebreaks=TIEBREAKS
    )
    doc = json.loads(plain.to_json_bytes())
    assert sorted(doc["points"]) == [
        "bye",
        "draw",
        "loss",
        "margin_bonus",
        "margin_threshold",
        "win",
    ]
    assert Standings.from_json_bytes(plain.to_json_bytes()) == plain


@pytest.mark.parametrize(
    "points",
    [
        PointsConfig(forfeit_win=1),
        PointsConfig(forfeit_loss=Fraction(-1, 2)),
        PointsConfig(double_forfeit=-1),
        PointsConfig(forfeit_spread=False),
    ],
)
def test_forfeit_settings_round_trip_through_the_snapshot(points: PointsConfig) -> None:
    s = compute_standings(
        entries(1, 2), [win(1, 1, 2, forfeit=True)], points=points, tiebreaks=TIEBREAKS
    )
    doc = json.loads(s.to_json_bytes())
    assert {"forfeit_win", "forfeit_loss", "double_forfeit", "forfeit_spread"} <= set(doc["points"])
    again = Standings.from_json_bytes(s.to_json_bytes())
    assert again == s and again.to_json_bytes() == s.to_json_bytes()


def test_bad_forfeit_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="forfeit_loss must be an int or a Fraction"):
        PointsConfig(forfeit_loss=0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="forfeit_spread must be a bool"):
        PointsConfig(forfeit_spread=1)  # type: ignore[arg-type]


def test_the_progression_marks_forfeits() -> None:
    points = PointsConfig(win=2, forfeit_loss=-1, forfeit_spread=False)
    results = [
        win(1, 1, 2, 305, 100, match_id=1),
        win(2, 2, 1, 150, 0, forfeit=True, match_id=2),
        double_forfeit(3, 1, 2, 3),
        Result(4, 4, SWISS, 1, None, 0, 0, None),
        win(5, 1, 2, kind=RoundKind.PLAYOFF, match_id=5),
    ]
    lines = progression(entries(1, 2), results, points)
    one = [(x.round_number, x.outcome, x.forfeit, x.match_points, x.total) for x in lines[1]]
    assert one == [
        (1, "win", False, 2, 2),
        (2, "forfeit_loss", True, -1, 1),
        (3, "double_forfeit", True, 0, 1),
        (4, "bye", False, 2, 3),
    ]
    assert [x.outcome for x in lines[2]] == ["loss", "forfeit_win", "double_forfeit"]
    assert lines[2][1].points_for == 0  # the forfeit score is not counted here
    assert lines[1][0].to_json() == {
        "round": 1,
        "match_id": 1,
        "opponent": 2,
        "outcome": "win",
        "forfeit": False,
        "match_points": 2,
        "total": 2,
        "points_for": 305,
        "points_against": 100,
    }


FORFEIT_SETTINGS = st.builds(
    PointsConfig,
    win=st.sampled_from([2, 3]),
    loss=st.sampled_from([0, -1]),
    forfeit_win=st.sampled_from([None, 1, Fraction(3, 2)]),
    forfeit_loss=st.sampled_from([None, -1, 0]),
    double_forfeit=st.sampled_from([None, -2, Fraction(-1, 2)]),
    forfeit_spread=st.booleans(),
    margin_bonus=st.just(1),
    margin_threshold=st.sampled_from([None, 100]),
)


@settings(max_examples=150, deadline=None)
@given(event=events(), points=FORFEIT_SETTINGS)
def test_the_progression_adds_up_to_the_standings(
    event: tuple[list[Entry], list[Result], PointsConfig, list[str]], points: PointsConfig
) -> None:
    entry_list, results, _, _ = event
    s = compute_standings(
        entry_list, results, points=points, tiebreaks=["match_points", "spread", "points_for"]
    )
    lines = progression(entry_list, results, points)
    for row in s.rows:
        mine = lines[row.entry_id]
        assert (mine[-1].total if mine else 0) == row.match_points
        assert sum(x.match_points for x in mine) == row.match_points
        assert sum(x.points_for - x.points_against for x in mine) == s.value(row, "spread")
        assert sum(x.points_for for x in mine) == s.value(row, "points_for")
        assert sum(x.forfeit for x in mine) == row.forfeits
        assert tuple(x.match_id for x in mine) == row.match_ids
