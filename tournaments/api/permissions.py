"""Who may call what: object-level checks, on writes as on reads.

A table token acts on its own table's match in its own round; a director (or a superuser) on
the matches of the events they direct. Staff read every event's director endpoints (GET,
HEAD, OPTIONS: ``can_oversee``) and change none they do not direct: 403 ``read_only_staff``.
Views call ``check_object_permissions`` with the match (or round) before doing anything,
creates included.

An object the caller may not see answers 404, as if it did not exist (as the pages do): a
director of another event, a table token for another table, round or event. A 403 says only
what the caller is (a table token on a director endpoint, a director submitting a claim,
read-only staff changing something), never whether an object exists.

API keys (``Authorization: Token <key>``). A key's own limits (revoked or expired: 401; a read
key writing: 403 ``api_token_read_only``) are checked by its authentication
(``tournaments.api.tokens``) for every view. Its events are checked here, where every director
endpoint resolves the event it acts on; an event outside the key's answers 404, as an event its
user does not direct does (an event's existence is not revealed):

- the object: ``may_act(request, event)``, which ``OwnTableOrDirector`` and ``DirectorOnly``
  call from ``has_object_permission`` with ``event_of(obj)`` (an Event, a Round, a Match, or
  any object with ``event``, ``round`` or ``match``: an Entry, a Table, a job, a webhook...);
- the URL, before the view runs: the same classes' ``has_permission`` look at the event the
  route names, by the ``slug`` kwarg (an event's slug: under these classes a ``slug`` always
  names an event) or the ``match_id`` kwarg (``EVENT_URL_KWARGS``), so that a view which looks
  its event up itself is held to the key's events too.

How a new endpoint gets the check: subclass ``DirectorApi`` (``tournaments.api.base``) or list
``DirectorOnly`` / ``OwnTableOrDirector`` in ``permission_classes``, and call
``self.check_object_permissions(request, obj)`` with what it acts on (an Event, Round, Match,
Entry...) before acting, as the directors' own rights need anyway. An endpoint about no one
event filters its lists with ``in_key_scope(request, queryset)``; one that makes something
outside every event (creating an event) adds ``NotEventScopedKey`` (403
``api_token_event_scoped``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, permissions
from rest_framework.request import Request

from tournaments.api.authentication import table_access
from tournaments.api.tokens import api_key
from tournaments.models import Event, Match, Round
from tournaments.permissions import (
    can_create_events,
    can_direct,
    can_oversee,
    can_see,
    read_only_staff_error,
)

#: Route kwargs that name the request's event, and how to find the event from each.
EVENT_URL_KWARGS: dict[str, str] = {"slug": "slug", "match_id": "rounds__matches__pk"}

ModelT = TypeVar("ModelT", bound=models.Model)


def key_covers(request: Request, event: Event) -> bool:
    """False only for an API key limited to other events than this one."""
    access = api_key(request)
    return access is None or access.covers(event.pk)


def may_act(request: Request, event: Any) -> bool:
    """Reads for those who oversee the event, changes for its directors; never an event outside
    the request's API key's events.

    Raises ``ReadOnlyStaff`` (403 ``read_only_staff``) for a change by staff who may only
    oversee it; False (the permission's own 403) for anyone else.
    """
    if not key_covers(request, event):
        return False
    if request.method in permissions.SAFE_METHODS:
        return can_oversee(request.user, event)
    if can_direct(request.user, event):
        return True
    if can_oversee(request.user, event):
        raise read_only_staff_error(event)
    return False


def _visible_or_404(allowed: bool, obj: Any) -> bool:
    if not allowed:
        what = (
            "match"
            if isinstance(obj, Match)
            else "round"
            if isinstance(obj, Round)
            else "event"
            if isinstance(obj, Event)
            else "object"
        )
        raise exceptions.NotFound(f"No such {what} among yours.")
    return True


def event_of(obj: Any) -> Event:
    """The event an object of the API belongs to: itself, or its ``event``, its ``round``'s or
    its ``match``'s. Anything else is a programming error (a new kind of object: give it one
    of those)."""
    if isinstance(obj, Event):
        return obj
    if isinstance(obj, Match):
        return obj.round.event
    if isinstance(obj, Round):
        return obj.event
    for via in ("event", "round", "match"):
        related = getattr(obj, via, None)
        if related is not None:
            return event_of(related)
    raise TypeError(f"No event for a {type(obj).__name__}: the API cannot check who may act on it")


def check_url_event(request: Request, view: Any) -> None:
    """For an API key limited to some events: 404 before the view runs when the route names an
    event (``EVENT_URL_KWARGS``) outside them. A route naming nothing that exists is left to
    the view's own 404."""
    access = api_key(request)
    if access is None or access.event_ids is None:
        return
    kwargs = getattr(view, "kwargs", None) or {}
    for kwarg, lookup in EVENT_URL_KWARGS.items():
        if kwarg in kwargs:
            found = Event.objects.filter(**{lookup: kwargs[kwarg]}).values_list("pk", flat=True)
            event_id = found.first()
            if event_id is not None and not access.covers(event_id):
                what = "match" if kwarg == "match_id" else "event"
                raise exceptions.NotFound(f"No such {what} among yours.")
            return


