"""The public bracket page (``/events/<slug>/bracket/``), a finished event's public page and the
director's "Finish the event" (``views/bracket.py``, ``presenters/bracket.py``,
``views/finish.py``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.finish_support import (
    confirm_winner,
    final_match,
    next_game,
    play_bracket,
    seeded_event,
)
from tournaments.models import AuditEntry, Entry, Event, Match
from tournaments.selectors.bracket import bracket_view
from tournaments.services import finish

pytestmark = pytest.mark.django_db


def page(client: Client, event: Event, tail: str = "") -> Any:
    return client.get(f"/events/{event.slug}/bracket/{tail}")


def names(event: Event) -> dict[int, str]:
    return dict(Entry.objects.filter(event=event).values_list("pk", "name"))


def winners_marked(html: str) -> list[str]:
    """The names in rows marked as winners of a played match (byes excluded)."""
    return re.findall(r'<g class="side win">.*?<text class="name"[^>]*>✓ ([^<]+)<', html, re.S)


def series_score(html: str, match_id: str) -> list[str]:
    """The scores shown in one match's box (its two rows, slot A first)."""
    start = html.index(f'data-match="{match_id}"')
    ends = [i for i in (html.find("data-match=", start + 1), html.find("</svg>", start)) if i > 0]
    return re.findall(r'<text class="score"[^>]*>([^<]+)</text>', html[start : min(ends)])


def test_a_seeded_bracket_draws_every_match_and_the_byes(client: Client) -> None:
    event, boss, _ = seeded_event("seeded", field=8, qualifiers=5)  # seeds 1-3 have byes
    response = page(client, event)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<svg") == 1 and 'class="bracket"' in html
    view = bracket_view(event)
    assert view is not None
    every = names(event)
    for entry in view.bracket.seeds:
        assert every[entry] in html
    assert html.count('<g class="bm bye"') == 3
    assert "W1-1 · Table 1 · in play" in html  # the one first-round match, at its table
    assert "Winner of W1-1" in html  # what the next round waits for
    assert winners_marked(html) == [] and "Champion" not in html
    # linked from the event page and from the play-off round's page (not from a Swiss round's)
    link = f'href="/events/{event.slug}/bracket/"'
    assert link in client.get(f"/events/{event.slug}/").content.decode()
    assert link in client.get(f"/events/{event.slug}/rounds/2/").content.decode()
    assert link not in client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    # the live fragment answers 304 until something changes
    live = page(client, event, "live/")
    assert live.status_code == 200 and live["ETag"]
    again = client.get(f"/events/{event.slug}/bracket/live/", HTTP_IF_NONE_MATCH=live["ETag"])
    assert again.status_code == 304
    confirm_winner(final_match(event, "W1-1"), view.bracket.seeds[3], boss)
    changed = client.get(f"/events/{event.slug}/bracket/live/", HTTP_IF_NONE_MATCH=live["ETag"])
    assert changed.status_code == 200
    assert winners_marked(changed.content.decode()) == [every[view.bracket.seeds[3]]]


def test_a_finished_bracket_shows_the_champion_and_every_winner(client: Client) -> None:
    event, boss, _ = seeded_event("done", field=8, qualifiers=4, consolation="third_place")
    play_bracket(event, boss)
    finish.finish_event(event=event, actor=boss)
    html = page(client, event).content.decode()
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    every = names(event)
    champion = every[view.progress.champion or 0]
    assert f"Champion: <strong>{champion}</strong>" in html
    assert sorted(winners_marked(html)) == sorted(
        every[m.winner or 0] for m in view.progress.matches
    )
    assert "Match for third place" in html
    # the public event page leads with the champion and the podium, linking to the bracket
    event_page = client.get(f"/events/{event.slug}/").content.decode()
    assert event_page.index("Final placings") < event_page.index("Rules")
    assert f'<strong>{champion}</strong> <span class="title">Champion</span>' in event_page
    assert f"/events/{event.slug}/bracket/" in event_page
    assert event_page.count('<span class="place">') == 3


