"""Play-offs played through (stage formats, best-of games, consolation choice, the reset),
forfeits, the round clock and a finished event's placings."""

import importlib

from django.conf import settings
from django.db import migrations, models

_0006 = importlib.import_module("tournaments.migrations.0006_immutable_records_heartbeat")
RESULT = _0006.RESULT
# SQLite rebuilds tournaments_matchresult to add its check constraint, which drops its
# triggers: they are made again, the new ``forfeit`` column among those that may not change.
# (PostgreSQL alters the table in place and compares whole rows: nothing to do.)
SQLITE_RESULT_TRIGGERS = [
    *_0006.sqlite_drops(RESULT, _0006.RESULT_TRIGGERS),
    *_0006.sqlite_result_triggers([*_0006.RESULT_FIXED_COLUMNS, "forfeit"]),
]


def result_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_RESULT_TRIGGERS:
            schema_editor.execute(statement)


def consolation_to_choice(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    Event.objects.filter(playoff_consolation=True).update(playoff_consolation_kind="third_place")


def consolation_to_flag(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    Event.objects.exclude(playoff_consolation_kind="").update(playoff_consolation=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_immutable_records_heartbeat"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="match",
            options={
                "ordering": ["round", "table__number", "game_no", "pk"],
                "verbose_name_plural": "matches",
            },
        ),
        migrations.RemoveConstraint(
            model_name="match",
            name="table_once_per_round",
        ),
        migrations.AddField(
            model_name="event",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="forfeit_score",
            field=models.PositiveIntegerField(blank=True, help_text="Raw points.", null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="forfeit_spread",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="event",
            name="placings",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="playoff_formats",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="event",
            name="playoff_reset",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="event",
            name="points_double_forfeit",
            field=models.SmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="points_forfeit_loss",
            field=models.SmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="points_forfeit_win",
            field=models.SmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="match",
            name="best_of",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="match",
            name="game_no",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="match",
            name="target",
            field=models.PositiveIntegerField(blank=True, help_text="Raw points.", null=True),
        ),
        migrations.AddField(
            model_name="matchresult",
            name="forfeit",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Played"),
                    ("a", "Side A forfeited"),
                    ("b", "Side B forfeited"),
                    ("both", "Both sides forfeited"),
                ],
                default="",
                max_length=4,
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="clock_ended_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="clock_ends_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="clock_paused_left",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="clock_started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        # The consolation was a yes/no (a match for third place); it becomes a choice.
        migrations.AddField(
            model_name="event",
            name="playoff_consolation_kind",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "None"),
                    ("third_place", "A match for third place"),
                    ("first_round_losers", "A bracket for the first round's losers"),
                ],
                default="",
                max_length=24,
            ),
        ),
        migrations.RunPython(consolation_to_choice, consolation_to_flag),
        migrations.RemoveField(model_name="event", name="playoff_consolation"),
        migrations.RenameField(
            model_name="event", old_name="playoff_consolation_kind", new_name="playoff_consolation"
        ),
        migrations.AlterField(
            model_name="matchresult",
            name="source",
            field=models.CharField(
                choices=[
                    ("agreed", "Both sides agreed"),
                    ("resolved", "Conflict resolved by the director"),
                    ("arbitral", "Arbitral result entered by the director"),
                    ("correction", "Correction by the director"),
                    ("forfeit", "Forfeit recorded by the director"),
                ],
                max_length=16,
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("table__isnull", False)),
                fields=("round", "table", "game_no"),
                name="table_once_per_round_and_game",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("game_no__gte", 1), ("game_no__lte", models.F("best_of"))),
                name="match_game_within_best_of",
            ),
        ),
        migrations.AddConstraint(
            model_name="matchresult",
            constraint=models.CheckConstraint(
                condition=models.Q(("forfeit__in", ["", "a", "b", "both"])),
                name="result_forfeit_known",
            ),
        ),
        migrations.RunPython(result_triggers, migrations.RunPython.noop),
    ]
