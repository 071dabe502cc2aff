"""Input and output shared by the JSON commands (``solve``, ``verify``)."""

from __future__ import annotations

import json
import sys
from typing import Any


def read_text(path: str) -> tuple[str | None, str | None]:
    """``(text, None)`` from a file, or standard input for ``-``; ``(None, error message)`` if unreadable."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            return sys.stdin.read(), None
        with open(path, encoding="utf-8") as handle:
            return handle.read(), None
    except (OSError, UnicodeDecodeError) as err:
        return None, f"cannot read {name}: {err}"


def json_line(obj: Any) -> str:
    """Compact one-line JSON."""
    return json.dumps(obj, separators=(",", ":"))
