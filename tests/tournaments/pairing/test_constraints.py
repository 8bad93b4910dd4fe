"""The director's constraints (same club, named pairs) in two-entry Swiss and the checker."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    EntryRecord,
    Explanation,
    Pairing,
    PastMatch,
    RoundPairing,
    SwissOptions,
    check_round,
    pair_swiss,
)
from tournaments.pairing.export import round_to_dict
from tournaments.pairing.simulate import simulate

SALT = "clubs"


def team(k: int, mp: int = 0, **kw: object) -> EntryRecord:
    return EntryRecord(k, frozenset({2 * k, 2 * k + 1}), match_points=mp, spread=-k, **kw)  # type: ignore[arg-type]


def test_round_one_keeps_clubs_apart() -> None:
    field = [team(k, club="elks" if k <= 4 else "owls") for k in range(1, 9)]
    rp = pair_swiss(field, [], round_no=1, salt=SALT)
    club = {e.entry_id: e.club for e in field}
    assert all(club[p.entry_a] != club[p.entry_b] for p in rp.pairings)
    assert any("constraints rank above score groups in round 1" in n for n in rp.notes)
    assert check_round(rp, field, []) == []


def test_named_pair_is_kept_apart_even_across_a_score_group_in_early_rounds() -> None:
    # 1 and 2 lead on 2 points; a couple (they asked not to play each other)
    field = [team(1, 2, avoid=frozenset({2})), team(2, 2), team(3, 0), team(4, 0)]
    rp = pair_swiss(field, [], round_no=2, salt=SALT)
    assert {(p.entry_a, p.entry_b) for p in rp.pairings} == {(1, 3), (2, 4)}
    assert all(p.explanation.constraint is None for p in rp.pairings)
    # from round constraint_until + 1 on, score groups come first
    late = pair_swiss(field, [], round_no=4, salt=SALT)
    assert {(p.entry_a, p.entry_b) for p in late.pairings} == {(1, 2), (3, 4)}
    top = next(p for p in late.pairings if p.entry_a == 1)
    assert top.explanation.constraint == "avoid"
    assert "constraint not kept (avoid)" in top.explanation.reason
    assert check_round(late, field, []) == []  # not checked after the early rounds
    doc = round_to_dict(late)
    assert doc["pairings"][0]["why"]["constraint"] == "avoid"
    assert json.loads(json.dumps(doc)) == doc
    shifted = pair_swiss(field, [], round_no=4, salt=SALT, options=SwissOptions(constraint_until=4))
    assert {(p.entry_a, p.entry_b) for p in shifted.pairings} == {(1, 3), (2, 4)}


def test_a_rematch_still_outranks_a_club() -> None:
    field = [team(k, club="elks" if k in (1, 2) else None) for k in range(1, 5)]
    history = [
        PastMatch(1, 1, field[0].player_ids, 3, field[2].player_ids),
        PastMatch(1, 2, field[1].player_ids, 4, field[3].player_ids),
        PastMatch(2, 1, field[0].player_ids, 4, field[3].player_ids),
        PastMatch(2, 2, field[1].player_ids, 3, field[2].player_ids),
    ]
    rp = pair_swiss(field, history, round_no=3, salt=SALT)
    assert {(p.entry_a, p.entry_b) for p in rp.pairings} == {(1, 2), (3, 4)}
    assert rp.rematches == 0
    assert check_round(rp, field, history) == []


def test_checker_flags_an_avoidable_club_pairing_and_accepts_an_override() -> None:
    field = [team(k, club="elks" if k in (1, 2) else None) for k in range(1, 5)]
    why = Explanation(method="manual", reason="edited")
    bad = RoundPairing(
        round_no=2,
        kind="swiss",
        pairings=(Pairing(1, 1, 2, why), Pairing(2, 3, 4, why)),
    )
    found = check_round(bad, field, [])
    assert [v.code for v in found] == ["club"]
    assert "elks" in found[0].message
    edited = replace(bad, pairings=(replace(bad.pairings[0], override="asked"), bad.pairings[1]))
    assert [v.code for v in check_round(edited, field, [])] == ["override"]
    assert check_round(bad, field, [], constraint_until=1) == []


def test_unavoidable_club_pairings_are_not_violations() -> None:
    field = [team(k, club="elks" if k <= 3 else "owls") for k in range(1, 5)]
    rp = pair_swiss(field, [], round_no=1, salt=SALT)
    kept = [p for p in rp.pairings if p.explanation.constraint]
    assert len(kept) == 1  # three of one club in four: one pair must share it
    assert check_round(rp, field, []) == []


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(min_value=4, max_value=24),
    clubs=st.integers(min_value=1, max_value=5),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_generated_swiss_rounds_with_clubs_pass_the_checker(
    size: int, clubs: int, rounds: int, seed: int
) -> None:
    entries, history, _ = simulate(size, rounds - 1, seed=seed, salt=SALT)
    entries = [replace(e, club=f"c{(e.entry_id * 7 + seed) % clubs}") for e in entries]
    rp = pair_swiss(entries, history, round_no=rounds, salt=SALT)
    assert [str(v) for v in check_round(rp, entries, history)] == []


@settings(max_examples=25, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=30),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_distinct_clubs_change_no_pairing_and_no_club_changes_no_byte(
    size: int, rounds: int, seed: int
) -> None:
    entries, history, _ = simulate(size, rounds - 1, seed=seed, salt=SALT)
    plain = pair_swiss(entries, history, round_no=rounds, salt=SALT)
    own_club = [replace(e, club=f"club-{e.entry_id}") for e in entries]
    tagged = pair_swiss(own_club, history, round_no=rounds, salt=SALT)
    assert [(p.entry_a, p.entry_b, p.table) for p in tagged.pairings] == [
        (p.entry_a, p.entry_b, p.table) for p in plain.pairings
    ]
    assert [b.entry_id for b in tagged.byes] == [b.entry_id for b in plain.byes]
    assert "constraint" not in json.dumps(round_to_dict(plain))
