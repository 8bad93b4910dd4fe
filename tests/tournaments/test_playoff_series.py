"""Best-of play-off matches (one Match row per game), the job that advances the bracket, the
director's tap and its refusals, and the play-off settings on the event form."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.api_support import post, table_client
from tests.tournaments.bracket_support import current_game, decide, playoff_event, seed, win_game
from tournaments import game
from tournaments.errors import SpinnerError
from tournaments.models import Event, Match, MatchResult, Round
from tournaments.selectors.bracket import bracket_view
from tournaments.services import decisions, events, playoff_rounds, round_generation, round_status
from tournaments.services.table_links import table_link_path

pytestmark = pytest.mark.django_db

BEST_OF_3_FINAL = {"final": {"best_of": 3, "target": None}}


def refused(code: str, call: Any, **kwargs: Any) -> SpinnerError:
    with pytest.raises(SpinnerError) as caught:
        call(**kwargs)
    assert caught.value.code == code, caught.value.as_dict()
    return caught.value


def _final(slug: str, **fields: Any) -> tuple[Event, Any, Round, Match]:
    """A play-off of two (only a final), best of 3, its round published."""
    fields = {"playoff_formats": BEST_OF_3_FINAL, "allow_final_score_only": True, **fields}
    event, boss, entries = playoff_event(slug, 2, **fields)
    rnd = seed(event, boss, entries)
    return event, boss, rnd, Match.objects.get(round=rnd, game_no=1, is_bye=False)


def _claim_and_confirm(rnd: Round, match: Match, scores: list[int]) -> None:
    """Side A's link claims a final score, side B's link confirms it (the tables' own path)."""
    table = match.table.number  # type: ignore[union-attr]
    side_a, side_b = table_client(rnd, table, side=0), table_client(rnd, table, side=1)
    sent = post(side_a, f"/api/matches/{match.pk}/claims/", {"final_score": {"scores": scores}})
    assert sent.status_code == 201, sent.content
    done = post(side_b, f"/api/matches/{match.pk}/confirm/", {}, If_Match='"1"')
    assert done.status_code == 201, done.content


def test_a_best_of_three_final_won_two_nil_through_the_table_links() -> None:
    event, boss, rnd, first = _final("bo3-20")
    assert (first.best_of, first.game_no, first.bracket_slot) == (3, 1, "W1-1")
    _claim_and_confirm(rnd, first, [305, 200])
    second = current_game(rnd, "W1-1")
    assert second.game_no == 2 and second.table_id == first.table_id
    assert not second.seats.exists()  # only game 1 holds the round's seats
    # the side's link now opens game 2, and its page says where the series stands
    side_a = table_client(rnd, first.table.number, side=0)  # type: ignore[union-attr]
    assert side_a.get("/api/table/").json()["match"]["id"] == second.pk
    path = table_link_path(round_=rnd, table=first.table, side=0)  # type: ignore[arg-type]
    page = Client().get(path)
    assert "Game 2 of 3 · series 1–0" in page.content.decode()
    # a phone still showing game 1 is told to move on (and reloads)
    moved = Client().get(f"{path}status?game={first.pk}")
    assert moved["HX-Refresh"] == "true" and "Game 1 confirmed" in moved.content.decode()
    # the round pages name the stage and the series so far
    public = Client().get(f"/events/{event.slug}/rounds/{rnd.number}/").content.decode()
    assert "Final" in public and "Best of 3 · 1–0" in public
    director = Client()
    director.force_login(boss)
    review = director.get(f"/director/events/{event.slug}/rounds/{rnd.number}/").content.decode()
    assert "Final · W1-1 · Best of 3 · 1–0" in review
    _claim_and_confirm(rnd, second, [305, 120])
    assert not Match.objects.filter(round=rnd, game_no=3).exists()
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    assert view.progress.finished and view.progress.champion == first.entry_a_id
    assert view.tabled["W1-1"].series.wins_a == 2
    refused("playoff_finished", playoff_rounds.advance_playoff, event=event, actor=boss)


def test_a_best_of_three_final_won_two_one_creates_game_three_only_after_one_all() -> None:
    event, boss, rnd, first = _final("bo3-21")
    a, b = first.entry_a_id, first.entry_b_id
    assert b is not None
    win_game(first, a, boss)
    assert not Match.objects.filter(round=rnd, game_no=3).exists()
    win_game(current_game(rnd, "W1-1"), b, boss)
    third = current_game(rnd, "W1-1")
    assert third.game_no == 3
    view = bracket_view(event)
    assert view is not None and not view.tabled["W1-1"].decided
    refused("playoff_round_in_play", playoff_rounds.advance_playoff, event=event, actor=boss)
    win_game(third, b, boss)
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    assert view.progress.champion == b
    assert (view.tabled["W1-1"].series.wins_a, view.tabled["W1-1"].series.wins_b) == (1, 2)
    # a correction that would decide the series before a game already played is refused
    game_one = MatchResult.objects.get(match=first, is_current=True)
    refused(
        "later_games_played",
        decisions.correct_result,
        match=first,
        reason="typo",
        actor=boss,
        expected_version=game_one.version,
        final_score={"scores": [100, 305]},
    )
    assert MatchResult.objects.get(match=first, is_current=True).pk == game_one.pk


def test_a_correction_that_decides_the_series_removes_the_unplayed_game() -> None:
    _, boss, rnd, first = _final("bo3-drop")
    win_game(first, first.entry_a_id, boss)
    second = current_game(rnd, "W1-1")
    win_game(second, second.entry_b_id, boss)  # type: ignore[arg-type]
    assert current_game(rnd, "W1-1").game_no == 3
    result = MatchResult.objects.get(match=second, is_current=True)
    decisions.correct_result(
        match=second,
        reason="side A won game 2",
        actor=boss,
        expected_version=result.version,
        final_score={"scores": [305, 200]},
    )
    assert list(Match.objects.filter(round=rnd).values_list("game_no", flat=True)) == [1, 2]


def test_a_game_of_the_play_off_needs_a_winner_and_a_stage_target_is_the_game() -> None:
    event, boss, _, first = _final(
        "bo3-draw", playoff_formats={"final": {"best_of": 3, "target": 605}}
    )
    assert first.target == 605
    assert game.expected_game(event, first)["target"] == 605
    assert game.expected_game(event)["target"] != 605
    refused(
        "playoff_game_drawn",
        decisions.override_result,
        match=first,
        reason="drawn?",
        actor=boss,
        final_score={"scores": [300, 300]},
    )


def test_the_job_drafts_the_next_round_when_the_last_result_is_confirmed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, boss, entries = playoff_event("job-path", 8, playoff_consolation="third_place")
    first = seed(event, boss, entries)
    slots = list(
        Match.objects.filter(round=first, is_bye=False).values_list("bracket_slot", "entry_a_id")
    )
    for slot, a in slots[:-1]:
        with django_capture_on_commit_callbacks(execute=True):
            decide(first, slot, a, boss)
    assert Round.objects.filter(event=event).count() == 1  # the round is not complete yet
    slot, a = slots[-1]
    with django_capture_on_commit_callbacks(execute=True):
        decide(first, slot, a, boss)
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED
    nxt = Round.objects.get(event=event, number=first.number + 1)
    assert nxt.kind == Round.Kind.PLAYOFF and nxt.status == Round.Status.DRAFT
    assert sorted(nxt.matches.values_list("bracket_slot", flat=True)) == ["W2-1", "W2-2"]
    reasons = [m.explanation["reason"] for m in nxt.matches.order_by("table__number")]
    assert reasons[0] == "Semi-final W2-1: winner of W1-1 v winner of W1-2"
    # the job ran once; running it again (a second delivery) does nothing
    assert playoff_rounds.advance_when_ready(event_id=event.pk) is None
    assert Round.objects.filter(event=event).count() == 2
    refused("playoff_round_draft", playoff_rounds.advance_playoff, event=event, actor=boss)


def test_generate_the_next_round_of_a_seeded_play_off_advances_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, boss, entries = playoff_event("generate", 4)
    first = seed(event, boss, entries)
    refused("playoff_round_in_play", round_generation.generate_round, event=event, actor=boss)
    for slot, a in Match.objects.filter(round=first).values_list("bracket_slot", "entry_a_id"):
        decide(first, slot, a, boss)
    with django_capture_on_commit_callbacks(execute=True):
        job = round_generation.start_round_generation(event=event, actor=boss)
    job.refresh_from_db()
    assert job.status == "done", job.message
    final = Round.objects.get(event=event, number=first.number + 1)
    assert list(final.matches.values_list("bracket_slot", flat=True)) == ["W2-1"]


def test_the_event_form_stores_stage_formats_in_raw_points_with_per_field_errors(
    client: Client,
) -> None:
    event, boss, _ = playoff_event("formats", 4)
    client.force_login(boss)
    url = f"/director/events/{event.slug}/edit/"
    page = client.get(url)
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        {
            "playoff": "double",
            "playoff_reset": "",
            "playoff_final_best_of": "3",
            "playoff_final_target": "121",
            "playoff_semi_final_best_of": "5",
            "playoff_start_date": "",
        }
    )
    data["start_date"] = data["end_date"] = "2026-12-05"
    saved = client.post(url, data)
    assert saved.status_code == 302, saved.context["form"].errors
    event.refresh_from_db()
    assert event.playoff_formats["final"] == {"best_of": 3, "target": 605}
    assert event.playoff_formats["semi_final"] == {"best_of": 5, "target": None}
    assert event.playoff_reset is False
    assert game.playoff_format(event, "final") == (3, 605)
    bad = client.post(
        url, {**data, "playoff_final_best_of": "4", "playoff_quarter_final_target": "60.5"}
    )
    assert bad.status_code == 200
    errors = bad.context["form"].errors
    assert "playoff_final_best_of" in errors and "playoff_quarter_final_target" in errors
    event.refresh_from_db()
    assert event.playoff_formats["final"] == {"best_of": 3, "target": 605}


