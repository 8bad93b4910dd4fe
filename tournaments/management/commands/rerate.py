"""``manage.py rerate [--event SLUG] [--round N]``: re-rate players for operators.

Without ``--event``: every rated event from scratch (``services.ratings.rerate_all``). With it:
from that event's round ``--round`` (default 1) on, every later round of every later event too
(``services.ratings.rerate_from``; the same numbers as from scratch). Safe to run any time: only
rows whose values change are written. Prints what it did; exit 2 on an unknown event.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import Event
from tournaments.services import ratings


class Command(BaseCommand):
    help = "Re-rate players from rated results (all events, or from one event's round on)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", help="the event's slug: re-rate from it on")
        parser.add_argument("--round", type=int, default=1, help="from this round (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        if options["event"]:
            event = Event.objects.filter(slug=options["event"]).first()
            if event is None:
                self.stderr.write(f"unknown event {options['event']!r}")
                sys.exit(2)
            outcome = ratings.rerate_from(event_id=event.pk, round_number=options["round"])
        else:
            outcome = ratings.rerate_all()
        self.stdout.write(
            f"re-rated {outcome.rounds} rounds in {time.perf_counter() - started:.1f} s: "
            f"{outcome.steps_written} rating steps written, {outcome.steps_deleted} removed, "
            f"{outcome.players_updated} players updated"
        )
