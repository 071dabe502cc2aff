"""Game rooms in a real browser (issue 39): headless Chromium driven by Playwright against
``rummisolve serve`` (the fixtures of conftest.py, the page of test_browser.py), several browser contexts at once, each with
its own localStorage, as several people on their own devices.

- Two players and a spectator: a room made by "Play with friends" in one context, joined by its
  invite link in another, watched from a third (a phone); turns played by the page's controls (an
  illegal play with the referee's reasons and nothing changed, draws, a legal play), each page
  following the others over the WebSocket without a reload; whose turn, the controls enabled only
  for the seat to move, the timer, the tile counts, the last move marked; a reload, and the invite
  opened again, resume the seat.
- Players sharing one screen (hot-seat) with an AI: between turns the "pass the device" screen
  keeps the next rack out of the page (its tiles are not in the DOM) until its player says they hold
  the device; a reload resumes both seats; the round ends and the next round is dealt.
- A seat's link kept and opened in a new browser, a free seat given to an AI from the waiting room,
  a turn the server times out; the discard rule (a draw keeps the turn, a discard ends it).

The deals are the server's secret (a room has no seed), so the tests read each seat's view from the
protocol and play what it allows (the best move of rack tiles only, found by the library, or a draw).
No page may log an error: an illegal play is judged (POST /verify) before it is sent, never refused.
Screenshots of every step (desktop and phone) go to the test's tmp dir, and a few to /tmp/pages-shots/.
"""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from rummisolve import solve_json

from .test_browser import DESKTOP, PHONE, Page

KEY_SHOTS = Path("/tmp/pages-shots")


class RoomPage(Page):
    """A page whose step screenshots go to the test's folder (and a few to /tmp/pages-shots)."""

    def __init__(self, browser, base: str, viewport: dict, shots: Path) -> None:
        super().__init__(browser, base, viewport)
        self.shots = shots

    def shoot_step(self, name: str, key: bool = False) -> None:
        """A screenshot at the desktop and the phone size in the tmp dir (``key``: copied to /tmp/pages-shots)."""
        size = self.page.viewport_size
        for suffix, viewport in (("", DESKTOP), ("-phone", PHONE)):
            self.page.set_viewport_size(viewport)
            path = self.shots / f"{name}{suffix}.png"
            self.page.screenshot(path=str(path), full_page=True)
            if key:
                KEY_SHOTS.mkdir(exist_ok=True)
                shutil.copy(path, KEY_SHOTS / path.name)
        self.page.set_viewport_size(size)


@pytest.fixture
def shots(tmp_path):
    folder = tmp_path / "shots"
    folder.mkdir()
    return folder


def call(base: str, path: str, token: str | None = None) -> dict:
    """GET a room's view from the protocol (a seat's with its token, else the spectator's)."""
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=10) as answer:
        return json.load(answer)


def settled(base: str, code: str, humans: dict, within: float = 30.0) -> dict:
    """The room's spectator view once it waits on a person (or is over): an AI seat's turn runs on
    the server after the person before it acts, so a view read at once may still show the AI to move."""
    deadline = time.monotonic() + within
    while True:
        view = call(base, f"/rooms/{code}")
        if view["status"] == "over" or view["turn"] in humans:
            return view
        if time.monotonic() > deadline:
            pytest.fail(f"the AI seat {view['turn']} did not move within {within} s")
        time.sleep(0.05)


def rack(p) -> list[str]:
    return p.get_by_test_id("rack").locator("[data-tile]").evaluate_all("ts => ts.map(t => t.dataset.tile)")


def version(p) -> int:
    return int(p.evaluate("document.body.dataset.roomVersion"))


def at_version(p, seen: int) -> None:
    """Wait until the page shows the room at version ``seen`` or later."""
    p.wait_for_function("v => Number(document.body.dataset.roomVersion) >= v", arg=seen)


def turn_is(p, text: str) -> None:
    p.wait_for_function("t => document.querySelector('[data-testid=turn]').textContent === t", arg=text)


