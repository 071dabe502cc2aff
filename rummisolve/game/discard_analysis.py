"""Game analysis under the discard rule: reading the turns of a log, and judging draws and discards.

A turn under the discard rule is a draw (from the pool, the pile's top, or none), a play (or none)
and a discard. :func:`discard_turns` reads one player's turns from a replayed game; a ``rummisolve
tournament --log`` file under the rule is first rebuilt into an engine log
(:func:`engine_log_of_lines`, from the lines' positions, draws and discards). :func:`judge` adds to
the mistakes of the normal rules (``missed going out``, ``cheap joker``, ``let the next player
out``, each read for the variant: going out is discarding the last tile) two of the discard:

- ``discard let the next player out``: the next player took this turn's discard from the pile and
  went out on that turn, and with the rack it held before taking it could not have gone out on
  that table;
- ``left the pile's top``: the pile's top at the start of the turn would have completed a set of
  the rack's own (the rack alone holds at least ``min_meld_length`` more tiles in melds with it),
  the player did not take it, and did not go out.

``let the next player out`` under the rule: the next player went out on its next turn without
this turn's discard's help being the whole story: with the tiles it then held (after its draw) it
could not have gone out on the table as it was before this turn's play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummisolve.errors import GameLogError, JsonInputError
from rummisolve.game.events import DiscardEvent, DrawEvent, PlayEvent
from rummisolve.game.state import PlayerView
from rummisolve.jsonio import position_from_json, rules_to_json
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.game.ai.expert import ExpertPlayer
    from rummisolve.game.engine import Game

__all__ = ["DiscardTurn", "DiscardVerdict", "discard_turns", "engine_log_of_lines", "judge", "CHEAP_JOKER_TILES"]

CHEAP_JOKER_TILES = 3
"""A play of at most this many rack tiles (the joker included) that does not go out spends a joker cheaply."""


@dataclass(frozen=True)
class DiscardTurn:
    """One turn of the analysed player under the discard rule: the view at its start (before any
    draw), where it drew from and what, the position the play was decided on (after the draw), the
    table played (``None``: no play), the discard; and the next player's turn after it: the rack it
    held at its start and after its draw, its draw source, whether it had opened and went out."""

    view: PlayerView
    draw_from: str | None
    drawn: Tile | None
    decided: Position
    table: tuple[tuple[Tile, ...], ...] | None
    discard: Tile
    next_start: tuple[Tile, ...] | None = None
    next_decided: tuple[Tile, ...] | None = None
    next_draw_from: str | None = None
    next_opened: bool = False
    next_went_out: bool = False


@dataclass(frozen=True)
class DiscardVerdict:
    """What :func:`judge` found: rack tiles played, the solver's best from the position decided on,
    the expert's plan (draw source, rack tiles it would play, its discard; ``None`` fields when it
    would draw from the pool and decide then), its estimates, and the mistakes."""

    played: tuple[Tile, ...] | None
    best: tuple[Tile, ...]
    expert_draw_from: str | None
    expert_tiles: tuple[Tile, ...] | None
    expert_discard: Tile | None
    expert_value: float | None
    played_value: float | None
    mistakes: tuple[str, ...]


# -- reading --------------------------------------------------------------------------------------


def discard_turns(game: Game, seat: int) -> list[DiscardTurn]:
    """``seat``'s turns in ``game`` (replayed, under the discard rule), each with the next player's
    turn after it (a turn cut by the timer is no decision and is left out)."""
    events, states = game.events, game.states
    spans: list[tuple[int, int]] = []  # (first event, last event) of each turn
    start = 0
    for k, event in enumerate(events):
        if not isinstance(event, DrawEvent):
            spans.append((start, k))
            start = k + 1
    turns = []
    for i, (first, last) in enumerate(spans):
        event = events[last]
        if event.player != seat or not isinstance(event, PlayEvent | DiscardEvent):
            continue
        draw = events[first] if first < last else None
        assert draw is None or isinstance(draw, DrawEvent)
        decided = states[last].position(seat)
        table = event.table if isinstance(event, PlayEvent) else None
        discard = event.discard if isinstance(event, PlayEvent) else event.tile
        assert discard is not None  # a play under the discard rule names its discard
        extra: dict[str, Any] = {}
        if i + 1 < len(spans):
            nf, nl = spans[i + 1]
            nxt = events[nl].player
            after = states[nl + 1]
            ndraw = events[nf] if nf < nl else None
            extra = {
                "next_start": states[nf].racks[nxt],
                "next_decided": states[nl].racks[nxt],
                "next_draw_from": None if not isinstance(ndraw, DrawEvent) else ndraw.source,
                "next_opened": states[nl].opened[nxt],
                "next_went_out": after.winner == nxt and after.end_reason == "out",
            }
        turns.append(
            DiscardTurn(
                game.view(seat, at=first),
                None if draw is None else draw.source,
                None if draw is None else draw.tile,
                decided,
                table,
                discard,
                **extra,
            )
        )
    return turns


def engine_log_of_lines(lines: Sequence[dict[str, Any]], rules: RuleSet) -> list[dict[str, Any]]:
    """The engine log of one game's ``tournament --log`` lines under the discard rule (sorted by
    turn): the racks dealt (each seat's first position, less its draw), the face-up tile and the
    pool's tiles in the order drawn (the lines' ``pile`` and ``pool_tile``; the pool's undrawn rest
    in any order), then each turn's draw, play or discard. The engine replays it and checks it."""
    if not lines:
        raise GameLogError("game log: no turns")
    missing = [k for k in ("pile", "pool_tile", "draw_from", "discard") if k not in lines[0]]
    if missing:
        raise GameLogError(
            "game log: a discard-rule tournament line without "
            + ", ".join(repr(k) for k in missing)
            + " (written by an older rummisolve); analyse a saved game instead"
        )
    players = max(int(x["seat"]) for x in lines) + 1
    first_rack: dict[int, tuple[Tile, ...]] = {}
    events: list[dict[str, Any]] = []
    pool_drawn: list[Tile] = []
    names = ["?"] * players
    for line in lines:
        where = f"game {line.get('game')} turn {line.get('turn')}"
        seat = int(line["seat"])
        names[seat] = str(line.get("player", f"player {seat + 1}"))
        position = position_from_json(line["position"], f"{where}.position")
        source = line.get("draw_from")
        if line.get("discard") is None:
            raise GameLogError(f"{where}: a turn without a discard (a timeout) cannot be replayed from the log")
        tile: Tile | None = None
        if source == "pool":
            if line.get("pool_tile") is None:
                raise JsonInputError(f"{where}.pool_tile: expected the tile drawn from the pool")
            tile = Tile.parse(line["pool_tile"])
            pool_drawn.append(tile)
        elif source == "discard":
            tile = Tile.parse(line["drawn"])
        if seat not in first_rack:
            rack = Counter(position.rack)
            if tile is not None:
                rack[tile] -= 1
            first_rack[seat] = tuple(sorted(rack.elements()))
        if source is not None:
            draw: dict[str, Any] = {"type": "draw", "player": seat, "tile": str(tile)}
            if source == "discard":
                draw["source"] = "discard"
            events.append(draw)
        if line.get("action") == "play":
            events.append({"type": "play", "player": seat, "table": line["table"], "discard": line["discard"]})
        else:
            events.append({"type": "discard", "player": seat, "tile": line["discard"]})
    first_pile = lines[0]["pile"]
    if not first_pile:
        raise GameLogError("game log: the first turn's discard pile is empty")
    face_up = Tile.parse(first_pile[0])
    known = Counter(t for r in first_rack.values() for t in r) + Counter([face_up]) + Counter(pool_drawn)
    rest = Counter(rules.full_set()) - known
    for seat in range(players):  # a seat that never moved: any tiles will do
        if seat not in first_rack:
            tiles = sorted(rest.elements())[: rules.rack_size]
            first_rack[seat] = tuple(tiles)
            rest -= Counter(tiles)
    racks = [first_rack[s] for s in range(players)]
    deck = [t for r in racks for t in r] + [face_up] + pool_drawn + sorted(rest.elements())
    if Counter(deck) != Counter(rules.full_set()):
        raise GameLogError("game log: the lines' racks, pile and draws are not one set of tiles")
    deal = {
        "type": "deal",
        "rules": rules_to_json(rules),
        "players": players,
        "first": int(lines[0]["seat"]),
        "seed": None,
        "deck": [str(t) for t in deck],
        "names": names,
    }
    return [deal, *events]


