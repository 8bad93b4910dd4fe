"""Makers for the phone and table-card tests: an event with a round in play, matches at tables,
the partnerships' players, and the table links (derived by the results service)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from tests import factories
from tests.conftest import poll
from tests.tournaments import tables_support
from tournaments.models import (
    Entry,
    Event,
    Match,
    Round,
)
from tournaments.services.table_links import table_link_path


@dataclass
class Setup:
    event: Event
    round: Round
    matches: list[Match]
    director: User

    def path(self, i: int = 0, side: int = 0) -> str:
        """The entry path of one side of match ``i``'s table (side A's unless told)."""
        table = self.matches[i].table
        assert table is not None
        return table_link_path(round_=self.round, table=table, side=side)


def make_entry(event: Event, label: str) -> Entry:
    return factories.make_entry(event, label)


def make_setup(slug: str = "cup", *, tables: int = 1, bye: bool = False, **fields: Any) -> Setup:
    """An event (running) with round 1 in play: ``tables`` matches at tables 1.., and a bye."""
    event = factories.make_event(slug, **{"name": f"{slug.title()} Open", **fields})
    director = factories.make_director(event, f"dir-{slug}", password="pw-director-1")
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.IN_PLAY)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    matches = [
        factories.seat_match(
            round_,
            t + 1,
            make_entry(event, f"Team {letters[2 * t]}"),
            make_entry(event, f"Team {letters[2 * t + 1]}"),
        )
        for t in range(tables)
    ]
    if bye:
        factories.seat_bye(round_, make_entry(event, "Team Bye"))
    return Setup(event, round_, matches, director)


AUDIT = "tournaments_auditentry"
T = TypeVar("T")


def orm(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run database work from a browser test's body, then let go of the connection.

    Beside Playwright's event loop the test body gets its own (context-local) Django
    connection, which nothing else closes; with persistent connections (CONN_MAX_AGE) it
    would stay open and keep PostgreSQL from dropping the test database at the end of the run.
    """
    try:
        return work(*args, **kwargs)
    finally:
        connections.close_all()


@pytest.fixture
def audit_flush(transactional_db: None) -> Iterator[None]:
    """Let a browser test's database be flushed after it, and dropped at the end of the run.

    Requested (``usefixtures``) before the test's ``phone``, so its teardown runs after the page
    is closed and before the database is flushed:

    - PostgreSQL: waits, polling with a deadline, until no other connection to the test
      database is left (the live server's close with their requests; the test body's own go
      through ``orm``), so that the test database can be dropped at the end of the run;
    - SQLite: the flush deletes every row and the audit log's append-only trigger refuses, so
      the log is emptied with its delete trigger lifted for that moment (PostgreSQL truncates,
      and its row triggers do not fire).
    """
    yield
    if connection.vendor == "postgresql":

        def idle() -> bool:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                row = cursor.fetchone()
            return bool(row and row[0] == 0)

        poll(idle, timeout=15)
        return
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TRIGGER IF EXISTS {AUDIT}_no_delete")
        cursor.execute(f"DELETE FROM {AUDIT}")
        cursor.execute(
            f"CREATE TRIGGER {AUDIT}_no_delete BEFORE DELETE ON {AUDIT} "
            "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;"
        )


PLAYERS = ("Ana Ortiz", "Ben Cole", "Cruz Diaz", "Dee Ford")


def make_table_setup(
    slug: str = "cutthroat", *, sizes: tuple[int, ...] = (3,), **fields: Any
) -> Setup:
    """An individual All Fives event to 100 (``tables_support.make_event``) with round 1 in play:
    one table of many per size in ``sizes``, the first seated by ``PLAYERS`` in seat order."""
    event = tables_support.make_event(slug, **{"name": f"{slug.title()} Night", **fields})
    director = factories.make_director(event, f"dir-{slug}", password="pw-director-1")
    names = [f"{name}" for name in PLAYERS] + [f"Player {n}" for n in range(5, 5 + 4 * len(sizes))]
    entries = [factories.make_entry(event, name, players=(name,)) for name in names[: sum(sizes)]]
    round_ = tables_support.make_round(event, sizes, entries=entries)
    matches = list(Match.objects.filter(round=round_).order_by("table__number"))
    return Setup(event, round_, matches, director)