def chips(p) -> list[str]:
    return p.get_by_test_id("player").all_inner_texts()


def counts(view: dict, you: int | None) -> list[str]:
    """The players' chips as a page should show them: names, tile counts, opened or not."""
    return [
        f"{p['name']}{' (you)' if s == you else ''}: {p['tiles']} tile{'' if p['tiles'] == 1 else 's'}"
        + ("" if p["opened"] else " · not opened")
        for s, p in enumerate(view["players"])
    ]


def rack_melds(view: dict) -> list[list[str]] | None:
    """The best move of the seat's rack tiles alone (new melds, the table left as it is), or None."""
    seat = view["seat"]
    position = {"rules": view["rules"], "table": [], "rack": view["rack"], "opened": view["players"][seat]["opened"]}
    best = solve_json(position)
    return best["table"] if best["status"] in ("optimal", "feasible") and best["played"] else None


def melds_shown(p) -> list[list[str]]:
    return (
        p.get_by_test_id("table")
        .locator("[data-meld]")
        .evaluate_all("ms => ms.map(m => [...m.querySelectorAll('[data-tile]')].map(t => t.dataset.tile))")
    )


def marked(p) -> list[list[str]]:
    """The melds the page marks as changed (the last move, or the others' since your turn)."""
    return (
        p.get_by_test_id("table")
        .locator("[data-meld][data-changed=true]")
        .evaluate_all("ms => ms.map(m => [...m.querySelectorAll('[data-tile]')].map(t => t.dataset.tile))")
    )


def lay_out(p, melds: list[list[str]]) -> None:
    """Put ``melds`` on the table by the page's controls: select each meld's rack tiles, then "+ new meld"."""
    box = p.get_by_test_id("rack")
    for meld in melds:
        for code in meld:
            box.locator(f"[data-tile='{code}'][aria-pressed=false]").first.click()
        p.get_by_test_id("new-meld-zone").click()


def last_log(p) -> str:
    return p.get_by_test_id("log").locator("li").last.inner_text()


# -- two players on two browsers, and a spectator ----------------------------------------------------


