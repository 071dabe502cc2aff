"""Referee proposed turns: is each legal, and if not, every reason why.

Run: python examples/referee.py
"""

from rummisolve import Position, verify

position = Position.from_notation(["R1 R2 R3", "K7 B7 O7"], "R4 K9 B9", opened=True)

turns = {
    "extend a run": ["R1 R2 R3 R4", "K7 B7 O7"],
    "a two-tile meld": ["R1 R2 R3", "K7 B7 O7", "K9 B9"],
    "a tile taken off the table": ["R1 R2 R3 R4", "K7 B7"],
}
for name, table in turns.items():
    verdict = verify(position, table)
    print(f"{name}: {'legal' if verdict.legal else 'illegal'}")
    for reason in verdict.reasons:
        print(f"  {reason.code}: {reason.message}")
