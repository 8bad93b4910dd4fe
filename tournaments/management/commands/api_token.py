"""``manage.py api_token USER [--name NAME]``: make an API key and print it (once)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.api_tokens import create_api_token


class Command(BaseCommand):
    help = "Make an API key for a user and print it; only its SHA-256 is stored."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="a label to tell keys apart")

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        try:
            user = user_model.objects.get(**{user_model.USERNAME_FIELD: options["username"]})
        except user_model.DoesNotExist as exc:
            raise CommandError(f"No user {options['username']!r}.") from exc
        _, key = create_api_token(user=user, name=options["name"])
        self.stdout.write(key)
        self.stderr.write("Keep this key now: it is stored hashed and cannot be shown again.")
