"""Issue 30's walk, in Chromium at 390x844: a new director's event through the pages alone.

The event is made (open for registration, four partnerships to come, 2 Swiss rounds and a final
of the top 2); then only pages: the CSV import with a spreadsheet's header (``Player 1;Club 1``)
whose reading the preview shows, the check-in, round 1 generated, published and started from
the desk's "Next:" buttons, its results typed at the desk, the tiebreaks changed mid-event with
the standings re-ranked at once, round 2 by the loop whose clicks are counted (close ->
generate -> review -> publish -> start, committed in benchmarks/desk/RESULTS.md), the final
seeded, played and the event finished; the projector shows the podium. Round 2's table cards,
scoresheets and slips and the standings are printed from the desk's links to A4 PDFs.

Every click of the director goes through :class:`Clicks`, so the loop's count is measured, not
asserted from a list.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_paper_print import assert_a4, printed, texts
from tests.e2e.test_rounds import no_sideways_scroll
from tests.tournaments.phone_factory import audit_flush, orm  # noqa: F401
from tournaments.models import Event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "desk" / "RESULTS.md"
SLUG = "club-day"
CSV = (
    "Player 1;Club 1;Player 2;Club 2\n"
    "Ann Lee;Brixton;Bob Ray;Brixton\n"
    "Cy Osei;Leeds;Di Park;Leeds\n"
    "Ed Fox;Moss Side;Flo Gray;Moss Side\n"
    "Gus Hale;Port;Hal Ives;Port\n"
)


class Clicks:
    """The director's page with a count of clicks (each button or link pressed)."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def button(self, name: str, *, exact: bool = False) -> None:
        self.count += 1
        self.page.get_by_role("button", name=name, exact=exact).first.click()

    def link(self, name: str) -> None:
        self.count += 1
        self.page.get_by_role("link", name=name).first.click()


def make_event() -> None:
    from django.contrib.auth.models import User

    from tournaments.services import events

    boss = User.objects.create_user("dana", password="pw-for-tests-123")
    event = events.create_event(
        actor=boss,
        name="Club Day",
        slug=SLUG,
        start_date=datetime.date.today(),
        end_date=datetime.date.today(),
        swiss_rounds=2,
        playoff=Event.Playoff.SINGLE,
        playoff_qualifiers=2,
        public_listing=True,
        public_pairings=True,
        public_results=True,
        public_standings=True,
    )
    events.change_event_status(actor=boss, event=event, status=Event.Status.REGISTRATION)


def status_of() -> str:
    return str(Event.objects.get(slug=SLUG).status)


def enter_results(d: Clicks, base: str, number: int, scores: list[tuple[str, str]]) -> None:
    """Type every missing result of round ``number`` at the desk's arbitral form, table by
    table, with these displayed scores (side A's first)."""
    for score_a, score_b in scores:
        d.page.goto(f"{base}/director/events/{SLUG}/rounds/{number}/results/?state=missing")
        d.link("Enter the result")
        form = d.page.locator("form", has=d.page.get_by_role("button", name="Enter result"))
        form.locator("[name=score_a]").fill(score_a)  # labelled with the teams' names
        form.locator("[name=score_b]").fill(score_b)
        form.locator("[name=reason]").fill("paper sheet")
        d.button("Enter result")
        expect(d.page.locator(".messages")).to_contain_text("The result is entered.")


def standings_names(page: Any, base: str) -> list[str]:
    page.goto(f"{base}/events/{SLUG}/standings/")
    return [n.strip() for n in page.locator("table.standings tbody td.team a").all_inner_texts()]


