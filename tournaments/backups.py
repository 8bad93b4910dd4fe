"""Backups of the whole database: ``manage.py backup PATH`` and ``manage.py restore PATH``.

PostgreSQL: ``pg_dump`` in its custom format, restored with ``pg_restore`` (``--clean
--if-exists --no-owner --single-transaction``: all or nothing), so the triggers that keep the
audit log, claims and results immutable come back with the schema. SQLite: the SQLite backup
API (a consistent copy of a live database, page by page), in both directions.

A restore replaces what the target database holds. Restore into a fresh database (an empty
PostgreSQL database, or a new SQLite file) and point the app at it, or stop the app first.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import connections


class BackupError(Exception):
    pass


def _pg_args(db: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    args = ["--dbname", str(db["NAME"])]
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])  # never on the command line
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed ({done.returncode}): {done.stderr.strip()}")


def backup(path: Path, *, using: str = "default") -> Path:
    """Write a backup of the database to ``path``."""
    connection = connections[using]
    db = connection.settings_dict
    path.parent.mkdir(parents=True, exist_ok=True)
    if connection.vendor == "postgresql":
        args, env = _pg_args(db)
        _run(["pg_dump", "--format=custom", "--no-owner", "--file", str(path), *args], env)
    elif connection.vendor == "sqlite":
        # Through the open connection: works for a file and for an in-memory database alike.
        connection.ensure_connection()
        target = sqlite3.connect(str(path))
        try:
            connection.connection.backup(target)
        finally:
            target.close()
    else:  # pragma: no cover - the app runs on PostgreSQL or SQLite
        raise BackupError(f"no backup for {connection.vendor}")
    return path


def restore(path: Path, *, using: str = "default") -> None:
    """Replace the database's contents with the backup at ``path``."""
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    connection = connections[using]
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        connection.close()
        args, env = _pg_args(db)
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                "--exit-on-error",
                *args,
                str(path),
            ],
            env,
        )
    elif connection.vendor == "sqlite":
        connection.ensure_connection()
        source = sqlite3.connect(str(path))
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    else:  # pragma: no cover
        raise BackupError(f"no restore for {connection.vendor}")
