"""Game analysis: where one player's round was won or lost, turn by turn.

For every turn of the chosen player it reports the move played, the solver's best move (most tiles),
what the expert AI would have done, what the move played cost against those (tiles and points
not shed; the expert's estimate of the chance of winning the round), and flags mistakes:

- ``missed going out``: the rack could have been emptied this turn and was not;
- ``cheap joker``: a joker from the rack went onto the table in a play of at most three rack tiles
  that did not go out (a joker is worth most kept for a big play, and costs 30 if stuck);
- ``let the next player out``: the next player went out on the very next turn, and the rack they
  held could not have gone out on the table as it was before this move.

The analysis reads a game's log after the fact, so it may use every rack (the expert's opinion
itself still comes from that player's view alone). It reads either an engine log or saved game
(``Game.log()``/``Game.to_json()``, ``rummisolve play --save``) or the turn lines of
``rummisolve tournament --log`` (one game of the file). Under the discard rule each turn is also
judged on its draw and discard (:mod:`rummisolve.game.discard_analysis`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from rummisolve.errors import GameLogError, JsonInputError
from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.discard_analysis import (  # the cheap joker's measure is one for both rules
    CHEAP_JOKER_TILES,
    DiscardTurn,
    discard_turns,
    engine_log_of_lines,
    judge,
)
from rummisolve.game.state import PlayerView
from rummisolve.jsonio import position_from_json, table_from_json, table_to_json
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.game.ai.expert import ExpertPlayer

__all__ = ["TurnAnalysis", "GameAnalysis", "analyse_game", "turns_of_log", "Turn", "format_analysis"]


@dataclass(frozen=True)
class Turn:
    """One turn of the analysed player as the log tells it: the view the move was decided on, the
    table played (``None``: a draw), and, for the next player, the rack they held then, whether
    they had opened, and whether they went out on their next turn."""

    view: PlayerView
    table: tuple[tuple[Tile, ...], ...] | None
    next_rack: tuple[Tile, ...] | None = None
    next_opened: bool = False
    next_went_out: bool = False


@dataclass(frozen=True)
class TurnAnalysis:
    """The verdict on one turn (see the module docstring)."""

    turn: int
    rack: tuple[Tile, ...]
    played: tuple[Tile, ...] | None
    """Rack tiles played; ``None`` for a draw."""
    best: tuple[Tile, ...]
    """Rack tiles of the solver's best move (most tiles); empty when there was no play."""
    expert: tuple[Tile, ...] | None
    """Rack tiles the expert would have played; ``None``: it would have drawn."""
    tiles_cost: int
    points_cost: int
    expert_value: float | None = None
    played_value: float | None = None
    """The expert's estimates (mean playout results, 1 a round won) for its choice and the move
    played, over the same sampled worlds; ``None`` when the turn was not searched."""
    mistakes: tuple[str, ...] = ()
    discard_rule: bool = False
    """Under the discard rule: ``rack`` is the rack at the start of the turn, ``best`` and the costs
    are from the position after the draw, and the fields below say where the turn drew from
    (``None``: no draw, ``"pool"``, ``"discard"``: the pile's top) and what it discarded, and the same
    for the expert (its discard ``None`` when it would draw from the pool and decide then)."""
    draw_from: str | None = None
    discard: Tile | None = None
    expert_draw_from: str | None = None
    expert_discard: Tile | None = None

    @property
    def agrees(self) -> bool:
        """Whether the move played is the expert's (under the discard rule: the same draw source,
        tiles played and discard, where the expert's are known)."""
        if not _same(self.played, self.expert):
            return False
        if not self.discard_rule:
            return True
        return self.draw_from == self.expert_draw_from and self.expert_discard in (None, self.discard)

    def to_json(self) -> dict[str, Any]:
        def tiles(ts: Iterable[Tile] | None) -> list[str] | None:
            return None if ts is None else [str(t) for t in ts]

        obj: dict[str, Any] = {
            "turn": self.turn,
            "rack": tiles(self.rack),
            "played": tiles(self.played),
            "best": tiles(self.best),
            "expert": tiles(self.expert),
            "tiles_cost": self.tiles_cost,
            "points_cost": self.points_cost,
            "expert_value": self.expert_value,
            "played_value": self.played_value,
            "mistakes": list(self.mistakes),
        }
        if self.discard_rule:
            obj["draw_from"] = self.draw_from
            obj["discard"] = None if self.discard is None else str(self.discard)
            obj["expert_draw_from"] = self.expert_draw_from
            obj["expert_discard"] = None if self.expert_discard is None else str(self.expert_discard)
        return obj


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one player's turns in one round."""

    seat: int
    player: str
    turns: tuple[TurnAnalysis, ...] = field(default=())

    @property
    def mistakes(self) -> int:
        return sum(len(t.mistakes) for t in self.turns)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "summary": {
                "turns": len(self.turns),
                "mistakes": self.mistakes,
                "tiles_cost": sum(t.tiles_cost for t in self.turns),
                "points_cost": sum(t.points_cost for t in self.turns),
                "agreed_with_expert": sum(t.agrees for t in self.turns),
            },
            "turns": [t.to_json() for t in self.turns],
        }


