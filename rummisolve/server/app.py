"""The ASGI app: POST /solve, /verify, /explain and /render, GET /health, OpenAPI docs at /docs
(offline), and the web app: its pages at / (analysis), /play and /r/<code> (a room's invite), its
game API, and game rooms (``/rooms``: people against people, over HTTP and WebSocket).

:func:`create_app` puts the parts together: the shared objects (:class:`~rummisolve.server.state.ServerState`
in ``app.state.server``), the routers (:mod:`rummisolve.server.routes`), the guards against
browsers' attacks (:mod:`rummisolve.server.guards`: a ``Host`` not on the allow-list, a
state-changing request from another site's page), and the one error handler
(:mod:`rummisolve.server.handlers`). Requests are read by hand (size-limited, streamed) and
decoded by :mod:`rummisolve.jsonio`, so the service answers exactly what the CLI prints, and no
input can crash it: every bad request gets a 4xx with a JSON body naming the problem. Solves,
replays, AI turns and hints run in worker processes, never in the server's own, each under a hard
deadline, in bounded lanes (:mod:`rummisolve.server.lanes`). Every error, a bug's 500 too, is a JSON body in the contract's
shape, and none closes the client's keep-alive connection. The docs pages load their scripts
from this server (the ``fastapi-offline`` package ships them), not from a CDN.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from rummisolve import __version__
from rummisolve.server.game_cache import CACHE_SIZE
from rummisolve.server.guards import CatchErrors, HostAndOriginGuard, redact_tokens_in_logs
from rummisolve.server.handlers import install_error_handler
from rummisolve.server.openapi import install_openapi
from rummisolve.server.routes import games, pages, rooms, service
from rummisolve.server.routes.pages import STATIC
from rummisolve.server.settings import Settings
from rummisolve.server.state import ServerState
from rummisolve.server.store import default_db_path

__all__ = ["create_app", "STATIC"]

_DESCRIPTION = """\
The best Rummikub move for any position, proven optimal with CP-SAT and re-checked by an
independent referee. Positions and results follow rummisolve's JSON contract: tiles are codes
such as `R7`, `B13`, `K1`, `O5` and `J` (joker); a table is a list of melds in play order.

Bad input gets a 4xx with a JSON body naming the bad part (`{"status": "error", "error": ...}`
from /solve, `{"error": ...}` elsewhere); bodies over the size limit, and positions over the limits
on tiles in play or melds, get 413. A `Host` not on the server's allow-list gets 400, and a
state-changing request from another site's page (its `Origin`) 403. A server whose worker processes and queue are all
taken answers 503 with a `Retry-After` header (seconds); a job cut at its hard deadline, 504. Limits and load:
`GET /health`.
"""


def create_app(
    settings: Settings | None = None, *, db: str | None = None, game_cache_size: int | None = None
) -> FastAPI:
    """The service's ASGI app; ``settings`` default to :meth:`Settings.from_env`, ``db`` (the web
    app's saved games, a SQLite file) to :func:`rummisolve.server.store.default_db_path`;
    ``game_cache_size``: sessions kept in memory (default 32)."""
    settings = Settings.from_env() if settings is None else settings
    state = ServerState.build(
        settings, default_db_path() if db is None else db, CACHE_SIZE if game_cache_size is None else game_cache_size
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The worker processes load OR-Tools and build the model caches before their first job.
        state.lanes.start()
        state.rooms.start()
        yield
        await state.rooms.stop()
        state.shutdown()

    app = FastAPIOffline(
        title="rummisolve",
        version=__version__,
        description=_DESCRIPTION,
        lifespan=lifespan,
        swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from validator.swagger.io
    )
    app.state.server = state
    redact_tokens_in_logs()
    app.add_middleware(CatchErrors)
    app.add_middleware(HostAndOriginGuard, allowed_hosts=settings.host_allow_list())
    install_error_handler(app)
    for router in (pages.router, games.router, rooms.router, service.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_openapi(app)
    return app
