"""A bot account's chat lines say so (docs/protocol.md): the table page marks
the name of a ``chat`` frame whose ``bot`` is true."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import become_bot
from community import selectors, services
from games.tests.helpers import ranked_table

pytestmark = pytest.mark.django_db


def test_chat_lines_of_a_bot_say_so(make_member: Any) -> None:
    alice = make_member("alice")
    bot = make_member("deepbones")
    become_bot(user=bot)
    table = ranked_table([alice, bot])
    said = services.say(table_id=table.pk, game_id=None, seat=1, user_id=bot.pk, text="good luck")
    assert said.frame["bot"] is True
    services.say(table_id=table.pk, game_id=None, seat=0, user_id=alice.pk, text="thanks")
    lines = selectors.lines_for(table_id=table.pk, rooms=["players"], viewer_id=alice.pk, limit=30)
    assert [(line["from"], line["bot"]) for line in lines] == [("deepbones", True), ("alice", False)]
