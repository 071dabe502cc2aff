"""``rummisolve demo``: solve a built-in example position and show the answer."""

from __future__ import annotations

import argparse

HELP = "Solve a built-in example position and print it with the proven-best move, step by step."

EXAMPLES = {
    "manipulate": (
        ["R3 R4 R5 R6", "K9 B9 O9 R9", "B11 B12 B13", "K7 O7 J"],
        "R7 R8 B10 O10 K5 K6 O3",
        True,
        "an opened player rearranges the table",
    ),
    "opening": (
        ["R1 R2 R3"],
        "K13 B13 O13 O11 O12 J B2 K4 R9",
        False,
        "breaking the ice: 30 points or more from the rack alone; the table is not touched",
    ),
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("example", nargs="?", choices=[*EXAMPLES, "all"], default="all", help="which example")
    parser.add_argument("--objective", choices=("tiles", "value"), default="tiles")


def run(args: argparse.Namespace) -> int:
    from rummisolve import Position, explain_solution, solve, verify

    names = list(EXAMPLES) if args.example == "all" else [args.example]
    for number, name in enumerate(names):
        table, rack, opened, about = EXAMPLES[name]
        position = Position.from_notation(table, rack, opened=opened)
        solution = solve(position, objective=args.objective)
        verdict = verify(position, solution.table)
        if number:
            print()
        print(f"== {name}: {about}")
        print(position)
        print(f"-- best move (objective: {args.objective}) --")
        print(solution)
        print(
            f"referee: {'legal' if verdict.legal else 'ILLEGAL'}; "
            f"solved in {sum(solution.timings.values()) * 1000:.1f} ms"
        )
        explanation = explain_solution(solution)
        print(f"-- how to play it: {explanation.moves} tile(s) move --")
        print(explanation)
    return 0