def test_two_browsers_play_a_room_by_its_invite_and_a_third_watches(browser, server, shots):
    ann = RoomPage(browser, server, DESKTOP, shots)
    a = ann.page
    ann.open("/play")
    assert a.get_by_test_id("room-seat-kind").evaluate_all("s => s.map(x => x.value)") == ["you", "friend"]
    a.get_by_test_id("room-seat-name").fill("Ann")
    a.get_by_test_id("room-timer").select_option("120")
    ann.shoot_step("01-play-with-friends", key=True)
    a.get_by_test_id("create-room").click()
    a.wait_for_url(re.compile(r"/play\?room=[A-Z]{6}&token=[\w-]+$"))
    a.wait_for_selector("body[data-ready=true]")
    code = a.get_by_test_id("room-code").inner_text()
    ann_token = a.url.split("token=")[1]
    # The waiting room: the invite link and the code, and who has joined.
    assert a.get_by_test_id("waiting-room").is_visible()
    assert a.get_by_test_id("invite-link").input_value() == f"{server}/r/{code}"
    seats = a.get_by_test_id("seat").evaluate_all("xs => xs.map(x => x.textContent)")
    assert seats[0] == "Seat 1: Ann has joined (you)" and seats[1].startswith("Seat 2: waiting for a player")
    assert a.get_by_test_id("turn").inner_text() == "Waiting for 1 player to join"
    assert a.locator("#rack-panel").is_hidden() and a.locator("#table-panel").is_hidden()  # until the game starts
    ann.shoot_step("02-waiting-room", key=True)
    a.evaluate("window.stayed = true")  # gone if the page reloads

    # Bo opens the invite in his own browser, names himself and joins; Ann's page follows by itself.
    bo = RoomPage(browser, server, DESKTOP, shots)
    b = bo.page
    bo.open(f"/r/{code}")
    join = b.get_by_test_id("join-room")
    assert join.is_visible() and "Ann invites you" in join.inner_text() and "120 s a turn" in join.inner_text()
    b.get_by_test_id("join-name").fill("Bo")
    bo.shoot_step("03-join-by-invite", key=True)
    b.get_by_test_id("join-button").click()
    b.wait_for_url(re.compile(rf"/play\?room={code}&token=[\w-]+$"))
    bo_token = b.url.split("token=")[1]
    turn_is(a, "Your turn · turn 1")
    turn_is(b, "Ann is playing · turn 1")
    assert a.get_by_test_id("waiting-room").is_hidden() and a.evaluate("window.stayed") is True
    b.evaluate("window.stayed = true")
    start = call(server, f"/rooms/{code}")
    assert start["status"] == "playing" and [p["name"] for p in start["players"]] == ["Ann", "Bo"]
    assert chips(a) == counts(start, 0) and chips(b) == counts(start, 1)
    assert a.get_by_test_id("draw").is_enabled() and a.get_by_test_id("end-turn").is_enabled()
    assert b.get_by_test_id("draw").is_disabled() and b.get_by_test_id("end-turn").is_disabled()
    for p in (a, b):  # the turn's clock, shown to both
        assert re.fullmatch(r"\d+ s", p.get_by_test_id("timer").inner_text())
    assert sorted(rack(a)) == sorted(call(server, f"/rooms/{code}", ann_token)["rack"])
    assert sorted(rack(b)) == sorted(call(server, f"/rooms/{code}", bo_token)["rack"])
    ann.shoot_step("04-game-ann")
    bo.shoot_step("04-game-bo", key=True)

    # A third browser (a phone) opens the invite once every seat is taken: it watches.
    watcher = RoomPage(browser, server, PHONE, shots)
    w = watcher.page
    watcher.open(f"/r/{code}")
    w.get_by_test_id("watching").wait_for()
    turn_is(w, "Ann is playing · turn 1")
    assert w.get_by_test_id("watching").inner_text().startswith("Every seat is taken: you are watching this room.")
    assert chips(w) == counts(start, None)
    assert w.locator("#rack-panel").is_hidden() and w.get_by_test_id("draw").is_hidden()
    assert w.get_by_test_id("rack").locator("[data-tile]").count() == 0
    assert w.locator("#table-controls").is_hidden()
    w.evaluate("window.stayed = true")
    watcher.shoot_step("05-spectator", key=True)

    pages = {0: ann, 1: bo}
    tokens = {0: ann_token, 1: bo_token}
    names = ["Ann", "Bo"]
    everyone = [ann, bo, watcher]
    done: Counter = Counter()
    for turn in range(40):
        mover = call(server, f"/rooms/{code}")["turn"]
        view = call(server, f"/rooms/{code}", tokens[mover])
        before = view["version"]
        me, other = pages[mover], pages[1 - mover]
        p = me.page
        turn_is(p, f"Your turn · turn {view['turn_number'] + 1}")
        p.wait_for_selector("body:not([data-pending]) [data-testid=draw]:not([disabled])")
        if not done["illegal"]:
            # Two tiles are no meld: the referee's reasons show, and nothing changes anywhere.
            box = p.get_by_test_id("rack")
            box.locator("[data-tile]").nth(0).click()
            box.locator("[data-tile]").nth(1).click()
            p.get_by_test_id("new-meld-zone").click()
            p.get_by_test_id("end-turn").click()  # judged before it is sent: no request is refused (issue 50)
            p.wait_for_function("document.querySelector('[data-testid=error]').textContent.startsWith('Not allowed')")
            error = p.get_by_test_id("error").inner_text()
            assert "meld 1" in error and "at least 3" in error, error
            assert p.get_by_test_id("table").locator("[data-meld='0'].bad").count() == 1
            after = call(server, f"/rooms/{code}", tokens[mover])  # nothing changed
            assert (after["version"], after["rack"], after["table"]) == (before, view["rack"], view["table"])
            assert all(version(page.page) == before for page in everyone)
            assert melds_shown(other.page) == view["table"] and melds_shown(w) == view["table"]
            turn_is(p, f"Your turn · turn {view['turn_number'] + 1}")
            me.shoot_step("06-illegal-play", key=True)
            p.get_by_test_id("reset").click()
            assert sorted(rack(p)) == sorted(view["rack"]) and p.get_by_test_id("error").inner_text() == ""
            done["illegal"] += 1
        melds = rack_melds(view) if done["illegal"] and turn > 0 else None  # the first turn draws
        if (
            melds and done["play"] < 2 and sum(map(len, melds)) < len(view["rack"])
        ):  # (not going out: the round goes on)
            lay_out(p, melds)
            assert melds_shown(p) == view["table"] + melds
            p.get_by_test_id("end-turn").click()
            kind = "play"
        else:
            p.get_by_test_id("draw").click()
            kind = "draw"
        p.wait_for_function("v => Number(document.body.dataset.roomVersion) > v", arg=before)
        now = call(server, f"/rooms/{code}")
        for page in everyone:
            at_version(page.page, now["version"])
        nxt = now["turn"]
        # Whose turn, on every page; the controls only on the mover's; the tile counts everywhere.
        turn_is(pages[nxt].page, f"Your turn · turn {now['turn_number'] + 1}")
        turn_is(pages[1 - nxt].page, f"{names[nxt]} is playing · turn {now['turn_number'] + 1}")
        turn_is(w, f"{names[nxt]} is playing · turn {now['turn_number'] + 1}")
        assert pages[nxt].page.get_by_test_id("draw").is_enabled()
        assert pages[1 - nxt].page.get_by_test_id("draw").is_disabled()
        assert pages[1 - nxt].page.get_by_test_id("end-turn").is_disabled()
        assert chips(ann.page) == counts(now, 0) and chips(bo.page) == counts(now, 1) and chips(w) == counts(now, None)
        assert melds_shown(w) == now["table"] and melds_shown(other.page) == now["table"]
        assert w.get_by_test_id("rack").locator("[data-tile]").count() == 0
        if kind == "play":
            # The move is marked: on the spectator's page as the last move, on the next player's as
            # what changed since their last turn; the log names the tiles played.
            assert marked(w) == melds and marked(other.page) == melds
            assert last_log(w) == f"{names[mover]} plays {' '.join(sorted(sum(melds, [])))}"
            step = "first-play" if not done["play"] else f"play-{turn}"
            other.shoot_step(f"07-after-the-{step}", key=not done["play"])
            watcher.shoot_step(f"07-after-the-{step}-spectator", key=not done["play"])
        else:
            drawn = call(server, f"/rooms/{code}", tokens[mover])["log"][-1]["tile"]
            assert last_log(p) == f"you draw {drawn}" and last_log(other.page) == f"{names[mover]} draws a tile"
            assert p.get_by_test_id("rack").locator("[data-drawn=true]").get_attribute("data-tile") == drawn
        done[kind] += 1
        if done["play"] and done["draw"] >= 2 and turn >= 3:
            break
    else:
        pytest.fail(f"no legal play of rack tiles came up in 40 turns: {done}")
    me.shoot_step("08-after-turns")
    assert all(page.page.evaluate("window.stayed") is True for page in everyone)  # no page reloaded

    # A reload resumes Bo's seat (the token kept in the browser), and so does the invite opened again.
    seen = call(server, f"/rooms/{code}", bo_token)
    b.reload()
    b.wait_for_selector("body[data-ready=true]")
    at_version(b, seen["version"])
    assert sorted(rack(b)) == sorted(seen["rack"]) and chips(b) == counts(seen, 1)
    bo.open(f"/r/{code}")
    at_version(b, seen["version"])
    assert b.url.endswith(f"/play?room={code}&token={bo_token}") and sorted(rack(b)) == sorted(seen["rack"])
    assert b.get_by_test_id("join-room").is_hidden() and b.get_by_test_id("watching").is_hidden()
    bo.shoot_step("09-bo-after-reload", key=True)
    for page in everyone:
        page.close()


