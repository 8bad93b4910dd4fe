"""``manage.py prune_standings_snapshots [--vacuum]``: prune every event's standings snapshots.

Keeps the latest, the last of each round and those a pending webhook delivery names
(``services.snapshot_pruning``); new snapshots prune their event as they are stored, so this is
for a database from before that (or after a restore). ``--vacuum`` then runs ``VACUUM`` to give
the space back to the file system (SQLite keeps freed pages for reuse otherwise; PostgreSQL's
autovacuum reuses them too). Safe to run any time.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from tournaments.services import snapshot_pruning


class Command(BaseCommand):
    help = "Prune standings snapshots: keep the latest, the last of each round, webhook-named."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--vacuum", action="store_true", help="then VACUUM the database")

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = snapshot_pruning.prune_all_snapshots()
        self.stdout.write(f"{sum(deleted.values())} snapshots deleted over {len(deleted)} events")
        if options["vacuum"]:
            with connection.cursor() as cursor:
                cursor.execute("VACUUM")
            self.stdout.write("vacuumed")
