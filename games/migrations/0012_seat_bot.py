# A bot account's seat is marked (docs/api.md): the flag, and the seats that
# bot accounts already hold (an account becomes a bot only before its first
# seat, so these were all taken as a bot).

from django.db import migrations, models


def mark_bot_seats(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Seat = apps.get_model("games", "Seat")
    bots = Profile.objects.filter(is_bot=True).values("user_id")
    Seat.objects.filter(user_id__in=bots).update(bot=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_game_duplicate_round"),
        ("accounts", "0005_profile_is_bot"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_bot_seats, migrations.RunPython.noop),
    ]
