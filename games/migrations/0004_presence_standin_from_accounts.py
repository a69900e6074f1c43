# Presence and StandIn were created by the accounts app (its 0001); they are
# table concepts and now belong to the games app. State only: the tables keep
# their names (Meta.db_table), so no data moves.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_gamereview_started_at"),
        ("accounts", "0002_move_lobby_and_table_models"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Presence",
                    fields=[
                        ("channel_name", models.CharField(max_length=200, primary_key=True, serialize=False)),
                        ("session_key", models.CharField(blank=True, max_length=64)),
                        ("table_id", models.PositiveBigIntegerField(blank=True, null=True)),
                        ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("seen_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "accounts_presence",
                        "indexes": [models.Index(fields=["table_id", "seat"], name="presence_by_seat")],
                    },
                ),
                migrations.CreateModel(
                    name="StandIn",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("started_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="stand_ins", to="games.table"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "accounts_standin",
                        "constraints": [models.UniqueConstraint(fields=("table", "seat"), name="one_stand_in_per_seat")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
