"""Response models of the games and rooms, for the OpenAPI document: the one game view
(:mod:`rummisolve.server.game_views`) of each kind, the single-player game's and the room's fields
around it, and the answers of the ``/games`` and ``/rooms`` endpoints (docs/web.md, docs/rooms.md).

They *document* the answers: the routes build them as plain JSON (a room's view is pushed on every
move, and is not validated on the way out); the tests validate real answers against these models,
so a field added to a view and not here fails them (the views forbid fields the models lack).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from rummisolve.server.schemas import ErrorBody, PresetName, RuleOptions, TileCode, VerifyReason

__all__ = [
    "GameView",
    "TileGameView",
    "XpressGameView",
    "RoomView",
    "NewGameAnswer",
    "GameAnswer",
    "ActionAnswer",
    "GamesList",
    "DeletedGame",
    "RoundReplay",
    "SavedGame",
    "RoomMade",
    "RoomResults",
    "IllegalTurn",
    "ERROR_RESPONSES",
]

Meld = list[str]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Timer(_Closed):
    """The turn timer."""

    seconds: float | None = Field(description="Seconds per turn; null: no timer.")
    penalty: int = Field(description="Tiles drawn by a player whose time runs out.")
    deadline: float | None = Field(
        description="When the mover's time runs out (wall-clock seconds): rooms; null in a single-player game "
        "(``left`` counts there) or without a timer."
    )
    left: float | None = Field(
        description="Seconds the mover has left; null without a timer or once the round is over."
    )


class RoundResultOut(_Closed):
    """A finished round."""

    winner: int | None = Field(description="The winning seat; null: a draw.")
    end_reason: Literal["out", "blocked"] = Field(description="A player went out, or nobody could move.")
    scores: list[int] = Field(description="Each seat's score in the round.")
    turns: int = Field(description="Turns the round lasted.")


class ResultsSummary(_Closed):
    """The finished rounds: how many, the newest one's result, each seat's total."""

    count: int
    last: RoundResultOut | None
    totals: list[int]


class EventOut(BaseModel):
    """An event of the round as the viewing seat may see it (docs/web.md, "Events"): ``type`` (play,
    draw, discard, timeout; Xpress: roll, pass), the mover's ``player`` and ``name``, and the
    type's fields (a play's ``played`` tiles; a draw's ``tile`` for its own player only)."""

    model_config = ConfigDict(extra="allow")

    type: str
    player: int
    name: str


class LastEvent(EventOut):
    """The newest event, with the table before it (what it changed)."""

    before: list[Meld]


class TilePlayer(_Closed):
    """A seat of the tile game."""

    name: str
    kind: str = Field(description="'human' or the AI's level.")
    tiles: int = Field(description="Tiles on the seat's rack.")
    opened: bool = Field(description="Whether the seat has made its initial meld.")
    rack: list[str] | None = Field(None, description="The seat's rack: only once the round is over.")
    joined: bool | None = Field(None, description="Rooms: whether the seat is taken.")


class Die(_Closed):
    die: str = Field(description="The die's name, D1 to D18.")
    face: str = Field(description="The face it shows, as a tile code.")


class XpressPlayer(_Closed):
    """A seat of Xpress: its dice are rolled in the open, so they are shown."""

    name: str
    kind: str
    tiles: int = Field(description="Dice the seat has left.")
    opened: bool
    dice: list[Die]
    rack: list[str] = Field(description="The faces its dice show.")
    total: int = Field(description="The points its dice left count.")
    joined: bool | None = None


class _GameViewBase(_Closed):
    status: Literal["waiting", "playing", "over", "archived"] = Field(
        description="'playing' or 'over' (the round has ended); rooms also 'waiting' (a human seat is free) and "
        "'archived'."
    )
    round: int = Field(description="The round on, from 0.")
    turn: int = Field(description="The seat to move.")
    turn_number: int = Field(description="Turns played this round.")
    table: list[Meld] = Field(description="The melds on the table, in play order.")
    rules: JsonValue = Field(description="The rules: a preset name or the rule options.")
    finished: bool = Field(description="Whether the round is over.")
    winner: int | None
    end_reason: Literal["out", "blocked"] | None
    log: list[EventOut] = Field(description="The round's events as this seat may see them (a play without its table).")
    last: LastEvent | None
    results: ResultsSummary
    seat: int | None = Field(None, description="The seat whose view this is; absent for a spectator.")
    rack: list[str] | None = Field(None, description="The seat's own rack; absent for a spectator.")


