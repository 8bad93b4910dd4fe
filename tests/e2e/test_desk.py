"""Issue 14's control desk in Chromium: the director's desk, the results board and the
confirmation steps at 390x844, and the projector at 1920x1080 paging through 26 teams.

Screenshots go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 they are also written
to docs/screens/desk/ (committed, listed in its README.md)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.tournaments.desk_support import states_round
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round

__all__ = ["clean_teardown"]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "desk"


def shot(page: Any, artifacts: Path, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(artifacts / name), full_page=full)
    if os.environ.get("SPINNER_UPDATE_SCREENS") == "1":
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / name), full_page=full)


def log_in(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_label("Username").fill("dana")
    page.get_by_label("Password").fill("pw-for-tests-123")
    page.get_by_role("button", name="Log in").click()


@pytest.mark.django_db(transaction=True)
def test_the_desk_and_the_board_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None, settings: Any
) -> None:
    # Printed cards use SPINNER_BASE_URL; the board must not: it uses the address of the request.
    settings.SPINNER_BASE_URL = "http://printed.example:8000"
    event, _, _, matches = states_round("desk-open")
    log_in(phone, f"{live_server.url}/director/events/{event.slug}/")

    # The desk leads with now: the round in play, its clock, and the counts as links.
    desk = phone.locator("section.desk")
    desk.wait_for()
    assert "Round 1 in play" in desk.inner_text()
    assert re.search(r"\d+:\d\d left", desk.inner_text())
    box = desk.bounding_box()
    assert box is not None and box["y"] < 844  # on the first screen
    no_sideways_scroll(phone)
    shot(phone, artifacts, "01-desk.png")

    # One tap on "1 conflicting": the board, only the conflict.
    phone.locator("a.desk-count.conflict").click()
    phone.wait_for_url(re.compile(r"/rounds/1/results/\?state=conflict$"))
    cards = phone.locator("li.result-card")
    assert cards.count() == 1 and cards.first.get_attribute("data-state") == "conflict"
    conflict = matches["conflict"]
    assert conflict.entry_b is not None
    assert f"{conflict.entry_a.name} sent a final score" in cards.first.inner_text()
    no_sideways_scroll(phone)
    shot(phone, artifacts, "02-board-conflicts.png")

    # Every table, most urgent first, each with a link on the host the director used.
    phone.get_by_role("link", name="Show every table").click()
    phone.wait_for_url(re.compile(r"/rounds/1/results/$"))
    states = [c.get_attribute("data-state") for c in phone.locator("li.result-card").all()]
    assert states == ["conflict", "missing", "pending", "confirmed"]
    links = phone.locator("li.result-card a.table-link")
    assert links.count() == 8  # both sides of four tables
    for link in links.all():
        href = link.get_attribute("href") or ""
        assert href.startswith(f"{live_server.url}/t/"), href
        assert "printed.example" not in href
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390 and box["height"] >= 40
    no_sideways_scroll(phone)
    shot(phone, artifacts, "03-board.png", full=True)

    # A table link is clickable: it opens that table's page.
    with phone.context.expect_page() as opened:
        links.first.click()
    table_page = opened.value
    table_page.wait_for_load_state()
    assert table_page.url.startswith(f"{live_server.url}/t/")
    assert "Table" in table_page.title() or table_page.locator("body").inner_text()
    table_page.close()

    # Every director page reaches the board in one tap.
    for path in ("audit/", "entries/", "rounds/", "standings/", "rounds/1/"):
        phone.goto(f"{live_server.url}/director/events/{event.slug}/{path}")
        phone.locator("nav.subnav").get_by_role("link", name="Results").click()
        phone.wait_for_url(re.compile(r"/rounds/1/results/$"))

    # The audit log in sentences, in displayed points, no raw data.
    phone.goto(f"{live_server.url}/director/events/{event.slug}/audit/")
    text = phone.locator("ol.audit-log").inner_text()
    confirmed = matches["confirmed"]
    assert confirmed.table is not None
    assert f"dana overrode table {confirmed.table.number}" in text
    assert "61–40" in text and "reason: “board count”" in text
    assert "dana started round 1's clock." in text
    assert "{" not in text and "305" not in text
    no_sideways_scroll(phone)
    shot(phone, artifacts, "04-audit.png")


@pytest.mark.django_db(transaction=True)
def test_close_publish_and_undo_check_in_ask_first(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    from tournaments.models import Entry, Round
    from tournaments.services import round_generation

    event = make_event(slug="confirm-open")
    boss = make_director(event, "dana")
    teams = make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    review = f"{live_server.url}/director/events/{event.slug}/rounds/1/"
    log_in(phone, review)

    phone.get_by_role("button", name="Publish round 1").click()
    phone.get_by_role("heading", name="Publish round 1?").wait_for()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT  # asking did not publish
    no_sideways_scroll(phone)
    shot(phone, artifacts, "05-confirm-publish.png")
    phone.get_by_role("link", name="Cancel").click()
    phone.wait_for_url(review)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT
    phone.get_by_role("button", name="Publish round 1").click()
    phone.get_by_role("button", name="Yes, publish round 1").click()
    phone.get_by_text("Round 1 is published.").wait_for()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED

    settle_round(rnd, boss)
    phone.goto(review)
    phone.get_by_role("button", name="Close round 1").click()
    phone.get_by_role("heading", name="Close round 1?").wait_for()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    shot(phone, artifacts, "06-confirm-close.png")
    phone.get_by_role("button", name="Yes, close round 1", exact=True).click()
    phone.get_by_text("Round 1 is closed.").wait_for()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED

    # Undo check-in: the row asks in place (htmx); nothing changes until "Yes".
    team = teams[0]
    phone.goto(f"{live_server.url}/director/events/{event.slug}/entries/")
    row = phone.locator(f"#entry-{team.pk}")
    row.get_by_role("button", name=f"Undo check-in of {team.name}").click()
    yes = phone.get_by_role("button", name=f"Yes, undo the check-in of {team.name}")
    yes.wait_for()
    assert Entry.objects.get(pk=team.pk).status == Entry.Status.CHECKED_IN
    no_sideways_scroll(phone)
    shot(phone, artifacts, "07-confirm-undo-check-in.png")
    yes.click()
    phone.get_by_role("button", name=f"Check in {team.name}").wait_for()
    assert Entry.objects.get(pk=team.pk).status == Entry.Status.REGISTERED


@pytest.mark.django_db(transaction=True)
def test_the_projector_pages_through_26_teams_at_1920x1080(
    live_server: Any, browser: Any, artifacts: Path, clean_teardown: None
) -> None:
    from tournaments.models import Entry
    from tournaments.services import round_generation, round_status

    event = make_event(slug="hall-open", public_pairings=True, public_standings=True)
    boss = make_director(event, "dana")
    make_field(event, 26)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=second, actor=boss)
    names = set(Entry.objects.filter(event=event).values_list("name", flat=True))

    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    wall = context.new_page()
    wall.set_default_timeout(30_000)
    seen: dict[str, set[str]] = {"standings": set(), "pairings": set(), "seats": set()}
    labels: dict[str, str] = {}
    start = f"{live_server.url}/events/{event.slug}/projector/?view=standings&page=1"
    url = start
    screens = 0
    try:
        for _ in range(40):
            wall.goto(url)
            screens += 1
            view = (wall.locator("body").get_attribute("class") or "").split("view-")[-1]
            labels.setdefault(view, wall.locator(".round-label").inner_text())
            page_no = wall.locator(".page-no").inner_text().replace(" ", "").replace("/", "-")
            text = wall.locator("main").inner_text()
            seen[view] |= {n for n in names if n in text}
            # Readable from 10 m: big type, nothing underlined, nothing below the fold.
            size = wall.evaluate(
                "parseFloat(getComputedStyle(document.querySelector('main td, main li, main p'))"
                ".fontSize)"
            )
            assert size >= 40, (view, size)
            assert wall.evaluate("document.documentElement.scrollHeight") <= 1080, (view, page_no)
            assert wall.evaluate("document.documentElement.scrollWidth") <= 1920
            assert wall.evaluate(
                "[...document.querySelectorAll('*')].every(e => !getComputedStyle(e)"
                ".textDecorationLine.includes('underline'))"
            )
            background = wall.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(0, 0, 0)"
            shot(wall, artifacts, f"08-projector-{view}-{page_no}.png")
            refresh = wall.locator('meta[http-equiv="refresh"]').get_attribute("content") or ""
            url = live_server.url + refresh.split("url=", 1)[1]
            if url == start:
                break
        assert url == start, "the screens come back round to the first"
        assert seen["standings"] == names, names - seen["standings"]
        assert seen["pairings"] == names, names - seen["pairings"]
        assert seen["seats"] == names, names - seen["seats"]
        assert labels["standings"] == "Standings after round 1, round 2 in play"
        assert labels["pairings"] == "Round 2 in play: pairings"
        assert labels["seats"] == "Where do I sit? Round 2 in play"
        # The screens turn by themselves (a meta refresh, no script): wait for one turn.
        wall.goto(start)
        wall.wait_for_url(re.compile(r"view=standings&page=2"), timeout=30_000)
    finally:
        context.close()
    # Opened on a phone, every screen fits its width (smaller type, the bar wrapping).
    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = phone_context.new_page()
    try:
        for view in ("standings", "pairings", "seats"):
            phone.goto(f"{live_server.url}/events/{event.slug}/projector/?view={view}&page=1")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, view
            shot(phone, artifacts, f"08-projector-phone-{view}.png")
    finally:
        phone_context.close()
    assert screens >= 5  # 26 teams: three standings screens, two of pairings, three of seats
