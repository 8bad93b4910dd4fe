"""``python manage.py table_link EVENT_SLUG ROUND TABLE [--side A|B|C|D]``: print a side's entry
URL.

Each side of a table has its own link (it claims only for that side and confirms only the other
side's claim); at a table of many (three or four individual players) each seat has its own, A to
D. With ``--side`` the command prints that side's (seat's) link alone; without it, every one,
labelled with the side and its team or player. The same links every time until the round's links are
revoked (a director can text each partnership its own).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import game
from tournaments.errors import SpinnerError
from tournaments.models import Match, Round
from tournaments.services.table_links import find_table, link_seats, table_link_url


class Command(BaseCommand):
    help = (
        "Print a table's entry URLs for a round (SPINNER_BASE_URL + /t/<token>/): one side's "
        "(a table of many: one seat's) with --side A|B|C|D, else every one, labelled."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_slug")
        parser.add_argument("round", type=int, help="the round's number")
        parser.add_argument("table", type=int, help="the table's number")
        parser.add_argument(
            "--side",
            choices=["A", "B", "C", "D", "a", "b", "c", "d"],
            help="print only this side's link (A: the match's first entry, B: its second; at a "
            "table of many, the seat: A to D)",
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
        match = (
            Match.objects.filter(round=round_, table=table).select_related("entry_a", "entry_b")
        ).first()
        seats = match.table_entries if match is not None else 2
        if options["side"]:
            side = game.SEAT_LETTERS.index(options["side"].upper())
            if side >= seats:
                raise CommandError(
                    f"Table {table.number} has {seats} sides (seats): "
                    f"{', '.join(game.SEAT_LETTERS[:seats])}."
                )
            self.stdout.write(table_link_url(round_=round_, table=table, side=side))
            return
        holders = link_seats([match]).get(match.pk, []) if match is not None else []
        names = {side: entry.name for side, entry in holders}
        for side in range(seats):
            team = f" ({names[side]})" if side in names else ""
            url = table_link_url(round_=round_, table=table, side=side)
            self.stdout.write(f"Side {game.side_letter(side)}{team}: {url}")
