"""Public pages kept as documents (tournaments/documents.py, issue 17): an unchanged page is
served from the cache with no query and no render, 304s, compressed once; a result, a publish, a
recompute or a settings change makes the next request render again; languages are kept apart,
private data and one reader's CSRF token never reach a shared copy, and with the cache down every
page is still rendered. Also the long round and standings pages in slices
(presenters/paging.py)."""

from __future__ import annotations

import gzip
import re
import uuid
from typing import Any

import brotli
import pytest
from django.test import Client

from tests.conftest import free_port
from tests.tournaments.bracket_support import playoff_event, seed, win_game
from tests.tournaments.documents_support import (  # noqa: F401 (documents_pages: a fixture)
    body,
    documents_on,
    documents_pages,
    kept_without_a_query,
    on_redis,
    played,
    rendered_templates,
    urls,
)
from tests.tournaments.follow_support import (
    match_of,
    publish_next_round,
)
from tournaments import documents
from tournaments.presenters import projector
from tournaments.services import decisions, events, round_clock, round_status
from tournaments.services.standings import recompute_standings

# Transactional: the services move the pages' tokens once their transaction commits.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("documents_pages")]


def test_a_second_get_of_an_unchanged_page_reads_nothing_and_renders_nothing(
    client: Client, django_assert_num_queries: Any, renders: list[str]
) -> None:
    field, rnd = played()
    for url in urls(field, rnd):
        first = client.get(url)
        assert first.status_code == 200, url
        assert re.fullmatch(r'"d-[0-9a-f]{24}"', first["ETag"]), url
        renders.clear()
        with django_assert_num_queries(0):
            again = client.get(url)
        assert renders == [], url
        assert again.status_code == 200 and again.content == first.content, url
        assert again["ETag"] == first["ETag"] and again["Cache-Control"] == "no-cache", url
        assert again["Content-Type"] == first["Content-Type"], url
        # What the inner middleware set on the rendered page comes back with the copy.
        assert again["X-Frame-Options"] == "DENY" and "Content-Security-Policy" in again, url
        assert again["Content-Language"] == "en" and "Accept-Language" in again["Vary"], url


def test_a_browser_that_has_the_page_gets_a_304_without_a_query(
    client: Client, django_assert_num_queries: Any
) -> None:
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    compressed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    tag = compressed["ETag"]
    assert tag.endswith('-br"')
    plain = client.get(url)["ETag"]
    assert plain == tag.replace("-br", "")  # one content, a tag per representation
    for sent in (tag, plain, f"W/{tag}", f'"other", {plain}', "*"):
        with django_assert_num_queries(0):
            answer = client.get(url, HTTP_IF_NONE_MATCH=sent, HTTP_ACCEPT_ENCODING="br")
        assert answer.status_code == 304 and answer.content == b"", sent
        assert answer["ETag"] == tag and "Accept-Encoding" in answer["Vary"], sent
    stale = client.get(url, HTTP_IF_NONE_MATCH='"d-000000000000000000000000"')
    assert stale.status_code == 200 and stale.content


