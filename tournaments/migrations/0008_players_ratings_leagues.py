"""Players across events (issue 16): search keys, merges, ratings and their history, leagues."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from tournaments.search_keys import name_key


def fill_name_keys(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.only("pk", "name").iterator():
        Player.objects.filter(pk=player.pk).update(name_key=name_key(player.name))


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_playoff_forfeits_clock'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='League',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200)),
                ('slug', models.SlugField(max_length=80, unique=True)),
                ('season', models.CharField(blank=True, help_text='e.g. "2026".', max_length=40)),
                ('points', models.JSONField(blank=True, default=list)),
                ('best_of', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('rank_partnerships', models.BooleanField(default=False, help_text='Rank partnerships too, beside the players.')),
                ('public', models.BooleanField(default=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['-season', 'name'],
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('games', models.PositiveIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['player', 'pk'],
            },
        ),
        migrations.AddField(
            model_name='event',
            name='rated',
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name='player',
            name='merged_into',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='merged', to='tournaments.player'),
        ),
        migrations.AddField(
            model_name='player',
            name='name_key',
            field=models.CharField(blank=True, db_index=True, max_length=120),
        ),
        migrations.AddField(
            model_name='player',
            name='rated_games',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='player',
            name='rating_mu',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='player',
            name='rating_sigma',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('merged_into', models.F('pk')), _negated=True), name='player_not_merged_into_itself'),
        ),
        migrations.AddField(
            model_name='league',
            name='directors',
            field=models.ManyToManyField(blank=True, related_name='directed_leagues', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='event',
            name='league',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='events', to='tournaments.league'),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='event',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.event'),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='tournaments.player'),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='round',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.round'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(fields=('player', 'round'), name='rating_change_per_round'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.CheckConstraint(condition=models.Q(('sigma__gt', 0)), name='rating_sigma_positive'),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
]
