"""Organisers: the accounts that may create events (superusers always may).

A superuser makes an account an organiser by adding it to the group ``organisers`` (in the
admin, or with ``make_organiser``); the group holds the permission ``tournaments.add_event``,
which ``tournaments.permissions.can_create_events`` checks.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from tournaments.models import Event
from tournaments.permissions import ORGANISERS_GROUP


def organisers_group() -> Group:
    """The group, with its permission (made here when missing, as migration 0005 makes it)."""
    content_type = ContentType.objects.get_for_model(Event)
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="add_event", defaults={"name": "Can add event"}
    )
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.permissions.add(permission)
    return group


@transaction.atomic
def make_organiser(*, user: AbstractBaseUser) -> None:
    """Let ``user`` create events."""
    user.groups.add(organisers_group())  # type: ignore[attr-defined]
    # Django caches a user's permissions on the instance: forget them.
    for cache in ("_perm_cache", "_group_perm_cache", "_user_perm_cache"):
        if hasattr(user, cache):
            delattr(user, cache)
