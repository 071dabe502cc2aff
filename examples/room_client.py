"""Play in a game room of the rummisolve server: the standard library, and ``websockets`` for the push.

Start the server first (``pip install 'rummisolve[server]'``, then ``rummisolve serve``), then::

    python examples/room_client.py [http://127.0.0.1:8000] [TURNS]

It makes a room against the easy AI, follows it over the WebSocket (one line per view pushed),
and on each of its turns plays the best move rummisolve finds for its rack (``POST /solve``), or
draws; it stops after TURNS of its turns (default 5) or when the round is over. docs/rooms.md
describes the protocol.
"""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.error
import urllib.request

import websockets

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
TURNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def call(method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    """One JSON request; its status and body (a refusal is ``{"error": ...}``)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


def my_turn(code: str, token: str, view: dict) -> None:
    """Play the best move for my rack, or draw when there is none (or it is refused)."""
    position = {"rules": view["rules"], "table": view["table"], "rack": view["rack"]}
    position["opened"] = view["players"][view["seat"]]["opened"]
    _, best = call("POST", "/solve", position)
    if best.get("played"):
        status, answer = call(
            "POST", f"/rooms/{code}/turn", {"table": best["table"], "version": view["version"]}, token
        )
        if status == 200:
            print(f"  I played {' '.join(best['played'])}")
            return
        print(f"  refused ({status}): {answer['error']}")
    status, answer = call("POST", f"/rooms/{code}/turn", {"draw": True, "version": view["version"]}, token)
    print("  I drew" if status == 200 else f"  refused ({status}): {answer['error']}")


async def play() -> None:
    status, room = call("POST", "/rooms", {"seats": ["human", "easy"], "name": "Ann"})
    if status != 201:
        raise SystemExit(f"no room: {room['error']}")
    code, seat, token = room["room"], room["seat"], room["token"]
    print(f"room {code}, invite {room['invite']}, my seat {seat}")
    turns = 0
    socket_url = URL.replace("http", "ws", 1) + f"/rooms/{code}/ws?token={token}"
    async with websockets.connect(socket_url) as socket:
        async for message in socket:
            view = json.loads(message)
            last = view["last"]
            done = f" ({last['name']}: {last['type']})" if last else ""
            print(f"version {view['version']}: {view['status']}, seat {view['turn']} to move{done}")
            if view["status"] == "over" or turns == TURNS:
                break
            if view["status"] == "playing" and view["turn"] == seat:
                turns += 1
                await asyncio.to_thread(my_turn, code, token, view)


if __name__ == "__main__":
    asyncio.run(play())
