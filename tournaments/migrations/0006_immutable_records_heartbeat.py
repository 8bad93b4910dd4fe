"""The audit log, confirmed results and claims are immutable in the database (issue 15); and
the workers' heartbeat (``WorkerHeartbeat``).

Refused on both backends: UPDATE, DELETE, emptying the table (TRUNCATE on PostgreSQL, a
whole-table DELETE on SQLite), and on SQLite ``INSERT OR REPLACE`` (``REPLACE`` deletes the
row it conflicts with, and SQLite fires no DELETE trigger for that unless
``recursive_triggers`` is on, so a BEFORE INSERT trigger refuses any insert that would meet an
existing row on a unique key).

The one change the application makes to these rows is allowed, exactly: a correction makes
the previous result stop being current (``MatchResult.is_current`` true -> false, every other
column unchanged; ``tournaments/services/results.py``). Claims are never changed: every
submission is a new version.

Migration 0002 made the audit log refuse row UPDATE and DELETE; this one adds the rest.
"""

from django.db import migrations, models

AUDIT = "tournaments_auditentry"
CLAIM = "tournaments_claim"
RESULT = "tournaments_matchresult"

# Every column of tournaments_matchresult but is_current: none may change (SQLite compares them
# one by one; PostgreSQL compares whole rows without is_current).
RESULT_FIXED_COLUMNS = [
    "id",
    "match_id",
    "version",
    "source",
    "claim_id",
    "kind",
    "sheet",
    "verdict",
    "verified",
    "score_a_halves",
    "score_b_halves",
    "winner_side",
    "reason",
    "actor_id",
    "created_at",
]
# Unique keys an INSERT OR REPLACE could collide with (besides the primary key).
UNIQUE_KEYS = {
    AUDIT: [["id"]],
    CLAIM: [["id"], ["match_id", "side", "version"]],
    RESULT: [["id"], ["match_id", "version"]],
}

POSTGRES_UP = f"""
CREATE OR REPLACE FUNCTION spinner_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION spinner_result_update() RETURNS trigger AS $$
BEGIN
    IF OLD.is_current AND NOT NEW.is_current
            AND (to_jsonb(NEW) - 'is_current') = (to_jsonb(OLD) - 'is_current') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '% is append-only: only is_current may go from true to false',
        TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER {AUDIT}_no_truncate BEFORE TRUNCATE ON {AUDIT}
    FOR EACH STATEMENT EXECUTE FUNCTION spinner_refuse_change();

CREATE TRIGGER {CLAIM}_no_change BEFORE UPDATE OR DELETE ON {CLAIM}
    FOR EACH ROW EXECUTE FUNCTION spinner_refuse_change();
CREATE TRIGGER {CLAIM}_no_truncate BEFORE TRUNCATE ON {CLAIM}
    FOR EACH STATEMENT EXECUTE FUNCTION spinner_refuse_change();

CREATE TRIGGER {RESULT}_no_delete BEFORE DELETE ON {RESULT}
    FOR EACH ROW EXECUTE FUNCTION spinner_refuse_change();
CREATE TRIGGER {RESULT}_only_supersede BEFORE UPDATE ON {RESULT}
    FOR EACH ROW EXECUTE FUNCTION spinner_result_update();
CREATE TRIGGER {RESULT}_no_truncate BEFORE TRUNCATE ON {RESULT}
    FOR EACH STATEMENT EXECUTE FUNCTION spinner_refuse_change();
"""
POSTGRES_DOWN = f"""
DROP TRIGGER IF EXISTS {AUDIT}_no_truncate ON {AUDIT};
DROP TRIGGER IF EXISTS {CLAIM}_no_change ON {CLAIM};
DROP TRIGGER IF EXISTS {CLAIM}_no_truncate ON {CLAIM};
DROP TRIGGER IF EXISTS {RESULT}_no_delete ON {RESULT};
DROP TRIGGER IF EXISTS {RESULT}_only_supersede ON {RESULT};
DROP TRIGGER IF EXISTS {RESULT}_no_truncate ON {RESULT};
DROP FUNCTION IF EXISTS spinner_refuse_change();
DROP FUNCTION IF EXISTS spinner_result_update();
"""


