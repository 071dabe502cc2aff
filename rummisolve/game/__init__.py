"""Game engine, players and tournaments on top of the solver and the referee.

>>> from rummisolve.game import Game
>>> game = Game(players=2, seed=1)
>>> game.view(0).pool_size
78

Importing this package is cheap; the solver is loaded when an AI player first moves.
"""

from __future__ import annotations

from rummisolve.errors import ConservationError, GameStateError, IllegalMoveError
from rummisolve.game.actions import Action, Discard, Draw, Play, Player
from rummisolve.game.engine import Game, shuffled_deck
from rummisolve.game.events import Deal, DiscardEvent, DrawEvent, PlayEvent, TimeoutEvent
from rummisolve.game.match import Match, round_seed
from rummisolve.game.players import AI_LEVELS, PLAYER_KINDS, make_player
from rummisolve.game.runner import GameRecord, MatchRecord, TurnInfo, play_game, play_turn
from rummisolve.game.scoring import blocked_winner, match_totals, round_scores
from rummisolve.game.state import GameState, PlayerView
from rummisolve.game.tile_game import TILE_GAME, play_match

__all__ = [
    "Game",
    "GameState",
    "PlayerView",
    "IllegalMoveError",
    "GameStateError",
    "ConservationError",
    "shuffled_deck",
    "Deal",
    "PlayEvent",
    "DrawEvent",
    "DiscardEvent",
    "TimeoutEvent",
    "Play",
    "Draw",
    "Discard",
    "Action",
    "Player",
    "AI_LEVELS",
    "PLAYER_KINDS",
    "make_player",
    "play_game",
    "play_match",
    "Match",
    "round_seed",
    "TILE_GAME",
    "play_turn",
    "MatchRecord",
    "GameRecord",
    "TurnInfo",
    "round_scores",
    "blocked_winner",
    "match_totals",
]
