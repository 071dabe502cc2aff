"""Request and response schemas of the HTTP service, for its OpenAPI document.

These models *document* the JSON contract (docs/json-contract.md); requests are decoded and
validated by :mod:`rummisolve.jsonio`, exactly as the CLI does, so a bad request gets the same
message naming the bad part that ``rummisolve solve`` prints. Bounds, choices and the tile-code
pattern come from :mod:`rummisolve.rules` and :mod:`rummisolve.tiles`, so they cannot drift.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from rummisolve.rules import (
    EMPTY_POOL_SCORING_MODES,
    INTEGER_OPTION_BOUNDS,
    JOKER_RETRIEVAL_MODES,
    MAX_TURN_TIMER,
    PRESETS,
)
from rummisolve.tiles import TILE_CODE_PATTERN
from rummisolve.xpress.reroll_json import MAX_REROLL_SOLVES

__all__ = [
    "TILE_PATTERN",
    "RuleOptions",
    "PositionIn",
    "SolveRequest",
    "SolveResult",
    "SolveError",
    "VerifyRequest",
    "VerifyReason",
    "VerifyResult",
    "ExplainStep",
    "ExplainResult",
    "ExplainError",
    "ErrorBody",
    "Limits",
    "LaneLoad",
    "SolveLoad",
    "Health",
    "SOLVE_EXAMPLES",
    "VERIFY_EXAMPLES",
    "EXPLAIN_EXAMPLES",
    "RENDER_EXAMPLES",
    "REQUEST_MODELS",
]

TILE_PATTERN = TILE_CODE_PATTERN

if TYPE_CHECKING:  # a Literal built from PRESETS at run time, which mypy cannot evaluate
    PresetName = str
else:
    PresetName = Literal[tuple(PRESETS)]
JokerRetrieval = Literal[JOKER_RETRIEVAL_MODES]  # type: ignore[valid-type]
EmptyPoolScoring = Literal[EMPTY_POOL_SCORING_MODES]  # type: ignore[valid-type]

TileCode = Annotated[str, StringConstraints(pattern=TILE_PATTERN)]
"""A tile code: colour letter (K B O R; Y = O) and number, J for a joker, or JD, JC, JM for the Twist
double, colour-change and mirror jokers; case-insensitive."""


def _bounded(option: str) -> Any:
    """An optional integer rule option, with the range :class:`~rummisolve.rules.RuleSet` accepts."""
    low, high = INTEGER_OPTION_BOUNDS[option]
    return Field(None, ge=low, le=high)


class RuleOptions(BaseModel):
    """Rule options (docs/rules.md, "Rule options"); omitted ones take the preset's value."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"preset": "standard", "jokers": 0}]})

    preset: PresetName = "standard"
    colours: int | None = _bounded("colours")
    numbers: int | None = _bounded("numbers")
    copies: int | None = _bounded("copies")
    jokers: int | None = _bounded("jokers")
    double_jokers: int | None = _bounded("double_jokers")
    colour_change_jokers: int | None = _bounded("colour_change_jokers")
    mirror_jokers: int | None = _bounded("mirror_jokers")
    rack_size: int | None = _bounded("rack_size")
    min_meld_length: int | None = _bounded("min_meld_length")
    initial_threshold: int | None = _bounded("initial_threshold")
    wraparound: bool | None = None
    open_then_manipulate: bool | None = None
    joker_in_initial_meld: bool | None = None
    joker_retrieval: JokerRetrieval | None = None
    joker_penalty: int | None = _bounded("joker_penalty")
    min_players: int | None = _bounded("min_players")
    max_players: int | None = _bounded("max_players")
    turn_timer: float | None = Field(None, gt=0, le=MAX_TURN_TIMER)
    timer_penalty: int | None = _bounded("timer_penalty")
    empty_pool_scoring: EmptyPoolScoring | None = None
    discard: bool | None = None
    dice: bool | None = None


class CustomDie(BaseModel):
    """An Xpress die given by its six faces."""

    model_config = ConfigDict(extra="forbid")

    faces: list[TileCode] = Field(min_length=6, max_length=6, description="The die's six faces as tile codes.")


