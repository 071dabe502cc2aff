"""The hard AI: plays to win the round, not the turn.

Strategy ("banking"): melds the AI can make from its own rack alone are always playable later
(after the initial meld), so putting them on the table early only hands material to opponents
(who may rearrange them to get rid of their own tiles) and leaves the AI nothing to play on a
later turn, when it must then draw. So each turn the hard AI:

1. plays the whole rack and wins whenever the solver finds a way (checked first, every turn);
2. sets aside a *bank*: the most tiles it can arrange into melds of its own (the solver on an
   empty table);
3. plays the best move that uses only the other, "loose" tiles (with the table's help);
4. if there is none, plays one banked meld instead of drawing (the smallest), so it draws only
   when it has nothing at all;
5. opens with the fewest tiles that reach the threshold, banking the rest;
6. when the pool is empty (the lowest rack will win a blocked round) it sheds the most points.

Under the discard rule (where going out means playing all but one tile, then discarding it) the
same choice is made with the rack in hand: a play is made without drawing (then a discard); with
nothing to play it takes the discard pile's top when, holding it, it would play (the same choice
again), or the top completes a meld of its own or is a joker, else draws from the pool; after the
draw it plays loose tiles only (the bank stays). Before playing it checks whether taking the top first would let it go out. The discard is
the tile whose loss keeps the rack most playable (:mod:`rummisolve.game.ai.discarding`) among those
about as good, preferring one the next player is not known to want: not near a tile they took
from the discard pile, and, when they hold ``guard_size`` tiles or fewer, not one with which a
sampled rack of theirs goes out on the table left (the Monte Carlo below).

Guard (the default defence): most rounds between solver players end in a long stand-off in
which each side holds a few tiles that fit nowhere, and a player usually goes out right after
the *other* player's move opened the table it needed. So before a play (other than going out)
while the nearest opponent holds ``guard_size`` tiles or fewer, the AI samples that opponent's
rack from the tiles it has not seen (Monte Carlo, :mod:`rummisolve.game.ai.montecarlo`), weighting
by the public history: a tile the opponent kept after its last play, or held when it drew, most
likely did not fit the table of that moment. Racks that could already go out on the current table
are dropped (the opponent would have gone out). The solver then checks, for each sampled rack,
whether it goes out on the table the play would leave. If some do, the AI compares one-tile plays
(the same check) and drawing (worth ``1 - draw_cost``) and takes the safest. Going out is checked
before anything else. Only the AI's own view is used; the sampling is seeded from ``seed`` and
the turn, so a seed fixes every decision.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Iterable

from rummisolve.game.actions import Action, Discard, Draw, Play
from rummisolve.game.ai.common import MoveClock, rack_after
from rummisolve.game.ai.discarding import discard_options, taken_tiles, wanted_by
from rummisolve.game.ai.montecarlo import (
    World,
    fitting_tiles,
    fitting_tiles_of_json_tables,
    opponent_groups,
    shrink_groups,
    single_tile_tables,
)
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.solution import Solution, Status
from rummisolve.tiles import Tile

__all__ = ["HardPlayer", "fewest_tiles_reaching", "MIN_SOLVE_SECONDS"]

MIN_SOLVE_SECONDS = 0.05
"""The shortest time limit a solve gets under a caller's clock (:attr:`HardPlayer.clock`), so that
even a move asked after the deadline finds a move to make."""


def fewest_tiles_reaching(melds: tuple[Meld, ...], threshold: int) -> tuple[Meld, ...]:
    """A subset of ``melds`` worth at least ``threshold`` with the fewest tiles (then the least value)."""
    best = melds
    best_key = (sum(len(m) for m in melds), sum(m.value for m in melds))
    n = len(melds)
    if n > 12:
        return melds
    for mask in range(1, 1 << n):
        chosen = tuple(melds[i] for i in range(n) if mask >> i & 1)
        value = sum(m.value for m in chosen)
        if value < threshold:
            continue
        key = (sum(len(m) for m in chosen), value)
        if key < best_key:
            best, best_key = chosen, key
    return best


class HardPlayer:
    """Banks its own melds, plays loose tiles, opens lean, guards against handing a nearly-out
    opponent the table it needs (see the module docstring); goes out as soon as it can.

    ``guard=False`` turns the defence off. Its knobs: ``guard_size`` (opponent rack sizes it
    watches), ``guard_samples`` (sampled racks per turn), ``draw_cost`` (how much safer than the
    best play a draw must be), ``guard_alternatives`` (one-tile plays tried). Under the discard
    rule ``discard_candidates`` bounds the discards compared for the next player's sake.
    """

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        bank: bool = True,
        lean_opening: bool = True,
        guard: bool = True,
        guard_size: int = 6,
        guard_samples: int = 10,
        draw_cost: float = 0.1,
        guard_alternatives: int = 4,
        discard_candidates: int = 4,
    ) -> None:
        self.discard_candidates = discard_candidates
        self.guard = guard
        self.guard_size = guard_size
        self.guard_samples = guard_samples
        self.draw_cost = draw_cost
        self.guard_alternatives = guard_alternatives
        self.seed = seed
        self.bank = bank
        self.lean_opening = lean_opening
        self.clock: MoveClock | None = None
        """Set by a caller that holds this move to a deadline (the expert): the move's solves then get
        the time left (a cut one answers its best move found), and the guard stops its solver checks
        when the clock runs out, keeping the best move found so far. ``None``: no clock (the level
        played alone)."""
        self.guard_cut = False
        """Whether the last move's guard was cut short by :attr:`clock`."""
        self.solve_cut = False
        """Whether :attr:`clock` cut one of the last move's solves (its best move found was used)."""

    def choose(self, view: PlayerView) -> Action:
        self.guard_cut = self.solve_cut = False
        action = self._guarded(view, bank_fallback=view.draw_from is None)
        if view.rules.discard:
            return self._discard_turn(view, action)
        return action

    def _guarded(self, view: PlayerView, bank_fallback: bool = True) -> Action:
        action = self._choose(view, bank_fallback)
        if not self.guard or not isinstance(action, Play) or not view.opened or view.pool_size == 0:
            return action
        return self._guard(view, action)

    # -- the discard rule -------------------------------------------------------------------------

    def _discard_turn(self, view: PlayerView, action: Action) -> Action:
        """Turn the normal-rules choice into the discard rule's actions (see the module docstring)."""
        from rummisolve.solver import solve

        rules = view.rules
        drawn = view.draw_from is not None
        top = view.discard_top
        if isinstance(action, Play):
            table = tuple(Meld.of(m.tiles if isinstance(m, Meld) else m, rules) for m in action.table)
            left = rack_after(view.rack, view.table, table)
            if not drawn and top is not None and len(left) > 1:
                with_top = solve(Position(view.table, view.rack + (top,), view.opened, rules), objective="tiles")
                if len(with_top.played) >= len(view.rack):  # take it, play all but one, discard that: out
                    return Draw("discard")
            return Play(table, discard=self._discard_tile(view, table, left, True))
        if drawn:
            return Discard(self._discard_tile(view, tuple(view.table), tuple(view.rack), view.opened))
        return Draw(self._draw_source(view))

    def _draw_source(self, view: PlayerView) -> str:
        """With nothing to play: the discard pile's top if, holding it, this player would play (the
        same choice as after any draw), or it completes a meld of the rack's own, or is a joker;
        else the pool (the pile when the pool is empty)."""
        from rummisolve.solver import solve

        top = view.discard_top
        if not view.pool_size:
            return "discard"
        if top is None:
            return "pool"
        if top.is_joker:
            return "discard"
        rules = view.rules
        holding = dataclasses.replace(
            view,
            rack=tuple(sorted(view.rack + (top,))),
            discard_pile=view.discard_pile[:-1],
            draw_from="discard",
            drawn=top,
        )
        if isinstance(self._guarded(holding, bank_fallback=False), Play):
            return "discard"
        plain = rules.replace(discard=False)
        alone = solve(Position((), view.rack, True, plain), objective="tiles")
        with_top = solve(Position((), view.rack + (top,), True, plain), objective="tiles")
        return "discard" if len(with_top.played) > len(alone.played) else "pool"

    def _discard_tile(self, view: PlayerView, table: tuple[Meld, ...], left: tuple[Tile, ...], opened: bool) -> Tile:
        """The tile to discard from ``left`` (the rack after the play, which left ``table``)."""
        options = discard_options(left, view.rules, opened)
        if len(options) == 1:
            return options[0].tile
        best = options[0]
        close = [o.tile for o in options[: self.discard_candidates] if o.own == best.own and o.near >= best.near - 1]
        if len(close) == 1:
            return close[0]
        after = (view.seat + 1) % view.players
        known = taken_tiles(view, after)
        risk = self._discard_risk(view, table, close, after, known) if self.guard else {}
        return min(close, key=lambda t: (risk.get(t, 0.0), wanted_by(t, known), close.index(t)))

    def _discard_risk(
        self, view: PlayerView, table: tuple[Meld, ...], tiles: list[Tile], seat: int, known: Counter
    ) -> dict[Tile, float]:
        """For each tile, the share of sampled racks of the next player (``seat``) that go out by
        taking it: play all but one of their rack and the tile on ``table``, discard the last.
        Racks that go out without it are left out (the discard makes no difference to them).
        Only under the discard rule, where going out plays all but one tile (``goes_out``)."""
        from rummisolve.solver import TableSolver

        rules = view.rules
        size = view.rack_sizes[seat]
        if size > self.guard_size or size == 0 or not view.players_opened[seat]:
            return {}
        fitsets = fitting_tiles_of_json_tables(rules)

        hidden = size - min(size, sum(known.values()))
        groups = shrink_groups(opponent_groups(view, seat, fitsets), hidden)
        rng = random.Random(f"hard-discard/{self.seed}/{view.seat}/{view.turn}")
        world = World(rng, view.unseen() - known, groups, self.guard_samples)
        fixed = tuple(known.elements())
        risk = dict.fromkeys(tiles, 0.0)
        counted = 0
        solver = TableSolver(table, rules)
        for sample in world.opponent_racks():
            rack = tuple(sorted(sample + fixed))
            if not rack:
                continue
            if solver.goes_out(rack):
                continue  # out whatever is discarded
            counted += 1
            for tile in tiles:
                if solver.goes_out(rack + (tile,)):  # plays the rack's tiles, discards the last
                    risk[tile] += 1.0
        return {t: r / counted for t, r in risk.items()} if counted else {}

    def _guard(self, view: PlayerView, action: Play) -> Action:
        """Solver-checked defence: estimate, over sampled opponent racks, the chance that the table
        ``action`` leaves lets the nearest opponent go out; if it is not zero, compare one-tile plays
        and drawing."""
        rules = view.rules
        threat = min(view.opponents(), key=lambda s: view.rack_sizes[s])
        size = view.rack_sizes[threat]
        if size > self.guard_size or not view.players_opened[threat] or size == 0:
            return action
        new_table = tuple(m if isinstance(m, Meld) else Meld.of(m, rules) for m in action.table)
        table = tuple(view.table)
        added = sum(len(m) for m in new_table) - sum(len(m) for m in table)
        if added >= len(view.rack) - rules.discard:
            return action  # going out (under the discard rule: all but the tile to discard)
        fitsets = fitting_tiles_of_json_tables(rules)

        groups = opponent_groups(view, threat, fitsets)
        rng = random.Random(f"hard/{self.seed}/{view.seat}/{view.turn}")
        world = World(rng, view.unseen(), groups, self.guard_samples)
        checks = _OutChecks(rules, self.clock)
        try:
            return self._safest(view, action, new_table, [tuple(sorted(r)) for r in world.opponent_racks()], checks)
        finally:
            self.guard_cut = self.guard_cut or checks.cut

    def _safest(
        self,
        view: PlayerView,
        action: Play,
        new_table: tuple[Meld, ...],
        racks: list[tuple[Tile, ...]],
        checks: _OutChecks,
    ) -> Action:
        """The guard's choice between ``action`` (leaving ``new_table``), one-tile plays and drawing,
        judged over the sampled ``racks`` of the threat (those that could go out on the table now
        left out); the move as it is when ``checks`` run out of time."""
        from rummisolve.referee import verify

        table = tuple(view.table)
        consistent = []
        for r in racks:
            if checks.expired():
                return action  # no time to judge the risk: the move as it is
            if r and not checks.goes_out(table, r):
                consistent.append(r)
        if not consistent:
            return action
        k0 = checks.count(new_table, consistent, len(consistent) + 1)
        if k0 is None or k0 == 0:
            return action
        best_count, best = k0, action
        live = fitting_tiles(table)
        tried = 0
        for tile in sorted(set(view.rack), key=lambda t: (t.is_joker, -(t.number or 0))):
            if tried >= self.guard_alternatives:
                break
            if tile.is_joker or tile not in live:
                continue
            options = single_tile_tables(table, tile)
            if not options:
                continue
            tried += 1
            option = options[0]
            count = checks.count(option, consistent, best_count)  # no better once it reaches the best
            if count is None:
                break
            if count < best_count and verify(view.position, option).legal:
                best_count, best = count, Play(option)
        if 1.0 - self.draw_cost > 1.0 - best_count / len(consistent):
            return Draw()
        return best

    def _solve(self, position: Position, objective: str = "tiles") -> Solution:
        """``solve(position, objective)``; under :attr:`clock` limited to the time it leaves (at
        least :data:`MIN_SOLVE_SECONDS`), a cut solve answering its best move found."""
        from rummisolve.solver import solve

        clock = self.clock
        if clock is None or clock.deadline is None:
            return solve(position, objective=objective)
        limit = max(MIN_SOLVE_SECONDS, clock.deadline - time.perf_counter())
        solution = solve(position, objective=objective, time_limit=limit)
        if solution.status in (Status.FEASIBLE, Status.UNKNOWN):
            self.solve_cut = True
        return solution

    def _choose(self, view: PlayerView, bank_fallback: bool = True) -> Action:
        """The move by the strategy in the module docstring (``bank_fallback``: play a banked meld
        when nothing else plays, rather than draw)."""
        rules = view.rules
        objective = "value" if view.pool_size == 0 else "tiles"
        full = self._solve(view.position, objective)
        if not full:
            return Draw()
        out = len(full.played) >= len(view.rack) - rules.discard
        if out or view.pool_size == 0 or not self.bank:
            return Play(tuple(full.table))  # going out, or shedding points before a blocked ending
        if not view.opened:
            if not self.lean_opening:
                return Play(tuple(full.table))
            kept = tuple(view.table)
            new = [m for m in full.table]
            for meld in kept:  # the opening leaves the table as it was; the rest are new melds
                for i, m in enumerate(new):
                    if m.tiles == meld.tiles:
                        del new[i]
                        break
                else:  # open_then_manipulate: the best play changed the table after its opening
                    return Play(tuple(full.table))
            lean = fewest_tiles_reaching(tuple(new), rules.initial_threshold)
            return Play(kept + lean)
        # Under the discard rule the bank itself stays on the rack, so neither it nor a loose play
        # beside it need keep a tile back: only a loose play of the whole rack does.
        plain = rules.replace(discard=False) if rules.discard else rules
        bank = self._solve(Position((), view.rack, True, plain))
        banked = tuple(Meld.of(m.tiles, rules) for m in bank.table) if bank else ()
        banked_tiles = Counter(t for m in banked for t in m.tiles)
        loose = tuple(sorted((Counter(view.rack) - banked_tiles).elements()))
        if loose:
            move = self._solve(Position(view.table, loose, True, plain if banked else rules))
            if move:
                return Play(tuple(move.table))
        if not bank_fallback:
            return Draw()
        if banked:
            smallest = min(banked, key=lambda m: (len(m), m.value))
            if len(smallest) < len(view.rack) - rules.discard + 1:
                return Play(tuple(view.table) + (smallest,))
        return Play(tuple(full.table))


