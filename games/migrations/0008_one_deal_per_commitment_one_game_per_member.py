"""One committed seed deals one game; one game at a time per member.

- ``SeedOffer``: a server seed offered for a member's salt is claimed once,
  by deleting its row (games.fairplay.fairness).
- ``Game.commitment`` becomes unique. A database may already hold games
  that share a commitment (several tables created at once from one offered
  seed, before this fix): their deals are the same, and the seed of any of
  them that finished is published. The migration does not fail on them:
  in each group of games sharing a commitment, the first (lowest id) keeps
  it as the unique one and the others are marked ``shared_commitment``
  (the unique index leaves them out; their replays still verify, since
  their commitment is unchanged). Every game of such a group still live
  (waiting or playing) is aborted, as ``abort_game`` does ("shared_seed":
  no winner, not rated; a room table's stakes return at the next tick),
  because whoever saw another game of its group's seed knows its hands.
- ``Seat.engaged``: at most one per member (a partial unique index). Set
  for the seat of each member's newest live game with other people (or
  open seats), not a computer table; a member who already sat at several
  (possible before this rule) keeps those games, only the newest counts.

The unique indexes themselves are made by the next migration (0009), after
this one's rows are written (PostgreSQL does not alter a table with row
changes of the same transaction still pending).
"""

from django.db import migrations, models
from django.db.models import Count, Q
from django.utils import timezone

LIVE = ("waiting", "playing")


def separate_shared_commitments(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Table = apps.get_model("games", "Table")
    shared = (
        Game.objects.values("commitment").annotate(n=Count("pk")).filter(n__gt=1).values_list("commitment", flat=True)
    )
    now = timezone.now()
    for commitment in list(shared):
        games = list(Game.objects.filter(commitment=commitment).select_related("table").order_by("pk"))
        Game.objects.filter(pk__in=[game.pk for game in games[1:]]).update(shared_commitment=True)
        for game in games:
            if game.table.status not in LIVE:
                continue
            game.result = {"scores": None, "winner": None, "reason": "shared_seed", "resigned": None, "rounds": None}
            game.finished_at = now
            game.to_move = None
            game.save(update_fields=["result", "finished_at", "to_move"])
            Table.objects.filter(pk=game.table_id).update(status="aborted", finished_at=now)


def engage_current_seats(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    seats = (
        Seat.objects.filter(user__isnull=False, table__status__in=LIVE)
        .exclude(table__kind="computer")
        .annotate(
            people=Count(
                "table__seats",
                filter=Q(table__seats__level="") & (~Q(table__seats__user=None) | ~Q(table__seats__guest_key="")),
            ),
        )
        .select_related("table")
        .order_by("-table__created_at", "-table_id")
    )
    engaged: set[int] = set()
    for seat in seats:
        counts = seat.table.status == "waiting" or seat.people >= 2
        if seat.user_id in engaged or not counts:
            continue
        engaged.add(seat.user_id)
        Seat.objects.filter(pk=seat.pk).update(engaged=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_table_rematch"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeedOffer",
            fields=[
                ("commitment", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("created_at", models.DateTimeField(db_index=True, default=timezone.now)),
            ],
        ),
        migrations.AddField(
            model_name="game",
            name="shared_commitment",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="engaged",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(separate_shared_commitments, migrations.RunPython.noop),
        migrations.RunPython(engage_current_seats, migrations.RunPython.noop),
    ]
