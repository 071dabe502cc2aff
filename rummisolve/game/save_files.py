"""Writing a saved game (:mod:`rummisolve.game.saves`) to its file: atomically, clearing what saves
killed mid-write left behind.

>>> with tempfile.TemporaryDirectory() as folder:
...     write_save(Path(folder, "game.json"), {"format": "rummisolve-game"})
...     [p.name for p in Path(folder).iterdir()], Path(folder, "game.json").read_text()
(['game.json'], '{"format": "rummisolve-game"}\\n')
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["write_save"]

_STALE_SECONDS = 3600.0
"""A save's temporary this old is a leftover whoever made it (no save takes an hour)."""


def write_save(path: str | Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` atomically: a crash mid-save leaves the previous file whole."""
    target = Path(path)
    text = json.dumps(obj) + "\n"
    # The temporary's name holds this process's id, so that the next save can tell one left by
    # a killed process (gone: removed) from one another process is writing now (kept).
    prefix = f".{target.name}.{os.getpid()}."
    handle, temporary = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    try:
        os.chmod(temporary, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _remove_stale_temporaries(target)


def _remove_stale_temporaries(target: Path) -> None:
    """Remove what killed saves of ``target`` left behind: ``.NAME.PID.*.tmp`` files of processes
    that are gone, and any ``.NAME.*.tmp`` older than an hour. Best effort: the save itself is done."""
    prefix = f".{target.name}."
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(".tmp")):
            continue
        owner = entry.name[len(prefix) :].split(".", 1)[0]
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > _STALE_SECONDS
        except OSError:
            continue
        if old or (owner.isdigit() and not _running(int(owner))):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists (assumed so where that cannot be asked safely)."""
    if os.name == "nt" or pid == os.getpid():  # on Windows, os.kill(pid, 0) would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process
        return True
    return True