def test_a_result_a_publish_a_recompute_and_a_setting_change_the_page(client: Client) -> None:
    field, rnd = played()
    slug = field.event.slug
    round_url = f"/events/{slug}/rounds/{rnd.number}/"
    standings_url = f"/events/{slug}/standings/"
    before = client.get(round_url)
    standings_before = client.get(standings_url)
    assert "61 – 20" in body(before)  # five-up: the raw 305-100 shown as displayed points

    # A result: the round page shows it, the standings say "updating" until the recompute.
    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk
    )
    decisions.override_result(
        match=other, reason="test", actor=field.director, final_score={"scores": [100, 305]}
    )
    after = client.get(round_url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "20 – 61" in body(after)
    # The recompute ran (eager) after the result's commit: a new generation on the page.
    standings_after = client.get(standings_url, HTTP_IF_NONE_MATCH=standings_before["ETag"])
    assert standings_after.status_code == 200
    assert standings_after["ETag"] != standings_before["ETag"]
    generation = re.search(r"update (\d+)", body(standings_after))
    assert generation and f"update {generation[1]}" not in body(standings_before)

    # A forced recompute that finds the same bytes changes nothing: the same tag, a 304.
    recompute_standings(event_id=field.event.pk, force=True)
    same = client.get(standings_url, HTTP_IF_NONE_MATCH=standings_after["ETag"])
    assert same.status_code == 304

    # A publish: the event page lists the new round.
    event_page = client.get(f"/events/{slug}/")
    for match in rnd.matches.filter(is_bye=False).exclude(results__is_current=True):
        decisions.override_result(
            match=match, reason="test", actor=field.director, final_score={"scores": [305, 0]}
        )
    round_status.close_round(round=rnd, actor=field.director)
    second = publish_next_round(field)
    listed = client.get(f"/events/{slug}/", HTTP_IF_NONE_MATCH=event_page["ETag"])
    assert listed.status_code == 200 and f"/rounds/{second.number}/" in body(listed)
    assert client.get(f"/events/{slug}/rounds/{second.number}/").status_code == 200

    # A setting: results made private leave the public round page without scores.
    events.update_event(actor=field.director, event=field.event, public_results=False)
    hidden = client.get(round_url)
    assert hidden.status_code == 200 and "61 – 20" not in body(hidden)


def test_languages_are_kept_apart(
    client: Client, django_assert_num_queries: Any, renders: list[str]
) -> None:
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    assert english["Content-Language"] == "en" and spanish["Content-Language"] == "es"
    assert "Find my table" in body(english) and "Buscar mi mesa" in body(spanish)
    assert english["ETag"] != spanish["ETag"]
    chosen = Client()
    chosen.cookies["django_language"] = "es"
    renders.clear()
    with django_assert_num_queries(0):
        by_cookie = chosen.get(url, HTTP_ACCEPT_LANGUAGE="en")
        by_header = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert renders == []
    assert by_cookie.content == spanish.content and by_header.content == english.content


def test_private_data_never_reaches_a_shared_copy(client: Client) -> None:
    field, rnd = played()
    events.update_event(actor=field.director, event=field.event, public_results=False)
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    director = Client()
    director.force_login(field.director)
    theirs = director.get(url)  # rendered for the director: results and their links
    assert "61 – 20" in body(theirs) and "Director's view" in body(theirs)
    assert "Log out" in body(theirs)
    public = client.get(url)
    text = body(public)
    assert "61 – 20" not in text and "Director's view" not in text and "Log out" not in text
    # The director is never served the shared copy either.
    assert "Director's view" in body(director.get(url, HTTP_IF_NONE_MATCH=public["ETag"]))
    # The copy carries no reader's CSRF token and sets no cookie when served from the cache.
    assert 'name="csrfmiddlewaretoken" value=""' in text and '"X-CSRFToken": ""' in text
    again = Client().get(url)
    assert again.cookies == {} or set(again.cookies) == set()
    assert again.content == public.content


def test_the_language_switch_works_from_a_shared_copy(client: Client) -> None:
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    client.get(url)
    strict = Client(enforce_csrf_checks=True)
    page = strict.get(url)
    assert 'name="csrfmiddlewaretoken" value=""' in body(page)
    switched = strict.post("/i18n/setlang/", {"language": "es", "next": url})
    assert switched.status_code == 302 and switched.cookies["django_language"].value == "es"
    assert "Buscar mi mesa" in body(strict.get(url))


def test_compression_is_negotiated(client: Client) -> None:
    field, _ = played()
    url = f"/events/{field.event.slug}/standings/"
    plain = client.get(url, HTTP_ACCEPT_ENCODING="identity")
    assert not plain.has_header("Content-Encoding") and "Accept-Encoding" in plain["Vary"]
    br = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert br["Content-Encoding"] == "br" and brotli.decompress(br.content) == plain.content
    gz = client.get(url, HTTP_ACCEPT_ENCODING="br;q=0, gzip")
    assert gz["Content-Encoding"] == "gzip" and gzip.decompress(gz.content) == plain.content
    assert int(gz["Content-Length"]) == len(gz.content) < len(plain.content)
    assert client.get(url, HTTP_ACCEPT_ENCODING="*")["Content-Encoding"] == "br"
    head = client.head(url, HTTP_ACCEPT_ENCODING="gzip")
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == gz["ETag"]


def test_with_the_cache_down_every_page_is_rendered(client: Client, settings: Any) -> None:
    field, rnd = played()
    settings.CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.FailOpenRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
            "KEY_PREFIX": f"documents-{uuid.uuid4()}",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    for url in urls(field, rnd):
        for _ in range(2):
            page = client.get(url)
            assert page.status_code == 200, url
            assert not page.get("ETag", "").startswith('"d-'), url  # the view's own answer
    assert "61 – 20" in body(client.get(f"/events/{field.event.slug}/rounds/{rnd.number}/"))


def test_on_redis_an_unchanged_page_is_one_read_and_a_result_renders_it_again(
    client: Client,
    settings: Any,
    redis_url: str,
    django_assert_num_queries: Any,
    renders: list[str],
) -> None:
    on_redis(settings, redis_url)
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    first = kept_without_a_query(client, url, django_assert_num_queries, renders)
    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk
    )
    decisions.override_result(
        match=other, reason="test", actor=field.director, final_score={"scores": [100, 305]}
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_ENCODING="br")
    assert changed.status_code == 200 and "20 – 61" in brotli.decompress(changed.content).decode()


