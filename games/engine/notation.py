"""The dominoes notation: one action in a few characters, a game as a text record.

Plain Python, standard library only. ``docs/notation.md`` defines the text; this
module reads it (``loads``) and writes it (``dumps``). A record is a game's tag
pairs (the variant and its options, the players, the date, the result, the
commitment and the seed once revealed) and its events in order, round by round.

An action (``token``/``read_token``, and the ``legal`` lists of the API):

- ``35R`` / ``35L``: the tile 3-5 laid on the right / left end; ``35``: the
  first tile of a round's line (a line has no ends yet); the numbers are
  written low then high;
- ``D``: a draw (``D46`` when the drawn tile is known to the reader);
- ``P``: a pass;
- ``X2``: seat 2 resigns; ``=``: the game is drawn by agreement.

Plays, draws and passes need no seat: a round line starts with its number and
the seat of its opener (``2@1``), and turns then go round (a draw keeps the
turn, a play or a pass hands it on). The first tile of round 1 is the deal's
automatic opening, written for the reader but not an action of the log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .actions import End, Play
from .deal import deal_hands
from .errors import IllegalAction
from .events import Event, EventKind
from .game import new_game, opening_tile
from .rules import PRESETS, Rules
from .state import State
from .tiles import TILES, Tile

__all__ = [
    "BOT_TITLE",
    "NotationError",
    "Record",
    "dumps",
    "loads",
    "loads_all",
    "read_token",
    "record_of",
    "replay_record",
    "rounds",
    "rules_from_tags",
    "rules_tags",
    "token",
]

# The tags a record writes first, in this order when given (docs/notation.md); the
# variant and its options follow, then any other tag. ``SeatNTitle`` follows its
# seat's name: a title of the player at seat N (``BOT``: a program plays it).
FIRST_TAGS = (
    "Event", "Site", "Date", "Table",
    "Seat0", "Seat0Title", "Seat1", "Seat1Title", "Seat2", "Seat2Title", "Seat3", "Seat3Title",
    "Result",
)
# The title of a seat played by a program (a bot account of the site).
BOT_TITLE = "BOT"
_RULE_TAGS = {
    "draw": "Draw",
    "players": "Players",
    "teams": "Teams",
    "hand_size": "HandSize",
    "target": "Target",
    "redeal_five_doubles": "RedealFiveDoubles",
    "next_opener": "NextOpener",
    "blocked_tie": "BlockedTie",
    "closed_board": "ClosedBoard",
    "team_scoring": "TeamScoring",
}
_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]\Z')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_ROUND = re.compile(r"([1-9][0-9]*)(?:@([0-3]))?\.\Z")
_TOKEN = re.compile(r"(?:([0-6])([0-6])([LR]?)|D(?:([0-6])([0-6]))?|P|X([0-3])|=)\Z")
_RESULT = re.compile(r"\*|[0-9]+(?:-[0-9]+){1,3}\Z")
_SEAT_TITLE = re.compile(r"Seat([0-9]+)Title\Z")
_TITLE = re.compile(r"[A-Z]{1,8}\Z")


class NotationError(ValueError):
    """A record or a token that is not the notation; ``line`` is its line number
    (1-based; 0 when not read from a text)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.reason = message
        self.line = line


@dataclass(frozen=True, slots=True)
class Record:
    """A game in the notation.

    ``tags``: the tag pairs in order; ``opening``: round 1's automatic opening,
    (seat, tile as (low, high)); ``events``: the log after it, normalised to what
    the notation writes (kind, seat, tile, end; a draw's tile when known);
    ``result``: the final scores joined by "-" (by seat, or by pair), or "*"
    while the game is on.
    """

    tags: tuple[tuple[str, str], ...]
    opening: tuple[int, tuple[int, int]]
    events: tuple[Event, ...] = ()
    result: str = "*"
    _tag_map: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        names = [name for name, _value in self.tags]
        if len(set(names)) != len(names):
            raise NotationError("a tag is given twice")
        object.__setattr__(self, "_tag_map", dict(self.tags))

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name``."""
        return self._tag_map.get(name, default)

    @property
    def titles(self) -> dict[int, str]:
        """The players' titles by seat (the ``SeatNTitle`` tags)."""
        found = ((_SEAT_TITLE.match(name), value) for name, value in self.tags)
        return {int(match.group(1)): value for match, value in found if match is not None}

    @property
    def bots(self) -> tuple[int, ...]:
        """The seats played by programs (title ``BOT``), in seat order."""
        return tuple(sorted(seat for seat, title in self.titles.items() if title == BOT_TITLE))


# -- one action ------------------------------------------------------------------------


