"""``manage.py check_pairings EVENT_SLUG [ROUND]``: independently re-check published rounds.

Uses the pairing package's checker (``tournaments.pairing.checker.check_round``), which shares
no code with the generators: Swiss rounds have no avoidable rematch; every round has the right
byes, every active entry exactly once, and pins kept; a play-off is also checked as a bracket
(``pairing.checker.check_bracket``: every tabled bracket match seats whom its ``winner_of`` /
``loser_of`` slots resolve to, the series winner of a best-of match counting, nobody plays on
after elimination, byes never at a table). A round at tables of many (individual players at
tables of 3 or 4) is checked by ``pairing.check_tables.check_tables_round``: every active entry
once, allowed table sizes, the fewest byes, no avoidable repeat meeting or pair the director keeps
apart, on fields of at most 12 seated players no better seating in the lower tiers (pairs kept
apart, squared match-point differences: ``seating``), and every seat order and first leader as
drawn from the salt. Prints one line per finding,
``round N table T: CODE message``; a director's edit made with a reason prints as ``override``
and is not a violation. Without ROUND every published (or in-play, or closed) round is checked;
with ROUND that round is checked whatever its status.

Exit status: 0 clean (overrides allowed), 1 on violations, 2 on an unknown event or round.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import Event, Round
from tournaments.selectors import rounds as selectors


class Command(BaseCommand):
    help = "Re-check an event's published rounds; exit 1 on violations, 2 on unknown event/round."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_slug")
        parser.add_argument("round", nargs="?", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event_slug"]).first()
        if event is None:
            self.stderr.write(f"unknown event {options['event_slug']!r}")
            sys.exit(2)
        try:
            checked = selectors.check_rounds(event, number=options["round"])
        except Round.DoesNotExist:
            self.stderr.write(f"event {event.slug!r} has no round {options['round']}")
            sys.exit(2)
        violations = 0
        for _rnd, findings in checked:
            for v in findings:
                self.stdout.write(selectors.violation_line(v))
                violations += v.is_violation
        rounds = len(checked)
        summary = (
            f"{rounds} round{'s' if rounds != 1 else ''} checked: "
            f"{violations} violation{'s' if violations != 1 else ''}"
        )
        self.stderr.write(summary)
        if violations:
            sys.exit(1)
