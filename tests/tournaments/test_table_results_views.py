"""The director's pages at a table of many (issue 13): the board and the match page name every
player, the conflict resolves by a seat's claim, and a result is entered and corrected with
every player's score (what was typed kept when something is missing)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests import factories
from tests.tournaments.tables_support import (
    make_event,
    make_round,
    plain,
    table_at,
    tied_below_the_winner,
)
from tournaments.models import MatchResult
from tournaments.services import claims

pytestmark = pytest.mark.django_db


def test_the_director_resolves_a_table_of_three_by_a_players_claim() -> None:
    event = make_event()
    director = factories.make_director(event, "dir")
    match = table_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, sheet=plain(3)[0])
    claims.submit_claim(match=match, side=2, sheet=tied_below_the_winner(3)[0])
    client = Client()
    client.force_login(director)
    board = client.get(f"/director/events/{event.slug}/rounds/1/results/")
    assert board.status_code == 200
    listed = board.content.decode()
    assert re.findall(r'data-state="(\w+)"', listed) == ["conflict"]
    names = list(match.seats.order_by("side").values_list("entry__name", flat=True))
    assert ", ".join(names) in listed and "#forfeit" not in listed
    # every seat's own link, named by its compass point (North, East, South), never "side A"
    assert [f"({x})" in listed for x in ("North", "East", "South", "West")] == [
        True,
        True,
        True,
        False,
    ]
    assert "(side A)" not in listed
    base = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/"
    page = client.get(base)
    html = page.content.decode()
    assert page.status_code == 200 and ", ".join(names) in html
    assert all(f'<option value="{seat}">' in html for seat in range(3))
    assert 'id="forfeit"' not in html  # a forfeit is a two-sided result
    done = client.post(base + "resolve/", {"side": "2", "reason": "seat C's sheet"})
    assert done.status_code == 302
    result = MatchResult.objects.get(match=match)
    assert result.claim is not None and result.claim.side == 2
    assert sorted(result.placings or []) == [1, 2, 2]
    after = client.get(base).content.decode()
    assert after.count("Place 2") == 2 and after.count("Place 1") == 1


def test_the_director_enters_every_players_score() -> None:
    event = make_event(table_size=4)
    director = factories.make_director(event, "dir")
    match = table_at(make_round(event, (4,)), 1)
    client = Client()
    client.force_login(director)
    url = f"/director/events/{event.slug}/rounds/1/results/{match.pk}/enter/"
    page = client.get(url.removesuffix("enter/")).content.decode()
    assert all(f'name="score_{x}"' in page for x in "abcd")
    short = client.post(url, {"score_a": "60", "score_b": "40", "score_c": "55", "reason": "paper"})
    assert short.status_code == 400
    text = short.content.decode()
    assert "every player" in text and 'value="55"' in text and "paper" in text
    assert not MatchResult.objects.exists()
    done = client.post(
        url,
        {"score_a": "60", "score_b": "40", "score_c": "55", "score_d": "40", "reason": "paper"},
    )
    assert done.status_code == 302
    result = MatchResult.objects.get(match=match)
    assert result.scores_halves == [120, 80, 110, 80] and result.placings == [1, 3, 2, 3]
    page = client.get(url.removesuffix("enter/")).content.decode()
    names = list(match.seats.order_by("side").values_list("entry__name", flat=True))
    named = ", ".join(f"{n} {s}" for n, s in zip(names, (60, 40, 55, 40), strict=True))
    assert f"confirmed <strong>{named}</strong>" in page  # each score after its player's name
