"""The audit log is append-only: the database refuses UPDATE and DELETE on it."""

from django.db import migrations

TABLE = "tournaments_auditentry"

POSTGRES_UP = f"""
CREATE OR REPLACE FUNCTION spinner_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {TABLE}_no_update BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION spinner_audit_append_only();
"""
POSTGRES_DOWN = f"""
DROP TRIGGER IF EXISTS {TABLE}_no_update ON {TABLE};
DROP FUNCTION IF EXISTS spinner_audit_append_only();
"""
SQLITE_UP = [
    f"CREATE TRIGGER {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;",
    f"CREATE TRIGGER {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;",
]
SQLITE_DOWN = [f"DROP TRIGGER IF EXISTS {TABLE}_no_update;", f"DROP TRIGGER IF EXISTS {TABLE}_no_delete;"]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP)
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
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
