"""Trust without a second phone (issue 29): a claim keeps the table phone's device id and whether
it confirmed a claim sent from that same device; an event may require another device to confirm.

SQLite rebuilds tournaments_claim to add the columns, which drops its immutability triggers
(migration 0006): they are made again. (PostgreSQL adds the columns in place: nothing to do.)
"""

import importlib

from django.db import migrations, models

_0006 = importlib.import_module("tournaments.migrations.0006_immutable_records_heartbeat")
CLAIM = _0006.CLAIM
SQLITE_TRIGGERS = [
    *_0006.sqlite_drops(CLAIM, _0006.CLAIM_TRIGGERS),
    *_0006.sqlite_claim_triggers(),
]


def sqlite_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_player_owner_event_contact"),
    ]

    operations = [
        migrations.AddField(
            model_name="claim",
            name="device",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="claim",
            name="same_device",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="event",
            name="require_other_device",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "A result is confirmed only from another phone than the one that sent it."
                ),
            ),
        ),
        migrations.RunPython(sqlite_triggers, migrations.RunPython.noop),
    ]
