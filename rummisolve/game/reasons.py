"""The referee's reasons as a player reads them, in the terminal and on the play page alike.

A :class:`~rummisolve.referee.Reason`'s message is written for programs (the JSON contract keeps
it so): melds are indexed from 0 as ``table[1]``, and a meld's problem starts with its code
(``too_short: 2 tile(s) ...``). A player sees the melds numbered from 1 as on screen
(``meld 2``) and no codes.
"""

from __future__ import annotations

import re
from typing import Any

from rummisolve.melds import MELD_REASONS

__all__ = ["for_people"]

_TABLE_INDEX = re.compile(r"table\[(\d+)\]")


def for_people(reason: Any) -> str:
    """A reason (a :class:`~rummisolve.referee.Reason`, or a message) as a player reads it:
    ``table[1] ... : too_short: 2 tile(s)`` becomes ``meld 2 ...: 2 tile(s)``."""
    message = reason if isinstance(reason, str) else getattr(reason, "message", str(reason))
    for code in MELD_REASONS:
        message = message.replace(f": {code}: ", ": ")
    return _TABLE_INDEX.sub(lambda m: f"meld {int(m.group(1)) + 1}", message)
