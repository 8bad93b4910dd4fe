"""Public pages kept as documents (tournaments/documents.py, issue 17): an unchanged page is
served from the cache with no query and no render, 304s, compressed once; a result, a publish, a
recompute or a settings change makes the next request render again; languages are kept apart,
private data and one reader's CSRF token never reach a shared copy, and with the cache down every
page is still rendered. Also the long round and standings pages in slices
(presenters/paging.py)."""

from __future__ import annotations

import gzip
import re
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import brotli
import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.test.signals import template_rendered

from tests.conftest import free_port
from tests.tournaments.bracket_support import playoff_event, seed, win_game
from tests.tournaments.follow_support import (
    Field,
    make_followed_event,
    match_of,
    private_cache,
    publish_next_round,
)
from tournaments import documents
from tournaments.models import Round
from tournaments.presenters import paging, projector
from tournaments.selectors import matches as matches_reads
from tournaments.selectors import rounds as round_reads
from tournaments.services import claims, decisions, events, round_clock, round_status
from tournaments.services.standings import recompute_standings
from tournaments.views import rounds as round_views

# Transactional: the services move the pages' tokens once their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _documents_on(settings: Any) -> None:
    private_cache(settings)
    settings.SPINNER_PUBLIC_DOCUMENTS = True


@pytest.fixture
def renders() -> Iterator[list[str]]:
    """The names of the templates rendered meanwhile (Django's test signal)."""
    seen: list[str] = []

    def count(sender: Any, template: Any, **kwargs: Any) -> None:
        seen.append(str(template.name))

    template_rendered.connect(count)
    yield seen
    template_rendered.disconnect(count)


def played(slug: str = "open", teams: int = 7) -> tuple[Field, Round]:
    """An event whose round 1 is published, started and has one confirmed result."""
    field = make_followed_event(slug, teams=teams)
    rnd = publish_next_round(field)
    round_status.start_round(round=rnd, actor=field.director)
    decisions.override_result(
        match=match_of(rnd, field.ramirez),
        reason="test",
        actor=field.director,
        final_score={"scores": [305, 100]},
    )
    recompute_standings(event_id=field.event.pk, force=True)
    return field, rnd


def urls(field: Field, rnd: Round) -> list[str]:
    slug = field.event.slug
    match = match_of(rnd, field.ramirez)
    return [
        f"/events/{slug}/",
        f"/events/{slug}/rounds/{rnd.number}/",
        f"/events/{slug}/standings/",
        f"/events/{slug}/standings/?projector=1",
        f"/events/{slug}/standings/live/",
        f"/events/{slug}/teams/{field.ramirez.pk}/",
        f"/events/{slug}/matches/{match.pk}/",
        f"/events/{slug}/projector/",
        f"/events/{slug}/projector/?view=pairings&page=1",
        f"/events/{slug}/projector/?view=seats&page=2",
    ]


