"""Ordering, shared ranks, loud failures, tiebreak-round settlement, unbroken ties, snapshots."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.tournaments.standings.builders import bye, draw, entries, half, win
from tournaments.standings import (
    Entry,
    PointsConfig,
    Result,
    RoundKind,
    StandingRow,
    Standings,
    compute_standings,
    unbroken_ties,
)

POINTS = PointsConfig(win=2, draw=1, loss=0, bye=2)
TB = RoundKind.TIEBREAK


def ranks(s: Standings) -> list[tuple[int, object]]:
    return [(r.rank, r.entry_id) for r in s.rows]


def test_ties_left_after_the_whole_list_share_a_rank_one_two_two_four() -> None:
    results = [win(1, 1, 2), win(1, 3, 4), win(2, 1, 3), win(2, 2, 4)]
    s = compute_standings(
        entries(4, 3, 2, 1), results, points=POINTS, tiebreaks=["match_points", "wins"]
    )
    assert ranks(s) == [(1, 1), (2, 2), (2, 3), (4, 4)]


def test_unknown_tiebreak_name_fails_loudly_with_the_name() -> None:
    with pytest.raises(ValueError, match="sonneborn_berger"):
        compute_standings(
            entries(1, 2), [], points=POINTS, tiebreaks=["match_points", "sonneborn_berger"]
        )


def test_tiebreak_list_mistakes_fail_loudly() -> None:
    with pytest.raises(ValueError, match="list of names"):
        compute_standings(entries(1), [], points=POINTS, tiebreaks="match_points")
    with pytest.raises(ValueError, match="'spread' is listed twice"):
        compute_standings(entries(1), [], points=POINTS, tiebreaks=["spread", "spread"])
    # head_to_head may repeat (to re-apply it among those it left tied)
    s = compute_standings(entries(1), [], points=POINTS, tiebreaks=["head_to_head", "head_to_head"])
    assert s.tiebreaks == ("head_to_head", "head_to_head")


def test_bad_records_fail_loudly() -> None:
    with pytest.raises(ValueError, match="duplicate entry_id 1"):
        compute_standings(entries(1, 1), [], points=POINTS, tiebreaks=[])
    with pytest.raises(ValueError, match="unknown entry 3"):
        compute_standings(entries(1, 2), [win(1, 1, 3)], points=POINTS, tiebreaks=[])
    r = win(1, 1, 2, match_id=77)
    with pytest.raises(ValueError, match="duplicate match_id 77"):
        compute_standings(entries(1, 2), [r, r], points=POINTS, tiebreaks=[])


def test_entries_without_results_get_a_zero_row_and_an_empty_event_ties_everyone() -> None:
    s = compute_standings(entries(2, 1), [], points=POINTS, tiebreaks=["match_points", "spread"])
    assert ranks(s) == [(1, 1), (1, 2)]
    assert s.row(1).values == (0, 0) and s.row(1).match_ids == ()
    assert compute_standings([], [], points=POINTS, tiebreaks=["match_points"]).rows == ()


def test_rows_list_the_counted_matches_in_round_order() -> None:
    results = [
        win(3, "a", "b", match_id="m3"),
        bye(2, "a"),
        win(1, "b", "a", match_id="m1"),
        win(1, "a", "b", kind=RoundKind.PLAYOFF, match_id="p1"),
        win(4, "a", "b", kind=TB, match_id="t1"),
    ]
    bye_id = results[1].match_id
    s = compute_standings(entries("a", "b"), results, points=POINTS, tiebreaks=["match_points"])
    assert s.row("a").match_ids == ("m1", bye_id, "m3")
    assert s.row("b").match_ids == ("m1", "m3")


def test_playoff_and_tiebreak_rounds_do_not_count_in_the_main_standings() -> None:
    counted = [win(1, "a", "b"), win(1, "c", "d")]
    extra = [
        win(5, "b", "a", kind=RoundKind.PLAYOFF),
        win(6, "b", "c", kind=RoundKind.PLAYOFF),
        win(7, "d", "c", kind=TB),
    ]
    s = compute_standings(
        entries("a", "b", "c", "d"),
        counted + extra,
        points=POINTS,
        tiebreaks=["match_points", "wins", "buchholz"],
    )
    assert {r.entry_id: r.values for r in s.rows} == {
        "a": (2, 1, 0),
        "b": (0, 0, 2),
        "c": (2, 1, 0),
        "d": (0, 0, 2),
    }
    assert ranks(s) == [(1, "a"), (1, "c"), (3, "b"), (3, "d")]


def tied_four() -> list[Result]:
    """Four entries on 2 points each, spread 0, never met each other: w, x, y, z."""
    return [
        win(1, "w", "o1", 300, 200),
        win(2, "o1", "w", 300, 200),
        win(1, "x", "o2", 300, 200),
        win(2, "o2", "x", 300, 200),
        win(1, "y", "o3", 300, 200),
        win(2, "o3", "y", 300, 200),
        win(1, "z", "o4", 300, 200),
        win(2, "o4", "z", 300, 200),
    ]


TIED_IDS = ("w", "x", "y", "z", "o1", "o2", "o3", "o4")
LIST = ["match_points", "spread", "head_to_head"]


def test_unbroken_ties_finds_the_group_across_a_place_that_matters() -> None:
    s = compute_standings(entries(*TIED_IDS), tied_four(), points=POINTS, tiebreaks=LIST)
    # all eight have 2 points and spread 0: one group on places 1..8
    assert {r.rank for r in s.rows} == {1}
    assert unbroken_ties(s, [8]) == []  # the cut at 8 is the end of the field
    assert unbroken_ties(s, [3]) == [["o1", "o2", "o3", "o4", "w", "x", "y", "z"]]
    with pytest.raises(ValueError, match="place"):
        unbroken_ties(s, [0])


def standings_with_ranks(*ranked: tuple[int, str]) -> Standings:
    rows = tuple(StandingRow(rank, e, e, 0, 0, 0, 0, 0, 0, 0, (), (), (), ()) for rank, e in ranked)
    return Standings(POINTS, (), rows)


def test_unbroken_ties_for_a_cut_and_for_the_podium() -> None:
    s = standings_with_ranks(
        (1, "a"), (2, "b"), (2, "c"), (4, "d"), (5, "e"), (5, "f"), (5, "g"), (8, "h")
    )
    assert unbroken_ties(s, [1, 2, 3]) == [["b", "c"]]  # silver or bronze undecided
    assert unbroken_ties(s, [1]) == []
    assert unbroken_ties(s, [3]) == []  # b and c are both on the podium either way
    assert unbroken_ties(s, [4]) == []  # the cut at 4: d alone at 4
    assert unbroken_ties(s, [5]) == [["e", "f", "g"]]  # a cut at 5 or 6 splits e, f, g
    assert unbroken_ties(s, (6, 5)) == [["e", "f", "g"]]
    assert unbroken_ties(s, [7, 8, 20]) == []
    assert unbroken_ties(s, range(1, 9)) == [["b", "c"], ["e", "f", "g"]]


def test_tiebreak_round_settles_the_order_among_the_entries_that_played_it() -> None:
    base = tied_four()
    before = compute_standings(entries(*TIED_IDS), base, points=POINTS, tiebreaks=LIST)
    assert unbroken_ties(before, [2]) == [["o1", "o2", "o3", "o4", "w", "x", "y", "z"]]

    # a tiebreak round among all eight: w, x, o3, o4 win
    tb = [
        win(3, "w", "o1", kind=TB, match_id="t1"),
        win(3, "x", "o2", kind=TB, match_id="t2"),
        win(3, "o3", "y", kind=TB, match_id="t3"),
        win(3, "o4", "z", kind=TB, match_id="t4"),
    ]
    after = compute_standings(entries(*TIED_IDS), base + tb, points=POINTS, tiebreaks=LIST)
    assert ranks(after) == [
        (1, "o3"),
        (1, "o4"),
        (1, "w"),
        (1, "x"),
        (5, "o1"),
        (5, "o2"),
        (5, "y"),
        (5, "z"),
    ]
    assert after.row("w").settlement == (2,) and after.row("z").settlement == (0,)
    assert after.row("w").settlement_match_ids == ("t1", "t2", "t3", "t4")
    # main values untouched by the tiebreak round
    assert [r.values for r in after.rows] == [before.row(r.entry_id).values for r in after.rows]
    assert unbroken_ties(after, [4]) == []
    assert unbroken_ties(after, [2]) == [["o3", "o4", "w", "x"]]

    # a second tiebreak round in each group still tied: o3 beats o4, w and x draw; o1 beats o2,
    # y beats z. Round 4 orders each group within itself: o1 and y won it, but they lost round 3,
    # so they stay below the four who won round 3.
    tb2 = [
        win(4, "o3", "o4", kind=TB, match_id="t5"),
        draw(4, "w", "x", kind=TB),
        win(4, "o1", "o2", kind=TB, match_id="t6"),
        win(4, "y", "z", kind=TB, match_id="t7"),
    ]
    final = compute_standings(entries(*TIED_IDS), base + tb + tb2, points=POINTS, tiebreaks=LIST)
    assert ranks(final) == [
        (1, "o3"),
        (2, "w"),
        (2, "x"),
        (4, "o4"),
        (5, "o1"),
        (5, "y"),
        (7, "o2"),
        (7, "z"),
    ]
    assert [final.row(e).settlement for e in ("o3", "w", "o4", "o1", "z")] == [
        (2, 2),
        (2, 1),
        (2, 0),
        (0, 2),
        (0, 0),
    ]
    assert final.row("o1").settlement_match_ids == ("t1", "t2", "t3", "t4", "t6", "t7")
    assert unbroken_ties(final, [1, 2, 3]) == [["w", "x"]]


def test_three_way_tiebreak_round_with_a_bye() -> None:
    """a, b, c tied; tiebreak round 3: a beats b, c has the bye (worth a win); 4: c beats a."""
    base = [win(1, "a", "d"), win(1, "b", "e"), win(1, "c", "f")]
    tb3 = [win(3, "a", "b", kind=TB), bye(3, "c", kind=TB)]
    ids = ("a", "b", "c", "d", "e", "f")
    s3 = compute_standings(entries(*ids), base + tb3, points=POINTS, tiebreaks=LIST)
    assert ranks(s3)[:3] == [(1, "a"), (1, "c"), (3, "b")]
    assert unbroken_ties(s3, [1]) == [["a", "c"]]
    tb4 = [win(4, "c", "a", kind=TB)]
    s4 = compute_standings(entries(*ids), base + tb3 + tb4, points=POINTS, tiebreaks=LIST)
    assert ranks(s4)[:3] == [(1, "c"), (2, "a"), (3, "b")]
    assert s4.row("c").settlement == (2, 2) and s4.row("b").settlement == (0,)
    # the tiebreak rounds never touch the main values
    assert s4.row("c").values == s4.row("a").values == (2, 105, None)


def test_tiebreak_round_among_only_some_of_a_tied_group_does_not_decide() -> None:
    base = tied_four()
    tb = [win(3, "w", "x", kind=TB)]
    s = compute_standings(entries(*TIED_IDS), base + tb, points=POINTS, tiebreaks=LIST)
    assert {r.rank for r in s.rows} == {1}
    assert all(r.settlement == () and r.settlement_match_ids == () for r in s.rows)


def test_snapshot_bytes_are_canonical_and_read_back_exactly() -> None:
    results = [
        Result("m1", 1, RoundKind.SWISS, 1, 2, half(405), half(395), winner=1),
        draw(1, 3, 4, half(301)),
        bye(2, 1),
        win(2, 3, 2, 305, 0),
    ]
    points = PointsConfig(win=2, draw=1, loss=0, bye=Fraction(3, 2), margin_threshold=300)
    tiebreaks = ["match_points", "opponents_win_rate", "head_to_head", "spread"]
    s = compute_standings(
        [Entry(i, f"Équipe {i}") for i in (1, 2, 3, 4)],
        results,
        points=points,
        tiebreaks=tiebreaks,
    )
    data = s.to_json_bytes()
    assert data == s.to_json_bytes()
    assert b" " not in data.replace("Équipe ".encode(), b"")  # compact
    floats: list[str] = []
    doc = json.loads(data, parse_float=floats.append)
    assert floats == []  # no JSON float anywhere: non-whole numbers are exact strings
    # 1: win + bye = 3.5; 2 met 1 (win rate 1) and 3 (3/4): opponents' win rate 7/8
    assert [(r["entry_id"], r["values"][:2]) for r in doc["rows"]] == [
        (1, ["3.5", 0]),
        (3, [3, "0.25"]),
        (4, [1, "0.75"]),
        (2, [0, "0.875"]),
    ]
    assert "Équipe".encode() in data
    assert b'"bye":"1.5"' in data
    back = Standings.from_json_bytes(data)
    assert back == s
    assert back.to_json_bytes() == data
    with pytest.raises(ValueError, match=r"spinner\.standings/1"):
        Standings.from_json_bytes(b'{"format": "other"}')
    with pytest.raises(ValueError, match="malformed"):
        Standings.from_json_bytes(b'{"format": "spinner.standings/1"}')


def test_value_reads_a_column_by_name_and_rejects_a_name_not_listed() -> None:
    s = compute_standings(
        entries(1, 2), [win(1, 1, 2, 305, 5)], points=POINTS, tiebreaks=["match_points", "spread"]
    )
    assert s.value(s.rows[0], "spread") == 300
    with pytest.raises(ValueError, match="buchholz"):
        s.value(s.rows[0], "buchholz")
    with pytest.raises(KeyError):
        s.row(99)


def test_mixed_int_and_str_ids_order_ints_first() -> None:
    results = [win(1, "b", 2, match_id="x"), win(1, 1, "a", match_id=5)]
    s = compute_standings(
        entries("b", 2, "a", 1, 3), results, points=POINTS, tiebreaks=["match_points"]
    )
    assert ranks(s) == [(1, 1), (1, "b"), (3, 2), (3, 3), (3, "a")]