def token(event: Event, *, first: bool = False) -> str:
    """The notation of ``event``; ``first``: a play that starts a round's line
    (written without an end). A next round has no token (it starts a round line)."""
    kind = event.kind
    if kind is EventKind.PLAY:
        assert event.tile is not None
        low, high = sorted(event.tile)
        return f"{low}{high}" if first else f"{low}{high}{'L' if event.end is End.LEFT else 'R'}"
    if kind is EventKind.DRAW:
        if event.tile is None:
            return "D"
        low, high = sorted(event.tile)
        return f"D{low}{high}"
    if kind is EventKind.PASS:
        return "P"
    if kind is EventKind.RESIGN:
        return f"X{event.seat}"
    if kind is EventKind.AGREE_DRAW:
        return "="
    raise NotationError(f"a {kind} is written as a new round line, not as a token")


def read_token(text: str, seat: int | None, *, first: bool = False, line: int = 0) -> Event:
    """The event of token ``text`` played by ``seat`` (the seat to act; resignations
    name their own); ``first``: the token starts a round's line."""
    match = _TOKEN.match(text)
    if match is None:
        raise NotationError(f"{text!r} is not an action (35R, 35L, 35, D, P, X1, =)", line)
    if text == "=":
        return Event(EventKind.AGREE_DRAW)
    if text.startswith("X"):
        return Event(EventKind.RESIGN, int(match.group(6)))
    if seat is None:
        raise NotationError(f"{text!r}: nobody is to act here", line)
    if text.startswith("P"):
        return Event(EventKind.PASS, seat)
    if text.startswith("D"):
        drawn = None if match.group(4) is None else _ordered(int(match.group(4)), int(match.group(5)))
        return Event(EventKind.DRAW, seat, drawn)
    tile = _ordered(int(match.group(1)), int(match.group(2)))
    end = match.group(3)
    if first and end:
        raise NotationError(f"{text!r}: the first tile of a line is written without an end", line)
    if not first and not end:
        raise NotationError(f"{text!r}: a tile laid on a line needs its end, L or R", line)
    return Event(EventKind.PLAY, seat, tile, End.RIGHT if end == "R" else End.LEFT)


