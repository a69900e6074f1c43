"""The unique indexes of migration 0008: one game per commitment (games
marked ``shared_commitment`` by 0008 aside) and one engaged seat per member."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_one_deal_per_commitment_one_game_per_member"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(shared_commitment=False), fields=("commitment",), name="game_commitment_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=models.Q(engaged=True), fields=("user",), name="one_game_per_member"
            ),
        ),
    ]
