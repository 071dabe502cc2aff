"""A smaller model per position (issue 28, part 1): what it saves.

    python -m benchmarks.model_size [--sets game] [--limit N] [--rounds 3]

Two measures on the stored positions that reach CP-SAT (both objectives), CPU milliseconds:

- **Kept melds substituted** (shipped): ``rummisolve.solve`` end to end with the kept melds
  substituted into the conservation rows, against the rows ``kept <= x[s]``
  (``rummisolve.solver.probe.ModelVariant(substitute_kept=False)``), the two alternating solve by solve for
  ``--rounds`` rounds (best round of each); the answers must agree (status, the objective's
  value, melds kept).
- **Variables fixed at 0 dropped** (not shipped): the model's variable count and CP-SAT's load
  time (stopped at once) on the model as built against the same model with every variable fixed
  at 0 removed and the rest renumbered, and how long that renumbering takes in Python.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model_helper as cmh

from benchmarks.build import position_of, stored_records
from benchmarks.run import load_average
from rummisolve.solver import probe

__all__ = ["compact", "measure", "main"]

HERE = Path(__file__).resolve().parent


def compact(proto: cmh.CpModelProto) -> cmh.CpModelProto:
    """``proto`` without its variables fixed at 0 (linear rows and objective only), renumbered."""
    kept = [i for i, v in enumerate(proto.variables) if list(v.domain) != [0, 0]]
    new_index = {old: new for new, old in enumerate(kept)}
    out = cmh.CpModelProto()
    out.variables.extend([proto.variables[i] for i in kept])

    def terms(variables, coeffs) -> tuple[list[int], list[int]]:
        pairs = [(new_index[v], c) for v, c in zip(variables, coeffs) if v in new_index]
        return [v for v, _ in pairs], [c for _, c in pairs]

    rows = []
    for row in proto.constraints:
        variables, coeffs = terms(row.linear.vars, row.linear.coeffs)
        if not variables:
            continue
        copy = cmh.ConstraintProto()
        copy.copy_from(row)
        copy.linear.vars.clear()
        copy.linear.coeffs.clear()
        copy.linear.vars.extend(variables)
        copy.linear.coeffs.extend(coeffs)
        literals = [new_index[v] for v in row.enforcement_literal]
        copy.enforcement_literal.clear()
        copy.enforcement_literal.extend(literals)
        rows.append(copy)
    out.constraints.extend(rows)
    variables, coeffs = terms(proto.objective.vars, proto.objective.coeffs)
    out.objective.vars.extend(variables)
    out.objective.coeffs.extend(coeffs)
    return out


def _cpu_ms(function, *args):
    start = time.process_time()
    result = function(*args)
    return (time.process_time() - start) * 1000, result


def _answer(solution, objective: str) -> tuple:
    """What two optimal answers share: status, the objective's value and the melds kept (moves
    that tie on both may differ)."""
    primary = solution.value if objective == "value" else len(solution.played)
    return solution.status, primary, len(solution.kept)


def measure(positions, rounds: int) -> dict[str, list[float]]:
    """Per solve that reaches CP-SAT: the figures described in the module docstring."""
    rows: dict[str, list[float]] = {
        key: [] for key in ("substituted", "rows", "variables", "compact_variables", "load", "compact_load", "renumber")
    }
    for position in positions:
        for objective in ("tiles", "value"):
            model = probe.model_of(position, objective)
            if model is None:
                continue
            best = {True: float("inf"), False: float("inf")}
            answers = {}
            for _ in range(rounds):
                for switch in (True, False):
                    variant = probe.ModelVariant(substitute_kept=switch)
                    ms, solution = _cpu_ms(probe.solve_variant, position, objective, variant)
                    best[switch] = min(best[switch], ms)
                    answers[switch] = _answer(solution, objective)
            if answers[True] != answers[False]:
                raise AssertionError(f"substituted and row answers differ: {answers} for {position!r}")
            rows["substituted"].append(best[True])
            rows["rows"].append(best[False])
            renumber, smaller = _cpu_ms(compact, model.proto)
            rows["renumber"].append(renumber)
            rows["variables"].append(len(model.proto.variables))
            rows["compact_variables"].append(len(smaller.variables))
            small = probe.Model(smaller, model.eager)
            load, compact_load = float("inf"), float("inf")
            for _ in range(rounds):
                load = min(load, _cpu_ms(probe.load, model)[0])
                compact_load = min(compact_load, _cpu_ms(probe.load, small)[0])
            rows["load"].append(load)
            rows["compact_load"].append(compact_load)
    return rows


def _quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"{statistics.median(ordered):.2f} | {at(0.9):.2f} | {at(0.99):.2f} | {sum(ordered):.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.model_size", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="game", help="stored sets, comma-separated (default: game)")
    parser.add_argument("--limit", type=int, default=None, help="positions per set (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per solve (default: 3)")
    args = parser.parse_args(argv)
    records = stored_records(parser, str(HERE), args.sets, args.limit)
    positions = [position_of(record) for record in records]
    rows = measure(positions, args.rounds)
    print(f"{len(rows['rows'])} solves that reach CP-SAT; CPU ms (best of {args.rounds}); load {load_average()}")
    print("\n| measure | p50 | p90 | p99 | total |\n|---|---|---|---|---|")
    for key, label in (
        ("substituted", "solve, kept melds substituted (shipped)"),
        ("rows", "solve, keep rows"),
        ("load", "CP-SAT load, model as built"),
        ("compact_load", "CP-SAT load, fixed-0 variables dropped"),
        ("renumber", "renumbering in Python"),
        ("variables", "variables, as built"),
        ("compact_variables", "variables, fixed-0 dropped"),
    ):
        print(f"| {label} | {_quantiles(rows[key])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