# -- players sharing one screen, with an AI ----------------------------------------------------------

TINY = {
    "colours": 2,
    "numbers": 5,
    "copies": 1,
    "jokers": 0,
    "rack_size": 3,
    "min_meld_length": 4,
    "initial_threshold": 0,
}
"""Ten tiles, three to a rack and melds of four: with three seats the pool holds one tile and the AI
can never play, so when the players on the screen draw, the round is blocked after four turns."""


def tiles_in_page(p) -> int:
    """Every tile anywhere in the page (table, rack, score sheet)."""
    return p.locator("[data-tile]").count()


def hand_over(p, name: str) -> None:
    """Wait for the "pass the device to <name>" screen, check it hides every rack, and confirm."""
    p.get_by_test_id("pass-screen").wait_for()
    p.wait_for_function("n => document.querySelector('[data-testid=pass-name]').textContent === n", arg=name)
    assert p.get_by_test_id("rack").locator("[data-tile]").count() == 0  # not hidden by CSS: not in the page
    view = call(p.url.split("/play")[0], "/rooms/" + p.url.split("room=")[1].split("&")[0])
    assert tiles_in_page(p) == sum(len(m) for m in view["table"])  # only the table's tiles are in the page
    assert p.get_by_test_id("turn").inner_text() == f"{name}'s turn · pass the device to {name}"
    p.get_by_test_id("pass-ready").click()
    turn_is(p, f"Your turn, {name} · turn {view['turn_number'] + 1}")
    p.wait_for_selector("body:not([data-pending]) [data-testid=draw]:not([disabled])")


