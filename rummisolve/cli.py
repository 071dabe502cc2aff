"""The ``rummisolve`` command: thin subcommands over the library.

Each subcommand lives in ``rummisolve/commands/<name>.py`` and provides ``HELP`` (one line),
``configure(parser)`` and ``run(args) -> int``. Command modules must import cheaply: heavy
imports (OR-Tools, a web framework) belong inside ``run``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rummisolve import __version__
from rummisolve.errors import UnavailableError

COMMANDS = ("demo", "solve", "verify", "play", "tournament", "analyse", "serve", "render")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummisolve",
        description="Find the best Rummikub move for a position, prove it optimal, and referee turns.",
    )
    parser.add_argument("--version", action="version", version=f"rummisolve {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"rummisolve.commands.{name}")
        # argparse %-formats help strings, not descriptions
        command = sub.add_parser(name, help=module.HELP.replace("%", "%%"), description=module.HELP)
        module.configure(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status. Beyond each command's own: 130 on Ctrl-C, 1 with a
    one-line message when standard output cannot be written (closed, a full disk), and 141, quietly,
    when it is a pipe whose reader has gone (``| head -1``: a shell's status for a SIGPIPE death)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return 2
    name = f"rummisolve {args.command}"
    _reserve_standard_descriptors()
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        status = int(args._run(args) or 0)
        sys.stdout.flush()  # a write that fails only when flushed at exit is an error too
        return status
    except OutputError as err:
        _silence_stdout()
        if err.errno == errno.EPIPE:
            return 141
        print(f"{name}: cannot write to standard output: {err.reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
    except OSError as err:  # e.g. a file other than standard output: say so, without a traceback
        print(f"{name}: {err.strerror or err}", file=sys.stderr)
        return 1
    except ImportError as err:  # a missing or too old dependency: say which, without a traceback
        print(f"{name}: {err}", file=sys.stderr)
        return 1
    except UnavailableError as err:  # e.g. worker processes that cannot start
        print(f"{name}: {err}", file=sys.stderr)
        return 1
    finally:
        sys.stdout = stdout


class OutputError(Exception):
    """Writing to standard output failed; ``errno`` and ``reason`` say why."""

    def __init__(self, errno_: int | None, reason: str) -> None:
        super().__init__(reason)
        self.errno = errno_
        self.reason = reason


class _Output:
    """Standard output as the commands see it: a failed write or flush is an :class:`OutputError`,
    told apart from errors of other files; a closed standard output (``sys.stdout`` is ``None``) is
    one too, at the first write, instead of every answer silently lost."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputError(errno.EBADF, "it is closed")
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as err:  # ValueError: a closed file object
            raise _output_error(err) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as err:
            raise _output_error(err) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _output_error(err: Exception) -> OutputError:
    if isinstance(err, OSError):
        return OutputError(err.errno, err.strerror or str(err))
    return OutputError(errno.EBADF, "it is closed")


def _reserve_standard_descriptors() -> None:
    """Point closed descriptors 0-2 at the null device, so that no file or pipe opened later takes
    their numbers (``sys.stdin``/``sys.stdout`` stay ``None``: the commands still see them closed)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor: fd, usually
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)


def _silence_stdout() -> None:
    """Point stdout at the null device, so that flushing it again at exit does not fail anew."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
