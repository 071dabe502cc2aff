"""The attacker of ``benchmarks.load_rooms --abuse``: one greedy client on the same machine (its
own loopback address, 127.0.0.2) running beside the normal clients, bounded in every loop.

It tries what issue 47 found one client could do to deny everyone service: make rooms and games in
a loop, guess room codes, open spectator sockets to the normal rooms (their invite codes leaked)
and hold them, and send big WebSocket messages. What it counts is what it got: each answer's
status, each socket accepted or refused (and the close code), each big message's close code.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = ["Budget", "Attacker", "ATTACKER_ADDRESS"]

ATTACKER_ADDRESS = "127.0.0.2"
"""The attacker's loopback address (Linux routes all of 127/8 to this machine)."""

WS_TIMEOUT = 10.0
"""Seconds one socket operation may take (a bound on a hang)."""


@dataclass(frozen=True)
class Budget:
    """How many times the attacker tries each thing (every loop is bounded)."""

    rooms: int = 60
    games: int = 80
    guesses: int = 120
    spectators: int = 200
    big_messages: int = 12
    big_bytes: int = 1 << 20


class Attacker:
    """The attack, against the server at ``host:port`` whose normal rooms are ``codes``."""

    def __init__(
        self, host: str, port: int, codes: list[str], budget: Budget, address: str = ATTACKER_ADDRESS, seed: int = 1
    ) -> None:
        self.host, self.port, self.codes, self.budget, self.address = host, port, codes, budget, address
        self.rng = random.Random(seed)
        self.answers: dict[str, Counter] = {"rooms": Counter(), "games": Counter(), "guesses": Counter()}
        self.sockets: dict[str, Counter] = {"spectators": Counter(), "big_messages": Counter()}
        self.errors: list[str] = []
        self._open: list[Any] = []
        self._readers: list[asyncio.Task] = []

    async def run(self) -> None:
        """Every attack at once; returns once each loop has spent its budget (the spectator
        sockets accepted stay open until :meth:`close`)."""
        await asyncio.gather(
            self._make("rooms", "/rooms", {}),
            self._make("games", "/games", {"players": "human,easy"}),
            self._spectate(),
        )
        await self._guess()  # after the sockets: past the guesses' limit, the address gets no room at all
        await self._big_messages()

    async def _http(self) -> Any:
        from benchmarks.load_rooms import Http

        return Http(self.host, self.port, local=self.address)

    async def _make(self, kind: str, path: str, body: dict[str, Any]) -> None:
        http = await self._http()
        try:
            for _ in range(getattr(self.budget, kind)):
                try:
                    status, _ = await http.call("POST", path, body)
                except (OSError, TimeoutError, ValueError) as err:
                    self.errors.append(f"POST {path}: {type(err).__name__}: {err}")
                    continue
                self.answers[kind][str(status)] += 1
        finally:
            await http.close()

    async def _guess(self) -> None:
        http = await self._http()
        letters = string.ascii_uppercase
        try:
            for _ in range(self.budget.guesses):
                code = "".join(self.rng.choice(letters) for _ in range(6))
                try:
                    status, _ = await http.call("GET", f"/rooms/{code}")
                except (OSError, TimeoutError, ValueError) as err:
                    self.errors.append(f"GET /rooms/{code}: {type(err).__name__}: {err}")
                    continue
                self.answers["guesses"][str(status)] += 1
        finally:
            await http.close()

    async def _spectate(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        for i in range(self.budget.spectators):
            code = self.codes[i % len(self.codes)]
            url = f"ws://{self.host}:{self.port}/rooms/{code}/ws"
            try:
                ws = await connect(url, open_timeout=WS_TIMEOUT, close_timeout=2, local_addr=(self.address, 0))
                first = json.loads(await asyncio.wait_for(ws.recv(), WS_TIMEOUT))
            except (OSError, TimeoutError, ConnectionClosed, ValueError) as err:
                self.sockets["spectators"][f"failed: {type(err).__name__}"] += 1
                continue
            if "error" in first:
                try:
                    await asyncio.wait_for(ws.recv(), WS_TIMEOUT)
                except ConnectionClosed as closed:
                    self.sockets["spectators"][f"refused {closed.rcvd.code if closed.rcvd else None}"] += 1
                except TimeoutError:
                    self.sockets["spectators"]["refused, not closed"] += 1
                await ws.close()
                continue
            self.sockets["spectators"]["accepted"] += 1
            self._open.append(ws)
            self._readers.append(asyncio.ensure_future(self._drain(ws)))

    @staticmethod
    async def _drain(ws: Any) -> None:
        """Read the pushes (an attacker that reads costs the server the most: every push is sent)."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for _ in ws:
                pass
        except ConnectionClosed:
            pass

    async def _big_messages(self) -> None:
        """A big message on each of the first sockets held: each one's close code."""
        from websockets.exceptions import ConnectionClosed

        for ws in self._open[: self.budget.big_messages]:
            try:
                await asyncio.wait_for(ws.send("x" * self.budget.big_bytes), WS_TIMEOUT)
                await asyncio.wait_for(ws.wait_closed(), WS_TIMEOUT)
            except ConnectionClosed:
                pass
            except TimeoutError:
                self.sockets["big_messages"]["still open"] += 1
                continue
            code = ws.close_code
            self.sockets["big_messages"][f"closed {code}"] += 1

    async def close(self) -> None:
        """Close every socket still held."""
        await asyncio.gather(*(ws.close() for ws in self._open), return_exceptions=True)
        for reader in self._readers:
            reader.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)

    def report(self) -> dict[str, Any]:
        """What the attacker got: answers by status, sockets by outcome, its own errors."""
        refused = sum(n for kind in self.answers.values() for s, n in kind.items() if s == "429")
        refused += sum(n for s, n in self.sockets["spectators"].items() if s.startswith("refused"))
        return {
            "address": self.address,
            "budget": self.budget.__dict__,
            "answers": {k: dict(sorted(v.items())) for k, v in self.answers.items()},
            "sockets": {k: dict(sorted(v.items())) for k, v in self.sockets.items()},
            "refusals": refused,
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
        }
