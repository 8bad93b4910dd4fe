"""The paper fallback (issue 30): a scoresheet and result slip per table, table cards four to a
page with every seat by compass point, the prize list, and the print links on the director's
pages. The pages as HTML here; tests/e2e/test_paper_print.py prints them to PDF."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.phone_factory import PLAYERS, make_setup, make_table_setup
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.models import Event
from tournaments.presenters.prize_list import place_text
from tournaments.services import finish, round_generation, round_status

pytestmark = pytest.mark.django_db


def sheets_url(setup: Any, query: str = "") -> str:
    return f"/director/events/{setup.event.slug}/rounds/{setup.round.number}/scoresheets/{query}"


def repeated_ids(page: str) -> list[str]:
    """Element ids the page uses more than once (a page of many QR codes must repeat none)."""
    return [i for i, n in Counter(re.findall(r'\sid="([^"]+)"', page)).items() if n > 1]


def lead_by(setup: Any, i: int, player_id: int) -> None:
    """Record the round's draw of the first lead for match ``i`` (as the rounds service does)."""
    match = setup.matches[i]
    match.explanation = {"first_leader": {"player": player_id, "draw": {}}}
    match.save(update_fields=["explanation"])


def test_scoresheets_are_for_the_events_directors_only(client: Client) -> None:
    setup = make_setup("paperauth", tables=1)
    anon = client.get(sheets_url(setup))
    assert anon.status_code == 302 and "/accounts/login/" in anon["Location"]
    other = make_setup("paperother")
    client.force_login(other.director)
    assert client.get(sheets_url(setup)).status_code == 404
    client.force_login(setup.director)
    assert client.get(sheets_url(setup)).status_code == 200


def test_a_partnership_rounds_scoresheets_one_per_table(client: Client) -> None:
    setup = make_setup("paperpairs", tables=3, bye=True)
    south = setup.matches[1].entry_a.partnership
    assert south is not None
    lead_by(setup, 1, south.player_b_id)  # table 2's first lead: side A's second player (South)
    client.force_login(setup.director)
    page = client.get(sheets_url(setup)).content.decode()
    assert page.count('<article class="scoresheet"') == 3  # the bye has no table, no sheet
    assert page.count('<section class="slip"') == 3
    assert page.count('<svg role="img" class="qr"') == 6  # each side's code
    assert repeated_ids(page) == []
    for i, match in enumerate(setup.matches):
        assert match.entry_b is not None
        assert f'aria-label="Scoresheet of table {i + 1}"' in page
        assert f"Scan if you are {match.entry_a.name}</div>" in page
        # the grid's column groups and the slip's lines: each side by its letter and team
        assert page.count(f"A: {match.entry_a.name}<") == 2
        assert page.count(f"B: {match.entry_b.name}<") == 2
    for point, side, name in (
        ("North", "A", "Team A One"),
        ("East", "B", "Team B One"),
        ("South", "A", "Team A Two"),
        ("West", "B", "Team B Two"),
    ):
        assert f"{point} ({side}): {name}</li>" in page
    assert "First hand led by <strong>South: Team C Two</strong> (drawn by lot)." in page
    assert page.count("First hand led by (drawn by lot):") == 2  # no draw recorded there
    assert page.count('<td class="hand">') == 3 * 15  # fifteen hands' lines a sheet
    assert page.count('<th scope="col">Tally</th><th scope="col">Settlement</th>') == 6
    assert "Game to 61; scores in points (5 pips = 1)." in page  # five-up: 305 raw = 61
    assert page.count("Final score, in points (5 pips = 1)") == 3
    assert page.count("Signed for") == 6
    assert "Team Bye" not in page and "Seat 0" not in page
    assert "@media print" in page and "size: A4 portrait" in page


def test_one_tables_scoresheet_on_its_own(client: Client) -> None:
    setup = make_setup("paperone", tables=3)
    client.force_login(setup.director)
    page = client.get(sheets_url(setup, "?table=2")).content.decode()
    assert page.count('<article class="scoresheet"') == 1
    assert 'aria-label="Scoresheet of table 2"' in page
    assert setup.matches[1].entry_a.name in page and setup.matches[0].entry_a.name not in page
    assert "Every table&#x27;s" in page or "Every table's" in page


def test_head_to_head_sheets_seat_north_and_south(client: Client) -> None:
    setup = make_setup("papersolo", tables=1, entry_kind="single")
    client.force_login(setup.director)
    page = client.get(sheets_url(setup)).content.decode()
    match = setup.matches[0]
    assert match.entry_b is not None
    assert re.search(r"North \(A\): [^<]+</li>", page) and re.search(
        r"South \(B\): [^<]+</li>", page
    )
    assert "East (" not in page and "West (" not in page