class PositionIn(BaseModel):
    """A position: the melds on the table, the mover's rack, whether the mover has opened."""

    model_config = ConfigDict(extra="forbid")

    rules: PresetName | RuleOptions = Field("standard", description="A preset name or rule options.")
    table: list[list[TileCode]] = Field(
        default_factory=list,
        description="Melds on the table, each a list of tile codes in play order (a joker in the slot it fills).",
        examples=[[["R1", "R2", "R3"], ["K7", "B7", "O7"]]],
    )
    rack: list[TileCode] = Field(
        default_factory=list,
        description="The mover's rack as tile codes: colour K/B/O/R + number, J for a joker, "
        "JD/JC/JM for the Twist special jokers.",
        examples=[["R4", "R7", "J", "K12"]],
    )
    opened: bool = Field(True, description="Whether the mover has made the initial meld (30 points).")


class SolveRequest(PositionIn):
    """A position to solve, the objective, an optional time limit and an optional id."""

    id: JsonValue = Field(
        None,
        description="Any JSON value; the result echoes it back unchanged, so a client can match "
        "answers to requests. Not used by the solver.",
        examples=["turn-17"],
    )

    objective: Literal["tiles", "value"] = Field(
        "tiles", description="Maximise tiles played, or points shed (a joker counts the rules' joker_penalty)."
    )
    time_limit: float | None = Field(
        None,
        gt=0,
        description="Seconds the solver may take. The server clamps it to its own cap (see /health); "
        "a solve cut short returns the best move found with status 'feasible'.",
    )
    alternatives: int | None = Field(
        None,
        ge=0,
        le=10,
        description="Also list up to this many further moves (the result's 'alternatives'), each the best among "
        "the moves that play a tile (or a further copy) each earlier move does not (see alternatives_mode). "
        "All within time_limit: fewer when the time runs out, 'feasible' when a proof was cut short.",
    )
    alternatives_mode: Literal["not_contained", "distinct"] = Field(
        "not_contained",
        description="What an alternative is: 'not_contained' (its played tiles are a part of no earlier move's) "
        "or 'distinct' (its played tiles differ from every earlier move's, so it may be an earlier move less a "
        "tile). The result says which in its own 'alternatives_mode'.",
    )
    explain: bool | None = Field(
        None, description="Also say how to play the move step by step: 'meld_map' and 'steps' on the result."
    )
    hint: Literal[1, 2, 3] | None = Field(
        None,
        description="Answer with a hint only: 1 the tiles to play, 2 also the table melds touched, 3 the whole "
        "move with its steps (the result's 'hint'; not with alternatives, alternatives_mode or explain).",
    )
    dice: list[str | CustomDie] | None = Field(
        None,
        description="Xpress only (docs/json-contract.md#xpress): which die shows each rack entry, in order, "
        "a name 'D1'..'D18' or a custom die.",
        examples=[["D7", "D1", "D9"]],
    )
    reroll: bool | Literal["tiles", "value", "out"] | None = Field(
        None,
        description="Xpress only: also rank every subset of the dice to roll again ('reroll' on the result); "
        "true ranks by the objective. Needs dice.",
    )
    reroll_max_solves: int | None = Field(
        None,
        ge=1,
        le=MAX_REROLL_SOLVES,
        description="The re-roll's budget of solves (default 1200; the server caps it).",
    )
    reroll_time_limit: float | None = Field(
        None, gt=0, description="Seconds the re-roll's race may take (the server caps it at max_time_limit)."
    )


class SolveResult(BaseModel):
    """The best move (or none). The fields below are the ones every client may rely on; more may follow."""

    model_config = ConfigDict(extra="allow")

    status: Literal["optimal", "feasible", "no_move", "unknown"] = Field(
        description="'optimal': proven best; 'feasible': the best move found, not proven best (the time limit cut "
        "the proof short, or on rare tables under strict joker retrieval no proof was found); 'no_move': proven "
        "that no legal move exists (draw a tile); 'unknown': no move found (the time limit ran out first, or on "
        "rare strict tables the search found none): not a proof that there is none, do not treat it as 'draw'."
    )
    proven: bool = Field(description="True exactly for 'optimal' and 'no_move': the answer is proven.")
    played: list[str] = Field(description="Rack tiles the move plays, sorted.")
    table: list[list[str]] = Field(description="The table after the move, melds in play order.")
    value: int = Field(description="Points shed by the move.")
    id: JsonValue = Field(None, description="The request's id, echoed back unchanged (only when it had one).")


class SolveError(BaseModel):
    """Bad input: the message names the bad part, e.g. ``position.rack[2]: unknown tile code 'X5' ...``."""

    status: Literal["error"] = "error"
    error: str