class TileGameView(_GameViewBase):
    """The tile game as one seat sees it."""

    kind: Literal["tiles"]
    players: list[TilePlayer]
    pool: int = Field(description="Tiles left to draw.")
    timer: Timer
    discard_pile: list[str] | None = Field(None, description="The discard rule only: the pile, its top last.")
    draw_from: Literal["pool", "discard"] | None = Field(
        None, description="The discard rule, the seat's own view: where the mover drew from this turn."
    )
    drawn: str | None = Field(None, description="The discard rule, the mover's own view: the tile it drew this turn.")


class XpressGameView(_GameViewBase):
    """Xpress as one seat sees it: no pool, no discard pile, no timer."""

    kind: Literal["xpress"]
    players: list[XpressPlayer]
    table_dice: list[list[str]] = Field(description="Which die each face on the table is, meld by meld.")
    rolled: bool = Field(description="Whether the mover has rolled this turn.")
    passes: int = Field(description="Turns in a row without a die played.")
    passes_to_end: int = Field(description="Turns without a die played that end the game.")
    dice: list[str] | None = Field(None, description="The seat's own dice, in the order of its rack.")


class _SessionFields(BaseModel):
    practice: bool = Field(description="A practice game: the player chose the seed (shown), take-back allowed.")
    seed: int | None = Field(None, description="Practice games only.")
    can_undo_turn: bool


class TileSessionView(TileGameView, _SessionFields):
    """A single-player tile game as its human sees it."""


class XpressSessionView(XpressGameView, _SessionFields):
    """A single-player Xpress game as its human sees it."""


GameView = Annotated[TileSessionView | XpressSessionView, Field(discriminator="kind")]
"""A single-player game's view (``state`` in every ``/games`` answer)."""


class _RoomFields(BaseModel):
    room: str = Field(description="The room's code.")
    invite: str = Field(description="The page that joins or watches the room.")
    version: int = Field(description="The room's version: send it with the seat's next action.")
    creator: int = Field(description="The creator's seat.")


class TileRoomView(TileGameView, _RoomFields):
    """A tile game room as a seat (or a spectator) sees it."""


class XpressRoomView(XpressGameView, _RoomFields):
    """An Xpress room as a seat (or a spectator) sees it: the room's turn timer too."""

    timer: Timer


RoomView = Annotated[TileRoomView | XpressRoomView, Field(discriminator="kind")]
"""A room's view: ``GET /rooms/{room}``, every push, every seat's action's answer."""


class NewGameAnswer(_Closed):
    id: str
    token: str = Field(description="The owner's secret token (also set as a cookie).")
    version: int
    state: GameView


class GameAnswer(_Closed):
    id: str
    version: int = Field(description="The game's version: send it with the next action.")
    state: GameView


class HintOut(BaseModel):
    """A hint: ``text`` in words; the tile game's fields (docs/json-contract.md, hints), or for Xpress
    ``kind`` ``reroll`` (before the roll: the dice to roll again) or ``play``."""

    model_config = ConfigDict(extra="allow")

    level: int
    text: str


class ActionAnswer(_Closed):
    """The answer of ``POST /games/{id}/<action>``: the new state, and what the action did."""

    id: str
    version: int
    state: GameView
    event: EventOut | None = Field(None, description="The event the action made, as the human may see it.")
    before: list[Meld] | None = Field(None, description="The table before it.")
    legal: bool | None = Field(
        None, description="play, discard: whether the referee accepted it (false: nothing changed)."
    )
    reasons: list[VerifyReason] | None = None
    message: str | None = None
    draw: EventOut | None = Field(None, description="advance, the discard rule: the AI's draw before its discard.")
    roll: EventOut | None = Field(None, description="advance, Xpress: the AI's roll.")
    illegal: str | None = Field(None, description="advance: why the AI's choice was refused (it then drew or passed).")
    hint: HintOut | None = None


class GameSummary(BaseModel):
    """One line of the saved games list."""

    model_config = ConfigDict(extra="allow")

    id: str
    players: list[str]
    kinds: list[str]
    rules: JsonValue
    practice: bool
    round: int
    turn_number: int
    finished: bool
    totals: list[int]
    created: float
    updated: float


class GamesList(_Closed):
    games: list[GameSummary]
    damaged: list[str] = Field(description="Ids of saved games that cannot be read.")
    counts: dict[str, int] = Field(description="The caller's games: stored, and live (a round on).")
    limits: dict[str, int | None]


class DeletedGame(_Closed):
    id: str
    deleted: Literal[True]


class RoundReplay(_Closed):
    """A round state by state (docs/web.md, replays)."""

    round: int
    names: list[str]
    finished: bool
    frames: list[dict[str, JsonValue]]


