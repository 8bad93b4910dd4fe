"""Swiss at tables of 3 and 4: sizes, byes, repeat meetings against an exact oracle and the
lower bound, seat draws, the checker and the export."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations

import pytest

from tournaments.pairing import (
    EntryRecord,
    PastTable,
    TablesOptions,
    TablesRound,
    check_tables_round,
    pair_tables,
    plan_tables,
    verify,
)
from tournaments.pairing.check_tables import fewest_byes
from tournaments.pairing.export import tables_round_to_dict
from tournaments.pairing.records import PastMatch
from tournaments.pairing.simulate_tables import make_players, play_tables
from tournaments.pairing.tables_of_many import met_ids

from .exact_tables import fewest_repeats

SALT = "tables-test"


def play(
    n: int, rounds: int, sizes: tuple[int, ...], seed: int
) -> list[tuple[TablesRound, list[EntryRecord], list[PastMatch | PastTable]]]:
    """Every round with the entries and history it was paired from."""
    rng = random.Random(seed)
    field = make_players(n)
    history: list[PastMatch | PastTable] = []
    out = []
    for r in range(1, rounds + 1):
        rp = pair_tables(
            field, history, round_no=r, salt=SALT, options=TablesOptions(table_sizes=sizes)
        )
        out.append((rp, field, list(history)))
        field, played = play_tables(field, rp, rng)
        history.extend(played)
    return out


def assert_sound(rp: TablesRound, field: list[EntryRecord], sizes: tuple[int, ...]) -> None:
    seated = [e for t in rp.tables for e in t.entries]
    byes = [b.entry_id for b in rp.byes]
    everyone = sorted(seated + byes)
    assert everyone == sorted(e.entry_id for e in field if e.active)  # once per round
    assert all(len(t.entries) in sizes for t in rp.tables)
    assert len(byes) == fewest_byes(len(field), sizes)
    assert [t.table for t in rp.tables] == list(range(1, len(rp.tables) + 1))
    repeats = 0
    met = met_ids(field, [])  # no history: nobody has met
    assert all(not m for m in met.values())
    for t in rp.tables:
        repeats += len(t.explanation.repeats)
    assert repeats == rp.repeats
    assert rp.repeat_lower_bound <= rp.repeats


@pytest.mark.parametrize("players", range(0, 31))
@pytest.mark.parametrize("sizes", [(4, 3), (3,), (4,), (2, 3, 4), (3, 4)])
def test_plan_tables_seats_everyone_it_can(players: int, sizes: tuple[int, ...]) -> None:
    plan, byes = plan_tables(players, sizes)
    assert sum(plan) + byes == players
    assert all(s in sizes for s in plan)
    assert byes == fewest_byes(players, sizes)  # the checker's own rule, computed independently
    assert plan == sorted(plan, reverse=True)
    if byes == 0 and plan:
        # the most tables of the largest size among the seatings without byes
        biggest = max(sizes)
        assert all(
            plan.count(biggest) >= k
            for k in range(players // biggest + 1)
            if fewest_byes(players - k * biggest, sizes) == 0 or k * biggest == players
        )


@pytest.mark.parametrize("sizes", [(4, 3), (3,), (4,)])
@pytest.mark.parametrize("players", [9, 10, 11, 12, 13])
def test_small_fields_have_the_fewest_repeat_meetings_every_round(
    players: int, sizes: tuple[int, ...]
) -> None:
    for rp, field, history in play(players, 6, sizes, seed=players):
        assert_sound(rp, field, sizes)
        seated = [e for t in rp.tables for e in t.entries]
        met = met_ids([e for e in field if e.entry_id in seated], history)
        table_sizes = [len(t.entries) for t in rp.tables]
        best = fewest_repeats(seated, met, table_sizes, rp.repeats + 1)
        assert rp.repeats == best, (rp.round_no, rp.repeats, best)
        assert rp.repeat_lower_bound <= best
        assert check_tables_round(rp, field, history, salt=SALT) == []


@pytest.mark.parametrize("sizes", [(4, 3), (3,), (4,)])
@pytest.mark.parametrize("players", [14, 15, 17])
def test_medium_fields_have_the_fewest_repeat_meetings_in_rounds_1_to_5(
    players: int, sizes: tuple[int, ...]
) -> None:
    for rp, field, history in play(players, 5, sizes, seed=players):
        assert_sound(rp, field, sizes)
        seated = [e for t in rp.tables for e in t.entries]
        met = met_ids([e for e in field if e.entry_id in seated], history)
        best = fewest_repeats(seated, met, [len(t.entries) for t in rp.tables], rp.repeats + 1)
        assert rp.repeats == best, (rp.round_no, rp.repeats, best)


@pytest.mark.parametrize("sizes", [(4, 3), (3,), (4,)])
@pytest.mark.parametrize("players", [40, 63, 101, 200])
def test_large_fields_meet_the_lower_bound_over_six_rounds(
    players: int, sizes: tuple[int, ...]
) -> None:
    for rp, field, history in play(players, 6, sizes, seed=players):
        assert_sound(rp, field, sizes)
        assert rp.repeats == rp.repeat_lower_bound == 0
        assert "the fewest possible" in rp.notes[1]
        assert check_tables_round(rp, field, history, salt=SALT) == []


@pytest.mark.parametrize("players", [20, 26, 33])
def test_checker_finds_no_avoidable_repeat_in_mid_fields(players: int) -> None:
    for rp, field, history in play(players, 6, (4, 3), seed=players):
        assert_sound(rp, field, (4, 3))
        assert [v for v in check_tables_round(rp, field, history, salt=SALT)] == []


def test_byes_go_to_the_lowest_ranked_with_the_fewest_byes() -> None:
    field = [
        EntryRecord(k, frozenset({k}), match_points=10 - k, byes_received=1 if k == 9 else 0)
        for k in range(1, 10)
    ]
    rp = pair_tables(
        field, [], round_no=2, salt=SALT, options=TablesOptions(table_sizes=(4,))
    )  # 9 at tables of 4: one bye
    assert [b.entry_id for b in rp.byes] == [8]  # 9 is last but already had a bye
    assert "lowest-ranked" in rp.byes[0].explanation.reason


def test_first_round_groups_by_rank_and_draws_seats_and_leaders() -> None:
    field = [EntryRecord(k, frozenset({k}), match_points=0) for k in range(1, 11)]
    rp = pair_tables(field, [], round_no=1, salt=SALT)
    assert [len(t.entries) for t in rp.tables] == [4, 3, 3]
    assert all(verify(d, SALT) for d in rp.draws)
    seat_draws = [d for d in rp.draws if d.purpose == "seat-order"]
    leader_draws = [d for d in rp.draws if d.purpose == "first-leader"]
    assert len(seat_draws) == len(leader_draws) == 3
    for t, seat, lead in zip(rp.tables, seat_draws, leader_draws, strict=True):
        assert seat.outcome == t.entries  # the drawn seat order is the seat order
        assert lead.context == t.entries
        assert set(lead.inputs) == set(t.entries)
    # the ranking is the salted lot among equals; table 1 holds ranks 1-4
    assert sorted(rp.tables[0].explanation.ranks) == [1, 2, 3, 4]


def test_score_groups_stay_together_when_history_allows() -> None:
    field = [EntryRecord(k, frozenset({k}), match_points=(4 if k <= 4 else 0)) for k in range(1, 9)]
    rp = pair_tables(field, [], round_no=2, salt=SALT, options=TablesOptions(table_sizes=(4,)))
    assert sorted(rp.tables[0].entries) == [1, 2, 3, 4]
    assert rp.total_cost == 0 + sum(
        abs(i - j) for t in rp.tables for i, j in combinations(t.explanation.ranks, 2)
    )


def test_a_repeat_is_avoided_by_moving_across_score_groups() -> None:
    field = [EntryRecord(k, frozenset({k}), match_points=(4 if k <= 4 else 0)) for k in range(1, 9)]
    history = [PastMatch(1, 1, frozenset({1}), 2, frozenset({2}))]
    rp = pair_tables(field, history, round_no=2, salt=SALT, options=TablesOptions(table_sizes=(4,)))
    assert rp.repeats == rp.repeat_lower_bound == 0
    top = set(rp.tables[0].entries)
    assert len(top & {1, 2}) == 1 and {3, 4} <= top  # one of 1, 2 floats down, not both
    assert check_tables_round(rp, field, history, salt=SALT) == []


def test_unavoidable_repeats_are_reported_as_the_fewest() -> None:
    field = [EntryRecord(k, frozenset({k})) for k in range(1, 9)]
    history = [PastTable(1, (1, 2, 5, 6), tuple(frozenset({k}) for k in (1, 2, 5, 6)))]
    rp = pair_tables(field, history, round_no=2, salt=SALT, options=TablesOptions(table_sizes=(4,)))
    assert rp.repeats == 2  # 1, 2, 5, 6 over two tables of 4: two of them at each
    assert all(len(t.explanation.repeats) == 1 for t in rp.tables)
    assert "fewest possible" in rp.notes[1]
    assert check_tables_round(rp, field, history, salt=SALT) == []


def test_pinned_entry_keeps_its_table() -> None:
    field = [
        EntryRecord(k, frozenset({k}), pinned_table=3 if k == 1 else None) for k in range(1, 13)
    ]
    rp = pair_tables(field, [], round_no=1, salt=SALT, options=TablesOptions(table_sizes=(4,)))
    assert next(t.table for t in rp.tables if 1 in t.entries) == 3
    assert sorted(t.table for t in rp.tables) == [1, 2, 3]


def test_clubs_and_named_pairs_are_kept_apart_at_tables() -> None:
    clubs = ["elks", "owls", "bees", "ants"]
    field = [EntryRecord(k, frozenset({k}), club=clubs[(k - 1) // 3]) for k in range(1, 13)]
    field[0] = replace(field[0], club=None, avoid=frozenset({4}))  # 1 and 4: a couple
    rp = pair_tables(field, [], round_no=1, salt=SALT, options=TablesOptions(table_sizes=(3,)))
    by_id = {e.entry_id: e for e in field}
    for t in rp.tables:
        for a, b in combinations(t.entries, 2):
            assert by_id[a].club is None or by_id[a].club != by_id[b].club
            assert {a, b} != {1, 4}
    assert rp.constraint_pairs == 0
    assert any("constraints rank above score groups" in n for n in rp.notes)
    assert check_tables_round(rp, field, [], salt=SALT) == []


def test_checker_flags_a_hand_made_repeat_and_a_club_pair() -> None:
    field = [
        EntryRecord(k, frozenset({k}), club="elks" if k in (1, 5) else None) for k in range(1, 9)
    ]
    history = [PastTable(1, (1, 2, 3, 4), tuple(frozenset({k}) for k in (1, 2, 3, 4)))]
    good = pair_tables(
        field, history, round_no=2, salt=SALT, options=TablesOptions(table_sizes=(4,))
    )
    assert check_tables_round(good, field, history) == []
    bad_tables = (
        replace(good.tables[0], entries=(1, 2, 3, 5)),
        replace(good.tables[1], entries=(4, 6, 7, 8)),
    )
    bad = replace(good, tables=bad_tables)
    codes = sorted({v.code for v in check_tables_round(bad, field, history, salt=SALT)})
    assert codes == ["club", "repeat", "seat_draw"]
    overridden = replace(
        bad, tables=tuple(replace(t, override="the director seated them") for t in bad_tables)
    )
    found = check_tables_round(overridden, field, history)
    assert found and all(not v.is_violation for v in found)


def test_checker_flags_sizes_byes_and_missing_entries() -> None:
    field = [EntryRecord(k, frozenset({k})) for k in range(1, 8)]
    rp = pair_tables(field, [], round_no=1, salt=SALT)
    assert [len(t.entries) for t in rp.tables] == [4, 3]
    broken = replace(
        rp, tables=(rp.tables[0], replace(rp.tables[1], entries=rp.tables[1].entries[:2]))
    )
    codes = {v.code for v in check_tables_round(broken, field, [])}
    assert codes == {"table_size", "missing"}


def test_export_is_plain_json() -> None:
    rp = play(10, 2, (4, 3), seed=1)[-1][0]
    doc = tables_round_to_dict(rp)
    assert json.loads(json.dumps(doc)) == doc
    assert [t["entries"] for t in doc["tables"]] == [list(t.entries) for t in rp.tables]
    assert doc["repeat_lower_bound"] == rp.repeat_lower_bound


def test_two_entry_history_counts_as_tables_of_two() -> None:
    field = [EntryRecord(k, frozenset({k})) for k in range(1, 7)]
    history = [PastMatch(1, 1, frozenset({1}), 2, frozenset({2}))]
    rp = pair_tables(field, history, round_no=2, salt=SALT, options=TablesOptions(table_sizes=(3,)))
    assert not any({1, 2} <= set(t.entries) for t in rp.tables)


def test_lower_bound_counts_players_who_have_met_nearly_everyone() -> None:
    field = [EntryRecord(k, frozenset({k})) for k in range(1, 7)]
    # player 1 has shared a table with 2, 3, 4 and 5: only 6 is new to them
    history = [
        PastTable(1, (1, 2, 3), tuple(frozenset({k}) for k in (1, 2, 3))),
        PastTable(2, (1, 4, 5), tuple(frozenset({k}) for k in (1, 4, 5))),
    ]
    rp = pair_tables(field, history, round_no=3, salt=SALT, options=TablesOptions(table_sizes=(3,)))
    assert rp.repeat_lower_bound == 1  # 1 must sit with one of 2-5
    # and the other table holds three of 2, 3, 4, 5: 2-3 or 4-5 again. The bound does not see
    # that; the exact search (6 players) does.
    assert rp.repeats == 2
    assert rp.notes[1] == (
        "repeat meetings 2: the fewest possible; every tier exact (exhaustive search)"
    )
    assert check_tables_round(rp, field, history, salt=SALT) == []


def test_same_inputs_give_the_same_round() -> None:
    rounds = play(14, 6, (4,), seed=3)
    rp, field, history = rounds[-1]
    assert rp.repeats > rp.repeat_lower_bound  # the search and the walk were needed
    again = pair_tables(
        field, history, round_no=6, salt=SALT, options=TablesOptions(table_sizes=(4,))
    )
    assert again == rp
    other = pair_tables(
        field, history, round_no=6, salt="other", options=TablesOptions(table_sizes=(4,))
    )
    assert [d.purpose for d in other.draws] == [d.purpose for d in rp.draws]


# Issue 30: the exhaustive search runs whenever the field is within the exact limit (it ran only
# while repeat meetings exceeded the lower bound, so the lower tiers could be missed), and the
# checker checks those tiers there.

ISSUE_POINTS = [4, 4, 2, 2, 2, 1, 1, 0, 0, 0]
ISSUE_ROUND_1 = [[5, 9, 3], [7, 6, 10], [1, 8], [2, 4]]


def _issue_field(clubs: list[str] | None = None) -> list[EntryRecord]:
    return [
        EntryRecord(k + 1, frozenset({k + 1}), match_points=mp, club=clubs[k] if clubs else None)
        for k, mp in enumerate(ISSUE_POINTS)
    ]


def _round_one(tables: list[list[int]]) -> list[PastMatch | PastTable]:
    return [PastTable(1, tuple(t), tuple(frozenset({e}) for e in t)) for t in tables]


def _squares(rp: TablesRound, field: list[EntryRecord]) -> int:
    mp = {e.entry_id: e.match_points for e in field}
    return sum((mp[a] - mp[b]) ** 2 for t in rp.tables for a, b in combinations(t.entries, 2))


def test_ten_players_at_tables_of_three_and_two_reach_the_score_optimum() -> None:
    """The issue's round 2: match points 4,4,2,2,2,1,1,0,0,0, no repeat meeting either way.
    The local search alone seats (4,4,2)(2,2,1)(0,1)(0,0), squared differences 11; the optimum
    is (4,4)(0,0,0)(1,2,2)(1,2), 3."""
    field, history = _issue_field(), _round_one(ISSUE_ROUND_1)
    options = TablesOptions(table_sizes=(3, 2))
    local = pair_tables(
        field, history, round_no=2, salt="x", options=replace(options, exact_limit=0)
    )
    assert (local.repeats, _squares(local, field)) == (0, 11)  # the search before the fix
    rp = pair_tables(field, history, round_no=2, salt="x", options=options)
    mp = {e.entry_id: e.match_points for e in field}
    assert sorted(sorted(mp[e] for e in t.entries) for t in rp.tables) == [
        [0, 0, 0],
        [1, 2],
        [1, 2, 2],
        [4, 4],
    ]
    assert (rp.repeats, _squares(rp, field)) == (0, 3)
    assert "every tier exact (exhaustive search)" in rp.notes[1]
    assert check_tables_round(rp, field, history) == []
    # The checker finds the local search's seating wanting, with the better one as its witness.
    (found,) = check_tables_round(local, field, history)
    assert found.code == "seating" and found.table is None
    assert "sum of squared match-point differences of 11" in found.message
    assert found.message.endswith("has 0, 0 and 3 (exhaustive search)")


def test_with_clubs_no_more_club_pairs_sit_together_than_needed() -> None:
    """The same field with clubs, round 2 (constraints above score groups): the local search
    left one club pair at a table that a seating with no more repeats avoids."""
    clubs = ["a", "c", "b", "c", "b", "c", "b", "a", "b", "c"]
    field = _issue_field(clubs)
    history = _round_one([[1, 3, 4], [7, 5, 2], [9, 10], [6, 8]])
    options = TablesOptions(table_sizes=(3, 2))
    local = pair_tables(
        field, history, round_no=2, salt="x", options=replace(options, exact_limit=0)
    )
    rp = pair_tables(field, history, round_no=2, salt="x", options=options)
    assert (local.constraint_pairs, rp.constraint_pairs) == (1, 0)
    assert local.repeats == rp.repeats == 0
    assert check_tables_round(rp, field, history) == []
    assert [v.code for v in check_tables_round(local, field, history)] == ["seating"]


def test_the_seating_check_stays_within_the_exact_limit() -> None:
    """Past the limit (12 seated entries) the checker does not claim the lower tiers: 13
    players at tables of 3 and 2 seated by the local search alone pass it."""
    field = make_players(13)
    rp = pair_tables(
        field, [], round_no=1, salt=SALT, options=TablesOptions(table_sizes=(3, 2), exact_limit=0)
    )
    assert all(v.code != "seating" for v in check_tables_round(rp, field, []))
