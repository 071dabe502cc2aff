"""Reading JSON documents: one JSON value (which may span lines) or JSON Lines, from a text or
streamed line by line, each bad line an error naming it in its place (re-exported by
:mod:`rummisolve.jsonio`, which decodes the values).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from rummisolve.errors import JsonInputError

__all__ = ["read_documents", "stream_documents", "OverlongLine"]


def read_documents(text: str) -> Iterator[Any]:
    """The JSON inputs in ``text``: one JSON value (which may span lines), or JSON Lines.

    Yields each decoded value in order; a line that is not JSON yields a :class:`JsonInputError`
    (naming the line) in its place instead of stopping the stream. Blank lines are skipped, and
    so is a byte-order mark at the start. One broken value spread over lines gets one error (its
    first line is not a value on its own, and no other line is a JSON object on its own)."""
    text = text.removeprefix("\ufeff")
    stripped = text.strip()
    if not stripped:
        return
    if not _has_bad_bytes(stripped):
        try:
            yield json.loads(stripped)
            return
        except json.JSONDecodeError as err:
            whole = err
        except (ValueError, RecursionError):  # an over-long number, absurd nesting
            whole = None
        lines = text.splitlines()
        first = next(line for line in lines if line.strip())
        if whole is not None and _incomplete(first) and not any(_is_object(line) for line in lines if line != first):
            yield JsonInputError(f"line {whole.lineno}: not valid JSON ({whole.msg} at column {whole.colno})")
            return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield _line_document(number, line)


class OverlongLine(str):
    """Stands in, among the lines given to :func:`stream_documents`, for a line that was too long
    to keep (the reader skipped it): it is answered with an error naming the line and ``reason``."""

    reason: str

    def __new__(cls, reason: str) -> OverlongLine:
        line = super().__new__(cls, "(a line too long to read)\n")
        line.reason = reason
        return line


def stream_documents(lines: Iterable[str], max_bytes: int | None = None) -> Iterator[Any]:
    """:func:`read_documents` over lines as they arrive (each with its line break).

    Unless the first non-blank line is the start of a JSON value spread over lines (a value
    that is incomplete, not broken), the input is JSON Lines: each line is decoded as soon as it
    has been read, so a program that writes one position and waits for its answer gets it, bad
    lines included. A value spread over lines is read to the end of the input and decoded as
    :func:`read_documents` does; with ``max_bytes``, one of more than that many bytes (UTF-8) is
    an error instead, and is not kept. An :class:`OverlongLine` is an error naming its line."""
    lines = iter(lines)
    consumed: list[str] = []
    for line in lines:
        consumed.append(line.removeprefix("\ufeff") if not consumed and not isinstance(line, OverlongLine) else line)
        if line.strip():
            break
    else:
        return
    first = consumed[-1].rstrip("\r\n")
    if not isinstance(consumed[-1], OverlongLine) and _incomplete(first):
        yield from _spread_value(consumed, lines, max_bytes)
        return
    yield _line_document(len(consumed), consumed[-1] if isinstance(consumed[-1], OverlongLine) else first)
    for number, line in enumerate(lines, start=len(consumed) + 1):
        if isinstance(line, OverlongLine):
            yield _line_document(number, line)
        elif line.strip():
            yield _line_document(number, line.rstrip("\r\n"))


def _spread_value(consumed: list[str], lines: Iterator[str], max_bytes: int | None) -> Iterator[Any]:
    """The documents of a JSON value spread over lines (``consumed`` and the rest of ``lines``)."""
    if max_bytes is None:
        yield from read_documents("".join(consumed) + "".join(lines))
        return
    first = len(consumed)
    kept: list[str] = []
    size = 0
    for line in itertools.chain(consumed, lines):
        size += max_bytes + 1 if isinstance(line, OverlongLine) else len(line.encode("utf-8", "surrogateescape"))
        if size > max_bytes:
            for _ in lines:  # the rest of the input belongs to the same value: skip it, unkept
                pass
            yield JsonInputError(
                f"line {first}: a JSON value spread over lines, more than {max_bytes} bytes in all "
                "(the limit for one line or value)"
            )
            return
        kept.append(line)
    yield from read_documents("".join(kept))


def _incomplete(line: str) -> bool:
    """Whether ``line`` is the start of a JSON value that goes on after it (e.g. ``{`` or
    ``"rack": [``), as opposed to a value or something no further line can mend."""
    if _has_bad_bytes(line):
        return False
    try:
        json.loads(line)
    except json.JSONDecodeError as err:
        return err.pos >= len(line.rstrip())
    except (ValueError, RecursionError):
        return False
    return False


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


_BAD_BYTE = re.compile("[\udc80-\udcff]")
"""What undecodable input bytes become when read with ``errors="surrogateescape"``."""


def _has_bad_bytes(text: str) -> bool:
    return _BAD_BYTE.search(text) is not None


def _line_document(number: int, line: str) -> Any:
    """One line's JSON value, or a :class:`JsonInputError` naming the line."""
    if isinstance(line, OverlongLine):
        return JsonInputError(f"line {number}: {line.reason}")
    bad = _BAD_BYTE.search(line)
    if bad is not None:
        byte = ord(bad.group()) - 0xDC00
        return JsonInputError(f"line {number}: not UTF-8 text (byte 0x{byte:02x} at column {bad.start() + 1})")
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        return JsonInputError(f"line {number}: not valid JSON ({err.msg} at column {err.colno})")
    except ValueError as err:
        return JsonInputError(f"line {number}: not acceptable JSON ({err})")
    except RecursionError:
        return JsonInputError(f"line {number}: JSON nested too deeply")
