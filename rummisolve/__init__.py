"""rummisolve: the best Rummikub move for any position, proven optimal and refereed.

Importing this package is cheap: the CP-SAT solver (and OR-Tools) is loaded on first use of
:func:`solve` / :func:`solve_json`. How the package is built: docs/architecture.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummisolve.errors import (
    IllegalTurnError,
    InternalError,
    InvalidMeldError,
    JsonInputError,
    OptionError,
    RefereeLimitError,
    RuleSetError,
    RummisolveError,
    TileCountError,
    TileNotationError,
    TileRangeError,
    UnavailableError,
)
from rummisolve.explain import Explanation, Step, explain, explain_solution
from rummisolve.melds import MELD_REASONS, Meld, MeldKind, meld_problem
from rummisolve.position import Position
from rummisolve.referee import REASONS, Reason, Verdict, verify
from rummisolve.rules import OFFICIAL, PRESETS, STANDARD, TWIST, XP, XPRESS, RuleSet
from rummisolve.solution import AlternativesMode, Objective, Solution, Status
from rummisolve.tiles import (
    COLOUR_CHANGE_JOKER,
    DOUBLE_JOKER,
    JOKER,
    MIRROR_JOKER,
    Colour,
    JokerKind,
    Tile,
    format_tiles,
    parse_tiles,
)

if TYPE_CHECKING:  # pragma: no cover
    from rummisolve.batch import solve_many
    from rummisolve.hints import hint
    from rummisolve.service import check_json, explain_json, render_json, solve_json, verify_json
    from rummisolve.solver import TableSolver, solve, solve_racks
    from rummisolve.xpress import XpressGame, best_reroll
    from rummisolve.xpress.dice import XPRESS_DICE

__version__ = "0.1.0"

__all__ = [
    "Colour",
    "Tile",
    "JOKER",
    "DOUBLE_JOKER",
    "COLOUR_CHANGE_JOKER",
    "MIRROR_JOKER",
    "JokerKind",
    "parse_tiles",
    "format_tiles",
    "RuleSet",
    "STANDARD",
    "OFFICIAL",
    "XP",
    "TWIST",
    "XPRESS",
    "XPRESS_DICE",
    "best_reroll",
    "XpressGame",
    "PRESETS",
    "Meld",
    "MeldKind",
    "MELD_REASONS",
    "meld_problem",
    "Position",
    "verify",
    "Verdict",
    "Reason",
    "REASONS",
    "solve",
    "TableSolver",
    "solve_racks",
    "explain",
    "explain_solution",
    "Explanation",
    "Step",
    "Solution",
    "Objective",
    "Status",
    "AlternativesMode",
    "solve_json",
    "verify_json",
    "explain_json",
    "hint",
    "solve_many",
    "render_json",
    "check_json",
    "RummisolveError",
    "TileNotationError",
    "TileRangeError",
    "RuleSetError",
    "InvalidMeldError",
    "TileCountError",
    "JsonInputError",
    "OptionError",
    "RefereeLimitError",
    "IllegalTurnError",
    "InternalError",
    "UnavailableError",
]

_LAZY = {
    "solve": "rummisolve.solver",
    "TableSolver": "rummisolve.solver",
    "solve_racks": "rummisolve.solver",
    "solve_json": "rummisolve.service",
    "verify_json": "rummisolve.service",
    "explain_json": "rummisolve.service",
    "hint": "rummisolve.hints",
    "solve_many": "rummisolve.batch",
    "render_json": "rummisolve.service",
    "check_json": "rummisolve.service",
    "XPRESS_DICE": "rummisolve.xpress.dice",
    "best_reroll": "rummisolve.xpress",
    "XpressGame": "rummisolve.xpress",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rummisolve' has no attribute {name!r}")
    import importlib

    try:
        value = getattr(importlib.import_module(module), name)
    except AttributeError as err:
        # Left as is, ``from rummisolve import solve`` would report only "cannot import name".
        raise ImportError(f"rummisolve.{name} could not be loaded: {err}") from err
    globals()[name] = value
    return value