class _OutChecks:
    """The guard's solver checks: whether a sampled rack goes out on a table (one
    :class:`~rummisolve.solver.TableSolver` per table, every answer remembered), until ``clock``
    (if any) runs out (then :attr:`cut`)."""

    def __init__(self, rules: RuleSet, clock: MoveClock | None) -> None:
        self.rules = rules
        self.clock = clock
        self.cut = False
        self._outs: dict = {}
        self._solvers: dict = {}

    def expired(self) -> bool:
        if self.clock is not None and self.clock.expired():
            self.cut = True
        return self.cut

    def goes_out(self, table: tuple[Meld, ...], rack: tuple[Tile, ...]) -> bool:
        from rummisolve.solver import TableSolver

        key = (_table_key(table), rack)
        if key not in self._outs:
            solver = self._solvers.get(key[0])
            if solver is None:
                solver = self._solvers[key[0]] = TableSolver(table, self.rules)
            self._outs[key] = solver.goes_out(rack)
        return self._outs[key]

    def count(self, table: tuple[Meld, ...], racks: list[tuple[Tile, ...]], enough: int) -> int | None:
        """How many of ``racks`` go out on ``table``, counted up to ``enough``; ``None`` when the
        clock ran out."""
        count = 0
        for rack in racks:
            if self.expired():
                return None
            count += self.goes_out(table, rack)
            if count >= enough:
                break
        return count


def _table_key(table: Iterable[Meld]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(m.tiles for m in table)
