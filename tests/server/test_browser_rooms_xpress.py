"""An Xpress room in a real browser (issue 48, point 4): headless Chromium driven by Playwright
against ``rummisolve serve`` (the fixtures of conftest.py), as in test_browser_rooms.py.

Ann makes an Xpress room by "Play with friends" (the dice edition's preset), Bo joins by the invite
link in his own browser, a phone watches once both seats are taken. Turns are played by the page's
controls: dice picked and rolled (each page, the spectator's too, shows the new faces without a
reload), an illegal play judged with the referee's reasons and nothing changed, a legal play of
dice (the best one for the faces shown, found by the library) or a pass. Every page shows both
seats' dice (rolled in the open); the spectator has no rack and no controls. No page logs an
error. Screenshots of every step go to the test's tmp dir, and a few to /tmp/pages-shots/.
"""

from __future__ import annotations

import re

import pytest

from .test_browser import DESKTOP, PHONE
from .test_browser_rooms import (
    RoomPage,
    at_version,
    call,
    lay_out,
    rack_melds,
    shots,  # noqa: F401 (the screenshots' folder, a fixture)
    turn_is,
)


def _dice(locator) -> dict[str, str]:
    """Each die drawn under ``locator``: its name -> the face it shows."""
    return dict(locator.locator("[data-die]").evaluate_all("ds => ds.map(d => [d.dataset.die, d.dataset.tile])"))


def _every_seat(view: dict) -> dict[str, str]:
    return {d["die"]: d["face"] for p in view["players"] for d in p["dice"]}


@pytest.mark.slow
def test_two_browsers_play_an_xpress_room_by_its_invite_and_a_third_watches(browser, server, shots):  # noqa: F811
    ann = RoomPage(browser, server, DESKTOP, shots)
    a = ann.page
    ann.open("/play")
    a.get_by_test_id("room-rules-preset").select_option("xpress")
    kinds = a.get_by_test_id("room-seat-kind")
    assert kinds.evaluate_all("s => s.map(x => x.value)") == ["you", "friend"]
    levels = kinds.first.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert "expert" not in levels and "hard" in levels  # Xpress's own AI levels
    a.get_by_test_id("room-seat-name").fill("Ann")
    a.get_by_test_id("room-timer").select_option("120")
    ann.shoot_step("x01-xpress-room-setup", key=True)
    a.get_by_test_id("create-room").click()
    a.wait_for_url(re.compile(r"/play\?room=[A-Z]{6}&token=[\w-]+$"))
    a.wait_for_selector("body[data-ready=true]")
    code = a.get_by_test_id("room-code").inner_text()
    ann_token = a.url.split("token=")[1]
    assert a.get_by_test_id("invite-link").input_value() == f"{server}/r/{code}"

    bo = RoomPage(browser, server, DESKTOP, shots)
    b = bo.page
    bo.open(f"/r/{code}")
    b.get_by_test_id("join-name").fill("Bo")
    bo.shoot_step("x02-join-xpress-by-invite")
    b.get_by_test_id("join-button").click()
    b.wait_for_url(re.compile(rf"/play\?room={code}&token=[\w-]+$"))
    bo_token = b.url.split("token=")[1]
    start = call(server, f"/rooms/{code}")
    assert start["status"] == "playing" and start["rules"] == "xpress" and "seed" not in start
    tokens = {0: ann_token, 1: bo_token}
    pages = {0: ann, 1: bo}
    names = ["Ann", "Bo"]

    watcher = RoomPage(browser, server, PHONE, shots)
    w = watcher.page
    watcher.open(f"/r/{code}")
    w.get_by_test_id("watching").wait_for()
    w.wait_for_function(
        "document.querySelector('[data-testid=watching]').textContent.includes('dice are rolled in the open')"
    )
    assert w.locator("#rack-panel").is_hidden() and w.get_by_test_id("roll").is_hidden()
    assert w.get_by_test_id("draw").is_hidden() and w.locator("#table-controls").is_hidden()
    # Every seat's dice, shown to everyone: they are rolled in the open.
    w.wait_for_function("document.querySelectorAll('#opponent-dice [data-die]').length === 18")
    assert _dice(w.locator("#opponent-dice")) == _every_seat(start)
    watcher.shoot_step("x03-xpress-spectator", key=True)

    played = illegal = passed = 0
    for turn in range(12):
        view = call(server, f"/rooms/{code}")
        if view["status"] != "playing":
            break
        mover = view["turn"]
        me, other = pages[mover], pages[1 - mover]
        p = me.page
        turn_is(p, f"Your turn · turn {view['turn_number'] + 1}")
        turn_is(other.page, f"{names[mover]} is playing · turn {view['turn_number'] + 1}")
        # The roll comes first: the mover's free dice are toggles, the play's controls hidden.
        p.wait_for_selector("body:not([data-pending]) [data-testid=roll-none]:not([disabled])")
        assert p.get_by_test_id("end-turn").is_hidden() and other.page.get_by_test_id("roll-none").is_hidden()
        mine = call(server, f"/rooms/{code}", tokens[mover])
        assert _dice(p.get_by_test_id("rack")) == dict(zip(mine["dice"], mine["rack"], strict=True))
        assert _dice(other.page.locator("#opponent-dice")) == {
            d["die"]: d["face"] for d in mine["players"][mover]["dice"]
        }
        picked = mine["dice"][:2] if turn % 2 == 0 else []
        for die in picked:
            p.get_by_test_id("rack").locator(f"[data-die={die}]").click()
        if picked:
            assert p.get_by_test_id("roll").inner_text() == "Roll 2 dice"
            if turn == 0:
                me.shoot_step("x04-dice-picked", key=True)
            p.get_by_test_id("roll").click()
        else:
            p.get_by_test_id("roll-none").click()
        at_version(p, mine["version"] + 1)
        rolled = call(server, f"/rooms/{code}", tokens[mover])
        assert rolled["rolled"] and rolled["log"][-1]["type"] == "roll" and rolled["log"][-1]["dice"] == picked
        for page in (me, other, watcher):  # the new faces reach every page without a reload
            at_version(page.page, rolled["version"])
        assert _dice(w.locator("#opponent-dice")) == _every_seat(rolled)
        p.wait_for_selector("body:not([data-pending]) [data-testid=end-turn]:not(.hidden)")
        assert p.get_by_test_id("roll").is_hidden() and p.get_by_test_id("draw").inner_text() == "Pass"
        if turn == 0:
            me.shoot_step("x05-rolled", key=True)
        if not illegal:
            # One die alone is no meld: judged before it is sent, its reason shown, nothing changed.
            p.get_by_test_id("rack").locator("[data-die]").first.click()
            p.get_by_test_id("new-meld-zone").click()
            p.get_by_test_id("end-turn").click()
            p.wait_for_function("document.querySelector('[data-testid=error]').textContent.startsWith('Not allowed')")
            assert "at least 3" in p.get_by_test_id("error").inner_text()
            after = call(server, f"/rooms/{code}", tokens[mover])
            assert (after["version"], after["rack"], after["table"]) == (
                rolled["version"],
                rolled["rack"],
                rolled["table"],
            )
            me.shoot_step("x06-illegal", key=True)
            p.get_by_test_id("reset").click()
            illegal += 1
        melds = rack_melds(rolled)
        if melds:
            lay_out(p, melds)
            p.get_by_test_id("end-turn").click()
            played += 1
        else:
            p.get_by_test_id("draw").click()  # "Pass"
            passed += 1
        at_version(p, rolled["version"] + 1)
        now = call(server, f"/rooms/{code}")
        assert now["version"] > rolled["version"] and now["log"][-1]["type"] == ("play" if melds else "pass")
        if melds:
            assert sorted(now["log"][-1]["played"]) == sorted(t for m in melds for t in m)
        for page in (me, other, watcher):
            at_version(page.page, now["version"])
        assert w.get_by_test_id("table").locator("[data-die]").count() == sum(map(len, now["table"]))
        if melds and played == 1:
            watcher.shoot_step("x07-spectator-after-play", key=True)
            other.shoot_step("x07-other-after-play", key=True)
    assert illegal == 1 and played + passed >= 2
    for page in (ann, bo, watcher):
        assert page.errors == [], page.errors


