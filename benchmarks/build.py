"""Generate the stored position sets with their optima proved by the oracle.

    python -m benchmarks.build [--sets game,random,traps] [--out benchmarks]

Writes ``game.jsonl``, ``random.jsonl`` and ``traps.jsonl``: one position per line in the JSON
contract plus ``id``, ``source``, ``tiles_in_play`` and ``optimum`` (``{"tiles": N, "value": M}``,
``null`` for "no legal move") from :mod:`benchmarks.oracle` (HiGHS), never from the solver under
test. Everything is seeded: re-running reproduces the files (the game positions depend on the
built-in AI players, so they change when those players change).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchmarks.oracle import optima
from benchmarks.positions import game_positions, random_positions, trap_positions
from rummisolve.jsonio import position_from_json

__all__ = ["SETS", "CONTRACT_KEYS", "position_of", "with_optimum", "generate", "main"]

CONTRACT_KEYS = ("rules", "table", "rack", "opened")
HERE = Path(__file__).resolve().parent

GAME_SEEDS = {2: range(1, 9), 3: range(101, 107), 4: range(201, 207)}
GAME_SAMPLES = 12
RANDOM_SEED = 4
RANDOM_COUNT = 240


def position_of(record: dict[str, Any]):
    """The Position of a stored record."""
    return position_from_json({k: record[k] for k in CONTRACT_KEYS if k in record})


def stored_records(parser: argparse.ArgumentParser, data: str, sets: str, limit: int | None) -> list[dict[str, Any]]:
    """The records of the stored sets named in ``sets`` (comma-separated) under ``data``, the first
    ``limit`` of each; a missing set is the parser's error."""
    records = []
    for name in sets.split(","):
        path = Path(data) / f"{name}.jsonl"
        if not path.is_file():
            parser.error(f"--sets: no stored set {name!r} ({path} does not exist)")
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        records.extend(json.loads(line) for line in lines[:limit])
    return records


def with_optimum(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``"optimum"`` added (both objectives, by the oracle). Twist positions have no
    oracle at full size (its enumeration is exact only on small rule sets, ``tests/support/twist_oracle.py``):
    ``"unproven": true`` and no optimum; the runner judges them by the referee alone."""
    position = position_of(record)
    if position.rules.has_twist:
        return {**record, "optimum": {"tiles": None, "value": None}, "unproven": True}
    return {**record, "optimum": optima(position)}


GAME_LINEUPS = (
    ("hard", "medium", "easy", "hard"),
    ("easy", "easy", "easy", "easy"),
    ("medium", "easy", "medium", "easy"),
)
"""Player mixes, rotated over the seeds: strong players end a round early, easy ones let the
table grow, so together they cover every stage of a game."""


def _game_records() -> Iterable[dict[str, Any]]:
    for players, seeds in GAME_SEEDS.items():
        for i, seed in enumerate(seeds):
            kinds = list(GAME_LINEUPS[i % len(GAME_LINEUPS)][:players])
            yield from game_positions(seed, players, GAME_SAMPLES, kinds=kinds)


TWIST_SEEDS = {2: range(301, 305), 3: range(401, 404), 4: range(501, 504)}


def _twist_game_records() -> Iterable[dict[str, Any]]:
    """Self-play positions under the ``twist`` preset (the AIs playing special jokers)."""
    from rummisolve.rules import TWIST

    for players, seeds in TWIST_SEEDS.items():
        for i, seed in enumerate(seeds):
            kinds = list(GAME_LINEUPS[i % len(GAME_LINEUPS)][:players])
            yield from game_positions(seed, players, GAME_SAMPLES, rules=TWIST, kinds=kinds)


SETS = {
    "game": _game_records,
    "twist": _twist_game_records,
    "random": lambda: random_positions(RANDOM_SEED, RANDOM_COUNT),
    "traps": trap_positions,
}


def generate(name: str, out: Path, progress: bool = True) -> Path:
    """Generate set ``name`` into ``out/<name>.jsonl``; return the path."""
    path = out / f"{name}.jsonl"
    start = time.perf_counter()
    records = list(SETS[name]())
    if progress:
        from tqdm import tqdm

        records = tqdm(records, desc=f"oracle {name}", unit="pos")
    lines = [json.dumps(with_optimum(r), separators=(",", ":")) for r in records]
    path.write_text("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} positions in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.build", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ", ".join(SETS))
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args(argv)
    for name in args.sets.split(","):
        if name not in SETS:
            parser.error(f"unknown set {name!r} (known: {', '.join(SETS)})")
        generate(name, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
