"""Input, output and option parsing shared by the commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummisolve.rules import RuleSet


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


MAX_LINE_BYTES = 1_000_000
"""The default ``--max-line-bytes``: 1 MB (10^6 bytes), some hundred times the largest position."""

_CHUNK = 1 << 16
"""How much of an over-long line is read at a time while skipping it."""


def input_lines(path: str, max_line_bytes: int | None = MAX_LINE_BYTES) -> Iterator[str]:
    """The lines of a file, or of standard input for ``-``, each as soon as it has been read.

    Decoded as UTF-8 line by line, bytes that are not UTF-8 kept as lone surrogates
    (``surrogateescape``): :func:`rummisolve.jsonio.stream_documents` reports such a line as an
    error of its own and answers the others. A line of more than ``max_line_bytes`` bytes (its
    line break not counted) is read in bounded chunks and dropped, and an
    :class:`~rummisolve.jsonio.OverlongLine` stands in its place, which ``stream_documents``
    answers as that line's error. Raises :class:`UnreadableInput` (naming the input) if opening
    or reading fails, so that a caller can tell it from errors of its own output."""
    if path == "-":
        stdin = sys.stdin
        if stdin is None:
            raise UnreadableInput("cannot read standard input: it is closed")
        raw = getattr(stdin, "buffer", None)
        if raw is None:  # a text stream standing in for stdin (tests, embedding)
            yield from _lines("standard input", stdin.readline, lambda line: line, max_line_bytes)
        else:
            yield from _lines("standard input", raw.readline, _decode, max_line_bytes)
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError as err:
        raise UnreadableInput(f"cannot read {path}: {err}") from None
    with handle:
        yield from _lines(path, handle.readline, _decode, max_line_bytes)


def _decode(line: bytes) -> str:
    return line.decode("utf-8", "surrogateescape")


def _lines(name: str, readline: _ReadLine, decode: Callable[[Any], str], limit: int | None) -> Iterator[str]:
    while True:
        try:
            line = _read_line(readline, limit)
            if not isinstance(line, str):
                line = decode(line)
        except (OSError, ValueError) as err:  # ValueError: reading a closed stream
            raise UnreadableInput(f"cannot read {name}: {err}") from None
        if not line:
            return
        yield line


_ReadLine = Callable[..., Any]
"""A stream's ``readline``: bytes from a binary stream, str from a text stream."""


def _read_line(readline: _ReadLine, limit: int | None) -> bytes | str:
    """One line (bytes, or str from a text stream), or an OverlongLine for one longer than ``limit``."""
    if limit is None:
        return readline()
    line = readline(limit + 2)  # room for the line break, \r\n at most
    breaks = b"\r\n" if isinstance(line, bytes) else "\r\n"
    if len(line) <= limit or len(line.rstrip(breaks)) <= limit:
        return line
    from rummisolve.jsonio import OverlongLine

    size = len(line.rstrip(breaks))
    while not line.endswith(breaks[-1:]):
        line = readline(_CHUNK)
        if not line:
            break
        size += len(line.rstrip(breaks))
    return OverlongLine(f"{size} bytes long, more than the limit of {limit} (--max-line-bytes)")


def rules_option(text: str) -> RuleSet:
    """A ``--rules`` value: a preset name or a JSON object of options; errors name ``--rules``."""
    from rummisolve.errors import RuleSetError
    from rummisolve.jsonio import rules_from_json

    text = text.strip()
    try:
        obj = json.loads(text) if text.startswith("{") else text
    except json.JSONDecodeError as err:
        raise RuleSetError(f"--rules: not valid JSON ({err.msg})") from None
    except ValueError as err:  # e.g. a number too long for Python to read
        raise RuleSetError(f"--rules: not acceptable JSON ({err})") from None
    except RecursionError:
        raise RuleSetError("--rules: JSON nested too deeply") from None
    try:
        return rules_from_json(obj, "--rules")
    except RecursionError:
        raise RuleSetError("--rules: JSON nested too deeply") from None


def number_option(
    kind: type[int] | type[float], what: str, low: float, high: float, inclusive_low: bool = True
) -> Callable[[str], float]:
    """An argparse ``type`` for a number of ``kind`` (``int`` or ``float``) from ``low`` to ``high``
    (``low`` itself excluded unless ``inclusive_low``); messages say ``what`` it counts. NaN never passes."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
        above = value >= low if inclusive_low else value > low
        if not (above and value <= high):  # also NaN
            bound = "at least" if inclusive_low else "more than"
            limit = "" if high == float("inf") else f" and at most {high:g}"
            raise argparse.ArgumentTypeError(f"must be {bound} {low:g}{limit}, not {text!r}")
        return value

    return parse


THINK = number_option(float, "a number of seconds", 0, 60, inclusive_low=False)
"""A ``--think`` value: the expert AI's budget per move, more than 0 and at most 60 seconds."""


MAX_LINE = number_option(int, "a number of bytes", 1, float("inf"))
"""A ``--max-line-bytes`` value: a whole number of at least 1."""


def add_max_line_bytes(parser: argparse.ArgumentParser) -> None:
    """The ``--max-line-bytes`` option of the commands that read JSON Lines."""
    parser.add_argument(
        "--max-line-bytes",
        type=MAX_LINE,
        default=MAX_LINE_BYTES,
        metavar="N",
        help=f"a longer input line (or value spread over lines) is an error line, read without keeping it "
        f"(default {MAX_LINE_BYTES}, 1 MB)",
    )


def json_line(obj: Any) -> str:
    """Compact one-line JSON."""
    return json.dumps(obj, separators=(",", ":"))
