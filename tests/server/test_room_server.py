"""Game rooms on a real ``rummisolve serve`` (uvicorn, the ``websockets`` package): the example
client plays over HTTP and WebSocket, and every acknowledged change survives ``kill -9``."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")

from .test_app import Server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "room_client.py"


def test_the_example_client_plays_a_room_over_a_real_server(tmp_path):
    srv = Server(tmp_path, "--db", str(tmp_path / "rooms.sqlite3"), "--log-level", "info")
    try:
        done = subprocess.run(
            [sys.executable, str(EXAMPLE), srv.url, "3"], capture_output=True, text=True, timeout=180, cwd=tmp_path
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert re.search(r"^room [A-Z]{6}, invite /r/[A-Z]{6}, my seat 0$", done.stdout, re.M), done.stdout
        assert "(easy: " in done.stdout  # the AI's move, pushed
        assert re.search(r"^  I (played|drew)", done.stdout, re.M)
        assert srv.alive() and "Traceback" not in srv.log()
        # The server logs the WebSocket it accepted, without the seat's token.
        assert re.search(r'"WebSocket /rooms/[A-Z]{6}/ws\?token=\(hidden\)" \[accepted\]', srv.log()), srv.log()
    finally:
        srv.client.close()
        srv.stop()


def test_the_docs_show_the_example_client():
    docs = (ROOT / "docs" / "rooms.md").read_text(encoding="utf-8")
    block = docs.split("```python\n", 1)[1].split("```", 1)[0]
    assert block.strip() in EXAMPLE.read_text(encoding="utf-8")


def test_every_acknowledged_change_of_a_room_survives_kill_9(tmp_path):
    db = str(tmp_path / "rooms.sqlite3")
    srv = Server(tmp_path, "--db", db)
    try:
        made = srv.client.post("/rooms", json={"seats": ["human", "human"], "name": "Ann"}).json()
        code = made["room"]
        bo = srv.client.post(f"/rooms/{code}/join", json={"name": "Bo"}).json()
        tokens = [made["token"], bo["token"]]
        version = bo["view"]["version"]
        acknowledged = []
        for mover in (0, 1, 0, 1):
            answer = srv.client.post(
                f"/rooms/{code}/turn",
                json={"draw": True, "version": version},
                headers={"authorization": f"Bearer {tokens[mover]}"},
            )
            assert answer.status_code == 200, answer.text
            acknowledged.append(answer.json())
            version = answer.json()["version"]
    finally:
        srv.client.close()
        srv.proc.send_signal(signal.SIGKILL)  # no shutdown, no flush
        srv.proc.wait()
        srv.stop()
    again = Server(tmp_path, "--db", db)
    try:
        seen = again.client.get(f"/rooms/{code}", headers={"authorization": f"Bearer {tokens[1]}"}).json()
        assert seen == acknowledged[-1]
        assert len(seen["log"]) == 4 and seen["version"] == version
        resumed = again.client.post(
            f"/rooms/{code}/turn",
            json={"draw": True, "version": version},
            headers={"authorization": f"Bearer {tokens[0]}"},
        )
        assert resumed.status_code == 200 and resumed.json()["version"] == version + 1
    finally:
        again.client.close()
        again.stop()
