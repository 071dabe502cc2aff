"""Input, output and option parsing shared by the commands."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
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


class UnreadableInput(Exception):
    """Reading the input failed (a missing file, bytes that are not UTF-8, ...); the message says so."""


def input_lines(path: str) -> Iterator[str]:
    """The lines of a file, or of standard input for ``-``, each as soon as it has been read.

    Raises :class:`UnreadableInput` (naming the input) if opening or reading fails, so that a
    caller can tell it from errors of its own output. A file is decoded line by line, so the
    lines before bytes that are not UTF-8 are still given."""
    if path == "-":
        yield from _lines("standard input", sys.stdin.readline, lambda line: line)
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError as err:
        raise UnreadableInput(f"cannot read {path}: {err}") from None
    with handle:
        yield from _lines(path, handle.readline, lambda line: line.decode("utf-8"))


def _lines(name: str, readline, decode) -> Iterator[str]:
    number = 0
    while True:
        number += 1
        try:
            line = decode(readline())
        except OSError as err:
            raise UnreadableInput(f"cannot read {name}: {err}") from None
        except UnicodeDecodeError as err:
            raise UnreadableInput(f"cannot read {name}: line {number}: {err}") from None
        if not line:
            return
        yield line


def rules_option(text: str):
    """A ``--rules`` value: a preset name or a JSON object of options; errors name ``--rules``."""
    from rummisolve.errors import RuleSetError
    from rummisolve.jsonio import rules_from_json

    text = text.strip()
    try:
        return rules_from_json(json.loads(text) if text.startswith("{") else text, "--rules")
    except json.JSONDecodeError as err:
        raise RuleSetError(f"--rules: not valid JSON ({err.msg})") from None


def json_line(obj: Any) -> str:
    """Compact one-line JSON."""
    return json.dumps(obj, separators=(",", ":"))
