"""The guide's section on rooms shows the figures of lobby.rooms, in both
languages: each room's stake and level, each payout, each fee, the
experience per place and round played, the level curve, the caps on
what is won from new accounts."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby import rooms
from rules_guide.tests.test_guide_page import get_page


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_rooms_section_is_the_data(client: Client, db, language: str) -> None:
    _tree, html = get_page(client, language)
    assert 'id="rooms"' in html
    for room in rooms.ROOMS.values():
        assert f'data-room="{room.slug}" data-stake="{room.stake}" data-min-level="{room.min_level}"' in html
    section = html[html.index('id="rooms"') : html.index('id="strategy"')]
    for kind in rooms.KINDS.values():
        table = section[section.index(f'data-kind="{kind.key}"') :]
        table = table[: table.index("</table>")]
        for room in rooms.ROOMS.values():
            row = table[table.index(f'data-room="{room.slug}"') :]
            row = row[: row.index("</tr>")]
            cells = [
                f'data-paid="{paid}" data-net="{net}"'
                for paid, net in zip(room.payouts(kind.key), room.net(kind.key), strict=True)
            ]
            for cell in cells:
                assert cell in row, (kind.key, room.slug, cell)
            assert f'data-fee="{room.fee(kind.key)}"' in row
        experience = section[section.index('data-table="room-experience"') :]
        row = experience[experience.index(f'<tr data-kind="{kind.key}"') :]
        row = row[: row.index("</tr>")]
        for place in range(1, len(kind.xp) + 1):
            assert f'data-xp="{rooms.xp_for(kind.key, place)}"' in row
    assert f"{rooms.NEWCOMER_PAIR_CAP} chips a day" in section or f"{rooms.NEWCOMER_PAIR_CAP} jetons par jour" in section
    assert f"{rooms.NEWCOMER_DAILY_CAP}" in section
    for level in (1, 2, 6, 10, 15, 20):
        assert f'data-level="{level}" data-xp="{rooms.xp_for_level(level)}"' in section