def test_players_sharing_a_screen_pass_the_device_and_see_no_other_rack(browser, server, shots):
    page = RoomPage(browser, server, DESKTOP, shots)
    p = page.page
    page.open("/play")
    p.get_by_test_id("room-seat-name").fill("Ann")
    p.get_by_test_id("room-seat-kind").nth(1).select_option("screen")
    p.get_by_test_id("room-seat-name").nth(1).fill("Cy")
    p.get_by_test_id("room-add-seat").click()
    p.get_by_test_id("room-seat-kind").nth(2).select_option("easy")
    p.locator("#room-rules summary").click()
    for name, value in TINY.items():
        p.locator(f"#room-rules [data-option={name}]").fill(str(value))
    page.shoot_step("10-shared-screen-setup", key=True)
    p.get_by_test_id("create-room").click()
    p.wait_for_url(re.compile(r"/play\?room=[A-Z]{6}&token=[\w-]+$"))
    p.wait_for_selector("body[data-ready=true]")
    code = p.url.split("room=")[1].split("&")[0]
    kept = p.evaluate("c => JSON.parse(localStorage.getItem('rummisolve.room.' + c)).tokens", code)
    tokens = {int(seat): token for seat, token in kept.items()}
    assert sorted(tokens) == [0, 1] and tokens[0] == p.url.split("token=")[1]
    view = call(server, f"/rooms/{code}")
    assert view["status"] == "playing" and [q["name"] for q in view["players"]] == ["Ann", "Cy", "easy"]

    # Ann's turn: the device is to be passed to her first; then her rack, and only hers.
    p.get_by_test_id("pass-screen").wait_for()
    page.shoot_step("11-pass-to-ann", key=True)
    hand_over(p, "Ann")
    assert sorted(rack(p)) == sorted(call(server, f"/rooms/{code}", tokens[0])["rack"])
    assert p.locator("#rack-owner").inner_text() == "Ann's rack"
    page.shoot_step("12-ann-on-the-shared-screen")
    p.get_by_test_id("draw").click()
    # Cy's turn: Ann's rack (and the tile she drew) leaves the page until Cy says he holds the device.
    p.get_by_test_id("pass-screen").wait_for()
    assert last_log(p) == "Ann draws a tile" and p.get_by_test_id("message").inner_text() == ""
    page.shoot_step("13-pass-to-cy", key=True)
    hand_over(p, "Cy")
    assert sorted(rack(p)) == sorted(call(server, f"/rooms/{code}", tokens[1])["rack"])
    p.get_by_test_id("draw").click()

    # The AI plays by itself; then Ann's turn again, behind the pass screen. A reload resumes both seats.
    p.get_by_test_id("pass-screen").wait_for()
    p.wait_for_function("document.querySelector('[data-testid=pass-name]').textContent === 'Ann'")
    assert len(p.get_by_test_id("log").locator("li").all_inner_texts()) >= 3
    p.reload()
    p.wait_for_selector("body[data-ready=true]")
    hand_over(p, "Ann")
    assert sorted(rack(p)) == sorted(call(server, f"/rooms/{code}", tokens[0])["rack"])
    names = ["Ann", "Cy"]
    for _ in range(20):  # everyone draws (or passes, the pool empty) until the round is blocked
        p.get_by_test_id("draw").click()
        p.wait_for_function(
            "document.querySelector('[data-testid=pass-screen]:not(.hidden)')"
            " || !document.querySelector('[data-testid=round-over]').classList.contains('hidden')"
        )
        view = call(server, f"/rooms/{code}")
        if view["status"] == "over":
            break
        hand_over(p, names[view["turn"]])
    else:
        pytest.fail("the round did not end")
    # The round's end: every rack laid down, the scores, and the next round dealt from this screen.
    assert view["end_reason"] == "blocked" and view["turn_number"] == 4
    turn_is(p, "Round over after 4 turns")
    assert p.get_by_test_id("pass-screen").is_hidden()
    assert p.get_by_test_id("scores").locator("tr").count() == 4  # a header and three players
    assert tiles_in_page(p) == sum(len(m) for m in view["table"]) + sum(q["tiles"] for q in view["players"])
    page.shoot_step("14-round-over", key=True)
    p.get_by_test_id("next-round").click()
    p.get_by_test_id("pass-screen").wait_for()
    p.wait_for_function(
        "document.querySelector('[data-testid=pass-name]').textContent === 'Cy'"
    )  # the first seat moves on
    # The spectator's view (shown behind the pass screen) comes on its own WebSocket: wait for it.
    p.wait_for_function("document.querySelector('#round-info').textContent.startsWith('Round 2')")
    assert p.get_by_test_id("round-over").is_hidden()
    page.close()


