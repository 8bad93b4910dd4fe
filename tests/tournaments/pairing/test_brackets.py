import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from tournaments.pairing import (
    Bracket,
    LoserOf,
    SeedSlot,
    WinnerOf,
    bracket_size,
    double_elimination,
    qualifier_count,
    single_elimination,
    standard_order,
)
from tournaments.pairing.brackets import Slot

RANKING = list(range(1001, 1101))  # entry ids; entry 1001 ranks first


def play(
    bracket: Bracket, winner: Callable[[str, int, int], int]
) -> dict[str, tuple[int, int, int]]:
    """Play every match in listed order: match id -> (seed a, seed b, winning seed)."""
    results: dict[str, tuple[int, int, int]] = {}

    def seed_of(slot: Slot) -> int:
        if isinstance(slot, SeedSlot):
            return slot.seed
        a, b, w = results[slot.match_id]
        return w if isinstance(slot, WinnerOf) else (b if w == a else a)

    for rnd in bracket.rounds:
        for m in rnd.matches:
            if m.match_id == "GF2":
                a, b, w = results["GF"]
                if w == a:  # the winners' champion won: no reset
                    continue
            a, b = seed_of(m.slot_a), seed_of(m.slot_b)
            results[m.match_id] = (a, b, winner(m.match_id, a, b))
    return results


def favourites(_match: str, a: int, b: int) -> int:
    return min(a, b)


def test_standard_order_for_sixteen() -> None:
    b = single_elimination(RANKING, qualifiers=16)
    first = [(m.slot_a, m.slot_b) for m in b.rounds[0].matches]
    assert first == [
        (SeedSlot(s), SeedSlot(t))
        for s, t in [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]
    ]
    assert b.seeds == tuple(RANKING[:16]) and b.byes == ()


@pytest.mark.parametrize("q", range(5, 65))
def test_bracket_order_and_byes_for_5_to_64_qualifiers(q: int) -> None:
    b = single_elimination(RANKING, qualifiers=q)
    size = bracket_size(q)
    assert size >= q > size // 2
    assert b.byes == tuple(range(1, size - q + 1))
    seed_slots = Counter(
        s.seed for r in b.rounds for m in r.matches for s in (m.slot_a, m.slot_b)
        if isinstance(s, SeedSlot)
    )  # fmt: skip
    assert sorted(seed_slots) == list(range(1, q + 1)) and set(seed_slots.values()) == {1}
    first = b.rounds[0]
    assert first.round_no == 1
    for m in first.matches:
        assert isinstance(m.slot_a, SeedSlot) and isinstance(m.slot_b, SeedSlot)
        assert m.slot_a.seed + m.slot_b.seed == size + 1
        assert m.slot_a.seed < m.slot_b.seed
    assert len(first.matches) == q - size // 2
    # bye seeds first play in round 2
    for s in b.byes:
        m = next(m for m in b.rounds[1].matches if SeedSlot(s) in (m.slot_a, m.slot_b))
        assert m.round_no == 2
    results = play(b, favourites)
    assert len(results) == q - 1
    for rnd in b.rounds:
        left = size >> (rnd.round_no - 1)
        for m in rnd.matches:
            a, bb, _ = results[m.match_id]
            assert a + bb == left + 1, (q, m.match_id)
    final = b.rounds[-1].matches
    assert len(final) == 1 and sorted(results[final[0].match_id][:2]) == [1, 2]


def test_standard_order_rejects_non_powers_of_two() -> None:
    with pytest.raises(ValueError):
        standard_order(12)


def test_qualifier_count_from_a_count_or_a_fraction() -> None:
    assert qualifier_count(40, count=12) == 12
    assert qualifier_count(40, count=60) == 40
    assert qualifier_count(45, fraction=Fraction(1, 4)) == 11
    with pytest.raises(ValueError):
        qualifier_count(40)
    with pytest.raises(ValueError):
        qualifier_count(3, fraction=Fraction(1, 4))


def test_third_place_match_between_the_semi_final_losers() -> None:
    b = single_elimination(RANKING, qualifiers=6, consolation="third_place")
    third = b.match("3P")
    winners = [r for r in b.rounds if r.section == "winners"]
    semis = [m.match_id for m in winners[-2].matches]
    assert {third.slot_a, third.slot_b} == {LoserOf(s) for s in semis}
    results = play(b, favourites)
    assert sorted(results["3P"][:2]) == [3, 4]


def test_consolation_for_first_round_losers_skips_byes() -> None:
    b = single_elimination(RANKING, qualifiers=12, consolation="first_round_losers")
    consolation = [m for r in b.rounds for m in r.matches if m.section == "consolation"]
    first_ids = {m.match_id for m in b.rounds[0].matches}
    assert len(first_ids) == 4
    assert len(consolation) == 3  # four losers, a knockout of three matches
    refs = {s.match_id for m in consolation for s in (m.slot_a, m.slot_b) if isinstance(s, LoserOf)}
    assert refs == first_ids


@pytest.mark.parametrize("q", range(3, 33))
def test_double_elimination_everyone_but_the_champion_loses_twice(q: int) -> None:
    b = double_elimination(RANKING, qualifiers=q)
    rng = random.Random(q)
    for trial in range(4):
        results = play(b, (lambda _m, a, bb: rng.choice((a, bb))) if trial else favourites)
        losses: Counter[int] = Counter()
        for a, bb, w in results.values():
            losses[bb if w == a else a] += 1
        assert len(results) in (2 * q - 2, 2 * q - 1)
        champion = [s for s in range(1, q + 1) if losses[s] < 2]
        assert len(champion) == 1
        assert all(losses[s] == 2 for s in range(1, q + 1) if s != champion[0])
        if trial == 0:
            assert champion == [1]


def test_double_elimination_shape_for_eight() -> None:
    b = double_elimination(RANKING, qualifiers=8)
    sections = Counter(m.section for r in b.rounds for m in r.matches)
    assert sections == {"winners": 7, "losers": 6, "final": 2}
    gf = b.match("GF")
    assert gf.slot_a == WinnerOf("W3-1") and gf.slot_b == WinnerOf("L4-1")
    assert b.match("GF2").note.startswith("played only if")


def test_double_elimination_needs_three() -> None:
    with pytest.raises(ValueError):
        double_elimination(RANKING, qualifiers=2)
