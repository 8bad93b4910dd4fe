"""Tables of many in Debian's Chromium at 390x844 (issue 13). A table of three individual
players: a whole All Fives match whose blocked hand splits the settlement in halves, entered as a
tally on the phone of one seat's link, then confirmed by the other two players, each from their
own seat's link in their own browser; the result then stands in the database with every seat's
score and place. A table of four whose event takes most of the other players' confirmations:
the last seat sends, two of the three others confirm, and the third sees the result.

The match is the engine's own: a sheet the simulator played (``tables_support.with_halves``),
typed in tap by tap as a scorekeeper would (each scoring play, how each hand ended, the pips
left), never numbers made up here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.tiles import Tile
from tests.tournaments.phone_factory import PLAYERS, audit_flush, make_table_setup, orm  # noqa: F401
from tests.tournaments.tables_support import plain, with_halves
from tournaments.models import Claim, MatchResult
from tournaments.results_math import table_placings, to_halves

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

COMPASS = ("N", "E", "S", "W")
TALLY_BUTTONS = range(5, 40, 5)  # the page's one-tap values (raw: All Fives counts points)


def label(seat: int) -> str:
    """A seat as the page names it: the player and the compass point."""
    return f"{PLAYERS[seat]} ({COMPASS[seat]})"


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def pips(tiles: list[str]) -> int:
    return sum(Tile.parse(t).pips for t in tiles)


def shown(raw: float) -> str:
    """A raw All Fives score as the page writes it (divisor 1; a half as .5)."""
    return str(int(raw)) if raw == int(raw) else str(raw)


def enter_sheet(page: Any, sheet: dict[str, Any]) -> None:
    """Type the simulated sheet in tally form: each scoring play, then each hand's end."""
    hands = sheet["hands"]
    tap(page, label(hands[0]["leader"]))  # the first leader, chosen by lot at the table
    for i, hand in enumerate(hands):
        expect(
            page.get_by_role("heading", name=f"Hand {i + 1} · {label(hand['leader'])} led")
        ).to_be_visible()
        for move in hand["moves"]:
            score = move.get("score") or 0
            if not score:
                continue
            if score in TALLY_BUTTONS:
                tap(page, f"{label(move['seat'])} scores {score} points")
            else:
                tap(page, "Other…")
                page.get_by_label("Another score, in points").fill(str(score))
                tap(page, f"to {label(move['seat'])}")
        if "end" not in hand:  # the target ended the match during the hand
            continue
        finisher = hand.get("finisher")
        tap(
            page,
            f"{label(finisher)} dominoed" if finisher is not None else "Blocked (nobody can play)",
        )
        for seat, tiles in enumerate(hand["remaining"]):
            if seat != finisher:
                page.get_by_label(label(seat), exact=True).fill(str(pips(tiles)))
        tap(page, f"Settle hand {i + 1}")
        if hand["end"] == "blocked" and i + 1 < len(hands):
            # the settlement, in halves, as the page shows every other score
            split = ", ".join(
                f"{PLAYERS[s]} +{shown(v)}" for s, v in enumerate(hand["settlement"]) if v
            )
            expect(page.locator("#settlement")).to_have_text(f"Settlement: {split}.")
            tap(page, label(hands[i + 1]["leader"]))  # the next leader, by lot


def seat_page(
    browser: Any, live_server: Any, setup: Any, seat: int, **options: Any
) -> tuple[Any, Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, **options
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + setup.path(0, side=seat))
    return context, page


