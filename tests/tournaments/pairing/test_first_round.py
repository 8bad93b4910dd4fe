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
