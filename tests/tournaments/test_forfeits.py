"""Forfeits, double forfeits and no-shows through the services (issue 12): the result versions,
the standings as the event's settings say, the pairing, and the play-off bracket."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.tournaments.results_support import (
    make_director,
    make_entry,
    make_event,
    make_round,
    match_at,
)
from tests.tournaments.rounds_factory import make_event as make_swiss_event
from tests.tournaments.rounds_factory import make_field
from tournaments.errors import SpinnerError
from tournaments.models import (
    AuditEntry,
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
    StandingsState,
)
from tournaments.selectors import bracket as bracket_reads
from tournaments.selectors import forfeits as forfeit_reads
from tournaments.selectors import pairing_inputs
from tournaments.selectors.standings_input import load_standings_input
from tournaments.selectors.standings_records import build_document
from tournaments.services import decisions, forfeits, playoffs, round_generation, round_status
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


def refused(code: str, call: Any, **kwargs: Any) -> SpinnerError:
    with pytest.raises(SpinnerError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.as_dict()
    return info.value


def standings_of(event: Event) -> tuple[dict[int, Any], dict[str, Any]]:
    """The standings rows by entry id and the per-entry extras (spread...), as a recompute
    computes them."""
    document, standings = build_document(load_standings_input(event_id=event.pk))
    return {int(r.entry_id): r for r in standings.rows}, document["extra"]


def test_a_forfeit_gives_the_other_side_the_target_to_nothing() -> None:
    event = make_event()  # All Fives to 100: raw points are displayed points
    director = make_director(event)
    match = match_at(make_round(event), 1)
    result = forfeits.record_forfeit(match=match, side=0, reason="late by 20 min", actor=director)
    assert (result.source, result.forfeit, result.winner_side) == ("forfeit", "a", 1)
    assert (result.score_a_halves, result.score_b_halves) == (0, 200)
    assert not result.verified and result.sheet is None and result.version == 1
    audit = AuditEntry.objects.get(event=event, action="result.forfeit")
    assert audit.reason == "late by 20 min" and audit.after["forfeit"] == "a"
    assert StandingsState.objects.get(event=event).dirty  # recomputed as after any result
    assert forfeit_reads.result_mark(result) == "forfeit"


def test_the_events_forfeit_score_is_what_the_other_side_wins_by() -> None:
    event = make_event(forfeit_score=150)
    director = make_director(event)
    match = match_at(make_round(event), 1)
    result = forfeits.record_forfeit(match=match, side=1, reason="left", actor=director)
    assert (result.score_a_halves, result.score_b_halves, result.winner_side) == (300, 0, 0)


@pytest.mark.parametrize("spread", [True, False])
def test_forfeits_count_in_the_swiss_standings_as_the_settings_say(spread: bool) -> None:
    event = make_event(
        forfeit_score=150, points_forfeit_win=3, points_forfeit_loss=-1, forfeit_spread=spread
    )
    director = make_director(event)
    rnd = make_round(event, tables=2)
    forfeited, played = match_at(rnd, 1), match_at(rnd, 2)
    forfeits.record_forfeit(match=forfeited, side=1, reason="no team", actor=director)
    decisions.override_result(
        match=played, reason="acta", actor=director, final_score={"scores": [100, 40]}
    )
    rows, extra = standings_of(event)
    winner, loser = rows[forfeited.entry_a_id], rows[forfeited.entry_b_id]
    assert (winner.match_points, loser.match_points) == (3, -1)
    assert (winner.wins, winner.forfeits, loser.losses, loser.forfeits) == (1, 1, 1, 1)
    assert rows[played.entry_a_id].match_points == 2  # a played win: the event's win points
    expected = 150 if spread else 0
    assert extra[str(forfeited.entry_a_id)]["spread"] == expected
    assert extra[str(forfeited.entry_b_id)]["spread"] == -expected
    assert extra[str(forfeited.entry_a_id)]["progress"] == [[1, 3]]
    assert extra[str(played.entry_a_id)]["spread"] == 60
    # The pairing reads the same numbers as the standings (one source: the standings package).
    pairing = pairing_inputs.results_for_pairing(event)
    assert pairing[forfeited.entry_a_id].match_points == 3
    assert pairing[forfeited.entry_b_id].match_points == -1
    assert pairing[forfeited.entry_a_id].spread == expected


def test_forfeit_points_left_empty_count_as_a_played_win_and_loss() -> None:
    event = make_event(points_win=2, points_loss=0)
    director = make_director(event)
    match = match_at(make_round(event), 1)
    forfeits.record_forfeit(match=match, side=0, reason="absent", actor=director)
    rows, extra = standings_of(event)
    assert (rows[match.entry_b_id].match_points, rows[match.entry_a_id].match_points) == (2, 0)
    assert extra[str(match.entry_b_id)]["spread"] == 100  # forfeit_spread defaults to yes


def test_a_double_forfeit_is_nil_all_with_no_winner() -> None:
    event = make_event(points_double_forfeit=-1)
    director = make_director(event)
    match = match_at(make_round(event), 1)
    result = forfeits.record_double_forfeit(match=match, reason="both late", actor=director)
    assert (result.forfeit, result.winner_side, result.score_a_halves, result.score_b_halves) == (
        "both",
        None,
        0,
        0,
    )
    assert forfeit_reads.result_mark(result) == "double forfeit"
    rows, _ = standings_of(event)
    for entry_id in (match.entry_a_id, match.entry_b_id):
        row = rows[entry_id]
        assert (row.match_points, row.losses, row.forfeits, row.draws) == (-1, 1, 1, 0)


def test_a_reason_is_required_and_nothing_is_written_without_one() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    for call, kwargs in (
        (forfeits.record_forfeit, {"side": 0}),
        (forfeits.record_double_forfeit, {}),
        (forfeits.record_no_show, {"side": 1}),
    ):
        refused("reason_required", call, match=match, reason="  ", actor=director, **kwargs)
    assert not MatchResult.objects.exists()
    assert Entry.objects.filter(status=Entry.Status.WITHDRAWN).count() == 0


def test_refused_on_a_draft_round_a_bye_and_a_wrong_side() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event, bye=True)
    bye = Match.objects.get(round=rnd, is_bye=True)
    refused("match_is_bye", forfeits.record_forfeit, match=bye, side=0, reason="x", actor=director)
    refused(
        "invalid_side",
        forfeits.record_forfeit,
        match=match_at(rnd, 1),
        side=2,
        reason="x",
        actor=director,
    )
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    refused(
        "round_not_published",
        forfeits.record_forfeit,
        match=match_at(rnd, 1),
        side=0,
        reason="x",
        actor=director,
    )


def test_a_forfeit_corrects_a_confirmed_result_as_a_new_version() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    first = decisions.override_result(
        match=match, reason="acta", actor=director, final_score={"scores": [100, 60]}
    )
    kwargs = {"match": match, "side": 0, "reason": "they had left", "actor": director}
    refused("version_required", forfeits.record_forfeit, **kwargs)
    refused("stale_version", forfeits.record_forfeit, expected_version=7, **kwargs)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)  # corrections stay open
    second = forfeits.record_forfeit(expected_version=first.version, **kwargs)
    assert (second.version, second.forfeit, second.winner_side) == (2, "a", 1)
    first.refresh_from_db()
    assert not first.is_current and first.forfeit == ""
    audit = AuditEntry.objects.get(action="result.forfeit")
    assert audit.before["scores"] == [100, 60] and audit.after["scores"] == [0, 100]
    # ... and a played result corrects a forfeit back: the mark goes with the version.
    third = decisions.correct_result(
        match=match,
        reason="it was played",
        actor=director,
        expected_version=2,
        final_score={"scores": [100, 80]},
    )
    assert third.forfeit == "" and forfeit_reads.result_mark(third) == ""


def test_a_no_show_forfeits_and_withdraws_the_absent_entry() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    result = forfeits.record_no_show(match=match, side=1, reason="never came", actor=director)
    assert (result.forfeit, result.winner_side) == ("b", 0)
    absent = Entry.objects.get(pk=match.entry_b_id)
    assert absent.status == Entry.Status.WITHDRAWN
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"result.forfeit", "entry.withdraw", "entry.no_show"} <= actions
    no_show = AuditEntry.objects.get(action="entry.no_show")
    assert no_show.object_id == str(absent.pk) and no_show.after["result"] == result.pk
    assert forfeit_reads.no_show_results(event.pk) == {result.pk}
    assert forfeit_reads.marks_of(event.pk, [(result.pk, result.forfeit)]) == {result.pk: "no-show"}
    _, extra = standings_of(event)
    assert extra[str(absent.pk)]["withdrawn"] is True


def test_a_no_show_of_an_entry_already_withdrawn_still_records_the_forfeit() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    Entry.objects.filter(pk=match.entry_a_id).update(status=Entry.Status.WITHDRAWN)
    result = forfeits.record_no_show(match=match, side=0, reason="gone", actor=director)
    assert result.forfeit == "a"
    assert not AuditEntry.objects.filter(action="entry.withdraw").exists()
    assert AuditEntry.objects.get(action="entry.no_show").after["already_withdrawn"] is True


def _play_round_one_with_a_no_show(event: Event, boss: User) -> tuple[Round, Match]:
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    games = list(Match.objects.filter(round=rnd, is_bye=False).order_by("table__number"))
    no_show = games[0]
    forfeits.record_no_show(match=no_show, side=1, reason="not here", actor=boss)
    for game in games[1:]:
        decisions.override_result(
            match=game, reason="acta", actor=boss, final_score={"scores": [305, 200]}
        )
    recompute_standings(event_id=event.pk)
    round_status.close_round(round=rnd, actor=boss)
    return rnd, no_show


def test_a_no_show_is_not_paired_in_the_next_round_generated() -> None:
    event = make_swiss_event("noshow", swiss_rounds=3)
    boss = make_director(event)
    make_field(event, 6)
    _, no_show = _play_round_one_with_a_no_show(event, boss)
    second = round_generation.generate_round(event=event, actor=boss)
    seated = {e for m in second.matches.all() for e in (m.entry_a_id, m.entry_b_id) if e}
    assert no_show.entry_b_id not in seated
    assert len(seated) == 5  # the five others: four at tables and a bye


def test_a_forfeited_match_counts_as_met_for_the_pairing() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event, tables=1)
    match = match_at(rnd, 1)
    forfeits.record_double_forfeit(match=match, reason="both late", actor=director)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    inputs = pairing_inputs.pairing_inputs(event, round_no=2)
    met = {frozenset((p.entry_a, p.entry_b)) for p in inputs.history}
    assert frozenset((match.entry_a_id, match.entry_b_id)) in met


def _seeded_bracket(event: Event, boss: User) -> Round:
    entries = [make_entry(event, f"Seed{n}") for n in range(1, 5)]
    rnd = playoffs.create_playoff_bracket(
        event=event, ranking=[e.pk for e in entries], actor=boss, qualifiers=4
    )
    round_status.publish_round(round=rnd, actor=boss)
    return rnd


def test_a_forfeit_in_the_bracket_sends_the_other_side_through() -> None:
    event = make_event(playoff=Event.Playoff.SINGLE, playoff_qualifiers=4)
    boss = make_director(event)
    rnd = _seeded_bracket(event, boss)
    match = Match.objects.filter(round=rnd, is_bye=False).order_by("table__number").first()
    assert match is not None and match.bracket_slot
    forfeits.record_forfeit(match=match, side=0, reason="did not come back", actor=boss)
    view = bracket_reads.bracket_view(event)
    assert view is not None
    decision = view.decisions[match.bracket_slot]
    assert decision.winner == match.entry_b_id and decision.forfeit
    assert view.tabled[match.bracket_slot].forfeit == "a"


def test_a_double_forfeit_is_refused_in_the_bracket() -> None:
    event = make_event(playoff=Event.Playoff.SINGLE, playoff_qualifiers=4)
    boss = make_director(event)
    rnd = _seeded_bracket(event, boss)
    match = Match.objects.filter(round=rnd, is_bye=False).first()
    error = refused(
        "bracket_needs_winner",
        forfeits.record_double_forfeit,
        match=match,
        reason="both gone",
        actor=boss,
    )
    assert "needs a winner" in error.message
    assert not MatchResult.objects.filter(match=match).exists()
