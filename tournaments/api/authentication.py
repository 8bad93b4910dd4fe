"""Table links as API credentials: ``Authorization: Table <token>``.

A valid token authenticates the request as that table (``request.auth`` is a ``TableAccess``;
``request.user`` stays anonymous): it may read and write its own match in its round, nothing
else (see ``tournaments.api.permissions``). Directors use DRF tokens (``Authorization: Token
<key>``, from ``manage.py api_token USER``, stored hashed) or their session.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from tournaments.errors import SpinnerError
from tournaments.services.table_links import TableAccess, resolve_table_token

KEYWORD = "Table"


class TableTokenAuthentication(BaseAuthentication):
    """``Authorization: Table <token>``: the table link's token (the part after ``/t/``)."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableAccess] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Send the table link's token: 'Authorization: Table <token>'.",
                code="table_link_invalid",
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed(
                "This table link is not valid.", code="table_link_invalid"
            ) from exc
        try:
            access = resolve_table_token(token)
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
