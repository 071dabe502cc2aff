"""Request and response schemas of the HTTP service, for its OpenAPI document.

These models *document* the JSON contract (DESIGN.md); requests are decoded and validated by
:mod:`rummisolve.jsonio`, exactly as the CLI does, so a bad request gets the same message naming
the bad part that ``rummisolve solve`` prints.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

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
    "ErrorBody",
    "Limits",
    "SolveLoad",
    "Health",
    "SOLVE_EXAMPLES",
    "VERIFY_EXAMPLES",
    "RENDER_EXAMPLES",
    "REQUEST_MODELS",
]

TILE_PATTERN = r"^\s*([KkBbOoRrGgPpWwCcYy]0*[1-9][0-9]{0,2}|[Jj])\s*$"

TileCode = Annotated[str, StringConstraints(pattern=TILE_PATTERN)]
"""A tile code: colour letter (K B O R; Y = O) and number, or J for a joker; case-insensitive."""


class RuleOptions(BaseModel):
    """Rule options (RULES.md section 4); omitted ones take the preset's value."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"preset": "standard", "jokers": 0}]})

    preset: Literal["standard", "xp"] = "standard"
    colours: int | None = Field(None, ge=1, le=8)
    numbers: int | None = Field(None, ge=1, le=99)
    copies: int | None = Field(None, ge=1, le=16)
    jokers: int | None = Field(None, ge=0, le=16)
    rack_size: int | None = Field(None, ge=1, le=200)
    min_meld_length: int | None = Field(None, ge=2, le=99)
    initial_threshold: int | None = Field(None, ge=0, le=10_000)
    wraparound: bool | None = None
    open_then_manipulate: bool | None = None
    joker_in_initial_meld: bool | None = None
    joker_retrieval: Literal["free", "strict"] | None = None
    joker_penalty: int | None = Field(None, ge=0, le=10_000)
    min_players: int | None = Field(None, ge=1, le=16)
    max_players: int | None = Field(None, ge=1, le=16)
    turn_timer: float | None = Field(None, gt=0, le=86_400)
    timer_penalty: int | None = Field(None, ge=0, le=200)
    empty_pool_scoring: Literal["difference", "rack"] | None = None
    discard: bool | None = None


class PositionIn(BaseModel):
    """A position: the melds on the table, the mover's rack, whether the mover has opened."""

    model_config = ConfigDict(extra="forbid")

    rules: Literal["standard", "xp"] | RuleOptions = Field("standard", description="A preset name or rule options.")
    table: list[list[TileCode]] = Field(
        default_factory=list,
        description="Melds on the table, each a list of tile codes in play order (a joker in the slot it fills).",
        examples=[[["R1", "R2", "R3"], ["K7", "B7", "O7"]]],
    )
    rack: list[TileCode] = Field(
        default_factory=list,
        description="The mover's rack as tile codes: colour K/B/O/R + number, or J for a joker.",
        examples=[["R4", "R7", "J", "K12"]],
    )
    opened: bool = Field(True, description="Whether the mover has made the initial meld (30 points).")


class SolveRequest(PositionIn):
    """A position to solve, the objective, and an optional time limit."""

    objective: Literal["tiles", "value"] = Field(
        "tiles", description="Maximise tiles played, or points shed (a joker counts the rules' joker_penalty)."
    )
    time_limit: float | None = Field(
        None,
        gt=0,
        description="Seconds the solver may take. The server clamps it to its own cap (see /health); "
        "a solve cut short returns the best move found with status 'feasible'.",
    )


class SolveResult(BaseModel):
    """The best move (or none). The fields below are the ones every client may rely on; more may follow."""

    model_config = ConfigDict(extra="allow")

    status: Literal["optimal", "feasible", "no_move", "unknown"] = Field(
        description="'optimal': proven best; 'feasible': the time limit cut the proof short (the best move found); "
        "'no_move': proven that no legal move exists (draw a tile); 'unknown': the time limit ran out before any "
        "move was found (not a proof that there is none: do not treat it as 'draw')."
    )
    proven: bool = Field(description="True exactly for 'optimal' and 'no_move': the answer is proven.")
    played: list[str] = Field(description="Rack tiles the move plays, sorted.")
    table: list[list[str]] = Field(description="The table after the move, melds in play order.")
    value: int = Field(description="Points shed by the move.")


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


class ErrorBody(BaseModel):
    """Bad input to /verify or /render (or a body the server refused to read)."""

    error: str


class Limits(BaseModel):
    max_body_bytes: int = Field(description="Largest request body accepted (larger: 413).")
    max_time_limit: float = Field(description="Cap on one solve in seconds; time_limit is clamped to it.")
    solver_threads: int = Field(description="Solves running at once per worker process.")
    max_verify_steps: int = Field(description="Search steps one /verify may take (past it: 400).")


class SolveLoad(BaseModel):
    running: int = Field(description="Solves running now in this worker process.")
    queued: int = Field(description="Solves waiting for a solver thread in this worker process.")


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

VERIFY_EXAMPLES = {
    "legal": {
        "summary": "Extend a run and a group",
        "value": {"position": _MIDGAME, "table": [["R1", "R2", "R3", "R4"], ["K7", "B7", "O7", "R7"]]},
    },
    "illegal": {
        "summary": "A run with a gap",
        "value": {"position": _MIDGAME, "table": [["R1", "R2", "R3", "R7"], ["K7", "B7", "O7"]]},
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
