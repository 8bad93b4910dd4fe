"""Each partnership holds its own link (issue 14): a side's link claims only as that side and
confirms only the other side's claim, through the API and on the phone page; the audit log names
the side that acted; directors keep every power through their own pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.api_support import assert_error, post, table_client, user_client
from tests.tournaments.results_support import make_director, make_event, make_round, match_at, sheet
from tournaments.models import AuditEntry, Claim, MatchResult, Table
from tournaments.services import table_links

pytestmark = pytest.mark.django_db


def claims_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/claims/"


def confirm_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/confirm/"


def side_name(match: Any, side: int) -> str:
    entry = match.entry_a if side == 0 else match.entry_b
    return f"table {match.table.number}, side {'AB'[side]} ({entry.name})"


def test_side_as_link_cannot_claim_as_b_nor_confirm_its_own_claim() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    side_a = table_client(rnd, 1, side=0)
    as_b = post(side_a, claims_url(match.pk), {"side": 1, "sheet": sheet("tally")})
    body = assert_error(as_b, 403, "not_your_side")
    assert body["details"] == {"link_side": 0, "side": 1}
    assert not Claim.objects.exists()

    first = post(side_a, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")})
    assert first.status_code == 201, first.content
    # Confirming as side B (the only way to confirm A's claim) is refused to A's link ...
    own = post(side_a, confirm_url(match.pk), {"side": 1}, If_Match='"1"')
    assert_error(own, 403, "not_your_side")
    # ... and as itself there is nothing to confirm: side B has claimed nothing.
    for body_sent in ({"side": 0}, {}):
        mine = post(side_a, confirm_url(match.pk), body_sent, If_Match='"1"')
        assert_error(mine, 400, "nothing_to_confirm")
    assert list(Claim.objects.values_list("side", "version")) == [(0, 1)]
    assert not MatchResult.objects.exists()


def test_side_b_confirms_as_claim_one_result_and_the_audit_names_each_side() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    # The side defaults to the link's own: neither request names it.
    claimed = post(side_a, claims_url(match.pk), {"sheet": sheet("tally")})
    assert claimed.status_code == 201 and claimed.json()["claim"]["side"] == 0
    confirmed = post(side_b, confirm_url(match.pk), {}, If_Match='"1"')
    assert confirmed.status_code == 201, confirmed.content
    assert confirmed.json()["match"]["state"] == "confirmed"
    result = MatchResult.objects.get(match=match)
    assert result.is_current and result.source == "agreed" and result.version == 1

    entries = {e.action: e for e in AuditEntry.objects.filter(event=event)}
    assert set(entries) == {"claim.submit", "claim.confirm", "result.confirm"}
    assert entries["claim.submit"].after["by"] == side_name(match, 0)
    assert entries["claim.confirm"].after["by"] == side_name(match, 1)
    assert entries["result.confirm"].after["by"] == side_name(match, 1)
    assert entries["result.confirm"].after["scores"] == [
        s / 2 for s in (result.score_a_halves, result.score_b_halves)
    ]
    assert all(e.actor is None for e in entries.values())  # a table has no account

    # The director's audit log shows the side as the actor.
    client = Client()
    client.force_login(director)
    log = client.get(f"/director/events/{event.slug}/audit/").content.decode()
    assert side_name(match, 1) in log
    assert side_name(match, 0) in log


def test_each_side_link_gets_its_own_idempotency_scope_and_reads_the_same_match() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    key = "same-key-on-two-phones"
    a = post(side_a, claims_url(match.pk), {"sheet": sheet("tally")}, Idempotency_Key=key)
    b = post(side_b, claims_url(match.pk), {"sheet": sheet("nodeal")}, Idempotency_Key=key)
    assert (a.status_code, b.status_code) == (201, 201)  # not an idempotency_mismatch
    assert b.json()["match"]["state"] == "conflict"
    for side, client in enumerate((side_a, side_b)):
        table = client.get("/api/table/").json()
        assert table["side"] == side and table["table"] == 1
        assert table["side_names"] == [match.entry_a.name, match.entry_b.name]


def test_a_forged_side_digit_is_refused_on_the_page_and_in_the_api() -> None:
    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    token = table_links.table_token(round_=rnd, table=table, side=0)
    round_id, number, _, mac = token.split(".")
    forged = f"{round_id}.{number}.1.{mac}"  # side A's secret part with side B's digit
    assert Client().get(f"/t/{forged}/").status_code == 401
    api = Client().get("/api/table/", HTTP_AUTHORIZATION=f"Table {forged}")
    assert_error(api, 401, "table_link_invalid")
    assert Client().get(f"/t/{token}/").status_code == 200


def test_the_phone_page_knows_its_side() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = Table.objects.get(event=rnd.event, number=1)
    for side in (0, 1):
        path = table_links.table_link_path(round_=rnd, table=table, side=side)
        page = Client().get(path)
        assert page.status_code == 200
        config = page.context["config"]
        assert config["side"] == side
        assert config["side_names"] == [match.entry_a.name, match.entry_b.name]
        team = config["side_names"][side]
        assert f'data-side="{"AB"[side]}"' in page.content.decode()
        assert f"{team}'s phone" in page.content.decode()


def test_on_the_page_side_a_sees_its_claim_waiting_and_side_b_the_confirm_button() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    table = Table.objects.get(event=rnd.event, number=1)
    paths = [table_links.table_link_path(round_=rnd, table=table, side=s) for s in (0, 1)]
    post(table_client(rnd, 1, side=0), claims_url(match.pk), {"sheet": sheet("tally")})
    own = Client().get(paths[0] + "status").content.decode()
    assert 'id="claim-pending-A"' in own and 'id="waiting-for-other"' in own
    assert 'data-action="confirm"' not in own
    other = Client().get(paths[1] + "status").content.decode()
    assert 'data-action="confirm"' in other and 'data-side="B"' in other
    assert f"Confirm for {match.entry_b.name}" in other


def test_directors_keep_their_powers_with_side_links_in_place() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    post(table_client(rnd, 1, side=0), claims_url(match.pk), {"sheet": sheet("tally")})
    post(table_client(rnd, 1, side=1), claims_url(match.pk), {"sheet": sheet("nodeal")})
    boss = user_client(director)
    # A director claims nothing (a table's act) but resolves, overrides and corrects.
    assert_error(
        post(boss, claims_url(match.pk), {"side": 0, "sheet": sheet("tally")}),
        403,
        "table_link_required",
    )
    resolved = post(boss, f"/api/matches/{match.pk}/resolve/", {"side": 1, "reason": "Agreed"})
    assert resolved.status_code == 201, resolved.content
    corrected = post(
        boss,
        f"/api/matches/{match.pk}/correct/",
        {"final_score": {"scores": [100, 95]}, "reason": "Recount"},
        If_Match='"1"',
    )
    assert corrected.status_code == 201, corrected.content
    assert AuditEntry.objects.filter(action="result.correct", actor=director).exists()