# -- judging --------------------------------------------------------------------------------------


def _out(table: Iterable[Meld], rack: Sequence[Tile], opened: bool, rules: RuleSet) -> bool:
    """Whether ``rack`` goes out on ``table`` under the rule: a move leaves one tile, to discard."""
    from rummisolve.solver import solve

    if len(rack) < 2:
        return False
    solution = solve(Position(tuple(table), tuple(rack), opened, rules), objective="tiles")
    return bool(solution) and len(solution.rack_after) == 1


def _played(position: Position, table: Iterable[Meld | Iterable[Tile]]) -> tuple[Tile, ...]:
    new = Counter(t for m in table for t in (m.tiles if isinstance(m, Meld) else m))
    return tuple(sorted((new - position.table_counts()).elements()))


def _completes_a_set(rack: Sequence[Tile], top: Tile, rules: RuleSet) -> bool:
    """Whether ``top`` completes a set of ``rack``'s own: the rack holds ``min_meld_length`` more
    tiles in melds of its own with it (the solver on an empty table)."""
    from rummisolve.solver import solve

    plain = rules.replace(discard=False)
    alone = solve(Position((), tuple(rack), True, plain), objective="tiles") if rack else None
    with_top = solve(Position((), tuple(rack) + (top,), True, plain), objective="tiles")
    before = len(alone.played) if alone else 0
    return len(with_top.played) - before >= rules.min_meld_length


