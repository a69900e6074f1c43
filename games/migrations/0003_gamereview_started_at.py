# The review's lease (games.coach.services.review_game).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_fair_play"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamereview",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