def _ordered(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


# -- the rules as tags -----------------------------------------------------------------


def rules_tags(rules: Rules) -> list[tuple[str, str]]:
    """The tag pairs of every option of ``rules``."""
    pairs = []
    for item in fields(Rules):
        value = getattr(rules, item.name)
        if isinstance(value, bool):
            text = "yes" if value else "no"
        elif value is None:
            text = "auto"
        else:
            text = str(value)
        pairs.append((_RULE_TAGS[item.name], text))
    return pairs


def rules_from_tags(tags: Mapping[str, str]) -> Rules:
    """The rules a record's tags give: its ``Variant`` preset, with every option tag
    read over it. Raises NotationError for an unknown preset or a bad value."""
    variant = tags.get("Variant", "classic-draw")
    if variant not in PRESETS:
        raise NotationError(f"unknown variant {variant!r} (one of {', '.join(sorted(PRESETS))})")
    values: dict[str, Any] = {}
    for item in fields(Rules):
        text = tags.get(_RULE_TAGS[item.name])
        if text is None:
            continue
        default = getattr(PRESETS[variant], item.name)
        if text in ("yes", "no") and (isinstance(default, bool) or item.name in _BOOLS):
            values[item.name] = text == "yes"
        elif text == "auto" and item.name == "hand_size":
            values[item.name] = None
        elif item.name in _INTS:
            if not text.isdigit():
                raise NotationError(f"tag {_RULE_TAGS[item.name]}: {text!r} is not a number")
            values[item.name] = int(text)
        else:
            values[item.name] = text
    try:
        return Rules(**{**_rules_dict(PRESETS[variant]), **values})
    except (TypeError, ValueError) as error:
        raise NotationError(f"the rules tags do not make rules: {error}") from None


_BOOLS = {"draw", "teams", "redeal_five_doubles", "closed_board"}
_INTS = {"players", "hand_size", "target"}


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {item.name: getattr(rules, item.name) for item in fields(Rules)}


# -- a game ------------------------------------------------------------------------------


def _normal(event: Event) -> Event:
    """What the notation keeps of an event."""
    seat = None if event.kind is EventKind.NEXT_ROUND or event.kind is EventKind.AGREE_DRAW else event.seat
    tile = event.tile if event.kind in (EventKind.PLAY, EventKind.DRAW) else None
    return Event(event.kind, seat, tile, event.end)


def record_of(
    rules: Rules,
    events: Iterable[Event],
    *,
    opening: tuple[int, Tile | tuple[int, int]],
    tags: Sequence[tuple[str, str]] = (),
    result: str = "*",
    variant: str | None = None,
) -> Record:
    """A record of a game: its rules as tags (after ``tags`` and the ``Variant``),
    round 1's ``opening`` (seat, tile), and its ``events`` (the log after the deal)."""
    given = [(name, value) for name, value in tags if name not in _RULE_TAGS.values() and name != "Variant"]
    for name, value in given:
        _check_tag(name, value)
        _check_title(name, value, rules.players)
    if not _RESULT.match(result):
        raise NotationError(f"{result!r} is not a result (scores joined by '-', or '*')")
    seat, tile = opening
    pair = _ordered(*tile.to_list()) if isinstance(tile, Tile) else _ordered(*tile)
    order = {name: i for i, name in enumerate(FIRST_TAGS)}
    head = sorted((pair_ for pair_ in given if pair_[0] in order), key=lambda p: order[p[0]])
    tail = [pair_ for pair_ in given if pair_[0] not in order]
    all_tags = [*head, ("Variant", variant or _preset_name(rules)), *rules_tags(rules), *tail]
    return Record(tuple(all_tags), (seat, pair), tuple(_normal(event) for event in events), result)


def _preset_name(rules: Rules) -> str:
    """The preset these rules are, else the classic one of their kind (the option
    tags say the rest)."""
    for name, preset in PRESETS.items():
        if replace(preset, players=rules.players, teams=rules.teams, target=rules.target) == rules:
            return name
    return "classic-draw" if rules.draw else "classic-block"


def _check_tag(name: str, value: str) -> None:
    if not _TAG_NAME.match(name):
        raise NotationError(f"{name!r} is not a tag name (letters, digits, _)")
    if not isinstance(value, str) or "\n" in value or "\r" in value:
        raise NotationError(f"tag {name}: a value is one line of text")


def _check_title(name: str, value: str, players: int, line: int = 0) -> None:
    """A ``SeatNTitle`` tag names a seat at the table, and its title is capitals."""
    match = _SEAT_TITLE.match(name)
    if match is None:
        return
    if int(match.group(1)) >= players:
        raise NotationError(f"tag {name}: seat {match.group(1)} is not at a table of {players}", line)
    if not _TITLE.match(value):
        raise NotationError(f"tag {name}: a title is capital letters (like {BOT_TITLE}), not {value[:20]!r}", line)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def rounds(record: Record) -> list[tuple[int | None, list[str]]]:
    """The record's rounds in order, as its round lines write them: each round's
    opener (the seat of its first tile; None in a round where no tile was laid)
    and its tokens (round 1's automatic opening left out: it is ``record.opening``)."""
    lines: list[tuple[int | None, list[str]]] = [(record.opening[0], [])]
    first = False  # round 1's first tile is the opening
    for event in record.events:
        if event.kind is EventKind.NEXT_ROUND:
            lines.append((None, []))
            first = True
            continue
        if first and event.kind is EventKind.PLAY:
            lines[-1] = (event.seat, lines[-1][1])
            lines[-1][1].append(token(event, first=True))
            first = False
            continue
        lines[-1][1].append(token(event))
    return lines


def dumps(record: Record) -> str:
    """The text of ``record`` (docs/notation.md)."""
    rules_from_tags(record._tag_map)  # a record whose option tags are not rules is refused
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags]
    lines.append("")
    tile = record.opening[1]
    for number, (opener, tokens) in enumerate(rounds(record), 1):
        words = [f"{number}." if opener is None else f"{number}@{opener}."]
        if number == 1:
            words.append(f"{tile[0]}{tile[1]}")
        lines.append(" ".join([*words, *tokens]))
    lines[-1] += f" {record.result}"
    return "\n".join(lines) + "\n"