@pytest.mark.slow
def test_players_sharing_a_screen_play_an_xpress_room(browser, server, shots):  # noqa: F811
    page = RoomPage(browser, server, DESKTOP, shots)
    p = page.page
    page.open("/play")
    p.get_by_test_id("room-rules-preset").select_option("xpress")
    p.get_by_test_id("room-seat-name").fill("Ann")
    p.get_by_test_id("room-seat-kind").nth(1).select_option("screen")
    p.get_by_test_id("room-seat-name").nth(1).fill("Cy")
    assert p.get_by_test_id("room-add-seat").is_disabled()  # Xpress is two players
    p.get_by_test_id("create-room").click()
    p.wait_for_url(re.compile(r"/play\?room=[A-Z]{6}&token=[\w-]+$"))
    p.wait_for_selector("body[data-ready=true]")
    code = p.url.split("room=")[1].split("&")[0]
    names = ["Ann", "Cy"]
    for step in range(4):  # each in turn: the device passed, a roll (all, or none), then a pass
        view = call(server, f"/rooms/{code}")
        name = names[view["turn"]]
        p.get_by_test_id("pass-screen").wait_for()
        p.wait_for_function("n => document.querySelector('[data-testid=pass-name]').textContent === n", arg=name)
        assert p.get_by_test_id("rack").locator("[data-die]").count() == 0  # no rack until they hold the device
        if step == 0:
            page.shoot_step("x10-xpress-pass-the-device", key=True)
        p.get_by_test_id("pass-ready").click()
        turn_is(p, f"Your turn, {name} · turn {view['turn_number'] + 1}")
        assert p.locator("#rack-owner").inner_text() == f"{name}'s dice"
        assert p.get_by_test_id("rack").locator("[data-die]").count() == len(view["players"][view["turn"]]["dice"])
        p.wait_for_selector("body:not([data-pending]) [data-testid=roll-none]:not([disabled])")
        p.get_by_test_id("roll-all" if step % 2 else "roll-none").click()
        at_version(p, view["version"] + 1)
        p.wait_for_selector("body:not([data-pending]) [data-testid=draw]:not([disabled])")
        if step == 1:
            page.shoot_step("x11-xpress-shared-screen-rolled", key=True)
        p.get_by_test_id("draw").click()  # "Pass"
        at_version(p, view["version"] + 2)
    log = call(server, f"/rooms/{code}")["log"]
    assert [e["type"] for e in log] == ["roll", "pass"] * 4 and [len(e["dice"]) for e in log[::2]] == [0, 9, 0, 9]
    assert page.errors == [], page.errors
