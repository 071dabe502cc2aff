"""``rummisolve serve``: the HTTP service (needs the ``server`` extra: FastAPI and uvicorn)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys

HELP = "Serve solve, verify and render over HTTP (JSON; OpenAPI docs at /docs)."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, loopback only)")
    parser.add_argument("--port", type=int, default=8000, help="port to bind (default: 8000)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.add_argument(
        "--max-time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="cap on one solve; a request's time_limit is clamped to it (default: 10)",
    )
    parser.add_argument(
        "--max-body-bytes", type=int, default=None, metavar="N", help="largest request body (default: 262144)"
    )
    parser.add_argument(
        "--solver-threads", type=int, default=None, metavar="N", help="solves at once per worker (default: 4)"
    )
    parser.add_argument(
        "--max-verify-steps",
        type=int,
        default=None,
        metavar="N",
        help="search steps one /verify may take; past it, an error (default: 20000)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level",
    )
    parser.add_argument("--no-access-log", action="store_true", help="do not log every request")


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        print(f"rummisolve serve: --port must be between 0 and 65535, not {args.port}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"rummisolve serve: --workers must be at least 1, not {args.workers}", file=sys.stderr)
        return 2
    from rummisolve.server.settings import Settings

    overrides = {
        name: value
        for name, value in (
            ("max_time_limit", args.max_time_limit),
            ("max_body_bytes", args.max_body_bytes),
            ("solver_threads", args.solver_threads),
            ("max_verify_steps", args.max_verify_steps),
        )
        if value is not None
    }
    try:
        settings = Settings.from_env()
        if overrides:
            settings = dataclasses.replace(settings, **overrides)
    except ValueError as err:
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
    os.environ.update(settings.to_env())  # every worker process reads the same limits
    uvicorn.run(
        "rummisolve.server.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        access_log=not args.no_access_log,
    )
    return 0
