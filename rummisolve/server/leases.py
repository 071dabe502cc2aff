"""Which process holds a room's AI turn: :func:`holder`, this process's name in the store's leases,
and :func:`holder_dead`, whether the process a lease names has died.

A name is ``host/pid/start`` (``start``: when the process started, from ``/proc``, so a pid used
again by a new process is not taken for the old one). Only processes of this host are judged: a
lease of another host's process is left to run out.
"""

from __future__ import annotations

import os
import socket

__all__ = ["holder", "holder_dead", "process_name"]


def _started(pid: int) -> str:
    """When process ``pid`` started (clock ticks since boot; ``""`` where ``/proc`` does not say)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read().decode("ascii", "replace")
    except OSError:
        return ""
    # The name (field 2) is in parentheses and may hold spaces: count the fields after it.
    fields = text[text.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else ""


def process_name(pid: int) -> str:
    """The lease holder's name of process ``pid`` of this host."""
    return f"{socket.gethostname()}/{pid}/{_started(pid)}"


_names: dict[int, str] = {}


def holder() -> str:
    """This process's name in the leases it takes (a forked child has its own)."""
    pid = os.getpid()
    if pid not in _names:
        _names[pid] = process_name(pid)
    return _names[pid]


def holder_dead(holder_name: str) -> bool:
    """Whether the process named ``holder`` (:func:`process_name`) is known to have died: it ran on
    this host and there is no such process now (or its pid is another process's)."""
    host, _, rest = holder_name.partition("/")
    pid_text, _, started = rest.partition("/")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return holder_name != holder()  # this pid, but an earlier process's
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's: a pid used again
        return True
    return bool(started) and _started(pid) != started
