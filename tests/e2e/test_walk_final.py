"""The demo's best-of-3 final on two phones (390x844) in Debian's Chromium, then the finish.

From ``manage.py demo`` played on (``finish_demo(until=...)``, the director's moves through the
services) up to the final's round published: each partnership's phone opens its own side's table
link; the games are entered as a tally on one side's phone and confirmed on the other's, the
sides taking turns; both pages move on to game 2 and game 3 by themselves. The director then
finishes the event from the desk, and the public event page leads with the champion.

Screenshots go to the test's artifacts folder; with SPINNER_UPDATE_SCREENS=1 they are also written
to docs/screens/ (``walk-final-game2-390.png``, ``walk-finish-390.png``,
``walk-champion-390.png``, listed in its README.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_rounds import no_sideways_scroll
from tests.tournaments.phone_factory import audit_flush, orm  # noqa: F401
from tournaments.management.commands.demo import build_demo, finish_demo
from tournaments.models import Event, Match, Round
from tournaments.services.table_links import table_link_path

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
FINAL = "W3-1"  # the final of the demo's 8-team bracket


def shot(page: Any, artifacts: Path, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(artifacts / name), full_page=full)
    if os.environ.get("SPINNER_UPDATE_SCREENS") == "1" and name.startswith("walk-"):
        page.screenshot(path=str(SCREENS / name), full_page=full)


def final_published(event: Event) -> bool:
    return Match.objects.filter(
        round__event=event, bracket_slot=FINAL, round__status=Round.Status.PUBLISHED
    ).exists()


def demo_at_the_final() -> list[str]:
    """The demo played by its director's moves up to the final's round, published; the final
    table's two side links."""
    ctx, _ = build_demo()
    finish_demo(ctx, until=final_published)
    final = Match.objects.select_related("round", "table").get(
        round__event=ctx.event, bracket_slot=FINAL, game_no=1
    )
    assert final.table is not None and final.best_of == 3
    return [table_link_path(round_=final.round, table=final.table, side=s) for s in (0, 1)]


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def seat_labels(page: Any) -> list[str]:
    """The seats' button labels as the page names them: "Player (N)"."""
    cfg = page.evaluate("JSON.parse(document.getElementById('phone-config').textContent)")
    return [f"{s['player']} ({s['compass']})" for s in cfg["seats"]]


def enter_game(page: Any, winner: int) -> None:
    """A game to 61 entered as a tally: side ``winner``'s two players (seats ``winner`` and
    ``winner + 2``) score 7 points a tap, four taps a hand, and the first of them goes out
    (3 pips left in each other hand); hand 3's two taps and settlement pass the target."""
    seats = seat_labels(page)
    team = [seats[winner], seats[winner + 2]]
    leader = page.get_by_role("button", name=team[0], exact=True)
    if leader.count():  # the page asks who leads the first hand (else the round's lot chose)
        leader.click()
    for hand in (1, 2, 3):
        expect(page.get_by_role("heading", name=f"Hand {hand} · ")).to_be_visible()
        for seat in team * (2 if hand < 3 else 1):
            tap(page, f"{seat} scores 7 points")
        tap(page, f"{team[0]} dominoed")
        for seat in range(4):
            if seats[seat] != team[0]:
                expect(page.locator(f"#pips-{seat}")).to_be_focused()
                page.keyboard.type("3")
                page.keyboard.press("Enter")
    expect(page.locator("#winner")).to_be_visible()


def side_names(page: Any) -> list[str]:
    cfg = page.evaluate("JSON.parse(document.getElementById('phone-config').textContent)")
    return list(cfg["side_names"])


