"""The lines of the API's streams as pydantic models (docs/api.md, "Streams"):
the OpenAPI document describes each stream's ``application/x-ndjson`` body by
the schema of one line (``EventStreamLine``, ``GameStreamLine``: one of the
line types, told apart by ``type``). Blank keep-alive lines carry nothing."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

# Where ninja puts its schemas in the document (ninja.openapi.schema.REF_TEMPLATE).
REF_TEMPLATE = "#/components/schemas/{model}"


class _Line(BaseModel):
    """A stream's own object: every field documented, no other."""

    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    """An object of the table core's frames (docs/protocol.md): the fields below, maybe more."""

    model_config = ConfigDict(extra="allow")


Tile = Annotated[list[int], Field(min_length=2, max_length=2)]


class ViewOut(_Open):
    """The reader's own view (docs/protocol.md, the ``state`` frame's ``view``): only its own hand."""

    seat: int | None
    hand: list[Tile]
    line: list[Tile]
    ends: list[int] | None
    hand_counts: list[int]
    boneyard_count: int
    undealt_count: int
    to_move: int | None
    scores: list[int]
    round: int
    history: list[dict[str, Any]]
    rules: dict[str, Any]
    round_over: bool
    game_over: bool
    legal: list[dict[str, Any]]


class EventOut(_Line):
    """One event as the reader sees it (a drawn tile only in the drawer's own)."""

    seat: int | None
    action: str
    tile: Tile | None = None
    end: str | None = None
    by: str | None = None


class RoundOverOut(_Open):
    round: int
    result: dict[str, Any]
    hands: list[list[Tile]]
    scores: list[int]


class GameOverOut(_Open):
    scores: list[int]
    winner: Any
    reason: str | None
    resigned: Any
    aborted: bool


class PlayerOut(_Open):
    seat: int
    name: str
    kind: str
    bot: bool


class GameFullLine(_Line):
    """The game stream's first line: the reader's whole view after the game's last event."""

    type: Literal["gameFull"]
    id: int
    seq: int
    seat: int
    status: str
    preset: str
    commitment: str
    players: list[PlayerOut]
    view: ViewOut | None
    legal: list[str] = Field(description="the reader's legal actions in the notation, each postable as move/<action>")
    nextRound: bool
    chain: str
    roundOver: RoundOverOut | None = None
    gameOver: GameOverOut | None = None


class GameStateLine(_Line):
    """A line after every event (``seq``), or the table's abort."""

    type: Literal["gameState"]
    seq: int
    status: str
    legal: list[str]
    event: EventOut | None = None
    view: ViewOut | None = None
    nextRound: bool | None = None
    chain: str | None = None
    roundOver: RoundOverOut | None = None
    gameOver: GameOverOut | None = None


class ChallengeOut(_Line):
    id: int
    status: str
    challenger: str
    dest: str
    preset: str
    players: int
    teams: bool
    target: int
    rated: bool
    game: int | None


class GameObjectOut(_Line):
    id: int = Field(description="the table's id: the game routes' <id>")
    seat: int
    kind: str
    status: str
    preset: str | None
    result: dict[str, Any] | None
    url: str


class ChallengeLine(_Line):
    type: Literal["challenge"]
    challenge: ChallengeOut


class GameStartLine(_Line):
    type: Literal["gameStart"]
    game: GameObjectOut


class GameFinishLine(_Line):
    type: Literal["gameFinish"]
    game: GameObjectOut


EventStreamLine = Annotated[ChallengeLine | GameStartLine | GameFinishLine, Field(discriminator="type")]
GameStreamLine = Annotated[GameFullLine | GameStateLine, Field(discriminator="type")]

LINES: dict[str, Any] = {"EventStreamLine": EventStreamLine, "GameStreamLine": GameStreamLine}


def components() -> dict[str, Any]:
    """The schemas to add to the document's ``components.schemas``: each line type, and
    ``EventStreamLine`` and ``GameStreamLine``, one line of each stream."""
    found: dict[str, Any] = {}
    for name, annotation in LINES.items():
        schema = TypeAdapter(annotation).json_schema(ref_template=REF_TEMPLATE)
        found.update(schema.pop("$defs", {}))
        found[name] = {"description": f"One line of the stream ({name}).", **schema}
    return found


def ndjson_response(line: str, description: str) -> dict[str, Any]:
    """An operation's ``openapi_extra``: its 200 is NDJSON whose every non-blank line is a ``line``."""
    return {
        "responses": {
            "200": {
                "description": description,
                "content": {"application/x-ndjson": {"schema": {"$ref": REF_TEMPLATE.format(model=line)}}},
            }
        }
    }
