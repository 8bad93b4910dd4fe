"""Forfeits on the pages (issue 12): the director's "Record a forfeit" form, the settings form in
displayed points, and the marks on every page, the CSV, the export and the API."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.api_support import assert_error, post, private_cache, user_client
from tests.tournaments.results_support import (
    make_director,
    make_entry,
    make_event,
    make_round,
    match_at,
)
from tournaments.api.serializers import ResultOutputSerializer
from tournaments.errors import SpinnerError
from tournaments.models import Entry, Event, Match, MatchResult, Round
from tournaments.presenters.table import status_context
from tournaments.selectors import results as result_reads
from tournaments.selectors.export import export_event
from tournaments.services import decisions, forfeits, playoffs, round_status
from tournaments.services import events as event_services
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


def director_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def match_url(event: Event, match: Match) -> str:
    return f"/director/events/{event.slug}/rounds/{match.round.number}/results/{match.pk}/"


def forfeit_post(who: str, reason: str = "late by 20 minutes", **extra: Any) -> dict[str, Any]:
    data = {"forfeit-who": who, "forfeit-reason": reason, "forfeit-confirm": "on"}
    data.update(extra)
    return data


def test_the_match_page_records_a_forfeit_named_by_team() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event, tables=2)
    match = match_at(rnd, 1)
    client = director_client(director)
    page = client.get(match_url(event, match)).content.decode()
    assert 'id="forfeit"' in page and "Record a forfeit" in page
    assert f"{match.entry_a.name} forfeited" in page
    assert f"{match.entry_b.name} did not show up" in page
    assert "Both forfeited" in page
    assert "wins 100 – 0" in page  # the target to 0, in the points players count
    response = client.post(match_url(event, match) + "forfeit/", forfeit_post("b"))
    assert response.status_code == 302 and response["Location"] == match_url(event, match)
    result = MatchResult.objects.get(match=match, is_current=True)
    assert (result.forfeit, result.winner_side, result.source) == ("b", 0, "forfeit")
    shown = client.get(match_url(event, match)).content.decode()
    assert '<span class="badge forfeit" data-forfeit="b">forfeit</span>' in shown
    board = client.get(f"/director/events/{event.slug}/rounds/1/results/").content.decode()
    assert re.search(r'data-forfeit="b">forfeit</span>', board)
    assert f"{match_url(event, match)}#forfeit" not in board  # confirmed: no forfeit link
    assert f"{match_url(event, match_at(rnd, 2))}#forfeit" in board  # missing: a link to it
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.IN_PLAY)
    desk = client.get(f"/director/events/{event.slug}/").content.decode()
    assert "1 forfeit</span>" in desk
    log = client.get(f"/director/events/{event.slug}/audit/").content.decode()
    assert "recorded a forfeit at table 1" in log and f"({match.entry_b.name} forfeited)" in log


def test_a_refused_forfeit_keeps_what_was_typed_and_says_what_to_fix() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    client = director_client(director)
    url = match_url(event, match) + "forfeit/"
    response = client.post(url, {"forfeit-who": "a", "forfeit-reason": "gone"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Tick the box to confirm the forfeit." in html
    assert "gone</textarea>" in html and re.search(r'value="a"[^>]*checked', html)
    response = client.post(url, {"forfeit-who": "a", "forfeit-confirm": "on"})
    assert response.status_code == 400
    assert "Say why (the reason goes in the audit log)." in response.content.decode()
    assert not MatchResult.objects.exists()


def test_a_forfeit_over_a_confirmed_result_is_a_correction_with_its_version() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    decisions.override_result(
        match=match, reason="acta", actor=director, final_score={"scores": [100, 60]}
    )
    client = director_client(director)
    page = client.get(match_url(event, match)).content.decode()
    assert 'name="forfeit-version" value="1"' in page and "a correction" in page
    url = match_url(event, match) + "forfeit/"
    stale = client.post(url, forfeit_post("a", **{"forfeit-version": "3"}))
    assert stale.status_code == 400 and "The result has changed" in stale.content.decode()
    assert client.post(url, forfeit_post("a", **{"forfeit-version": "1"})).status_code == 302
    assert MatchResult.objects.get(match=match, is_current=True).version == 2


def test_a_no_show_through_the_page_withdraws_the_team_and_is_marked_everywhere() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event, tables=2)
    no_show, double = match_at(rnd, 1), match_at(rnd, 2)
    client = director_client(director)
    assert (
        client.post(match_url(event, no_show) + "forfeit/", forfeit_post("no_show_a")).status_code
        == 302
    )
    assert (
        client.post(match_url(event, double) + "forfeit/", forfeit_post("both")).status_code == 302
    )
    assert Entry.objects.get(pk=no_show.entry_a_id).status == Entry.Status.WITHDRAWN
    recompute_standings(event_id=event.pk)
    public = Client()
    round_page = public.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert '<span class="badge forfeit">no-show</span>' in round_page
    assert '<span class="badge forfeit">double forfeit</span>' in round_page
    match_page = public.get(f"/events/{event.slug}/matches/{no_show.pk}/").content.decode()
    assert "by forfeit" in match_page and '<span class="badge forfeit">no-show</span>' in match_page
    double_page = public.get(f"/events/{event.slug}/matches/{double.pk}/").content.decode()
    assert "both sides forfeited" in double_page
    team = public.get(f"/events/{event.slug}/teams/{no_show.entry_b_id}/").content.decode()
    assert '<span class="badge forfeit">no-show</span>' in team
    rows = list(
        csv.DictReader(
            io.StringIO(public.get(f"/events/{event.slug}/standings.csv").content.decode())
        )
    )
    by_id = {int(r["entry_id"]): r for r in rows}
    assert (
        by_id[no_show.entry_b_id]["forfeits"] == "1" and by_id[double.entry_a_id]["forfeits"] == "1"
    )
    board = result_reads.match_board(no_show.pk)
    assert board is not None
    assert status_context(no_show, board)["result_forfeit"] == "no-show"
    director_page = client.get(match_url(event, no_show)).content.decode()
    assert 'data-forfeit="a">no-show</span>' in director_page
    log = client.get(f"/director/events/{event.slug}/audit/").content.decode()
    assert f"recorded {no_show.entry_a.name} as a no-show at table 1" in log


def test_the_export_and_the_api_carry_the_forfeit() -> None:
    event = make_event(forfeit_score=150, points_forfeit_loss=-1, forfeit_spread=False)
    director = make_director(event)
    rnd = make_round(event, tables=3)
    forfeits.record_no_show(match=match_at(rnd, 1), side=1, reason="absent", actor=director)
    forfeits.record_forfeit(match=match_at(rnd, 2), side=0, reason="late", actor=director)
    decisions.override_result(
        match=match_at(rnd, 3), reason="acta", actor=director, final_score={"scores": [100, 5]}
    )
    document = export_event(event)
    assert document["event"]["settings"]["forfeits"] == {
        "score": 150,
        "points_win": None,
        "points_loss": -1,
        "points_double": None,
        "spread": False,
    }
    results = [m["result"] for m in document["rounds"][0]["matches"]]
    assert [r["forfeit"] for r in results] == [
        {"by": "b", "no_show": True, "mark": "no-show"},
        {"by": "a", "no_show": False, "mark": "forfeit"},
        None,
    ]
    assert results[0]["scores"] == [150, 0] and results[0]["source"] == "forfeit"
    api = ResultOutputSerializer(MatchResult.objects.get(match=match_at(rnd, 2))).data
    assert api["forfeit"] == "a" and api["source"] == "forfeit"


def test_the_bracket_match_page_offers_no_double_forfeit() -> None:
    event = make_event(playoff=Event.Playoff.SINGLE, playoff_qualifiers=4)
    director = make_director(event)
    entries = [make_entry(event, f"Seed{n}") for n in range(1, 5)]
    rnd = playoffs.create_playoff_bracket(
        event=event, ranking=[e.pk for e in entries], actor=director, qualifiers=4
    )
    round_status.publish_round(round=rnd, actor=director)
    match = Match.objects.filter(round=rnd, is_bye=False).first()
    assert match is not None
    client = director_client(director)
    assert "Both forfeited" not in client.get(match_url(event, match)).content.decode()
    refused = client.post(match_url(event, match) + "forfeit/", forfeit_post("both"))
    assert refused.status_code == 400 and not MatchResult.objects.exists()


def settings_form(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Five Up Open",
        "start_date": "2026-12-05",
        "end_date": "2026-12-05",
        "status": "running",
        "rules": "five-up",
        "entry_kind": "partnership",
        "time_policy": "finish-hand",
        "round_minutes": "45",
        "format": "swiss",
        "swiss_rounds": "5",
        "first_round": "random",
        "playoff": "none",
        "playoff_qualifiers": "8",
        "points_win": "2",
        "points_draw": "1",
        "points_loss": "0",
        "points_bye": "2",
        "margin_bonus_points": "0",
        "margin_bonus_at": "0",
        "forfeit_spread": "on",
    }
    data.update(overrides)
    return data


def test_the_settings_form_takes_forfeits_in_the_points_players_count() -> None:
    event = make_event("fiveup", rules=Event.Rules.FIVE_UP, target=None, name="Five Up Open")
    director = make_director(event)
    client = director_client(director)
    url = f"/director/events/{event.slug}/edit/"
    page = client.get(url).content.decode()
    assert "Forfeit score (points)" in page and "Empty: the target." in page
    form = settings_form(forfeit_score="50", points_forfeit_win="3", points_forfeit_loss="-1")
    assert client.post(url, form).status_code == 302
    event.refresh_from_db()
    assert (event.forfeit_score, event.points_forfeit_win, event.points_forfeit_loss) == (
        250,
        3,
        -1,
    )
    assert event.points_double_forfeit is None and event.forfeit_spread
    assert 'name="forfeit_score" value="50"' in client.get(url).content.decode()
    del form["forfeit_spread"]  # unticked
    assert client.post(url, {**form, "forfeit_score": ""}).status_code == 302
    event.refresh_from_db()
    assert event.forfeit_score is None and not event.forfeit_spread
    refused = client.post(url, {**form, "forfeit_score": "60.3", "points_forfeit_loss": "x"})
    assert refused.status_code == 200
    errors = refused.context["form"].errors
    assert "steps of 0.2" in errors["forfeit_score"][0]
    assert "points_forfeit_loss" in errors
    refused = client.post(url, {**form, "points_double_forfeit": "5000"})
    assert "from -1000 to 1000" in refused.context["form"].errors["points_double_forfeit"][0]
    event.refresh_from_db()
    assert event.points_double_forfeit is None and event.points_forfeit_loss == -1


def test_the_settings_service_checks_the_forfeit_settings_field_by_field() -> None:
    event = make_event()
    director = make_director(event)
    with pytest.raises(SpinnerError) as info:
        event_services.update_event(
            actor=director, event=event, forfeit_score=0, points_forfeit_win=True
        )
    assert info.value.code == "invalid_number"
    assert set(info.value.details["errors"]) == {"forfeit_score", "points_forfeit_win"}


def test_the_api_records_forfeits_with_if_match_like_the_other_director_results(
    settings: Any,
) -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event, tables=2)
    match, other = match_at(rnd, 1), match_at(rnd, 2)
    with private_cache(settings):
        boss = user_client(director)
        url = f"/api/matches/{match.pk}/forfeit/"
        assert_error(post(boss, url, {"forfeited": "a"}), 400, "invalid")  # no reason
        both_no_show = post(boss, url, {"forfeited": "both", "no_show": True, "reason": "x"})
        assert_error(both_no_show, 400, "invalid")
        first = post(boss, url, {"forfeited": "a", "reason": "late"})
        assert first.status_code == 201 and first["ETag"] == '"1"'
        body = first.json()
        assert body["result"]["forfeit"] == "a" and body["match"]["result"]["winner_side"] == 1
        assert_error(post(boss, url, {"forfeited": "b", "reason": "x"}), 428, "version_required")
        again = post(boss, url, {"forfeited": "b", "no_show": True, "reason": "x"}, If_Match='"1"')
        assert again.status_code == 201 and again.json()["result"]["version"] == 2
        assert Entry.objects.get(pk=match.entry_b_id).status == Entry.Status.WITHDRAWN
        double_url = f"/api/matches/{other.pk}/forfeit/"
        double = post(boss, double_url, {"forfeited": "both", "reason": "x"})
        assert double.status_code == 201 and double.json()["result"]["winner_side"] is None


def test_the_rules_summary_says_how_forfeits_count() -> None:
    event = make_event("fives", rules=Event.Rules.FIVE_UP, target=None, points_forfeit_loss=-1)
    director = make_director(event)
    line = "Forfeits: the side that turns up wins 61–0 and earns 2 match point(s), the side that "
    page = director_client(director).get(f"/director/events/{event.slug}/").content.decode()
    assert line + "forfeits -1, each side of a double forfeit 0; forfeit scores count" in page