def _same(a: Iterable[Tile] | None, b: Iterable[Tile] | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and Counter(a) == Counter(b))


# -- reading logs ------------------------------------------------------------------------------------


def turns_of_log(
    log: Any, player: int | str | None = None, game: int | None = None, round: int | None = None
) -> tuple[int, str, list[Turn] | list[DiscardTurn]]:
    """``(seat, name, turns)`` of ``player`` (a seat or a name; default the human's seat, else seat
    0) in ``log``: an engine log (a list starting with the deal), a saved game of the CLI or of the
    web app (``round`` picks one of its rounds, default the last; see :mod:`rummisolve.game.saves`),
    or tournament turn lines (a list of them; ``game`` picks one, default the first)."""
    from rummisolve.game.saves import human_seat, is_session, round_of

    if is_session(log) or round is not None:
        if player is None:
            player = human_seat(log)
        log = round_of(log, round)
    elif player is None and isinstance(log, dict):
        player = human_seat(log)
    if isinstance(log, dict) or (
        isinstance(log, list) and log and isinstance(log[0], dict) and log[0].get("type") == "deal"
    ):
        return _turns_of_engine_log(log, player)
    if isinstance(log, list) and log and all(isinstance(x, dict) and "position" in x for x in log):
        return _turns_of_tournament_log(log, player, game)
    raise JsonInputError(
        "game log: expected an engine log or saved game (rummisolve play --save) or the lines of a "
        "rummisolve tournament --log file"
    )


def _seat_of(player: int | str | None, names: Sequence[str], players: int) -> int:
    if player is None:
        return 0
    if isinstance(player, int) and not isinstance(player, bool):
        if 0 <= player < players:
            return player
        raise GameLogError(f"player: no seat {player} in a {players}-player game")
    if isinstance(player, str):
        if player.isdigit() and int(player) < players:
            return int(player)
        if player in names:
            return list(names).index(player)
    raise GameLogError(f"player: no player {player!r} in this game (players: {', '.join(names)})")


def _turns_of_engine_log(log: Any, player: int | str | None) -> tuple[int, str, list[Turn] | list[DiscardTurn]]:
    from rummisolve.game.engine import Game
    from rummisolve.game.events import DrawEvent, PlayEvent

    game = Game.from_json(log, clock=lambda: 0.0)
    seat = _seat_of(player, game.names, game.players)
    if game.rules.discard:
        return seat, game.names[seat], discard_turns(game, seat)
    states, events = game.states, game.events
    turns = []
    for k, event in enumerate(events):
        if event.player != seat or not isinstance(event, PlayEvent | DrawEvent):
            continue  # a timeout is no decision
        view = game.view(seat, at=k)
        after = states[k + 1]
        nxt = (seat + 1) % game.players
        went_out = (
            k + 1 < len(events)
            and isinstance(events[k + 1], PlayEvent)
            and events[k + 1].player == nxt
            and states[k + 2].winner == nxt
        )
        table = event.table if isinstance(event, PlayEvent) else None
        turns.append(Turn(view, table, after.racks[nxt], after.opened[nxt], went_out))
    return seat, game.names[seat], turns


