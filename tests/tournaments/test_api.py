"""The results API: every state through HTTP, idempotency, versions, the one error body."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.api_support import (
    assert_error,
    key,
    post,
    private_cache,
    table_client,
    user_client,
)
from tests.tournaments.results_support import (
    expect,
    make_director,
    make_event,
    make_round,
    match_at,
    sheet,
)
from tournaments.models import (
    AuditEntry,
    Claim,
    Event,
    IdempotencyRecord,
    MatchResult,
    Round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    """Throttle counters start at zero in every test."""
    with private_cache(settings):
        yield


def claims_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/claims/"


def test_a_table_submits_and_the_other_side_confirms_over_http() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table, other = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    first = post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    assert first.status_code == 201, first.content
    assert first["ETag"] == '"1"'
    body = first.json()
    assert body["created"] is True and body["claim"]["status"] == "submitted"
    assert body["claim"]["verdict"]["valid"] is True
    assert body["claim"]["scores"] == expect("tally")["scores"]
    assert body["match"]["state"] == "pending"
    assert [s["side"] for s in body["match"]["sides"]] == [0, 1]
    confirm = post(other, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match='"1"')
    assert confirm.status_code == 201, confirm.content
    state = confirm.json()["match"]
    assert state["state"] == "confirmed"
    assert state["result"]["scores"] == expect("tally")["scores"]
    assert state["result"]["winner_side"] == 1 and state["result"]["source"] == "agreed"
    detail = table.get(f"/api/matches/{match.pk}/")
    assert detail.status_code == 200 and detail.json()["state"] == "confirmed"


def test_both_sides_submitting_the_same_sheet_confirm() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    post(side_a, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    second = post(side_b, claims_url(match.pk), {"side": 1, "sheet": sheet("tally")})
    assert second.status_code == 201 and second.json()["match"]["state"] == "confirmed"
    assert MatchResult.objects.filter(match=match, is_current=True).count() == 1


def test_a_conflict_shows_where_the_sheets_diverge_and_the_director_resolves_it() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    post(side_a, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    second = post(side_b, claims_url(match.pk), {"side": 1, "sheet": sheet("nodeal")})
    state = second.json()["match"]
    assert state["state"] == "conflict" and state["result"] is None
    assert state["divergence"] is not None and "hand" in state["divergence"]
    boss = user_client(director)
    listed = boss.get(f"/api/events/{event.slug}/rounds/1/matches/")
    assert [m["state"] for m in listed.json()] == ["conflict", "missing"]
    resolved = post(
        boss, f"/api/matches/{match.pk}/resolve/", {"side": 0, "reason": "Side 0's sheet is right"}
    )
    assert resolved.status_code == 201, resolved.content
    assert resolved.json()["result"]["source"] == "resolved"
    assert resolved.json()["match"]["state"] == "confirmed"
    assert AuditEntry.objects.filter(action="result.resolve", actor=director).exists()


def test_an_invalid_sheet_is_stored_as_a_draft_and_the_answer_says_what_to_fix() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    response = post(
        table_client(rnd, 1), claims_url(match.pk), {"side": 0, "sheet": sheet("tally-mut")}
    )
    assert response.status_code == 201
    claim = response.json()["claim"]
    assert claim["status"] == "draft" and claim["verdict"]["valid"] is False
    error = claim["verdict"]["errors"][0]
    wanted = expect("tally-mut")
    assert (error["code"], error["hand"], error["move"]) == (
        wanted["code"],
        wanted["hand"],
        wanted["move"],
    )
    assert Claim.objects.get(pk=claim["id"]).sheet == sheet("tally-mut")


def test_verify_is_a_dry_run() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    response = post(
        table_client(rnd, 1), f"/api/matches/{match.pk}/verify/", {"sheet": sheet("progress")}
    )
    assert response.status_code == 200
    assert response.json()["verdict"]["valid"] is True and response.json()["complete"] is False
    assert not Claim.objects.exists() and not IdempotencyRecord.objects.exists()
    # The running score after each hand (the table page shows a claim hand by hand with it).
    running = response.json()["running"]
    assert len(running) == len(sheet("progress")["hands"])
    assert running[-1] == response.json()["verdict"]["scores"]


def test_verify_refuses_a_score_no_play_can_make_and_warns_about_a_rare_one() -> None:
    # Five Up, four in partnerships, to 305: one play scores at most 75 raw, over 45 is rare.
    rnd = make_round(make_event(rules=Event.Rules.FIVE_UP, target=305))
    match = match_at(rnd, 1)
    game = {"format": "fives-scoresheet/1", "rules": "five-up", "players": 4}
    url = f"/api/matches/{match.pk}/verify/"
    client = table_client(rnd, 1)
    rare = {**game, "hands": [{"leader": 0, "tally": [{"seat": 0, "score": 60}]}]}
    body = post(client, url, {"sheet": rare}).json()
    assert body["verdict"]["valid"] is True
    assert body["limits"] == {"placement": 75, "rare": 45}
    assert [(w["code"], w["hand"], w["move"]) for w in body["warnings"]] == [("score", 0, 0)]
    assert set(body["verdict"]) == {"valid", "errors", "scores", "winner", "finished"}
    over = {**game, "hands": [{"leader": 0, "tally": [{"seat": 0, "score": 80}]}]}
    body = post(client, url, {"sheet": over}).json()
    assert body["verdict"]["valid"] is False and body["warnings"] == []
    fault = body["verdict"]["errors"][0]
    assert (fault["code"], fault["hand"], fault["move"]) == ("score", 0, 0)
    assert "at most 75" in fault["message"]


def test_a_sheet_for_another_game_is_a_clear_error() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    response = post(
        table_client(rnd, 1), claims_url(match.pk), {"side": 0, "sheet": sheet("2p-tally")}
    )
    body = assert_error(response, 400, "sheet_mismatch")
    assert {f["field"] for f in body["details"]["fields"]} >= {"players", "partnerships"}
    # Kept all the same: a draft whose verdict is the mismatch, its version as the ETag.
    draft = body["details"]["claim"]
    assert (draft["version"], draft["status"], draft["verified"]) == (1, "draft", False)
    assert draft["verdict"]["valid"] is False
    assert draft["verdict"]["errors"][0]["code"] == "sheet_mismatch"
    assert response["ETag"] == '"1"'
    stored = Claim.objects.get(match=match)
    assert stored.sheet == sheet("2p-tally") and stored.status == Claim.Status.DRAFT
    assert stored.verdict is not None
    assert stored.verdict["errors"][0]["fields"] == body["details"]["fields"]
    # The fixed sheet is the next version; the wrong one stays in the history.
    fixed = post(
        table_client(rnd, 1),
        claims_url(match.pk),
        {"side": 0, "sheet": sheet("tally")},
        If_Match='"1"',
    )
    assert fixed.status_code == 201 and fixed.json()["claim"]["version"] == 2
    assert Claim.objects.filter(match=match).count() == 2


def test_final_scores_over_http_keep_the_scores_and_refuse_one_off_the_games_step() -> None:
    event = make_event(allow_final_score_only=True)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    off = post(side_a, claims_url(match.pk), {"side": 0, "final_score": {"scores": [100, 97.5]}})
    assert off.status_code == 400 and off.json()["code"] == "invalid_score"
    assert off.json()["details"] == {"field": 1} and "type 95 or 100" in off.json()["message"]
    post(side_a, claims_url(match.pk), {"side": 0, "final_score": {"scores": [100, 95]}})
    second = post(side_b, claims_url(match.pk), {"side": 1, "final_score": {"scores": [100, 95]}})
    result = second.json()["match"]["result"]
    assert result["scores"] == [100, 95] and result["verified"] is False
    assert result["kind"] == "final_score"


def test_the_same_idempotency_key_gets_the_same_answer() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    same = key()
    first = post(
        table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, Idempotency_Key=same
    )
    again = post(
        table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, Idempotency_Key=same
    )
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["ETag"] == first["ETag"] and again["Idempotent-Replayed"] == "true"
    assert Claim.objects.filter(match=match).count() == 1


def test_the_same_key_for_another_request_is_refused() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    same = key()
    post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, Idempotency_Key=same)
    other = post(
        table,
        claims_url(match.pk),
        {"side": 0, "sheet": sheet("nodeal")},
        Idempotency_Key=same,
        If_Match='"1"',
    )
    assert_error(other, 422, "idempotency_mismatch")
    assert list(Claim.objects.filter(match=match).values_list("side", "version")) == [(0, 1)]


def test_an_error_answer_is_replayed_for_its_key_too() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1, side=1)
    same = key()
    url = f"/api/matches/{match.pk}/confirm/"
    first = post(table, url, {"side": 1}, If_Match='"1"', Idempotency_Key=same)
    assert_error(first, 400, "nothing_to_confirm")
    again = post(table, url, {"side": 1}, If_Match='"1"', Idempotency_Key=same)
    assert again.status_code == 400 and again.json() == first.json()


def test_submissions_need_an_idempotency_key() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    response = table_client(rnd, 1).post(
        claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, format="json"
    )
    assert_error(response, 400, "idempotency_key_required")
    bad = table_client(rnd, 1).post(
        claims_url(match.pk),
        {"side": 0, "sheet": sheet("tally")},
        format="json",
        HTTP_IDEMPOTENCY_KEY="white space",
    )
    assert_error(bad, 400, "idempotency_key_invalid")


def test_edits_carry_the_version_and_a_stale_one_changes_nothing() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally-mut")})
    missing = post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    assert_error(missing, 428, "version_required")
    edited = post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, If_Match='"1"')
    assert edited.status_code == 201 and edited["ETag"] == '"2"'
    stale = post(
        table, claims_url(match.pk), {"side": 0, "sheet": sheet("nodeal")}, If_Match='W/"1"'
    )
    body = assert_error(stale, 412, "stale_version")
    assert body["details"]["current_version"] == 2
    current = Claim.objects.filter(match=match, side=0).order_by("-version").first()
    assert current is not None and current.version == 2 and current.sheet == sheet("tally")
    nonsense = post(
        table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, If_Match="abc"
    )
    assert_error(nonsense, 400, "invalid_if_match")


def test_the_director_overrides_and_corrects_with_versions() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    boss = user_client(director)
    no_reason = post(
        boss, f"/api/matches/{match.pk}/override/", {"final_score": {"scores": [60, 40]}}
    )
    assert_error(no_reason, 400, "invalid")
    first = post(
        boss,
        f"/api/matches/{match.pk}/override/",
        {"final_score": {"scores": [60, 40]}, "reason": "Table 1 left; scores from the board"},
    )
    assert first.status_code == 201 and first["ETag"] == '"1"'
    assert first.json()["result"]["source"] == "arbitral"
    no_version = post(
        boss,
        f"/api/matches/{match.pk}/correct/",
        {"sheet": sheet("tally"), "reason": "Sheet found"},
    )
    assert_error(no_version, 428, "version_required")
    stale = post(
        boss,
        f"/api/matches/{match.pk}/correct/",
        {"sheet": sheet("tally"), "reason": "Sheet found"},
        If_Match='"3"',
    )
    assert_error(stale, 412, "stale_version")
    corrected = post(
        boss,
        f"/api/matches/{match.pk}/correct/",
        {"sheet": sheet("tally"), "reason": "Sheet found"},
        If_Match='"1"',
    )
    assert corrected.status_code == 201, corrected.content
    result = corrected.json()["result"]
    assert (result["version"], result["source"], result["verified"]) == (2, "correction", True)
    assert MatchResult.objects.filter(match=match).count() == 2
    claims = boss.get(f"/api/events/{event.slug}/rounds/1/claims/")
    assert claims.status_code == 200 and claims.json() == []
    # A table may no longer enter once the result stands.
    late = post(table_client(rnd, 1), claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    assert_error(late, 409, "already_confirmed")


def test_revoking_links_over_the_api_locks_the_tables_out() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    table = table_client(rnd, 1)
    assert table.get("/api/table/").status_code == 200
    response = post(
        user_client(director),
        f"/api/events/{event.slug}/rounds/1/revoke-links/",
        {"reason": "leak"},
    )
    assert response.status_code == 200 and response.json() == {"revoked": True}
    assert_error(table.get("/api/table/"), 401, "table_link_invalid")
    assert table_client(Round.objects.get(pk=rnd.pk), 1).get("/api/table/").status_code == 200


def test_the_table_endpoint_tells_the_phone_its_game_and_match() -> None:
    event = make_event()
    rnd = make_round(event)
    body = table_client(rnd, 2).get("/api/table/").json()
    assert (body["event"], body["round"], body["table"]) == (event.slug, 1, 2)
    assert body["game"] == {
        "rules": "all-fives",
        "players": 4,
        "partnerships": True,
        "target": 100,
        "hand_size": 5,
        "time_policy": "finish-hand",
        "allow_final_score_only": False,
    }
    assert body["match"]["id"] == match_at(rnd, 2).pk and body["match"]["state"] == "missing"


def test_a_closed_round_expires_its_links() -> None:
    rnd = make_round(make_event())
    table = table_client(rnd, 1)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    assert_error(table.get("/api/table/"), 401, "table_link_expired")


@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [
        ("get", "/api/matches/999999/", 404, "not_found"),
        ("delete", "/api/table/", 405, "method_not_allowed"),
    ],
)
def test_errors_have_one_body(method: str, url: str, status: int, code: str) -> None:
    rnd = make_round(make_event())
    response = getattr(table_client(rnd, 1), method)(url)
    assert_error(response, status, code)


def test_anonymous_and_forged_tokens_get_401_with_the_one_body() -> None:
    anonymous = APIClient()
    response = anonymous.get("/api/table/")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Table"
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Table 1.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    assert_error(forged.get("/api/table/"), 401, "table_link_invalid")


def test_malformed_json_and_fields_are_400_with_details() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    broken = table.post(
        claims_url(match.pk),
        "{not json",
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert_error(broken, 400, "parse_error")
    both = post(
        table, claims_url(match.pk), {"side": 0, "sheet": {}, "final_score": {"scores": [1, 2]}}
    )
    assert "sheet" in assert_error(both, 400, "invalid")["details"]
    # seats 0-3 exist (tables of many): 4 is no side of any table
    side = post(table, claims_url(match.pk), {"side": 4, "sheet": sheet("tally")})
    assert "side" in assert_error(side, 400, "invalid")["details"]
    nul = post(table, claims_url(match.pk), {"side": 0, "sheet": {"format": "a\x00b"}})
    assert_error(nul, 400, "invalid")


def test_table_tokens_are_throttled_per_side_link(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"table_token": "3/min"},
    }
    rnd = make_round(make_event())
    one, two = table_client(rnd, 1), table_client(rnd, 2)
    assert [one.get("/api/table/").status_code for _ in range(3)] == [200, 200, 200]
    body = assert_error(one.get("/api/table/"), 429, "throttled")
    assert body["details"]["wait"] > 0
    assert two.get("/api/table/").status_code == 200  # another table, its own allowance
    other_side = table_client(rnd, 1, side=1)
    assert other_side.get("/api/table/").status_code == 200  # the other side's link: its own


def test_the_schema_and_its_docs_page_are_served_without_a_cdn(client: Any) -> None:
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/matches/{match_id}/claims/",
        "/api/matches/{match_id}/confirm/",
        "/api/matches/{match_id}/verify/",
        "/api/matches/{match_id}/resolve/",
        "/api/matches/{match_id}/override/",
        "/api/matches/{match_id}/correct/",
        "/api/events/{slug}/rounds/{number}/matches/",
        "/api/table/",
    ):
        assert path in paths, path
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    # Swagger UI's start-up script is a file of its own (no inline script under the CSP): the
    # page or that script names the schema.
    script = re.search(r'<script src="(/api/docs/\?script=[^"]*)"', html)
    started = client.get(script.group(1)).content.decode() if script else ""
    assert "/api/schema/" in html + started
    assert "cdn" not in html.lower() and "jsdelivr" not in html.lower()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert all(a.startswith(("/", "#")) for a in assets), assets  # nothing from elsewhere


def test_without_the_sidecar_the_docs_page_is_plain_and_lists_the_operations(
    client: Any, settings: Any
) -> None:
    settings.SPECTACULAR_SIDECAR = False
    html = client.get("/api/docs/").content.decode()
    assert 'href="/api/schema/"' in html
    assert "/api/matches/{match_id}/claims/" in html and "swagger" not in html.lower()


@pytest.mark.parametrize("header", ["\u00b2", 'W/"\u00b3"', '"\u00b9\u00b2"', "1" * 10, '"-1"'])
def test_an_if_match_that_is_not_ascii_digits_is_a_400_not_a_crash(header: str) -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally-mut")})
    edit = post(table, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}, If_Match=header)
    assert_error(edit, 400, "invalid_if_match")
    other = table_client(rnd, 1, side=1)
    confirm = post(other, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match=header)
    assert_error(confirm, 400, "invalid_if_match")
    assert Claim.objects.filter(match=match).count() == 1


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [100_000, 950, 65])
@pytest.mark.parametrize("endpoint", ["claims", "verify"])
def test_deeply_nested_json_is_a_400_parse_error_not_a_crash(endpoint: str, depth: int) -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    url = f"/api/matches/{match.pk}/{endpoint}/"
    for text in (
        _nested(depth),
        '{"side": 0, "sheet": {"hands": ' + _nested(depth) + "}}",
        '{"side": 0, "sheet": {}, "junk": ' + _nested(depth) + "}",
    ):
        response = table.post(
            url, text, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key()
        )
        assert_error(response, 400, "parse_error")
    assert not Claim.objects.exists()


def test_a_body_over_the_upload_limit_is_a_413(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = table_client(rnd, 1)
    text = '{"side": 0, "sheet": {"note": "' + "x" * 20_000 + '"}}'
    response = table.post(
        claims_url(match.pk), text, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key()
    )
    assert_error(response, 413, "request_too_large")
    assert not Claim.objects.exists()


@pytest.mark.parametrize("fields", [1, 50])
def test_a_form_body_is_415_the_api_reads_json_only(settings: Any, fields: int) -> None:
    """A form cannot carry a sheet: the API parses JSON only (and so never reads a form's
    fields, however many or large)."""
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    text = "side=0&" + "&".join(f"f{n}=" + "x" * 500 for n in range(fields))
    response = table_client(rnd, 1).post(
        claims_url(match.pk),
        text,
        content_type="application/x-www-form-urlencoded",
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert_error(response, 415, "unsupported_media_type")
    assert not Claim.objects.exists()


def test_a_director_cannot_make_an_agreed_result_by_claiming_for_both_sides() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    boss = user_client(director)
    for side in (0, 1):
        response = post(boss, claims_url(match.pk), {"side": side, "sheet": sheet("tally")})
        body = assert_error(response, 403, "table_link_required")
        assert "resolve" in body["message"]
    post(table_client(rnd, 1), claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    confirm = post(boss, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match='"1"')
    assert_error(confirm, 403, "table_link_required")
    assert not MatchResult.objects.exists()
    assert list(Claim.objects.values_list("side", "origin", "actor")) == [(0, "table", None)]
    # The director's reading of the claims is unchanged.
    listed = boss.get(claims_url(match.pk))
    assert listed.status_code == 200 and [c["side"] for c in listed.json()] == [0]
