"""The strength table's command (benchmarks/strength.py): which matches it plays, when a pair has
played enough, resuming an interrupted run, and a smoke run of the whole command."""

from __future__ import annotations

import json

from benchmarks import strength
from benchmarks.strength import Budget, Match, matches, read_results, shares_after


def _games(winners: list[int | None]) -> list[dict]:
    return [{"deal": i // 2, "winner": w} for i, w in enumerate(winners)]


def test_every_pair_stronger_first_the_table_of_all_levels_and_the_anchor_pairs():
    found = matches(["standard", "anchor"], ["easy", "medium", "hard", "expert"], four=True, anchor=True)
    standard = [m.kinds for m in found if m.rules == "standard"]
    assert len(standard) == 6 + 1
    assert ("expert", "hard") in standard and ("hard", "expert") not in standard
    assert ("easy", "medium", "hard", "expert") in standard
    anchor = [m.kinds for m in found if m.rules == "anchor"]
    assert anchor == [("easy", "medium"), ("hard", "medium"), ("expert", "medium")]
    assert strength.RULE_SETS["anchor"].jokers == 0


def test_a_pair_stops_at_its_budget_or_early_when_one_side_wins_above_the_decisive_share():
    budget = Budget(max_games=10, decisive=0.9, decisive_after=4, four_games=3)
    pair = Match("standard", ("hard", "easy"))
    assert budget.enough(pair, _games([0, 0, 0])) is None  # too few to call it
    assert budget.enough(pair, _games([0, 0, 0, 0])) == "decisive"
    assert budget.enough(pair, _games([0, 1, 1, 1, 1, 1])) is None  # 5 of 6 is not above 90%
    assert budget.enough(pair, _games([1] * 9 + [None])) == "games"  # draws count as games
    assert budget.enough(pair, _games([0, 1] * 5)) == "games"
    four = Match("standard", ("easy", "medium", "hard", "expert"))
    assert budget.enough(four, _games([0, 0])) is None
    assert budget.enough(four, _games([0, 0, 0])) == "games"  # never decisive, only its count


def test_each_levels_share_is_split_by_the_level_right_before_it():
    three = Match("standard", ("easy", "medium", "hard"))
    results = [
        {"seats": [0, 1, 2], "winner": 2},  # hard after medium wins
        {"seats": [0, 2, 1], "winner": 2},  # hard after easy wins
        {"seats": [1, 0, 2], "winner": 1},  # medium after hard wins
        {"seats": [2, 1, 0], "winner": None},  # a draw: nobody's win
    ]
    after = shares_after(three, results)
    assert after[2] == {0: (1, 3), 1: (1, 1)}
    assert after[1] == {0: (0, 1), 2: (1, 3)}
    assert after[0] == {1: (0, 3), 2: (0, 1)}


def test_a_deal_cut_off_by_an_interrupted_run_is_left_out(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in _games([0, 1, 1])))  # deal 1 has one game of two
    assert [g["deal"] for g in read_results(path, 2)] == [0, 0]
    assert read_results(tmp_path / "none.jsonl", 2) == []


def test_the_command_plays_resumes_and_writes_the_table(tmp_path, capsys):
    games, out = tmp_path / "games", tmp_path / "strength.md"
    base = ["--rules", "standard", "--levels", "easy,medium", "--no-four", "--step", "1", "--workers", "1"]
    base += ["--games-dir", str(games), "--out", str(out), "--decisive-after", "100"]
    assert strength.main([*base, "--max-games", "2"]) == 0
    path = games / "standard-medium-easy.jsonl"
    first = [json.loads(line) for line in path.read_text().splitlines()]
    assert [g["deal"] for g in first] == [0, 0] and sorted(g["seats"][0] for g in first) == [0, 1]
    with path.open("a") as f:  # a deal an interrupted run had begun: replayed, not counted twice
        f.write(json.dumps({**first[0], "deal": 1}) + "\n")
    assert strength.main([*base, "--max-games", "4"]) == 0
    again = [json.loads(line) for line in path.read_text().splitlines()]
    assert again[:2] == first and [g["deal"] for g in again] == [0, 0, 1, 1]
    assert again[2]["seed"] != first[0]["seed"]  # a new deal, not the first one again
    table = out.read_text()
    row = next(line for line in table.splitlines() if line.startswith("| medium vs easy |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    wins = sum(1 for g in again if g["winner"] == 0)
    assert cells[1] == "4" and cells[2] == f"**{100 * wins / 4:.1f}%**" and cells[5] == "0"
    assert cells[6] == "games"
    assert strength.main([*base, "--max-games", "4", "--report"]) == 0
    assert out.read_text().split("\n", 3)[3] == table.split("\n", 3)[3]  # the same rows from the files
    (games / strength.NOTES_FILE).write_text("Played at load 2, interrupted once.\n")
    assert strength.main([*base, "--max-games", "4", "--report"]) == 0
    noted = out.read_text()
    assert "\n\nPlayed at load 2, interrupted once.\n\n## Standard rules" in noted
    assert noted.split("## Standard rules")[1] == table.split("## Standard rules")[1]
    assert "medium vs easy" in capsys.readouterr().out


def test_the_table_of_all_levels_splits_shares_by_the_level_before_and_says_when_unfinished(tmp_path):
    games, out = tmp_path / "games", tmp_path / "strength.md"
    base = ["--rules", "standard", "--levels", "easy,medium,hard", "--max-games", "0", "--step", "1"]
    base += ["--workers", "1", "--games-dir", str(games), "--out", str(out)]
    assert strength.main([*base, "--four-games", "3"]) == 0
    played = [json.loads(line) for line in (games / "standard-easy-medium-hard.jsonl").read_text().splitlines()]
    assert len(played) == 3 and all(g["illegal_moves"] == 0 for g in played)
    table = out.read_text()
    assert "3 games:" in table and "(unfinished)" not in table
    # --max-games 0: no pair played, none of their files, no empty pair table
    assert [p.name for p in games.glob("*.jsonl")] == ["standard-easy-medium-hard.jsonl"]
    assert "| match |" not in table and " vs " not in table and "\n\n\n" not in table
    rows = [line for line in table.splitlines() if line.startswith(("| easy |", "| medium |", "| hard |"))]
    assert len(rows) == 3
    # one deal, one order round the table (easy, medium, hard): each level always after the same one
    for row, before, never in zip(rows, ["hard", "easy", "medium"], ["medium -", "hard -", "easy -"]):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert never in cells[5] and f"{before} {cells[2].strip('*')}" in cells[5]
    assert strength.main([*base, "--four-games", "6", "--report"]) == 0
    assert "3 games (unfinished):" in out.read_text()


def test_a_stored_result_keeps_its_move_times_to_the_millisecond():
    game = {
        "deal": 0,
        "winner": 1,
        "seconds": 1.23456,
        "think_seconds": [0.5, 0.25],
        "move_seconds": [[0.0014, 0.2], [0.0306]],
        "move_cpu_seconds": [[0.001], [0.03]],
    }
    stored = strength._compact(game)
    assert "move_seconds" not in stored and stored["move_ms"] == [[1, 200], [31]]
    back = strength._expanded(json.loads(json.dumps(stored)))
    assert back["move_seconds"] == [[0.001, 0.2], [0.031]] and back["move_cpu_seconds"] == [[0.001], [0.03]]
    assert back["winner"] == 1 and back["seconds"] == 1.235
