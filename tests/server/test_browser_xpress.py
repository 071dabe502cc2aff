"""Xpress (the dice edition) on the play page in a real browser (headless Chromium, fixtures in
conftest.py): the dice drawn as dice with their faces, the opponent's dice shown, the re-roll hint,
dice picked and rolled, an illegal play's reason, a play laid out and made, the AI's turn, and
passes to the end of the game. No console errors. Screenshots go to ``tests/screenshots/xpress-*``.
"""

from __future__ import annotations

import json
import re
import urllib.parse

from rummisolve.xpress import XpressGame

from .test_browser import DESKTOP, Page

SEED = 5
"""A practice game whose first player is the human; rolling the dice the hint advises gives a play."""


def _dice(locator) -> dict[str, str]:
    """Each die drawn under ``locator``: its name -> the face it shows."""
    pairs = locator.locator("[data-die]").evaluate_all("ds => ds.map(d => [d.dataset.die, d.dataset.tile])")
    return dict(pairs)


def _idle(p) -> None:
    p.wait_for_selector("body:not([data-pending])")
    p.wait_for_function("!document.querySelector('[data-testid=turn]').textContent.includes('…')")


def _state(page, ident: str) -> dict:
    answer = page.context.request.get(f"{page.base}/games/{ident}")
    assert answer.ok, answer.text()
    return answer.json()["state"]


def test_an_xpress_game_in_the_browser(browser, server):
    game = XpressGame(SEED)
    assert game.current == 0, "the seed no longer gives the human the first turn"
    page = Page(browser, server, DESKTOP)
    p = page.page
    page.open(f"/play?rules=xpress&players=human,medium&seed={SEED}&delay=0")
    _idle(p)
    ident = re.search(r"game=([^&]+)", p.url).group(1)
    rack, opponent = p.get_by_test_id("rack"), p.get_by_test_id("opponent-dice")
    view = game.view(0)
    # The dice as the seed rolls them, for both seats (open information).
    assert _dice(rack) == {d: str(f) for d, f in zip(view.dice, view.rack, strict=True)}
    theirs = game.view(1)
    assert _dice(opponent) == {d: str(f) for d, f in zip(theirs.dice, theirs.rack, strict=True)}
    assert "pick dice to roll" in p.get_by_test_id("turn").inner_text()
    assert p.get_by_test_id("end-turn").is_hidden()  # the roll comes first

    # Two dice picked: the roll button says so; picked again, unpicked.
    first, second = view.dice[0], view.dice[4]
    rack.locator(f"[data-die={first}]").click()
    rack.locator(f"[data-die={second}]").click()
    assert p.get_by_test_id("roll").inner_text() == "Roll 2 dice"
    assert rack.locator("[aria-pressed=true]").count() == 2
    rack.locator(f"[data-die={second}]").click()
    assert p.get_by_test_id("roll").inner_text() == "Roll 1 die"

    # The re-roll hint, in figures; its button picks the advised dice.
    p.get_by_test_id("hint").click()
    p.wait_for_selector("[data-testid=hint-text]:not(.hidden)")
    hint = p.get_by_test_id("hint-text").inner_text()
    assert re.match(r"Hint: (roll D\d+.*|keep all your dice): \d+\.\d\d", hint), hint
    assert re.search(r"against \d+\.\d\d keeping all|the best roll", hint), hint
    page.shoot("xpress-roll-hint")
    p.get_by_test_id("hint-apply").click()
    advised = rack.locator("[aria-pressed=true]").evaluate_all("ds => ds.map(d => d.dataset.die)")
    assert advised and all(d in hint for d in advised)
    assert p.get_by_test_id("roll").inner_text() == f"Roll {len(advised)} dice"

    # The roll: the picked dice show what the seed rolls for them; the others keep their faces.
    p.get_by_test_id("roll").click()
    _idle(p)
    p.wait_for_function("document.querySelector('[data-testid=turn]').textContent.includes('play or pass')")
    game.roll(advised)
    view = game.view(0)
    assert _dice(rack) == {d: str(f) for d, f in zip(view.dice, view.rack, strict=True)}
    assert p.get_by_test_id("roll").is_hidden()
    assert "you roll" in p.get_by_test_id("log").inner_text()
    page.shoot("xpress-rolled")

    # An illegal play: one die alone is no set. The referee's reason shows; nothing changed.
    one = rack.locator("[data-die]").first
    one.click()
    p.get_by_test_id("new-meld-zone").click()
    p.get_by_test_id("end-turn").click()
    p.wait_for_function("document.querySelector('[data-testid=message]').textContent.includes('Not allowed')")
    assert "at least 3" in p.get_by_test_id("message").inner_text()
    assert _state(page, ident)["rack"] == [str(t) for t in view.rack]
    p.get_by_test_id("reset").click()

    # The best play, hinted, laid out and played: those dice go to the table, the AI moves, it is our turn again.
    for _ in range(3):
        p.get_by_test_id("hint").click()
        _idle(p)
    p.wait_for_selector("#hint-apply-row:not(.hidden)")
    p.get_by_test_id("hint-apply").click()
    on_table = _dice(p.get_by_test_id("table"))
    assert on_table and set(on_table) <= set(view.dice)
    p.get_by_test_id("end-turn").click()
    p.wait_for_function("document.querySelector('[data-testid=log]').children.length >= 3")
    _idle(p)
    log = p.get_by_test_id("log").inner_text()
    assert "you play" in log and re.search(r"medium (rolls|keeps)", log), log
    state = _state(page, ident)
    assert state["log"][1]["type"] == "play" and set(state["log"][1]["dice"]) == set(on_table)
    assert not set(on_table) & set(state["dice"])
    p.wait_for_timeout(1000)  # the AI's roll has tumbled
    page.shoot_both("xpress-after-ai")

    # Then passes (keeping all, or after a roll) until the game ends.
    for turn in range(60):
        if p.get_by_test_id("round-over").is_visible():
            break
        if p.get_by_test_id("roll-none").is_visible():
            p.get_by_test_id("roll-all" if turn % 2 else "roll-none").click()
            _idle(p)
        p.get_by_test_id("draw").click()  # "Pass"
        _idle(p)
    assert p.get_by_test_id("round-over").is_visible()
    state = _state(page, ident)
    assert state["finished"]
    summary = p.locator("#round-summary").inner_text()
    if state["winner"] is None:
        assert summary.startswith("A draw")
    else:
        assert summary.startswith("You win" if state["winner"] == 0 else "Medium wins")
    assert p.get_by_test_id("next-round").inner_text() == "Next game"
    assert p.get_by_test_id("scores").locator("[data-die]").count() == sum(len(q["dice"]) for q in state["players"])
    p.wait_for_timeout(1000)
    page.shoot_both("xpress-game-over")
    # The replay of the game: every seat's dice at each turn.
    p.get_by_test_id("replay").click()
    p.wait_for_selector("[data-testid=replay-view]:not(.hidden)")
    assert p.locator("#replay-racks [data-die]").count() == 18  # the opening roll: 9 dice each
    page.close()


