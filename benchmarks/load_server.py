"""Load benchmark of the HTTP service: N concurrent clients POST game positions to /solve for T seconds.

Starts ``rummisolve serve`` on a free loopback port (or uses ``--url``), lets ``--clients`` threads
(each with its own keep-alive connection) send positions from self-play games for ``--duration``
seconds, and reports throughput, latency percentiles, errors and the server's peak memory
(resident set size summed over the server and its worker processes, sampled every 50 ms, plus
each process's own high-water mark from /proc). Loopback only; bounded in time and count.

    python -m benchmarks.load_server --clients 8 --duration 30 [--workers 2] [--json out.json]

The figures are printed and written as JSON to ``--json`` (default
``benchmarks/results/load_server_w<workers>.json``).

With ``--heavy-clients M``, M more clients send big positions at the same time: about 3,700 tiles
(26 KB of JSON) under an 8-colour, 99-number, 8-copy set, each of which searches for the server's
whole time cap, and every ``--oversized-every``-th one over the server's limit on tiles in play.
They expect 200 (at the cap: feasible or unknown), 503 when the lanes are full (then they wait
``--heavy-backoff`` seconds) and 413 for the oversized ones. The light clients' latencies are
then the figure that matters (target: p99 under 1 s); at the end, heavy requests still waiting
are abandoned (their connections closed), which the server's cancelled/stopped counts show.

    python benchmarks/load_server.py --clients 6 --heavy-clients 16 --duration 40

With ``--alternatives-clients K``, K more clients send small positions (about 150 tiles of the XP
set, so light by their size) asking for ``alternatives: 10`` with a ``time_limit`` of 60 s (the
server clamps it to its cap): each is up to 11 searches, 20-100 times one solve. They expect 200
with an ``alternatives`` list, or 503 when their lane is full (then they back off like the heavy
ones). Before issue 33 they took the light lane and starved it; now they take the heavy one.

    python benchmarks/load_server.py --clients 6 --heavy-clients 16 --alternatives-clients 4 --duration 40

With ``--abuse``, an attacker runs beside the normal clients (issue 47), bounded in count and time:
``--abuse-uploaders`` threads each upload a crafted saved game to ``POST /replays`` (an 8-colour,
30-number, 4-copy set, 200-tile racks, every turn a draw: its analysis runs for minutes) and leave
after ``--abuse-leave-after`` seconds, again and again; ``--abuse-solvers`` threads send small but
expensive solves (106 tiles, unopened, under an 8-colour, 40-number, 4-copy set with
``open_then_manipulate`` and strict joker retrieval; a 60 s time limit the server clamps to its
cap), expecting 200, 503, 504 or 429 (past the client's share, ``max_client_jobs``). The report adds the light /solve p99, how far any answered
request outlived its deadline (its answer time minus ``X-Rummisolve-Waited`` and
``X-Rummisolve-Deadline``), and the workers' counts (killed at the deadline, cancelled).

    python benchmarks/load_server.py --clients 6 --abuse --duration 40

The server's memory is reported idle (before the load, once its worker processes are up), at its
peak, and after the load (once /health shows no solve running or queued, or ``--settle`` seconds
have passed).

An error is any light response that is not 200 with a result of status optimal/feasible/no_move,
any heavy response other than those expected, any transport failure, and any answer that differs
from the first answer to the same position.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MAX_CLIENTS = 64
MAX_DURATION = 600.0
MAX_REQUESTS = 2_000_000
_CONTRACT_KEYS = ("rules", "table", "rack", "opened", "objective")
HEAVY_RULES = {"colours": 8, "numbers": 99, "copies": 8, "jokers": 4}
HEAVY_SIZE = (2500, 1200)  # tiles on the table, in the rack: ~3,700 in play, under the default limit of 4,000
OVERSIZED = (5000, 2500)  # ~7,500 tiles in play: over it
ALTERNATIVES = 10
ALTERNATIVES_TIME_LIMIT = 60  # a long limit: the server clamps it to its cap


# -- positions -------------------------------------------------------------------------------------------


def game_positions(seed: int, games: int, per_game: int) -> list[dict[str, Any]]:
    """Positions met by the movers of seeded self-play games (benchmarks.positions), as request bodies."""
    from benchmarks.positions import game_positions as generate

    bodies = []
    for game in range(games):
        for record in generate(seed + game, players=4, per_game=per_game):
            bodies.append({k: record[k] for k in _CONTRACT_KEYS if k in record})
    return bodies


def heavy_positions(seed: int, count: int, oversized: bool = False) -> list[dict[str, Any]]:
    """Big random positions (benchmarks.positions.random_position) under :data:`HEAVY_RULES`."""
    from benchmarks.positions import random_position
    from rummisolve.jsonio import position_to_json
    from rummisolve.rules import RuleSet

    rules = RuleSet(**HEAVY_RULES)
    table, rack = OVERSIZED if oversized else HEAVY_SIZE
    rng = random.Random(seed)
    return [position_to_json(random_position(rng, rules, table_size=table, rack_size=rack)) for _ in range(count)]


def alternatives_positions(seed: int, count: int) -> list[dict[str, Any]]:
    """Small dense positions under the XP set (about 150 tiles in play, objective ``value``) asking for
    :data:`ALTERNATIVES` alternatives with a long time limit: light by their size, not by their work."""
    from benchmarks.positions import random_position
    from rummisolve.jsonio import position_to_json
    from rummisolve.rules import RuleSet

    rules = RuleSet.preset("xp")
    rng = random.Random(seed)
    bodies = []
    for _ in range(count):
        rack = rng.randint(14, 30)
        position = random_position(rng, rules, table_size=150 - rack, rack_size=rack, dense=True, joker_rate=0.3)
        body = position_to_json(position)
        bodies.append(
            {**body, "objective": "value", "alternatives": ALTERNATIVES, "time_limit": ALTERNATIVES_TIME_LIMIT}
        )
    return bodies


# -- the server --------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(workers: int, max_time_limit: float | None, extra: list[str] = ()) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    command = [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--workers", str(workers)]
    command += ["--no-access-log", "--log-level", "warning", *extra]
    if max_time_limit is not None:
        command += ["--max-time-limit", str(max_time_limit)]
    proc = subprocess.Popen(command, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with status {proc.returncode}")
        try:
            status, _ = request(url, "GET", "/health", None)
            if status == 200:
                return proc, url
        except OSError:
            pass
        time.sleep(0.1)
    proc.terminate()
    raise SystemExit("server did not come up within 120 s")


def request(url: str, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={"content-type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_until_idle(url: str, limit: float) -> float:
    """Seconds until /health shows no solve running or queued (at most ``limit``), plus a second for
    the threads to hand their memory back."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        try:
            status, raw = request(url, "GET", "/health", None)
        except OSError:
            break
        solves = json.loads(raw)["solves"] if status == 200 else {}
        if solves.get("running") == 0 and solves.get("queued") == 0:
            break
        time.sleep(0.2)
    time.sleep(min(1.0, limit))
    return round(time.perf_counter() - start, 1)


