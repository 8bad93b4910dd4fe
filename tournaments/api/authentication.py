"""Table links as API credentials: ``Authorization: Table <token>``.

A valid token authenticates the request as that table (``request.auth`` is a ``TableAccess``;
``request.user`` stays anonymous): it may read and write its own match in its round, nothing
else (see ``tournaments.api.permissions``). A wrong token is counted against the request's
address: beyond ``table_link_failures`` it answers 429 ``throttled`` with ``Retry-After``
(``rate_limit.refuse_wrong_link``); a right one is never counted nor slowed. Directors use DRF
tokens (``Authorization: Token <key>``, from ``manage.py api_token USER``, stored hashed) or
their session.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from tournaments.errors import SpinnerError
from tournaments.rate_limit import WrongCredentialsThrottled, refuse_wrong_link
from tournaments.services.table_links import TableAccess, TableLinkInvalid, resolve_table_token

KEYWORD = "Table"


class TableTokenAuthentication(BaseAuthentication):
    """``Authorization: Table <token>``: the table link's token (the part after ``/t/``)."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableAccess] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        try:
            if len(parts) != 2:
                raise TableLinkInvalid(
                    "Send the table link's token: 'Authorization: Table <token>'."
                )
            try:
                token = parts[1].decode("ascii")
            except UnicodeDecodeError as exc:
                raise TableLinkInvalid("This table link is not valid.") from exc
            access = resolve_table_token(token)
        except TableLinkInvalid as exc:
            refusal = refuse_wrong_link(request, exc)
            if isinstance(refusal, WrongCredentialsThrottled):
                more = gettext("Too many wrong table links came from this network.")
                raise exceptions.Throttled(refusal.retry_after, f"{exc.message} {more}") from exc
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        except SpinnerError as exc:
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        return AnonymousUser(), access

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


def table_access(request: Request) -> TableAccess | None:
    """The table the request speaks for, if it came with a table token."""
    auth: Any = request.auth
    return auth if isinstance(auth, TableAccess) else None


class TableTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """How the schema documents table tokens."""

    target_class = "tournaments.api.authentication.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A table link's token, as 'Table <token>' (the part of /t/<token>/).",
        }
