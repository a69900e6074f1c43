# The queue and invitations were created by the accounts app (its 0001); they
# belong to the lobby. State only: the tables keep their names
# (Meta.db_table), so no data moves.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0004_presence_standin_from_accounts"),
        ("accounts", "0002_move_lobby_and_table_models"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="QueueEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "mode",
                            models.CharField(
                                choices=[
                                    ("duel-block", "Duel, block game"),
                                    ("duel-draw", "Duel, draw game"),
                                    ("three", "Three players"),
                                    ("four", "Four players"),
                                    ("pairs", "Pairs"),
                                ],
                                max_length=20,
                                verbose_name="mode",
                            ),
                        ),
                        ("rating", models.FloatField(verbose_name="rating")),
                        ("channel_name", models.CharField(blank=True, max_length=200)),
                        ("joined_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="queue_entry",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "queue entry",
                        "verbose_name_plural": "queue entries",
                        "db_table": "accounts_queueentry",
                        "indexes": [models.Index(fields=["mode", "joined_at"], name="queue_by_mode")],
                    },
                ),
                migrations.CreateModel(
                    name="Invitation",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "from_user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="invitations", to="games.table"
                            ),
                        ),
                        (
                            "to_user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="table_invitations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "invitation",
                        "verbose_name_plural": "invitations",
                        "db_table": "accounts_invitation",
                        "constraints": [
                            models.UniqueConstraint(fields=("table", "to_user"), name="one_invitation_per_friend")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
