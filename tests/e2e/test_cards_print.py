"""Table cards printed at A4 (new-user review after issue 13): a table of four's card, four QR
codes and their links, fits inside its frame, and two cards share one A4 page (four would, since
issue 30). Measured in Debian's Chromium with print media emulated at the printed width, and in
the PDF it prints."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_rounds import clean_teardown
from tests.tournaments.phone_factory import PLAYERS, audit_flush, make_table_setup  # noqa: F401

__all__ = ["clean_teardown"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A4_PRINTED_WIDTH = 733  # px at 96 dpi: 210 mm less the cards' 8 mm page margins each side

OVERFLOW = """() => [...document.querySelectorAll('article.card')].map(card => {
  const box = card.getBoundingClientRect();
  const out = [...card.querySelectorAll('*')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5;
  });
  return {table: card.getAttribute('aria-label'), codes: card.querySelectorAll('svg.qr').length,
          out: out.map(e => e.tagName + '.' + e.className)};
})"""


def test_a_table_of_fours_card_fits_its_frame_at_a4(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    setup = make_table_setup("printfour", sizes=(4, 3))
    match = setup.matches[0]
    first = match.seats.get(side=0).entry.player
    match.explanation = {"first_leader": {"player": first.pk, "draw": {}}}
    match.save(update_fields=["explanation"])
    phone.goto(f"{live_server.url}/director/events/{setup.event.slug}/")
    phone.get_by_label("Username").fill("dir-printfour")
    phone.get_by_label("Password").fill("pw-director-1")
    phone.get_by_role("button", name="Log in").click()
    phone.goto(f"{live_server.url}/director/events/{setup.event.slug}/rounds/1/cards/")
    lead = phone.locator("article.card p.lead").first.inner_text()
    assert lead == f"First hand led by North: {PLAYERS[0]} (drawn by lot)."
    phone.emulate_media(media="print")
    phone.set_viewport_size({"width": A4_PRINTED_WIDTH, "height": 1100})
    cards = phone.evaluate(OVERFLOW)
    assert [c["codes"] for c in cards] == [4, 3]
    assert [c["out"] for c in cards] == [[], []], cards
    phone.screenshot(path=str(artifacts / "cards-print-a4.png"), full_page=True)
    pdf = phone.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1  # two cards, one A4 page
