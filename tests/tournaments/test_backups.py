"""``manage.py backup`` then ``manage.py restore`` into a fresh database gives back the same
standings snapshots and the same ``manage.py export_event``, byte for byte, on the backend the
run uses (PostgreSQL with ``DATABASE_URL``, else SQLite)."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from tests.conftest import ROOT
from tests.tournaments.live_support import make_entries, make_event, make_round, submit_both
from tournaments.models import AuditEntry, StandingsSnapshot

SNAPSHOTS = (
    "SELECT event_id, generation, results_generation, digest, data "
    "FROM tournaments_standingssnapshot ORDER BY event_id, generation"
)


@pytest.fixture
def fresh_database(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment of a process whose database is a new, empty one."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    env.pop("REDIS_URL", None)  # the restored app needs no broker here
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(tmp_path / "restored.sqlite3")
        yield env
        return
    db = connection.settings_dict
    name = f"{db['NAME']}_restored"
    admin = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname="postgres", autocommit=True
    )
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"
    env["_DBNAME"] = name
    try:
        yield env
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def manage(env: dict[str, str], *args: str) -> bytes:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def snapshots_in(env: dict[str, str]) -> list[tuple[Any, ...]]:
    if "SQLITE_PATH" in env:
        with sqlite3.connect(env["SQLITE_PATH"]) as conn:
            return [tuple(r) for r in conn.execute(SNAPSHOTS).fetchall()]
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=env["_DBNAME"]
    ) as conn:
        return [tuple(r) for r in conn.execute(SNAPSHOTS).fetchall()]


def without_time(export: bytes) -> bytes:
    """The export's bytes but its one time stamp (``exported_at``, the time of the export)."""
    lines = export.split(b"\n")
    stamped = [line for line in lines if line.lstrip().startswith(b'"exported_at": ')]
    assert len(stamped) == 1
    return b"\n".join(line for line in lines if line not in stamped)


@pytest.mark.django_db(transaction=True)
def test_a_restored_backup_gives_identical_snapshots_and_export(
    tmp_path: Path, fresh_database: dict[str, str]
) -> None:
    event = make_event("backed-up", allow_final_score_only=True, tiebreaks=["spread"])
    entries = make_entries(event, 6)
    matches = make_round(
        event, 1, [(entries[0], entries[1]), (entries[2], entries[3]), (entries[4], entries[5])]
    )
    for match, margin in zip(matches, [10, 30, 20], strict=True):
        submit_both(match, 100, 100 - margin)  # tasks are eager: each recompute adds a snapshot
    assert StandingsSnapshot.objects.filter(event=event).count() >= 1
    AuditEntry.objects.create(event=event, action="test", object_type="event", reason="é ✓")

    exported = io.StringIO()
    call_command("export_event", event.slug, stdout=exported)
    with connection.cursor() as cursor:
        cursor.execute(SNAPSHOTS)
        snapshots = [tuple(r) for r in cursor.fetchall()]

    path = tmp_path / "spinner.backup"
    call_command("backup", str(path), stdout=io.StringIO())
    assert path.stat().st_size > 0

    manage(fresh_database, "restore", str(path))
    assert snapshots_in(fresh_database) == snapshots
    restored_export = manage(fresh_database, "export_event", event.slug)
    assert without_time(restored_export) == without_time(exported.getvalue().encode("utf-8"))
    # The immutability triggers came back with the schema.
    script = (
        "from django.db import connection, transaction\n"
        "from tournaments.models import AuditEntry\n"
        "try:\n"
        "    with transaction.atomic():\n"
        "        AuditEntry.objects.update(reason='rewritten')\n"
        "except Exception as exc:\n"
        "    print('refused' if 'append-only' in str(exc) else exc)\n"
    )
    output = manage(fresh_database, "shell", "-c", script).strip()
    assert output.splitlines()[-1] == b"refused"


@pytest.mark.django_db
def test_restore_refuses_a_missing_file(tmp_path: Path) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no backup at"):
        call_command("restore", str(tmp_path / "absent.backup"))
