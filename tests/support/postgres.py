"""A throwaway PostgreSQL server for the tests: Debian's binaries (``$RUMMISOLVE_PG_BIN``, else
``/usr/lib/postgresql/<newest>/bin``, else ``initdb`` on the PATH), a cluster made by ``initdb`` in a
temporary folder, a free port on 127.0.0.1 and its Unix socket in that folder, stopped and deleted
at the end. PostgreSQL refuses to run as root: as root, the cluster is the ``postgres`` user's
(``runuser``), which Debian's package makes. Without the binaries the tests skip (fail under CI).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.support.net import free_port
from tests.support.optional import installed, unavailable

USER = "rummisolve"
"""The database role the tests connect as (trusted: only this machine's socket and loopback)."""


def binaries() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``, or ``None``."""
    named = os.environ.get("RUMMISOLVE_PG_BIN")
    if named:
        return Path(named)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if debian:
        return debian[-1].parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


class Cluster:
    """A running throwaway cluster: :meth:`url` of a new empty database each time it is asked."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self._numbers = itertools.count(1)

    def url(self, name: str) -> str:
        return f"postgresql://{USER}@/{name}?host={self.folder}&port={self.port}"

    def new_database(self) -> str:
        """A fresh empty database's URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _as_owner(owner: str | None, command: list[str]) -> list[str]:
    return command if owner is None else ["runuser", "-u", owner, "--", *command]


@contextlib.contextmanager
def throwaway_cluster(*, fsync: bool = False) -> Iterator[Cluster]:
    """Start a cluster (see the module's docstring); stopped and its folder deleted at the end.
    ``fsync`` off by default (the cluster is thrown away; a benchmark turns it on)."""
    if not installed("psycopg") or not installed("psycopg_pool"):
        unavailable("PostgreSQL test: psycopg is not installed (pip install '.[postgres]')")
    bin_dir = binaries()
    if bin_dir is None:
        unavailable(
            "PostgreSQL test: no PostgreSQL server found (apt-get install postgresql; or set RUMMISOLVE_PG_BIN)"
        )
    assert bin_dir is not None
    owner = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            unavailable("PostgreSQL test: running as root and there is no 'postgres' user to run the server as")
        owner = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="rummisolve-pg-"))
    data = folder / "data"
    log = folder / "server.log"
    if owner is not None:
        entry = pwd.getpwnam(owner)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = free_port()
    options = (
        f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder} "
        f"-c fsync={'on' if fsync else 'off'} -c max_connections=200 -c shared_buffers=32MB"
    )
    try:
        subprocess.run(
            _as_owner(
                owner, [str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"]
            ),
            check=True,
            capture_output=True,
            text=True,
        )
        subprocess.run(
            _as_owner(owner, [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]),
            check=True,
            capture_output=True,
            text=True,
        )
    except subprocess.CalledProcessError as err:
        detail = log.read_text() if log.exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"the throwaway PostgreSQL did not start: {err.stderr}{err.stdout}{detail}") from None
    try:
        yield Cluster(folder, port)
    finally:
        subprocess.run(
            _as_owner(owner, [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)
