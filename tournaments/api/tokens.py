"""``Authorization: Token <key>``: API keys checked against their stored SHA-256.

Replaces DRF's ``TokenAuthentication`` (which stores keys in plain text). A key is made by
``manage.py api_token USER`` and shown once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from tournaments.models import ApiToken
from tournaments.services.api_tokens import hash_key


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's token scheme (``Token <key>``), looking the key up by its SHA-256."""

    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token


class HashedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """How the schema documents API keys."""

    target_class = "tournaments.api.tokens.HashedTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "An API key, as 'Token <key>' (manage.py api_token USER).",
        }