def judge(turn: DiscardTurn, expert: ExpertPlayer | None) -> DiscardVerdict:
    """The verdict on one turn under the discard rule (see the module docstring)."""
    from rummisolve.game.ai.expert_discard import Plan
    from rummisolve.solver import solve

    view = turn.view
    rules = view.rules
    top = view.discard_top
    best = solve(turn.decided, objective="tiles")
    best_tiles = tuple(best.played) if best else ()
    played = None if turn.table is None else _played(turn.decided, turn.table)
    mine = played or ()
    went_out = len(turn.decided.rack) - len(mine) == 1
    mistakes = []
    could = _out(view.table, view.rack, view.opened, rules) or _out(view.table, turn.decided.rack, view.opened, rules)
    if not could and top is not None and turn.draw_from is None:
        could = _out(view.table, view.rack + (top,), view.opened, rules)
    if could and not went_out:
        mistakes.append("missed going out")
    if sum(t.is_joker for t in mine) and len(mine) <= CHEAP_JOKER_TILES and not went_out:
        mistakes.append("cheap joker")
    if turn.next_went_out and turn.next_decided is not None and played is not None:
        if not _out(view.table, turn.next_decided, turn.next_opened, rules):
            mistakes.append("let the next player out")
    if turn.next_went_out and turn.next_draw_from == "discard" and turn.next_start is not None:
        after = tuple(Meld.of(m, rules) for m in turn.table) if turn.table is not None else view.table
        if not _out(after, turn.next_start, turn.next_opened, rules):
            mistakes.append("discard let the next player out")
    if top is not None and turn.draw_from != "discard" and not went_out and _completes_a_set(view.rack, top, rules):
        mistakes.append("left the pile's top")
    expert_fields: dict[str, Any] = {
        "expert_draw_from": None,
        "expert_tiles": None,
        "expert_discard": None,
        "expert_value": None,
        "played_value": None,
    }
    if expert is not None:
        melds = None if turn.table is None else tuple(Meld.of(m, rules) for m in turn.table)
        plan = Plan("pool", None, None) if turn.draw_from == "pool" else Plan(turn.draw_from, melds, turn.discard)
        _, judged = expert.assess(view, plan)
        eplan = expert.plan
        assert eplan is not None  # set by every ask under the discard rule
        chosen = next((c for c in expert.last if c.plan == eplan), None)
        rack = view.rack + ((top,) if eplan.source == "discard" and top is not None else ())
        expert_fields = {
            "expert_draw_from": eplan.source,
            "expert_tiles": None
            if eplan.table is None
            else _played(Position(view.table, rack, view.opened, rules), eplan.table),
            "expert_discard": eplan.discard,
            "expert_value": None if chosen is None or chosen.value is None else round(chosen.value, 4),
            "played_value": None if judged is None or judged.value is None else round(judged.value, 4),
        }
    return DiscardVerdict(played, best_tiles, mistakes=tuple(mistakes), **expert_fields)
