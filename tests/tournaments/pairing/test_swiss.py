import random
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from tournaments.pairing import (
    EntryRecord,
    PastMatch,
    RoundPairing,
    SwissOptions,
    check_round,
    pair_first_round,
    pair_swiss,
)
from tournaments.pairing.simulate import make_field, play_round

DENSE = SwissOptions(dense=True)


def team(entry_id: int, mp: int = 0, spread: int = 0, **kw: Any) -> EntryRecord:
    return EntryRecord(entry_id, frozenset({10 * entry_id, 10 * entry_id + 1}), mp, spread, **kw)


def met(round_no: int, a: EntryRecord, b: EntryRecord) -> PastMatch:
    return PastMatch(round_no, a.entry_id, a.player_ids, b.entry_id, b.player_ids)


def paired_ids(rp: RoundPairing) -> set[frozenset[int]]:
    return {frozenset((p.entry_a, p.entry_b)) for p in rp.pairings}


def play_event(
    size: int, rounds: int, seed: int
) -> Iterator[tuple[int, list[EntryRecord], list[PastMatch], RoundPairing]]:
    """Pair and play ``rounds`` rounds, checking each; yields (round, entries before, history
    before, round pairing)."""
    rng = random.Random(seed)
    entries = make_field(size)
    history: list[PastMatch] = []
    for r in range(1, rounds + 1):
        if r == 1:
            rp = pair_first_round(entries, salt=f"event-{seed}")
        else:
            rp = pair_swiss(entries, history, round_no=r, salt=f"event-{seed}")
        yield r, entries, list(history), rp
        entries, played = play_round(entries, rp, rng)
        history.extend(played)


@pytest.mark.parametrize("size", [100, 101])
def test_nine_rounds_of_a_hundred_teams_never_rematch_and_never_double_bye(size: int) -> None:
    meetings: set[frozenset[int]] = set()
    byes: list[int] = []
    for _r, entries, history, rp in play_event(size, 9, seed=size):
        assert check_round(rp, entries, history) == []
        assert rp.rematches == 0
        for p in rp.pairings:
            pair = frozenset((p.entry_a, p.entry_b))
            assert pair not in meetings
            meetings.add(pair)
        byes.extend(b.entry_id for b in rp.byes)
        assert len(rp.byes) == size % 2
        seated = [e for p in rp.pairings for e in (p.entry_a, p.entry_b)] + [
            b.entry_id for b in rp.byes
        ]
        assert sorted(seated) == sorted(e.entry_id for e in entries)
    assert len(byes) == len(set(byes)) == 9 * (size % 2)


@pytest.mark.parametrize("size", [100, 101, 64])
def test_windowed_total_weight_equals_the_dense_optimum(size: int) -> None:
    compared = 0
    for r, entries, history, rp in play_event(size, 9, seed=7 * size):
        if r == 1:
            continue
        dense = pair_swiss(entries, history, round_no=r, salt=f"event-{7 * size}", options=DENSE)
        assert dense.window == size - 1
        assert rp.total_weight == dense.total_weight
        compared += 1
    assert compared == 8


def test_a_small_odd_field_gives_every_bye_to_a_different_entry() -> None:
    byes: list[int] = []
    for _r, entries, history, rp in play_event(11, 10, seed=3):
        assert check_round(rp, entries, history) == []
        byes.extend(b.entry_id for b in rp.byes)
    assert len(byes) == len(set(byes)) == 10


def test_even_field_pairs_within_score_groups_higher_ranked_first() -> None:
    entries = [team(1, 4, 30), team(2, 4, 10), team(3, 2, 5), team(4, 2, -5), team(5, 0, -40),
               team(6, 0, 0)]  # fmt: skip
    rp = pair_swiss(entries, [], round_no=3, salt="s")
    assert [(p.table, p.entry_a, p.entry_b) for p in rp.pairings] == [
        (1, 1, 2),
        (2, 3, 4),
        (3, 6, 5),
    ]
    assert all(p.explanation.float_points == 0 for p in rp.pairings)
    assert rp.pairings[0].explanation.score_group == 4
    assert rp.byes == ()


