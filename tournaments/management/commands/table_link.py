"""``python manage.py table_link EVENT_SLUG ROUND TABLE [--side A|B]``: print a side's entry URL.

Each side of a table has its own link (it claims only for that side and confirms only the other
side's claim). With ``--side`` the command prints that side's link alone; without it, both,
labelled with the side and its team. The same links every time until the round's links are
revoked (a director can text each partnership its own).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import game
from tournaments.errors import SpinnerError
from tournaments.models import Match, Round
from tournaments.services.table_links import find_table, table_link_url


class Command(BaseCommand):
    help = (
        "Print a table's entry URLs for a round (SPINNER_BASE_URL + /t/<token>/): one side's "
        "with --side A|B, else both, labelled."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_slug")
        parser.add_argument("round", type=int, help="the round's number")
        parser.add_argument("table", type=int, help="the table's number")
        parser.add_argument(
            "--side",
            choices=["A", "B", "a", "b"],
            help="print only this side's link (A: the match's first entry, B: its second)",
        )

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
            self.stderr.write("note: this round is closed; the links will not accept entries.")
        if options["side"]:
            side = game.side_from_letter(options["side"])
            self.stdout.write(table_link_url(round_=round_, table=table, side=side))
            return
        match = (
            Match.objects.filter(round=round_, table=table).select_related("entry_a", "entry_b")
        ).first()
        for side in (0, 1):
            entry = None if match is None else (match.entry_a if side == 0 else match.entry_b)
            team = f" ({entry.name})" if entry is not None else ""
            url = table_link_url(round_=round_, table=table, side=side)
            self.stdout.write(f"Side {game.side_letter(side)}{team}: {url}")