def in_key_scope(
    request: Request, queryset: models.QuerySet[ModelT], event_field: str = "pk"
) -> models.QuerySet[ModelT]:
    """A list about several events, narrowed to the request's API key's events (``event_field``
    names the event's id in ``queryset``: ``"pk"`` for events, ``"event_id"`` for entries...)."""
    access = api_key(request)
    if access is None or access.event_ids is None:
        return queryset
    return queryset.filter(**{f"{event_field}__in": access.event_ids})


class NotEventScopedKey(permissions.BasePermission):
    """For changes outside every event (creating an event, editing a player, who plays in many):
    an API key limited to some events is refused (403 ``api_token_event_scoped``); its reads
    are left to the other permissions."""

    message = _("This API key is limited to some events; use a key for all your events.")
    code = "api_token_event_scoped"

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        access = api_key(request)
        return access is None or access.event_ids is None


class IsTableOrUser(permissions.BasePermission):
    """Authenticated somehow: a table token, or a logged-in user (401 otherwise)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if table_access(request) is not None:
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        check_url_event(request, view)
        return True


class OwnTableOrDirector(IsTableOrUser):
    """The table of this match (its token), or a director of its event."""

    message = "This is not your table's match."
    code = "forbidden"

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        access = table_access(request)
        if access is not None:
            return _visible_or_404(isinstance(obj, Match) and access.may_act_on(obj), obj)
        return _visible_or_404(may_act(request, event_of(obj)), obj)


class DirectorOnly(permissions.BasePermission):
    """A logged-in director of the object's event (staff: reads only). Table tokens never."""

    message = "Only the event's directors may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        if (
            not (request.user and request.user.is_authenticated)
            or table_access(request) is not None
        ):
            return False
        check_url_event(request, view)
        return True

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return _visible_or_404(may_act(request, event_of(obj)), obj)


class TableOnly(permissions.BasePermission):
    """Only a table token (a user, director or not, gets 403 ``table_link_required``)."""

    message = "Only a table link may call this."
    code = "table_link_required"

    def has_permission(self, request: Request, view: Any) -> bool:
        # Unauthenticated requests get 401 from DRF; a user's token gets 403.
        return table_access(request) is not None


class TableOnlyToWrite(permissions.BasePermission):
    """Reads for anyone the view's other permissions let in; writes (claims, confirmations)
    with a table token only. A director's 403 says ``table_link_required``: directors decide with
    resolve, override and correct, which take a reason and record who did it."""

    message = (
        "Claims and confirmations come from the tables' links; a director resolves, "
        "overrides or corrects a result instead (with a reason)."
    )
    code = "table_link_required"

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return table_access(request) is not None


def _signed_in(request: Request) -> bool:
    """A user's key or session (a table link is no user)."""
    return bool(request.user and request.user.is_authenticated) and table_access(request) is None


class PublicReadDirectorWrite(permissions.BasePermission):
    """An event's public reads (an event anyone may see: out of draft; drafts only for those
    who oversee it, 404 to others) and its directors' changes (as ``DirectorOnly``)."""

    message = "Only the event's directors may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or _signed_in(request)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return _visible_or_404(can_see(request.user, event_of(obj)), obj)
        return _visible_or_404(may_act(request, event_of(obj)), obj)


class EventCreatorsToWrite(permissions.BasePermission):
    """The event list: anyone reads it (each caller sees their own list); creating an event
    takes an organiser (``can_create_events``: the organisers group, superusers)."""

    message = "Only organisers create events: ask an administrator to make you one."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return _signed_in(request) and can_create_events(request.user)


class PublicReadSignedInWrite(permissions.BasePermission):
    """Public reads; changes by a signed-in user (the view checks which objects they manage).
    A table link changes nothing here (403)."""

    message = "Sign in (a user's API key or session) to change this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or _signed_in(request)