def test_the_analysis_board_takes_dice_and_ranks_the_rerolls(browser, server):
    from rummisolve import solve_json

    position = {"rules": "xpress", "table": [["R5", "R6", "R7"]], "rack": ["K1", "K3", "R8"]}
    dice = ["D7", "D1", "D9"]
    expected = solve_json({**position, "dice": dice, "reroll": True})["reroll"]
    page = Page(browser, server, DESKTOP)
    p = page.page
    page.open("/?position=" + urllib.parse.quote(json.dumps(position)))
    p.wait_for_selector("[data-testid=dice-box]:not(.hidden)")
    for i, die in enumerate(dice):
        choice = p.locator(f"[data-testid=die-of][data-entry='{i}']")
        offered = choice.locator("option").evaluate_all("os => os.map(o => o.value)")
        assert die in offered and all(d == "" or position["rack"][i] in _faces(d) for d in offered)
        choice.select_option(die)
    p.get_by_test_id("reroll").check()
    p.get_by_test_id("solve").click()
    p.wait_for_selector("[data-testid=reroll-result]:not(.hidden)")
    best = p.get_by_test_id("reroll-best").inner_text()
    rolled = [f"{dice[i]} ({position['rack'][i]})" for i in expected["dice"]]
    assert best.startswith(f"Roll {', '.join(rolled)}: {expected['expected']['tiles']:.2f} dice expected"), best
    rows = p.get_by_test_id("reroll-option")
    assert rows.count() == len(expected["options"]) == 2 ** len(dice)
    for row, option in zip(rows.all(), expected["options"], strict=True):
        assert f"{option['expected']['tiles']:.2f}" in row.inner_text()
    query = json.loads(urllib.parse.parse_qs(urllib.parse.urlparse(p.url).query)["position"][0])
    assert query["dice"] == dice and query["reroll"] is True  # the shared link keeps the dice
    page.shoot("xpress-analysis")
    page.close()


def _faces(name: str) -> list[str]:
    from rummisolve.xpress import die_named

    return [str(f) for f in die_named(name).faces]


def test_the_setup_page_starts_an_xpress_game_against_one_dice_ai(browser, server):
    from rummisolve.xpress import XPRESS_AI_LEVELS

    page = Page(browser, server, DESKTOP)
    p = page.page
    page.open("/play")
    p.locator("#setup-rules [data-testid=rules-preset]").select_option("xpress")
    assert p.get_by_test_id("ai-level").count() == 1 and p.get_by_test_id("add-ai").is_disabled()
    levels = p.get_by_test_id("ai-level").locator("option").evaluate_all("os => os.map(o => o.value)")
    assert levels == list(XPRESS_AI_LEVELS)
    p.get_by_test_id("ai-level").select_option("easy")
    p.get_by_test_id("start").click()
    p.wait_for_selector("#game:not(.hidden)")
    _idle(p)
    assert p.get_by_test_id("rack").locator("[data-die]").count() == 9
    assert p.get_by_test_id("opponent-dice").locator("[data-die]").count() == 9
    assert "easy" in p.get_by_test_id("opponent-dice").inner_text()
    assert p.get_by_test_id("practice").is_hidden()  # no seed chosen: a secret one
    page.close()
