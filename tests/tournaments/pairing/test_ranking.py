from fractions import Fraction

from tournaments.pairing import EntryRecord, rank, rank_with_draws, verify
from tournaments.pairing.draw import lot


def entry(entry_id: int, mp: int, spread: int | Fraction) -> EntryRecord:
    return EntryRecord(entry_id, frozenset({entry_id}), match_points=mp, spread=spread)


def test_match_points_then_spread() -> None:
    entries = [entry(1, 2, 50), entry(2, 4, -10), entry(3, 2, Fraction(101, 2)), entry(4, 0, 90)]
    assert rank(entries, salt="s", round_no=2) == [2, 3, 1, 4]


def test_ties_are_broken_by_the_salted_lot_and_recorded() -> None:
    entries = [entry(i, 2, 0) for i in range(1, 8)] + [entry(8, 4, 0)]
    order, draws = rank_with_draws(entries, salt="s", round_no=3)
    assert order[0] == 8
    expected = sorted(range(1, 8), key=lambda i: lot("s", "rank", 3, i))
    assert order[1:] == expected
    assert len(draws) == 1 and draws[0].outcome == tuple(expected)
    assert verify(draws[0], "s")
    assert rank(list(reversed(entries)), salt="s", round_no=3) == order


def test_no_ties_no_draws() -> None:
    entries = [entry(1, 2, 5), entry(2, 2, 6)]
    assert rank_with_draws(entries, salt="s", round_no=1) == ([2, 1], [])


def test_custom_key_replaces_the_order_and_keeps_the_lot_last() -> None:
    entries = [entry(1, 2, 5), entry(2, 4, 6), entry(3, 0, 7), entry(4, 0, 7)]
    by_spread = rank(entries, salt="s", round_no=1, key=lambda e: (-e.spread,))
    assert by_spread[2:] == [2, 1]
    assert set(by_spread[:2]) == {3, 4}