# -- memory (Linux /proc) ----------------------------------------------------------------------------------


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(children.get(current, []))
    return out


def _status_kib(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` and its descendants (live ones), in seconds."""
    total = 0
    for p in _descendants(pid):
        try:
            with open(f"/proc/{p}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


class MemorySampler(threading.Thread):
    """Samples the summed RSS of a process tree; remembers the peak and each process's VmHWM."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.interval = interval
        self.peak_rss_kib = 0
        self.hwm_kib: dict[int, int] = {}
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            self.sample()
            self._halt.wait(self.interval)

    def sample(self) -> None:
        pids = _descendants(self.pid)
        self.peak_rss_kib = max(self.peak_rss_kib, sum(_status_kib(p, "VmRSS") for p in pids))
        for p in pids:
            self.hwm_kib[p] = max(self.hwm_kib.get(p, 0), _status_kib(p, "VmHWM"))

    def stop(self) -> None:
        self._halt.set()
        self.join()
        self.sample()


# -- the load ----------------------------------------------------------------------------------------------


def run_load(
    url: str,
    bodies: list[dict[str, Any]],
    clients: int,
    duration: float,
    heavy: HeavyLoad | None = None,
    alternatives: AlternativesLoad | None = None,
    abuse: AbuseLoad | None = None,
) -> dict[str, Any]:
    payloads = [json.dumps(b).encode() for b in bodies]
    first_answer: dict[int, Any] = {}
    lock = threading.Lock()
    latencies: list[list[float]] = [[] for _ in range(clients)]
    overruns = [-math.inf] * clients
    errors: list[str] = []
    statuses: dict[str, int] = {}
    count = [0]
    start = time.perf_counter()
    stop_at = start + duration
    parts = urlsplit(url)

    def client(index: int) -> None:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        rng = random.Random(index)
        order = list(range(len(payloads)))
        rng.shuffle(order)
        i = 0
        while time.perf_counter() < stop_at:
            with lock:
                if count[0] >= MAX_REQUESTS:
                    return
                count[0] += 1
            which = order[i % len(order)]
            i += 1
            t0 = time.perf_counter()
            try:
                conn.request("POST", "/solve", body=payloads[which], headers={"content-type": "application/json"})
                response = conn.getresponse()
                raw = response.read()
                latencies[index].append(time.perf_counter() - t0)
                overruns[index] = max(overruns[index], overrun(response, time.perf_counter() - t0))
                problem = _judge(response.status, raw, which, first_answer, lock, statuses)
            except (OSError, http.client.HTTPException) as err:
                problem = f"transport: {type(err).__name__}: {err}"
                conn.close()
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
            if problem:
                with lock:
                    errors.append(problem)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    others = [load for load in (heavy, alternatives, abuse) if load is not None]
    for load in others:
        threads += load.threads(url, stop_at, count, lock)
    for t in threads:
        t.start()
    for t in threads[:clients]:
        t.join()
    for load in others:
        load.abandon_at(stop_at)
    for t in threads[clients:]:
        t.join()
    elapsed = time.perf_counter() - start
    all_latencies = sorted(x for per in latencies for x in per)
    figures = {
        "requests": len(all_latencies),
        "elapsed_s": round(elapsed, 3),
        "throughput_rps": round(len(all_latencies) / elapsed, 1),
        "latency_ms": {
            "p50": _ms(_percentile(all_latencies, 50)),
            "p90": _ms(_percentile(all_latencies, 90)),
            "p99": _ms(_percentile(all_latencies, 99)),
            "max": _ms(all_latencies[-1] if all_latencies else 0.0),
            "mean": _ms(statistics.fmean(all_latencies) if all_latencies else 0.0),
        },
        "errors": len(errors),
        "error_samples": errors[:5],
        "statuses": dict(sorted(statuses.items())),
        "past_deadline_max_s": _seconds(max(overruns, default=-math.inf)),
    }
    if heavy is not None:
        figures["heavy"] = heavy.figures()
        figures["errors"] += figures["heavy"]["errors"]
    if alternatives is not None:
        figures["alternatives"] = alternatives.figures()
        figures["errors"] += figures["alternatives"]["errors"]
    if abuse is not None:
        figures["attacker"] = abuse.figures()
        figures["errors"] += figures["attacker"]["errors"]
    return figures


def overrun(response: http.client.HTTPResponse, seconds: float) -> float:
    """How far past its deadline an answer came: ``seconds`` minus the seconds it waited for a
    worker and its deadline (negative: in time); -inf for an answer without a deadline."""
    deadline = response.getheader("X-Rummisolve-Deadline")
    if deadline is None:
        return -math.inf
    return seconds - float(response.getheader("X-Rummisolve-Waited") or 0) - float(deadline)


def _seconds(value: float) -> float | None:
    return None if value == -math.inf else round(value, 3)


class HeavyLoad:
    """Clients sending big positions: within the size limit (expect 200 at the cap, or 503 when
    the lanes are full) and, every ``oversized_every``-th request, over it (expect 413)."""

    def __init__(self, bodies: list[dict], oversized: list[dict], clients: int, oversized_every: int, backoff: float):
        self.payloads = [json.dumps(b).encode() for b in bodies]
        self.oversized = [json.dumps(b).encode() for b in oversized]
        self.clients = clients
        self.oversized_every = oversized_every
        self.backoff = backoff
        self.outcomes: dict[str, int] = {}
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.abandoned = 0
        self._lock = threading.Lock()
        self._open: dict[int, http.client.HTTPConnection] = {}
        self._stopping = threading.Event()

    def threads(self, url: str, stop_at: float, count: list[int], count_lock: threading.Lock) -> list[threading.Thread]:
        parts = urlsplit(url)

        def client(index: int) -> None:
            sent = 0
            while time.perf_counter() < stop_at and not self._stopping.is_set():
                with count_lock:
                    if count[0] >= MAX_REQUESTS:
                        return
                    count[0] += 1
                sent += 1
                big = bool(self.oversized and self.oversized_every and sent % self.oversized_every == 0)
                payload = (self.oversized if big else self.payloads)[
                    (index + sent) % len(self.oversized if big else self.payloads)
                ]
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
                with self._lock:
                    self._open[index] = conn
                t0 = time.perf_counter()
                try:
                    conn.request("POST", "/solve", body=payload, headers={"content-type": "application/json"})
                    response = conn.getresponse()
                    raw = response.read()
                except (OSError, http.client.HTTPException) as err:
                    with self._lock:
                        if self._stopping.is_set():
                            self.abandoned += 1
                        else:
                            self.errors.append(f"heavy transport: {type(err).__name__}: {err}")
                    break
                finally:
                    with self._lock:
                        self._open.pop(index, None)
                    conn.close()
                outcome, problem = self._judge(response.status, raw, big)
                with self._lock:
                    self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
                    if outcome.startswith("200"):
                        self.latencies.append(time.perf_counter() - t0)
                    if problem:
                        self.errors.append(problem)
                if response.status == 503:
                    self._stopping.wait(min(self.backoff, float(response.getheader("Retry-After") or 1)))

        return [threading.Thread(target=client, args=(i,)) for i in range(self.clients)]

    def abandon_at(self, stop_at: float) -> None:
        """At the end of the run, close the connections of heavy requests still waiting for an answer."""
        time.sleep(max(0.0, stop_at - time.perf_counter()))
        self._stopping.set()
        with self._lock:
            for conn in self._open.values():
                if conn.sock is not None:
                    try:
                        conn.sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

    @staticmethod
    def _judge(status: int, raw: bytes, oversized: bool) -> tuple[str, str | None]:
        try:
            body = json.loads(raw)
        except ValueError:
            return f"{status} not JSON", f"heavy HTTP {status}: not JSON: {raw[:200]!r}"
        if status == 200 and not oversized and body.get("status") in ("optimal", "feasible", "unknown", "no_move"):
            return f"200 {body['status']}", None
        if status == 503 and not oversized and "max_queued_solves" in body.get("error", ""):
            return "503 busy", None
        if status == 413 and oversized and "max_tiles_in_play" in body.get("error", ""):
            return "413 too many tiles", None
        return f"{status} unexpected", f"heavy HTTP {status} (oversized={oversized}): {raw[:200]!r}"

    def figures(self) -> dict[str, Any]:
        latencies = sorted(self.latencies)
        return {
            "clients": self.clients,
            "requests": sum(self.outcomes.values()) + self.abandoned,
            "outcomes": dict(sorted(self.outcomes.items())),
            "abandoned_at_the_end": self.abandoned,
            "answered_latency_s": {
                "p50": round(_percentile(latencies, 50), 2),
                "max": round(latencies[-1], 2) if latencies else 0.0,
            },
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
        }


class AlternativesLoad(HeavyLoad):
    """Clients sending small positions that ask for alternatives (:func:`alternatives_positions`):
    expect 200 with an ``alternatives`` list, or 503 when their lane is full (either lane's, so that
    the code before issue 33, which gave them the light lane, can be measured too)."""

    def __init__(self, bodies: list[dict], clients: int, backoff: float):
        super().__init__(bodies, [], clients, 0, backoff)

    @staticmethod
    def _judge(status: int, raw: bytes, oversized: bool) -> tuple[str, str | None]:
        try:
            body = json.loads(raw)
        except ValueError:
            return f"{status} not JSON", f"alternatives HTTP {status}: not JSON: {raw[:200]!r}"
        if status == 200 and body.get("status") in ("optimal", "feasible", "no_move") and "alternatives" in body:
            return f"200 {body['status']}", None
        if status == 503:
            error = body.get("error", "")
            for lane, limit in (("light", "max_queued_light_solves"), ("heavy", "max_queued_solves")):
                if limit in error:
                    return f"503 busy ({lane} lane)", None
        return f"{status} unexpected", f"alternatives HTTP {status}: {raw[:200]!r}"

    def figures(self) -> dict[str, Any]:
        latencies = sorted(self.latencies)
        return {
            "clients": self.clients,
            "requests": sum(self.outcomes.values()) + self.abandoned,
            "outcomes": dict(sorted(self.outcomes.items())),
            "abandoned_at_the_end": self.abandoned,
            "answered_latency_ms": {
                "p50": _ms(_percentile(latencies, 50)),
                "p99": _ms(_percentile(latencies, 99)),
                "max": _ms(latencies[-1] if latencies else 0.0),
            },
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
        }


ABUSE_RULES = {
    "colours": 8,
    "numbers": 40,
    "copies": 4,
    "jokers": 4,
    "open_then_manipulate": True,
    "joker_retrieval": "strict",
}
"""Issue 47's small-but-expensive rule set."""


def crafted_replay(copies: int = 4) -> dict[str, Any]:
    """A saved game nobody would play: an 8-colour, 30-number set, 200-tile racks, every turn a draw."""
    from rummisolve.game import Game
    from rummisolve.rules import RuleSet

    game = Game(2, RuleSet(colours=8, numbers=30, copies=copies, jokers=4, rack_size=200), 1)
    while not game.finished:
        game.draw()
    return game.to_json()


def expensive_positions(seed: int, count: int) -> list[dict[str, Any]]:
    """106-tile positions under :data:`ABUSE_RULES`, unopened, with a long time limit."""
    from rummisolve.jsonio import position_to_json
    from rummisolve.rules import RuleSet

    rules = RuleSet(**ABUSE_RULES)
    rng = random.Random(seed)
    bodies = []
    for _ in range(count):
        tiles = list(rules.full_set())
        rng.shuffle(tiles)
        body = position_to_json(_position(rules, tiles[:106]))
        bodies.append({**body, "opened": False, "time_limit": 60})
    return bodies


def _position(rules: Any, tiles: list[Any]) -> Any:
    from rummisolve.position import Position

    return Position((), tuple(tiles), False, rules)


class AbuseLoad:
    """The attacker (issue 47): ``uploaders`` threads upload :func:`crafted_replay` and leave after
    ``leave_after`` seconds, again and again; ``solvers`` threads send :func:`expensive_positions`
    (expect 200, 503 when the lane is full, then a back-off, or 504 at the deadline)."""

    def __init__(self, uploaders: int, solvers: int, leave_after: float, backoff: float, seed: int) -> None:
        self.replay = json.dumps(crafted_replay()).encode()
        self.solves = [json.dumps(b).encode() for b in expensive_positions(seed, 4)]
        self.uploaders = uploaders
        self.solvers = solvers
        self.leave_after = leave_after
        self.backoff = backoff
        self.outcomes: dict[str, int] = {}
        self.uploads_left = 0
        self.overrun = -math.inf
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def threads(self, url: str, stop_at: float, count: list[int], count_lock: threading.Lock) -> list[threading.Thread]:
        parts = urlsplit(url)

        def take() -> bool:
            with count_lock:
                if count[0] >= MAX_REQUESTS or time.perf_counter() >= stop_at or self._stopping.is_set():
                    return False
                count[0] += 1
                return True

        def uploader() -> None:
            while take():
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
                try:
                    conn.request("POST", "/replays", body=self.replay, headers={"content-type": "application/json"})
                    conn.sock.settimeout(self.leave_after)
                    response = conn.getresponse()  # answered within leave_after: the attack failed to hold it
                    response.read()
                    self._count(f"replay answered {response.status}")
                except TimeoutError:
                    with self._lock:
                        self.uploads_left += 1  # the attacker leaves: the server should stop the analysis
                except (OSError, http.client.HTTPException) as err:
                    self._error(f"replay transport: {type(err).__name__}: {err}")
                finally:
                    conn.close()

        def solver(index: int) -> None:
            sent = 0
            while take():
                sent += 1
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
                t0 = time.perf_counter()
                try:
                    payload = self.solves[(index + sent) % len(self.solves)]
                    conn.request("POST", "/solve", body=payload, headers={"content-type": "application/json"})
                    response = conn.getresponse()
                    raw = response.read()
                except (OSError, http.client.HTTPException) as err:
                    self._error(f"expensive solve transport: {type(err).__name__}: {err}")
                    continue
                finally:
                    conn.close()
                with self._lock:
                    self.overrun = max(self.overrun, overrun(response, time.perf_counter() - t0))
                body = json.loads(raw) if raw.startswith(b"{") else {}
                if response.status == 200 and body.get("status") in ("optimal", "feasible", "unknown", "no_move"):
                    self._count(f"solve 200 {body['status']}")
                elif response.status == 503 and "max_queued_solves" in body.get("error", ""):
                    self._count("solve 503 busy")
                    self._stopping.wait(min(self.backoff, float(response.getheader("Retry-After") or 1)))
                elif response.status == 429 and "max_client_jobs" in body.get("error", ""):
                    self._count("solve 429 the client's share")
                    self._stopping.wait(min(self.backoff, float(response.getheader("Retry-After") or 1)))
                elif response.status == 504 and "job_grace_seconds" in body.get("error", ""):
                    self._count("solve 504 deadline")
                else:
                    self._error(f"expensive solve HTTP {response.status}: {raw[:200]!r}")

        return [threading.Thread(target=uploader) for _ in range(self.uploaders)] + [
            threading.Thread(target=solver, args=(i,)) for i in range(self.solvers)
        ]

    def _count(self, outcome: str) -> None:
        with self._lock:
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def _error(self, problem: str) -> None:
        with self._lock:
            self.errors.append(problem)

    def abandon_at(self, stop_at: float) -> None:
        time.sleep(max(0.0, stop_at - time.perf_counter()))
        self._stopping.set()

    def figures(self) -> dict[str, Any]:
        return {
            "uploaders": self.uploaders,
            "solvers": self.solvers,
            "replay_bytes": len(self.replay),
            "uploads_left_after_s": self.leave_after,
            "uploads_left": self.uploads_left,
            "outcomes": dict(sorted(self.outcomes.items())),
            "past_deadline_max_s": _seconds(self.overrun),
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
        }


def wait_for_workers(url: str, limit: float) -> None:
    """Until /health shows every worker process of every lane up (at most ``limit`` seconds)."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        status, raw = request(url, "GET", "/health", None)
        solves = json.loads(raw).get("solves", {}) if status == 200 else {}
        lanes = [solves.get(name) for name in ("light", "heavy", "game")]
        if all(isinstance(lane, dict) and len(lane.get("pids", ())) == lane.get("workers") for lane in lanes):
            return
        time.sleep(0.1)


def _judge(status: int, raw: bytes, which: int, first: dict[int, Any], lock: threading.Lock, statuses) -> str | None:
    if status != 200:
        return f"HTTP {status}: {raw[:200]!r}"
    try:
        result = json.loads(raw)
    except ValueError:
        return f"not JSON: {raw[:200]!r}"
    if result.get("status") not in ("optimal", "feasible", "no_move"):
        return f"status {result.get('status')!r}: {result.get('error')}"
    answer = (result["status"], result["played"], result["table"], result["value"])
    with lock:
        statuses[result["status"]] = statuses.get(result["status"], 0) + 1
        expected = first.setdefault(which, answer)
    if answer != expected:
        return f"position {which}: answer changed between requests"
    return None


def _percentile(sorted_values: list[float], pct: float) -> float:
    if not sorted_values:
        return 0.0
    rank = max(0, min(len(sorted_values) - 1, round(pct / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[rank]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load_server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load (default 30)")
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (default 1)")
    parser.add_argument("--max-time-limit", type=float, default=None, help="server cap per solve")
    parser.add_argument("--games", type=int, default=4, help="self-play games to draw positions from")
    parser.add_argument("--per-game", type=int, default=50, help="positions sampled per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heavy-clients", type=int, default=0, help="clients sending big positions (default 0)")
    parser.add_argument(
        "--oversized-every", type=int, default=4, help="every N-th heavy request is over the tile limit (0: none)"
    )
    parser.add_argument("--heavy-backoff", type=float, default=0.5, help="seconds a heavy client waits after a 503")
    parser.add_argument(
        "--alternatives-clients",
        type=int,
        default=0,
        help=f"clients sending small positions with alternatives: {ALTERNATIVES} and a long time limit (default 0)",
    )
    parser.add_argument("--abuse", action="store_true", help="an attacker beside the clients (issue 47; see above)")
    parser.add_argument("--abuse-uploaders", type=int, default=4, help="attacker threads uploading replays (default 4)")
    parser.add_argument(
        "--abuse-solvers", type=int, default=8, help="attacker threads sending expensive small solves (default 8)"
    )
    parser.add_argument(
        "--abuse-leave-after", type=float, default=3.0, help="seconds an attacker's upload waits before it leaves"
    )
    parser.add_argument(
        "--settle", type=float, default=30.0, help="seconds to wait for an idle server before the after-load RSS"
    )
    parser.add_argument(
        "--serve-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="pass an option to rummisolve serve, e.g. --serve-option=--max-queued-solves=4 (repeatable)",
    )
    parser.add_argument("--url", default=None, help="use a running server at this loopback URL")
    parser.add_argument("--json", default=None, help="JSON file (default benchmarks/results/load_server_w<N>.json)")
    args = parser.parse_args(argv)
    if args.json is None:
        args.json = str(ROOT / "benchmarks" / "results" / f"load_server_w{args.workers}.json")
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be between 1 and {MAX_CLIENTS}")
    if not 0 <= args.heavy_clients <= MAX_CLIENTS:
        parser.error(f"--heavy-clients must be between 0 and {MAX_CLIENTS}")
    if not 0 <= args.alternatives_clients <= MAX_CLIENTS:
        parser.error(f"--alternatives-clients must be between 0 and {MAX_CLIENTS}")
    for name in ("abuse_uploaders", "abuse_solvers"):
        if not 0 <= getattr(args, name) <= MAX_CLIENTS:
            parser.error(f"--{name.replace('_', '-')} must be between 0 and {MAX_CLIENTS}")
    if not 0 < args.abuse_leave_after <= MAX_DURATION:
        parser.error(f"--abuse-leave-after must be in (0, {MAX_DURATION:g}] seconds")
    if not 0 <= args.settle <= MAX_DURATION:
        parser.error(f"--settle must be in [0, {MAX_DURATION:g}] seconds")
    if not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--duration must be in (0, {MAX_DURATION:g}] seconds")
    if args.url and urlsplit(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("--url must be a loopback address")

    t0 = time.perf_counter()
    bodies = game_positions(args.seed, args.games, args.per_game)
    generation = time.perf_counter() - t0
    tiles = [len(b.get("rack", [])) + sum(map(len, b.get("table", []))) for b in bodies]
    print(f"{len(bodies)} game positions ({min(tiles)}-{max(tiles)} tiles in play) in {generation:.1f} s", flush=True)
    heavy = None
    if args.heavy_clients:
        big = heavy_positions(args.seed, 4)
        oversized = heavy_positions(args.seed + 1, 2, oversized=True) if args.oversized_every else []
        heavy = HeavyLoad(big, oversized, args.heavy_clients, args.oversized_every, args.heavy_backoff)
        sizes = [len(p) for p in heavy.payloads]
        counted = [len(b["rack"]) + sum(map(len, b["table"])) for b in big + oversized]
        print(
            f"{len(big)} heavy positions ({min(sizes) // 1024}-{max(sizes) // 1024} KB), {len(oversized)} oversized; "
            f"{min(counted)}-{max(counted)} tiles in play",
            flush=True,
        )

    alternatives = None
    if args.alternatives_clients:
        small = alternatives_positions(args.seed, 16)
        alternatives = AlternativesLoad(small, args.alternatives_clients, args.heavy_backoff)
        counted = [len(b["rack"]) + sum(map(len, b["table"])) for b in small]
        print(
            f"{len(small)} small positions asking for {ALTERNATIVES} alternatives ({min(counted)}-{max(counted)} "
            "tiles in play)",
            flush=True,
        )

    abuse = None
    if args.abuse:
        abuse = AbuseLoad(
            args.abuse_uploaders, args.abuse_solvers, args.abuse_leave_after, args.heavy_backoff, args.seed
        )
        print(
            f"the attacker: {args.abuse_uploaders} uploaders of a {len(abuse.replay) // 1024} KB crafted replay "
            f"(leaving after {args.abuse_leave_after:g} s), {args.abuse_solvers} senders of expensive 106-tile solves",
            flush=True,
        )

    proc = None
    sampler = None
    after_kib = None
    settled_s = None
    if args.url:
        url = args.url
    else:
        proc, url = start_server(args.workers, args.max_time_limit, args.serve_option)
        wait_for_workers(url, 120)
        sampler = MemorySampler(proc.pid)
        sampler.sample()
        idle_kib = sampler.peak_rss_kib
        sampler.start()
    load_before = os.getloadavg()
    cpu_before = cpu_seconds(proc.pid) if proc is not None else 0.0
    cpu_used = None
    try:
        figures = run_load(url, bodies, args.clients, args.duration, heavy, alternatives, abuse)
        time.sleep(0.5)  # let the server count the abandoned heavy requests
        status, raw = request(url, "GET", "/health", None)
        if status == 200:
            health = json.loads(raw)
            figures["server_limits"] = health["limits"]
            figures["server_solves"] = health["solves"]
        if proc is not None:
            settled_s = wait_until_idle(url, args.settle)
            after_kib = sum(_status_kib(p, "VmRSS") for p in _descendants(proc.pid))
            status, raw = request(url, "GET", "/health", None)
            if status == 200:  # once idle: every job the clients left counted
                figures["server_solves_settled"] = json.loads(raw)["solves"]
    finally:
        try:
            if proc is not None:
                cpu_used = cpu_seconds(proc.pid) - cpu_before
            if sampler is not None:
                sampler.stop()
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:  # still finishing solves nobody waits for
                    proc.kill()
                    proc.wait()
    figures.update(
        clients=args.clients,
        heavy_clients=args.heavy_clients,
        alternatives_clients=args.alternatives_clients,
        abuse=args.abuse,
        duration_s=args.duration,
        workers=args.workers,
        positions=len(bodies),
        position_source=f"self-play games, seeds {args.seed}..{args.seed + args.games - 1}, 4 players, "
        f"{args.per_game} positions sampled per game",
        machine=f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        load_average_1min={"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)},
    )
    if cpu_used is not None and figures["requests"]:
        figures["server_cpu_ms_per_request"] = round(1000 * cpu_used / figures["requests"], 2)
    if sampler is not None:
        figures["server_memory_mib"] = {
            "idle_rss": round(idle_kib / 1024, 1),
            "after_rss": None if after_kib is None else round(after_kib / 1024, 1),
            "after_vs_idle": None if after_kib is None or not idle_kib else round(after_kib / idle_kib, 2),
            "after_s": settled_s,
            "peak_rss_sampled": round(sampler.peak_rss_kib / 1024, 1),
            "sum_of_process_high_water_marks": round(sum(sampler.hwm_kib.values()) / 1024, 1),
            "processes": len(sampler.hwm_kib),
        }
    text = json.dumps(figures, indent=2)
    print(text)
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(text + "\n")
    return 1 if figures["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
