"""Saves written by main before issue 48's Match (run with PYTHONPATH=/path/to/that/checkout)."""

import json
import sys
from pathlib import Path


def main() -> None:
    # the package of that checkout (XpressMatch is gone since issue 48), imported only when run
    import rummisolve
    from rummisolve.game.engine import Game
    from rummisolve.server.dice_session import DiceSession
    from rummisolve.server.rooms import Room
    from rummisolve.server.session import Session
    from rummisolve.xpress import XpressMatch  # type: ignore[attr-defined]  # gone since issue 48

    out = Path(sys.argv[1])

    s = Session.new(["human", "easy"], seed=11)
    while not s.game.finished:
        s.draw() if s.game.current == s.human else s.advance()
    s.next_round()
    for _ in range(2):
        s.draw() if s.game.current == s.human else s.advance()
    (out / "session_practice.json").write_text(json.dumps(s.to_json()))

    m = XpressMatch(games=3, seed=5)
    while not m.game.finished:
        m.game.pass_turn()
    m.next_game()
    m.game.pass_turn()
    (out / "xpress_match.json").write_text(json.dumps(m.to_json()))

    d = DiceSession.new(["human", "easy"], seed=3)
    while not d.game.finished:
        if d.game.current == d.human:
            if not d.game.state.rolled:
                d.roll([])
            d.pass_turn()
        else:
            d.advance()
    d.next_round()
    (out / "xpress_session_practice.json").write_text(json.dumps(d.to_json()))

    g = Game(2, seed=9, names=["you", "medium"])
    for _ in range(4):
        g.draw()
    (out / "terminal_game.json").write_text(json.dumps(g.to_json()))

    room, seat, token = Room.new("ABCDEF", rummisolve.rules.STANDARD, ["human", "easy"], "ann", 0.0)
    while not room.game.finished:
        due = room.ai_to_move()
        if due is None:
            room.draw(room.game.current, "pool", 0.0)
        else:
            mover, player, view = due
            room.ai_move(mover, player.choose(view), view, 0.0, player=player)
    room.next_round(0.0)
    if room.ai_to_move() is None:
        room.draw(room.game.current, "pool", 0.0)
    (out / "room.json").write_text(json.dumps(room.to_json()))


if __name__ == "__main__":
    main()
