"""Game kinds: what every app needs of a kind of game (the tile game, Xpress), as one object.

A :class:`GameKind` owns its engine (a round: :meth:`GameKind.new_round`, :meth:`GameKind.load_round`),
its players (:attr:`GameKind.ai_levels`, :meth:`GameKind.make_player`), the games its tournaments
play, its terminal loop (:meth:`GameKind.play_in_terminal`) and names its web session. The apps
find a kind in the registry (:mod:`rummisolve.kinds`: by name, by rule set, by saved format), as
python-chess finds a variant, and never ask which kind it is. The tile game's kind is
:data:`rummisolve.game.tile_game.TILE_GAME`, Xpress's :data:`rummisolve.xpress.kind.XPRESS_GAME`.

A kind's module stands on top of its package: it imports the engine, players and terminal of its
kind (inside its methods, so finding a kind stays cheap), and nothing in the package imports it
(what needs the kind object takes it as an argument).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rummisolve.game.transitions import Referee
from rummisolve.rules import RuleSet

__all__ = ["GameKind", "TournamentGame"]

TournamentGame = tuple[Callable[..., Any], Callable[..., Any], Callable[..., dict[str, Any]]]
"""A tournament's pieces of a kind: the player factory, the game runner and the turn's log line."""


class GameKind:
    """A kind of game. Subclasses set the class attributes and the methods; instances are values
    (a kind holds no state), registered in :mod:`rummisolve.kinds`."""

    name: ClassVar[str]
    """The kind's name in the registry (``tiles``, ``xpress``)."""
    title: ClassVar[str]
    """The kind in words, for messages (``the tile game``)."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names :func:`rummisolve.kinds.find_kind` accepts (the kind's rule-set presets)."""
    default_rules: ClassVar[RuleSet]
    """The rules a new game of the kind plays unless told otherwise."""
    ai_levels: ClassVar[tuple[str, ...]]
    """The AI levels that play the kind."""
    formats: ClassVar[tuple[str, ...]] = ()
    """The ``format`` of every saved file of the kind (a round, a match, a web session)."""
    match_format: ClassVar[str]
    """The ``format`` of a saved :class:`~rummisolve.game.match.Match` of the kind."""
    session: ClassVar[str]
    """The kind's web session, ``module:Class`` (the server imports it; the engines never do)."""
    rooms_refused: ClassVar[str | None] = None
    """Why game rooms do not play the kind yet (``None``: they do)."""
    room_actions: ClassVar[tuple[str, ...]] = ()
    """The actions of a seat's turn in a game room (``play``, ``draw``, ``discard``, ``roll``, ``pass``):
    a room refuses the others, naming these."""
    room_view: ClassVar[str] = ""
    """What a room's view adds for the kind, ``module:function`` (the server imports it; the engines
    never do): ``function(room, seat, now)`` answers the kind's part of the view."""

    def plays(self, rules: RuleSet) -> bool:
        """Whether ``rules`` are a rule set of this kind."""
        raise NotImplementedError

    def check_rules(self, rules: RuleSet) -> None:
        """Refuse rules the kind's engine cannot deal (a :class:`~rummisolve.errors.RuleSetError`)."""

    def new_round(
        self,
        players: int,
        rules: RuleSet,
        seed: int,
        *,
        first: int | None,
        names: Sequence[str] | None = None,
        referee: Referee | None = None,
    ) -> Any:
        """One round (a game of the kind's engine) dealt from ``seed``; ``first``: the seat that
        moves first (``None``: the kind's own choice for a match's first round)."""
        raise NotImplementedError

    def load_round(self, obj: Any, referee: Referee | None = None) -> Any:
        """A round saved by its ``to_json``, replayed through the referee."""
        raise NotImplementedError

    def make_player(self, level: str, seed: int | None = None, think: float | None = None) -> Any:
        """An AI of ``level`` (one of :attr:`ai_levels`)."""
        raise NotImplementedError

    def play_turn(self, game: Any, player: Any, name: str) -> Any:
        """Ask ``player`` (the one to move) for its whole turn of ``game`` and apply it (a refused
        action forfeits the turn); what happened."""
        raise NotImplementedError

    def forfeit(self, view: Any) -> Any:
        """The action of a player that could not choose in time, seeing ``view`` (the turn is lost)."""
        raise NotImplementedError

    def timeout(self, game: Any) -> Any:
        """The mover of ``game`` ran out of time (a room's turn timer): the kind's penalty; its event."""
        raise NotImplementedError

    def tournament_game(self) -> TournamentGame:
        """What a tournament deal plays: the player factory, the game runner and the turn's log line."""
        raise NotImplementedError

    def play_in_terminal(self, args: argparse.Namespace, rules: RuleSet, kinds: list[str] | None) -> int:
        """``rummisolve play`` of this kind under ``rules`` (``kinds``: the ``--players`` given, or ``None``);
        the exit status."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<GameKind {self.name}>"
