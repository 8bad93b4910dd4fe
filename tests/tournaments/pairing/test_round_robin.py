from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import EntryRecord, check_round, circle_schedule, pair_round_robin


@pytest.mark.parametrize("n", range(2, 17))
def test_every_pair_meets_exactly_once(n: int) -> None:
    schedule = circle_schedule(list(range(101, 101 + n)))
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(p) for rnd in schedule for p in rnd if None not in p)
    assert set(meetings) == {frozenset(p) for p in combinations(range(101, 101 + n), 2)}
    assert set(meetings.values()) == {1}
    for rnd in schedule:
        seated = [e for p in rnd if None not in p for e in p]
        assert sorted(seated) == sorted(set(seated))
        assert len(seated) == n - n % 2


@pytest.mark.parametrize("n", [3, 5, 9])
def test_odd_fields_rotate_the_bye_to_everyone_once(n: int) -> None:
    schedule = circle_schedule(list(range(1, n + 1)))
    byes = [next(a if b is None else b for a, b in rnd if None in (a, b)) for rnd in schedule]
    assert sorted(byes) == list(range(1, n + 1))


@pytest.mark.parametrize("n", range(2, 17))
def test_seat_order_is_balanced(n: int) -> None:
    schedule = circle_schedule(list(range(1, n + 1)))
    played = [p for rnd in schedule for p in rnd if None not in p]
    first = Counter(a for a, _ in played)
    second = Counter(b for _, b in played)
    assert all(abs(first[e] - second[e]) <= 1 for e in range(1, n + 1))


def test_round_robin_rounds_cover_the_schedule_and_pass_the_checker() -> None:
    entries = [EntryRecord(i, frozenset({i}), seed=8 - i) for i in range(1, 8)]
    seen: Counter[frozenset[int]] = Counter()
    byes = []
    for r in range(1, 8):
        rp = pair_round_robin(entries, round_no=r, salt="rr")
        assert rp.kind == "round_robin"
        assert check_round(rp, entries, []) == []
        seen.update(frozenset((p.entry_a, p.entry_b)) for p in rp.pairings)
        byes.extend(b.entry_id for b in rp.byes)
    assert len(seen) == 21 and set(seen.values()) == {1}
    assert sorted(byes) == list(range(1, 8))
    assert (
        pair_round_robin(entries, round_no=8, salt="rr").pairings
        == pair_round_robin(entries, round_no=1, salt="rr").pairings
    )


def test_order_must_list_every_active_entry() -> None:
    entries = [EntryRecord(i, frozenset({i})) for i in range(1, 5)]
    with pytest.raises(ValueError, match="order"):
        pair_round_robin(entries, round_no=1, salt="s", order=[1, 2, 3])
    with pytest.raises(ValueError, match="order"):
        pair_round_robin(entries, round_no=1, salt="s", order=[1, 2, 3, 4, 5])


def test_a_withdrawal_keeps_the_circle_and_gives_its_opponents_byes() -> None:
    entries = [EntryRecord(i, frozenset({i})) for i in range(1, 7)]
    circle = [1, 2, 3, 4, 5, 6]
    played: Counter[frozenset[int]] = Counter()
    for r in range(1, 3):
        rp = pair_round_robin(entries, round_no=r, salt="s", order=circle)
        played.update(frozenset((p.entry_a, p.entry_b)) for p in rp.pairings)
    entries[5] = EntryRecord(6, frozenset({6}), active=False)
    byes = []
    for r in range(3, 6):
        rp = pair_round_robin(entries, round_no=r, salt="s", order=circle)
        assert check_round(rp, entries, []) == []
        assert all(6 not in (p.entry_a, p.entry_b) for p in rp.pairings)
        played.update(frozenset((p.entry_a, p.entry_b)) for p in rp.pairings)
        byes.extend(b.entry_id for b in rp.byes)
    assert set(played.values()) == {1}
    assert {frozenset(p) for p in combinations(range(1, 6), 2)} <= set(played)
    assert len(byes) == 3 and len(set(byes)) == 3
