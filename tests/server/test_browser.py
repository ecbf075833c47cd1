"""The table page in Debian's Chromium (Playwright): a GM plays a pf1 fight through the page (a full
attack, undo, a move that provokes and the opportunity prompt) while a player follows on a phone-sized
second page, live, and cannot act for another combatant. Screenshots go to tests/screenshots/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from .conftest import CHROMIUM_ARGS, FIGHT, SCREENSHOTS, Server, chromium_path

pytestmark = pytest.mark.timeout(180)
expect.set_options(timeout=20_000)  # a loaded CI machine: generous, the checks still wait only as needed

LAPTOP = {"width": 1366, "height": 860}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


def shot(page: Page, name: str, full: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full)


def aim_move(gm: Page) -> None:
    gm.click("[data-test=act-move]")
    expect(gm.locator("#sq-1-2")).to_have_class(re.compile("reach"))
    gm.click("#sq-1-2")
    expect(gm.locator("[data-test=preview]")).to_have_count(1)


def test_gm_plays_a_fight_while_a_player_watches_live(server: Server, browser: Browser) -> None:
    api = server.client()
    created = api.post("/api/tables", json={"file": FIGHT, "filename": "bridge.yaml"}).json()
    links = created["links"]
    players = {p["label"]: p["url"] for p in links["players"]}
    gm = browser.new_page(viewport=LAPTOP)
    player = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    gm.goto(links["gm"]["url"])
    player.goto(players["Valeros"])
    expect(gm.locator("[data-test=actor] h2")).to_have_text("Orc")
    expect(player.locator("[data-test=actor]")).to_contain_text("Waiting for Orc to act")
    expect(player.locator("[data-test=actions]")).to_have_count(0)
    expect(player.locator("body.live")).to_have_count(1)  # the live stream is open

    # the orc ends its turn; the player's phone follows without reloading
    gm.click("[data-test=act-end_turn]")
    expect(gm.locator("[data-test=actor] h2")).to_have_text("Valeros")
    expect(player.locator("[data-test=actor] h2")).to_have_text("Valeros")
    chips = gm.locator("[data-test=chips]")
    for chip in ("standard action", "move action", "swift action", "1.5 m step", "attacks of opportunity"):
        expect(chips).to_contain_text(chip)
    # refused actions are greyed, with the reason on hover
    cast = gm.locator("[data-test=act-cast]")
    expect(cast).to_have_class("act off")
    assert "no spell" in (cast.get_attribute("title") or "")

    # a full attack: the second attack turns the standard action into a full attack
    gm.click("[data-test=act-attack]")
    expect(gm.locator(".log-line.ev-attack")).to_have_count(1)
    gm.click("[data-test=act-attack]")
    expect(gm.locator(".log-line.ev-attack")).to_have_count(2)
    expect(gm.locator(".log-block.latest")).to_contain_text("full attack")
    expect(gm.locator("[data-test=chips] .chip.off")).not_to_have_count(0)
    expect(gm.locator(".log .roll").first).to_contain_text("d20")  # the roll's breakdown
    expect(player.locator(".log-line.ev-attack")).to_have_count(2)
    shot(gm, "gm-full-attack")

    # undo takes the second attack back, on both pages
    gm.click("[data-test=undo]")
    expect(gm.locator(".log-line.ev-attack")).to_have_count(1)
    expect(player.locator(".log-line.ev-attack")).to_have_count(1)

    # a move that provokes: aim, see the path, its cost and who may strike, confirm
    aim_move(gm)
    preview = gm.locator("[data-test=preview]")
    expect(preview.locator("[data-test=cost]")).to_have_text("1.50 m")
    expect(preview.locator("[data-test=provokes]")).to_contain_text("Leaving [2,2] provokes Orc")
    expect(gm.locator("#sq-2-2")).to_have_class("sq provoke")
    shot(gm, "gm-move-preview")
    # the selected token's threatened squares
    gm.click("[data-test=token-orc]")
    expect(gm.locator(".sq.threat")).to_have_count(8)
    expect(gm.locator("[data-test=selected]")).to_contain_text("Threatens 8 squares")
    gm.click("[data-test=token-orc]")
    expect(gm.locator(".sq.threat")).to_have_count(0)
    aim_move(gm)
    gm.click("[data-test=confirm]")
    prompt = gm.locator("[data-test=prompt]")
    expect(prompt).to_contain_text("Orc may react")
    expect(prompt).to_contain_text("Valeros provokes")
    expect(prompt.locator("button")).to_have_count(2)
    shot(gm, "gm-opportunity-prompt")
    # the player sees the decision, but it is the orc's: no buttons for Valeros's player
    player_prompt = player.locator("[data-test=prompt]")
    expect(player_prompt).to_contain_text("Waiting for Orc to decide")
    expect(player_prompt.locator("button")).to_have_count(0)
    shot(player, "player-phone-prompt", full=True)
    # ...and a forged request for the orc is refused, changing nothing
    version = api.get(
        f"/api/tables/{created['table']}", headers={"Authorization": f"Bearer {links['gm']['token']}"}
    ).json()["version"]
    token = players["Valeros"].rsplit("/", 1)[1]
    forged = player.request.post(
        f"{server.url}/t/{token}/act",
        form={"command": json.dumps({"actor": "orc", "do": "decline"}), "version": str(version)},
    )
    assert "forbidden" in forged.text()
    state = httpx.get(
        f"{server.url}/api/tables/{created['table']}",
        headers={"Authorization": f"Bearer {links['gm']['token']}"},
    ).json()
    assert state["version"] == version and state["pending"]["actor"] == "orc"

    # the GM answers for the orc: the attack resolves, then the move completes
    prompt.get_by_role("button", name="Attack of opportunity").click()
    expect(gm.locator("[data-test=prompt]")).to_have_count(0)
    expect(gm.locator("#sq-1-2 [data-test=token-valeros]")).to_have_count(1)
    expect(gm.locator(".log-block.latest")).to_contain_text("Orc attacks Valeros")
    expect(player.locator("#sq-1-2 [data-test=token-valeros]")).to_have_count(1)
    shot(gm, "gm-after-opportunity")
    shot(player, "player-phone", full=True)
    gm.close()
    player.close()


def test_gm_overrides_and_stale_clicks(server: Server, browser: Browser) -> None:
    api = server.client()
    created = api.post("/api/tables", json={"file": FIGHT, "filename": "bridge.yaml"}).json()
    gm_url = created["links"]["gm"]["url"]
    page = browser.new_page(viewport=LAPTOP)
    page.goto(gm_url)
    page.click("[data-test=token-kyra]")
    tools = page.locator("[data-test=gm-tools]")
    tools.locator("input[name=hp]").fill("7")
    tools.get_by_role("button", name="Set").click()
    expect(page.locator("[data-test=order-kyra]")).to_contain_text("7/24")
    tools = page.locator("[data-test=gm-tools]")
    tools.locator("select[name=condition]").select_option("staggered")
    tools.get_by_role("button", name="+").click()
    expect(page.locator("[data-test=order-kyra]")).to_contain_text("staggered")
    page.locator("[data-test=gm-tools]").get_by_role("button", name="Move token").click()
    expect(page.locator("#sq-0-5")).to_have_class(re.compile("reach"))
    page.click("#sq-0-5")
    page.click("[data-test=confirm]")
    expect(page.locator("#sq-0-5 [data-test=token-kyra]")).to_have_count(1)
    # someone else acts meanwhile on a page that missed it (its live stream cut): the stale click
    # is refused, and the page shows the table as it now is
    stale = browser.new_page(viewport=LAPTOP)
    stale.route("**/events", lambda route: route.abort())
    stale.goto(gm_url)
    expect(stale.locator("[data-test=actor] h2")).to_have_text("Orc")
    headers = {"Authorization": f"Bearer {created['links']['gm']['token']}"}
    v = api.get(f"/api/tables/{created['table']}", headers=headers).json()["version"]
    r = api.post(
        f"/api/tables/{created['table']}/commands",
        json={"version": v, "command": {"actor": "orc", "do": "end_turn"}},
        headers=headers,
    )
    assert r.status_code == 200
    stale.click("[data-test=act-end_turn]")
    expect(stale.locator("[data-test=flash]")).to_contain_text("someone else acted first")
    expect(stale.locator("[data-test=actor] h2")).to_have_text("Valeros")
    assert api.get(f"/api/tables/{created['table']}", headers=headers).json()["turn"] == "valeros"
    stale.close()
    shot(page, "gm-overrides")
    page.close()
