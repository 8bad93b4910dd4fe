"""API keys (``Authorization: Token <key>``): made here, stored as their SHA-256 only."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import User
from django.db import transaction

from tournaments.models import ApiToken


def hash_key(key: str) -> str:
    """The one way a key is stored and looked up: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@transaction.atomic
def create_api_token(*, user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new key for ``user``: the stored row and the key itself (never stored; show it once)."""
    key = secrets.token_hex(20)
    token = ApiToken.objects.create(user=user, key_hash=hash_key(key), prefix=key[:8], name=name)
    return token, key
