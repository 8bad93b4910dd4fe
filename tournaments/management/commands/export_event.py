"""``manage.py export_event EVENT_SLUG``: print the whole event as one JSON document.

The format (``spinner-event-export/1``) is described in ``docs/export.md``; directors get the same
document at ``/api/events/<slug>/export/``. Exit status 2 on an unknown event.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import Event
from tournaments.selectors import export


class Command(BaseCommand):
    help = "Print an event (settings, entries, rounds, matches, explanations) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_slug")
        parser.add_argument("--indent", type=int, default=2, help="JSON indent (0: one line).")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event_slug"]).first()
        if event is None:
            self.stderr.write(f"unknown event {options['event_slug']!r}")
            sys.exit(2)
        document = export.export_event(event)
        indent = options["indent"] or None
        self.stdout.write(json.dumps(document, indent=indent, ensure_ascii=False, sort_keys=False))
