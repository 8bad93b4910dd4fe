"""Issue 14's control desk: the event page's "now", the results board by urgency with links on
the request's host, the confirmation step, the audit log in sentences and the projector."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.desk_support import states_round as _states_round
from tests.tournaments.finish_support import confirm_winner, play_bracket, seeded_event
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.models import AuditEntry, Entry, Event, Round
from tournaments.presenters import audit as audit_presenters
from tournaments.presenters import projector
from tournaments.selectors.desk import next_step
from tournaments.services import entries, finish, round_generation, round_status
from tournaments.services.table_links import table_link_path

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _published(teams: int = 8) -> tuple[Event, User, Round]:
    event = make_event()
    boss = make_director(event)
    make_field(event, teams)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    return event, boss, rnd


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_the_desk_leads_with_the_round_in_play_its_clock_and_linked_counts() -> None:
    event, boss, _rnd, _ = _states_round()
    html = _client(boss).get(f"/director/events/{event.slug}/").content.decode()
    text = _text(html)
    assert html.index('id="desk-now"') < html.index("<h2>Entries</h2>")
    assert "Round 1 in play" in text and re.search(r"\d+:\d\d left", text) and "time at" in text
    board = f"/director/events/{event.slug}/rounds/1/results/"
    for state, label in (
        ("conflict", "conflicting"),
        ("missing", "missing"),
        ("pending", "pending"),
    ):
        link = re.search(
            rf'<a class="desk-count {state}" href="([^"]+)"><span class="n">(\d+)', html
        )
        assert link is not None and link.group(1) == f"{board}?state={state}", state
        assert link.group(2) == "1", (state, label)


def test_the_desk_says_the_next_step_before_any_round_and_for_a_draft() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    client = _client(boss)
    assert "Next: generate round 1" in _text(
        client.get(f"/director/events/{event.slug}/").content.decode()
    )
    round_generation.generate_round(event=event, actor=boss)
    text = _text(client.get(f"/director/events/{event.slug}/").content.decode())
    assert "Round 1 is a draft." in text and "Next: review and publish round 1" in text
    rnd = Round.objects.get(event=event, number=1)
    round_status.publish_round(round=rnd, actor=boss)
    text = _text(client.get(f"/director/events/{event.slug}/").content.decode())
    assert "the clock has not started (time limit 45 min)" in text
    assert "Next: start the clock" in text


def test_the_board_is_sorted_by_urgency_filters_and_links_on_the_request_host() -> None:
    event, boss, rnd, matches = _states_round()
    client = _client(boss)
    url = f"/director/events/{event.slug}/rounds/1/results/"
    html = client.get(url, HTTP_HOST="192.168.1.20:8000").content.decode()
    order = re.findall(r'data-match="(\d+)" data-state="(\w+)"', html)
    assert [s for _, s in order] == ["conflict", "missing", "pending", "confirmed"]
    assert [int(m) for m, _ in order] == [
        matches[s].pk for s in ("conflict", "missing", "pending", "confirmed")
    ]
    assert matches["conflict"].table is not None
    path = table_link_path(round_=rnd, table=matches["conflict"].table, side=0)
    assert f'href="http://192.168.1.20:8000{path}"' in html
    assert "127.0.0.1:8000" not in html
    only = client.get(url, {"state": "missing"}).content.decode()
    assert re.findall(r'data-state="(\w+)"', only) == ["missing"]
    # The nav's "Results" reaches the board of the round in play, keeping a filter.
    jump = client.get(f"/director/events/{event.slug}/results/", {"state": "conflict"})
    assert jump.status_code == 302 and jump["Location"] == f"{url}?state=conflict"


def test_the_board_names_the_teams_not_side_numbers() -> None:
    event, boss, _rnd, matches = _states_round()
    html = _client(boss).get(f"/director/events/{event.slug}/rounds/1/results/").content.decode()
    text = _text(html)
    assert "side 0" not in text and "side 1" not in text
    conflict = matches["conflict"]
    assert f"{conflict.entry_a.name} sent a final score (61 – 40)" in text
    assert conflict.entry_b is not None
    assert f"{conflict.entry_b.name} sent a final score (40 – 61)" in text


@pytest.mark.parametrize("action", ["publish", "close"])
def test_publish_and_close_ask_first_and_a_plain_post_does_not_act(action: str) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    if action == "close":
        round_status.publish_round(round=rnd, actor=boss)
        settle_round(rnd, boss)
    before = Round.objects.get(pk=rnd.pk).status
    client = _client(boss)
    url = f"/director/events/{event.slug}/rounds/1/{action}/"
    asked = client.post(url)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert f"{action.title()} round 1?" in _text(page)
    assert f"Yes, {action} round 1" in page and 'name="confirm" value="yes"' in page
    assert Round.objects.get(pk=rnd.pk).status == before
    assert client.post(url, {"confirm": "no"}).status_code == 200
    assert Round.objects.get(pk=rnd.pk).status == before
    done = client.post(url, {"confirm": "yes"})
    assert done.status_code == 302
    expected = Round.Status.PUBLISHED if action == "publish" else Round.Status.CLOSED
    assert Round.objects.get(pk=rnd.pk).status == expected


def test_undo_check_in_asks_first_on_a_page_and_inline() -> None:
    event = make_event()
    boss = make_director(event)
    (entry,) = make_field(event, 1)
    assert entry.status == Entry.Status.CHECKED_IN
    client = _client(boss)
    url = f"/director/events/{event.slug}/entries/{entry.pk}/undo-check-in/"
    page = client.post(url, {"next": "https://evil.example/"}).content.decode()
    assert f"Yes, undo the check-in of {entry.name}" in page
    assert "evil.example" not in page  # the way back stays on this site
    inline = client.post(url, HTTP_HX_REQUEST="true").content.decode()
    assert inline.lstrip().startswith(f'<li class="entry-row checked_in" id="entry-{entry.pk}"')
    assert 'name="confirm" value="yes"' in inline and "Keep" in inline
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    client.post(url, {"confirm": "yes"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_the_audit_log_reads_as_sentences_in_displayed_points() -> None:
    event, boss, _rnd, matches = _states_round()
    entry = Entry.objects.filter(event=event).order_by("name").first()
    assert entry is not None
    entries.undo_check_in(actor=boss, entry=entry)
    entries.check_in_entry(actor=boss, entry=entry)
    AuditEntry.objects.create(
        event=event, actor=boss, action="match.frobnicate", object_type="match", after={"x": [1, 2]}
    )
    html = _client(boss).get(f"/director/events/{event.slug}/audit/").content.decode()
    text = _text(html)
    confirmed = matches["confirmed"]
    assert confirmed.table is not None and confirmed.entry_b is not None
    assert (
        f"dana overrode table {confirmed.table.number} ({confirmed.entry_a.name} v "
        f"{confirmed.entry_b.name}): {confirmed.entry_a.name} 61–40 {confirmed.entry_b.name}, "
        "reason: “board count”."
    ) in text
    assert f"dana checked in {entry.name}." in text
    assert f"dana undid the check-in of {entry.name}." in text
    assert "dana published round 1." in text and "dana started round 1's clock." in text
    assert "dana generated round 1 (4 matches)." in text
    assert "dana recorded “match: frobnicate” (the match)." in text
    # No raw Python data: no dicts, lists or raw pips.
    for raw in ("{", "[", "'status'", "305"):
        assert raw not in text, raw


def test_every_known_action_has_its_sentence() -> None:
    known = set(audit_presenters.PRESENTERS)
    assert {"result.override", "entry.check_in", "entry.undo_check_in", "round.close"} <= known


def test_the_projector_pages_through_every_team_with_the_round_label() -> None:
    event, boss, rnd = _published(26)
    client = Client()
    names = set(Entry.objects.filter(event=event).values_list("name", flat=True))
    seen: dict[str, set[str]] = {"standings": set(), "pairings": set(), "seats": set()}
    url = f"/events/{event.slug}/projector/?view=pairings&page=1"
    visited = []
    for _ in range(30):
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        view = re.search(r'class="projector view-(\w+)"', html)
        assert view is not None
        visited.append((view.group(1), url))
        refresh = re.search(r'http-equiv="refresh" content="(\d+);url=([^"]+)"', html)
        assert refresh is not None
        for name in names:
            if f">{name}<" in html:
                seen[view.group(1)].add(name)
        if view.group(1) == "pairings":
            assert "Round 1 in play: pairings" in html
        if view.group(1) == "standings":
            assert "Standings round 1 in play" in html
        url = unescape(refresh.group(2))
        if url == visited[0][1]:
            break
    assert seen["pairings"] == names and seen["seats"] == names
    assert len([v for v, _ in visited if v == "pairings"]) == -(
        -13 // projector.PER_PAGE["pairings"]
    )
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    html = client.get(f"/events/{event.slug}/projector/?view=standings").content.decode()
    assert "Standings after round 1" in html
    rows = 0
    page = 1
    while True:
        html = client.get(
            f"/events/{event.slug}/projector/?view=standings&page={page}"
        ).content.decode()
        rows += html.count('<td class="name">')
        total = re.search(r'class="page-no">(\d+) / (\d+)<', html)
        assert total is not None
        if int(total.group(1)) == int(total.group(2)):
            break
        page += 1
    assert rows == 26


def test_a_projector_screen_reads_only_the_view_it_shows(django_assert_num_queries: Any) -> None:
    """The standings screens do not read the round's seating, the pairings and seats screens do
    not read the standings (a view's last page does: is there anything to show next?), and the
    seating is read without the pairing's explanations (``round_view(explained=False)``)."""
    event, boss, rnd = _published(26)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    client = Client()
    url = f"/events/{event.slug}/projector/"
    with django_assert_num_queries(4):  # the event, its rounds, the snapshot, its state
        html = client.get(url, {"view": "standings", "page": "1"}).content.decode()
    assert 'class="page-no">1 / 3<' in html and html.count('<td class="name">') == 12
    for view in ("pairings", "seats"):
        with django_assert_num_queries(4):  # the event, its rounds, the matches, the players
            html = client.get(url, {"view": view, "page": "1"}).content.decode()
        assert f"view-{view}" in html and 'class="page-no">1 / ' in html
        assert 'class="page-no">1 / 1<' not in html
    with django_assert_num_queries(6):  # the last seats screen: are there standings to show?
        html = client.get(url, {"view": "seats", "page": "3"}).content.decode()
    assert 'class="page-no">3 / 3<' in html and "view=standings&amp;page=1" in html


def test_the_projector_screens_turn_in_order() -> None:
    rows: dict[str, list[Any]] = {
        "standings": list(range(25)),
        "pairings": [],
        "seats": list(range(40)),
    }
    first = projector.screen(rows, "standings", 1)
    assert (first.next_view, first.next_page, len(first.rows)) == ("standings", 2, 12)
    last = projector.screen(rows, "standings", 3)
    assert (last.rows, last.next_view, last.next_page) == ([24], "seats", 1)
    assert projector.screen(rows, "seats", 2).next_view == "standings"
    assert projector.screen(rows, "nonsense", 99).view == "standings"
    assert projector.round_label(None, None) == "before round 1"
    assert projector.round_label(4, 3) == "after round 3, round 4 in play"
    assert projector.round_label(None, 3) == "after round 3"


def test_seats_are_compass_points_and_the_match_page_names_the_teams() -> None:
    from tournaments import game

    assert [game.compass_point(s, 4) for s in range(4)] == ["North", "East", "South", "West"]
    assert [game.compass_point(s, 2) for s in range(2)] == ["North", "South"]
    event, boss, _rnd, matches = _states_round()
    conflict = matches["conflict"]
    assert conflict.entry_b is not None
    html = (
        _client(boss)
        .get(f"/director/events/{event.slug}/rounds/1/results/{conflict.pk}/")
        .content.decode()
    )
    text = _text(html)
    assert f"{conflict.entry_a.name}'s claim" in text and f"{conflict.entry_b.name}'s claim" in text
    assert "side 0" not in text and "side 1" not in text and "First side" not in text


def test_after_the_swiss_rounds_the_desk_and_the_rounds_page_lead_to_each_next_step() -> None:
    """Seed the play-off (standings page), the next play-off round, finish, finished: never
    "generate round N+1", which refuses once the Swiss rounds are over."""
    event, boss, _ = seeded_event("steps", field=8, qualifiers=4)
    client = _client(boss)
    desk, rounds = f"/director/events/{event.slug}/", f"/director/events/{event.slug}/rounds/"
    first = event.rounds.get(kind=Round.Kind.PLAYOFF)
    for match in first.matches.filter(is_bye=False):
        confirm_winner(match, match.entry_a_id, boss)
    round_status.close_round(round=first, actor=boss)
    assert next_step(event) == "advance"
    assert "Next: the next play-off round" in _text(client.get(desk).content.decode())
    assert "Next play-off round" in client.get(rounds).content.decode()

    play_bracket(event, boss)
    final = event.rounds.exclude(status=Round.Status.CLOSED).get()
    round_status.close_round(round=final, actor=boss)
    assert next_step(event) == "finish"
    text = _text(client.get(desk).content.decode())
    assert "the play-off is decided" in text and "Next: finish the event" in text
    page = _text(client.get(rounds).content.decode())
    assert "Finish the event on the desk" in page and "Next play-off round" not in page

    finish.finish_event(event=event, actor=boss)
    event.refresh_from_db()
    assert next_step(event) == "finished"
    assert "The event is finished." in _text(client.get(desk).content.decode())
    assert "Generate the next round" not in client.get(rounds).content.decode()
