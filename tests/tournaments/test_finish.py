"""Finishing an event: when it is allowed, the placings it freezes, what a finished event refuses
and the correction it still takes (``services/finish.py``, ``selectors/final_placings.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q

from tests.tournaments.finish_support import (
    better_seed,
    confirm_winner,
    final_match,
    play_bracket,
    seeded_event,
)
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Claim, Event, MatchResult, Round
from tournaments.pairing.final_places import SWISS
from tournaments.selectors import export
from tournaments.selectors.bracket import bracket_view
from tournaments.selectors.final_placings import finish_check, swiss_places
from tournaments.services import claims, decisions, finish, round_generation, round_status

pytestmark = pytest.mark.django_db


def refused(code: str, call: Any, **kwargs: Any) -> SpinnerError:
    with pytest.raises(SpinnerError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.as_dict()
    return info.value


def places(event: Event) -> list[tuple[int, int, bool]]:
    return [(p["place"], p["entry_id"], p["shared"]) for p in event.placings or []]


def seeds_of(event: Event) -> list[int]:
    view = bracket_view(event)
    assert view is not None
    return list(view.bracket.seeds)


def swiss_rest(event: Event, qualified: set[int]) -> list[int]:
    return [s.entry_id for s in swiss_places(event) if s.entry_id not in qualified]


def test_finish_is_refused_until_the_final_is_decided_then_freezes_single_placings() -> None:
    event, boss, _ = seeded_event(field=8, qualifiers=4)
    refused("playoff_not_decided", finish.finish_event, event=event, actor=boss)
    play_bracket(event, boss, until="W2-1")
    refused("playoff_not_decided", finish.finish_event, event=event, actor=boss)
    assert finish_check(event).error is not None
    play_bracket(event, boss)
    assert finish_check(event).ready
    finished = finish.finish_event(event=event, actor=boss)
    assert finished.status == Event.Status.FINISHED and finished.finished_at is not None
    s = seeds_of(event)
    # better seeds win: 1 beats 4, 2 beats 3, 1 beats 2; no third-place match: 3 and 4 share 3rd
    assert places(finished)[:4] == [
        (1, s[0], False),
        (2, s[1], False),
        (3, s[2], True),
        (3, s[3], True),
    ]
    rest = swiss_rest(event, set(s))
    assert [p[1] for p in places(finished)[4:]] == rest
    assert all(p["eliminated_in"] == SWISS for p in finished.placings[4:])  # type: ignore[index]
    assert finished.placings[0]["name"] and finished.placings[0]["eliminated_in"] is None  # type: ignore[index]
    entry = AuditEntry.objects.get(event=event, action="event.finish")
    assert entry.after["placings"] == finished.placings
    # the final's round is over with the event: no round is left open
    assert not finished.rounds.exclude(status=Round.Status.CLOSED).exists()
    refused("event_finished", finish.finish_event, event=finished, actor=boss)


def test_a_third_place_match_orders_the_losing_semi_finalists() -> None:
    event, boss, _ = seeded_event("third", field=8, qualifiers=4, consolation="third_place")
    play_bracket(event, boss, until="3P")
    # the final is decided: finishing now counts the unplayed 3rd-place match as not played
    assert [p.shared for p in finish_check(event).places[2:4]] == [True, True]

    def worse_seed(state: Any, seeds: dict[int, int]) -> int:
        a, b = state.entries
        return a if seeds[a] > seeds[b] else b

    play_bracket(event, boss, worse_seed)
    finished = finish.finish_event(event=event, actor=boss)
    s = seeds_of(event)
    assert places(finished)[:4] == [
        (1, s[0], False),
        (2, s[1], False),
        (3, s[3], False),  # seed 4 won the match for third place
        (4, s[2], False),
    ]
    assert finished.placings[2]["eliminated_in"] == "W1-1"  # type: ignore[index]


def test_double_elimination_placings_by_the_round_of_the_last_loss() -> None:
    event, boss, _ = seeded_event("double", field=6, qualifiers=4, playoff=Event.Playoff.DOUBLE)
    play_bracket(event, boss)
    view = bracket_view(event)
    assert view is not None and view.progress is not None and view.progress.finished
    finished = finish.finish_event(event=event, actor=boss)
    s = seeds_of(event)
    # better seeds win: 1 through the winners' bracket, 2 wins the losers' bracket, 1 wins GF
    assert [p[1] for p in places(finished)[:2]] == [s[0], s[1]]
    assert places(finished)[2] == (3, s[2], False)  # lost the losers' final (L2-1)
    assert places(finished)[3] == (4, s[3], False)
    assert [p[1] for p in places(finished)[4:]] == swiss_rest(event, set(s))
    assert [p["eliminated_in"] for p in (finished.placings or [])[:4]] == [
        None,
        "GF",
        "L2-1",
        "L1-1",
    ]


def test_an_event_without_a_playoff_finishes_once_its_swiss_rounds_are_closed() -> None:
    event = make_event("swiss-only", swiss_rounds=1)
    boss = make_director(event)
    make_field(event, 6)
    rnd = round_generation.generate_round(event=event, actor=boss)
    refused("main_rounds_open", finish.finish_event, event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    finished = finish.finish_event(event=event, actor=boss)
    assert [p[1] for p in places(finished)] == [s.entry_id for s in swiss_places(event)]
    assert all(p["eliminated_in"] is None for p in finished.placings or [])
    # a correction of a Swiss result freezes the placings again, from the corrected standing
    leader = places(finished)[0][1]
    match = rnd.matches.get(Q(entry_a_id=leader) | Q(entry_b_id=leader))
    current = MatchResult.objects.get(match=match, is_current=True)
    scores = [0, 305] if match.entry_a_id == leader else [305, 0]
    decisions.correct_result(
        match=match,
        reason="wrong winner",
        actor=boss,
        expected_version=current.version,
        final_score={"scores": scores},
    )
    event.refresh_from_db()
    assert places(event)[0][1] != leader
    assert [p[1] for p in places(event)] == [s.entry_id for s in swiss_places(event)]


def test_a_finished_event_refuses_results_but_takes_a_correction_that_swaps_the_champion() -> None:
    event, boss, _ = seeded_event("final", field=8, qualifiers=4)
    play_bracket(event, boss)
    finished = finish.finish_event(event=event, actor=boss)
    s = seeds_of(event)
    assert places(finished)[0][1] == s[0]
    final = final_match(event, "W2-1")
    semi = final_match(event, "W1-1")
    # a table's claim, a director's arbitral result and a conflict's resolution are refused
    refused(
        "event_finished", claims.submit_claim, match=semi, side=0, final_score={"scores": [305, 1]}
    )
    refused("event_finished", confirm_winner, match=semi, winner=semi.entry_b_id, boss=boss)
    refused(
        "event_finished", decisions.resolve_conflict, match=final, side=1, reason="x", actor=boss
    )
    assert not Claim.objects.filter(match=semi).exists()
    # the director's correction of the final is taken, and the placings are frozen again
    current = MatchResult.objects.get(match=final, is_current=True)
    loser_side = [100, 305] if final.entry_b_id == s[1] else [305, 100]
    decisions.correct_result(
        match=final,
        reason="the scorer swapped the sides",
        actor=boss,
        expected_version=current.version,
        final_score={"scores": loser_side},
    )
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert [p[1] for p in places(event)[:2]] == [s[1], s[0]]
    audit = AuditEntry.objects.get(event=event, action="event.placings")
    assert audit.before["placings"][0]["entry_id"] == s[0]
    assert audit.after["placings"][0]["entry_id"] == s[1]
    assert audit.reason == "the scorer swapped the sides"


def test_the_export_carries_the_status_and_the_placings() -> None:
    event, boss, _ = seeded_event("exported", field=6, qualifiers=4)
    assert export.export_event(event)["placings"] is None
    play_bracket(event, boss, better_seed)
    finished = finish.finish_event(event=event, actor=boss)
    doc = export.export_event(finished)
    assert doc["event"]["status"] == "finished"
    assert doc["placings"][:3] == [
        {"place": p["place"], "entry": p["entry_id"], "shared": p["shared"]}
        for p in (finished.placings or [])[:3]
    ]
    assert len(doc["placings"]) == 6
    assert {p["entry"] for p in doc["placings"]} == {e["id"] for e in doc["entries"]}