def _refuse(table: str, what: str) -> str:
    return f"SELECT RAISE(ABORT, '{table} is append-only: {what} refused');"


def _no_replace(table: str) -> str:
    clash = " OR ".join(
        "EXISTS (SELECT 1 FROM {t} WHERE {cond})".format(
            t=table, cond=" AND ".join(f"{c} = NEW.{c}" for c in key)
        )
        for key in UNIQUE_KEYS[table]
    )
    return (
        f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} WHEN {clash} "
        f"BEGIN {_refuse(table, 'an insert over an existing row')} END;"
    )


def sqlite_claim_triggers() -> list[str]:
    """SQLite's triggers that keep claims append-only (later migrations make them again when a
    table rebuild drops them)."""
    return [
        f"CREATE TRIGGER {CLAIM}_no_update BEFORE UPDATE ON {CLAIM} "
        f"BEGIN {_refuse(CLAIM, 'UPDATE')} END;",
        f"CREATE TRIGGER {CLAIM}_no_delete BEFORE DELETE ON {CLAIM} "
        f"BEGIN {_refuse(CLAIM, 'DELETE')} END;",
        _no_replace(CLAIM),
    ]


def sqlite_result_triggers(fixed_columns: list[str]) -> list[str]:
    """SQLite's triggers that keep results append-only but for superseding: every column in
    ``fixed_columns`` unchanged when ``is_current`` goes from true to false."""
    unchanged = " AND ".join(f"NEW.{c} IS OLD.{c}" for c in fixed_columns)
    return [
        f"CREATE TRIGGER {RESULT}_only_supersede BEFORE UPDATE ON {RESULT} "
        f"WHEN NOT (OLD.is_current = 1 AND NEW.is_current = 0 AND {unchanged}) "
        f"BEGIN {_refuse(RESULT, 'UPDATE')} END;",
        f"CREATE TRIGGER {RESULT}_no_delete BEFORE DELETE ON {RESULT} "
        f"BEGIN {_refuse(RESULT, 'DELETE')} END;",
        _no_replace(RESULT),
    ]


def sqlite_drops(table: str, names: list[str]) -> list[str]:
    """Drop these triggers of ``table`` (``{table}_{name}``) where they exist."""
    return [f"DROP TRIGGER IF EXISTS {table}_{name};" for name in names]


CLAIM_TRIGGERS = ["no_update", "no_delete", "no_replace"]
RESULT_TRIGGERS = ["only_supersede", "no_delete", "no_replace"]

SQLITE_UP = [
    _no_replace(AUDIT),
    *sqlite_claim_triggers(),
    *sqlite_result_triggers(RESULT_FIXED_COLUMNS),
]
SQLITE_DOWN = [
    f"DROP TRIGGER IF EXISTS {AUDIT}_no_replace;",
    f"DROP TRIGGER IF EXISTS {CLAIM}_no_update;",
    f"DROP TRIGGER IF EXISTS {CLAIM}_no_delete;",
    f"DROP TRIGGER IF EXISTS {CLAIM}_no_replace;",
    f"DROP TRIGGER IF EXISTS {RESULT}_only_supersede;",
    f"DROP TRIGGER IF EXISTS {RESULT}_no_delete;",
    f"DROP TRIGGER IF EXISTS {RESULT}_no_replace;",
]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP, params=None)  # the SQL has literal %
    elif vendor == "sqlite":
        for statement in SQLITE_UP:
            schema_editor.execute(statement)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DOWN)
    elif vendor == "sqlite":
        for statement in SQLITE_DOWN:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_security")]
    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.CreateModel(
            name="WorkerHeartbeat",
            fields=[
                ("worker", models.CharField(max_length=200, primary_key=True, serialize=False)),
                ("beat_at", models.DateTimeField()),
            ],
        ),
    ]
