"""``rummisolve serve``: the HTTP service (needs the ``server`` extra: FastAPI and uvicorn)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys

from rummisolve.errors import GameDatabaseError, SettingsError
from rummisolve.server.settings import ENV_PREFIX, Settings

HELP = "Serve the web app at / and solve, verify and render over HTTP (JSON; OpenAPI docs at /docs)."

OPTIONS: tuple[tuple[str, type, str, str], ...] = (
    ("max_time_limit", float, "SECONDS", "cap on one solve; a request's time_limit is clamped to it"),
    ("max_body_bytes", int, "N", "largest request body"),
    ("heavy_workers", int, "N", "worker processes (per server worker) for solves that are not light and replays"),
    ("light_workers", int, "N", "worker processes (per server worker) kept for light solves; 0: none"),
    ("game_workers", int, "N", "worker processes (per server worker) for AI turns and hints"),
    ("light_max_work", int, "N", "expected work (tiles, set size, costly options, alternatives) of a light solve"),
    ("max_queued_solves", int, "N", "jobs that may wait for a heavy worker; past it, 503 with Retry-After"),
    ("max_queued_light_solves", int, "N", "solves that may wait for a light worker; past it, 503"),
    ("max_queued_game_jobs", int, "N", "AI turns and hints that may wait for a game worker; past it, 503"),
    ("heavy_nice", int, "N", "how much lower heavy workers run (Linux nice increment; 0: no lower)"),
    ("job_grace_seconds", float, "SECONDS", "a solve's hard deadline is its time limit plus this; past it, 504"),
    ("replay_deadline_seconds", float, "SECONDS", "hard deadline of one POST /replays; past it, 504"),
    ("ai_turn_deadline_seconds", float, "SECONDS", "hard deadline of one AI choice; past it, the AI draws"),
    ("max_tiles_in_play", int, "N", "largest position solved, in tiles on the table and rack; past it, 413"),
    ("max_melds", int, "N", "most melds on the table of a position solved; past it, 413"),
    ("max_verify_steps", int, "N", "search steps one /verify may take; past it, an error"),
    ("max_live_games", int, "N", "web app games with a round still running; past it, a new game gets 429"),
    ("max_stored_games", int, "N", "web app games saved in the database; past it, a new game gets 429"),
    ("max_live_rooms", int, "N", "game rooms whose round is not over; past it, a new room gets 429"),
    ("max_stored_rooms", int, "N", "game rooms saved in the database; past it, a new room gets 429"),
    ("room_cache_size", int, "N", "game rooms kept in memory per worker (0: as many as --max-live-rooms)"),
    ("max_connections", int, "N", "WebSocket connections to rooms per worker; past it, closed with 4503"),
    ("max_room_spectators", int, "N", "spectators' WebSocket connections to one room; past it, closed with 4429"),
    ("max_seat_connections", int, "N", "WebSocket connections of one seat; a newer one replaces the oldest (4409)"),
    ("room_idle_seconds", int, "SECONDS", "a room nobody changed or watched for this long is archived"),
    ("max_client_live_rooms", int, "N", "rooms not over one client keeps; past it, its new room gets 429"),
    ("max_client_stored_rooms", int, "N", "rooms not archived one client keeps; past it, 429"),
    ("max_client_live_games", int, "N", "unfinished web app games one client keeps; past it, 429"),
    ("max_client_stored_games", int, "N", "web app games one client keeps saved; past it, 429"),
    ("max_client_connections", int, "N", "room WebSockets one client holds per worker; past it, 4429"),
    ("max_client_jobs", int, "N", "heavy jobs one client has queued or running per worker; past it, 429"),
    ("rooms_per_window", int, "N", "new rooms per client address in --rate-window-seconds; past it, 429"),
    ("games_per_window", int, "N", "new games per client address in --rate-window-seconds; past it, 429"),
    ("code_guesses_per_window", int, "N", "requests naming no room per address in the window; past it, 429"),
    ("rate_window_seconds", int, "SECONDS", "the window of the rate limits (per worker process)"),
    ("room_retention_seconds", int, "SECONDS", "rooms over or archived, left alone this long, are deleted"),
    ("game_retention_seconds", int, "SECONDS", "web app games nobody played this long are deleted, owners too"),
    ("max_ws_message_bytes", int, "N", "largest WebSocket message a client may send; past it, closed with 1009"),
)
"""The options that set :class:`Settings`: (setting, type, metavar, help without the default)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, loopback only)")
    parser.add_argument("--port", type=int, default=8000, help="port to bind (default: 8000)")
    parser.add_argument(
        "--processes",
        "--workers",
        dest="processes",
        type=int,
        default=1,
        metavar="N",
        help="server processes sharing the port and the database (default: 1; --workers is another name for it)",
    )
    parser.add_argument(
        "--allowed-host",
        dest="allowed_host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name clients may reach the server by, besides localhost, 127.0.0.1, ::1 and --host "
        "(repeat for more; '*' allows any; requests naming another Host get 400, against DNS rebinding; "
        "env RUMMISOLVE_ALLOWED_HOSTS, comma-separated)",
    )
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=None,
        help="the database of the web app's games and rooms: a SQLite file (default: $RUMMISOLVE_DB, else "
        "$XDG_DATA_HOME/rummisolve/games.sqlite3, i.e. ~/.local/share/rummisolve/games.sqlite3; "
        "':memory:' keeps nothing) or a PostgreSQL URL, postgresql://user@host/db (the 'postgres' extra), "
        "shared by servers on several machines",
    )
    for name, kind, metavar, text in OPTIONS:
        default = getattr(Settings, name)
        parser.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=kind,
            default=None,
            metavar=metavar,
            help=f"{text} (default: {default if kind is int else format(default, 'g')}; env {ENV_PREFIX}{name.upper()})",
        )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level",
    )
    parser.add_argument("--no-access-log", action="store_true", help="do not log every request")
    parser.add_argument(
        "--trust-proxy",
        action="store_true",
        help="take the client's address from X-Forwarded-For sent by a proxy on 127.0.0.1 (default: the "
        "connection's own address; without a proxy, trusting it would let one client pose as many)",
    )


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        print(f"rummisolve serve: --port must be between 0 and 65535, not {args.port}", file=sys.stderr)
        return 2
    if args.processes < 1:
        print(f"rummisolve serve: --processes (--workers) must be at least 1, not {args.processes}", file=sys.stderr)
        return 2
    overrides = {name: getattr(args, name) for name, *_ in OPTIONS if getattr(args, name) is not None}
    try:
        settings = Settings.from_env()
        hosts = [*settings.host_allow_list(), *args.allowed_host]
        if args.host not in ("0.0.0.0", "::", ""):  # a wildcard address is no name a client uses
            hosts.append(args.host)
        overrides["allowed_hosts"] = ",".join(dict.fromkeys(h.strip() for h in hosts if h.strip()))
        settings = dataclasses.replace(settings, **overrides)
    except SettingsError as err:
        print(f"rummisolve serve: {err}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        import rummisolve.server.app  # noqa: F401  (fails early if FastAPI is missing)
    except ImportError as err:
        print(
            f"rummisolve serve: the HTTP service needs the 'server' extra ({err.name} is missing): "
            "pip install 'rummisolve[server]'",
            file=sys.stderr,
        )
        return 1
    from rummisolve.server.store import DB_ENV, default_db_path, shown
    from rummisolve.server.stores import open_store

    db = args.db or default_db_path()
    if db == ":memory:" and args.processes > 1:
        print(
            "rummisolve serve: --db :memory: needs --processes 1 (each process would have its own games)",
            file=sys.stderr,
        )
        return 2
    try:  # open and check the database once here, so that a bad one is one line, not a process's traceback
        open_store(db, max_live=settings.max_live_games, max_stored=settings.max_stored_games).close()
    except GameDatabaseError as err:
        print(f"rummisolve serve: {err}", file=sys.stderr)
        return 1
    host = f"[{args.host}]" if ":" in args.host else args.host
    problem = _cannot_listen(args.host, args.port)
    if problem:  # before the address is printed: nobody is told to open a page that is not there
        print(f"rummisolve serve: cannot listen on {host}:{args.port}: {problem}", file=sys.stderr)
        return 1
    os.environ.update(settings.to_env())  # every worker process reads the same limits
    os.environ[DB_ENV] = db
    print(f"rummisolve: the web app is at http://{host}:{args.port}/ (games saved in {shown(db)})", flush=True)
    uvicorn.run(
        "rummisolve.server.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.processes,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        proxy_headers=args.trust_proxy,
        ws_max_size=settings.max_ws_message_bytes,
    )
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (the port taken, the address not this
    machine's), or ``None``. Bound as uvicorn binds (``SO_REUSEADDR``), then let go at once."""
    import errno
    import socket

    if port == 0:
        return None  # any free port
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        return f"no such address ({err.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                return "the port is taken (another server runs there? choose another with --port)"
            return err.strerror or str(err)
    return None
