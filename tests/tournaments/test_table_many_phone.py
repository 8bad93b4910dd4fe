"""The phone page at a table of many (three or four individual players, issue 13), server side:
a link per seat (a seat the table lacks is refused), the page's config (every seat by name and
compass point, each its own side), the status fragment through the confirmation (who sent the
sheet, every player's score and place, how many confirmations are still needed, the viewing
seat's own step), and the cards and link lists with a link per seat."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.tournaments.phone_factory import PLAYERS, make_table_setup
from tests.tournaments.tables_support import plain, with_halves
from tournaments.models import MatchResult
from tournaments.services import claims
from tournaments.services.table_links import (
    TableLinkInvalid,
    resolve_table_token,
    table_link_path,
    table_token,
)

pytestmark = pytest.mark.django_db


def config_of(html: str) -> dict[str, Any]:
    start = html.index('<script id="phone-config" type="application/json">') + len(
        '<script id="phone-config" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_each_seat_of_a_table_of_three_has_its_own_page() -> None:
    setup = make_table_setup("seats3")
    client = Client()
    for seat in range(3):
        response = client.get(setup.path(0, side=seat))
        assert response.status_code == 200
        config = config_of(response.content.decode())
        assert config["many"] is True and config["players"] == 3
        assert config["side"] == seat
        assert [s["player"] for s in config["seats"]] == list(PLAYERS[:3])
        assert [s["compass"] for s in config["seats"]] == ["N", "E", "S"]
        assert [e["label"] for e in config["entities"]] == list(PLAYERS[:3])
        assert config["entity_of"] == [0, 1, 2]
        assert config["header"]["players"] == 3 and config["header"]["partnerships"] is False
        assert f"{PLAYERS[seat]}'s phone" in response.content.decode()


def test_a_fourth_seat_at_a_table_of_three_is_refused_as_an_invalid_link() -> None:
    setup = make_table_setup("seat4")
    table = setup.matches[0].table
    assert table is not None
    forged = table_token(round_=setup.round, table=table, side=3)  # a right mac, a missing seat
    with pytest.raises(TableLinkInvalid):
        resolve_table_token(forged)
    response = Client().get(f"/t/{forged}/")
    assert response.status_code == 401
    assert "not valid" in response.content.decode()
    spanish = Client().get(f"/t/{forged}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Este enlace de mesa no es válido" in spanish.content.decode()
    # the digit of a real link changed to another seat: the mac no longer fits
    real = table_token(round_=setup.round, table=table, side=1)
    round_id, number, _, mac = real.split(".")
    assert Client().get(f"/t/{round_id}.{number}.2.{mac}/").status_code == 401


def test_a_link_of_another_table_cannot_act_on_this_one() -> None:
    setup = make_table_setup("two", sizes=(3, 4))
    other_table = setup.matches[1].table
    assert other_table is not None
    token = table_token(round_=setup.round, table=other_table, side=3)
    sheet, _ = with_halves(3)
    response = Client().post(
        f"/api/matches/{setup.matches[0].pk}/claims/",
        json.dumps({"side": 3, "sheet": sheet}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Table {token}",
        HTTP_IDEMPOTENCY_KEY="a4d0c1e0-0000-4000-8000-000000000001",
    )
    assert response.status_code in (403, 404), response.content


def fragment(client: Client, setup: Any, seat: int) -> str:
    token = setup.path(0, side=seat).strip("/").split("/")[-1]
    response = client.get(f"/t/{token}/status")
    assert response.status_code == 200
    return response.content.decode()


def test_the_status_fragment_through_the_confirmations() -> None:
    setup = make_table_setup("status3")
    match = setup.matches[0]
    sheet, scores = with_halves(3)
    client = Client()
    assert "sent the result" not in fragment(client, setup, 1)
    claims.submit_claim(match=match, side=0, sheet=sheet)
    # the sender waits; every other seat sees the sheet, its places and its own Confirm button
    mine = fragment(client, setup, 0)
    assert f"{PLAYERS[0]} sent the result" in mine
    assert "Waiting for the other players" in mine and 'data-action="confirm"' not in mine
    assert "2 more confirmations needed" in mine
    shown = [str(s).removesuffix(".0") for s in scores]
    assert f'data-shown="{",".join(shown)}"' in mine
    assert any(s.endswith(".5") for s in shown)  # the split, in displayed points
    theirs = fragment(client, setup, 1)
    assert f"Confirm as {PLAYERS[1]}" in theirs
    assert 'data-side="B" data-of-side="A"' in theirs
    assert "1st" in theirs and "2nd" in theirs and "3rd" in theirs
    claims.confirm_claim(match=match, side=1, expected_version=1, of_side=0)
    after = fragment(client, setup, 1)
    assert f"Confirmed by {PLAYERS[1]}." in after and "1 more confirmation needed" in after
    assert "You have confirmed it" in after and 'data-action="confirm"' not in after
    assert f"Confirm as {PLAYERS[2]}" in fragment(client, setup, 2)
    claims.confirm_claim(match=match, side=2, expected_version=1, of_side=0)
    done = fragment(client, setup, 2)
    assert "Result confirmed" in done and 'id="placings"' in done
    winner = scores.index(max(scores))
    place = ["1st", "2nd", "3rd"][sorted(scores, reverse=True).index(scores[2])]
    assert f"You placed <strong>{place}</strong>" in done
    assert done.index(PLAYERS[winner]) < done.index("You placed")


def test_majority_needs_two_of_three_others_at_a_table_of_four() -> None:
    setup = make_table_setup("major4", sizes=(4,), table_confirmation="majority", table_size=4)
    match = setup.matches[0]
    sheet, _ = plain(4)
    claims.submit_claim(match=match, side=3, sheet=sheet)
    text = fragment(Client(), setup, 0)
    assert "2 more confirmations needed" in text and "2 of 3" in text
    assert 'data-side="A" data-of-side="D"' in text


def test_cards_and_link_lists_have_a_link_per_seat(client: Client) -> None:
    setup = make_table_setup("cards3")
    client.force_login(setup.director)
    page = client.get(f"/director/events/{setup.event.slug}/rounds/1/cards/")
    assert page.status_code == 200
    text = page.content.decode()
    table = setup.matches[0].table
    assert table is not None
    for seat in range(3):
        assert table_link_path(round_=setup.round, table=table, side=seat) in text
        assert f"Scan if you are {PLAYERS[seat]}" in text
    assert text.count('<svg role="img" class="qr"') == 3
    links = client.get(f"/api/events/{setup.event.slug}/rounds/1/links/")
    assert links.status_code == 200
    sides = links.json()[0]["sides"]
    assert [(s["side"], s["letter"], s["name"]) for s in sides] == [
        (0, "A", PLAYERS[0]),
        (1, "B", PLAYERS[1]),
        (2, "C", PLAYERS[2]),
    ]


def test_the_pairings_sheet_lists_every_seat_of_a_table_of_many_with_its_link(
    client: Client,
) -> None:
    setup = make_table_setup("sheet4", sizes=(4, 3), table_size=4)
    client.force_login(setup.director)
    text = client.get(
        f"/director/events/{setup.event.slug}/rounds/1/pairings-sheet/"
    ).content.decode()
    for match in setup.matches:
        assert match.table is not None
        for seat in range(match.table_entries):
            assert table_link_path(round_=setup.round, table=match.table, side=seat) in text
    assert "West: Dee Ford" in text and "South: Cruz Diaz" in text
    bare = client.get(
        f"/director/events/{setup.event.slug}/rounds/1/pairings-sheet/?links=0"
    ).content.decode()
    assert "/t/" not in bare and "Dee Ford" in bare


def api_post(token: str, url: str, body: dict[str, Any], key: str) -> Any:
    return Client().post(
        url,
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Table {token}",
        HTTP_IDEMPOTENCY_KEY=key,
        HTTP_IF_MATCH="1",
    )


def test_a_seat_link_never_confirms_its_own_claim_nor_acts_as_another_seat() -> None:
    setup = make_table_setup("own3")
    match = setup.matches[0]
    sheet, _ = with_halves(3)
    claims.submit_claim(match=match, side=0, sheet=sheet)

    def token(seat: int) -> str:
        return setup.path(0, side=seat).strip("/").split("/")[-1]

    confirm = f"/api/matches/{match.pk}/confirm/"
    own = api_post(token(0), confirm, {}, "5e0d0c1e-0000-4000-8000-000000000001")
    assert own.status_code == 400 and own.json()["code"] == "nothing_to_confirm"
    named = api_post(token(0), confirm, {"of_side": 0}, "5e0d0c1e-0000-4000-8000-000000000003")
    assert named.status_code == 400 and "not your own" in named.json()["message"]
    other = api_post(token(0), confirm, {"side": 1}, "5e0d0c1e-0000-4000-8000-000000000002")
    assert other.status_code == 403 and other.json()["code"] == "not_your_side"
    assert "seat A's link" in other.json()["message"]
    # the sender's own page offers no Confirm for its own claim
    assert 'data-action="confirm"' not in fragment(Client(), setup, 0)
    assert not MatchResult.objects.filter(match=match).exists()


def test_a_closed_rounds_seat_link_reads_the_places() -> None:
    setup = make_table_setup("closed3")
    match = setup.matches[0]
    sheet, _ = with_halves(3)
    claims.submit_claim(match=match, side=0, sheet=sheet)
    claims.confirm_claim(match=match, side=1, expected_version=1, of_side=0)
    claims.confirm_claim(match=match, side=2, expected_version=1, of_side=0)
    setup.round.status = setup.round.Status.CLOSED
    setup.round.save(update_fields=["status"])
    text = Client().get(setup.path(0, side=2)).content.decode()
    assert "Round 1 is closed" in text and 'id="placings"' in text
    assert " · ".join(PLAYERS[:3]) in text and "You placed" in text


def test_the_table_link_command_prints_every_seat_of_a_table_of_many() -> None:
    setup = make_table_setup("cmd3")
    out = io.StringIO()
    call_command("table_link", "cmd3", "1", "1", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        f"Side {letter} ({name})" for letter, name in zip("ABC", PLAYERS, strict=False)
    ]
    table = setup.matches[0].table
    assert table is not None
    seat_c = io.StringIO()
    call_command("table_link", "cmd3", "1", "1", "--side", "c", stdout=seat_c)
    assert (
        seat_c.getvalue().strip().endswith(table_link_path(round_=setup.round, table=table, side=2))
    )
    with pytest.raises(CommandError, match="3 sides"):
        call_command("table_link", "cmd3", "1", "1", "--side", "D", stdout=io.StringIO())
