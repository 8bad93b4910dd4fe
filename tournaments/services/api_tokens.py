"""API keys (``Authorization: Token <key>``): made, checked and revoked here; stored as their
SHA-256 only, so the key itself is shown once, when it is made.

A key belongs to one user and may be narrowed (``ApiToken``): ``scope`` read (GET, HEAD and
OPTIONS only) or write (read and write); ``events`` (none: every event its user directs, now
and later); ``expires_at`` (None: never). A revoked key is kept, refused, and still named by
the audit log. The API enforces these limits in one place (``tournaments.api.tokens`` and
``tournaments.api.permissions``); this module says what a key is and what it grants.

Writes (keyword-only, one transaction each, audited as ``api_token.create`` and
``api_token.revoke``: one entry per event the key is scoped to, so that each event's log shows
it, or one entry with no event for a key of every event). Errors (stable ``code``):

    invalid                  -> ValidationFailed: a name over 100 characters
    invalid_choice           -> ValidationFailed: a scope other than read or write
    api_token_expiry_past    -> ValidationFailed: an expiry that has already passed
    not_event_director       -> NotAllowed: a key is scoped only to events its user directs
    api_token_not_found      -> NotFound: revoking a key that is not the actor's own
    authentication_failed, api_token_revoked, api_token_expired
                             -> ApiKeyRefused (401), from ``resolve_api_key``
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import NotAllowed, NotFound, ValidationFailed
from tournaments.models import ApiToken, Event
from tournaments.permissions import can_direct
from tournaments.selectors.api_tokens import is_expired
from tournaments.services.audit import record

KEY_BYTES = 20
"""A key is this many random bytes, written as hex (40 characters)."""
PREFIX_LENGTH = 8
"""How many of the key's first characters are kept, so that a person can tell keys apart."""
NAME_MAX = 100
DEFAULT_LIFETIME = dt.timedelta(days=90)
"""How long a key made on the director's page lives unless the director says otherwise."""
LAST_USED_EVERY = dt.timedelta(seconds=60)
"""``last_used_at`` is written at most this often per key (a busy client writes no row per call)."""


class ApiKeyRefused(NotAllowed):
    """The key is unknown (or its account inactive): one code for all, a guesser learns nothing."""

    code = "authentication_failed"
    status = 401


class ApiKeyRevoked(ApiKeyRefused):
    code = "api_token_revoked"


class ApiKeyExpired(ApiKeyRefused):
    code = "api_token_expired"


class ApiKeyNotFound(NotFound):
    code = "api_token_not_found"


class ApiKeyExpiryPast(ValidationFailed):
    code = "api_token_expiry_past"


@dataclass(frozen=True)
class ApiKeyAccess:
    """What a valid key grants: its user's powers, narrowed to reads (``read_only``) and to
    some events (``event_ids``; None: every event the user directs)."""

    token: ApiToken
    event_ids: frozenset[int] | None

    @property
    def read_only(self) -> bool:
        return self.token.scope == ApiToken.Scope.READ

    def covers(self, event_id: int) -> bool:
        """May the key act on this event at all (its user's own rights aside)?"""
        return self.event_ids is None or event_id in self.event_ids


def hash_key(key: str) -> str:
    """The one way a key is stored and looked up: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def expiry_of_date(day: dt.date) -> dt.datetime:
    """A key that "expires on" ``day`` stops working at the start of that day (current time
    zone): the one conversion from the page's date to ``expires_at``."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def default_expiry_date(today: dt.date | None = None) -> dt.date:
    """The expiry the director's page offers: ``DEFAULT_LIFETIME`` from today."""
    return (today or timezone.localdate()) + DEFAULT_LIFETIME


