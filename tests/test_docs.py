"""The docs cannot drift from the code: docs/cli.md's samples are the commands' real output, every
command line the docs show parses, every ``rummisolve.<name>`` they name exists, and the web app's
help page speaks of what the pages do. (The Python samples in README.md and docs/ are doctests.)"""

from __future__ import annotations

import doctest
import importlib
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummisolve.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
CLI_MD = ROOT / "docs" / "cli.md"
SAMPLED = (CLI_MD, ROOT / "docs" / "json-contract.md")
"""The docs whose console samples run here (curl's need a server: tests/server checks that the HTTP
answers are the command's)."""


@dataclass(frozen=True)
class Sample:
    """One ``$ command`` of a console block, the lines typed at its prompts and the output shown."""

    command: str
    inputs: tuple[str, ...]
    output: str


def _blocks(path: Path, kinds: tuple[str, ...]) -> list[str]:
    """The text of every fenced block of one of these kinds (``console``, ``sh``, ...)."""
    pattern = re.compile(r"^```(" + "|".join(kinds) + r")\n(.*?)^```", re.MULTILINE | re.DOTALL)
    return [match.group(2) for match in pattern.finditer(path.read_text(encoding="utf-8"))]


def console_samples(path: Path = CLI_MD) -> list[Sample]:
    """Every command of the console blocks that shows its output (``> TEXT`` lines are typed input;
    ``echo $?`` joins the command before it)."""
    samples: list[Sample] = []
    for block in _blocks(path, ("console",)):
        parts = re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]
        for part in parts:
            command, _, output = part.partition("\n")
            if command == "echo $?" and samples:
                last = samples.pop()
                samples.append(Sample(f"{last.command}; echo $?", last.inputs, last.output + output))
            elif output.strip() and not command.startswith("curl "):
                inputs = tuple(line[2:] for line in output.splitlines() if line.startswith("> "))
                samples.append(Sample(command, inputs, output))
    return samples


def command_lines() -> list[tuple[str, str]]:
    """Every ``rummisolve ...`` command of the docs' shell blocks and console prompts: (file, command)."""
    found = []
    for path in DOCS:
        for kind in ("console", "sh"):
            for block in _blocks(path, (kind,)):
                for line in block.splitlines():
                    if kind == "console" and not line.startswith("$ "):
                        continue  # output
                    found += [(path.name, command) for command in _rummisolve_commands(line.removeprefix("$ "))]
    return found


def _rummisolve_commands(line: str) -> list[str]:
    """The ``rummisolve`` commands of a shell line, without pipes, redirections and comments."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands, current, redirected = [], [], False
    for token in [*lexer, "|"]:
        if token in ("|", "&&", ";", "||"):
            if current[:1] == ["rummisolve"]:
                commands.append(shlex.join(current))
            current, redirected = [], False
        elif token in (">", "<", ">>", "&>"):
            redirected = True  # what follows is a file
        elif not redirected:
            current.append(token)
    return commands


def _with_inputs_echoed(output: str, inputs: tuple[str, ...]) -> str:
    """The output of a run fed ``inputs``, written as at a terminal: each prompt followed by its input."""
    pieces = output.split("\n> ")
    for i, typed in enumerate(inputs[: len(pieces) - 1], start=1):
        pieces[i] = f"{typed}\n{pieces[i]}"
    return "\n> ".join(pieces)


@pytest.mark.slow
@pytest.mark.parametrize("sample", [s for path in SAMPLED for s in console_samples(path)], ids=lambda s: s.command[:60])
def test_cli_md_samples_are_the_real_output(sample, tmp_path):
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", sample.command.replace("examples/", f"{ROOT}/examples/")],
        input="".join(line + "\n" for line in sample.inputs),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    got = _with_inputs_echoed(done.stdout + done.stderr, sample.inputs)
    checker = doctest.OutputChecker()
    assert checker.check_output(sample.output, got, doctest.ELLIPSIS), (
        f"docs/cli.md shows for `{sample.command}`:\n{sample.output}\nbut it prints:\n{got}"
    )


def test_the_console_samples_are_found():
    commands = [sample.command for sample in console_samples()]
    assert any(command.startswith("rummisolve demo") for command in commands)
    assert any(command.startswith("rummisolve play --rules xpress") for command in commands)
    assert any(sample.inputs == ("hint", "keep", "hint", "+ K4 K5 K6") for sample in console_samples())


@pytest.mark.parametrize(("doc", "line"), command_lines(), ids=lambda v: v[:70])
def test_every_command_line_in_the_docs_parses(doc, line):
    argv = shlex.split(line)[1:]
    try:
        build_parser().parse_args(argv)
    except SystemExit as err:
        pytest.fail(f"{doc}: `{line}` does not parse (exit {err.code})")


def test_command_lines_are_found_in_every_doc_that_has_them():
    docs = {doc for doc, _ in command_lines()}
    assert {"README.md", "cli.md"} <= docs
    assert len(command_lines()) > 40


def _dotted_names() -> set[str]:
    names = set()
    for path in DOCS:
        names |= set(re.findall(r"`(rummisolve(?:\.[A-Za-z_]\w*)+)", path.read_text(encoding="utf-8")))
    return names


@pytest.mark.parametrize("name", sorted(_dotted_names()))
def test_every_rummisolve_name_in_the_docs_exists(name):
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            assert hasattr(obj, attribute), f"the docs name {name}, which does not exist"
            obj = getattr(obj, attribute)
        return
    pytest.fail(f"the docs name {name}, which does not exist")


def test_the_help_page_speaks_of_xpress_and_rooms_as_the_pages_offer_them():
    from rummisolve.server.languages import render_page

    text = render_page("help", "en")  # the page as English readers get it (a template filled from the catalog)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text))
    assert "not on these pages" not in words
    assert "choose the xpress preset on the Play page" in words
    assert "Play with friends makes a game room" in words and "invite link" in words
