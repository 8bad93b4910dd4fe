"""Who may call what: object-level checks, on writes as on reads.

A table token acts on its own table's match in its own round; a director (or staff) on the
matches of the events they direct. Views call ``check_object_permissions`` with the match (or
round) before doing anything, creates included.
"""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from tournaments.api.authentication import table_access
from tournaments.models import Match, Round
from tournaments.permissions import can_direct


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
            return isinstance(obj, Match) and access.may_act_on(obj)
        return can_direct(request.user, _event_of(obj))


class DirectorOnly(permissions.BasePermission):
    """A logged-in director of the object's event (or staff). Table tokens never."""

    message = "Only the event's directors may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return (
            bool(request.user and request.user.is_authenticated) and table_access(request) is None
        )

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return can_direct(request.user, _event_of(obj))


class TableOnly(permissions.BasePermission):
    """Only a table token."""

    message = "Only a table link may call this."

    def has_permission(self, request: Request, view: Any) -> bool:
        # Unauthenticated requests get 401 from DRF; a user's token gets 403.
        return table_access(request) is not None