def test_a_new_directors_event_from_the_csv_import_to_the_podium(
    live_server: Any, phone: Any, artifacts: Path
) -> None:
    base = live_server.url
    orm(make_event)
    d = Clicks(phone)
    phone.goto(f"{base}/accounts/login/?next=/director/events/{SLUG}/import/")
    phone.get_by_label("Username").fill("dana")
    phone.get_by_label("Password").fill("pw-for-tests-123")
    d.button("Log in")

    # The import: a spreadsheet's header, read and said before anything is saved.
    phone.get_by_label("Paste the CSV").fill(CSV)
    d.button("Preview")
    reading = phone.locator(".import-header")
    expect(reading).to_contain_text("Header found on line 1")
    expect(reading).to_contain_text("Separator: semicolon.")
    expect(reading.locator("li").first).to_have_text(re.compile(r"Player 1.+→ player_a"))
    no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "1-import-header.png"), full_page=True)
    d.button("Import 4 entries")
    expect(phone.locator(".messages")).to_contain_text("Imported 4 entries.")

    # Check-in, one by one on the entries page.
    for team in (
        "Ann Lee & Bob Ray",
        "Cy Osei & Di Park",
        "Ed Fox & Flo Gray",
        "Gus Hale & Hal Ives",
    ):
        d.button(f"Check in {team}", exact=True)
        expect(phone.get_by_role("button", name=f"Undo check-in of {team}")).to_be_visible()

    # Round 1 from the desk's "Next:" buttons; publishing makes the event Running.
    phone.goto(f"{base}/director/events/{SLUG}/")
    d.button("Next: generate round 1")
    d.button("Publish round 1")
    d.button("Yes, publish round 1")
    assert orm(status_of) == Event.Status.RUNNING
    phone.goto(f"{base}/director/events/{SLUG}/")
    d.button("Next: start the clock")
    # Table 1: a close win (more points for); table 2: a rout (a larger spread).
    enter_results(d, base, 1, [("70", "60"), ("61", "10")])

    # The tiebreaks changed mid-event: the standings re-rank at once.
    before = standings_names(phone, base)
    phone.goto(f"{base}/director/events/{SLUG}/edit/")
    phone.get_by_label("Tiebreaks").fill("points_for, spread")
    d.button("Save settings")
    after = standings_names(phone, base)
    assert sorted(before) == sorted(after) and before != after, (before, after)
    expect(phone.locator(".tiebreaks-applied")).to_contain_text("Points for")
    phone.screenshot(path=str(artifacts / "2-re-ranked.png"), full_page=True)

    # One round's loop, counted from the desk: close -> generate -> review -> publish -> start.
    phone.goto(f"{base}/director/events/{SLUG}/")
    start = d.count
    d.button("Next: close round 1")
    d.button("Yes, close round 1 and generate round 2")
    expect(phone.get_by_role("heading", name="Round 2")).to_be_visible()  # the draft's review
    d.button("Publish round 2")
    d.button("Yes, publish round 2")
    d.button("Start round 2 and its clock")
    expect(phone.locator(".messages")).to_contain_text("Round 2 is in play.")
    loop = d.count - start
    committed = re.search(r"Clicks now: (\d+)", RESULTS.read_text())
    assert committed is not None and loop == int(committed.group(1)) <= 5, loop
    print_round_papers(phone, base, artifacts)

    enter_results(d, base, 2, [("61", "40"), ("45", "61")])
    phone.goto(f"{base}/director/events/{SLUG}/")
    d.button("Next: close round 2")
    expect(
        phone.get_by_role("button", name="Yes, close round 2 and generate round 3")
    ).to_have_count(0)
    d.button("Yes, close round 2", exact=True)
    champion = play_the_final(d, base)

    # The projector shows the podium, the champion first.
    phone.goto(f"{base}/events/{SLUG}/projector/")
    expect(phone.get_by_test_id("champion")).to_contain_text(champion)
    phone.screenshot(path=str(artifacts / "3-projector-podium.png"), full_page=True)


def print_round_papers(page: Any, base: str, artifacts: Path) -> None:
    """Paper for when phones fail, from the desk's "Print:" links: round 2's two table cards on
    one A4 page, a scoresheet with its result slip per table, and the standings, each printed to
    PDF and read back (page size, pages, the names on them)."""
    page.goto(f"{base}/director/events/{SLUG}/")
    links = page.locator(".desk-print a")
    cards = links.filter(has_text="table cards (round 2)").get_attribute("href")
    sheets = links.filter(has_text="scoresheets and result slips (round 2)").get_attribute("href")
    standings = links.filter(has_text="standings").first.get_attribute("href")
    printed_cards = printed(page, base + cards, artifacts, "4-cards")
    assert_a4(printed_cards)
    assert len(printed_cards.pages) == 1  # four cards to a page
    printed_sheets = printed(page, base + sheets, artifacts, "5-scoresheets")
    assert_a4(printed_sheets)
    assert len(printed_sheets.pages) == 2  # one A4 page a table
    for text in texts(printed_sheets):
        assert "Round 2" in text and "North" in text and "Signature" in text, text
    printed_standings = printed(page, base + standings, artifacts, "6-standings")
    assert_a4(printed_standings)
    words = " ".join(texts(printed_standings))
    assert all(name in words for name in ("Ann Lee", "Cy Osei", "Ed Fox", "Gus Hale")), words
    page.emulate_media(media="screen")


def play_the_final(d: Clicks, base: str) -> str:
    """Seed the play-off from the standings, publish and play the final, finish the event;
    the champion's name."""
    d.page.goto(f"{base}/director/events/{SLUG}/")
    d.link("Next: seed the play-off")
    d.button("Seed the play-off bracket")
    d.link("Review and publish round 3")
    d.button("Publish round 3")
    d.button("Yes, publish round 3")
    names = d.page.locator(".side strong").all_inner_texts()
    enter_results(d, base, 3, [("61", "30")])
    d.page.goto(f"{base}/director/events/{SLUG}/")
    d.button("Finish the event")
    d.button("Finish the event")
    expect(d.page.locator(".messages")).to_contain_text("The event is finished")
    assert orm(status_of) == Event.Status.FINISHED
    return str(names[0]).strip()
