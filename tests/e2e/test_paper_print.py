"""The paper fallback printed (issue 30): Debian's Chromium prints the table cards (four to an A4
page), the scoresheets and result slips (one A4 page a table) and the standings to PDF; the PDFs
are read back (pypdf) for their page count, their page size and their text. The screenshots (print
media emulated) are kept under test-artifacts/ for a person to look at."""

from __future__ import annotations

import io
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import poll
from tests.e2e.test_rounds import clean_teardown
from tests.tournaments.finish_support import play_bracket, seeded_event
from tests.tournaments.live_support import confirm
from tests.tournaments.phone_factory import PLAYERS, audit_flush, make_setup, make_table_setup
from tournaments.models import StandingsSnapshot
from tournaments.services import finish, round_status

__all__ = ["audit_flush", "clean_teardown"]

pypdf = pytest.importorskip("pypdf")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A4_POINTS = (595.28, 841.89)  # 210 x 297 mm in PDF points

FRAMES = """() => [...document.querySelectorAll('article.card')].map(card => {
  const box = card.getBoundingClientRect();
  return [...card.querySelectorAll('*')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5;
  }).map(e => e.tagName + '.' + (e.getAttribute('class') || ''));
})"""


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (the standings' rendered rows are cached)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"paper-{uuid.uuid4()}",
        }
    }


def log_in(
    page: Any, base: str, slug: str, user: str = "", password: str = "pw-director-1"
) -> None:
    page.goto(f"{base}/director/events/{slug}/")
    page.get_by_label("Username").fill(user or f"dir-{slug}")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**/director/events/{slug}/")


def printed(page: Any, url: str, artifacts: Path, name: str) -> Any:
    """Open ``url``, keep a print-media screenshot, print it to an A4 PDF and read it back."""
    page.emulate_media(media="screen")
    page.goto(url)
    page.emulate_media(media="print")
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
    pdf = page.pdf(format="A4", print_background=True)
    (artifacts / f"{name}.pdf").write_bytes(pdf)
    return pypdf.PdfReader(io.BytesIO(pdf))


def assert_a4(reader: Any) -> None:
    """Every page is A4 portrait, within 1.5 pt (half a millimetre: Chromium rounds the page to
    its pixels), never US Letter (612 x 792)."""
    for page in reader.pages:
        box = page.mediabox
        size = (float(box.width), float(box.height))
        assert all(abs(got - a4) < 1.5 for got, a4 in zip(size, A4_POINTS, strict=True)), size