def test_a_bracket_page_is_a_document_too(
    client: Client, django_assert_num_queries: Any, renders: list[str]
) -> None:
    event, director, entries = playoff_event("cup", 4)
    rnd = seed(event, director, entries)
    url = f"/events/{event.slug}/bracket/"
    first = client.get(url)
    renders.clear()
    with django_assert_num_queries(0):
        assert client.get(url).content == first.content
    assert renders == []
    game = rnd.matches.order_by("pk").first()
    assert game is not None
    win_game(game, game.entry_a_id, director)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


# --- The projector ---------------------------------------------------------------------------


def _refresh(page: str) -> str:
    """Where the projector's meta refresh goes next."""
    found = re.search(r'http-equiv="refresh" content="\d+;url=([^"]+)"', page)
    assert found is not None
    return found[1].replace("&amp;", "&")


def test_every_projector_screen_is_a_document_and_the_cycle_still_turns(
    client: Client, django_assert_num_queries: Any, renders: list[str]
) -> None:
    """The projector's screens (``?view=<word>&page=<n>``) are kept as documents, one per screen,
    and the meta refresh still goes round every view; a view that is not one of its words, or a
    page that is not digits, is rendered each time and not kept."""
    field, _ = played(teams=29)  # 30 entries: more than one screen of each view
    slug = field.event.slug
    start = f"/events/{slug}/projector/?view=standings&page=1"
    url, seen = start, []
    for _ in range(12):
        first = client.get(url)
        assert first.status_code == 200 and first["ETag"].startswith('"d-'), url
        renders.clear()
        with django_assert_num_queries(0):
            again = client.get(url)
        assert renders == [] and again.content == first.content, url
        view = re.search(r'class="projector view-(\w+)"', body(first))
        page = re.search(r'class="page-no">(\d+) / (\d+)<', body(first))
        assert view is not None and page is not None
        seen.append((view[1], int(page[1]), int(page[2])))
        url = _refresh(body(first))
        if url == start:
            break
    assert url == start, "the screens come back round to the first"
    assert [v for v, _, _ in seen] == sorted((v for v, _, _ in seen), key=projector.VIEWS.index)
    for view in projector.VIEWS:
        pages = [(page, of) for v, page, of in seen if v == view]
        assert len(pages) > 1 and pages == [(n, len(pages)) for n in range(1, len(pages) + 1)]
    for odd in ("?view=nonsense", "?view=standings&page=x", "?view=seats&view=seats", "?x=1"):
        answer = client.get(f"/events/{slug}/projector/{odd}")
        assert answer.status_code == 200 and "ETag" not in answer, odd  # rendered, not kept
    assert documents.WORDS[("public:projector", "view")] == set(projector.VIEWS)