class VerifyRequest(BaseModel):
    """A position and a proposed table after the mover's turn."""

    model_config = ConfigDict(extra="forbid")

    position: PositionIn
    table: list[list[TileCode]] = Field(description="The proposed table after the turn, melds in play order.")


class VerifyReason(BaseModel):
    """Why a turn is illegal."""

    code: str = Field(description="Machine-readable reason code.")
    message: str = Field(description="Human-readable explanation naming the tiles involved.")
    meld: int | None = Field(description="Index of the meld in the proposed table it concerns, if any.")


class VerifyResult(BaseModel):
    """The referee's verdict on a turn."""

    model_config = ConfigDict(extra="allow")

    legal: bool
    reasons: list[VerifyReason]
    played: list[str] = Field(description="Rack tiles the turn plays, sorted.")


class ExplainStep(BaseModel):
    """One tile that moves."""

    tile: str = Field(description="The tile's code.")
    from_: str | int = Field(alias="from", description="'rack', or the index of the old table meld it leaves.")
    to: int = Field(description="The index of the new table meld it joins.")
    text: str = Field(description="The plain-English sentence of the action the step is part of.")


class ExplainResult(BaseModel):
    """How to get from the old table to the new one, in the fewest moves."""

    model_config = ConfigDict(extra="allow")

    meld_map: list[int | None] = Field(
        description="Per old table meld, the index of the new meld that continues it, or null when all its tiles move."
    )
    steps: list[ExplainStep]


class ExplainError(BaseModel):
    """Bad input, or an illegal turn (then ``reasons`` lists the referee's reasons)."""

    error: str
    reasons: list[VerifyReason] | None = None


class ErrorBody(BaseModel):
    """Bad input to /verify or /render (or a body the server refused to read)."""

    error: str


class PositionProblem(BaseModel):
    """One problem of a position, in a player's words (melds and tiles numbered from 1 in ``text``)."""

    part: str = Field(description='"rules", "table", "rack" or "position" (the tile counts, the object itself).')
    meld: int | None = Field(description="The table meld concerned, from 0; null for none.")
    slot: int | None = Field(description="The tile concerned within its meld or the rack, from 0; null for none.")
    text: str


class CheckResult(BaseModel):
    """Every problem of a position (empty when /solve will take it)."""

    problems: list[PositionProblem]


class Limits(BaseModel):
    """The server's limits (``rummisolve serve --help``); the solve counts are per worker process."""

    max_body_bytes: int = Field(description="Largest request body accepted (larger: 413).")
    max_time_limit: float = Field(description="Cap on one solve in seconds; time_limit is clamped to it.")
    heavy_workers: int = Field(description="Worker processes of the heavy lane: solves that are not light, replays.")
    light_workers: int = Field(description="Worker processes kept for light solves (the light lane).")
    game_workers: int = Field(description="Worker processes for the AI turns and hints of games and rooms.")
    light_max_work: int = Field(
        description="Expected work (tiles in play, times the set's size and costly options, times 1 + "
        "alternatives) up to which a solve is light."
    )
    max_queued_solves: int = Field(description="Jobs that may wait for a heavy worker (past it: 503).")
    max_queued_light_solves: int = Field(description="Solves that may wait for a light worker (past it: 503).")
    max_queued_game_jobs: int = Field(description="AI turns and hints that may wait for a game worker (past it: 503).")
    heavy_nice: int = Field(description="How much lower the heavy lane's workers run (nice increment, Linux).")
    job_grace_seconds: float = Field(
        description="A solve's or hint's hard deadline is its time limit plus this (past it: 504)."
    )
    replay_deadline_seconds: float = Field(description="Hard deadline of one POST /replays (past it: 504).")
    ai_turn_deadline_seconds: float = Field(description="Hard deadline of one AI choice (past it, the AI draws).")
    max_tiles_in_play: int = Field(
        description="Largest position solved, in tiles on the table and rack (past it: 413)."
    )
    max_melds: int = Field(description="Most melds on the table of a position solved (past it: 413).")
    max_verify_steps: int = Field(description="Search steps one /verify may take (past it: 400).")


