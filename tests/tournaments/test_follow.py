"""'My table': finding an entry by name (accents and case ignored), following it with a cookie of
the event's own, the followed view (waiting, the table and seats, the clock, the last result),
and the live part's cost: a poll with nothing new is a 304 answered without a query."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from tests.conftest import free_port
from tests.tournaments.follow_support import (
    draft_round,
    follow,
    make_followed_event,
    match_of,
    private_cache,
    publish_next_round,
)
from tests.tournaments.rounds_factory import make_event, make_field
from tournaments import follow_versions
from tournaments.models import Entry, Event
from tournaments.selectors import follow as reads
from tournaments.services import decisions, events, round_clock, round_status

# Transactional: the services change the version tokens once their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _cache(settings: Any) -> None:
    private_cache(settings)


def live_url(event: Event, entry: Entry) -> str:
    return f"/events/{event.slug}/me/{entry.pk}/live/"


def text(response: Any) -> str:
    return response.content.decode()


def test_search_ignores_accents_case_and_spacing_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    field = make_followed_event()
    gone = field.others[0]
    gone.status = Entry.Status.WITHDRAWN
    gone.save()
    for query in ("jose ramirez", "  RAMÍREZ ", "núñez", "ANA NUNEZ", "los ramirez"):
        with django_assert_num_queries(1):
            found, approximate = reads.find_entries(field.event, query)
        assert [f.entry_id for f in found] == [field.ramirez.pk] and not approximate, query
        assert found[0].players == ("José Ramírez", "Ana Núñez")
    assert reads.find_entries(field.event, "r") == ([], False)  # one letter: half the room
    teams, _ = reads.find_entries(field.event, "team")
    assert gone.pk not in {f.entry_id for f in teams} and len(teams) == len(field.others) - 1
    # A letter left out or swapped: nothing contains it, the close names are offered.
    for typo in ("Ramriez", "jose ramierz", "Nuñes"):
        with django_assert_num_queries(1):
            found, approximate = reads.find_entries(field.event, typo)
        assert [f.entry_id for f in found] == [field.ramirez.pk] and approximate, typo
    assert reads.find_entries(field.event, "Zyxwv") == ([], False)


def test_the_page_searches_and_says_what_to_fix(client: Client) -> None:
    field = make_followed_event()
    page = client.get(f"/events/{field.event.slug}/me/", {"q": "ramirez"})
    assert page.status_code == 200
    assert "Los Ramírez" in text(page) and 'name="entry"' in text(page)
    short = client.get(f"/events/{field.event.slug}/me/", {"q": "j"})
    assert "at least two letters" in text(short)
    none = client.get(f"/events/{field.event.slug}/me/", {"q": "Zyx"})
    assert "No entry matches" in text(none) and 'name="entry"' not in text(none)
    typo = client.get(f"/events/{field.event.slug}/me/", {"q": "Ramriez"})
    assert "Did you mean" in text(typo) and "Los Ramírez" in text(typo)
    long = client.get(f"/events/{field.event.slug}/me/", {"q": "x" * 5000})
    assert long.status_code == 200


def test_following_is_a_cookie_of_the_event_and_stopping_removes_it(client: Client) -> None:
    field = make_followed_event()
    other = make_event(slug="other")
    stranger = make_field(other, 1)[0]
    # An entry of another event (or nonsense) is not followed: the search comes back.
    refused = client.post(f"/events/{field.event.slug}/me/follow/", {"entry": stranger.pk})
    assert "spinner_follow" not in refused.cookies
    refused = client.post(f"/events/{field.event.slug}/me/follow/", {"entry": "12; drop"})
    assert "spinner_follow" not in refused.cookies

    follow(client, field.event, field.ramirez)
    page = client.get(f"/events/{field.event.slug}/me/")
    assert "Los Ramírez" in text(page)
    assert "Waiting for round 1 to be published" in text(page)
    assert 'id="my-table"' in text(page) and live_url(field.event, field.ramirez) in text(page)
    # The other event knows nothing of it (the cookie's path is this event's).
    assert "Waiting for round" not in text(client.get("/events/other/me/"))

    stop = client.post(f"/events/{field.event.slug}/me/stop/")
    assert stop.cookies["spinner_follow"].value == ""
    assert stop.cookies["spinner_follow"]["path"] == f"/events/{field.event.slug}/"
    assert "Find my table" in text(client.get(f"/events/{field.event.slug}/me/"))


def test_the_followed_view_shows_the_table_the_seats_the_clock_and_the_last_result(
    client: Client,
) -> None:
    field = make_followed_event()
    follow(client, field.event, field.ramirez)
    draft = draft_round(field)  # a draft is the director's alone
    assert "Waiting for round 1" in text(client.get(live_url(field.event, field.ramirez)))

    rnd = round_status.publish_round(round=draft, actor=field.director)
    match = match_of(rnd, field.ramirez)
    other = match.entry_b if match.entry_a_id == field.ramirez.pk else match.entry_a
    assert other is not None and match.table is not None
    body = text(client.get(live_url(field.event, field.ramirez)))
    assert f'<span class="n">{match.table.number}</span>' in body
    assert f"vs {other.name}" in body
    assert "José Ramírez" in body and "Ana Núñez" in body and "North" in body
    assert "The round has not started yet." in body

    round_status.start_round(round=rnd, actor=field.director)
    body = text(client.get(live_url(field.event, field.ramirez)))
    assert 'data-clock-state="running"' in body and "Time left" in body

    ramirez_side = 0 if match.entry_a_id == field.ramirez.pk else 1
    scores = [305, 200] if ramirez_side == 0 else [200, 305]
    decisions.override_result(
        match=match, reason="test", actor=field.director, final_score={"scores": scores}
    )
    body = text(client.get(live_url(field.event, field.ramirez)))
    assert "Last result" in body and "won 61–40" in body  # five-up: raw / 5


def test_a_bye_says_so(client: Client) -> None:
    field = make_followed_event("odd", teams=4)  # five entries: one bye
    rnd = publish_next_round(field)
    bye = rnd.matches.get(is_bye=True)
    follow(client, field.event, bye.entry_a)
    body = text(client.get(f"/events/{field.event.slug}/me/"))
    assert "You have a bye this round." in body and "my-table-no" not in body


def test_the_followed_view_reads_in_fixed_queries(django_assert_num_queries: Any) -> None:
    small = make_followed_event("small", teams=3)
    large = make_followed_event("large", teams=41)
    for field in (small, large):
        rnd = publish_next_round(field)
        round_status.start_round(round=rnd, actor=field.director)
        decisions.override_result(
            match=match_of(rnd, field.ramirez),
            reason="test",
            actor=field.director,
            final_score={"scores": [305, 100]},
        )
        with django_assert_num_queries(3):
            view = reads.followed_view(field.event, field.ramirez, show_results=True)
        assert view.match is not None and view.last is not None and view.open


def test_a_poll_with_nothing_new_is_a_304_without_a_query(
    client: Client, django_assert_num_queries: Any
) -> None:
    field = make_followed_event()
    url = live_url(field.event, field.ramirez)
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"follow-')
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag

    # Publishing the round changes the event's token: the next poll is the table.
    rnd = publish_next_round(field)
    published = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert published.status_code == 200 and published["ETag"] != etag
    assert f"Round {rnd.number}" in text(published)
    etag = published["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    # The clock moving changes it too (the page counts the clock down by itself meanwhile).
    round_status.start_round(round=rnd, actor=field.director)
    started = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert started.status_code == 200 and 'data-clock-state="running"' in text(started)
    etag = started["ETag"]
    round_clock.pause_clock(round=rnd, actor=field.director)
    paused = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert paused.status_code == 200 and "Clock paused" in text(paused)
    etag = paused["ETag"]

    # Another table's result changes nothing for this entry; its own result does.
    mine = match_of(rnd, field.ramirez)
    theirs = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != mine.pk
    )
    decisions.override_result(
        match=theirs, reason="test", actor=field.director, final_score={"scores": [305, 0]}
    )
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    decisions.override_result(
        match=mine, reason="test", actor=field.director, final_score={"scores": [305, 100]}
    )
    result = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert result.status_code == 200 and "Last result" in text(result)


def test_on_redis_a_poll_with_nothing_new_is_one_read_and_no_query(
    client: Client, settings: Any, redis_url: str, django_assert_num_queries: Any
) -> None:
    """The production shape: the fail-open Redis cache (a key prefix of the test's own)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.FailOpenRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"follow-test-{uuid.uuid4()}",
        }
    }
    field = make_followed_event()
    url = live_url(field.event, field.ramirez)
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    publish_next_round(field)  # the token changes in Redis after the commit
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_tag_names_the_language_and_hiding_pairings_ends_the_page(client: Client) -> None:
    field = make_followed_event()
    url = live_url(field.event, field.ramirez)
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert spanish["ETag"] != english and spanish["ETag"].endswith('-es"')
    # The director hides the pairings: the next poll is refused (not a stale 304).
    events.update_event(actor=field.director, event=field.event, public_pairings=False)
    assert client.get(url, HTTP_IF_NONE_MATCH=english).status_code == 404
    assert client.get(f"/events/{field.event.slug}/me/").status_code == 404


def test_an_unknown_entry_gets_no_token_and_a_404(client: Client) -> None:
    field = make_followed_event()
    stranger = make_field(make_event(slug="elsewhere"), 1)[0]
    assert client.get(live_url(field.event, stranger)).status_code == 404
    assert follow_versions.read(field.event.slug, stranger.pk)[1] is None


def test_with_the_cache_down_every_poll_is_a_full_answer(client: Client, settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.FailOpenRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
            "KEY_PREFIX": f"follow-{uuid.uuid4()}",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    field = make_followed_event()
    answer = client.get(live_url(field.event, field.ramirez), HTTP_IF_NONE_MATCH="*")
    assert answer.status_code == 200 and not answer.has_header("ETag")
    assert "Waiting for round 1" in text(answer)
