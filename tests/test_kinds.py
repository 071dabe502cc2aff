"""The registry of game kinds: the tile game and Xpress found by name, by rule set and by saved
format; and a new kind plugged in (here, in the test) plays in the terminal, in tournaments and on
the web without a change to the CLI or the server."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from rummisolve import kinds
from rummisolve.cli import main
from rummisolve.errors import OptionError
from rummisolve.game.tile_game import TILE_GAME, TileGame
from rummisolve.kinds import find_kind, kind_of, kind_of_save, register_kind
from rummisolve.rules import OFFICIAL, STANDARD, TWIST, XPRESS, RuleSet
from rummisolve.server.session import Session
from rummisolve.xpress.kind import XPRESS_GAME


def test_the_built_in_kinds_are_found_by_name_rules_and_saved_format():
    assert find_kind("xpress") is XPRESS_GAME and find_kind("Tiles") is TILE_GAME
    assert find_kind("official") is TILE_GAME and find_kind("twist") is TILE_GAME
    assert [kind_of(r) for r in (STANDARD, OFFICIAL, TWIST, XPRESS)] == [TILE_GAME] * 3 + [XPRESS_GAME]
    assert kind_of(RuleSet(discard=True)) is TILE_GAME
    for fmt in ("rummisolve-game", "rummisolve-session", "rummisolve-match"):
        assert kind_of_save({"format": fmt}) is TILE_GAME
    for fmt in ("rummisolve-xpress-game", "rummisolve-xpress-session", "rummisolve-xpress-match"):
        assert kind_of_save({"format": fmt}) is XPRESS_GAME
    assert kind_of_save([1]) is TILE_GAME  # nobody claims it: the tile game's loader says what is wrong
    with pytest.raises(OptionError, match="unknown game kind 'chess' \\(known: xpress, tiles\\)"):
        find_kind("chess")
    with pytest.raises(TypeError):
        register_kind("mini")  # type: ignore[arg-type]


# -- a kind plugged in ------------------------------------------------------------------------------

CALLS: list[tuple[str, Any]] = []


class MiniGame(TileGame):
    """The tile game with seven-tile racks, as a kind of its own (for this test only)."""

    name = "mini"
    title = "the mini game"
    aliases = ("short",)
    ai_levels = ("easy",)
    formats = ("rummisolve-mini-session", "rummisolve-mini-match")
    match_format = "rummisolve-mini-match"
    session = "tests.test_kinds:MiniSession"
    rooms_refused = "the mini game is not played in game rooms"

    def plays(self, rules: RuleSet) -> bool:
        return rules.rack_size == 7 and not rules.dice

    def tournament_game(self):  # type: ignore[no-untyped-def]
        CALLS.append(("tournament", None))
        return super().tournament_game()

    def play_in_terminal(self, args: argparse.Namespace, rules: RuleSet, kinds: list[str] | None) -> int:
        CALLS.append(("terminal", (rules.rack_size, kinds, args.load)))
        print("the mini game at the terminal")
        return 0


MINI = MiniGame()
MINI_RULES = {"rack_size": 7}


class MiniSession(Session):
    """The mini game's web session: the tile game's, under its own kind and format."""

    KIND = MINI
    FORMAT = "rummisolve-mini-session"


@pytest.fixture
def mini(monkeypatch):
    monkeypatch.setattr(kinds, "KINDS", list(kinds.KINDS))
    register_kind(MINI)
    CALLS.clear()
    return MINI


def test_a_new_kind_is_found_before_the_kinds_already_there(mini):
    assert kinds.KINDS[0] is mini and find_kind("short") is mini
    assert kind_of(RuleSet(rack_size=7)) is mini and kind_of(STANDARD) is TILE_GAME
    assert kind_of_save({"format": "rummisolve-mini-match"}) is mini
    register_kind(MiniGame())  # the same name again: replaced, not doubled
    assert [k.name for k in kinds.KINDS] == ["mini", "xpress", "tiles"]


def test_the_cli_plays_a_new_kind_in_the_terminal_by_its_rules_or_its_save(mini, tmp_path, capsys):
    assert main(["play", "--rules", json.dumps(MINI_RULES), "--players", "human,easy"]) == 0
    saved = tmp_path / "mini.json"
    saved.write_text(json.dumps({"format": "rummisolve-mini-match"}))
    assert main(["play", "--load", str(saved)]) == 0
    # the kind of the save plays it (its loader reads the save's rules; --rules is the default here)
    assert CALLS == [("terminal", (7, ["human", "easy"], None)), ("terminal", (14, None, str(saved)))]
    assert capsys.readouterr().out.count("the mini game at the terminal") == 2


def test_the_tournament_command_plays_a_new_kind_with_its_own_levels(mini, capsys):
    assert main(["tournament", "--rules", json.dumps(MINI_RULES), "--players", "easy,medium", "--games", "2"]) == 2
    assert "unknown AI level of the mini game 'medium' (choose from easy)" in capsys.readouterr().err
    code = main(
        ["tournament", "--rules", json.dumps(MINI_RULES), "--players", "easy,easy", "--games", "2"]
        + ["--workers", "1", "--no-progress", "--json"]
    )
    assert code == 0 and CALLS == [("tournament", None)]
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["rules"]["rack_size"] == 7


def test_the_web_plays_a_new_kind_through_its_session_and_rooms_refuse_it_in_its_words(mini, tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    import dataclasses
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's notice about httpx, as in tests/server
        from fastapi.testclient import TestClient

    from rummisolve.server.app import create_app
    from rummisolve.server.settings import Settings

    settings = dataclasses.replace(Settings(), allowed_hosts="testserver")
    with TestClient(create_app(settings, db=str(tmp_path / "games.sqlite3"))) as api:
        created = api.post("/games", json={"players": "human,easy", "rules": MINI_RULES, "seed": 4})
        assert created.status_code == 201, created.text
        ident, token = created.json()["id"], created.json()["token"]
        state = created.json()["state"]
        assert len(state["rack"]) == 7 and state["rules"]["rack_size"] == 7
        headers = {"Authorization": f"Bearer {token}"}
        drawn = api.post(f"/games/{ident}/draw", json={}, headers=headers)
        assert drawn.status_code == 200, drawn.text
        from rummisolve.server.sessions import session_from_json

        again = api.get(f"/games/{ident}/saved", headers=headers).json()
        assert again["format"] == "rummisolve-mini-session"
        assert type(session_from_json(again)) is MiniSession
        room = api.post("/rooms", json={"seats": ["human", "human"], "rules": MINI_RULES, "name": "ann"})
        assert room.status_code == 400 and "the mini game is not played in game rooms" in room.text
