"""The API's public standings kept as a document (issue 28, ``tournaments/documents.py``): an
anonymous reader's compact JSON is served from the cache with no query, byte for byte what the
view writes, with the view's own ETag (the generation); a result or a recompute makes the next
request render it again; the browsable API, an indented JSON, other parameters and signed-in
readers are rendered each time, as before."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

import brotli
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.follow_support import match_of, private_cache
from tests.tournaments.test_documents import on_redis, played
from tournaments.api.renderers import FastJSONRenderer
from tournaments.selectors import result_privacy, standings
from tournaments.services import decisions, events
from tournaments.services.standings import recompute_standings

# Transactional: the services move the pages' tokens once their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _documents_on(settings: Any) -> None:
    private_cache(settings)
    settings.SPINNER_PUBLIC_DOCUMENTS = True


def api(slug: str) -> str:
    return f"/api/events/{slug}/standings/"


def serialised(slug: str) -> bytes:
    """What the view serialises for an anonymous reader now, written by the API's renderer."""
    from django.contrib.auth.models import AnonymousUser

    event = standings.event_with_state(slug)
    latest = result_privacy.for_viewer(standings.latest_standings(event), AnonymousUser(), event)
    created = latest.meta.created_at
    body = {
        "event": event.slug,
        "generation": latest.meta.generation,
        "updating": latest.meta.updating,
        "computed_at": created.isoformat() if created else None,
        "snapshot": latest.document or None,
    }
    return FastJSONRenderer().render(body, "application/json")


def queries(run: Any) -> int:
    with CaptureQueriesContext(connection) as seen:
        run()
    return len(seen)


def test_the_kept_json_is_the_serialisers_bytes_in_every_encoding(
    client: Client, settings: Any
) -> None:
    field, _ = played()
    url = api(field.event.slug)
    settings.SPINNER_PUBLIC_DOCUMENTS = False
    rendered = client.get(url)  # the view itself, as before
    settings.SPINNER_PUBLIC_DOCUMENTS = True
    expected = serialised(field.event.slug)
    assert rendered.status_code == 200 and rendered.content == expected
    assert json.loads(expected)["snapshot"]["standings"]["rows"]
    client.get(url)  # rendered and kept
    kept: dict[str, Any] = {}

    def ask() -> None:
        for name, accept in (("plain", ""), ("br", "br"), ("gzip", "gzip")):
            kept[name] = client.get(url, HTTP_ACCEPT_ENCODING=accept)

    assert queries(ask) == 0
    assert kept["plain"].content == expected
    assert brotli.decompress(kept["br"].content) == expected
    assert kept["br"]["Content-Encoding"] == "br"
    assert gzip.decompress(kept["gzip"].content) == expected
    for answer in kept.values():
        assert answer.status_code == 200 and answer["Content-Type"] == rendered["Content-Type"]
        assert answer["Cache-Control"] == "no-cache" and "Accept" in answer["Vary"]
    # The view's own ETag, the generation's (docs/api.md); a compressed answer's says so.
    assert kept["plain"]["ETag"] == rendered["ETag"]
    assert re.fullmatch(r'"standings-\d+-\d+-c"', rendered["ETag"])
    assert kept["br"]["ETag"] == rendered["ETag"][:-1] + '-br"'


