"""Security (issue 15): API keys stored hashed, and the "organisers" group.

- ``ApiToken`` stores the SHA-256 of each API key. Keys that DRF's ``authtoken`` app stored in
  plain text (its table ``authtoken_token``, when a database has it) are copied over hashed (they
  keep working) and their plain rows deleted.
- The group ``organisers`` holds the permission ``tournaments.add_event``: a superuser adds an
  account to it to let that account create events.
"""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ORGANISERS = "organisers"


def add_organisers(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    content_type, _ = ContentType.objects.get_or_create(app_label="tournaments", model="event")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="add_event", defaults={"name": "Can add event"}
    )
    group, _ = Group.objects.get_or_create(name=ORGANISERS)
    group.permissions.add(permission)


def hash_plain_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("tournaments", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
        for key, user_id, created in rows:
            token = ApiToken.objects.create(
                user_id=user_id,
                key_hash=hashlib.sha256(key.encode("utf-8")).hexdigest(),
                prefix=key[:8],
                name="from authtoken",
            )
            ApiToken.objects.filter(pk=token.pk).update(created_at=created)
        cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_live_standings'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key_hash', models.CharField(max_length=64, unique=True)),
                ('prefix', models.CharField(max_length=8)),
                ('name', models.CharField(blank=True, max_length=100)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.RunPython(add_organisers, migrations.RunPython.noop),
        migrations.RunPython(hash_plain_tokens, migrations.RunPython.noop),
    ]
