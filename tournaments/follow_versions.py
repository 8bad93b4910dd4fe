"""What changed for a player following their entry ("my table"): two version tokens in the
cache, so that a poll that finds nothing new costs one cache read and no query.

- the *event's* token changes when a round of the event is published, started or closed, when
  a round's clock moves (start, pause, resume, extend, end), and when the event's settings
  change (what it makes public, its name, its status);
- an *entry's* token changes when a result of one of its matches is written (a confirmation, a
  decision, a correction, a forfeit).

The follow page's ETag is made of the two tokens (``views/follow.py``): a poll reads both in one
``get_many`` and answers 304 when they equal what the browser sent. The tokens are opaque and
random: a missing token (never made, evicted, Redis restarted) is simply made again, which costs
each follower one full answer, never a stale one. Writers change a token only *after* their
transaction commits, and a poll reads the tokens *before* it reads the database, so an answer is
never tagged newer than what it shows (at worst one answer too many).

With the cache down (the fail-open cache: reads miss, writes drop) no token can be kept: every
poll is a full answer, tagged with nothing, until the cache is back.

The public pages kept as documents (``tournaments/documents.py``: round, standings, bracket, team,
match and event pages, the projector's screens) use two more tokens of the same kind:

- the event's *pages* token changes after every committed change a public page of the event may
  show: whatever the event's token changes for, every audited write of the event
  (``services.audit.record``: results, entries, swaps, play-off rounds...) and every standings
  recompute that ends (a new snapshot, "updating" cleared);
- the *site* token changes after an audited write that belongs to no event (a player renamed or
  merged: team pages show players' names).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction

from tournaments.models import Event

TIMEOUT = 7 * 24 * 3600
"""A token lives a week unchanged (then it is made again: one full answer per follower)."""


def event_key(slug: str) -> str:
    return f"follow:v1:event:{slug}"


def entry_key(entry_id: int) -> str:
    return f"follow:v1:entry:{entry_id}"


def pages_key(slug: str) -> str:
    return f"follow:v1:pages:{slug}"


SITE_KEY = "follow:v1:site"


def _token() -> str:
    return secrets.token_hex(6)


def read(slug: str, entry_id: int) -> tuple[str | None, str | None]:
    """The event's and the entry's tokens (None where missing): one cache read, no query."""
    found = cache.get_many([event_key(slug), entry_key(entry_id)])
    return found.get(event_key(slug)), found.get(entry_key(entry_id))


def ensure(slug: str, entry_id: int) -> tuple[str | None, str | None]:
    """The two tokens, making a missing one (``add``: two pollers that race agree on the
    stored one). None where the cache keeps nothing (it is down)."""
    tokens = []
    for key in (event_key(slug), entry_key(entry_id)):
        value = cache.get(key)
        if value is None:
            cache.add(key, _token(), timeout=TIMEOUT)
            value = cache.get(key)
        tokens.append(value)
    return tokens[0], tokens[1]


def etag(event_token: str, entry_token: str, entry_id: int, language: str) -> str:
    """The follow fragment's strong ETag: both tokens, the entry and the language it is in."""
    return f'"follow-{event_token}-{entry_token}-{entry_id}-{language}"'


def ensure_pages(slug: str, read: dict[str, str] | None = None) -> tuple[str | None, str | None]:
    """The event's pages token and the site token, making a missing one (``add``, as
    :func:`ensure`); ``read`` holds what the caller already read. None where the cache keeps
    nothing (it is down)."""
    read = read or {}
    tokens = []
    for key in (pages_key(slug), SITE_KEY):
        value = read.get(key)
        if value is None:
            cache.add(key, _token(), timeout=TIMEOUT)
            value = cache.get(key)
        tokens.append(value)
    return tokens[0], tokens[1]


def bump_event(event: Event) -> None:
    """Once the current transaction commits: every follower of ``event`` has news (and so have
    its public pages)."""
    slug = event.slug
    transaction.on_commit(
        lambda: cache.set_many({event_key(slug): _token(), pages_key(slug): _token()}, TIMEOUT),
        robust=True,
    )


def bump_pages(event: Event) -> None:
    """Once the current transaction commits: the public pages of ``event`` changed."""
    slug = event.slug
    transaction.on_commit(
        lambda: cache.set(pages_key(slug), _token(), timeout=TIMEOUT), robust=True
    )


def bump_pages_of(event_id: int) -> None:
    """:func:`bump_pages` for an event known by id (one query, for its slug, after commit)."""

    def bump() -> None:
        slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
        if slug is not None:
            cache.set(pages_key(slug), _token(), timeout=TIMEOUT)

    transaction.on_commit(bump, robust=True)


def bump_site() -> None:
    """Once the current transaction commits: what every event's pages show of players changed."""
    transaction.on_commit(lambda: cache.set(SITE_KEY, _token(), timeout=TIMEOUT), robust=True)


def bump_entries(entry_ids: Iterable[int | None]) -> None:
    """Once the current transaction commits: the followers of these entries have news."""
    keys = [entry_key(i) for i in entry_ids if i is not None]
    if keys:
        transaction.on_commit(
            lambda: cache.set_many({key: _token() for key in keys}, timeout=TIMEOUT), robust=True
        )
