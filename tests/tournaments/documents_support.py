"""What the public-documents tests share (``test_documents*.py``): a played event, its pages'
addresses, the production cache shape, and a page kept without a query."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.test import Client
from django.test.signals import template_rendered

from tests.tournaments.follow_support import (
    Field,
    make_followed_event,
    match_of,
    private_cache,
    publish_next_round,
)
from tournaments.models import Round
from tournaments.services import decisions, round_status
from tournaments.services.standings import recompute_standings


def documents_on(settings: Any) -> None:
    """A cache of the test's own, and the public pages kept as documents."""
    private_cache(settings)
    settings.SPINNER_PUBLIC_DOCUMENTS = True


@pytest.fixture
def documents_pages(settings: Any) -> None:
    """The documents tests' own cache, and the public pages kept as documents (a fixture: each
    module names it in its ``pytestmark``)."""
    documents_on(settings)


@contextmanager
def rendered_templates() -> Iterator[list[str]]:
    """The names of the templates rendered meanwhile (Django's test signal)."""
    seen: list[str] = []

    def count(sender: Any, template: Any, **kwargs: Any) -> None:
        seen.append(str(template.name))

    template_rendered.connect(count)
    try:
        yield seen
    finally:
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
