"""Public pages as documents, in slices: a long round's tables and long standings come in
slices, each read and rendered on its own; a claim, a confirmation, a render under way or failed,
and a room reloading at once (the rest: ``test_documents.py``).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory

from tests.tournaments.documents_support import (  # noqa: F401 (documents_pages: a fixture)
    body,
    documents_on,
    documents_pages,
    on_redis,
    played,
    rendered_templates,
)
from tests.tournaments.follow_support import (
    Field,
    make_followed_event,
    match_of,
    publish_next_round,
)
from tournaments import documents
from tournaments.models import Round
from tournaments.presenters import paging
from tournaments.selectors import matches as matches_reads
from tournaments.selectors import rounds as round_reads
from tournaments.services import claims, decisions
from tournaments.views import rounds as round_views

# Transactional: the services move the pages' tokens once their transaction commits.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("documents_pages")]


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
    # more, by click or scroll
    assert 'href="?from=5"' in first and 'data-hx-get="?from=5"' in first
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
    assert 'data-hx-get="/events/long/standings/live/?from=1"' in first
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
