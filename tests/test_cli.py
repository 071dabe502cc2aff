"""The ``rummisolve`` command itself: help for every subcommand, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from rummisolve.cli import COMMANDS, build_parser, main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rummisolve", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_every_command_is_built():
    parser = build_parser()
    choices = parser._subparsers._group_actions[0].choices
    assert set(choices) == set(COMMANDS)


@pytest.mark.parametrize("args", [(), ("--help",), *[(name, "--help") for name in COMMANDS]])
def test_help_never_fails(args):
    done = run(*args)
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 2), done.stderr
    assert "usage: rummisolve" in done.stdout + done.stderr


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.startswith("rummisolve ")


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("demo",), ("solve", "-")])
def test_a_full_disk_is_one_line_not_a_traceback(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rummisolve", *args],
            input='{"rack": ["R1", "R2", "R3"]}\n',
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr.strip() == f"rummisolve {args[0]}: cannot write to standard output: No space left on device"


@pytest.mark.parametrize("command", ["solve", "verify"])
def test_a_closed_standard_input_is_an_error_line(command):
    import os

    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", command, "-"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(0),  # noqa: PLW1509 (the child's stdin only)
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 1
    assert "cannot read standard input: it is closed" in done.stdout


def test_help_shows_percent_signs_once(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


def test_serve_on_a_taken_port_is_one_line_and_no_address():
    pytest.importorskip("fastapi")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--db", ":memory:"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1 and done.stdout == ""  # no address printed for a page that is not there
    assert done.stderr == (
        f"rummisolve serve: cannot listen on 127.0.0.1:{port}: "
        "the port is taken (another server runs there? choose another with --port)\n"
    )
