"""What every page writes for machines (issue 31): ``<time datetime>`` values in ISO 8601 to the
second, ids that are unique on their page, and a ``<meta name="description">`` of its own on each
public page. The pages are those of the finished demo event (``pages_support``) and, for the
forms of a match still to be resolved, a match page with two claims that differ."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.tournaments.desk_support import states_round
from tests.tournaments.pages_support import DIRECTOR, director_pages, public_pages
from tournaments.models import Event, WebhookDelivery
from tournaments.services import webhooks
from tournaments.templatetags.event_time import iso_instant

pytestmark = pytest.mark.django_db

ISO_SECOND = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$")


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.datetimes: list[str] = []
        self.ids: list[str] = []
        self.descriptions: list[str] = []

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        if "datetime" in attrs:
            self.datetimes.append(attrs["datetime"])
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "meta" and attrs.get("name") == "description":
            self.descriptions.append(attrs.get("content", ""))


def read(client: Client, path: str) -> _Markup:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    markup = _Markup()
    markup.feed(response.content.decode())
    return markup


@pytest.fixture
def demo() -> Event:
    call_command("demo", "--finish", stdout=StringIO())
    return Event.objects.get(slug="demo")


def webhook_page(event: Event) -> str:
    """The deliveries page of an endpoint with one delivery made and one waiting to retry."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    boss = User.objects.get(username=DIRECTOR[0])
    endpoint, _ = webhooks.register_endpoint(event=event, actor=boss, url="https://x.example/h")
    now = timezone.now()
    WebhookDelivery.objects.create(
        endpoint=endpoint,
        kind="round.published",
        dedup_key="a",
        status="delivered",
        attempts=1,
        delivered_at=now,
    )
    WebhookDelivery.objects.create(
        endpoint=endpoint,
        kind="result.confirmed",
        dedup_key="b",
        status="pending",
        attempts=1,
        next_attempt_at=now,
    )
    return reverse("director:webhook", args=[event.slug, endpoint.pk])


def director_client() -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.force_login(User.objects.get(username=DIRECTOR[0]))
    return client


def test_the_iso_instant_filter_drops_the_microseconds_and_keeps_the_offset() -> None:
    import datetime

    when = datetime.datetime(2026, 12, 5, 20, 5, 9, 123456, tzinfo=datetime.UTC)
    assert iso_instant(when) == "2026-12-05T20:05:09+00:00"
    assert iso_instant(None) == ""


def test_every_datetime_attribute_is_iso_8601_to_the_second_and_every_id_unique(
    demo: Event,
) -> None:
    seen = 0
    pages = [(Client(), p) for p in public_pages(demo)]
    director = director_client()
    pages += [(director, p) for p in director_pages(demo)]
    pages.append((director, ("webhook", webhook_page(demo))))
    for client, (name, path) in pages:
        markup = read(client, path)
        bad = [v for v in markup.datetimes if not ISO_SECOND.match(v)]
        assert not bad, (name, bad)
        seen += len(markup.datetimes)
        twice = [i for i, n in Counter(markup.ids).items() if n > 1]
        assert not twice, (name, twice)
    assert seen > 0  # the audit log and the finish write times


def test_a_match_to_resolve_has_one_id_per_field_and_labels_that_point_at_them() -> None:
    event, boss, rnd, matches = states_round("ids")
    client = Client()
    client.force_login(boss)
    conflict = matches["conflict"]
    pages = [
        f"/director/events/{event.slug}/rounds/{rnd.number}/results/{conflict.pk}/",
        f"/director/events/{event.slug}/rounds/{rnd.number}/",
    ]
    seen: list[str] = []
    for path in pages:
        body = client.get(path).content.decode()
        markup = _Markup()
        markup.feed(body)
        assert not [i for i, n in Counter(markup.ids).items() if n > 1], path
        assert not [v for v in markup.datetimes if not ISO_SECOND.match(v)], path
        for target in re.findall(r'<label for="([^"]+)"', body):
            assert target in markup.ids, (path, target)
        seen += markup.ids
    assert {"id_resolve_reason", "id_reason", "id_forfeit-reason"} <= set(seen)


def test_each_public_page_has_a_description_of_its_own(demo: Event) -> None:
    client = Client()
    found: dict[str, str] = {}
    for name, path in public_pages(demo):
        markup = read(client, path)
        assert len(markup.descriptions) == 1, (name, markup.descriptions)
        assert markup.descriptions[0].strip(), name
        found[name] = markup.descriptions[0]
    specific = ("event", "standings", "round", "team", "match", "bracket", "follow")
    for name in specific:
        assert demo.name in found[name], (name, found[name])


def test_a_date_input_holds_an_iso_day_in_spanish_too(demo: Event) -> None:
    client = director_client()
    client.cookies["django_language"] = "es"
    body = client.get("/director/api-keys/").content.decode()
    assert '<html lang="es">' in body
    values = re.findall(r'<input type="date"[^>]*value="([^"]*)"', body)
    assert values and all(re.fullmatch(r"\d{4}-\d\d-\d\d", v) for v in values), values