def test_odd_score_groups_float_the_lowest_down_to_the_highest() -> None:
    entries = [team(1, 4, 30), team(2, 4, 20), team(3, 4, 10), team(4, 2, 50), team(5, 2, 0),
               team(6, 2, -20)]  # fmt: skip
    rp = pair_swiss(entries, [], round_no=3, salt="s")
    assert paired_ids(rp) == {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})}
    floated = next(p for p in rp.pairings if p.entry_a == 3)
    assert floated.explanation.float_points == 2
    assert "paired up 2" in floated.explanation.reason


def test_equal_match_points_outrank_close_spread() -> None:
    # 2 and 3 have almost the same spread but different match points; 1-2 and 3-4 keep groups.
    entries = [team(1, 4, 200), team(2, 4, 0), team(3, 2, 1), team(4, 2, -300)]
    rp = pair_swiss(entries, [], round_no=2, salt="s")
    assert paired_ids(rp) == {frozenset({1, 2}), frozenset({3, 4})}


def test_a_met_pair_is_avoided_even_at_the_cost_of_floats() -> None:
    a, b, c, d = team(1, 4), team(2, 4), team(3, 0), team(4, 0)
    rp = pair_swiss([a, b, c, d], [met(1, a, b)], round_no=2, salt="s")
    assert frozenset({1, 2}) not in paired_ids(rp)
    assert rp.rematches == 0
    assert all(p.explanation.float_points == 4 for p in rp.pairings)


def test_opponent_history_is_per_player_across_reformed_partnerships() -> None:
    # Round 1: players 1+2 (entry 1) met players 3+4 (entry 2). Now the partnerships re-form:
    # entry 5 = players 1+5, entry 6 = players 3+6; they must not meet while avoidable.
    history = [PastMatch(1, 1, frozenset({1, 2}), 2, frozenset({3, 4}))]
    entries = [
        EntryRecord(5, frozenset({1, 5}), 2, 10),
        EntryRecord(6, frozenset({3, 6}), 2, 9),
        EntryRecord(7, frozenset({7, 8}), 0, 0),
        EntryRecord(8, frozenset({9, 10}), 0, -1),
    ]
    rp = pair_swiss(entries, history, round_no=2, salt="s")
    assert frozenset({5, 6}) not in paired_ids(rp)
    assert check_round(rp, entries, history) == []


def test_unavoidable_rematches_are_the_fewest_and_said_so() -> None:
    entries = [team(i, 6 - 2 * (i % 3), i) for i in range(1, 5)]
    history = [met(r, entries[x], entries[y]) for r, (x, y) in
               enumerate(combinations(range(4), 2), start=1)]  # fmt: skip
    history.pop()  # 3 and 4 have not met: one pairing can avoid a rematch
    rp = pair_swiss(entries, history, round_no=7, salt="s")
    assert rp.rematches == 1
    assert frozenset({3, 4}) in paired_ids(rp)
    assert any("rematch" in n for n in rp.notes)
    flagged = [p for p in rp.pairings if p.explanation.rematch]
    assert len(flagged) == 1 and "REMATCH" in flagged[0].explanation.reason
    assert check_round(rp, entries, history) == []


def test_bye_goes_to_the_lowest_ranked_entry_without_one() -> None:
    entries = [team(1, 4), team(2, 2), team(3, 2), team(4, 0, byes_received=1), team(5, 0)]
    rp = pair_swiss(entries, [], round_no=3, salt="s")
    assert [b.entry_id for b in rp.byes] == [5]
    assert "lowest-ranked" in rp.byes[0].explanation.reason


def test_nobody_gets_a_second_bye_while_avoidable() -> None:
    entries = [team(i, 0, -i, byes_received=1) for i in range(1, 6)]
    entries[0] = replace(entries[0], byes_received=0, match_points=8)
    rp = pair_swiss(entries, [], round_no=5, salt="s")
    assert [b.entry_id for b in rp.byes] == [1]


