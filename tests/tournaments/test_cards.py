"""Table cards and the pairings sheet: director-only, one card per table with the match, the seats
and a QR code that is exactly the table's entry link."""

from __future__ import annotations

import re
from typing import Any

import pytest
import qrcode
import qrcode.constants
from django.test import Client

from tests.tournaments.phone_factory import make_setup
from tournaments.presenters import cards
from tournaments.services.table_links import resolve_table_token

pytestmark = pytest.mark.django_db


def svg_matrix(svg: str) -> list[list[bool]]:
    """Render the QR SVG (the path factory: one unit square per dark module) to a module matrix,
    quiet zone included."""
    size = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert size is not None
    n = int(size.group(1))
    grid = [[False] * n for _ in range(n)]
    path = re.search(r'<path d="([^"]+)"', svg)
    assert path is not None
    squares = re.findall(r"M(\d+),(\d+)H(\d+)V(\d+)H(\d+)z", path.group(1))
    assert squares
    for x, y, x2, y2, x3 in squares:
        assert (int(x2) - int(x), int(y2) - int(y), x3) == (1, 1, x)
        grid[int(y)][int(x)] = True
    return grid


def expected_matrix(url: str) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(url)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def cards_url(setup: Any) -> str:
    return f"/director/events/{setup.event.slug}/rounds/{setup.round.number}/cards/"


def test_cards_need_the_events_director(client: Client) -> None:
    setup = make_setup(tables=2)
    anon = client.get(cards_url(setup))
    assert anon.status_code == 302 and "/accounts/login/" in anon["Location"]
    other = make_setup("other")
    client.force_login(other.director)
    assert client.get(cards_url(setup)).status_code == 404
    sheet = f"/director/events/{setup.event.slug}/rounds/1/pairings-sheet/"
    assert client.get(sheet).status_code == 404
    client.force_login(setup.director)
    assert client.get(cards_url(setup)).status_code == 200
    assert client.get(sheet).status_code == 200
    assert client.get(f"/director/events/{setup.event.slug}/rounds/9/cards/").status_code == 404


def test_one_card_per_table_with_match_seats_and_a_link_per_side(client: Client) -> None:
    setup = make_setup(tables=3, bye=True)
    client.force_login(setup.director)
    page = client.get(cards_url(setup)).content.decode()
    assert page.count('<article class="card"') == 3
    assert page.count('<svg role="img" class="qr"') == 6  # one per side
    for i, match in enumerate(setup.matches):
        assert f"Table {i + 1}</div>" in page
        assert match.entry_b is not None
        for side, entry in ((0, match.entry_a), (1, match.entry_b)):
            url = "http://testserver" + setup.path(i, side)
            letter = "AB"[side]
            assert f"Side {letter}: {url}</div>" in page
            assert f"Scan if you are {entry.name}</h3>" in page
    # Seats 0 and 2 are side A's players, 1 and 3 side B's, named by compass point as the first
    # lead is (North, East, South, West: never "Seat 0", issue 30).
    assert "North (A): Team A One" in page
    assert "East (B): Team B One" in page
    assert "South (A): Team A Two" in page
    assert "West (B): Team B Two" in page
    assert "Seat 0" not in page
    assert "Team Bye" not in page  # a bye has no table and no card
    assert "@media print" in page


def test_card_qrs_are_exactly_the_sides_links() -> None:
    """Each QR code's module matrix, read back from the SVG, equals a fresh encoding of its
    side's link (same version, mask and data), and the link resolves to that table and side."""
    setup = make_setup(tables=2)
    base = "http://venue.example:8000"
    found = cards.table_cards(
        setup.round, url_for=lambda m, side: base + setup.path(setup.matches.index(m), side)
    )
    assert [c.table_number for c in found] == [1, 2]
    for card in found:
        assert [(link.side, link.team) for link in card.links] == [
            ("A", card.side_a),
            ("B", card.side_b),
        ]
        for side, link in enumerate(card.links):
            assert svg_matrix(link.qr_svg) == expected_matrix(link.url)
            token = link.url.removeprefix(base + "/t/").rstrip("/")
            access = resolve_table_token(token)
            assert (access.table.number, access.side) == (card.table_number, side)