def resolve_api_key(key: str) -> ApiKeyAccess:
    """Check a key and say what it grants; note when it was last used (at most once a minute).

    Raises ``ApiKeyRefused`` (unknown key, inactive account), ``ApiKeyRevoked`` or
    ``ApiKeyExpired``, all 401. Two queries (the key with its user, its events), and an update
    of ``last_used_at`` when that is over a minute old.
    """
    token = ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()
    if token is None or not token.user.is_active:
        raise ApiKeyRefused(_("This API key is not valid; make a new one on your API keys page."))
    if token.revoked_at is not None:
        raise ApiKeyRevoked(_("This API key was revoked; make a new one on your API keys page."))
    now = timezone.now()
    if is_expired(token, now):
        raise ApiKeyExpired(_("This API key has expired; make a new one on your API keys page."))
    # No events listed: every event the user directs. A listed event cannot vanish from under
    # a key (which would widen it): making the key audited it in that event's log, and the
    # log's rows protect their event from deletion.
    ids = frozenset(token.events.values_list("pk", flat=True))
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return ApiKeyAccess(token=token, event_ids=ids or None)


def _invalid(field: str, message: str, code: str = "invalid") -> ValidationFailed:
    return ValidationFailed(
        message, code=code, details={"field": field, "errors": {field: message}}
    )


def _check_request(
    *, user: User, name: str, scope: str, events: list[Event], expires_at: dt.datetime | None
) -> None:
    if len(name) > NAME_MAX:
        raise _invalid(
            "name", _("Give the key a name of at most %(n)d characters.") % {"n": NAME_MAX}
        )
    if scope not in ApiToken.Scope.values:
        raise _invalid(
            "scope", _("A key reads only (read) or reads and writes (write)."), "invalid_choice"
        )
    if expires_at is not None and expires_at <= timezone.now():
        message = _("That expiry has already passed: pick a later date, or none.")
        raise ApiKeyExpiryPast(
            message, details={"field": "expires_at", "errors": {"expires_at": message}}
        )
    foreign = [e.slug for e in events if not can_direct(user, e)]
    if foreign:
        message = _("A key can be limited only to events you direct.")
        raise NotAllowed(
            message,
            code="not_event_director",
            details={"field": "events", "errors": {"events": message}, "events": foreign},
        )


def _audit(token: ApiToken, *, actor: User, action: str, events: list[Event]) -> None:
    after = {
        "name": token.name,
        "prefix": token.prefix,
        "scope": token.scope,
        "events": sorted(e.slug for e in events),
        "expires_at": token.expires_at,
        "revoked_at": token.revoked_at,
    }
    where: list[Event | None] = [*sorted(events, key=lambda e: e.pk)] or [None]
    for event in where:
        record(event=event, actor=actor, action=action, obj=token, after=after)


@transaction.atomic
def create_api_token(
    *,
    user: User,
    name: str = "",
    scope: str = ApiToken.Scope.WRITE,
    events: Iterable[Event] = (),
    expires_at: dt.datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new key for ``user`` (who makes it): the stored row and the key itself, which is never
    stored: show it once. ``events`` empty: every event ``user`` directs; ``expires_at`` None:
    it never expires. Refuses events ``user`` does not direct and an expiry already past."""
    chosen = list({e.pk: e for e in events}.values())
    name = name.strip()
    _check_request(user=user, name=name, scope=scope, events=chosen, expires_at=expires_at)
    key = secrets.token_hex(KEY_BYTES)
    token = ApiToken.objects.create(
        user=user,
        key_hash=hash_key(key),
        prefix=key[:PREFIX_LENGTH],
        name=name,
        scope=scope,
        expires_at=expires_at,
    )
    token.events.set(chosen)
    _audit(token, actor=user, action="api_token.create", events=chosen)
    return token, key


@transaction.atomic
def revoke_api_token(*, token_id: int, actor: User) -> ApiToken:
    """Revoke one of ``actor``'s own keys: refused at once by the API, kept for the record.

    Another user's key (even a superuser's asking) is ``api_token_not_found``, as a missing one
    is. Revoking a revoked key changes nothing and records nothing."""
    token = ApiToken.objects.select_for_update().filter(pk=token_id, user=actor).first()
    if token is None:
        raise ApiKeyNotFound(_("No such API key among yours."), details={"id": token_id})
    if token.revoked_at is not None:
        return token
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    _audit(token, actor=actor, action="api_token.revoke", events=list(token.events.all()))
    return token
