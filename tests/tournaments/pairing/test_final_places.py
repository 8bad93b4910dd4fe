"""The final placings rule on plain records (``tournaments/pairing/final_places.py``)."""

from __future__ import annotations

import doctest

from tournaments.pairing import final_places as module
from tournaments.pairing.brackets import single_elimination
from tournaments.pairing.final_places import SWISS, SwissPlace, bracket_places, final_places
from tournaments.pairing.progression import Decision, bracket_progress


def test_the_doctests_pass() -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_eight_without_a_third_place_match_share_third_and_fifth() -> None:
    bracket = single_elimination(list(range(1, 9)), qualifiers=8)
    progress = bracket_progress(bracket, {})
    decisions: dict[str, Decision] = {}
    while progress.ready:  # better seed (smaller entry id here) always wins
        for match_id in progress.ready:
            a, b = progress.state(match_id).entries or (0, 0)
            decisions[match_id] = Decision(min(a, b))
        progress = bracket_progress(bracket, decisions)
    places = bracket_places(bracket, progress)
    assert [(p.place, p.entry_id, p.shared) for p in places] == [
        (1, 1, False),
        (2, 2, False),
        (3, 3, True),
        (3, 4, True),
        (5, 5, True),
        (5, 6, True),
        (5, 7, True),
        (5, 8, True),
    ]
    swiss = [SwissPlace(e, e) for e in range(1, 11)] + [SwissPlace(11, 11, withdrawn=True)]
    swiss.insert(8, SwissPlace(12, 12, withdrawn=True))
    out = final_places(places, swiss, playoff=True)
    assert [(p.place, p.entry_id, p.eliminated_in) for p in out[8:]] == [
        (9, 9, SWISS),
        (10, 10, SWISS),
        (11, 12, SWISS),  # withdrawn entries last, in Swiss order
        (12, 11, SWISS),
    ]


def test_the_final_decided_before_the_third_place_match_counts_it_as_not_played() -> None:
    bracket = single_elimination([1, 2, 3, 4], qualifiers=4, consolation="third_place")
    decided = {"W1-1": Decision(1), "W1-2": Decision(2), "W2-1": Decision(2)}
    progress = bracket_progress(bracket, decided)
    assert progress.champion == 2 and not progress.finished
    places = bracket_places(bracket, progress)
    assert [(p.place, p.entry_id, p.shared) for p in places] == [
        (1, 2, False),
        (2, 1, False),
        (3, 3, True),
        (3, 4, True),
    ]
    assert bracket_places(bracket, bracket_progress(bracket, {"W1-1": Decision(1)})) == ()


def test_without_a_playoff_the_swiss_ranks_are_the_places() -> None:
    swiss = [SwissPlace(7, 1), SwissPlace(8, 2), SwissPlace(9, 2), SwissPlace(10, 4)]
    out = final_places((), swiss, playoff=False)
    assert [(p.place, p.entry_id, p.shared, p.eliminated_in) for p in out] == [
        (1, 7, False, None),
        (2, 8, True, None),
        (2, 9, True, None),
        (4, 10, False, None),
    ]