def test_the_service_checks_each_stage_format_by_field() -> None:
    event, boss, _ = playoff_event("formats-service", 4)
    caught = refused(
        "invalid_playoff_format",
        events.update_event,
        actor=boss,
        event=event,
        playoff_formats={"final": {"best_of": 4, "target": None}, "earlier": {"target": -5}},
    )
    assert set(caught.details["errors"]) == {"playoff_final_best_of", "playoff_earlier_target"}


def test_the_rounds_page_taps_next_play_off_round(client: Client) -> None:
    event, boss, entries = playoff_event("tap", 4)
    first = seed(event, boss, entries)
    client.force_login(boss)
    page = client.get(f"/director/events/{event.slug}/rounds/")
    assert "Next play-off round" in page.content.decode()
    url = f"/director/events/{event.slug}/rounds/playoff/advance/"
    early = client.post(url, follow=True)
    text = early.content.decode()
    assert "still has undecided bracket matches: W1-1, W1-2" in text
    for slot, a in Match.objects.filter(round=first).values_list("bracket_slot", "entry_a_id"):
        decide(first, slot, a, boss)
    done = client.post(url)
    assert done.status_code == 302
    assert done["Location"] == f"/director/events/{event.slug}/rounds/{first.number + 1}/"


def test_a_correction_cannot_reopen_a_series_of_a_closed_round() -> None:
    _, boss, rnd, first = _final("bo3-closed")
    win_game(first, first.entry_a_id, boss)
    second = current_game(rnd, "W1-1")
    win_game(second, first.entry_a_id, boss)
    round_status.close_round(round=rnd, actor=boss)
    result = MatchResult.objects.get(match=second, is_current=True)
    refused(
        "series_reopened",
        decisions.correct_result,
        match=second,
        reason="side B won game 2",
        actor=boss,
        expected_version=result.version,
        final_score={"scores": [200, 305]},
    )
    assert not Match.objects.filter(round=rnd, game_no=3).exists()
