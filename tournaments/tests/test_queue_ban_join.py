"""The queue ban (docs/moderation.md, "Fair conduct") keeps a member out of the
tournaments that have started, which pair their players at once as a queue
does; one not started yet may still be joined, and the ban lifts on time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import selectors as account_selectors
from lobby.tests.test_queue_ban import leave_games
from tournaments import services
from tournaments.models import Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def test_a_banned_member_may_not_join_a_started_tournament_until_the_ban_ends(
    make_member, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    with django_capture_on_commit_callbacks(execute=True):
        leave_games(alice, bob, 3)
    ban = account_selectors.queue_ban(alice.pk)
    assert ban is not None
    started = services.create_tournament(user=bob, format="arena", mode="duel-block", minutes=60, starts_in=5)
    Tournament.objects.filter(pk=started.pk).update(status=Tournament.Status.STARTED, starts_at=timezone.now())
    started.refresh_from_db()
    coming = services.create_tournament(user=bob, format="arena", mode="duel-block", minutes=60, starts_in=60)
    with pytest.raises(services.TournamentError, match="you may not queue until"):
        services.join(tournament=started, user=alice)
    assert not Player.objects.filter(tournament=started, user=alice).exists()
    services.join(tournament=coming, user=alice)  # not started: no pairing yet
    # The ban over, the started one may be joined.
    later = ban.until + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    services.join(tournament=started, user=alice)
    assert Player.objects.filter(tournament=started, user=alice, withdrawn=False).exists()
