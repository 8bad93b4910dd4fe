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
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, permissions
from rest_framework.request import Request

from tournaments.api.authentication import table_access
from tournaments.models import Event, Match, Round
from tournaments.permissions import (
    can_create_events,
    can_direct,
    can_oversee,
    can_see,
    read_only_staff_error,
)


def may_act(request: Request, event: Any) -> bool:
    """Reads for those who oversee the event, changes for its directors.

    Raises ``ReadOnlyStaff`` (403 ``read_only_staff``) for a change by staff who may only
    oversee it; False (the permission's own 403) for anyone else.
    """
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


def _event_of(obj: Any) -> Any:
    if isinstance(obj, Match):
        return obj.round.event
    if isinstance(obj, Round):
        return obj.event
    return obj


class IsTableOrUser(permissions.BasePermission):
    """Authenticated somehow: a table token, or a logged-in user (401 otherwise)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return table_access(request) is not None or bool(
            request.user and request.user.is_authenticated
        )


class OwnTableOrDirector(IsTableOrUser):
    """The table of this match (its token), or a director of its event."""

    message = "This is not your table's match."
    code = "forbidden"

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        access = table_access(request)
        if access is not None:
            return _visible_or_404(isinstance(obj, Match) and access.may_act_on(obj), obj)
        return _visible_or_404(may_act(request, _event_of(obj)), obj)


class DirectorOnly(permissions.BasePermission):
    """A logged-in director of the object's event (staff: reads only). Table tokens never."""

    message = "Only the event's directors may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return (
            bool(request.user and request.user.is_authenticated) and table_access(request) is None
        )

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return _visible_or_404(may_act(request, _event_of(obj)), obj)


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
            return _visible_or_404(can_see(request.user, _event_of(obj)), obj)
        return _visible_or_404(may_act(request, _event_of(obj)), obj)


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