def play_game(phones: list[Any], game: int, winner: int) -> None:
    """Game ``game`` of the final: side ``winner``'s phone enters and sends it, the other side's
    phone confirms it (its Confirm button in view)."""
    claimer, other = phones[winner], phones[1 - winner]
    for page in phones:
        expect(page.locator("#game-line")).to_contain_text(f"Game {game} of 3", timeout=25_000)
    names = side_names(claimer)
    enter_game(claimer, winner)
    tap(claimer, f"Submit as {names[winner]}")
    expect(claimer.locator("#waiting-for-other")).to_be_visible()
    confirm = other.get_by_role("button", name=f"Confirm for {names[1 - winner]}", exact=True)
    expect(confirm).to_be_visible(timeout=25_000)  # the other phone polls its claim status
    confirm.scroll_into_view_if_needed()
    expect(confirm).to_be_in_viewport(ratio=1)
    confirm.click()


def test_the_demo_final_on_two_phones_then_the_director_finishes(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    paths = orm(demo_at_the_final)
    contexts = [
        browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        for _ in range(2)
    ]
    try:
        phones = [c.new_page() for c in contexts]
        for page, path in zip(phones, paths, strict=True):
            page.set_default_timeout(15_000)
            page.goto(live_server.url + path)
        expect(phones[0].locator("#game-line")).to_have_text("Game 1 of 3 · series 0–0")
        play_game(phones, 1, winner=0)
        # Both phones move on to game 2 by themselves, on a blank sheet.
        for page in phones:
            expect(page.locator("#game-line")).to_have_text(
                "Game 2 of 3 · series 1–0", timeout=25_000
            )
            expect(page.locator("#winner")).to_have_count(0)
            no_sideways_scroll(page)
        shot(phones[1], artifacts, "walk-final-game2-390.png")
        play_game(phones, 2, winner=1)
        play_game(phones, 3, winner=0)
        for page in phones:  # the series is decided 2–1: nothing more at this table
            expect(page.locator("#claim-confirmed")).to_contain_text(
                "Result confirmed", timeout=25_000
            )
            expect(page.locator("#game-line")).to_contain_text("Game 3 of 3")
        champion = side_names(phones[0])[0]
    finally:
        for c in contexts:
            c.close()
    finish_from_the_desk(live_server, phone, artifacts, champion)
    # Finishing closed the final's round: a side's link shows the table's result, read only.
    phone.goto(live_server.url + paths[1])
    expect(phone.locator("#round-closed")).to_contain_text("Round 8 is closed")
    expect(phone.locator("#claim-confirmed")).to_contain_text(f"{champion} wins")
    no_sideways_scroll(phone)
    shot(phone, artifacts, "final-link-after-closing.png")


def finish_from_the_desk(live_server: Any, phone: Any, artifacts: Path, champion: str) -> None:
    """The director logs in on a phone, finishes the event from the desk; the public event
    page leads with the champion."""
    phone.goto(live_server.url + "/accounts/login/?next=/director/events/demo/")
    phone.get_by_label("Username").fill("director")
    phone.get_by_label("Password").fill("director")
    phone.get_by_role("button", name="Log in").click()
    expect(phone.get_by_role("heading", name="The final is decided")).to_be_visible()
    phone.get_by_role("button", name="Finish the event").click()
    expect(phone.get_by_role("heading", name="Finish Spinner Winter Open?")).to_be_visible()
    expect(phone.locator(".confirm-step")).to_contain_text(f"with {champion} as champion")
    no_sideways_scroll(phone)
    shot(phone, artifacts, "walk-finish-390.png")
    phone.get_by_role("button", name="Finish the event").click()
    expect(phone.locator(".messages")).to_contain_text("The event is finished")
    expect(phone.locator(".desk")).to_contain_text("The event is finished.")

    phone.goto(live_server.url + "/events/demo/")
    banner = phone.get_by_test_id("champion")
    expect(banner).to_contain_text(champion)
    box = banner.bounding_box()
    assert box is not None and box["y"] + box["height"] < 844  # on the first screen
    no_sideways_scroll(phone)
    shot(phone, artifacts, "walk-champion-390.png")