# -- a kept link, a seat handed to an AI, and the turn timer ------------------------------------------


def post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def test_a_kept_link_opens_the_seat_the_creator_seats_an_ai_and_the_timer_runs_out(browser, server, shots):
    # A room made elsewhere (any client of the protocol) with a 2 s timer; its seat's link opened in a
    # browser that has never seen it.
    made = post(server, "/rooms", {"seats": ["human", "human"], "name": "Ann", "timer": 2})
    code = made["room"]
    ann = RoomPage(browser, server, PHONE, shots)
    p = ann.page
    ann.open(f"/play?room={code}&token={made['token']}")
    p.get_by_test_id("waiting-room").wait_for()
    assert p.get_by_test_id("timer").is_hidden()  # no clock runs while the room waits
    kept = p.evaluate("c => JSON.parse(localStorage.getItem('rummisolve.room.' + c)).tokens", code)
    assert kept == {"0": made["token"]}
    # Nobody comes: Ann gives the free seat to the AI, and the game starts.
    p.get_by_test_id("seat").nth(1).locator("select").select_option("easy")
    p.get_by_test_id("give-to-ai").click()
    turn_is(p, "Your turn · turn 1")
    assert chips(p)[1] == "easy (for player 2) (AI): 14 tiles · not opened"
    assert re.fullmatch(r"[0-2] s", p.get_by_test_id("timer").inner_text())
    ann.shoot_step("15-seat-given-to-the-ai")
    # Ann does nothing: the server times her turn out, she draws the penalty, the AI plays, and it is
    # her turn again, each on the page as it happens.
    p.wait_for_function(
        "[...document.querySelectorAll('[data-testid=log] li')].some(l => l.textContent.startsWith('you run out of time'))"
    )
    log = p.get_by_test_id("log").locator("li").all_inner_texts()
    assert log[0] == "you run out of time and draw 3 penalty tiles", log
    timeouts = sum(1 for line in log if line == "you run out of time and draw 3 penalty tiles")
    assert len(rack(p)) == 14 + 3 * timeouts  # the rack and the log are of one view
    ann.shoot_step("16-turn-timed-out", key=True)
    # The page lists the room among this browser's, to go back to.
    ann.open("/play")
    assert p.get_by_test_id("my-room").first.text_content() == f"Room {code} your seat 1Forget"
    p.get_by_test_id("my-room").first.get_by_role("link").click()
    p.wait_for_url(re.compile(rf"/play\?room={code}$"))
    p.wait_for_selector("body[data-ready=true]")
    assert p.url.endswith(f"/play?room={code}") and p.get_by_test_id("rack").locator("[data-tile]").count() >= 14
    ann.close()


