from dataclasses import replace

import pytest

from tournaments.pairing import EntryRecord, check_round, pair_first_round
from tournaments.pairing.draw import shuffle
from tournaments.pairing.simulate import make_field


def test_random_first_round_follows_the_published_shuffle() -> None:
    field = make_field(10)
    rp = pair_first_round(field, salt="open")
    order, _ = shuffle("open", "first-round", 1, range(1, 11))
    assert rp.ranking == tuple(order)
    assert [(p.entry_a, p.entry_b) for p in rp.pairings] == [
        (order[k], order[k + 5]) for k in range(5)
    ]
    assert [p.table for p in rp.pairings] == [1, 2, 3, 4, 5]
    assert check_round(rp, field, []) == []


def test_rating_order_pairs_top_half_against_bottom_half() -> None:
    field = [EntryRecord(i, frozenset({i}), rating=2000 - 10 * i) for i in range(1, 9)]
    rp = pair_first_round(field, salt="s", method="rating")
    assert [(p.entry_a, p.entry_b) for p in rp.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert rp.pairings[0].explanation.reason == "rating order: place 1 against place 5"


def test_seed_order_with_an_odd_field_gives_the_last_seed_the_bye() -> None:
    field = [EntryRecord(i, frozenset({i}), seed=i) for i in range(1, 8)]
    rp = pair_first_round(field, salt="s", method="seed")
    assert [b.entry_id for b in rp.byes] == [7]
    assert [(p.entry_a, p.entry_b) for p in rp.pairings] == [(1, 4), (2, 5), (3, 6)]
    assert check_round(rp, field, []) == []


def test_unrated_entries_come_last_and_ties_are_drawn_by_lot() -> None:
    field = [EntryRecord(i, frozenset({i}), rating=1500) for i in range(1, 5)]
    field += [EntryRecord(5, frozenset({5}), rating=1800), EntryRecord(6, frozenset({6}))]
    rp = pair_first_round(field, salt="s", method="rating")
    assert rp.ranking[0] == 5 and rp.ranking[-1] == 6
    seed_draw = next(d for d in rp.draws if d.purpose == "seed-order")
    assert seed_draw.inputs == (1, 2, 3, 4)
    assert rp.ranking[1:5] == seed_draw.outcome


def test_first_round_keeps_pins() -> None:
    field = make_field(8)
    field[3] = replace(field[3], pinned_table=4)
    rp = pair_first_round(field, salt="s", method="seed")
    assert next(p.table for p in rp.pairings if 4 in (p.entry_a, p.entry_b)) == 4
    assert check_round(rp, field, []) == []


def test_unknown_method_fails_loudly() -> None:
    with pytest.raises(ValueError, match="unknown"):
        pair_first_round(make_field(4), salt="s", method="alphabetical")  # type: ignore[arg-type]


def _rated(count: int, club: object = None) -> list[EntryRecord]:
    """``count`` entries rated 2000, 1990, ... (entry 1 the strongest); ``club(k)`` names entry
    ``k``'s club."""
    return [
        EntryRecord(
            k,
            frozenset({k}),
            rating=2010 - 10 * k,
            club=club(k) if callable(club) else None,
        )
        for k in range(1, count + 1)
    ]


def test_by_rating_with_clubs_that_no_fold_pair_shares_is_the_fold() -> None:
    """Issue 30: with "avoid same club" on and no club pair at stake, round 1 paired 1 v 2,
    3 v 4 (the Swiss close-rank tier); it is the rating fold, 1 v 9."""
    field = _rated(16, club=lambda k: ("north", "south", "east", "west")[(k - 1) // 4])
    rp = pair_first_round(field, salt="s", method="rating")
    assert [(p.entry_a, p.entry_b) for p in rp.pairings] == [(k, k + 8) for k in range(1, 9)]
    assert rp.pairings[0].explanation.reason == "rating order: place 1 against place 9"
    assert rp.notes[0] == (
        "director's constraints kept with the fold as the target: 0 of 8 pair(s) moved from it; "
        "0 pair(s) not kept"
    )
    assert check_round(rp, field, []) == []


def test_a_club_pair_in_the_fold_moves_as_little_as_it_must() -> None:
    """Entries 1 and 5 (of 8) are of one club: the fold's 1 v 5 cannot stand. The nearest
    pairing that keeps them apart changes two pairs by one place each (1 v 6 and 2 v 5, or
    1 v 5's neighbours), and every other pair is the fold's."""
    field = _rated(8, club=lambda k: "elks" if k in (1, 5) else f"own-{k}")
    rp = pair_first_round(field, salt="s", method="rating")
    pairs = {(p.entry_a, p.entry_b) for p in rp.pairings}
    assert (1, 5) not in pairs
    fold = {(1, 5), (2, 6), (3, 7), (4, 8)}
    assert len(pairs - fold) == 2  # two pairs changed, the other two kept
    moved = [p for p in rp.pairings if (p.entry_a, p.entry_b) not in fold]
    assert all(abs(p.entry_b - p.entry_a - 4) == 1 for p in moved)  # one place from the fold
    assert "changed to keep the director's constraints" in moved[0].explanation.reason
    assert "2 of 4 pair(s) moved from it; 0 pair(s) not kept" in rp.notes[0]
    assert check_round(rp, field, []) == []


def test_a_constraint_the_field_cannot_keep_is_broken_once_and_said() -> None:
    """Three of four entries in one club: one club pair must stay; the others are kept apart."""
    field = _rated(4, club=lambda k: "elks" if k <= 3 else "owls")
    rp = pair_first_round(field, salt="s", method="rating")
    broken = [p for p in rp.pairings if p.explanation.constraint is not None]
    assert len(broken) == 1 and broken[0].explanation.constraint == "club:elks"
    assert "the field could not keep it" in broken[0].explanation.reason
    assert "1 pair(s) not kept" in rp.notes[0]
    assert check_round(rp, field, []) == []


def test_an_odd_field_keeps_its_bye_with_constraints() -> None:
    field = _rated(9, club=lambda k: "elks" if k in (1, 5) else None)
    rp = pair_first_round(field, salt="s", method="rating")
    assert [b.entry_id for b in rp.byes] == [9]
    assert (1, 5) not in {(p.entry_a, p.entry_b) for p in rp.pairings}
