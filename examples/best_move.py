"""Find the best move for a position, check it with the referee, and print it as JSON.

Run: python examples/best_move.py
"""

import json

from rummisolve import Position, RuleSet, solve, solve_json, verify

# The table's melds in play order and the mover's rack, in tile notation.
position = Position.from_notation(
    table=["R3 R4 R5 R6", "K9 B9 O9 R9", "K7 O7 J"],
    rack="R7 R8 K8 B10 O10",
    opened=True,
    rules=RuleSet(),  # the official rules; RuleSet.preset("xp") or RuleSet(wraparound=True) ...
)

for objective in ("tiles", "value"):
    solution = solve(position, objective=objective)
    assert verify(position, solution.table).legal  # solve() already did this; a frontend may too
    print(f"best move for {objective!r}:")
    print(solution)
    print()

# The same through the JSON contract that frontends in other languages use.
result = solve_json({"table": [["R1", "R2", "R3"]], "rack": ["R4", "J", "K9"], "objective": "tiles"})
print(json.dumps({key: result[key] for key in ("status", "played", "table", "value")}))
