"""Player pages across events, their visibility, the search, and the team page's players."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.players_support import entry_of, make_player, two_events
from tournaments.models import Event
from tournaments.ratings_scale import display_rating
from tournaments.services import players as services

pytestmark = pytest.mark.django_db


def _page(client: Client, player_id: int) -> str:
    response = client.get(f"/players/{player_id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_player_page_shows_both_events_partners_results_and_placings() -> None:
    w = two_events()
    html = _page(Client(), w.ana.pk)
    assert "Spring Open" in html and "Summer Cup" in html
    assert html.index("Summer Cup") < html.index("Spring Open")  # newest first
    assert f'href="/players/{w.bob.pk}/"' in html and f'href="/players/{w.ed.pk}/"' in html
    assert "Final place: 1" in html  # Spring's frozen placing
    assert "Current place: 1" in html  # Summer's current rank
    assert "v Cy &amp; Di" in html and "won 61–40" in html  # displayed points, not raw 305
    assert "v Fay &amp; Gus" in html and 'class="badge forfeit"' in html
    assert "ana@example.org" not in html and "0700 1" not in html  # contact never public
    assert "Not rated yet" in html


def test_the_rating_block_shows_the_display_scale() -> None:
    w = two_events()
    w.ana.rating_mu, w.ana.rating_sigma, w.ana.rated_games = 27.5, 2.0, 7
    w.ana.save()
    html = _page(Client(), w.ana.pk)
    assert display_rating(27.5, 2.0) == (1600, 160)
    assert "<strong>1600</strong>" in html and "± 160" in html and "7 rated games" in html


def test_a_private_or_draft_event_is_not_shown_and_nothing_public_is_a_404() -> None:
    w = two_events()
    Event.objects.filter(pk=w.summer.pk).update(public_listing=False)
    html = _page(Client(), w.ana.pk)
    assert "Spring Open" in html and "Summer Cup" not in html
    assert Client().get(f"/players/{w.ed.pk}/").status_code == 404  # Ed played Summer only
    # Their directors still see it.
    boss = Client()
    boss.force_login(w.boss)
    assert "Summer Cup" in _page(boss, w.ana.pk)
    Event.objects.filter(pk=w.spring.pk).update(status=Event.Status.DRAFT)
    assert Client().get(f"/players/{w.ana.pk}/").status_code == 404


def test_private_results_hide_the_scores_but_not_the_matches() -> None:
    w = two_events()
    Event.objects.filter(pk=w.spring.pk).update(public_results=False)
    html = _page(Client(), w.ana.pk)
    spring = html[html.index("Spring Open") :]
    assert "v Cy &amp; Di" in spring and "61–40" not in spring
    assert "Final place: 1" in spring  # the podium is public with the standings


def test_a_merged_player_redirects_to_the_survivor() -> None:
    w = two_events()
    twin = make_player("Ana Ramirez")
    services.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.ana.pk)
    response = Client().get(f"/players/{twin.pk}/")
    assert response.status_code == 301 and response["Location"] == f"/players/{w.ana.pk}/"


@pytest.mark.parametrize(
    ("query", "found"),
    [("Ramirez", True), ("ramírez", True), ("ANA", True), ("  ana   ram", True), ("mire", False)],
)
def test_search_ignores_accents_and_case(query: str, found: bool) -> None:
    w = two_events()
    response = Client().get("/players/", {"q": query})
    assert response.status_code == 200
    assert (f'href="/players/{w.ana.pk}/"' in response.content.decode()) is found


def test_search_finds_upper_case_from_an_accented_query() -> None:
    w = two_events()
    shouty = make_player("JOSE RAMIREZ")
    entry_of(w.spring, "Jose & Kim", shouty, make_player("Kim Do"))
    html = Client().get("/players/", {"q": "ramírez"}).content.decode()
    assert f'href="/players/{shouty.pk}/"' in html and f'href="/players/{w.ana.pk}/"' in html


def test_search_leaves_out_merged_rows_and_players_with_nothing_public() -> None:
    w = two_events()
    hidden = make_player("Ana Hidden")  # in no event
    twin = make_player("Ana Twin")
    entry_of(w.summer, "Twin & Lu", twin, make_player("Lu Wu"))
    services.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.bob.pk)
    html = Client().get("/players/", {"q": "ana"}).content.decode()
    assert f'href="/players/{w.ana.pk}/"' in html
    assert f'href="/players/{hidden.pk}/"' not in html and f'href="/players/{twin.pk}/"' not in html


def test_search_pages() -> None:
    w = two_events()
    for n in range(30):
        entry_of(w.spring, f"T{n}", make_player(f"Zed {n:02}"), make_player(f"Yan {n:02}"))
    first = Client().get("/players/", {"q": "zed"}).content.decode()
    assert "30 players found" in first and "Page 1 of 2" in first and "Zed 24" in first
    second = Client().get("/players/", {"q": "zed", "page": 2}).content.decode()
    assert "Zed 25" in second and "Zed 00" not in second


def test_the_events_list_has_the_search_box() -> None:
    html = Client().get("/events/").content.decode()
    assert 'action="/players/"' in html and 'name="q"' in html


def test_the_team_page_lists_its_players_with_links() -> None:
    w = two_events()
    html = Client().get(f"/events/summer/teams/{w.summer_entry.pk}/").content.decode()
    assert f'<a href="/players/{w.ana.pk}/">Ana Ramírez</a>' in html
    assert f'<a href="/players/{w.ed.pk}/">Ed Obi</a>' in html
    Event.objects.filter(pk=w.summer.pk).update(public_listing=False)
    html = Client().get(f"/events/summer/teams/{w.summer_entry.pk}/").content.decode()
    assert f'href="/players/{w.ana.pk}/"' in html  # Ana has Spring
    assert f'href="/players/{w.ed.pk}/"' not in html and "Ed Obi" in html  # no page to link


def test_search_survives_odd_queries() -> None:
    two_events()
    for query in ("%", "_", "x" * 500):
        assert Client().get("/players/", {"q": query}).status_code == 200
    assert Client().get("/players/", {"q": "a\x00"}).status_code == 400  # the NUL middleware
    assert "No player found" in Client().get("/players/", {"q": "%"}).content.decode()
