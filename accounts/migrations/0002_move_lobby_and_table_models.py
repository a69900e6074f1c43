# The queue and invitations moved to the lobby app, presence and stand-ins to
# the games app (the table core). Only Django's state changes: the tables keep
# their names (each model's Meta.db_table), so no data moves.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="QueueEntry"),
                migrations.DeleteModel(name="Invitation"),
                migrations.DeleteModel(name="Presence"),
                migrations.DeleteModel(name="StandIn"),
            ],
            database_operations=[],
        ),
    ]
