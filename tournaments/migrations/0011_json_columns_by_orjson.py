"""The JSON columns a table's write fills are encoded by orjson (``tournaments.fast_json``).

The encoder is Python's business only: the columns stay as they are. So the change is made to
the migration state alone, with no database operation (on SQLite an ``AlterField`` would rebuild
the claim and result tables and drop their immutability triggers, migration 0006).
"""

from django.db import migrations, models

import tournaments.fast_json

COLUMNS = [
    ("claim", "sheet"),
    ("claim", "verdict"),
    ("idempotencyrecord", "response_body"),
    ("matchresult", "sheet"),
    ("matchresult", "verdict"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_individual_tables_avoidances"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name=name,
                    field=models.JSONField(
                        blank=True, encoder=tournaments.fast_json.FastJSONEncoder, null=True
                    ),
                )
                for model, name in COLUMNS
            ],
            database_operations=[],
        ),
    ]
