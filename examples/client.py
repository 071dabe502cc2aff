"""Call the rummisolve HTTP service from Python with the standard library only.

Start the service first (``pip install 'rummisolve[server]'``, then ``rummisolve serve``), then::

    python examples/client.py [http://127.0.0.1:8000] [PICTURE]

It solves a position, checks the answer with the referee, and saves a picture of it as SVG in
PICTURE (default: rummisolve-move.svg in the system's temporary folder, not the current one).
A busy server answers 503 with a ``Retry-After`` header: the client waits that long and retries.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
PICTURE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(), "rummisolve-move.svg")


class Unreachable(Exception):
    """No rummisolve service answers at ``URL``."""


def request(path: str, body: dict) -> tuple[int, bytes, str, str | None]:
    """:func:`post`, with :class:`Unreachable` when nothing answers; also returns ``Retry-After``."""
    data = json.dumps(body).encode()
    http = urllib.request.Request(URL + path, data=data, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(http, timeout=60) as response:
            return response.status, response.read(), response.headers.get("Content-Type", ""), None
    except urllib.error.HTTPError as err:  # 400 / 413 / 503: the body says what was wrong
        return err.code, err.read(), err.headers.get("Content-Type", ""), err.headers.get("Retry-After")
    except (urllib.error.URLError, OSError) as err:  # refused, unknown host, timed out
        reason = getattr(err, "reason", err)
        text = "connection refused" if isinstance(reason, ConnectionRefusedError) else str(reason)
        message = f"cannot reach the rummisolve service at {URL}: {text} (start it with: rummisolve serve)"
        raise Unreachable(message) from None


def post(path: str, body: dict) -> tuple[int, bytes, str]:
    """POST ``body`` as JSON; return (HTTP status, response bytes, content type). 4xx is not an exception."""
    status, data, content_type, _ = request(path, body)
    return status, data, content_type


def solve(position: dict, tries: int = 3) -> dict:
    """The result for ``position``; a busy server (503) is asked again after its ``Retry-After``."""
    for attempt in range(1, tries + 1):
        status, body, _, retry_after = request("/solve", position)
        if status != 503 or attempt == tries:
            break
        time.sleep(min(float(retry_after or 1), 30))
    result = json.loads(body)
    if status != 200:
        raise ValueError(result["error"])
    return result


def main() -> None:
    position = {
        "table": [["R1", "R2", "R3"], ["K7", "B7", "O7"]],
        "rack": ["R4", "R7", "J", "K12"],
        "opened": True,
        "objective": "tiles",  # or "value"
        "time_limit": 5,  # seconds; the server clamps it to its own cap
    }
    result = solve(position)
    print(f"{result['status']}: play {' '.join(result['played']) or 'nothing'} ({result['value']} points)")
    for meld in result["table"]:
        print("   ", " ".join(meld))

    # The referee agrees (it would list reasons if the table were illegal).
    board = {key: position[key] for key in ("table", "rack", "opened")}
    _, body, _ = post("/verify", {"position": board, "table": result["table"]})
    print("legal:", json.loads(body)["legal"])

    # A picture of the move: the new table with the played tiles highlighted.
    status, svg, content_type = post("/render", result | {"position": board})
    assert status == 200 and content_type.startswith("image/svg+xml")
    with open(PICTURE, "wb") as handle:
        handle.write(svg)
    print(f"picture saved to {PICTURE}")

    # Bad input is answered with a 4xx and a message naming the bad part.
    status, body, _ = post("/solve", {"rack": ["R4", "X9"]})
    print(status, json.loads(body)["error"])


if __name__ == "__main__":
    try:
        main()
    except (Unreachable, ValueError) as err:  # one line, not a traceback
        print(err, file=sys.stderr)
        sys.exit(1)
