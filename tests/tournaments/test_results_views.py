"""The director's entry board and match page, and the table's page."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from tests.tournaments.results_support import (
    expect,
    make_director,
    make_event,
    make_round,
    match_at,
    sheet,
)
from tournaments import results_math
from tournaments.models import AuditEntry, MatchResult, Round, Table
from tournaments.services import claims, decisions
from tournaments.services.table_links import table_link_path

pytestmark = pytest.mark.django_db


def director_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_board_shows_every_state_and_polls_with_htmx() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event, tables=3, bye=True)
    claims.submit_claim(match=match_at(rnd, 2), side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match_at(rnd, 3), side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match_at(rnd, 3), side=1, sheet=sheet("nodeal"))
    client = director_client(director)
    url = f"/director/events/{event.slug}/rounds/1/results/"
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-hx-trigger="every 3s"' in html and f'data-hx-get="{url}"' in html
    # The board lists the most urgent first: the conflict, the missing, the pending, the bye.
    states = re.findall(r'data-state="(\w+)"', html)
    assert states == ["conflict", "missing", "pending", "bye"]
    table = Table.objects.get(event=event, number=1)
    for side in (0, 1):  # the board lists both sides' links of each table
        assert table_link_path(round_=rnd, table=table, side=side) in html
    partial = client.get(url, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    assert "<html" not in partial.content.decode() and "state-conflict" in partial.content.decode()


def test_the_board_is_the_directors_only() -> None:
    event = make_event()
    make_round(event)
    url = f"/director/events/{event.slug}/rounds/1/results/"
    assert Client().get(url).status_code == 302  # to the login page
    stranger = make_director(make_event("other"), "stranger")
    assert director_client(stranger).get(url).status_code == 404


def test_the_match_page_shows_the_divergence_and_resolves_with_a_reason() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match, side=1, sheet=sheet("nodeal"))
    client = director_client(director)
    base = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/"
    page = client.get(base)
    assert page.status_code == 200
    where = results_math.divergence(sheet("tally"), sheet("nodeal"))
    assert where is not None and where["hand"] is not None
    assert f"hand {where['hand'] + 1}</strong>" in page.content.decode()
    empty = client.post(base + "resolve/", {"side": "1", "reason": ""})
    assert empty.status_code == 400
    assert not MatchResult.objects.exists() and "reason" in empty.content.decode()
    done = client.post(base + "resolve/", {"side": "1", "reason": "Both signed side 1's"})
    assert done.status_code == 302
    result = MatchResult.objects.get(match=match)
    assert result.source == "resolved" and result.claim is not None and result.claim.side == 1


def test_the_director_enters_then_corrects_a_result_from_the_page() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    client = director_client(director)
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/"
    client.post(url, {"score_a": "60", "score_b": "45", "reason": "Board count"})
    first = MatchResult.objects.get(match=match, is_current=True)
    assert (first.score_a_halves, first.score_b_halves, first.source) == (120, 90, "arbitral")
    client.post(url, {"sheet": json.dumps(sheet("tally")), "reason": "Sheet found", "version": "1"})
    second = MatchResult.objects.get(match=match, is_current=True)
    assert (second.version, second.source, second.verified) == (2, "correction", True)
    stale = client.post(url, {"score_a": "5", "score_b": "0", "reason": "x", "version": "1"})
    assert stale.status_code == 400 and "changed" in stale.content.decode()
    assert MatchResult.objects.filter(match=match).count() == 2
    assert AuditEntry.objects.filter(action="result.correct").count() == 1


def test_revoking_from_the_board_changes_the_links() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    table = Table.objects.get(event=event, number=1)
    old = table_link_path(round_=rnd, table=table, side=1)
    response = director_client(director).post(
        f"/director/events/{event.slug}/rounds/1/results/revoke-links/", {"reason": "leaked"}
    )
    assert response.status_code == 302
    assert table_link_path(round_=Round.objects.get(pk=rnd.pk), table=table, side=1) != old
    assert Client().get(old).status_code == 401


def test_the_table_page_opens_with_the_link_and_only_with_it() -> None:
    event = make_event()
    rnd = make_round(event)
    path = table_link_path(round_=rnd, table=Table.objects.get(event=event, number=2), side=1)
    page = Client().get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Table 2" in html and match_at(rnd, 2).entry_a.name in html
    assert page["Referrer-Policy"] == "no-referrer" and "no-store" in page["Cache-Control"]
    assert Client().get("/t/1.2.nonsense-token-of-some-length/").status_code == 401
    table_wide = path.removeprefix("/t/").split(".")
    del table_wide[2]  # the old table-wide format: refused, the card must be printed again
    assert Client().get("/t/" + ".".join(table_wide)).status_code == 401


@pytest.mark.parametrize("depth", [100_000, 900, 30])
def test_a_deeply_nested_pasted_sheet_is_a_form_error_not_a_crash(depth: int) -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/"
    pasted = '{"hands": ' + "[" * depth + "]" * depth + "}"
    response = director_client(director).post(url, {"sheet": pasted, "reason": "Sheet found"})
    assert response.status_code == 400
    assert not MatchResult.objects.exists()


def test_a_refused_sheet_comes_back_with_everything_typed_and_the_engines_faults() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/"
    pasted = json.dumps(sheet("tally-mut"), indent=1)
    reason = "Table 1's sheet, typed from the paper"
    response = director_client(director).post(url, {"sheet": pasted, "reason": reason})
    assert response.status_code == 400
    html = response.content.decode()
    assert escape(pasted) in html and escape(reason) in html
    assert "does not accept this sheet" in html  # invalid_sheet's message
    wanted = expect("tally-mut")
    assert f"hand {wanted['hand'] + 1}, play {wanted['move'] + 1}:" in html
    assert not MatchResult.objects.exists()


def test_a_stale_correction_keeps_the_scores_and_the_reason() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    decisions.override_result(match=match, final_score={"scores": [60, 40]}, reason="a", actor=None)
    decisions.correct_result(
        match=match, final_score={"scores": [65, 40]}, reason="b", actor=None, expected_version=1
    )
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/"
    posted = {"score_a": "75", "score_b": "10", "reason": "Recount at the desk", "version": "1"}
    response = director_client(director).post(url, posted)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="75"' in html and 'value="10"' in html and "Recount at the desk" in html
    assert "changed" in html
    assert MatchResult.objects.filter(match=match).count() == 2


def test_an_incomplete_entry_form_keeps_what_was_typed() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/"
    response = director_client(director).post(url, {"score_a": "50", "reason": "Half typed"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="50"' in html and "Half typed" in html and "either both scores" in html


def test_a_refused_resolve_keeps_the_reason_and_says_why() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))  # side 1 has nothing
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/resolve/"
    response = director_client(director).post(url, {"side": "1", "reason": "Side 1 says so"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Side 1 says so" in html and "no submitted claim" in html
    assert not MatchResult.objects.exists()


def test_the_match_page_shows_a_wrong_game_draft_field_by_field() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    wrong = sheet("tally")
    wrong["target"] = 150
    claims.submit_claim(match=match, side=0, sheet=wrong)
    page = director_client(director).get(
        f"/director/events/{event.slug}/rounds/1/results/{match.pk}/"
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "(sheet_mismatch)" in html and "target: 150, the event says 100" in html
    assert "hand None" not in html