def test_tables_of_many_get_a_column_group_and_a_slip_line_per_player(client: Client) -> None:
    setup = make_table_setup("paperfour", sizes=(4, 3))
    west = setup.matches[0].seats.get(side=3).entry.player
    assert west is not None
    lead_by(setup, 0, west.pk)
    client.force_login(setup.director)
    page = client.get(sheets_url(setup)).content.decode()
    assert page.count('<article class="scoresheet"') == 2
    assert page.count('<svg role="img" class="qr"') == 4 + 3  # a code per player
    assert repeated_ids(page) == []
    assert page.count('<th scope="col">Tally</th>') == 4 + 3
    assert page.count('<abbr title="Settlement">Settl.</abbr>') == 4 + 3
    assert page.count('<td class="hand">') == 2 * 12  # twelve hands' lines: a slip line a player
    assert "4 players, each for themselves" in page and "3 players, each for themselves" in page
    for point, letter, name in zip(
        ("North", "East", "South", "West"), "ABCD", PLAYERS, strict=True
    ):
        assert f"{point} ({letter}): {name}</li>" in page
        assert f"{letter}: {name} ({point})</th>" in page  # the grid's group and the slip's line
    assert f"First hand led by <strong>West: {PLAYERS[3]}</strong>" in page
    assert page.count("Signed for") == 7


def test_table_cards_print_four_to_a_page_with_unique_ids(client: Client) -> None:
    setup = make_setup("papercards", tables=5)
    client.force_login(setup.director)
    page = client.get(f"/director/events/{setup.event.slug}/rounds/1/cards/").content.decode()
    sheets = re.findall(r'<div class="sheet">(.*?)\n    </div>', page, re.S)
    assert [s.count('<article class="card"') for s in sheets] == [4, 1]
    assert repeated_ids(page) == [] and 'id="qr-path"' not in page
    assert "Round 1: 5 table cards" in page
    assert "/rounds/1/scoresheets/" in page


def test_the_desk_and_the_round_page_link_every_print(client: Client) -> None:
    setup = make_setup("paperlinks", tables=1)
    client.force_login(setup.director)
    slug = setup.event.slug
    desk = client.get(f"/director/events/{slug}/").content.decode()
    for href in (
        f"/director/events/{slug}/rounds/1/cards/",
        f"/director/events/{slug}/rounds/1/scoresheets/",
        f"/events/{slug}/standings/",
        f"/director/events/{slug}/prize-list/",
    ):
        assert f'href="{href}"' in desk, href
    review = client.get(f"/director/events/{slug}/rounds/1/").content.decode()
    assert f'href="/director/events/{slug}/rounds/1/scoresheets/"' in review
    assert "Print scoresheets and result slips" in review


def test_the_prize_list_waits_for_the_placings_then_lists_them(client: Client) -> None:
    event = make_event("paperprize", swiss_rounds=1)
    boss = make_director(event)
    make_field(event, 6)
    client.force_login(boss)
    url = f"/director/events/{event.slug}/prize-list/"
    rnd = round_generation.generate_round(event=event, actor=boss)
    waiting = client.get(url).content.decode()
    assert "No prize list yet:" in waiting and "The main rounds are not over" in waiting
    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    provisional = client.get(url).content.decode()
    assert "Provisional:" in provisional
    finished = finish.finish_event(event=event, actor=boss)
    assert finished.status == Event.Status.FINISHED
    page = client.get(url).content.decode()
    assert "Provisional:" not in page
    names = re.findall(r'<td class="place">([^<]+)</td><td><strong>([^<]+)</strong>', page)
    placings = finished.placings or []
    assert names == [(place_text(p["place"], p["shared"]), p["name"]) for p in placings]
    assert names[0][0] in ("1", "=1")  # after one round the winners share the top place
    assert "Received (signature)" in page and "size: A4 portrait" in page


def test_a_best_of_matchs_sheet_asks_which_game(client: Client) -> None:
    setup = make_setup("paperfinal", tables=2)
    final = setup.matches[1]
    final.best_of = 3
    final.save(update_fields=["best_of"])
    client.force_login(setup.director)
    page = client.get(sheets_url(setup)).content.decode()
    sheets = page.split('<article class="scoresheet"')[1:]
    assert ["Best of 3: game" in sheet for sheet in sheets] == [False, True]
    assert sheets[1].count("Best of 3: game") == 2  # on the sheet and on its slip
