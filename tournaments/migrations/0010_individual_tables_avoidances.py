"""Individual events at tables of 2, 3 or 4 (issue 13): the event's table size, mixed sizes,
placing points and confirmation rule; a match's entries at the table; claims and results with
every seat's score and placing; seats 0 to 3; and the director's pairing constraints
(``Event.avoid_same_club``, ``EntryAvoidance``)."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_0006 = importlib.import_module("tournaments.migrations.0006_immutable_records_heartbeat")
CLAIM = _0006.CLAIM
RESULT = _0006.RESULT
# SQLite rebuilds tournaments_claim and tournaments_matchresult to change their check
# constraints, which drops their triggers: they are made again, the new columns among those that
# may not change. (PostgreSQL alters the tables in place and compares whole rows: nothing to do.)
SQLITE_TRIGGERS = [
    *_0006.sqlite_drops(CLAIM, _0006.CLAIM_TRIGGERS),
    *_0006.sqlite_claim_triggers(),
    *_0006.sqlite_drops(RESULT, _0006.RESULT_TRIGGERS),
    *_0006.sqlite_result_triggers(
        [*_0006.RESULT_FIXED_COLUMNS, "forfeit", "scores_halves", "placings"]
    ),
]


def sqlite_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_event_day_api_webhooks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="EntryAvoidance",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("note", models.CharField(blank=True, max_length=200)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "ordering": ["event", "entry_a", "entry_b"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="claim",
            name="claim_side_is_0_or_1",
        ),
        migrations.RemoveConstraint(
            model_name="claim",
            name="claim_winner_is_a_side",
        ),
        migrations.RemoveConstraint(
            model_name="matchresult",
            name="result_winner_is_a_side",
        ),
        migrations.RemoveConstraint(
            model_name="roundseat",
            name="side_is_0_or_1",
        ),
        migrations.AddField(
            model_name="claim",
            name="scores_halves",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="avoid_same_club",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="event",
            name="mixed_table_sizes",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="event",
            name="placing_points",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="event",
            name="table_confirmation",
            field=models.CharField(
                choices=[
                    ("all", "Every other player at the table confirms"),
                    ("majority", "Most of the other players at the table confirm"),
                ],
                default="all",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="table_size",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="match",
            name="table_entries",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="matchresult",
            name="placings",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="matchresult",
            name="scores_halves",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="event",
            name="entry_kind",
            field=models.CharField(
                choices=[
                    ("partnership", "Partnerships (four at a table)"),
                    ("single", "Individual players (two, three or four at a table)"),
                ],
                default="partnership",
                max_length=16,
            ),
        ),
        migrations.AddConstraint(
            model_name="claim",
            constraint=models.CheckConstraint(
                condition=models.Q(("side__lte", 3)), name="claim_side_is_a_seat"
            ),
        ),
        migrations.AddConstraint(
            model_name="claim",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("winner_side__isnull", True), ("winner_side__lte", 3), _connector="OR"
                ),
                name="claim_winner_is_a_seat",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("table_size__gte", 2), ("table_size__lte", 4)),
                name="event_table_size_2_to_4",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("table_entries__gte", 2), ("table_entries__lte", 4)),
                name="match_table_entries_2_to_4",
            ),
        ),
        migrations.AddConstraint(
            model_name="matchresult",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("winner_side__isnull", True), ("winner_side__lte", 3), _connector="OR"
                ),
                name="result_winner_is_a_seat",
            ),
        ),
        migrations.AddConstraint(
            model_name="roundseat",
            constraint=models.CheckConstraint(
                condition=models.Q(("side__lte", 3)), name="side_is_a_seat"
            ),
        ),
        migrations.AddField(
            model_name="entryavoidance",
            name="entry_a",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.entry",
            ),
        ),
        migrations.AddField(
            model_name="entryavoidance",
            name="entry_b",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.entry",
            ),
        ),
        migrations.AddField(
            model_name="entryavoidance",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="avoidances",
                to="tournaments.event",
            ),
        ),
        migrations.AddConstraint(
            model_name="entryavoidance",
            constraint=models.UniqueConstraint(
                fields=("event", "entry_a", "entry_b"), name="avoidance_once_per_pair"
            ),
        ),
        migrations.AddConstraint(
            model_name="entryavoidance",
            constraint=models.CheckConstraint(
                condition=models.Q(("entry_a__lt", models.F("entry_b"))),
                name="avoidance_entries_ordered",
            ),
        ),
        migrations.RunPython(sqlite_triggers, migrations.RunPython.noop),
    ]