def loads(text: str) -> Record:
    """The record of a text in the notation. Raises NotationError, with the line
    it failed on, for anything that is not the notation: a tag, a round line or
    an action out of place; the seats come from the turns."""
    if not isinstance(text, str):
        raise NotationError("a record is text")
    tags: list[tuple[str, str]] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines) and lines[number].strip().startswith("["):
        raw = lines[number].strip()
        match = _TAG_LINE.match(raw)
        if match is None:
            raise NotationError(f'a tag pair is [Name "value"], not {raw[:40]!r}', number + 1)
        name, value = match.group(1), _unescape(match.group(2))
        if any(name == seen for seen, _ in tags):
            raise NotationError(f"tag {name} is given twice", number + 1)
        tags.append((name, value))
        number += 1
    tag_map = dict(tags)
    try:
        rules = rules_from_tags(tag_map)
    except NotationError as error:
        raise NotationError(error.reason, 1) from None
    players = rules.players
    for line_no, (name, value) in enumerate(tags, 1):
        _check_title(name, value, players, line_no)
    events: list[Event] = []
    opening: tuple[int, tuple[int, int]] | None = None
    result: str | None = None
    round_no = 0
    to_move: int | None = None
    over = False
    for index in range(number, len(lines)):
        line_no = index + 1
        words = lines[index].split()
        if not words:
            continue
        if result is not None:
            raise NotationError("nothing may follow the result", line_no)
        if len(words) == 1 and _RESULT.match(words[0]):
            result = words[0]
            continue
        head = _ROUND.match(words[0])
        if head is None:
            raise NotationError(f"a round line starts with its number and opener (like 2@1.), not {words[0]!r}",
                                line_no)
        if over:
            raise NotationError("the game is over: no round may follow", line_no)
        if int(head.group(1)) != round_no + 1:
            raise NotationError(f"round {round_no + 1} expected, not {head.group(1)}", line_no)
        round_no += 1
        opener = None if head.group(2) is None else int(head.group(2))
        if opener is not None and opener >= players:
            raise NotationError(f"seat {opener} is not at a table of {players}", line_no)
        if round_no > 1:
            events.append(Event(EventKind.NEXT_ROUND))
        body = words[1:]
        if body and _RESULT.match(body[-1]):
            result = body.pop()
        first = True
        to_move = opener
        for word in body:
            if over:
                raise NotationError(f"{word!r}: the game is already over", line_no)
            if first and not word.startswith(("X", "=")):
                if opener is None:
                    raise NotationError("a round with tiles names its opener (like 2@1.)", line_no)
                if not re.fullmatch(r"[0-6][0-6]", word):
                    raise NotationError(f"{word!r}: a round's line starts with a tile (like 35)", line_no)
                pair = _ordered(int(word[0]), int(word[1]))
                if round_no == 1:
                    opening = (opener, pair)
                else:
                    events.append(Event(EventKind.PLAY, opener, pair, End.LEFT))
                first = False
                to_move = (opener + 1) % players
                continue
            event = read_token(word, to_move, line=line_no)
            if event.kind is EventKind.RESIGN and event.seat is not None and event.seat >= players:
                raise NotationError(f"seat {event.seat} is not at a table of {players}", line_no)
            events.append(event)
            if event.kind in (EventKind.RESIGN, EventKind.AGREE_DRAW):
                over = True
            elif event.kind is not EventKind.DRAW and to_move is not None:
                to_move = (to_move + 1) % players
        if round_no == 1 and opening is None:
            raise NotationError("round 1 starts with the opening tile (like 1@0. 66)", line_no)
    if opening is None:
        raise NotationError("no moves: a record holds at least round 1 and its opening", len(lines) or 1)
    if result is None:
        raise NotationError("the record ends with its result (the scores like 101-37, or *)", len(lines) or 1)
    if tag_map.get("Result", result) != result:
        raise NotationError(f"the result {result} is not the Result tag's {tag_map['Result']}", len(lines))
    return Record(tuple(tags), opening, tuple(events), result)


def loads_all(text: str) -> list[Record]:
    """The records of a text holding several, one after another (a member's
    download): a record starts at a tag pair that follows a round line. A
    NotationError names the line in the whole text."""
    starts = [0]
    lines = text.splitlines()
    in_moves = False
    for number, raw in enumerate(lines):
        stripped = raw.strip()
        if stripped.startswith("[") and in_moves:
            starts.append(number)
            in_moves = False
        elif stripped and not stripped.startswith("["):
            in_moves = True
    records = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        chunk = "\n".join(lines[start:end]) + "\n"
        if not chunk.strip():
            continue
        try:
            records.append(loads(chunk))
        except NotationError as error:
            raise NotationError(error.reason, error.line + start if error.line else 0) from None
    return records


def replay_record(record: Record) -> State:
    """The state at the end of ``record``, replayed by the engine from its ``Seed``
    tag. Raises NotationError when the record has no seed, when its opening is not
    the deal's, or when an action is not legal (``IllegalAction``'s reason)."""
    seed = record.tag("Seed")
    if not seed:
        raise NotationError("the record has no Seed tag: only a finished game's record can be replayed")
    rules = rules_from_tags(record._tag_map)
    state = new_game(rules, seed)
    seat, index = opening_tile(deal_hands(rules, seed, 1)[0])
    low, high = TILES[index].to_list()
    if record.opening != (seat, (low, high)):
        raise NotationError(f"the opening {record.opening} is not the deal's")
    for position, event in enumerate(record.events):
        try:
            if event.kind is EventKind.DRAW and event.tile is not None:
                expected = state.boneyard[0] if state.boneyard else None
                if expected is None or _ordered(*expected.to_list()) != event.tile:
                    raise NotationError(f"event {position + 1}: the draw is not the boneyard's next tile")
            state = event.apply(state)
        except IllegalAction as error:
            written = "next round" if event.kind is EventKind.NEXT_ROUND else token(event)
            raise NotationError(f"event {position + 1} ({written}): {error.reason}") from None
    return state


def play_token(play: Play, state: State) -> str:
    """The notation of a legal play at ``state`` (the API's ``legal`` lists)."""
    return token(Event.from_action(play), first=not state.line)