def _turns_of_tournament_log(
    lines: list[dict], player: int | str | None, game: int | None
) -> tuple[int, str, list[Turn] | list[DiscardTurn]]:
    games = sorted({line.get("game") for line in lines}, key=lambda g: (g is None, g))
    chosen = games[0] if game is None else game
    if chosen not in games:
        raise GameLogError(f"game: no game {game} in the log (games {games[0]} to {games[-1]})")
    own = sorted((x for x in lines if x.get("game") == chosen), key=lambda x: x.get("turn", 0))
    try:
        positions = [position_from_json(x["position"], f"game {chosen} turn {x.get('turn')}.position") for x in own]
    except KeyError:
        raise JsonInputError(f"game {chosen}: a turn line without a position") from None
    rules: RuleSet = positions[0].rules
    if rules.discard:  # rebuilt into an engine log, which the engine replays and checks
        return _turns_of_engine_log(engine_log_of_lines(own, rules), player)
    players = max(int(x["seat"]) for x in own) + 1
    names = ["?"] * players
    for x in own:
        names[int(x["seat"])] = str(x.get("player", f"player {x['seat'] + 1}"))
    seat = _seat_of(player, names, players)
    total = rules.total_tiles
    sizes = [rules.rack_size] * players
    opened = [False] * players
    history: list[dict] = []
    turns: list[Turn] = []
    pending: dict | None = None  # the analysed player's last turn, waiting for the next player's
    for i, (line, position) in enumerate(zip(own, positions)):
        mover = int(line["seat"])
        sizes[mover] = len(position.rack)
        table_tiles = sum(len(m) for m in position.table)
        pool = total - table_tiles - sum(sizes)
        if pending is not None and mover == (seat + 1) % players:
            pending["next_rack"] = position.rack
            pending["next_opened"] = position.opened
            pending["next_went_out"] = line["action"] == "play" and _played_all(position, line)
            turns.append(Turn(**pending))
            pending = None
        new_table = None
        if line["action"] == "play":
            new_table = table_from_json(line.get("table"), f"game {chosen} turn {line.get('turn')}.table", rules)
        if mover == seat:
            view = PlayerView(
                seat,
                rules,
                position.rack,
                position.table,
                position.opened,
                tuple(opened),
                tuple(sizes),
                pool,
                int(line.get("turn", i)),
                tuple(history),
            )
            pending = {"view": view, "table": new_table}
        if new_table is not None:
            played = sum(len(m) for m in new_table) - table_tiles
            sizes[mover] -= played
            opened[mover] = True
            history.append({"type": "play", "player": mover, "table": table_to_json(new_table)})
        else:
            drew = 1 if pool > 0 else 0
            sizes[mover] += drew
            history.append({"type": "draw", "player": mover, "tile": None, "drew": drew})
    if pending is not None:
        turns.append(Turn(**pending))
    return seat, names[seat], turns


def _played_all(position: Position, line: dict) -> bool:
    table = table_from_json(line.get("table"), "table", position.rules)
    return sum(len(m) for m in table) - len(position.table_tiles) >= len(position.rack)


# -- judging turns -----------------------------------------------------------------------------------


def _rack_tiles_played(position: Position, table: Iterable[Meld | Iterable[Tile]]) -> tuple[Tile, ...]:
    new = Counter(t for m in table for t in (m.tiles if isinstance(m, Meld) else m))
    return tuple(sorted((new - position.table_counts()).elements()))


def analyse_turn(turn: Turn | DiscardTurn, expert: ExpertPlayer | None) -> TurnAnalysis:
    """The verdict on one turn, with ``expert`` (an :class:`~rummisolve.game.ai.expert.ExpertPlayer`,
    or ``None``: no expert's opinion)."""
    from rummisolve.solver import solve

    if isinstance(turn, DiscardTurn):
        return _analyse_discard_turn(turn, expert)
    view = turn.view
    position = view.position
    rules = view.rules
    best = solve(position, objective="tiles")
    best_tiles = tuple(best.played) if best else ()
    played = None if turn.table is None else _rack_tiles_played(position, turn.table)
    action: Action = Draw() if turn.table is None else Play(turn.table)
    choice, judged = expert.assess(view, action) if expert is not None else (None, None)
    # (cast: no discard under the rules the analysis covers)
    expert_tiles = (
        None if choice is None or isinstance(choice, Draw) else _rack_tiles_played(position, cast(Play, choice).table)
    )
    mine = played or ()
    mistakes = []
    out_now = bool(best) and len(best_tiles) == len(view.rack)
    if out_now and len(mine) < len(view.rack):
        mistakes.append("missed going out")
    jokers = sum(t.is_joker for t in mine)
    if jokers and len(mine) <= CHEAP_JOKER_TILES and len(mine) < len(view.rack):
        mistakes.append("cheap joker")
    if played is not None and turn.next_went_out and turn.next_rack is not None:
        before = solve(Position(view.table, turn.next_rack, turn.next_opened, rules), objective="tiles")
        if not (before and len(before.played) == len(turn.next_rack)):
            mistakes.append("let the next player out")
    chosen = None
    if expert is not None and choice is not None:
        chosen = next((c for c in expert.last if _key(c.action) == _key(choice)), None)
    return TurnAnalysis(
        turn=view.turn,
        rack=view.rack,
        played=played,
        best=best_tiles,
        expert=expert_tiles,
        tiles_cost=len(best_tiles) - len(mine),
        points_cost=rules.rack_value(best_tiles) - rules.rack_value(mine),
        expert_value=None if chosen is None or chosen.value is None else round(chosen.value, 4),
        played_value=None if judged is None or judged.value is None else round(judged.value, 4),
        mistakes=tuple(mistakes),
    )


