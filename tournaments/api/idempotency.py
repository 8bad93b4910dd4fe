"""Safe retries: the same ``Idempotency-Key`` gets the same answer, status and body.

A phone on bad Wi-Fi sends a result, loses the answer, and sends it again with the same key: the
second request does nothing and gets the first answer (with ``Idempotent-Replayed: true``). The
same key with a different request (method, path, body, ``If-Match``) is refused with
``idempotency_mismatch`` (422). Keys are per client (a table link, or a user).

Race-free: the key's row is inserted first, in the request's transaction; a concurrent request
with the same key waits on the unique index until the first commits, then replays its answer.
Answers of the application's errors (4xx) are kept too; a crash (5xx) keeps nothing, so a retry
runs again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import shared_rows
from tournaments.api.authentication import table_access
from tournaments.errors import Conflict, SpinnerError, ValidationFailed
from tournaments.models import IdempotencyRecord

HEADER = "Idempotency-Key"
_KEY = re.compile(r"^[A-Za-z0-9._:\-]{1,200}$")
# A version in If-Match: ASCII digits only ("²".isdigit() is True but int() refuses it).
_VERSION = re.compile(r"[0-9]{1,9}")
# A fingerprint version (``services.versions``): hex digits.
_TAG = re.compile(r"[0-9a-f]{16}")
REPLAYED_HEADERS = ("ETag", "Location")


class IdempotencyMismatch(Conflict):
    code = "idempotency_mismatch"
    status = 422


def client_scope(request: Request) -> str:
    """Who is asking: the table link, else the user."""
    access = table_access(request)
    if access is not None:
        return access.scope
    return f"user:{request.user.pk}"


def request_digest(request: Request) -> str:
    payload = {
        "method": request.method,
        # The query too: the same key with other parameters (?reuse=...) is another request.
        "path": request.get_full_path(),
        "body": request.data,
        "if_match": request.headers.get("If-Match", ""),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def idempotency_key(request: Request, *, required: bool) -> str | None:
    key = request.headers.get(HEADER)
    # Optional keys: an empty header is refused below (it names no request), as the schema says.
    if key is None or (key == "" and required):
        if required:
            raise ValidationFailed(
                f"Send an {HEADER} header (a new random value per result, the same on a retry).",
                code="idempotency_key_required",
            )
        return None
    if not _KEY.match(key):
        raise ValidationFailed(
            f"The {HEADER} is 1 to 200 letters, digits or . _ : -.",
            code="idempotency_key_invalid",
        )
    return key


def run_idempotent(
    request: Request, action: Callable[[], Response], *, required: bool = True
) -> Response:
    """Run ``action`` once per idempotency key; replay its answer for the same key after.

    ``action`` runs inside a savepoint: an application error it raises rolls back its writes and
    its error answer is kept for the key like any other answer. The writes it puts off with
    ``shared_rows.last`` are made after its answer is stored, just before the commit.
    """
    key = idempotency_key(request, required=required)
    if key is None:
        with transaction.atomic():
            with shared_rows.collecting() as shared:
                response = action()
            shared.make()  # the rows every result touches, held only until the commit below
            return response
    scope = client_scope(request)
    digest = request_digest(request)
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    scope=scope, key=key, request_digest=digest
                )
        except IntegrityError:
            # Another request with this key committed (we waited for it): answer as it did.
            record = IdempotencyRecord.objects.get(scope=scope, key=key)
            if record.request_digest != digest:
                raise IdempotencyMismatch(
                    "This idempotency key was used for a different request: use a new key "
                    "for a new result.",
                    details={"key": key},
                ) from None
            headers = dict(record.response_headers or {})
            headers["Idempotent-Replayed"] = "true"
            return Response(record.response_body, status=record.status_code, headers=headers)
        with shared_rows.collecting() as shared:
            try:
                with transaction.atomic():
                    response = action()
            except SpinnerError as exc:
                shared.drop()  # rolled back with the action
                response = Response(exc.as_dict(), status=exc.status)
        record.status_code = response.status_code
        record.response_body = response.data
        record.response_headers = {
            name: response[name] for name in REPLAYED_HEADERS if response.has_header(name)
        }
        record.save(update_fields=["status_code", "response_body", "response_headers"])
        # Last before the commit: the rows every result of the event touches (shared_rows.py).
        shared.make()
        return response


def parse_version(request: Request, *, header: str = "If-Match") -> int | None:
    """The version an edit changes, from ``If-Match`` (``"3"``, ``W/"3"`` or ``3``)."""
    raw = request.headers.get(header)
    if raw is None or raw.strip() == "":
        return None
    text = raw.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if _VERSION.fullmatch(text) is None:
        raise ValidationFailed(
            f'{header} is the version you change, e.g. "3".',
            code="invalid_if_match",
            details={"if_match": raw},
        )
    return int(text)


def etag(version: int | str) -> str:
    return f'"{version}"'


def parse_tag(request: Request) -> str | None:
    """The version an edit of an event, entry or player changes, from ``If-Match`` (its
    ``ETag``: ``"0123456789abcdef"``, weak or bare too); None without one (or ``*``). An empty
    ``If-Match`` is refused: it names no version."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    text = raw.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if _TAG.fullmatch(text) is None:
        raise ValidationFailed(
            "If-Match is the ETag you read (16 hex digits in quotes), or nothing.",
            code="invalid_if_match",
            details={"if_match": raw[:100]},
        )
    return text


__all__ = [
    "HEADER",
    "IdempotencyMismatch",
    "etag",
    "parse_tag",
    "parse_version",
    "run_idempotent",
]
