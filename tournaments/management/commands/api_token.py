"""``manage.py api_token USER [--name NAME] [--read-only] [--event SLUG]... [--expires-days N]``:
make an API key and print it (once).

Without ``--event`` the key reaches every event USER directs; without ``--expires-days`` it never
expires (the director's page offers 90 days). The key is made as USER would make it on their
API keys page: audited, and limited to events USER directs.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from tournaments.errors import SpinnerError
from tournaments.models import ApiToken, Event
from tournaments.services.api_tokens import create_api_token


class Command(BaseCommand):
    help = "Make an API key for a user and print it; only its SHA-256 is stored."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="a label to tell keys apart")
        parser.add_argument(
            "--read-only", action="store_true", help="the key may only read (GET, HEAD, OPTIONS)"
        )
        parser.add_argument(
            "--event",
            action="append",
            default=[],
            metavar="SLUG",
            help="limit the key to this event (repeat for several); default: every event",
        )
        parser.add_argument(
            "--expires-days",
            type=int,
            default=None,
            metavar="N",
            help="the key stops working N days from now; default: never",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        try:
            user = user_model.objects.get(**{user_model.USERNAME_FIELD: options["username"]})
        except user_model.DoesNotExist as exc:
            raise CommandError(f"No user {options['username']!r}.") from exc
        slugs: list[str] = options["event"]
        events = list(Event.objects.filter(slug__in=slugs))
        unknown = sorted(set(slugs) - {e.slug for e in events})
        if unknown:
            raise CommandError(f"No event {', '.join(map(repr, unknown))}.")
        days: int | None = options["expires_days"]
        if days is not None and days < 1:
            raise CommandError("--expires-days takes a whole number of days, 1 or more.")
        try:
            _, key = create_api_token(
                user=user,
                name=options["name"],
                scope=ApiToken.Scope.READ if options["read_only"] else ApiToken.Scope.WRITE,
                events=events,
                expires_at=timezone.now() + dt.timedelta(days=days) if days else None,
            )
        except SpinnerError as exc:
            raise CommandError(f"{exc.message} ({exc.code})") from exc
        self.stdout.write(key)
        self.stderr.write("Keep this key now: it is stored hashed and cannot be shown again.")
