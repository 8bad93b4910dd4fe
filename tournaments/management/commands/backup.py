"""``manage.py backup PATH``: a backup of the whole database (see ``tournaments/backups.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.backups import BackupError, backup


class Command(BaseCommand):
    help = "Back up the database to PATH (pg_dump custom format, or an SQLite file)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            path = backup(options["path"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"backed up to {path}")