def test_a_shared_third_place_shows_as_shared(client: Client) -> None:
    event, boss, _ = seeded_event("shared", field=8, qualifiers=4)
    play_bracket(event, boss)
    finish.finish_event(event=event, actor=boss)
    html = client.get(f"/events/{event.slug}/").content.decode()
    assert html.count('<span class="place">3rd</span>') == 2 and html.count("(shared)") == 2


def test_the_bracket_is_hidden_where_the_pairings_are(client: Client) -> None:
    event, boss, _ = seeded_event("hidden", field=8, qualifiers=4)
    Event.objects.filter(pk=event.pk).update(public_pairings=False)
    assert page(client, event).status_code == 404
    assert page(client, event, "live/").status_code == 404
    client.force_login(boss)
    assert page(client, event).status_code == 200
    client.logout()
    Event.objects.filter(pk=event.pk).update(public_pairings=True, status=Event.Status.DRAFT)
    assert page(client, event).status_code == 404
    Event.objects.filter(pk=event.pk).update(
        status=Event.Status.RUNNING, playoff=Event.Playoff.NONE
    )
    assert page(client, event).status_code == 404


def test_private_results_show_who_plays_whom_but_no_score_or_winner(client: Client) -> None:
    event, boss, _ = seeded_event("private", field=8, qualifiers=4)
    play_bracket(event, boss)
    Event.objects.filter(pk=event.pk).update(public_results=False)
    html = page(client, event).content.decode()
    assert winners_marked(html) == [] and "Champion" not in html
    assert 'class="score"' not in html
    client.force_login(boss)  # the director sees everything
    assert winners_marked(page(client, event).content.decode())


def test_the_director_finishes_the_event_after_a_confirmation(client: Client) -> None:
    event, boss, _ = seeded_event("desk", field=8, qualifiers=4, consolation="third_place")
    client.force_login(boss)
    dashboard = f"/director/events/{event.slug}/"
    assert "Finish the event" not in client.get(dashboard).content.decode()
    early = client.post(f"{dashboard}finish/", {"confirm": "yes"}, follow=True)
    assert "final has no confirmed winner yet" in early.content.decode()  # playoff_not_decided
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    play_bracket(event, boss, until="3P")
    assert "Finish the event" in client.get(dashboard).content.decode()
    ask = client.post(f"{dashboard}finish/")
    assert ask.status_code == 200 and "Finish the event" in ask.content.decode()
    assert "Still to play: 3P" in ask.content.decode()
    assert not AuditEntry.objects.filter(event=event, action="event.finish").exists()
    done = client.post(f"{dashboard}finish/", {"confirm": "yes"})
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.placings
    after = client.get(dashboard).content.decode()
    assert "Finish the event" not in after and "Finished" in after


def test_a_best_of_three_final_shows_the_series_and_the_game_in_play(client: Client) -> None:
    event, boss, _ = seeded_event("series", field=8, qualifiers=4)
    play_bracket(event, boss, until="W2-1")
    final = final_match(event, "W2-1")
    Match.objects.filter(pk=final.pk).update(best_of=3)
    final.refresh_from_db()
    a, b = final.entry_a_id, final.entry_b_id
    assert b is not None
    confirm_winner(final, a, boss)
    second = next_game(final)
    confirm_winner(second, b, boss)
    third = next_game(second)
    html = page(client, event).content.decode()
    table = final.table.number if final.table else 0
    assert f"W2-1 · Table {table} · game 3 of 3" in html
    assert series_score(html, "W2-1") == ["1", "1"]
    confirm_winner(third, a, boss)
    html = page(client, event).content.decode()
    every = names(event)
    assert f"Champion: <strong>{every[a]}</strong>" in html
    a_first = final.entry_a_id == bracket_view(event).progress.state("W2-1").entry_a  # type: ignore[union-attr]
    assert series_score(html, "W2-1") == (["2", "1"] if a_first else ["1", "2"])
