"""Versions of what a director edits (an event's settings, an entry, a player), for ``If-Match``.

These rows carry no version column: their version is a fingerprint of the fields an edit
changes, so it moves exactly when one of them does (whoever changed it: a page, the API, a
service). The API sends it as the ``ETag`` and takes it back in ``If-Match``; an edit that names
a version checks it with the row locked, in the edit's transaction, so no other change slips in
between the check and the write.

Error codes: ``stale_version`` (412): the row changed since that version was read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TypeVar

from django.db import models, transaction

from tournaments.errors import Conflict
from tournaments.services.audit import snapshot

Row = TypeVar("Row", bound=models.Model)


class StaleVersion(Conflict):
    """The row changed since the version the caller read (read it again, then edit)."""

    code = "stale_version"
    status = 412


def fingerprint(instance: models.Model, fields: Sequence[str]) -> str:
    """The version of ``fields`` of ``instance``: 16 hex digits of their values' SHA-256."""
    text = json.dumps(snapshot(instance, list(fields)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@transaction.atomic
def lock_at_version(
    model: type[Row], *, pk: int, fields: Sequence[str], expected: str | None, what: str
) -> Row:
    """Lock the row ``pk`` of ``model`` until the caller's transaction ends and, when
    ``expected`` is given, check that its version is still that one (``stale_version``
    otherwise, with the current version in ``details``). Call it inside the transaction that
    then makes the edit."""
    row = model._default_manager.select_for_update().get(pk=pk)
    current = fingerprint(row, fields)
    if expected is not None and expected != current:
        raise StaleVersion(
            f"The {what} changed since you read it: read it again, then make your change.",
            details={"expected": expected, "current": current},
        )
    return row