def test_card_qrs_decode_to_the_two_side_links(client: Client) -> None:
    """Decoded by an independent reader (zxing-cpp), the card page's two QR codes give side A's
    link and side B's, each under its team's name."""
    zxingcpp = pytest.importorskip("zxingcpp")
    np = pytest.importorskip("numpy")
    setup = make_setup(tables=1)
    client.force_login(setup.director)
    page = client.get(cards_url(setup)).content.decode()
    boxes = re.findall(r'<section class="qr-box side-([AB])"[^>]*>(.*?)</section>', page, re.S)
    assert [letter for letter, _ in boxes] == ["A", "B"]
    match = setup.matches[0]
    assert match.entry_b is not None
    for (letter, box), side, team in zip(
        boxes, (0, 1), (match.entry_a.name, match.entry_b.name), strict=True
    ):
        assert f"Scan if you are {team}" in box
        svg = re.search(r"<svg.*?</svg>", box, re.S)
        assert svg is not None
        modules = np.array(svg_matrix(svg.group(0)), dtype=bool)
        image = np.where(modules, 0, 255).astype(np.uint8).repeat(6, axis=0).repeat(6, axis=1)
        decoded = [d.text for d in zxingcpp.read_barcodes(image)]
        assert decoded == ["http://testserver" + setup.path(0, side)], letter
        token = decoded[0].removeprefix("http://testserver/t/").rstrip("/")
        assert resolve_table_token(token).side == side


def test_head_to_head_cards_have_two_seats() -> None:
    setup = make_setup("solo", tables=1, entry_kind="single")
    card = cards.table_cards(setup.round, url_for=lambda m, side: "http://x" + setup.path(0, side))[
        0
    ]
    assert [(s.number, s.side, s.player) for s in card.seats] == [
        (0, "A", "Team A Solo"),
        (1, "B", "Team B Solo"),
    ]


def test_pairings_sheet_lists_tables_then_byes(client: Client) -> None:
    setup = make_setup(tables=2, bye=True)
    rows = cards.pairings_rows(setup.round)
    assert [(r.table_number, r.side_a, r.side_b, r.is_bye) for r in rows] == [
        (1, "Team A", "Team B", False),
        (2, "Team C", "Team D", False),
        (None, "Team Bye", "", True),
    ]
    client.force_login(setup.director)
    url = f"/director/events/{setup.event.slug}/rounds/1/pairings-sheet/"
    text = client.get(url).content.decode()
    assert text.index("Team A") < text.index("Team C") < text.index("Team Bye")
    assert "North: Team A One · South: Team A Two</div>" in text
    assert "East: Team B One · West: Team B Two</div>" in text
    # The director's sheet lists both sides' links of each table; "links=0" leaves them off.
    for i in (0, 1):
        for side in (0, 1):
            assert f'<div class="link">http://testserver{setup.path(i, side)}</div>' in text
    bare = client.get(url + "?links=0").content.decode()
    assert "/t/" not in bare and "North: Team A One" in bare


def test_cards_read_in_fixed_queries(django_assert_num_queries: Any) -> None:
    small = make_setup("small", tables=1)
    big = make_setup("big", tables=6, bye=True)
    for setup in (small, big):
        setup.round.refresh_from_db()
        with django_assert_num_queries(3):  # event, matches, entries with their players
            cards.table_cards(setup.round, url_for=lambda m, side: "http://x/")


def test_round_page_links_to_cards_and_pairings_sheet(client: Client) -> None:
    setup = make_setup(tables=1)
    client.force_login(setup.director)
    page = client.get(f"/director/events/{setup.event.slug}/rounds/1/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'href="/director/events/{setup.event.slug}/rounds/1/cards/"' in html
    assert f'href="/director/events/{setup.event.slug}/rounds/1/pairings-sheet/"' in html


def test_card_and_page_show_the_first_leader_drawn_by_lot(client: Client) -> None:
    setup = make_setup(tables=1)
    match = setup.matches[0]
    assert match.entry_b is not None and match.entry_b.partnership is not None
    drawn = match.entry_b.partnership.player_b  # seat 3
    match.explanation = {"first_leader": {"player": drawn.pk, "draw": {}}}
    match.save(update_fields=["explanation"])
    card = cards.table_cards(setup.round, url_for=lambda m, side: "http://x/")[0]
    assert card.first_leader is not None
    assert (card.first_leader.number, card.first_leader.player) == (3, "Team B Two")
    client.force_login(setup.director)
    assert (
        "First hand led by <strong>West: Team B Two</strong>"  # seat 3 named by its point
        in client.get(cards_url(setup)).content.decode()
    )
    assert client.get(setup.path()).context["config"]["first_leader"] == 3
    match.explanation = {}
    match.save(update_fields=["explanation"])
    assert (
        cards.table_cards(setup.round, url_for=lambda m, side: "http://x/")[0].first_leader is None
    )
    assert client.get(setup.path()).context["config"]["first_leader"] is None