def test_three_players_enter_and_confirm_an_all_fives_match_split_in_halves(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(make_table_setup, "cutthroat")
    sheet, scores = with_halves(3)
    settled = [x for h in sheet["hands"] for x in h.get("settlement", [])]
    assert any(x != int(x) for x in settled)  # a hand split in halves
    halves = [to_halves(s) for s in scores]
    places = table_placings(halves)
    winner = scores.index(max(scores))

    # Seat A (Ana, North) keeps the sheet on her phone, from her own seat's link.
    phone.goto(live_server.url + setup.path(0, side=0))
    expect(phone.locator("h1")).to_have_text("Table 1 · Round 1")
    expect(phone.locator("#my-team")).to_have_text(f"{PLAYERS[0]}'s phone")
    expect(phone.locator("#board .row")).to_have_count(3)
    phone.screenshot(path=str(artifacts / "01-seat-a-start.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    enter_sheet(phone, sheet)

    # The match is over: the engine's winner and every final score, halves as the page shows
    # them everywhere (the scorebar too).
    expect(phone.locator("#winner")).to_have_text(f"{PLAYERS[winner]} wins.")
    for seat in range(3):
        expect(phone.locator(f'#board .score[data-entity="{seat}"]')).to_have_text(
            shown(scores[seat])
        )
        expect(phone.locator("#final-scores")).to_contain_text(
            f"{PLAYERS[seat]} {shown(scores[seat])}"
        )
    phone.screenshot(path=str(artifacts / "02-seat-a-match-over.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    tap(phone, f"Submit as {PLAYERS[0]}")
    expect(phone.locator("#claim-pending-A")).to_contain_text(f"{PLAYERS[0]} sent the result")
    expect(phone.locator("#confirmations")).to_contain_text("2 more confirmations needed")
    expect(phone.locator("#waiting-for-other")).to_be_visible()
    expect(phone.locator('[data-action="confirm"]')).to_have_count(0)  # never its own claim
    phone.screenshot(path=str(artifacts / "03-seat-a-sent.png"), full_page=True)
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0], side=0))
    assert (claim.status, claim.verified, claim.scores_halves) == ("submitted", True, halves)

    # Seat B (Ben, East), on his own phone: the sheet hand by hand, the places, his Confirm.
    ctx_b, page_b = orm(seat_page, browser, live_server, setup, 1)
    try:
        pending = page_b.locator("#claim-pending-A")
        expect(pending).to_contain_text(f"{PLAYERS[0]} sent the result")
        rows = page_b.locator("#claim-placings li")
        expect(rows).to_have_count(3)
        ranked = sorted(range(3), key=lambda s: (places[s], s))
        for k, seat in enumerate(ranked):
            expect(rows.nth(k)).to_contain_text(f"{PLAYERS[seat]} {shown(scores[seat])}")
        expect(page_b.locator(".claim-hands li")).to_have_count(len(sheet["hands"]))
        expect(page_b.locator(".claim-hands")).to_contain_text("+2.5")  # the split, per hand
        expect(page_b.locator(".claim-hands .after").last).to_have_text(
            "After the hand: " + " · ".join(f"{PLAYERS[s]} {shown(scores[s])}" for s in range(3))
        )
        page_b.screenshot(path=str(artifacts / "04-seat-b-sees-the-sheet.png"), full_page=True)
        tap(page_b, f"Confirm as {PLAYERS[1]}")
        expect(page_b.locator("#confirmations")).to_contain_text(
            f"Confirmed by {PLAYERS[1]}. 1 more confirmation needed"
        )
        expect(page_b.locator("#waiting-for-other")).to_contain_text("You have confirmed it")
        page_b.screenshot(path=str(artifacts / "05-seat-b-confirmed.png"), full_page=True)
        assert orm(lambda: not MatchResult.objects.filter(match=setup.matches[0]).exists())

        # Seat C (Cruz, South), on a third phone: the last confirmation agrees the result.
        ctx_c, page_c = orm(seat_page, browser, live_server, setup, 2)
        try:
            expect(page_c.locator("#confirmations")).to_contain_text("1 more confirmation needed")
            tap(page_c, f"Confirm as {PLAYERS[2]}")
            expect(page_c.locator("#claim-confirmed")).to_contain_text("Result confirmed")
            expect(page_c.locator("#my-place")).to_have_text(
                f"You placed {['1st', '2nd', '3rd'][places[2] - 1]}."
            )
            page_c.screenshot(path=str(artifacts / "06-seat-c-result.png"), full_page=True)
        finally:
            ctx_c.close()
        # Every phone at the table sees the result (the fragment polls).
        expect(page_b.locator("#claim-confirmed")).to_be_visible(timeout=20_000)
    finally:
        ctx_b.close()
    expect(phone.locator("#claim-confirmed")).to_be_visible(timeout=20_000)
    expect(phone.locator("#my-place")).to_have_text(
        f"You placed {['1st', '2nd', '3rd'][places[0] - 1]}."
    )
    phone.screenshot(path=str(artifacts / "07-seat-a-result.png"), full_page=True)

    result = orm(lambda: MatchResult.objects.get(match=setup.matches[0], is_current=True))
    assert result.source == MatchResult.Source.AGREED and result.verified
    assert result.scores_halves == halves
    assert result.placings == places
    assert result.winner_side == winner
    assert [result.score_a_halves, result.score_b_halves] == halves[:2]


def test_a_table_of_four_agreed_by_most_of_the_other_players(
    live_server: Any, phone: Any, browser: Any, artifacts: Path
) -> None:
    setup = orm(
        make_table_setup, "fourway", sizes=(4,), table_size=4, table_confirmation="majority"
    )
    sheet, scores = plain(4)
    halves = [to_halves(s) for s in scores]
    places = table_placings(halves)

    # Seat D (Dee, West) keeps the sheet and sends it.
    phone.goto(live_server.url + setup.path(0, side=3))
    expect(phone.locator("#board .row")).to_have_count(4)
    enter_sheet(phone, sheet)
    tap(phone, f"Submit as {PLAYERS[3]}")
    expect(phone.locator("#claim-pending-D")).to_contain_text(f"{PLAYERS[3]} sent the result")
    expect(phone.locator("#confirmations")).to_contain_text(
        "2 more confirmations needed (most of the other players confirm: 2 of 3)"
    )

    # Seat A reads the sheet hand by hand (a seat past the match's two sides) and confirms.
    ctx_a, page_a = orm(seat_page, browser, live_server, setup, 0)
    try:
        expect(page_a.locator(".claim-hands li")).to_have_count(len(sheet["hands"]))
        page_a.screenshot(path=str(artifacts / "01-seat-a-sees-seat-d-sheet.png"), full_page=True)
        tap(page_a, f"Confirm as {PLAYERS[0]}")
        expect(page_a.locator("#confirmations")).to_contain_text("1 more confirmation needed")
    finally:
        ctx_a.close()
    # Seat B confirms: two of three, the result stands; seat C only reads it.
    ctx_b, page_b = orm(seat_page, browser, live_server, setup, 1)
    try:
        tap(page_b, f"Confirm as {PLAYERS[1]}")
        expect(page_b.locator("#claim-confirmed")).to_be_visible()
    finally:
        ctx_b.close()
    ctx_c, page_c = orm(seat_page, browser, live_server, setup, 2, locale="es-ES")
    try:
        expect(page_c.locator("#claim-confirmed")).to_contain_text("Resultado confirmado")
        expect(page_c.locator('[data-action="confirm"]')).to_have_count(0)
        expect(page_c.locator("#placings li")).to_have_count(4)
        page_c.screenshot(path=str(artifacts / "02-seat-c-reads-the-result-es.png"), full_page=True)
    finally:
        ctx_c.close()
    result = orm(lambda: MatchResult.objects.get(match=setup.matches[0], is_current=True))
    assert (result.scores_halves, result.placings) == (halves, places)
    assert orm(lambda: not Claim.objects.filter(match=setup.matches[0], side=2).exists())


def test_a_final_score_only_at_a_table_of_three_takes_a_half(live_server: Any, phone: Any) -> None:
    setup = orm(make_table_setup, "finalonly", allow_final_score_only=True)
    _, scores = with_halves(3)
    phone.goto(live_server.url + setup.path(0, side=2))  # seat C's link
    tap(phone, "Enter the final score only (unverified)")
    typed = [shown(s).replace(".", ",") for s in scores]  # as a Spanish keyboard types them
    typed_wrong = typed[:]
    typed_wrong[0] = "62.7"
    for seat, text in enumerate(typed_wrong):
        phone.get_by_label(f"{PLAYERS[seat]} (points)").fill(text)
    expect(phone.locator("#final-error")).to_have_text(
        "Type each player's final score in points (a half as .5)."
    )
    phone.get_by_label(f"{PLAYERS[0]} (points)").fill(typed[0])  # the rest is kept as typed
    expect(phone.get_by_label(f"{PLAYERS[1]} (points)")).to_have_value(typed[1])
    expect(phone.locator("#final-error")).to_have_text("")
    tap(phone, f"Submit as {PLAYERS[2]}")
    expect(phone.locator("#claim-pending-C")).to_contain_text("final score only, unverified")
    claim = orm(lambda: Claim.objects.get(match=setup.matches[0], side=2))
    assert (claim.kind, claim.verified) == ("final_score", False)
    assert claim.scores_halves == [to_halves(s) for s in scores]