class SavedGame(BaseModel):
    """A saved session (a practice game) or a player's record (docs/web.md, saved games)."""

    model_config = ConfigDict(extra="allow")

    format: str
    version: int


class RoomMade(_Closed):
    """A seat taken (``POST /rooms``, ``POST /rooms/{room}/join``)."""

    room: str
    seat: int
    token: str = Field(description="The seat's secret token: Authorization: Bearer <token>.")
    invite: str
    view: RoomView


class RoomResults(_Closed):
    """Every finished round's result and each seat's total (``/rooms/{room}/results``, ``/games/{id}/results``)."""

    rounds: list[RoundResultOut]
    totals: list[int]


class IllegalTurn(_Closed):
    """An illegal play: nothing changed, the turn goes on."""

    error: str
    reasons: list[VerifyReason]
    version: int


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": words}
    for status, words in (
        (400, "Bad input (an unknown field too)"),
        (404, "No such game or room"),
        (409, "Not your turn, the round is over, or a stale version"),
        (429, "Past a limit (with Retry-After)"),
        (503, "The store refused the write (nothing changed), or the game lane is full"),
    )
}
"""The errors every ``/games`` and ``/rooms`` endpoint may answer, ``{"error": message}``."""


# -- request bodies (read by hand, size-limited; these document them) -------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int | None = Field(
        None, description="The version of the game the client last saw; a game that has moved on since: 409."
    )


class NewGameBody(BaseModel):
    """A new single-player game."""

    model_config = ConfigDict(extra="forbid")

    players: str | list[str] = Field("human,medium", description="The seats: one 'human', the others AI levels.")
    rules: PresetName | RuleOptions = "standard"
    seed: int | None = Field(None, ge=0, lt=2**53, description="A practice game's seed (shown; take-back allowed).")


class PlayBody(_Body):
    table: list[list[TileCode]] = Field(description="The whole new table, melds in play order.")
    discard: TileCode | None = Field(None, description="The discard rule: the tile discarded after the play.")


class DrawBody(_Body):
    source: Literal["pool", "discard"] = "pool"


class DiscardBody(_Body):
    tile: TileCode


class RollBody(_Body):
    dice: list[str] | Literal["all"] = Field(
        default_factory=list, description="Xpress: the free dice to roll again ('D3'), 'all', or [] to keep them."
    )


class HintBody(_Body):
    level: Literal[1, 2, 3] = 1


class VersionBody(_Body):
    """An action that takes nothing but the version."""


ACTION_BODIES: dict[str, type[BaseModel]] = {
    "play": PlayBody,
    "draw": DrawBody,
    "discard": DiscardBody,
    "roll": RollBody,
    "hint": HintBody,
}
"""The body of each ``POST /games/{id}/<action>`` (the others: :class:`VersionBody`)."""


class NewRoomBody(BaseModel):
    """A new room."""

    model_config = ConfigDict(extra="forbid")

    rules: PresetName | RuleOptions = "standard"
    seats: list[str] = Field(default_factory=lambda: ["human", "human"], description="'human' or an AI level each.")
    name: str | None = Field(None, description="The creator's name.")
    timer: float | None = Field(None, gt=0, description="Seconds per turn (null: no timer).")
    seat: int | None = Field(None, ge=0, description="The creator's seat (a human one; default the first).")


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    seat: int | None = Field(None, ge=0, description="A free human seat (default: the next).")


class TurnBody(BaseModel):
    """A seat's turn: a play (``table``), a draw (``draw``), under the discard rule a discard; in
    Xpress a roll (``roll``), then a play or a pass (``pass``)."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(description="The room's version the seat's view showed.")
    table: list[list[TileCode]] | None = None
    draw: Literal[True] | None = None
    source: Literal["pool", "discard"] | None = None
    discard: TileCode | None = None
    roll: list[str] | Literal["all"] | None = Field(
        None, description="Xpress: the free dice to roll again ('D3'), 'all', or [] to keep them; once a turn."
    )
    pass_: Literal[True] | None = Field(None, alias="pass", description="Xpress: end the turn without a play.")


class RoomVersionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int


class HandSeatBody(RoomVersionBody):
    kind: str = Field(description="The AI level that takes the seat.")


REQUEST_MODELS: tuple[type[BaseModel], ...] = (
    NewGameBody,
    VersionBody,
    *ACTION_BODIES.values(),
    NewRoomBody,
    JoinBody,
    TurnBody,
    RoomVersionBody,
    HandSeatBody,
)
"""The request bodies of ``/games`` and ``/rooms``, added to the OpenAPI document."""
