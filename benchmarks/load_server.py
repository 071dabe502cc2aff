"""Load benchmark of the HTTP service: N concurrent clients POST game positions to /solve for T seconds.

Starts ``rummisolve serve`` on a free loopback port (or uses ``--url``), lets ``--clients`` threads
(each with its own keep-alive connection) send positions from self-play games for ``--duration``
seconds, and reports throughput, latency percentiles, errors and the server's peak memory
(resident set size summed over the server and its worker processes, sampled every 50 ms, plus
each process's own high-water mark from /proc). Loopback only; bounded in time and count.

    python -m benchmarks.load_server --clients 8 --duration 30 [--workers 2] [--json out.json]

The figures are printed and written as JSON to ``--json`` (default
``benchmarks/results/load_server_w<workers>.json``).

An error is any response that is not 200 with a result of status optimal/feasible/no_move, any
transport failure, and any answer that differs from the first answer to the same position.
"""

from __future__ import annotations

import argparse
import http.client
import json
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


# -- positions -------------------------------------------------------------------------------------------


def game_positions(seed: int, games: int, per_game: int) -> list[dict[str, Any]]:
    """Positions met by the movers of seeded self-play games (benchmarks.positions), as request bodies."""
    from benchmarks.positions import game_positions as generate

    bodies = []
    for game in range(games):
        for record in generate(seed + game, players=4, per_game=per_game):
            bodies.append({k: record[k] for k in _CONTRACT_KEYS if k in record})
    return bodies


# -- the server --------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(workers: int, max_time_limit: float | None) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    command = [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--workers", str(workers)]
    command += ["--no-access-log", "--log-level", "warning"]
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


def run_load(url: str, bodies: list[dict[str, Any]], clients: int, duration: float) -> dict[str, Any]:
    payloads = [json.dumps(b).encode() for b in bodies]
    first_answer: dict[int, Any] = {}
    lock = threading.Lock()
    latencies: list[list[float]] = [[] for _ in range(clients)]
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
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    all_latencies = sorted(x for per in latencies for x in per)
    return {
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
    }


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
    parser.add_argument("--url", default=None, help="use a running server at this loopback URL")
    parser.add_argument("--json", default=None, help="JSON file (default benchmarks/results/load_server_w<N>.json)")
    args = parser.parse_args(argv)
    if args.json is None:
        args.json = str(ROOT / "benchmarks" / "results" / f"load_server_w{args.workers}.json")
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be between 1 and {MAX_CLIENTS}")
    if not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--duration must be in (0, {MAX_DURATION:g}] seconds")
    if args.url and urlsplit(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("--url must be a loopback address")

    t0 = time.perf_counter()
    bodies = game_positions(args.seed, args.games, args.per_game)
    generation = time.perf_counter() - t0
    tiles = [len(b.get("rack", [])) + sum(map(len, b.get("table", []))) for b in bodies]
    print(f"{len(bodies)} game positions ({min(tiles)}-{max(tiles)} tiles in play) in {generation:.1f} s", flush=True)

    proc = None
    sampler = None
    if args.url:
        url = args.url
    else:
        proc, url = start_server(args.workers, args.max_time_limit)
        sampler = MemorySampler(proc.pid)
        sampler.sample()
        idle_kib = sampler.peak_rss_kib
        sampler.start()
    load_before = os.getloadavg()
    cpu_before = cpu_seconds(proc.pid) if proc is not None else 0.0
    cpu_used = None
    try:
        figures = run_load(url, bodies, args.clients, args.duration)
    finally:
        try:
            if proc is not None:
                cpu_used = cpu_seconds(proc.pid) - cpu_before
            if sampler is not None:
                sampler.stop()
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(30)
    figures.update(
        clients=args.clients,
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
