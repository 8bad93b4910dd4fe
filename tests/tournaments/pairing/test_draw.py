import hashlib

from tournaments.pairing import EntryRecord, pair_first_round, verify
from tournaments.pairing.draw import choose, lot, shuffle
from tournaments.pairing.simulate import make_field


def test_lot_is_the_documented_sha256() -> None:
    expected = hashlib.sha256(b"open-2026:first-round:1::17").hexdigest()
    assert lot("open-2026", "first-round", 1, 17) == int(expected, 16)
    with_context = hashlib.sha256(b"s:first-leader:3:4,9:12").hexdigest()
    assert lot("s", "first-leader", 3, 12, context=(4, 9)) == int(with_context, 16)


def test_shuffle_orders_by_lot_and_is_verifiable() -> None:
    order, record = shuffle("salt", "first-round", 1, range(1, 30))
    assert sorted(order) == list(range(1, 30))
    lots = [lot("salt", "first-round", 1, i) for i in order]
    assert lots == sorted(lots)
    assert verify(record, "salt")
    assert not verify(record, "another salt")


def test_choose_takes_the_smallest_lot() -> None:
    chosen, record = choose("salt", "first-leader", 2, [5, 6, 7, 8], context=(1, 2))
    assert chosen == min([5, 6, 7, 8], key=lambda i: lot("salt", "first-leader", 2, i, (1, 2)))
    assert record.outcome[0] == chosen


def test_same_salt_gives_the_same_draw_and_another_salt_another() -> None:
    field = make_field(40)
    one = pair_first_round(field, salt="club-night-7")
    two = pair_first_round(list(reversed(field)), salt="club-night-7")
    other = pair_first_round(field, salt="club-night-8")
    assert [(p.entry_a, p.entry_b) for p in one.pairings] == [
        (p.entry_a, p.entry_b) for p in two.pairings
    ]
    assert one.draws == two.draws
    assert [(p.entry_a, p.entry_b) for p in one.pairings] != [
        (p.entry_a, p.entry_b) for p in other.pairings
    ]


def test_every_recorded_draw_recomputes_from_the_salt() -> None:
    field = [*make_field(9), EntryRecord(99, frozenset({999}), active=False)]
    rp = pair_first_round(field, salt="pub")
    purposes = {d.purpose for d in rp.draws}
    assert purposes == {"first-round", "first-leader"}
    assert len([d for d in rp.draws if d.purpose == "first-leader"]) == len(rp.pairings)
    assert all(verify(d, "pub") for d in rp.draws)
    assert 99 not in rp.draws[0].inputs