def _analyse_discard_turn(turn: DiscardTurn, expert: ExpertPlayer | None) -> TurnAnalysis:
    verdict = judge(turn, expert)
    rules = turn.view.rules
    mine = verdict.played or ()
    return TurnAnalysis(
        turn=turn.view.turn,
        rack=turn.view.rack,
        played=verdict.played,
        best=verdict.best,
        expert=verdict.expert_tiles,
        tiles_cost=len(verdict.best) - len(mine),
        points_cost=rules.rack_value(verdict.best) - rules.rack_value(mine),
        expert_value=verdict.expert_value,
        played_value=verdict.played_value,
        mistakes=verdict.mistakes,
        discard_rule=True,
        draw_from=turn.draw_from,
        discard=turn.discard,
        expert_draw_from=verdict.expert_draw_from,
        expert_discard=verdict.expert_discard,
    )


def _key(action: Action) -> tuple:
    from rummisolve.game.ai.expert import action_key

    return action_key(action)


def analyse_game(
    log: Any,
    player: int | str | None = None,
    *,
    game: int | None = None,
    think: float | None = None,
    worlds: int | None = None,
    seed: int = 0,
    round: int | None = None,
    expert: bool = True,
) -> GameAnalysis:
    """Analyse ``player``'s turns in ``log`` (see :func:`turns_of_log` for the formats and
    ``round``); the expert's opinion uses ``think`` seconds per turn (or ``worlds`` sampled worlds)
    and ``seed``. Without the ``expert`` (quick: two solves a turn at most), its fields are ``None``."""
    from rummisolve.game.ai.expert import DEFAULT_THINK, ExpertPlayer

    seat, name, turns = turns_of_log(log, player, game, round)
    judge = ExpertPlayer(seed=seed, think=DEFAULT_THINK if think is None else think, worlds=worlds) if expert else None
    return GameAnalysis(seat, name, tuple(analyse_turn(t, judge) for t in turns))


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def _source(draw_from: str | None) -> str:
    return {"pool": "drew from the pool", "discard": "took the pile's top"}.get(draw_from or "", "no draw")


def format_analysis(analysis: GameAnalysis) -> str:
    """The analysis as text: one line per turn, then the totals."""

    def tiles(ts: Iterable[Tile] | None) -> str:
        return "draw" if ts is None else " ".join(map(str, ts)) or "no play"

    lines = [f"analysis of {analysis.player} (seat {analysis.seat}), {len(analysis.turns)} turns"]
    for t in analysis.turns:
        line = f"turn {t.turn:>3}: played {tiles(t.played)}; best {tiles(t.best)}; expert {tiles(t.expert)}"
        if t.discard_rule:
            line = (
                f"turn {t.turn:>3}: {_source(t.draw_from)}, played {tiles(t.played).replace('draw', 'nothing')}, "
                f"discarded {t.discard}; best {tiles(t.best)}; expert {_source(t.expert_draw_from)}, "
                f"{'then decides' if t.expert_draw_from is not None and t.expert_discard is None else ''}"
                f"{'' if t.expert_discard is None else 'played ' + tiles(t.expert).replace('draw', 'nothing')}"
                f"{'' if t.expert_discard is None else ', discards ' + str(t.expert_discard)}"
            )
        if t.tiles_cost or t.points_cost:
            line += f"; cost {_count(t.tiles_cost, 'tile')}, {_count(t.points_cost, 'point')}"
        if t.played_value is not None and t.expert_value is not None:
            line += f"; win estimate {t.played_value:.2f} (expert's move {t.expert_value:.2f})"
        if t.mistakes:
            line += "; MISTAKE: " + ", ".join(t.mistakes)
        lines.append(line)
    summary = analysis.to_json()["summary"]
    lines.append(
        f"{_count(summary['mistakes'], 'mistake')}; {_count(summary['tiles_cost'], 'tile')} and "
        f"{_count(summary['points_cost'], 'point')} "
        f"below the solver's best; {summary['agreed_with_expert']} of {summary['turns']} turns as the expert"
    )
    return "\n".join(lines)