def texts(reader: Any) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def test_cards_scoresheets_and_standings_print_on_a4(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    setup = make_setup("paperprint", tables=5, bye=True, swiss_rounds=1)
    south = setup.matches[0].entry_a.partnership
    assert south is not None
    first = setup.matches[0]
    first.explanation = {"first_leader": {"player": south.player_b_id, "draw": {}}}
    first.save(update_fields=["explanation"])
    for i, match in enumerate(setup.matches):
        confirm(match, 305, 40 * i, setup.director)  # tasks run eagerly: a snapshot each
    assert StandingsSnapshot.objects.filter(event=setup.event).exists()
    round_status.close_round(round=setup.round, actor=setup.director)  # the prize list is ready
    base, slug = live_server.url, setup.event.slug
    log_in(phone, base, slug)
    phone.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    round_url = f"{base}/director/events/{slug}/rounds/1"

    cards = printed(phone, f"{round_url}/cards/", artifacts, "cards")
    assert len(cards.pages) == 2  # five cards, four to a page
    assert_a4(cards)
    assert phone.evaluate(FRAMES) == [[]] * 5  # every card's frame holds all of it
    page1, page2 = texts(cards)
    for i, match in enumerate(setup.matches):
        assert match.entry_b is not None
        text = page1 if i < 4 else page2
        assert f"Table {i + 1}" in text
        assert f"Scan if you are {match.entry_a.name}" in text
        assert f"Scan if you are {match.entry_b.name}" in text
    assert "North (A): Team A One" in page1 and "West (B): Team B Two" in page1
    assert "First hand led by South: Team A Two (drawn by lot)." in page1
    assert "Seat 0" not in page1 + page2

    sheets = printed(phone, f"{round_url}/scoresheets/", artifacts, "scoresheets")
    assert len(sheets.pages) == 5  # one page a table: the sheet and its slip
    assert_a4(sheets)
    for i, (text, match) in enumerate(zip(texts(sheets), setup.matches, strict=True)):
        assert match.entry_b is not None
        assert f"Table {i + 1}" in text and "Scoresheet" in text and "Result slip" in text
        assert f"A: {match.entry_a.name}" in text and f"B: {match.entry_b.name}" in text
        assert "Tally Settlement Total" in text
        assert "Game to 61" in text
        assert "Team Bye" not in text
    assert "First hand led by South: Team A Two" in texts(sheets)[0]

    one = printed(phone, f"{round_url}/scoresheets/?table=3", artifacts, "scoresheet-table-3")
    assert len(one.pages) == 1 and "Table 3" in texts(one)[0]

    standings = printed(phone, f"{base}/events/{slug}/standings/", artifacts, "standings")
    assert len(standings.pages) == 1
    assert_a4(standings)
    (text,) = texts(standings)
    for match in setup.matches:
        assert match.entry_a.name in text
    assert "Projector view" not in text and "Log out" not in text and "Print" not in text
    assert text.index(setup.matches[0].entry_a.name) < text.index(setup.matches[4].entry_a.name)

    prizes = printed(phone, f"{base}/director/events/{slug}/prize-list/", artifacts, "prizes")
    assert len(prizes.pages) == 1
    assert_a4(prizes)
    (text,) = texts(prizes)
    assert "Prize list" in text and "Provisional:" in text and "Back to the desk" not in text
    assert "Received (signature)" in text
    for match in setup.matches:  # each entry with its players, who come up for the prize
        assert f"{match.entry_a.name} {match.entry_a.name} One · {match.entry_a.name} Two" in text


def test_tables_of_many_print_a_code_per_player(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    setup = make_table_setup("paperfours", sizes=(4, 3, 4, 3, 4))
    base, slug = live_server.url, setup.event.slug
    log_in(phone, base, slug)
    phone.set_viewport_size({"width": 794, "height": 1123})
    round_url = f"{base}/director/events/{slug}/rounds/1"

    cards = printed(phone, f"{round_url}/cards/", artifacts, "cards-many")
    assert len(cards.pages) == 2
    assert_a4(cards)
    assert poll(lambda: phone.locator("article.card svg.qr").count()) == 4 + 3 + 4 + 3 + 4
    assert phone.evaluate(FRAMES) == [[]] * 5
    page1 = texts(cards)[0]
    for point, name in zip(("North", "East", "South", "West"), PLAYERS, strict=True):
        assert f"{point}: {name}" in page1 and f"Scan if you are {name}" in page1

    sheets = printed(phone, f"{round_url}/scoresheets/", artifacts, "scoresheets-many")
    assert len(sheets.pages) == 5
    assert_a4(sheets)
    first = texts(sheets)[0]
    assert "4 players, each for themselves" in first and "Result slip" in first
    points = ("North", "East", "South", "West")
    for letter, point, name in zip("ABCD", points, PLAYERS, strict=True):
        assert f"{letter}: {name} ({point})" in first
    assert "3 players, each for themselves" in texts(sheets)[1]


def test_the_bracket_and_the_final_prize_list_print_on_a4(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    event, boss, entries = seeded_event("paperbracket", field=16, qualifiers=8)
    play_bracket(event, boss)
    finished = finish.finish_event(event=event, actor=boss)
    base, slug = live_server.url, event.slug
    log_in(phone, base, slug, "paperbracket-boss", "pw-for-tests-123")
    phone.set_viewport_size({"width": 794, "height": 1123})

    bracket = printed(phone, f"{base}/events/{slug}/bracket/", artifacts, "bracket")
    assert len(bracket.pages) == 1
    assert_a4(bracket)
    fits = "() => [...document.querySelectorAll('svg.bracket')].every(svg =>"
    fits += " svg.getBoundingClientRect().right <= document.documentElement.clientWidth)"
    assert phone.evaluate(fits)  # the drawing never runs past the page's right edge
    (text,) = texts(bracket)
    champion = (finished.placings or [])[0]["name"]
    assert f"Champion: {champion}" in text and "Projector view" not in text

    prizes = printed(phone, f"{base}/director/events/{slug}/prize-list/", artifacts, "prizes")
    assert_a4(prizes)
    text = " ".join(texts(prizes))
    assert "Provisional:" not in text
    names = [p["name"] for p in finished.placings or []]
    assert len(names) == len(entries)
    assert [text.index(name + " ") for name in names] == sorted(
        text.index(name + " ") for name in names
    )  # best first, as frozen


def test_the_spanish_scoresheets_and_cards_fit_their_pages(
    live_server: Any, spanish_phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    """Spanish words run longer ("Liquidación", "Boleta de resultado"): still one A4 page a
    table's sheet, four cards a page, every frame holding its card."""
    setup = make_setup("papeles", tables=5)
    base, slug = live_server.url, setup.event.slug
    client = Client()
    client.force_login(setup.director)  # the session in the browser (the login page is tested)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    spanish_phone.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base}])
    spanish_phone.set_viewport_size({"width": 794, "height": 1123})
    round_url = f"{base}/director/events/{slug}/rounds/1"

    sheets = printed(spanish_phone, f"{round_url}/scoresheets/", artifacts, "actas")
    assert len(sheets.pages) == 5
    assert_a4(sheets)
    first = texts(sheets)[0]
    assert "Acta" in first and "Boleta de resultado" in first and "Liquidación" in first
    assert "Norte (A): Team A One" in first and "Oeste (B): Team B Two" in first

    cards = printed(spanish_phone, f"{round_url}/cards/", artifacts, "tarjetas")
    assert len(cards.pages) == 2
    assert phone_frames_hold(spanish_phone)


def phone_frames_hold(page: Any) -> bool:
    return bool(page.evaluate(FRAMES) == [[]] * page.locator("article.card").count())
