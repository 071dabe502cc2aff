"""What the routes share, held in ``app.state.server``: the settings, the solver lanes and pools,
the game store and its cache, the game rooms' hub, and each client's quotas. :func:`server_state` is the routes' dependency that hands it over."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import Request

from rummisolve.server.game_cache import GameCache
from rummisolve.server.lanes import Lanes
from rummisolve.server.quotas import Quotas
from rummisolve.server.room_cache import RoomCache
from rummisolve.server.room_hub import RoomHub
from rummisolve.server.settings import Settings
from rummisolve.server.store import GameStore
from rummisolve.server.stores import open_store

__all__ = ["ServerState", "SharedState", "server_state"]

GAME_THREADS = 4
"""Threads running game actions (a write may wait on a lock for ``busy_timeout``; an AI turn or a
hint waits there for its game worker, :mod:`rummisolve.server.lanes`)."""

QUICK_THREADS = 2
"""Threads for /verify, /explain and /render: quick, so they keep answering while every solver thread is busy."""


@dataclass
class ServerState:
    """The objects the routes share; built by :func:`rummisolve.server.app.create_app`."""

    settings: Settings
    store: GameStore
    games: GameCache
    lanes: Lanes
    rooms: RoomHub
    """The game rooms: ``rooms.cache`` holds them (its ``clock`` times the turn timers)."""
    quotas: Quotas = field(default_factory=lambda: Quotas.build(Settings()))
    """Each client's share: creation rate limits, failed room-code guesses, heavy jobs held."""
    quick: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(QUICK_THREADS, thread_name_prefix="rummisolve-quick")
    )
    game_pool: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(GAME_THREADS, thread_name_prefix="rummisolve-games")
    )

    @classmethod
    def build(cls, settings: Settings, db: str, cache_size: int) -> ServerState:
        store = open_store(db, max_live=settings.max_live_games, max_stored=settings.max_stored_games)
        games = GameCache(store, size=cache_size, max_steps=settings.max_verify_steps)
        lanes = Lanes(settings)
        pool = ThreadPoolExecutor(GAME_THREADS, thread_name_prefix="rummisolve-games")
        rooms = RoomHub(RoomCache(store, settings), lanes, pool, settings)
        return cls(
            settings=settings,
            store=store,
            games=games,
            lanes=lanes,
            rooms=rooms,
            game_pool=pool,
            quotas=Quotas.build(settings),
        )

    def shutdown(self) -> None:
        """Stop the threads, let go of the worker processes (they end with the process) and close the
        store once no game thread uses it (closing a connection in use may crash SQLite)."""
        self.lanes.shutdown()
        self.quick.shutdown(wait=False, cancel_futures=True)
        self.game_pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()


def server_state(request: Request) -> ServerState:
    """The app's :class:`ServerState` (a FastAPI dependency)."""
    return request.app.state.server


SharedState = Annotated[ServerState, Depends(server_state)]
"""A route's parameter ``state: SharedState`` receives the app's :class:`ServerState`."""
