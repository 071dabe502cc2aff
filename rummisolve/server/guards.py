"""What stands between the routes and the network: the Host allow-list, the Origin check, and a
last catch of errors that answers in the contract's shape without dropping the connection.

- **Host** (against DNS rebinding: a page on another site whose name is made to point at this
  machine): a request whose ``Host`` names no allowed host gets 400. The allow-list is
  ``localhost``, ``127.0.0.1`` and ``::1`` plus what the server is bound to and every
  ``serve --allowed-host`` (``*`` allows any host).
- **Origin** (against cross-site requests made by a page's forms and scripts): a request that
  can change something (any method but GET, HEAD and OPTIONS) and carries an ``Origin`` that is
  not this server's own gets 403. Clients that are not browsers send no ``Origin`` and pass.
- **Logs**: a URL's ``token`` (a room's WebSocket carries its seat's there) is logged hidden,
  however its name is spelt (``?%74oken=``).
- **Errors**: a bug in a route is logged and answered 500 with ``{"error": ...}`` here, rather
  than by Starlette's outermost handler, which re-raises and so makes the ASGI server close the
  keep-alive connection.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import unquote_plus, urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummisolve.server.requests import error_body

__all__ = ["HostAndOriginGuard", "CatchErrors", "RedactTokens", "redact_tokens_in_logs", "LOCAL_HOSTS", "host_name"]

log = logging.getLogger("rummisolve.server")

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Always allowed: this machine's own names."""

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def host_name(host: str) -> str:
    """The name part of a ``Host`` header, lower case: ``Example.org:8000`` -> ``example.org``, ``[::1]:80`` -> ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    name, _, port = host.rpartition(":")
    return name if name and port.isdigit() else host


def _netloc(scheme: str, host: str) -> str:
    """``host`` (a ``Host`` header or an origin's netloc) with the scheme's default port dropped."""
    host = host.strip().lower()
    default = _DEFAULT_PORTS.get(scheme)
    if default is not None and host.endswith(f":{default}") and not host.endswith("]"):
        host = host[: -len(f":{default}")]
    return host


class HostAndOriginGuard:
    """ASGI middleware: refuse hosts not on ``allowed_hosts`` and cross-site state-changing requests."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        names = {name.strip().lower().strip("[]") for name in allowed_hosts if name.strip()}
        self.any_host = "*" in names
        self.allowed = frozenset(names | set(LOCAL_HOSTS))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        problem = None
        status = 400
        if not self.any_host and host_name(host) not in self.allowed:
            shown = repr(host) if host else "(none)"
            problem = (
                f"Host {shown} is not allowed on this server (allowed: {', '.join(sorted(self.allowed))}); "
                "to serve under another name, start it with --allowed-host NAME"
            )
        elif scope["type"] == "websocket" or scope.get("method", "GET") not in _SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and not self._same_origin(origin, host, scope.get("scheme", "http")):
                status = 403
                problem = f"cross-site request refused: Origin {origin!r} is not this server ({host})"
        if problem is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": problem[:120]})
            return
        response = JSONResponse(error_body(scope.get("path", ""), problem), status_code=status)
        await response(scope, receive, send)

    @staticmethod
    def _same_origin(origin: str, host: str, scheme: str) -> bool:
        if origin.strip().lower() == "null":  # a sandboxed frame or a file: never this server
            return False
        parts = urlsplit(origin.strip())
        if not parts.scheme or not parts.netloc:
            return False
        # The scheme may differ behind a proxy that ends TLS; the host and port may not.
        return _netloc(parts.scheme.lower(), parts.netloc) == _netloc(scheme, host) or (
            _netloc(parts.scheme.lower(), parts.netloc) == _netloc(parts.scheme.lower(), host)
        )


_QUERY_PARAM = re.compile(r"([?&;])([^=&;\s\"'#?]*)=([^&;\s\"'#]*)")


def _hide_tokens(text: str) -> str:
    """``text`` with the value of every query parameter named ``token`` hidden, however its name
    is written (``?token=``, ``?%74oken=``, ``&Token=``, ``?tok%65n=``, ``?+token=``)."""

    def hide(match: re.Match[str]) -> str:
        name = unquote_plus(unquote_plus(match.group(2))).strip().lower()
        return f"{match.group(1)}{match.group(2)}=(hidden)" if "token" in name else match.group(0)

    return _QUERY_PARAM.sub(hide, text)


class RedactTokens(logging.Filter):
    """Hide the secret in ``?token=...`` from log lines: the ASGI server logs every WebSocket it
    accepts with its URL, and a room's WebSocket carries its seat's token there (as does a seat's
    own page, ``/play?room=...&token=...``, in the access log). Every spelling a client may send
    is hidden (``?%74oken=`` reaches the route as ``token`` too). The token is hidden in the
    record's arguments, which keep their number: the access log's formatter reads them one by one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "=" in record.msg:
            record.msg = _hide_tokens(record.msg)
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "=" in a for a in record.args):
            record.args = tuple(_hide_tokens(a) if isinstance(a, str) else a for a in record.args)
        return True


def redact_tokens_in_logs(names: Iterable[str] = ("uvicorn.error", "uvicorn.access")) -> None:
    """Put :class:`RedactTokens` on the ASGI server's loggers (once)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


class CatchErrors:
    """ASGI middleware: an exception that escapes a route before its answer started is logged and
    answered 500 in the contract's shape, and the connection stays open."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if started:  # part of an answer is out: nothing sound can follow it
                raise
            log.exception("internal error on %s %s", scope.get("method"), scope.get("path"))
            body = error_body(scope.get("path", ""), f"internal error: {type(exc).__name__} (see the server's log)")
            await JSONResponse(body, status_code=500)(scope, receive, send)