def _clock_text(page: str) -> str:
    found = re.search(r'<p class="clock [^"]*" id="projector-clock"[^>]*>.*?</p>', page)
    assert found is not None, page
    return found[0]


def test_a_clock_a_result_and_a_round_change_the_projector(
    client: Client, django_assert_num_queries: Any, renders: list[str]
) -> None:
    """Every move of the clock the projector shows (pause, resume, extend, call time) and every
    result, round and standings change renders the kept screen again; meanwhile it is served
    from the cache without a query, the same bytes while the clock runs down."""
    field, rnd = played()
    director = field.director
    url = f"/events/{field.event.slug}/projector/?view=pairings&page=1"

    def served_again(previous: Any, *, same: bool = False) -> Any:
        """The next answer is a new render (the browser sends the tag it has): a new page, or
        (``same``) the same bytes again, a 304; then it is kept again."""
        renders.clear()
        answer = client.get(url, HTTP_IF_NONE_MATCH=previous["ETag"])
        assert "tournaments/projector/projector.html" in renders
        if same:
            assert answer.status_code == 304 and answer["ETag"] == previous["ETag"]
            answer = client.get(url)
        else:
            assert answer.status_code == 200 and answer["ETag"] != previous["ETag"]
        with django_assert_num_queries(0):
            assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
        return answer

    running = client.get(url)
    clock = _clock_text(body(running))
    assert "clock-running" in clock and "data-clock-ends=" in clock
    with django_assert_num_queries(0):
        assert client.get(url).content == running.content

    round_clock.pause_clock(round=rnd, actor=director)
    paused = served_again(running)
    assert "clock-paused" in _clock_text(body(paused)) and 'data-clock-left="' in body(paused)

    round_clock.extend_clock(round=rnd, minutes=5, actor=director)
    extended = served_again(paused)
    assert _clock_text(body(extended)) != _clock_text(body(paused))

    round_clock.resume_clock(round=rnd, actor=director)
    resumed = served_again(extended)
    ends = re.search(r'data-clock-ends="(\d+)"', body(resumed))
    before = re.search(r'data-clock-ends="(\d+)"', body(running))
    assert ends and before and int(ends[1]) > int(before[1])  # the pause and 5 minutes added

    round_clock.end_clock(round=rnd, actor=director)
    ended = served_again(resumed)
    assert "clock-expired" in _clock_text(body(ended)) and ">Time is up<" in body(ended)

    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk
    )
    standings_url = f"/events/{field.event.slug}/projector/?view=standings&page=1"
    standings_before = client.get(standings_url)
    decisions.override_result(
        match=other, reason="test", actor=director, final_score={"scores": [100, 305]}
    )
    resulted = served_again(ended, same=True)  # the pages' token moved: the same pairings
    standings_after = client.get(standings_url, HTTP_IF_NONE_MATCH=standings_before["ETag"])
    assert standings_after.status_code == 200  # the recompute after the result: new standings

    for match in rnd.matches.filter(is_bye=False).exclude(results__is_current=True):
        decisions.override_result(
            match=match, reason="test", actor=director, final_score={"scores": [305, 0]}
        )
    round_status.close_round(round=rnd, actor=director)
    closed = served_again(resulted)
    assert "Round 1 (closed): pairings" in body(closed) and "projector-clock" not in body(closed)
    second = publish_next_round(field)
    published = served_again(closed)
    assert f"Round {second.number} in play: pairings" in body(published)


def test_on_redis_the_projector_is_one_read_and_a_clock_change_renders_it_again(
    client: Client,
    settings: Any,
    redis_url: str,
    django_assert_num_queries: Any,
    renders: list[str],
) -> None:
    on_redis(settings, redis_url)
    field, rnd = played()
    url = f"/events/{field.event.slug}/projector/?view=seats&page=1"
    first = kept_without_a_query(client, url, django_assert_num_queries, renders)
    round_clock.pause_clock(round=rnd, actor=field.director)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_ENCODING="br")
    assert changed.status_code == 200
    assert "clock clock-paused" in brotli.decompress(changed.content).decode()
