"""``python manage.py table_link EVENT_SLUG ROUND TABLE``: print a table's entry URL.

The same link every time until the round's links are revoked (a director can text it to a table).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import SpinnerError
from tournaments.models import Round
from tournaments.services.table_links import find_table, table_link_url


class Command(BaseCommand):
    help = "Print the entry URL of a table for a round (SPINNER_BASE_URL + /t/<token>/)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_slug")
        parser.add_argument("round", type=int, help="the round's number")
        parser.add_argument("table", type=int, help="the table's number")

    def handle(self, *args: Any, **options: Any) -> None:
        round_ = (
            Round.objects.select_related("event")
            .filter(event__slug=options["event_slug"], number=options["round"])
            .first()
        )
        if round_ is None:
            raise CommandError(f"No round {options['round']} in event {options['event_slug']!r}.")
        try:
            table = find_table(round_=round_, number=options["table"])
        except SpinnerError as exc:
            raise CommandError(exc.message) from exc
        if round_.status == Round.Status.CLOSED:
            self.stderr.write("note: this round is closed; the link will not accept entries.")
        self.stdout.write(table_link_url(round_=round_, table=table))