def on_redis(settings: Any, redis_url: str) -> None:
    """The production shape: the fail-open Redis cache (a key prefix of the test's own)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.FailOpenRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"documents-test-{uuid.uuid4()}",
        }
    }


def kept_without_a_query(
    client: Client, url: str, django_assert_num_queries: Any, renders: list[str]
) -> Any:
    """The page's first answer, after checking that asking again (and revalidating) reads
    nothing and renders nothing."""
    first = client.get(url, HTTP_ACCEPT_ENCODING="br")
    renders.clear()
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_ACCEPT_ENCODING="br")
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert renders == [] and again.content == first.content and not_modified.status_code == 304
    return first


def body(response: Any) -> str:
    return bytes(response.content).decode()


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


# --- Slices ----------------------------------------------------------------------------------


def test_a_long_round_comes_in_slices_and_find_my_table_finds_any_table(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(round_views, "PER_PAGE", 4)
    field = make_followed_event("big", teams=20)  # 21 entries: 10 tables and a bye
    rnd = publish_next_round(field)
    url = f"/events/big/rounds/{rnd.number}/"
    first = body(client.get(url))
    assert 'id="table-4"' in first and 'id="table-5"' not in first
    assert 'href="?from=5"' in first and 'hx-get="?from=5"' in first  # more, by click or scroll
    assert "1–4" in first and "5–8" in first and "9–10" in first  # every slice named
    assert "Show tables 5–8 of 10" in first and "Bye" not in first
    last = body(client.get(url, {"from": "9"}))
    assert 'id="table-9"' in last and 'id="table-10"' in last and 'id="table-8"' not in last
    assert "Bye" in last and "Show tables" not in last
    # Any other start goes to its slice's; nonsense goes to the first.
    assert client.get(url, {"from": "6"})["Location"] == f"{url}?from=5"
    assert client.get(url, {"from": "999"})["Location"] == f"{url}?from=9"
    assert client.get(url, {"from": "x"})["Location"] == f"{url}?from=1"
    # Find my table: by name or by the table's number, whatever slice it is in.
    mine = match_of(rnd, field.ramirez)
    searched = client.get(url, {"q": "ramírez"})
    assert not searched.get("ETag", "").startswith('"d-')  # a search is rendered, not kept
    found = body(searched)
    assert f'id="table-{mine.table.number}"' in found and "1 of 11 shown" in found
    by_number = body(client.get(url, {"q": "10"}))
    assert 'id="table-10"' in by_number and by_number.count('class="card match"') <= 2
    assert "No table for" in body(client.get(url, {"q": "nobody here"}))


def test_a_slice_reads_only_its_tables_and_equals_the_whole_rounds_slice(
    django_assert_max_num_queries: Any,
) -> None:
    field = make_followed_event("big", teams=20)  # 21 entries: 10 tables and a bye
    rnd = publish_next_round(field)
    whole = round_reads.round_view(rnd)
    assert round_reads.round_counts(rnd) == (10, 1) and whole.size == 11
    for start, stop, byes in ((0, 4, False), (4, 8, False), (8, 12, True)):
        with django_assert_max_num_queries(3):
            part = round_reads.round_view(rnd, (start, stop), with_byes=byes)
        assert part.matches == whole.matches[start:stop]
        assert part.byes == (whole.byes if byes else ())
    # The results of a slice are its tables' only.
    decisions.override_result(
        match=match_of(rnd, field.ramirez),
        reason="test",
        actor=field.director,
        final_score={"scores": [305, 100]},
    )
    shown = [m.match_id for m in whole.matches[:4]]
    mine = match_of(rnd, field.ramirez).pk
    assert set(matches_reads.round_results(rnd.pk, shown)) == ({mine} & set(shown))
    assert set(matches_reads.round_results(rnd.pk)) == {mine}


def test_long_standings_come_in_slices_and_the_live_part_polls_its_own(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paging, "ROWS_PER_PAGE", 5)
    field, _ = played("long", teams=11)  # 12 entries: 12 rows
    url = "/events/long/standings/"
    first = body(client.get(url))
    assert first.count('class="rank"') == 5 and "Places 6–10 of 12" in first
    assert 'hx-get="/events/long/standings/live/?from=1"' in first
    second = body(client.get(url, {"from": "6"}))
    assert second.count('class="rank"') == 5 and 'live/?from=6"' in second
    live = body(client.get("/events/long/standings/live/", {"from": "11"}))
    assert live.count('class="rank"') == 2 and "Places" in live and 'live/?from=11"' in live
    projector = body(client.get(url, {"projector": "1", "from": "6"}))
    assert 'live/?projector=1&amp;from=6"' in projector
    assert client.get(url, {"from": "7"})["Location"] == f"{url}?from=6"
    # Every entry is on exactly one slice.
    names = [e.name for e in [field.ramirez, *field.others]]
    pages = first + second + body(client.get(url, {"from": "11"}))
    assert all(pages.count(f">{name}</a>") == 1 for name in names)
    # Find my team: whatever its slice, accents and case ignored; searches are not kept.
    found = client.get(url, {"q": "RAMIREZ"})
    assert not found.get("ETag", "").startswith('"d-')
    assert body(found).count('class="rank"') == 1 and ">Los Ramírez</a>" in body(found)
    assert 'live/?q=RAMIREZ"' in body(found) and "Places" not in body(found)
    assert "No team matches" in body(client.get(url, {"q": "Ramriez"}))


def test_a_slice_of_the_standings_table_is_rendered_once_per_snapshot(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    """Without documents (a director's request, or the setting off) the standings table of a
    slice still comes from the rows cache: two queries (the event, the latest generation)."""
    settings.SPINNER_PUBLIC_DOCUMENTS = False
    monkeypatch.setattr(paging, "ROWS_PER_PAGE", 5)
    played("rows", teams=11)
    for wanted in ("", "6", "11"):
        first = client.get("/events/rows/standings/", {"from": wanted} if wanted else {})
        with django_assert_num_queries(2):
            again = client.get("/events/rows/standings/live/", {"from": wanted} if wanted else {})
        assert first.status_code == again.status_code == 200
        assert again.content.decode().count('class="rank"') == (2 if wanted == "11" else 5)


def test_a_claim_leaves_the_pages_as_they_are_and_its_confirmation_changes_them(
    client: Client, renders: list[str]
) -> None:
    """A table's claim shows on no public page: the kept copy is served again, not rendered
    again; the other side's confirmation makes the result, and the page shows it."""
    field, rnd = played()
    field.event.allow_final_score_only = True
    field.event.save(update_fields=["allow_final_score_only"])
    round_url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk and not m.results.exists()
    )
    before = client.get(round_url)
    claimed = claims.submit_claim(match=other, side=0, final_score={"scores": [305, 150]})
    assert claimed.claim is not None and claimed.result is None
    renders.clear()
    unchanged = client.get(round_url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert unchanged.status_code == 304 and renders == []
    confirmed = claims.confirm_claim(match=other, side=1, expected_version=claimed.claim.version)
    assert confirmed.result is not None
    after = client.get(round_url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "61 – 30" in body(after)


def _change_a_result(field: Field, rnd: Round) -> None:
    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk and not m.results.filter(is_current=True)
    )
    decisions.override_result(
        match=other, reason="test", actor=field.director, final_score={"scores": [100, 305]}
    )


def test_while_one_reader_renders_a_changed_page_the_others_get_the_copy_it_replaces(
    client: Client, django_assert_num_queries: Any, renders: list[str]
) -> None:
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    before = client.get(url)
    _change_a_result(field, rnd)
    found = documents.document_key(RequestFactory().get(url))
    assert found is not None
    lock = f"{found[1]}:render"
    # Another reader has begun rendering the changed page (holds its render lock).
    assert cache.add(lock, 1, documents.RENDER_LOCK_SECONDS)
    renders.clear()
    with django_assert_num_queries(0):
        meanwhile = client.get(url)
        revalidated = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert renders == []
    assert meanwhile.status_code == 200 and meanwhile.content == before.content
    assert revalidated.status_code == 304
    # That render done (the lock let go), the next reader renders the new page, once.
    cache.delete(lock)
    after = client.get(url)
    assert "20 – 61" in body(after) and after["ETag"] != before["ETag"]
    assert renders.count("tournaments/rounds/public.html") == 1
    renders.clear()
    assert client.get(url).content == after.content and renders == []
    assert cache.get(lock) is None  # the render let go of the page


def test_a_page_changed_again_soon_after_its_render_waits_for_its_minimum_age(
    client: Client, settings: Any, django_assert_num_queries: Any, renders: list[str]
) -> None:
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    settings.SPINNER_DOCUMENT_MIN_AGE = 60  # a minute, for the test (1 s in production)
    before = client.get(url)
    _change_a_result(field, rnd)
    renders.clear()
    with django_assert_num_queries(0):  # younger than its minimum age: as it was, no render
        meanwhile = client.get(url)
        revalidated = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert meanwhile.content == before.content and revalidated.status_code == 304
    assert renders == []
    settings.SPINNER_DOCUMENT_MIN_AGE = 0  # the minute has passed: the next reader renders it
    after = client.get(url)
    assert "20 – 61" in body(after) and after["ETag"] != before["ETag"]
    assert renders.count("tournaments/rounds/public.html") == 1


def test_a_render_that_fails_lets_go_of_the_page(client: Client, settings: Any) -> None:
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    client.get(url)
    _change_a_result(field, rnd)
    found = documents.document_key(RequestFactory().get(url))
    assert found is not None
    rnd.status = Round.Status.DRAFT  # unpublished meanwhile: a 404, not kept
    rnd.save(update_fields=["status"])
    assert client.get(url).status_code == 404
    assert cache.get(f"{found[1]}:render") is None
    # Nor is the old copy kept: a reader who asks while another renders gets no stale page.
    assert cache.get(found[1]) is None
    assert cache.add(f"{found[1]}:render", 1, documents.RENDER_LOCK_SECONDS)
    assert client.get(url).status_code == 404


def test_a_room_reloading_a_changed_page_at_once_renders_it_once(
    settings: Any, redis_url: str, renders: list[str]
) -> None:
    """Eight readers ask at the same moment after a result (threads, Redis, the database the
    suite runs on): one renders, the others get the previous copy or the new one."""
    on_redis(settings, redis_url)
    field, rnd = played()
    url = f"/events/{field.event.slug}/rounds/{rnd.number}/"
    before = Client().get(url)
    _change_a_result(field, rnd)
    renders.clear()
    start = threading.Barrier(8)

    def read(_: int) -> bytes:
        start.wait(timeout=30)
        try:
            response = Client().get(url)
            assert response.status_code == 200
            return bytes(response.content)
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        bodies = list(pool.map(read, range(8)))
    assert renders.count("tournaments/rounds/public.html") == 1
    new = [b for b in bodies if b != before.content]
    assert all(b == new[0] for b in new) and "20 – 61".encode() in new[0]
    # Afterwards everyone gets the new page, from the cache.
    renders.clear()
    assert Client().get(url).content == new[0] and renders == []
