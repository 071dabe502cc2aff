"""The ``rummisolve`` command: thin subcommands over the library.

Each subcommand lives in ``rummisolve/commands/<name>.py`` and provides ``HELP`` (one line),
``configure(parser)`` and ``run(args) -> int``. Command modules must import cheaply: heavy
imports (OR-Tools, a web framework) belong inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rummisolve import __version__

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
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:  # e.g. writing to a full disk: say so, without a traceback
        _silence_stdout()
        print(f"rummisolve {args.command}: {err.strerror or err}", file=sys.stderr)
        return 1
    except ImportError as err:  # a missing or too old dependency: say which, without a traceback
        print(f"rummisolve {args.command}: {err}", file=sys.stderr)
        return 1


def _silence_stdout() -> None:
    """Point stdout at the null device, so that flushing it again at exit does not fail anew."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