def test_a_poller_gets_304s_without_a_query_until_the_standings_change(client: Client) -> None:
    field, rnd = played()
    url = api(field.event.slug)
    first = client.get(url, HTTP_ACCEPT_ENCODING="br")
    tag, plain = first["ETag"], first["ETag"].replace("-br", "")
    answers: list[Any] = []

    def poll() -> None:
        for sent in (tag, plain, f"W/{plain}", f'"other", {tag}'):
            answers.append(client.get(url, HTTP_IF_NONE_MATCH=sent, HTTP_ACCEPT_ENCODING="br"))

    assert queries(poll) == 0
    assert [a.status_code for a in answers] == [304] * 4
    assert all(a.content == b"" and a["ETag"] == tag for a in answers)

    # A result: its recompute (eager, after the commit) writes a new generation.
    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk
    )
    decisions.override_result(
        match=other, reason="test", actor=field.director, final_score={"scores": [100, 305]}
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_ENCODING="br")
    assert changed.status_code == 200 and changed["ETag"] != tag
    body = json.loads(brotli.decompress(changed.content))
    assert body["generation"] == json.loads(client.get(url).content)["generation"]
    assert body["generation"] > json.loads(brotli.decompress(first.content))["generation"]
    assert brotli.decompress(changed.content) == serialised(field.event.slug)
    # The view, asked with the compressed copy's tag while no copy is current, answers 304 too.
    documents_off = client.get(url, {"other": "1"}, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert documents_off.status_code == 304
    # A forced recompute that finds the same bytes: the same tag, still a 304.
    recompute_standings(event_id=field.event.pk, force=True)
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_other_representations_and_parameters_are_rendered_each_time(client: Client) -> None:
    field, _ = played()
    url = api(field.event.slug)
    expected = serialised(field.event.slug)
    client.get(url)
    assert queries(lambda: client.get(url)) == 0  # the compact JSON is kept...
    browsable = client.get(url, HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert browsable["Content-Type"].startswith("text/html")  # ...not served for these:
    assert b"<html" in browsable.content and b"Event Standings" in browsable.content
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=4")
    assert indented.content.startswith(b"{\n") and json.loads(indented.content) == json.loads(
        expected
    )
    assert client.get(url, {"format": "api"})["Content-Type"].startswith("text/html")
    for params in ({"format": "json"}, {"other": "1"}, {"format": "json", "x": "2"}):
        assert client.get(url, params).content == expected, params
    for accept in ("text/html", "application/json; indent=4"):
        assert queries(lambda a=accept: client.get(url, HTTP_ACCEPT=a)) > 0, accept
    assert queries(lambda: client.get(url, {"other": "1"})) > 0
    assert queries(lambda: client.get(url, {"format": "json"})) == 0  # kept, apart
    for accept in ("application/json", "*/*", "application/json, text/plain, */*"):
        answer = client.get(url, HTTP_ACCEPT=accept)
        assert answer.content == expected, accept
    assert queries(lambda: client.get(url, HTTP_ACCEPT="application/json")) == 0
    # A format no renderer has is DRF's 404, as before.
    assert client.get(url, {"format": "xml"}).status_code == 404


def test_signed_in_readers_are_never_served_or_stored(client: Client) -> None:
    field, _ = played()
    events.update_event(actor=field.director, event=field.event, public_results=False)
    url = api(field.event.slug)
    public = client.get(url)
    assert '"progress"' not in public.content.decode()  # no outcome leaks from the standings
    director = Client()
    director.force_login(field.director)
    theirs = director.get(url)
    assert '"progress"' in theirs.content.decode()
    assert client.get(url).content == public.content == serialised(field.event.slug)
    token = client.get(url, HTTP_AUTHORIZATION="Token nonsense")
    assert token.status_code == 401  # an API key is checked by the view, never served a copy


def test_hidden_standings_are_no_longer_served(client: Client) -> None:
    field, _ = played()
    url = api(field.event.slug)
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # kept
    events.update_event(actor=field.director, event=field.event, public_standings=False)
    hidden = client.get(url)
    assert hidden.status_code == 404 and hidden.json()["code"] == "not_found"
    assert client.get(url).status_code == 404


def test_on_redis_the_json_is_one_read_and_a_result_renders_it_again(
    client: Client, settings: Any, redis_url: str
) -> None:
    on_redis(settings, redis_url)
    field, rnd = played()
    url = api(field.event.slug)
    first = client.get(url)
    assert queries(lambda: client.get(url)) == 0
    again = client.get(url)
    assert again.content == first.content == serialised(field.event.slug)
    other = next(
        m
        for m in rnd.matches.filter(is_bye=False).select_related("round__event")
        if m.pk != match_of(rnd, field.ramirez).pk
    )
    decisions.override_result(
        match=other, reason="test", actor=field.director, final_score={"scores": [100, 305]}
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.content == serialised(field.event.slug)
