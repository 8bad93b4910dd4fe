"""Writes for leagues: create and change a league, add an event to it or take one out.

Every function is keyword-only, runs in one transaction and is audited (``league.create``,
``league.update``, ``league.add_event``, ``league.remove_event``; the last two in the event's own
log too). Errors (``tournaments.errors``, stable ``code``):

    name_required, invalid_slug, invalid_league_points, invalid_best_of -> ValidationFailed
                                      (``details = {"field": first, "errors": {field: msg}}``)
    slug_taken                       -> Conflict
    not_league_director              -> NotAllowed: only the league's directors change it
    not_event_director               -> NotAllowed: an event joins or leaves a league only by a
                                        director of both
    event_in_another_league          -> Conflict: take it out of that league first
    event_not_in_league              -> Conflict

Who may create a league: whoever may create events (``permissions.can_create_events``); the
creator becomes its first director.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from tournaments.errors import Conflict, NotAllowed, ValidationFailed
from tournaments.models import Event, League
from tournaments.permissions import can_create_events, can_direct
from tournaments.services.audit import record, snapshot

#: What ``create_league`` / ``update_league`` set.
LEAGUE_FIELDS: tuple[str, ...] = (
    "name",
    "season",
    "points",
    "best_of",
    "rank_partnerships",
    "public",
)

#: The places a points list may name (a league of more is a typing slip).
MAX_PLACES = 256


def can_direct_league(user: User | Any, league: League) -> bool:
    """Superusers and the league's directors."""
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_superuser", False):
        return True
    return league.directors.filter(pk=user.pk).exists()


def _invalid(field: str, code: str, message: str) -> ValidationFailed:
    details = {"field": field, "errors": {field: message}}
    return ValidationFailed(message, code=code, details=details)


def _validate(values: dict[str, Any]) -> None:
    if not str(values.get("name") or "").strip():
        raise _invalid("name", "name_required", "Give the league a name.")
    points = values.get("points")
    if (
        not isinstance(points, list)
        or not points
        or len(points) > MAX_PLACES
        or any(type(p) is not int or p < 0 for p in points)
    ):
        raise _invalid(
            "points",
            "invalid_league_points",
            "List the points per place as whole numbers, 0 or more, best place first "
            "(e.g. 25, 18, 15, 12, 10).",
        )
    best_of = values.get("best_of")
    if best_of is not None and (type(best_of) is not int or best_of < 1):
        raise _invalid(
            "best_of",
            "invalid_best_of",
            "Count a player's best 1 or more events, or leave it empty to count them all.",
        )


def _slug_taken(slug: str) -> Conflict:
    return Conflict(
        gettext("The web address %(slug)r is taken: choose another.") % {"slug": slug},
        code="slug_taken",
        details={"field": "slug", "errors": {"slug": "Taken by another league."}},
    )


@transaction.atomic
def create_league(*, actor: User, name: str, slug: str = "", **settings: Any) -> League:
    """Create a league (``settings``: fields of ``LEAGUE_FIELDS``); the creator directs it.
    ``slug`` is made from the name when empty."""
    unknown = set(settings) - set(LEAGUE_FIELDS)
    if unknown:
        raise TypeError(f"unknown league settings: {sorted(unknown)}")
    if not can_create_events(actor):
        raise NotAllowed(gettext("Only organisers create leagues."), code="forbidden")
    league = League(name=name.strip(), **settings)
    _validate({f: getattr(league, f) for f in LEAGUE_FIELDS})
    if slug:
        if slugify(slug) != slug:
            raise _invalid(
                "slug", "invalid_slug", "Use lowercase letters, digits and hyphens in the address."
            )
        if League.objects.filter(slug=slug).exists():
            raise _slug_taken(slug)
        league.slug = slug
    else:
        base = slugify(f"{league.name} {league.season}")[:70] or "league"
        league.slug, n = base, 1
        while League.objects.filter(slug=league.slug).exists():
            n += 1
            league.slug = f"{base}-{n}"
    try:
        with transaction.atomic():
            league.save()
    except IntegrityError as exc:  # a concurrent creation took the slug
        raise _slug_taken(league.slug) from exc
    league.directors.add(actor)
    record(event=None, actor=actor, action="league.create", obj=league, after=snapshot(league))
    return league


def _require_director(actor: User, league: League) -> None:
    if not can_direct_league(actor, league):
        raise NotAllowed(
            gettext("Only the league's directors change it."),
            code="not_league_director",
            details={"league": league.slug},
        )


@transaction.atomic
def update_league(*, actor: User, league: League, **changes: Any) -> League:
    """Change a league's settings (``LEAGUE_FIELDS``); a no-op change records nothing."""
    unknown = set(changes) - set(LEAGUE_FIELDS)
    if unknown:
        raise TypeError(f"unknown league settings: {sorted(unknown)}")
    league = League.objects.select_for_update().get(pk=league.pk)
    _require_director(actor, league)
    before = snapshot(league, list(LEAGUE_FIELDS))
    if isinstance(changes.get("name"), str):
        changes["name"] = changes["name"].strip()
    _validate({**before, **changes})
    changed = {f: v for f, v in changes.items() if before.get(f) != v}
    if not changed:
        return league
    for field, value in changed.items():
        setattr(league, field, value)
    league.save(update_fields=list(changed))
    record(
        event=None,
        actor=actor,
        action="league.update",
        obj=league,
        before={f: before[f] for f in changed},
        after=snapshot(league, list(changed)),
    )
    return league


def _require_both(actor: User, league: League, event: Event) -> None:
    _require_director(actor, league)
    if not can_direct(actor, event):
        raise NotAllowed(
            gettext(
                "Only a director of both the league and the event adds the event to the league."
            ),
            code="not_event_director",
            details={"league": league.slug, "event": event.slug},
        )


@transaction.atomic
def add_event(*, actor: User, league: League, event: Event) -> Event:
    """Count ``event`` in ``league``'s season (again: nothing changes)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _require_both(actor, league, event)
    if event.league_id == league.pk:
        return event
    if event.league_id is not None:
        raise Conflict(
            gettext("The event counts in another league: take it out of that league first."),
            code="event_in_another_league",
            details={"event": event.slug},
        )
    event.league = league
    event.save(update_fields=["league", "updated_at"])
    record(
        event=event,
        actor=actor,
        action="league.add_event",
        obj=league,
        after={"league": league.slug, "event": event.slug},
    )
    return event


@transaction.atomic
def remove_event(*, actor: User, league: League, event: Event) -> Event:
    """Take ``event`` out of ``league``'s season."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _require_both(actor, league, event)
    if event.league_id != league.pk:
        raise Conflict(
            gettext("The event does not count in this league."),
            code="event_not_in_league",
            details={"event": event.slug},
        )
    event.league = None
    event.save(update_fields=["league", "updated_at"])
    record(
        event=event,
        actor=actor,
        action="league.remove_event",
        obj=league,
        before={"league": league.slug, "event": event.slug},
    )
    return event
