"""factory_boy factories of the games app. Games are dealt through the
services (``create_table``) so that their rows are the real thing."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from games.engine import Rules, new_game, rules_for
from games.models import Table
from games.play import services


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password("correct horse battery staple")


class GuestSeatFactory(factory.Factory):
    """A seat for a guest, by a made-up session key."""

    class Meta:
        model = services.SeatSpec

    guest_key = factory.Sequence(lambda n: f"guest-session-{n:04d}")


class ComputerSeatFactory(factory.Factory):
    class Meta:
        model = services.SeatSpec

    level = "easy"


class MemberSeatFactory(factory.Factory):
    class Meta:
        model = services.SeatSpec

    # A saved member even when the spec itself is only built.
    user = factory.LazyFunction(lambda: UserFactory.create())


def make_table(
    *,
    preset: str = "classic-draw",
    players: int = 2,
    teams: bool = False,
    target: int | None = None,
    seats: list[services.SeatSpec] | None = None,
    kind: str = Table.Kind.PRIVATE,
    public: bool = True,
    start: bool = True,
) -> Table:
    """A started table; by default every seat is a guest (tests play all seats).
    Its deal is random, but its first round is really played (see ``seed_in_play``)."""
    rules = rules_for(preset, players=players, teams=teams, target=target)
    if seats is None:
        seats = GuestSeatFactory.build_batch(players)
    return services.create_table(
        kind=kind, rules=rules, preset=preset, seats=seats, public=public, start=start, server_seed=seed_in_play(rules)
    )


def seed_in_play(rules: Rules) -> str:
    """A fresh random seed whose first round does not end at its automatic opening: in the
    block game nobody may be able to follow the double laid for them (about one duel-block
    deal in 110), and the round is over before anyone moves, which tests of play do not expect."""
    for _ in range(100):
        seed = services.new_seed()
        if not new_game(rules, seed).round_over:
            return seed
    raise AssertionError("no deal in 100 has a first round in play")
