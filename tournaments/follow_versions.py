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


def bump_event(event: Event) -> None:
    """Once the current transaction commits: every follower of ``event`` has news."""
    slug = event.slug
    transaction.on_commit(
        lambda: cache.set(event_key(slug), _token(), timeout=TIMEOUT), robust=True
    )


def bump_entries(entry_ids: Iterable[int | None]) -> None:
    """Once the current transaction commits: the followers of these entries have news."""
    keys = [entry_key(i) for i in entry_ids if i is not None]
    if keys:
        transaction.on_commit(
            lambda: cache.set_many({key: _token() for key in keys}, timeout=TIMEOUT), robust=True
        )
