"""``manage.py restore PATH``: replace the database's contents with a backup made by
``manage.py backup`` (see ``tournaments/backups.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.backups import BackupError, restore


class Command(BaseCommand):
    help = "Restore the database from PATH (made by manage.py backup); replaces its contents."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restore(options["path"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"restored from {options['path']}")
