"""The phone page's server side: the page behind a table link, the move-entry helper (the engine
places and counts), the dry-run verify, and the claim status fragment."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scoring.tiles import TILES
from tests.tournaments.phone_factory import make_setup
from tournaments.models import Round, Table
from tournaments.services.claims import confirm_claim, submit_claim
from tournaments.services.table_links import table_link_path

pytestmark = pytest.mark.django_db


def tally_sheet(**extra: Any) -> dict[str, Any]:
    """A finished five-up match to 25 raw (see the e2e tally test): A wins 25 to -20."""
    sheet: dict[str, Any] = {
        "format": "fives-scoresheet/1",
        "rules": "five-up",
        "players": 4,
        "partnerships": True,
        "target": 25,
        "hand_size": 5,
        "hands": [
            {
                "leader": 0,
                "tally": [
                    {"seat": 0, "score": 10},
                    {"seat": 1, "score": 5},
                    {"seat": 2, "score": 15},
                ],
                "end": "domino",
                "finisher": 2,
                "remaining": [3, 12, 0, 7],
            },
            {
                "leader": 2,
                "tally": [{"seat": 0, "score": 10}],
                "end": "domino",
                "finisher": 0,
                "remaining": [0, 2, 4, 10],
            },
        ],
    }
    sheet.update(extra)
    return sheet


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def test_page_shows_the_match_seats_and_the_sheets_header(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    response = client.get(setup.path())
    assert response.status_code == 200
    html = response.content.decode()
    assert "Table 1 · Round 1" in html
    assert "N: Team A One" in html and "W: Team B Two" in html
    assert "spinner/phone.js" in html
    config = response.context["config"]
    assert config["header"] == {
        "format": "fives-scoresheet/1",
        "rules": "five-up",
        "players": 4,
        "partnerships": True,
        "target": 25,
        "hand_size": 5,
    }
    assert config["divisor"] == 5
    assert config["entity_of"] == [0, 1, 0, 1]
    assert [s["side"] for s in config["seats"]] == ["A", "B", "A", "B"]
    assert config["allow_final_only"] is False


def test_all_fives_head_to_head_shows_raw_points(client: Client) -> None:
    setup = make_setup("h2h", rules="all-fives", entry_kind="single", allow_final_score_only=True)
    config = client.get(setup.path()).context["config"]
    assert config["divisor"] == 1
    assert config["players"] == 2
    assert config["header"]["target"] == 250
    assert config["entity_of"] == [0, 1]
    assert config["allow_final_only"] is True


def test_a_bad_link_is_refused_and_a_closed_rounds_link_only_reads(client: Client) -> None:
    setup = make_setup()
    forged = setup.path()[:-5] + "AAAA/"
    response = client.get(forged)
    assert response.status_code == 401
    assert b"not valid" in response.content
    Round.objects.filter(pk=setup.round.pk).update(status=Round.Status.DRAFT)
    assert client.get(setup.path()).status_code == 401
    Round.objects.filter(pk=setup.round.pk).update(status=Round.Status.CLOSED)
    # A closed round's link shows the table, no entry (nothing to enter), and writes nothing.
    page = client.get(setup.path())
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="round-closed"' in html and "Round 1 is closed" in html
    assert "spinner/phone.js" not in html and "does not work" not in html
    assert post(client, setup.path() + "position", {}).json()["code"] == "table_link_expired"


def test_the_last_table_of_a_round_closed_under_it_keeps_its_result_on_both_phones(
    client: Client,
) -> None:
    """A play-off round closes itself the moment its last result is confirmed: the phones of
    that table, polling their status, show the confirmed result (200: htmx swaps only a 2xx),
    not a dead link."""
    setup = make_setup(rules="five-up", target=25)
    match = setup.matches[0]
    submit_claim(match=match, side=0, sheet=tally_sheet())
    confirm_claim(match=match, side=1, expected_version=1)
    Round.objects.filter(pk=setup.round.pk).update(status=Round.Status.CLOSED)
    for side in (0, 1):
        status = client.get(setup.path(0, side=side) + "status")
        assert status.status_code == 200
        html = status.content.decode()
        assert 'id="claim-confirmed"' in html and 'id="round-closed"' in html
        assert "Team A</strong> wins" in html
        assert 'data-action="confirm"' not in html
    # A claim left pending when the round closed offers no Confirm any more.
    other = make_setup("other", rules="five-up", target=25)
    submit_claim(match=other.matches[0], side=0, sheet=tally_sheet())
    Round.objects.filter(pk=other.round.pk).update(status=Round.Status.CLOSED)
    pending = client.get(other.path(0, side=1) + "status").content.decode()
    assert 'id="claim-pending-A"' in pending and 'data-action="confirm"' not in pending
    assert "the director settles it" in pending


def scores_of(placements: list[dict[str, Any]]) -> list[tuple[Any, int, int]]:
    return [(p["on"], p["total"], p["score"]) for p in placements]


def test_position_lists_placements_with_the_engines_scores(client: Client) -> None:
    setup = make_setup()
    url = setup.path() + "position"
    sheet = tally_sheet(hands=[{"leader": 0, "moves": []}])
    opening = post(client, url, {"sheet": sheet, "hand": 0, "tile": "4-1"}).json()
    assert scores_of(opening["placements"]) == [(None, 5, 5)]
    assert opening["tile"] == "1-4" and opening["tiles"] == []
    assert len(opening["playable"]) == 28  # any tile opens the hand
    # Seed 000: [3|6] then the spinner [6|6] totals 3 + 12 = 15.
    sheet["hands"][0]["moves"] = [{"seat": 0, "play": "3-6", "score": 0}]
    found = post(client, url, {"sheet": sheet, "hand": 0, "tile": "6-6"}).json()
    assert scores_of(found["placements"]) == [("3-6", 15, 15)]
    assert found["total"] == 9
    # After [3|6] the tiles that can go on: those with a 3 or a 6, in tile order.
    with_3_or_6 = [str(t) for t in TILES if {3, 6} & {t.low, t.high} and str(t) != "3-6"]
    assert found["playable"] == with_3_or_6 and len(with_3_or_6) == 12
    nowhere = post(client, url, {"sheet": sheet, "hand": 0, "tile": "1-2"}).json()
    assert nowhere["placements"] == []


def test_position_draws_the_engines_geometry(client: Client) -> None:
    """Seed 000's [3|6] then [6|6]: the tiles where the engine lays them (in tile halves), the
    counted ends as numbers (3, and the terminal double's 12 once), and the tap target of the
    next tile beyond the port it would use."""
    setup = make_setup()
    url = setup.path() + "position"
    moves = [
        {"seat": 0, "play": "3-6", "score": 0},
        {"seat": 1, "play": "6-6", "on": "3-6", "score": 15},
    ]
    sheet = tally_sheet(hands=[{"leader": 0, "moves": moves}])
    found = post(client, url, {"sheet": sheet, "hand": 0, "tile": "2-6"}).json()
    tiles = {t["tile"]: t for t in found["tiles"]}
    assert (tiles["3-6"]["x"], tiles["3-6"]["y"], tiles["3-6"]["w"], tiles["3-6"]["h"]) == (
        0,
        0,
        2,
        1,
    )
    assert (tiles["3-6"]["a"], tiles["3-6"]["b"]) == (3, 6)
    assert (tiles["6-6"]["w"], tiles["6-6"]["h"], tiles["6-6"]["spinner"]) == (1, 2, True)
    assert sorted((c["tile"], c["value"]) for c in found["counted"]) == [("3-6", 3), ("6-6", 12)]
    assert found["ports"] == []  # a terminal spinner's branches are not open yet
    assert found["total"] == 15 and found["overlaps"] == []
    (target,) = found["placements"]
    assert (target["on"], target["total"], target["score"]) == ("6-6", 5, 5)  # 3 + 2
    assert target["x"] > tiles["6-6"]["x"]  # beyond the spinner's free line side


def test_position_refuses_what_it_cannot_draw(client: Client) -> None:
    setup = make_setup()
    url = setup.path() + "position"
    sheet = tally_sheet(hands=[{"leader": 0, "moves": [{"seat": 0, "play": "3-6", "score": 0}]}])
    bad_tile = post(client, url, {"sheet": sheet, "hand": 0, "tile": "7-7"})
    assert bad_tile.status_code == 400 and bad_tile.json()["code"] == "position_invalid"
    assert post(client, url, {"sheet": sheet, "hand": 3}).json()["code"] == "position_invalid"
    sheet["hands"][0]["moves"].append({"seat": 1, "play": "1-2", "on": "3-6", "score": 0})
    illegal = post(client, url, {"sheet": sheet, "hand": 0, "tile": "6-6"})
    assert illegal.status_code == 400
    assert illegal.json()["details"] == {"move": 1}
    assert client.post(url, b"nope", content_type="application/json").status_code == 400


def test_the_page_verifies_through_the_results_api_with_its_token(client: Client) -> None:
    """What the page's script does as the players enter: POST the sheet so far to the results
    API's verify endpoint, authenticated by the table's token; the verdict is the engine's."""
    setup = make_setup(rules="five-up", target=25)
    config = client.get(setup.path()).context["config"]
    match = setup.matches[0]
    assert config["urls"]["verify"] == f"/api/matches/{match.pk}/verify/"
    assert config["urls"]["submit"] == f"/api/matches/{match.pk}/claims/"
    auth = {"HTTP_AUTHORIZATION": "Table " + config["token"]}
    good = client.post(
        config["urls"]["verify"], {"sheet": tally_sheet()}, content_type="application/json", **auth
    ).json()["verdict"]
    assert good == {"valid": True, "errors": [], "scores": [25, -20], "winner": 0, "finished": True}
    wrong = tally_sheet()
    wrong["hands"][0]["tally"][1]["score"] = 12
    verdict = client.post(
        config["urls"]["verify"], {"sheet": wrong}, content_type="application/json", **auth
    ).json()["verdict"]
    assert (verdict["errors"][0]["code"], verdict["errors"][0]["hand"]) == ("score", 0)
    in_progress = tally_sheet()
    del in_progress["hands"][1]["end"], in_progress["hands"][1]["finisher"]
    del in_progress["hands"][1]["remaining"]
    partial = client.post(
        config["urls"]["verify"], {"sheet": in_progress}, content_type="application/json", **auth
    ).json()["verdict"]
    assert (partial["valid"], partial["finished"]) == (True, False)


def test_status_fragment_follows_the_claims(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    match = setup.matches[0]
    url = setup.path(0, side=1) + "status"  # side B's link
    assert b"claim-pending" not in client.get(url).content
    submit_claim(match=match, side=0, sheet=tally_sheet())
    pending = client.get(url).content.decode()
    assert 'id="claim-pending-A"' in pending
    assert "Team A 5 – -4 Team B" in pending
    assert 'data-side="B"' in pending and 'data-version="1"' in pending
    assert 'data-a="1"' in pending
    # The sheet hand by hand is drawn by the page's script into the box the fragment leaves.
    assert 'data-claim-detail="' in pending and "Confirm for Team B" in pending
    # Side A's own link sees its claim waiting, with no button to confirm it itself.
    own = client.get(setup.path(0, side=0) + "status").content.decode()
    assert 'id="claim-pending-A"' in own and 'id="waiting-for-other"' in own
    assert "Confirm for" not in own and 'data-action="confirm"' not in own
    confirm_claim(match=match, side=1, expected_version=1)
    confirmed = client.get(url).content.decode()
    assert 'id="claim-confirmed"' in confirmed
    assert "Team A</strong> wins" in confirmed


def test_a_table_without_a_match_says_so_and_pages_keep_the_token_private(
    client: Client,
) -> None:
    setup = make_setup()
    spare = Table.objects.create(event=setup.event, number=9)
    response = client.get(table_link_path(round_=setup.round, table=spare, side=0))
    assert response.status_code == 404
    assert b"No match at table 9 in round 1" in response.content
    page = client.get(setup.path())
    for r in (response, page, client.get(setup.path() + "status")):
        assert r["Referrer-Policy"] == "no-referrer"
        assert "no-store" in r["Cache-Control"]


def test_status_fragment_shows_a_conflict_and_drafts(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    match = setup.matches[0]
    url = setup.path() + "status"
    unfinished = tally_sheet()
    unfinished["hands"] = unfinished["hands"][:1]
    submit_claim(match=match, side=1, sheet=unfinished)
    draft = client.get(url).content.decode()
    assert "Team B has a draft" in draft and 'data-b="1"' in draft
    assert "Confirm for" not in draft
    submit_claim(match=match, side=0, sheet=tally_sheet())
    other = tally_sheet()
    other["hands"][1]["remaining"] = [0, 2, 4, 14]  # B loses 5 more: still A's game
    submit_claim(match=match, side=1, sheet=other, expected_version=1)
    conflict = client.get(url).content.decode()
    assert 'id="claim-conflict"' in conflict
    assert "Team A's sheet: 5 – -4" in conflict and "Team B's sheet: 5 – -5" in conflict
