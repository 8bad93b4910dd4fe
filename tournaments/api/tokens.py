"""``Authorization: Token <key>``: API keys checked against their stored SHA-256, with their
limits enforced where the key is read.

Replaces DRF's ``TokenAuthentication`` (which stores keys in plain text). A key is made on the
director's "API keys" page (``/director/api-keys/``) or by ``manage.py api_token USER`` and
shown once (``tournaments.services.api_tokens``).

Every request that presents a key passes here, whatever the view and its permission classes,
so the key's own limits are checked here, once:

- unknown key (or inactive account): 401 ``authentication_failed``; revoked: 401
  ``api_token_revoked``; expired: 401 ``api_token_expired``;
- a read key on any method but GET, HEAD or OPTIONS: 403 ``api_token_read_only``;
- beyond ``api_key_failures`` refused keys (unknown, revoked, expired, malformed) from one
  address, that address's refused keys answer 429 ``throttled`` with ``Retry-After``; a right
  key is never counted nor slowed.

``request.user`` is the key's user, ``request.auth`` its ``ApiKeyAccess`` (``api_key(request)``
reads it). The key's events are checked where the request's event is known: the permission
classes of ``tournaments.api.permissions`` (see there).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, permissions
from rest_framework.authentication import TokenAuthentication
from rest_framework.request import Request

from tournaments.errors import SpinnerError
from tournaments.models import ApiToken
from tournaments.rate_limit import wrong_credential
from tournaments.services.api_tokens import ApiKeyAccess, resolve_api_key

READ_ONLY_MESSAGE = _(
    "This API key may only read (GET); use a read-and-write key to change things."
)


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's token scheme (``Token <key>``), looking the key up by its SHA-256, refusing revoked
    and expired keys (401) and a read key's writes (403)."""

    model = ApiToken

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiKeyAccess] | None:
        try:
            found: tuple[AbstractBaseUser, ApiKeyAccess] | None = super().authenticate(request)
        except exceptions.AuthenticationFailed as exc:
            wait = wrong_credential("api_key_failures", request)
            if wait:
                more = gettext("Too many refused API keys came from this address.")
                raise exceptions.Throttled(wait, f"{exc.detail} {more}") from exc
            raise
        if found is None:
            return None
        access = found[1]
        if access.read_only and request.method not in permissions.SAFE_METHODS:
            raise exceptions.PermissionDenied(READ_ONLY_MESSAGE, code="api_token_read_only")
        return found

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, ApiKeyAccess]:
        try:
            access = resolve_api_key(key)
        except SpinnerError as exc:
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        return access.token.user, access


def api_key(request: Request) -> ApiKeyAccess | None:
    """The API key the request came with (its scope and events), if it came with one."""
    auth: Any = request.auth
    return auth if isinstance(auth, ApiKeyAccess) else None


class HashedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """How the schema documents API keys."""

    target_class = "tournaments.api.tokens.HashedTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "A director's API key, as 'Token <key>'. Made on the director's API keys page "
                "(/director/api-keys/) or by 'manage.py api_token USER', shown once, stored "
                "hashed. A key acts as its user, narrowed by its scope: 'read' keys may only "
                "GET (any other method: 403 api_token_read_only), 'write' keys read and write; "
                "a key limited to some events acts on those alone (any other event answers "
                "404, as an event one does not direct does). A revoked key answers 401 "
                "api_token_revoked, an expired one 401 api_token_expired."
            ),
        }
