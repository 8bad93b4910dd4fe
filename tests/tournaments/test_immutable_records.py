"""The audit log, claims and confirmed results are immutable in the database itself (issue 15).

Every statement kind that could rewrite or remove them is tried straight in SQL, on whichever
backend the run uses (run the file with and without ``DATABASE_URL``): UPDATE of every column,
DELETE of a row and of the whole table, TRUNCATE (PostgreSQL, also through a cascade), and
``INSERT OR REPLACE`` (SQLite) or ``INSERT ... ON CONFLICT DO UPDATE`` (PostgreSQL). The one
change the application makes, a correction superseding a result, still works.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import DatabaseError, connection, models, transaction

from tests.tournaments.live_support import (
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
    submit_both,
)
from tournaments.models import AuditEntry, Claim, MatchResult

pytestmark = pytest.mark.django_db

REFUSED = "append-only"


@pytest.fixture
def records() -> dict[str, Any]:
    """Two claims and a result (both sides agreed), a correction of it, and an audit entry."""
    event = make_event("immutable", allow_final_score_only=True)
    entries = make_entries(event, 4)
    matches = make_round(event, 1, [(entries[0], entries[1]), (entries[2], entries[3])])
    submit_both(matches[0], 100, 90)
    director = make_director(event)
    corrected = confirm(matches[0], 100, 80, director)
    return {
        "matches": matches,
        "director": director,
        "claim": Claim.objects.filter(match=matches[0]).order_by("pk").first(),
        "other_claim": Claim.objects.filter(match=matches[0]).order_by("pk").last(),
        "old_result": MatchResult.objects.get(match=matches[0], version=1),
        "result": corrected,
        "audit": AuditEntry.objects.order_by("pk").first(),
    }


def refused(sql: str, params: list[Any] | None = None) -> None:
    with (
        pytest.raises(DatabaseError, match=REFUSED),
        transaction.atomic(),  # rolled back to its savepoint by the error
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params)


def row(obj: models.Model) -> tuple[Any, ...]:
    table = obj._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table} WHERE id = %s", [obj.pk])
        found = cursor.fetchone()
    assert found is not None
    return tuple(found)


def changed_value(obj: models.Model, field: models.Field[Any, Any], records: dict[str, Any]) -> Any:
    """A different value for ``field`` that the column would accept."""
    value = getattr(obj, field.attname)
    if field.primary_key:
        return value + 1000
    if isinstance(field, models.ForeignKey):
        others = {
            "match": records["matches"][1].pk,
            "actor": records["director"].pk,
            "event": records["matches"][1].round.event_id,
        }
        if field.name in others and others[field.name] != value:
            return others[field.name]
        other = records["other_claim"].pk
        return other if value != other else records["claim"].pk
    if isinstance(field, models.BooleanField):
        return not value
    if isinstance(field, models.JSONField):
        return '{"rewritten": true}'
    if isinstance(field, models.DateTimeField):
        return (value or datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)) + datetime.timedelta(
            days=1
        )
    if isinstance(field, models.IntegerField):
        return (value or 0) + 1
    text = str(value or "")
    return ("y" if text[:1] == "x" else "x") + text[1:]


def columns(model: type[models.Model], *, but: tuple[str, ...] = ()) -> list[Any]:
    return [f for f in model._meta.concrete_fields if f.name not in but]


@pytest.mark.parametrize(
    ("key", "model"), [("audit", AuditEntry), ("claim", Claim), ("result", MatchResult)]
)
def test_every_column_update_is_refused(
    records: dict[str, Any], key: str, model: type[models.Model]
) -> None:
    obj = records[key]
    before = row(obj)
    table = model._meta.db_table
    for field in columns(model, but=("is_current",)):
        value = changed_value(obj, field, records)
        refused(f"UPDATE {table} SET {field.column} = %s WHERE id = %s", [value, obj.pk])
    if model is MatchResult:
        # A current result may stop being current only with nothing else changing.
        for field in columns(model, but=("is_current", "id")):
            value = changed_value(obj, field, records)
            refused(
                f"UPDATE {table} SET is_current = %s, {field.column} = %s WHERE id = %s",
                [False, value, obj.pk],
            )
        old = records["old_result"]
        refused(f"UPDATE {table} SET is_current = %s WHERE id = %s", [True, old.pk])
    assert row(obj) == before


def test_a_correction_supersedes_the_previous_result(records: dict[str, Any]) -> None:
    """The one change allowed: what the correction above did (is_current true -> false)."""
    old, new = records["old_result"], records["result"]
    old.refresh_from_db()
    assert (old.is_current, new.is_current, new.version) == (False, True, 2)
    before = row(new)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {MatchResult._meta.db_table} SET is_current = %s WHERE id = %s",
            [False, new.pk],
        )
    after = row(new)
    assert after != before
    assert [a for a, b in zip(after, before, strict=True) if a != b] in ([False], [0])


@pytest.mark.parametrize("key", ["audit", "claim", "result", "old_result"])
def test_delete_of_a_row_and_of_the_whole_table_is_refused(
    records: dict[str, Any], key: str
) -> None:
    obj = records[key]
    table = obj._meta.db_table
    refused(f"DELETE FROM {table} WHERE id = %s", [obj.pk])
    refused(f"DELETE FROM {table}")
    assert row(obj)


@pytest.mark.django_db(transaction=True)  # TRUNCATE waits for no deferred FK check
@pytest.mark.parametrize("key", ["audit", "claim", "result"])
def test_truncate_is_refused_on_postgresql(
    postgres: None, records: dict[str, Any], key: str
) -> None:
    table = records[key]._meta.db_table
    refused(f"TRUNCATE {table} CASCADE")
    # Truncating what they hang from cascades to them: refused as well.
    refused("TRUNCATE tournaments_match CASCADE")
    refused("TRUNCATE tournaments_event CASCADE")
    assert row(records[key])


@pytest.mark.parametrize("key", ["audit", "claim", "result"])
def test_upsert_over_an_existing_row_is_refused_on_postgresql(
    postgres: None, records: dict[str, Any], key: str
) -> None:
    obj = records[key]
    table = obj._meta.db_table
    before = row(obj)
    names = [f.column for f in columns(type(obj))]
    sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in names if c != "id")
    refused(
        f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(names)} FROM {table} "
        f"WHERE id = %s ON CONFLICT (id) DO UPDATE SET {sets}",
        [obj.pk],
    )
    assert row(obj) == before


def sqlite_only() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's (PostgreSQL's upsert is tested above)")


@pytest.mark.parametrize("key", ["audit", "claim", "result"])
def test_insert_or_replace_over_the_primary_key_is_refused_on_sqlite(
    records: dict[str, Any], key: str
) -> None:
    sqlite_only()
    obj = records[key]
    table = obj._meta.db_table
    before = row(obj)
    names = ", ".join(f.column for f in columns(type(obj)))
    refused(
        f"INSERT OR REPLACE INTO {table} ({names}) SELECT {names} FROM {table} WHERE id = %s",
        [obj.pk],
    )
    refused(f"REPLACE INTO {table} ({names}) SELECT {names} FROM {table} WHERE id = %s", [obj.pk])
    assert row(obj) == before


@pytest.mark.parametrize("key", ["claim", "old_result"])
def test_insert_or_replace_over_a_unique_key_is_refused_on_sqlite(
    records: dict[str, Any], key: str
) -> None:
    """A REPLACE with a new id but the same (match, side, version) or (match, version) would
    delete the existing row without firing its DELETE trigger."""
    sqlite_only()
    obj = records[key]
    table = obj._meta.db_table
    before = row(obj)
    names = ", ".join(f.column for f in columns(type(obj), but=("id", "is_current")))
    extra = ", is_current" if key == "old_result" else ""
    value = ", 0" if key == "old_result" else ""
    refused(
        f"INSERT OR REPLACE INTO {table} ({names}{extra}) "
        f"SELECT {names}{value} FROM {table} WHERE id = %s",
        [obj.pk],
    )
    assert row(obj) == before
    assert type(obj).objects.count() == type(obj).objects.filter(pk__gte=1).count()


def test_new_rows_are_still_accepted(records: dict[str, Any]) -> None:
    """The guards refuse rewriting, not appending: a new audit entry, claim and result."""
    match = records["matches"][1]
    submit_both(match, 100, 50)
    AuditEntry.objects.create(action="test", object_type="event", object_id="1")
    assert MatchResult.objects.filter(match=match, is_current=True).count() == 1
    assert Claim.objects.filter(match=match).count() == 2
