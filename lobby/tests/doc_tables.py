"""The tables of docs/rooms.md, written from lobby.rooms (test_rooms_doc
checks that the document shows them; run this module to print them)."""

from __future__ import annotations

from lobby import rooms

PLACES = ("1st", "2nd", "3rd", "4th")


def rooms_table() -> list[str]:
    lines = ["| room | slug | stake | from level |", "|---|---|---:|---:|"]
    for room in rooms.ROOMS.values():
        lines.append(f"| {room.name} | `{room.slug}` | {room.stake} | {room.min_level} |")
    return lines


def payout_table(kind: str) -> list[str]:
    game_kind = rooms.KINDS[kind]
    places = PLACES[: len(game_kind.payout_percent)]
    header = "| room | stake | " + " | ".join(f"{place} gets (net)" for place in places) + " | house fee |"
    lines = [header, "|---|---:|" + "---:|" * (len(places) + 1)]
    for room in rooms.ROOMS.values():
        cells = [f"{chips} ({net:+d})" for chips, net in zip(room.payouts(kind), room.net(kind), strict=True)]
        lines.append(f"| {room.name} | {room.stake} | " + " | ".join(cells) + f" | {room.fee(kind)} |")
    return lines


def xp_table() -> list[str]:
    lines = ["| kind of game | " + " | ".join(PLACES) + " | draw |", "|---|---:|---:|---:|---:|---:|"]
    for kind in rooms.KINDS.values():
        cells = [str(rooms.xp_for(kind.key, place + 1)) for place in range(len(kind.xp))]
        cells += ["-"] * (4 - len(cells))
        draw = rooms.xp_for(kind.key, rooms.DRAW_XP_PLACE)
        lines.append(f"| {kind.label} | " + " | ".join(cells) + f" | {draw} |")
    return lines


def level_table(up_to: int = 20) -> list[str]:
    lines = ["| level | experience |", "|---:|---:|"]
    for level in range(1, up_to + 1):
        lines.append(f"| {level} | {rooms.xp_for_level(level)} |")
    return lines


def all_tables() -> dict[str, list[str]]:
    tables = {"rooms": rooms_table(), "xp": xp_table(), "levels": level_table()}
    for kind in rooms.KINDS:
        tables[f"payouts-{kind}"] = payout_table(kind)
    return tables


if __name__ == "__main__":
    import django

    django.setup()
    for name, lines in all_tables().items():
        print(f"<!-- {name} -->")
        print("\n".join(lines))
        print()
