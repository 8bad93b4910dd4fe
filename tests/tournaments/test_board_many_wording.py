"""The director's results board at a table of many reads as a person would say it (new-user
review after issue 13): who sent the sheet and who confirmed it, every score after its
player's name, and seats named by player and compass point, never "side A"."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from tests.tournaments.phone_factory import PLAYERS, make_table_setup
from tests.tournaments.tables_support import plain
from tournaments.presenters.scores import named_scores
from tournaments.services import claims

pytestmark = pytest.mark.django_db


def claim_lines(html: str) -> list[str]:
    return [
        html_lib.unescape(re.sub(r"\s+", " ", line).strip())
        for line in re.findall(r'<div class="muted result-claim">(.*?)</div>', html, re.S)
    ]


def test_a_confirmation_says_whose_sheet_it_confirmed_with_every_score_named() -> None:
    setup = make_table_setup("boardmany")
    match = setup.matches[0]
    sheet, scores = plain(3)
    claims.submit_claim(match=match, side=0, sheet=sheet)
    claims.confirm_claim(match=match, side=1, expected_version=1, of_side=0)
    client = Client()
    client.force_login(setup.director)
    html = client.get(f"/director/events/{setup.event.slug}/rounds/1/results/").content.decode()
    lines = claim_lines(html)
    assert len(lines) == 2  # the sender and the one confirmation; seat 2 has sent nothing
    named = ", ".join(f"{PLAYERS[seat]} {score}" for seat, score in enumerate(scores))
    assert lines[0] == f"{PLAYERS[0]} (North) sent a scoresheet ({named}): submitted"
    assert lines[1] == f"{PLAYERS[1]} (East) confirmed {PLAYERS[0]}'s sheet"
    assert "sent a scoresheet" not in lines[1]
    # each seat's link named by its player and compass point, never a side letter
    assert re.search(r"\(side [A-D]\)", html) is None
    for seat, point in enumerate(("North", "East", "South")):
        assert f"{PLAYERS[seat]}'s page ({point})" in html_lib.unescape(html)
    claims.confirm_claim(match=match, side=2, expected_version=1, of_side=0)
    done = client.get(f"/director/events/{setup.event.slug}/rounds/1/results/").content.decode()
    assert f'<span class="results-score">{named}</span>' in done
    assert f"{PLAYERS[2]} (South) confirmed {PLAYERS[0]}'s sheet" in claim_lines(done)[2]


def test_named_scores_of_two_sides_is_the_score_pair() -> None:
    class Two:
        scores_halves = None
        score_a_halves = 190
        score_b_halves = 80

    setup = make_table_setup("boardtwo")
    assert named_scores(Two(), ["A", "B"], setup.event) == "95 – 40"


def test_the_match_page_names_each_seat_its_confirmation_and_every_score() -> None:
    setup = make_table_setup("matchmany")
    match = setup.matches[0]
    sheet, scores = plain(3)
    claims.submit_claim(match=match, side=0, sheet=sheet)
    claims.confirm_claim(match=match, side=1, expected_version=1, of_side=0)
    client = Client()
    client.force_login(setup.director)
    url = f"/director/events/{setup.event.slug}/rounds/1/results/{match.pk}/"
    page = html_lib.unescape(" ".join(client.get(url).content.decode().split()))
    named = ", ".join(f"{PLAYERS[seat]} {score}" for seat, score in enumerate(scores))
    for seat, point in enumerate(("North", "East", "South")):
        assert f"<h2>{PLAYERS[seat]} ({point})</h2>" in page
    assert f"Confirmed {PLAYERS[0]}'s sheet." in page and f"Score {named}." in page
