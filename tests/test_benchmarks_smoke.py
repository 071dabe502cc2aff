"""Smoke run of the benchmark suite: stored sets are well formed, the runner and the scale series run."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import run as bench_run
from benchmarks import scale
from benchmarks.build import CONTRACT_KEYS, position_of
from benchmarks.oracle import optima
from tests.support.optional import optional, require

DATA = Path(bench_run.__file__).resolve().parent
SETS = ("game", "random", "traps")


def _records(name):
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("name", SETS)
def test_stored_sets_are_well_formed(name):
    records = _records(name)
    assert len(records) >= 25
    ids = set()
    for record in records:
        position = position_of(record)  # valid per the JSON contract
        assert record["tiles_in_play"] == position.tiles_in_play
        assert set(record["optimum"]) == {"tiles", "value"}
        tiles, value = record["optimum"]["tiles"], record["optimum"]["value"]
        assert (tiles is None) == (value is None)
        if tiles is not None:
            assert 1 <= tiles <= len(position.rack)
            assert value >= tiles  # every tile is worth at least 1
        assert record["id"] not in ids
        ids.add(record["id"])
        assert set(CONTRACT_KEYS) <= set(record)


def test_stored_sets_cover_what_the_issue_asks():
    game = _records("game")
    assert {r["source"].split(":")[1] for r in game} == {"2p", "3p", "4p"}
    assert any(r["opened"] for r in game) and any(not r["opened"] for r in game)
    rand = _records("random")
    assert max(r["tiles_in_play"] for r in rand) == 106
    assert any("J" in r["rack"] for r in rand) and any("J" not in str(r["table"]) + str(r["rack"]) for r in rand)
    assert any(not r["opened"] for r in rand)
    total = sum((DATA / f"{n}.jsonl").stat().st_size for n in SETS)
    assert total < 2_000_000


def test_a_sample_of_stored_optima_is_reproduced_by_the_oracle():
    for name in SETS:
        for record in _records(name)[::40]:
            assert optima(position_of(record)) == record["optimum"], record["id"]


def test_runner_smoke(tmp_path):
    argv = ["--sets", "traps,game", "--limit", "3", "--no-progress", "--out", str(tmp_path)]
    if not optional("rummikub_solver"):
        argv.append("--no-peer")
    plotting = optional("matplotlib")
    if not plotting:
        argv.append("--no-plot")
    assert bench_run.main(argv) == 0  # exit 0: every rummisolve answer optimal and legal
    report = json.loads((tmp_path / "report.json").read_text())
    assert len(report["rows"]) == 12  # 6 positions x 2 objectives
    assert report["summary"]["ours"]["outcomes"]["all"] == {"optimal": 12}
    assert (tmp_path / "report.md").read_text().startswith("Machine:")
    assert report["meta"]["ortools"].count(".") >= 2
    code = report["meta"]["code"]  # which commit produced the figures (None outside a git checkout)
    assert code is None or re.fullmatch(r"[0-9a-f]{7,40}( \+changes)?", code), code
    if plotting:
        assert (tmp_path / "latency.png").stat().st_size > 1000
    for row in report["rows"]:
        assert row["ours"]["ms"] > 0
        assert {"build", "solve", "verify"} <= set(row["ours"]["timings_ms"])
        if "peer" in row:
            assert row["peer"]["outcome"] in {"optimal", "suboptimal", "illegal", "unsupported", "error"}


def test_code_version_names_the_commit_and_local_changes(tmp_path):
    assert bench_run.code_version(tmp_path) is None  # not a git checkout
    try:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is not available")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    (tmp_path / "a.txt").write_text("one\n")
    subprocess.run([*git, "add", "a.txt"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True, capture_output=True)
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], check=True, capture_output=True, text=True)
    assert bench_run.code_version(tmp_path) == head.stdout.strip()
    (tmp_path / "a.txt").write_text("two\n")
    assert bench_run.code_version(tmp_path) == head.stdout.strip() + " +changes"


def test_runner_repeats_keep_each_solves_median():
    records = bench_run.load(["traps"], limit=2)
    result = bench_run.run(records, peer=False, progress=False, repeat=3)
    assert result["repeat"] == 3
    assert len(result["rows"]) == 4
    for row in result["rows"]:
        runs = row["ours"]["ms_runs"]
        assert len(runs) == 3
        assert row["ours"]["ms"] == statistics.median(runs)
        assert row["ours"]["outcome"] == "optimal"


def test_runner_flags_an_answer_that_changes_between_repeats(monkeypatch):
    answers = iter(["a", "b"])

    def flaky(record, objective):
        return {
            "ms": 1.0,
            "cpu_ms": 1.0,
            "status": "optimal",
            "timings_ms": {},
            "answer": next(answers),
            "outcome": "optimal",
            "detail": "",
        }

    monkeypatch.setattr(bench_run, "_ours", flaky)
    records = bench_run.load(["traps"], limit=1)[:1]
    monkeypatch.setattr(bench_run, "OBJECTIVES", ("tiles",))
    row = bench_run.run(records, peer=False, progress=False, repeat=2)["rows"][0]
    assert row["ours"]["outcome"] == "error"
    assert "changed between repeats" in row["ours"]["detail"]


def test_runner_lets_the_solvers_take_turns_by_blocks(monkeypatch):
    calls = []

    def ours(record, objective):
        calls.append(("ours", record["id"], objective))
        return {"ms": 1.0, "cpu_ms": 1.0, "status": "optimal", "timings_ms": {}, "answer": "a", "outcome": "optimal"}

    class FakePeer:
        def __init__(self):
            calls.append(("start",))

        def solve(self, jobs):
            calls.append(("peer", len(jobs)))
            return [{"ms": 9.0, "cpu_ms": 9.0, "status": "move", "outcome": "optimal", "id": r["id"]} for r, _ in jobs]

        def setup(self):
            return {"peer_version": "fake"}

        def close(self):
            calls.append(("close",))

    monkeypatch.setattr(bench_run, "_ours", ours)
    monkeypatch.setattr(bench_run, "PeerProcess", FakePeer)
    monkeypatch.setattr(bench_run, "BLOCK", 3)
    monkeypatch.setattr("benchmarks.peer.available", lambda: True)
    records = bench_run.load(["traps"], limit=4)  # 8 solves: blocks of 3, 3 and 2
    result = bench_run.run(records, peer=True, progress=False, repeat=2)
    kinds = [c[0] if c[0] != "peer" else f"peer{c[1]}" for c in calls]
    once = ["ours"] * 3 + ["peer3"] + ["ours"] * 3 + ["peer3"] + ["ours"] * 2 + ["peer2"]
    assert kinds == ["start", *once, *once, "close"]
    assert result["setup"]["peer_version"] == "fake"
    for row in result["rows"]:
        assert row["peer"]["id"] == row["id"]  # each block's answers go back to their own positions
        assert row["peer"]["ms_runs"] == [9.0, 9.0]


def test_runner_goes_on_alone_when_the_peer_fails_to_load(monkeypatch, capsys):
    def broken():
        raise RuntimeError("the peer's process failed:\nTraceback ...\nImportError: libhighs.so: cannot open")

    monkeypatch.setattr(bench_run, "PeerProcess", broken)
    monkeypatch.setattr("benchmarks.peer.available", lambda: True)
    result = bench_run.run(bench_run.load(["traps"], limit=1), peer=True, progress=False)
    assert result["peer"] is False
    assert all("peer" not in row for row in result["rows"])
    assert "could not be loaded (ImportError: libhighs.so: cannot open)" in capsys.readouterr().err


def test_peer_process_reports_a_failure_and_keeps_serving():
    require("rummikub_solver")
    peers = bench_run.PeerProcess()
    try:
        with pytest.raises(RuntimeError, match="KeyError"):
            peers.solve([({"no": "position"}, "tiles")])
        record = bench_run.load(["traps"], limit=1)[0]
        (row,) = peers.solve([(record, "tiles")])
        assert row["outcome"] in {"optimal", "suboptimal", "unsupported"}
    finally:
        peers.close()


def test_runner_refuses_a_repeat_below_one(capsys):
    with pytest.raises(SystemExit) as done:
        bench_run.main(["--repeat", "0", "--no-peer"])
    assert done.value.code == 2
    assert "--repeat: must be at least 1, not 0" in capsys.readouterr().err


def test_judge_catches_bad_answers():
    record = next(r for r in _records("traps") if r["source"] == "trap:joker in a group of 4")
    position = position_of(record)
    # three of the four tiles: legal but not optimal
    assert bench_run.judge(position, "tiles", 4, True, ["K7", "B7", "O7"], [["K7", "B7", "O7"]])[0] == "suboptimal"
    # a table that loses a tile: illegal
    assert bench_run.judge(position, "tiles", 4, True, ["K7", "B7"], [["K7", "B7"]])[0] == "illegal"
    assert bench_run.judge(position, "tiles", 4, False, [], [])[0] == "suboptimal"
    assert bench_run.judge(position, "tiles", 4, True, ["K7", "B7", "O7", "J"], [["K7", "B7", "O7", "J"]])[0] == (
        "optimal"
    )


def test_peer_adapter_on_known_failures():
    require("rummikub_solver")
    from benchmarks.peer import PeerSolver, play_order
    from rummisolve.rules import STANDARD
    from rummisolve.tiles import parse_tiles

    assert [str(t) for t in play_order(list(parse_tiles("R12 J R10")), STANDARD)] == ["R10", "J", "R12"]
    assert [str(t) for t in play_order(list(parse_tiles("J R12 R13")), STANDARD)] == ["J", "R12", "R13"]
    peer = PeerSolver(STANDARD)
    traps = {r["source"]: r for r in _records("traps")}
    # A known failure of the peer: it cannot put a joker in a group of 4 or at the end of a run of 4+
    for name in ("trap:joker in a group of 4", "trap:joker at the end of a run of 4"):
        record = traps[name]
        position = position_of(record)
        answer = peer.solve(position, "tiles")
        outcome, _ = bench_run.judge(
            position, "tiles", record["optimum"]["tiles"], answer.status == "move", answer.played, answer.table
        )
        assert outcome == "suboptimal", name


def test_scale_smoke(tmp_path):
    assert scale.main(["--quick", "--rules", "standard,xp", "--no-plot", "--no-progress", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "scale.json").read_text())
    assert len(data["rows"]) == 2 * len(scale.FRACTIONS) * 2
    assert max(r["tiles_in_play"] for r in data["rows"] if r["rules"] == "xp") > 140
    assert set(data["summary"]) == {"standard", "xp"}


def test_floor_smoke(tmp_path, capsys):
    from benchmarks import floor

    out = tmp_path / "floor.json"
    assert floor.main(["--sets", "game", "--limit", "4", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert rows, "the first game positions reach CP-SAT"
    for row in rows:
        assert 0 < row["load"] and 0 < row["search"] and 0 < row["hinted"]
        assert row["python"] == pytest.approx(sum(row[p] for p in floor.PHASES))
    report = capsys.readouterr().out
    assert "| load |" in report and "perfect first guess" in report


def test_floor_names_a_missing_set(capsys):
    from benchmarks import floor

    with pytest.raises(SystemExit):
        floor.main(["--sets", "nosuchset"])
    assert "nosuchset" in capsys.readouterr().err


def test_alternatives_benchmark_smoke(tmp_path, capsys):
    import json

    from benchmarks import alternatives

    out = tmp_path / "alternatives.json"
    assert alternatives.main(["--limit", "6", "--repeat", "1", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert rows and all(row["alternatives_ms"] > 0 and 0 <= row["found"] <= 3 for row in rows)
    assert "alternatives=3" in capsys.readouterr().out


def test_batch_benchmark_smoke(tmp_path, capsys):
    import json

    from benchmarks import batch

    out = tmp_path / "batch.json"
    assert batch.main(["--positions", "6", "--repeat", "1", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["positions"] == 6 and report["speed_up"] > 0
    assert "speed-up" in capsys.readouterr().out


def test_bench_tournament_rechecks_a_discard_rule_tournament_log(tmp_path):
    # A `rummisolve tournament --log` file under the discard rule: every play (and its discard) checks out;
    # a play that empties the rack does not.
    import sys

    root = Path(bench_run.__file__).resolve().parent.parent
    log = tmp_path / "turns.jsonl"
    small = '{"colours": 3, "numbers": 9, "copies": 1, "jokers": 1, "rack_size": 6, "initial_threshold": 10, "discard": true}'
    command = [sys.executable, "-m", "rummisolve", "tournament", "--players", "hard,medium", "--games", "2"]
    done = subprocess.run(command + ["--rules", small, "--workers", "1", "--no-progress", "--log", str(log)], cwd=root)
    assert done.returncode == 0
    recheck = [sys.executable, "-m", "benchmarks.bench_tournament", "--recheck", str(log)]
    done = subprocess.run(recheck, cwd=root, capture_output=True, text=True)
    assert done.returncode == 0 and re.match(r"re-checked [1-9]\d* plays: 0 illegal", done.stdout), done.stdout
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    play = next(line for line in lines if line["action"] == "play")
    play["table"] = play["table"] + [[play["discard"]] * 3]  # not even a meld: illegal
    log.write_text(json.dumps(play) + "\n")
    done = subprocess.run(recheck, cwd=root, capture_output=True, text=True)
    assert done.returncode == 1 and "1 illegal" in done.stdout


def test_shortcut_benchmark_smoke(capsys):
    from benchmarks import shortcut

    assert shortcut.main(["--sets", "game", "--limit", "6", "--rounds", "1"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("game solves=12 fires=") and "decline_ms=" in line


def test_strict_benchmark_smoke(capsys):
    from benchmarks import strict
    from rummisolve.solver import _strict_rule

    shipped = _strict_rule.STRICT_EFFORTS
    assert strict.main(["--count", "2", "--repeat", "1", "--default-efforts"]) == 0
    assert _strict_rule.STRICT_EFFORTS == shipped
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["small", "std", "xp"]
    assert out[0].startswith("small: 48 solves") and out[1].startswith("std: 4 solves")


def test_model_size_benchmark_smoke(capsys):
    from benchmarks import model_size

    assert model_size.main(["--sets", "game", "--limit", "6", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "solves that reach CP-SAT" in out and "kept melds substituted" in out


def test_bench_tournament_expert_stage_writes_each_game_and_summarises(tmp_path):
    import sys

    root = Path(bench_run.__file__).resolve().parent.parent
    games, out = tmp_path / "games.jsonl", tmp_path / "out.jsonl"
    small = '{"colours": 3, "numbers": 9, "copies": 1, "jokers": 1, "rack_size": 6, "initial_threshold": 10}'
    stage = [sys.executable, "-m", "benchmarks.bench_tournament", "--stage", "expert-hard", "--games", "2"]
    stage += ["--rules", small, "--think", "0.02", "--workers", "1", "--games-file", str(games), "--out", str(out)]
    assert subprocess.run(stage, cwd=root, capture_output=True).returncode == 0
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    assert len(lines) == 2 and all(len(r["move_seconds"]) == 2 for r in lines)
    assert json.loads(out.read_text())["think"] == 0.02
    summary = [
        sys.executable,
        "-m",
        "benchmarks.bench_tournament",
        "--summarize",
        str(games),
        "--players",
        "expert,hard",
    ]
    done = subprocess.run(summary, cwd=root, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("2 games") and "p95" in done.stdout


def test_groups_benchmark_smoke(capsys):
    from benchmarks import groups
    from rummisolve.solver import _candidates, _solve

    shipped = (_candidates.GROUPED_COLOURS, _solve.GROUPED_EFFORTS, _solve.QUICK_EFFORT)
    assert groups.main(["--rules", "6 colours", "--per-size", "1"]) == 0
    out = capsys.readouterr().out
    assert all(f"6 colours | {variant} | n 8 |" in out for variant in groups.VARIANTS)
    assert (_candidates.GROUPED_COLOURS, _solve.GROUPED_EFFORTS, _solve.QUICK_EFFORT) == shipped  # restored


def test_reuse_benchmark_smoke(tmp_path, capsys):
    from benchmarks import reuse

    out = tmp_path / "reuse.json"
    assert reuse.main(["--tables", "3", "--racks", "4", "--repeat", "1", "--out", str(out)]) == 0
    assert (
        reuse.main(
            ["--tables", "2", "--racks", "3", "--repeat", "1", "--colours", "8", "--out", str(tmp_path / "wide.json")]
        )
        == 0
    )
    report = json.loads(out.read_text())
    summary = report["summary"]
    assert summary["tables"] == 3 and summary["racks"] == 12
    assert all(summary[way]["total_s"] > 0 for way in reuse.WAYS)
    assert all(len(row["plain"]) == len(row["reused"]) == len(row["out"]) == 4 for row in report["rows"])
    assert "TableSolver.goes_out" in capsys.readouterr().out


def test_load_server_smoke_with_alternatives_clients(tmp_path, capsys):
    # A live server for 3 s: light clients and a client asking for alternatives on small positions,
    # which takes the heavy lane (issue 33): every solve the light lane started is a light request.
    pytest.importorskip("uvicorn")
    from benchmarks import load_server

    out = tmp_path / "load.json"
    args = ["--clients", "1", "--alternatives-clients", "1", "--duration", "3", "--games", "1", "--per-game", "5"]
    assert load_server.main([*args, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    alternatives = report["alternatives"]
    assert report["errors"] == 0 and report["requests"] > 0 and alternatives["requests"] > 0
    assert all(outcome.startswith(("200 ", "503 busy (heavy")) for outcome in alternatives["outcomes"])
    assert report["server_solves"]["light"]["started"] == report["requests"]
    assert report["server_solves"]["heavy"]["started"] >= alternatives["outcomes"].get("200 optimal", 0)
    memory = report["server_memory_mib"]
    assert memory["idle_rss"] > 0 and memory["after_rss"] > 0
    assert "alternatives" in capsys.readouterr().out


def test_load_server_smoke_with_the_attacker(tmp_path, capsys):
    # A live server for 4 s beside the attacker of issue 47 (one uploader of the crafted replay that
    # leaves after 1 s, one sender of expensive small solves): every request is answered as expected
    # (no error), every upload the attacker left is stopped by the server (a queued one dropped, a
    # running one's worker killed), and the figures are reported. No timing is asserted.
    pytest.importorskip("uvicorn")
    from benchmarks import load_server

    out = tmp_path / "abuse.json"
    args = ["--clients", "1", "--abuse", "--abuse-uploaders", "1", "--abuse-solvers", "1", "--abuse-leave-after", "1"]
    args += ["--duration", "4", "--games", "1", "--per-game", "5", "--settle", "60"]
    assert load_server.main([*args, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    attacker = report["attacker"]
    assert report["errors"] == 0 and report["requests"] > 0 and report["abuse"] is True
    assert attacker["uploads_left"] >= 1 and sum(attacker["outcomes"].values()) >= 1
    solves = report["server_solves_settled"]
    assert solves["running"] == 0 and solves["cancelled"] + solves["stopped"] >= attacker["uploads_left"]
    assert report["past_deadline_max_s"] is not None
    memory = report["server_memory_mib"]
    assert memory["idle_rss"] > 0 and memory["after_rss"] > 0
    assert "the attacker" in capsys.readouterr().out


def test_reroll_benchmark_smoke(capsys):
    from benchmarks import reroll

    assert reroll.main(["--deals", "2", "--max-solves", "50"]) == 0
    out = capsys.readouterr().out
    assert "2 deals, 9 free dice" in out and "512 subsets" in out


def test_reroll_benchmark_check_smoke(capsys):
    from benchmarks import reroll

    assert reroll.main(["--deals", "0", "--check", "2", "--check-dice", "3"]) == 0
    out = capsys.readouterr().out
    assert "9 free dice" not in out and "2 deals of 3 free dice: the best is the exact best in 2;" in out
    assert "a sampled best in 0" in out and "CPU" in out


def test_load_rooms_smoke(tmp_path, capsys):
    # A live server for 4 s: three rooms (one with an AI seat) played by scripted clients over HTTP
    # and WebSocket. The invariants hold (no error, no lost, duplicated or out-of-order view, every
    # log goes on event by event); no timing is asserted.
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    from benchmarks import load_rooms

    out = tmp_path / "rooms.json"
    args = ["--rooms", "3", "--ai-rooms", "1", "--duration", "4", "--think", "0.1", "--out", str(out)]
    assert load_rooms.main(args) == 0
    report = json.loads(out.read_text())
    events = report["events"]
    assert report["invariants_hold"] and report["errors"] == 0 and report["pushes_never_received"] == 0
    assert events["lost"] == events["duplicates"] == events["out_of_order"] == events["log_mismatches"] == 0
    assert report["websockets"] == sum(int(size) * n for size, n in report["seats"].items()) - 1
    assert report["moves"]["human"] > 0 and report["moves"]["ai_turns"] > 0
    pairs = report["push_latency_ms"]["pairs"]["all"]
    assert pairs["n"] >= report["moves"]["human"] and pairs["max"] > 0
    assert report["server_memory_mib"]["peak_rss"] >= report["server_memory_mib"]["start_rss"] > 0
    assert "push latency" in capsys.readouterr().out


def test_load_rooms_abuse_smoke(tmp_path):
    # Issue 47: an attacker on its own loopback address beside three rooms' players, with a tenth-
    # scale budget: each of its loops meets its limit (429s, 4429s, 1009s) and the players' events
    # stay whole. No timing is asserted (the push p99 and memory targets are in the JSON).
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    if not sys.platform.startswith("linux"):
        pytest.skip("--abuse needs Linux's loopback addresses")
    from benchmarks import load_rooms
    from rummisolve.server.settings import Settings

    out = tmp_path / "abuse.json"
    args = ["--rooms", "3", "--ai-rooms", "1", "--duration", "3", "--think", "0.1", "--abuse", "--abuse-scale", "0.3"]
    assert load_rooms.main([*args, "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["invariants_hold"] and report["errors"] == 0
    abuse, limits = report["abuse"], Settings()
    assert abuse["errors"] == 0
    assert abuse["answers"]["rooms"] == {"201": limits.max_client_live_rooms, "429": 18 - limits.max_client_live_rooms}
    assert abuse["answers"]["games"] == {"201": limits.max_client_live_games, "429": 24 - limits.max_client_live_games}
    assert abuse["answers"]["guesses"] == {
        "404": limits.code_guesses_per_window,
        "429": 36 - limits.code_guesses_per_window,
    }
    spectators = abuse["sockets"]["spectators"]
    assert spectators["accepted"] == 3 * limits.max_room_spectators and spectators["refused 4429"] == 60 - 24
    assert abuse["sockets"]["big_messages"] == {"closed 1009": 4}
    assert abuse["memory_end_over_idle"] > 0


def test_load_rooms_counts_what_the_protocol_forbids():
    from benchmarks.load_rooms import RoomClient, SeatClient, Stats

    stats = Stats()
    seat = SeatClient(RoomClient("ABCDEF", ["human", "human"], 0), 0, "token")

    def view(version, log, status="playing", round_=0):
        return {
            "room": "ABCDEF",
            "seat": 0,
            "version": version,
            "turn": 0,
            "status": status,
            "round": round_,
            "log": log,
        }

    seat.receive(view(1, [], "waiting"), 0.0, stats)
    seat.receive(view(2, []), 0.1, stats)  # the join that starts the game: no event
    seat.receive(view(3, ["a"]), 0.2, stats)
    seat.receive(view(3, ["a"]), 0.3, stats)  # the same version again
    seat.receive(view(2, []), 0.4, stats)  # an older one
    seat.receive(view(5, ["a", "b", "c"]), 0.5, stats)  # 4 skipped: allowed, its event is in the log
    seat.receive(view(6, ["a", "b", "c"]), 0.6, stats)  # a version without its event
    seat.receive(view(7, ["a", "B", "c", "d"]), 0.7, stats)  # an earlier event changed
    seat.receive(view(8, [], round_=1), 0.8, stats)  # a new round starts its log again
    assert (stats.duplicates, stats.out_of_order, stats.skipped_versions, stats.log_mismatches) == (1, 1, 1, 2)
    assert [v for v, *_ in seat.received] == [1, 2, 3, 5, 6, 7, 8]
    assert seat.first_at_least(4) == 0.5 and seat.first_at_least(9) is None and not stats.errors


def test_load_rooms_plays_melds_from_the_rack_only_when_they_open():
    from benchmarks.load_rooms import rack_melds

    rack = ["R1", "R2", "R3", "R4", "K4", "B4", "O4", "J", "R3"]
    assert rack_melds(rack, True, 30) == [["R1", "R2", "R3", "R4"], ["K4", "B4", "O4"]]
    assert rack_melds(rack, False, 30) == []  # 22 points: below the initial meld
    assert rack_melds(["R10", "R11", "R12", "K10", "B10", "O10", "K10"], False, 30) == [
        ["R10", "R11", "R12"],
        ["K10", "B10", "O10"],
    ]


def test_twist_hint_benchmark_smoke(capsys):
    from benchmarks import twist_hint

    assert twist_hint.main(["--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "twist, no hint: 3 searches" in out and "twist, the optimum as hint: 3 searches" in out
    assert "twist, the optimum as bound: 3 searches" in out and "twist, heuristic: hint and bound: 3 searches" in out