def test_the_discard_rule_in_a_room_a_draw_keeps_the_turn_then_a_discard_ends_it(browser, server, shots):
    made = post(server, "/rooms", {"rules": {"preset": "standard", "discard": True}, "seats": ["human", "easy"]})
    code, token = made["room"], made["token"]
    page = RoomPage(browser, server, DESKTOP, shots)
    p = page.page
    page.open(f"/play?room={code}&token={token}")
    turn_is(p, "Your turn · turn 1")
    assert p.get_by_test_id("draw").inner_text() == "Draw from the pool"
    pile = made["view"]["discard_pile"]  # the deal turns one tile up
    assert p.get_by_test_id("pick").is_enabled() == bool(pile)
    assert p.get_by_test_id("discard-top").get_attribute("data-tile") == pile[-1]
    p.get_by_test_id("draw").click()
    # The draw keeps the turn: the drawn tile is on the rack, marked, and Draw is spent. (The page
    # shows the draw's version once the server has it: read the seat's view only then.)
    at_version(p, made["view"]["version"] + 1)
    seen = call(server, f"/rooms/{code}", token)
    assert seen["turn"] == 0 and seen["drawn"] is not None
    turn_is(p, "Your turn · turn 1")
    assert sorted(rack(p)) == sorted(seen["rack"]) and p.get_by_test_id("draw").is_disabled()
    assert p.get_by_test_id("pick").is_disabled()
    assert p.get_by_test_id("rack").locator("[data-drawn=true]").get_attribute("data-tile") == seen["drawn"]
    # A tile selected and End turn: the discard, and the turn passes (the AI's, then Ann's again).
    tile = rack(p)[0]
    p.get_by_test_id("rack").locator(f"[data-tile='{tile}']").first.click()
    p.get_by_test_id("end-turn").click()
    turn_is(p, "Your turn · turn 3")
    log = p.get_by_test_id("log").locator("li").all_inner_texts()
    assert log[:2] == [f"you draw {seen['drawn']}", f"you discard {tile}"], log
    after = call(server, f"/rooms/{code}", token)
    assert p.get_by_test_id("discard-top").get_attribute("data-tile") == after["discard_pile"][-1]
    assert sorted(rack(p)) == sorted(after["rack"])
    page.shoot_step("17-discard-rule")
    page.close()


# -- a whole round: two people on two browsers and an AI, from the invite link, a third watching --------