def test_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    # 5 is last, but if 5 sat out, 3 and 4 (who have met each other and both met 1 and 2)
    # would need a rematch; with 3 or 4 sitting out, the other pairs with 5 and 1 with 2.
    e = [team(1, 6), team(2, 6), team(3, 4), team(4, 2), team(5, 0)]
    history = [met(1, e[2], e[3]), met(2, e[2], e[0]), met(3, e[2], e[1]),
               met(2, e[3], e[0]), met(3, e[3], e[1])]  # fmt: skip
    rp = pair_swiss(e, history, round_no=4, salt="s")
    assert rp.rematches == 0
    assert rp.byes[0].entry_id in (3, 4)
    assert "could not sit out" in rp.byes[0].explanation.reason
    assert check_round(rp, e, history) == []


def test_pinned_entries_keep_their_table_and_the_rest_fill_in_order() -> None:
    entries = [team(i, 10 - i) for i in range(1, 9)]
    entries[7] = replace(entries[7], pinned_table=1)  # the bottom entry needs table 1
    rp = pair_swiss(entries, [], round_no=2, salt="s")
    at = {p.table: (p.entry_a, p.entry_b) for p in rp.pairings}
    assert 8 in at[1]
    assert sorted(at) == [1, 2, 3, 4]
    assert at[2] == (1, 2)
    assert check_round(rp, entries, []) == []


def test_inactive_entries_are_not_paired() -> None:
    entries = [team(1), team(2), team(3, active=False)]
    rp = pair_swiss(entries, [], round_no=2, salt="s")
    assert paired_ids(rp) == {frozenset({1, 2})} and rp.byes == ()


def test_explanations_carry_the_window_and_ranks() -> None:
    entries = [team(i, 0, -i) for i in range(1, 21)]
    rp = pair_swiss(entries, [], round_no=2, salt="s")
    assert rp.window == 8
    assert all(p.explanation.window == 8 for p in rp.pairings)
    assert rp.pairings[0].explanation.ranks == (1, 2)


def test_the_window_widens_when_neighbours_have_all_met() -> None:
    entries = [team(i, 0, -i) for i in range(1, 41)]
    # entry 1 has met its 9 nearest neighbours: its partner lies beyond the first window
    history = [met(1, entries[0], entries[k]) for k in range(1, 10)]
    rp = pair_swiss(entries, history, round_no=2, salt="s")
    assert rp.window is not None and rp.window >= 16
    dense = pair_swiss(entries, history, round_no=2, salt="s", options=DENSE)
    assert rp.total_weight == dense.total_weight
    assert check_round(rp, entries, history) == []


def test_an_entry_that_met_a_quarter_of_the_field_is_offered_every_partner() -> None:
    """A *hard* entry (``pairing.rematches``): every rematch-free pair of it is a candidate, so
    the first window does not have to widen to reach its partner."""
    entries = [team(i, 0, -i) for i in range(1, 41)]
    history = [met(1, entries[0], entries[k]) for k in range(1, 13)]  # 12 of 40
    rp = pair_swiss(entries, history, round_no=2, salt="s")
    assert rp.window == 8
    dense = pair_swiss(entries, history, round_no=2, salt="s", options=DENSE)
    assert rp.total_weight == dense.total_weight
    assert check_round(rp, entries, history) == []


def test_fractional_match_points_need_a_scale() -> None:
    from fractions import Fraction

    entries = [EntryRecord(i, frozenset({i}), Fraction(i, 2)) for i in range(1, 5)]
    with pytest.raises(ValueError, match="scale"):
        pair_swiss(entries, [], round_no=2, salt="s")
    rp = pair_swiss(entries, [], round_no=2, salt="s", options=SwissOptions(mp_scale=2))
    assert paired_ids(rp) == {frozenset({4, 3}), frozenset({2, 1})}


def test_a_player_in_two_entries_is_rejected() -> None:
    with pytest.raises(ValueError, match="player"):
        pair_swiss(
            [EntryRecord(1, frozenset({1, 2})), EntryRecord(2, frozenset({2, 3}))],
            [],
            round_no=2,
            salt="s",
        )