class LaneLoad(BaseModel):
    """One lane's worker processes: now, and counted since the server started."""

    workers: int = Field(description="Worker processes of the lane.")
    busy: int = Field(description="Workers running a job now.")
    running: int = Field(description="The same as busy.")
    queued: int = Field(description="Jobs waiting for a worker.")
    started: int = Field(description="Jobs started.")
    done: int = Field(description="Jobs ended (answered, failed, killed).")
    refused: int = Field(description="Jobs refused with 503 (the workers and the queue were full).")
    cancelled: int = Field(description="Queued jobs dropped before they started: the client had gone.")
    killed_deadline: int = Field(description="Running jobs killed (their worker replaced) at their hard deadline.")
    killed_cancelled: int = Field(description="Running jobs killed (their worker replaced): the client had gone.")
    died: int = Field(description="Workers that died during a job (a bug, or the system ran out of memory).")
    pids: list[int] = Field(description="The process ids of the lane's workers.")
    last_pid: int | None = Field(description="The process id of the worker that ran the latest job.")


class SolveLoad(BaseModel):
    """Jobs of this server process's worker processes: now, and counted since it started."""

    running: int = Field(description="Solves and replays running now.")
    queued: int = Field(description="Solves and replays waiting for a worker.")
    started: int = Field(description="Solves and replays started.")
    refused: int = Field(description="Solves and replays refused with 503 (their lane's workers and queue were full).")
    cancelled: int = Field(description="Queued solves and replays dropped before they started: the client had gone.")
    stopped: int = Field(description="Running solves and replays stopped (worker replaced): the client had gone.")
    killed_deadline: int = Field(description="Solves and replays stopped (worker replaced) at their hard deadline.")
    light: LaneLoad = Field(description="The light lane: expected work at most light_max_work.")
    heavy: LaneLoad = Field(description="The heavy lane: every other solve, and replays.")
    game: LaneLoad = Field(description="The game lane: AI turns and hints.")


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str
    limits: Limits
    solves: SolveLoad


REQUEST_MODELS: tuple[type[BaseModel], ...] = (PositionIn, SolveRequest, VerifyRequest)

_OPENING = {
    "rules": "standard",
    "table": [],
    "rack": ["R10", "R11", "R12", "K3", "B3", "O3", "J", "B9"],
    "opened": False,
}
_MIDGAME = {
    "table": [["R1", "R2", "R3"], ["K7", "B7", "O7"]],
    "rack": ["R4", "R7", "J", "K12"],
    "opened": True,
}

SOLVE_EXAMPLES = {
    "midgame": {"summary": "A position after the initial meld", "value": _MIDGAME},
    "opening": {
        "summary": "An opening move (needs 30 points from the rack), maximising points",
        "value": {**_OPENING, "objective": "value", "time_limit": 2},
    },
}

EXPLAIN_EXAMPLES = {
    "extend": {
        "summary": "Extend a run and a group",
        "value": {"position": _MIDGAME, "table": [["R1", "R2", "R3", "R4"], ["K7", "B7", "O7", "R7"]]},
    },
}

VERIFY_EXAMPLES = {
    "legal": {
        "summary": "Extend a run and a group",
        "value": {"position": _MIDGAME, "table": [["R1", "R2", "R3", "R4"], ["K7", "B7", "O7", "R7"]]},
    },
    "illegal": {
        "summary": "A run with a gap",
        "value": {"position": _MIDGAME, "table": [["R1", "R2", "R3", "R7"], ["K7", "B7", "O7"]]},
    },
    "twist": {
        "summary": "Twist: a colour-change joker extends a double joker's run in blue",
        "value": {
            "position": {"rules": "twist", "table": [["R2", "JD", "R5"]], "rack": ["JC", "B8", "B9", "R6"]},
            "table": [["R2", "JD", "R5", "R6", "JC", "B8", "B9"]],
        },
    },
}

CHECK_EXAMPLES = {
    "problems": {
        "summary": "A rack with a tile that is none and a meld of two",
        "value": {"table": [["R1", "R2", "R3"], ["K7", "B7"]], "rack": ["R14", "X3", "R5"]},
    },
}

RENDER_EXAMPLES = {
    "position": {"summary": "A position: the table, then the rack", "value": _MIDGAME},
    "result": {
        "summary": "A result of /solve: the new table, played tiles highlighted",
        "value": {
            "status": "optimal",
            "played": ["J", "R4", "R7"],
            "table": [["R1", "R2", "R3", "R4", "J"], ["K7", "B7", "O7", "R7"]],
            "value": 41,
            "position": _MIDGAME,
        },
    },
}
