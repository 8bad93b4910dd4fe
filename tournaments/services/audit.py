"""The append-only audit log: every change a director makes goes through ``record``."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from tournaments import follow_versions
from tournaments.models import AuditEntry, Event

Actor = User | AnonymousUser | None
"""Who acts: a signed-in user, an anonymous table (by its link), or the system (None)."""


def snapshot(instance: models.Model, fields: list[str] | None = None) -> dict[str, Any]:
    """A JSON-safe picture of a model's concrete fields (for ``before`` and ``after``)."""
    data: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        if fields is not None and field.name not in fields:
            continue
        data[field.attname] = field.value_from_object(instance)
    safe: dict[str, Any] = json.loads(json.dumps(data, cls=DjangoJSONEncoder))
    return safe


UNSEEN_BY_THE_PUBLIC = frozenset({"claim.submit", "claim.confirm"})
"""Audited actions no public page shows: they leave the pages kept as documents as they are."""


def record(
    *,
    event: Event | None,
    actor: User | AnonymousUser | None,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    actor_label: str = "",
) -> AuditEntry:
    """Append one audit entry. Call it inside the service's transaction, after the change.

    ``actor_label`` names an actor with no account (a table's side acting through its link:
    "table 7, side A (Team)"); it is kept as ``after["by"]`` and the log shows it as the actor.
    """
    if actor_label:
        if after is None:
            after = {"by": actor_label}
        elif isinstance(after, dict):
            after = {"by": actor_label, **after}
        else:
            after = {"by": actor_label, "value": after}
    if obj is not None:
        object_type = object_type or obj._meta.model_name or ""
        object_id = object_id or str(obj.pk)
    user = actor if isinstance(actor, User) else None
    # Every audited change may show on a public page: the pages kept as documents are made again
    # once it commits (tournaments/documents.py). A table's claim is not on any public page (the
    # result it may make is, audited as ``result.confirm``): during a room's burst, re-rendering
    # the event's pages for every claim was most of the server's work (benchmarks/load).
    if action in UNSEEN_BY_THE_PUBLIC:
        pass
    elif event is not None:
        follow_versions.bump_pages(event)
    else:
        follow_versions.bump_site()
    return AuditEntry.objects.create(
        event=event,
        actor=user,
        action=action,
        object_type=object_type,
        object_id=object_id,
        before=json.loads(json.dumps(before, cls=DjangoJSONEncoder)),
        after=json.loads(json.dumps(after, cls=DjangoJSONEncoder)),
        reason=reason,
    )