def test_two_browsers_and_an_ai_play_a_whole_round_from_the_invite_while_a_third_watches(browser, server, shots):
    """Issue 39's "done when": Ann makes the room with a friend's seat and an AI's, Bo joins by the
    invite link on his own browser, a phone watches; they play to the round's end (TINY rules: 10
    tiles, no meld possible, so the round is blocked once the pool is drawn), every page follows
    by itself and shows the end and the scores; then the next round is dealt to everyone."""
    ann = RoomPage(browser, server, DESKTOP, shots)
    a = ann.page
    ann.open("/play")
    a.get_by_test_id("room-seat-name").fill("Ann")
    a.get_by_test_id("room-add-seat").click()
    a.get_by_test_id("room-seat-kind").nth(2).select_option("easy")
    a.locator("#room-rules summary").click()
    for name, value in TINY.items():
        a.locator(f"#room-rules [data-option={name}]").fill(str(value))
    a.get_by_test_id("create-room").click()
    a.wait_for_url(re.compile(r"/play\?room=[A-Z]{6}&token=[\w-]+$"))
    a.wait_for_selector("body[data-ready=true]")
    code = a.get_by_test_id("room-code").inner_text()
    invite = a.get_by_test_id("invite-link").input_value()
    assert invite == f"{server}/r/{code}"

    bo = RoomPage(browser, server, DESKTOP, shots)
    b = bo.page
    bo.open(invite.removeprefix(server))
    b.get_by_test_id("join-name").fill("Bo")
    b.get_by_test_id("join-button").click()
    b.wait_for_url(re.compile(rf"/play\?room={code}&token=[\w-]+$"))
    watcher = RoomPage(browser, server, PHONE, shots)
    w = watcher.page
    watcher.open(f"/r/{code}")
    w.get_by_test_id("watching").wait_for()
    for p in (a, b, w):
        p.evaluate("window.stayed = true")  # gone if a page reloads
    start = call(server, f"/rooms/{code}")
    assert start["status"] == "playing" and [q["name"] for q in start["players"]] == ["Ann", "Bo", "easy"]

    pages = {0: a, 1: b}
    for _ in range(20):  # each person draws on their turn (no meld exists); the AI plays itself
        view = settled(server, code, humans=pages)
        if view["status"] == "over":
            break
        p = pages[view["turn"]]
        turn_is(p, f"Your turn · turn {view['turn_number'] + 1}")
        other = pages[1 - view["turn"]]
        assert other.get_by_test_id("draw").is_disabled() and other.get_by_test_id("end-turn").is_disabled()
        p.wait_for_selector("body:not([data-pending]) [data-testid=draw]:not([disabled])")
        p.get_by_test_id("draw").click()
        p.wait_for_function("v => Number(document.body.dataset.roomVersion) > v", arg=view["version"])
    else:
        pytest.fail("the round did not end")
    assert view["end_reason"] == "blocked"
    over = f"Round over after {view['turn_number']} turns"
    for p in (a, b, w):  # every page shows the end by itself, no reload
        at_version(p, view["version"])
        turn_is(p, over)
        assert p.get_by_test_id("scores").locator("tr").count() == 4  # a header and three players
        assert p.evaluate("window.stayed") is True
    # The scores table: each seat's score this round and its total, from the view's results.
    results = view["results"]
    rows = [
        [c.inner_text() for c in r.locator("td").all()[:3]] for r in w.get_by_test_id("scores").locator("tr").all()[1:]
    ]
    assert rows == [
        [q["name"], str(s), str(t)]
        for q, s, t in zip(view["players"], results["last"]["scores"], results["totals"], strict=True)
    ]
    ann.shoot_step("17-whole-round-over", key=True)
    watcher.shoot_step("17-whole-round-over-spectator", key=True)
    assert w.get_by_test_id("next-round").is_hidden()  # a spectator does not deal
    a.get_by_test_id("next-round").click()
    totals = ", ".join(f"{q['name']} {t}" for q, t in zip(view["players"], results["totals"], strict=True))
    for p in (a, b, w):
        p.wait_for_function("document.querySelector('#round-info').textContent.includes('Round 2')")
        assert p.locator("#round-info").inner_text().endswith(f"totals {totals}")  # the totals carry over
    for page in (ann, bo, watcher):
        page.close()
