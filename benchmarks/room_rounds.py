"""What a game room of many rounds costs: its stored size, a cold load, a change's save and a view.

Plays one two-seat room (standard rules, no AI) for ``--rounds`` rounds in this process, then
``--moves`` moves into the next, each seat playing the load test's greedy melds from its rack
(:func:`benchmarks.load_rooms.rack_melds`) or drawing, then measures, over ``--repeat`` runs (the median), the room as the server handles it:

- ``stored_bytes``: the room's row (its JSON, as the store writes it);
- ``cold_load_ms``: the row decoded and the room rebuilt (:meth:`Room.from_json`), as on a cache miss;
- ``save_ms``: one change's serialisation, as :meth:`RoomCache._commit` does it: the room's
  fingerprint before and after the change (``Room.fingerprint``; before issue 47, the whole
  room's JSON text) and the row written;
- ``view_ms`` and ``view_bytes``: one seat's view (what a GET answers and a push sends).

    python -m benchmarks.room_rounds [--rounds 235] [--moves 20] [--repeat 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.load_rooms import rack_melds  # noqa: E402


def play_room(rounds: int, moves: int, seed: int):  # noqa: ANN201 (the Room type is imported late)
    """A two-seat room played for ``rounds`` finished rounds, then ``moves`` moves into the next
    (fewer if it ends sooner)."""
    from rummisolve.rules import STANDARD
    from rummisolve.server.rooms import Room

    rng = random.Random(seed)
    now = 1_000.0
    room, _, _ = Room.new("ABCDEF", STANDARD, ["human", "human"], "a", now)
    room.join("b", now)
    for _ in range(rounds):
        while room.status != "over":
            _move(room, rng, now)
            now += 1
        room.next_round(now)
    for _ in range(moves):
        if room.status == "over":  # a round may end sooner
            break
        _move(room, rng, now)
    return room


def _move(room, rng: random.Random, now: float) -> None:  # noqa: ANN001
    from rummisolve.jsonio import table_to_json
    from rummisolve.rules import STANDARD

    seat = room.game.current
    view = room.game.view(seat)
    melds = rack_melds([str(t) for t in view.rack], view.opened, STANDARD.initial_threshold)
    if melds and rng.random() < 0.9:
        room.play(seat, [*table_to_json(view.table), *melds], None, now)
    else:
        room.draw(seat, "pool", now)


def save(room) -> None:  # noqa: ANN001
    """The serialisation of one change of ``room`` (see the module's docstring)."""
    fingerprint = getattr(room, "fingerprint", None)
    if fingerprint is None:  # before rooms had one: the whole room's text before and after
        fingerprint = lambda: json.dumps(room.to_json())  # noqa: E731
    fingerprint()
    fingerprint()
    json.dumps(room.to_json())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=235)
    parser.add_argument("--moves", type=int, default=20, help="moves into the round after them")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from rummisolve.server.room_views import room_view
    from rummisolve.server.rooms import Room

    room = play_room(args.rounds, args.moves, args.seed)
    text = json.dumps(room.to_json())

    def timed(work) -> float:  # noqa: ANN001
        runs = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            work()
            runs.append((time.perf_counter() - start) * 1000)
        return round(statistics.median(runs), 2)

    view = room_view(room, 0, 1, 1_000.0)
    figures = {
        "rounds": args.rounds,
        "moves": len(room.game.events),
        "stored_bytes": len(text),
        "cold_load_ms": timed(lambda: Room.from_json(json.loads(text))),
        "save_ms": timed(lambda: save(room)),
        "view_ms": timed(lambda: json.dumps(room_view(room, 0, 1, 1_000.0))),
        "view_bytes": len(json.dumps(view)),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
