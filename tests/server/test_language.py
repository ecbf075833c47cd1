"""The tracker in the reader's language: chosen per request (``?lang=``, the cookie,
``Accept-Language``, the server's own), every word of the page and of the API's messages through the
catalogs, numbers in the language's format, and two readers in two languages never mixed."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect, sync_playwright
from rich.console import Console
from sse_starlette import ServerSentEvent

from tactica import i18n
from tactica.i18n import language
from tactica.server import app as app_module
from tactica.server.app import create_app
from tactica.server.language import accepted, from_header
from tactica.server.terminal import play
from tactica.server.tracker import Access, Tracker
from tactica.vocabulary import label

from ..conftest import MARK, Marked, use_marked_french
from .conftest import CHROMIUM_ARGS, FIGHT, Server, Table, chromium_path, make_table


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Marked:
    """French is the marking catalog; English (and Italian) are the source's words."""
    return use_marked_french(monkeypatch)


@pytest.fixture
def client(tracker: Tracker) -> Iterator[TestClient]:
    """The app as a server started in English makes it (whatever language this process was left in)."""
    with language("en"):
        app = create_app(tracker)
    with TestClient(app) as c:
        yield c


def html_lang(text: str) -> str:
    found = re.search(r'<html lang="([a-z]+)">', text)
    assert found, text[:200]
    return found.group(1)


def to_valeros(table: Table) -> None:
    table.ok({"actor": "orc", "do": "end_turn"})


# -- choosing the language -------------------------------------------------------------------------------
def test_accept_language_is_read_with_its_q_values() -> None:
    assert accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr-CH", "fr", "en", "de", "*"]
    assert accepted("de;q=0.4, it;q=0.8,fr") == ["fr", "it", "de"]
    assert accepted("fr;q=0, it;q=abc, en;q=2, es") == ["es"]  # refused, broken and impossible q-values
    assert from_header("fr-CH;q=0.9, it;q=0.8") == "fr"
    assert from_header("de-DE, it;q=0.8, fr;q=0.5") == "it"
    assert from_header("fr;q=0.3, it-IT;q=0.9") == "it"
    assert from_header("de, es;q=0.5, *;q=0.1") is None
    assert from_header("") is None


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fr-CH;q=0.9, it;q=0.8", "fr"),
        ("it-IT,it;q=0.9,en-US;q=0.8", "it"),
        ("de;q=1, en;q=0.5, fr;q=0.7", "fr"),
        ("fr;q=0.2, it;q=0.6", "it"),
        ("de", "en"),
    ],
)
def test_accept_language_picks_the_page_language(client: TestClient, header: str, lang: str) -> None:
    r = client.get("/", headers={"Accept-Language": header})
    assert r.status_code == 200
    assert html_lang(r.text) == lang
    assert r.headers["content-language"] == lang
    assert {v.strip() for v in r.headers["vary"].split(",")} >= {"Accept-Language", "Cookie"}
    assert "set-cookie" not in r.headers  # only the switch remembers a choice


def test_the_switch_sets_a_cookie_that_wins_over_the_header(client: TestClient) -> None:
    r = client.get("/", params={"lang": "it"}, headers={"Accept-Language": "fr"})
    assert html_lang(r.text) == "it"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("tactica_lang=it;")
    assert "Path=/" in cookie and "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    # the next requests carry the cookie (htmx's partials, the API): Italian, whatever the header says
    r = client.get("/", headers={"Accept-Language": "fr"})
    assert html_lang(r.text) == "it" and "set-cookie" not in r.headers
    # the switch again: the query wins over the cookie, and replaces it
    r = client.get("/", params={"lang": "fr"})
    assert html_lang(r.text) == "fr" and r.headers["set-cookie"].startswith("tactica_lang=fr;")
    assert html_lang(client.get("/").text) == "fr"


def test_unsupported_languages_fall_back_to_the_server_default(tracker: Tracker) -> None:
    with language("it"):  # as `tactica --lang it serve` (or TACTICA_LANG=it) makes the app
        app = create_app(tracker)
    with TestClient(app) as c:
        r = c.get("/", headers={"Accept-Language": "de-DE, es;q=0.8"})
        assert html_lang(r.text) == "it"
        r = c.get("/", params={"lang": "de"}, headers={"Cookie": "tactica_lang=xx"})
        assert html_lang(r.text) == "it" and "set-cookie" not in r.headers
        r = c.get("/", headers={"Accept-Language": "en;q=0.1, de"})
        assert html_lang(r.text) == "en"


def test_the_switch_links_keep_the_page_and_mark_the_current_language(client: TestClient) -> None:
    table = make_table(client)
    r = client.get(f"/t/{table.gm}", params={"sel": "orc", "lang": "fr"})
    links = dict(re.findall(r'<a href="([^"]+)" lang="([a-z]+)"', r.text))
    assert set(links.values()) == {"en", "fr", "it"}
    by_lang = {v: k for k, v in links.items()}
    assert by_lang["it"] == f"/t/{table.gm}?sel=orc&amp;lang=it"
    assert by_lang["en"] == f"/t/{table.gm}?sel=orc&amp;lang=en"
    # the native names, never translated; the current one marked
    assert ">English</a>" in r.text and ">Français</a>" in r.text and ">Italiano</a>" in r.text
    assert re.search(r'class="current" aria-current="true" data-test="lang-fr">Français<', r.text)
    assert len(re.findall(r"aria-current", r.text)) == 1


# -- what the page and the API say -------------------------------------------------------------------------
def test_the_board_in_french_goes_through_the_catalogs(client: TestClient, marked: Marked) -> None:
    table = make_table(client)
    to_valeros(table)
    english = client.get(f"/t/{table.gm}/board").text
    assert MARK not in english and "standard action" in english
    client.cookies.set("tactica_lang", "fr")
    r = client.get(f"/t/{table.gm}/board", params={"sel": "kyra", "mode": "move", "dest": "1,2"})
    page = r.text
    assert r.headers["content-language"] == "fr"
    chips = re.findall(r'<span class="chip[^"]*">([^<]*)', page)
    # the economy chips: pf1's ``standard`` is the vocabulary's label, through the catalog
    assert f"{MARK}standard action" in [c.strip() for c in chips]
    assert all(c.strip().startswith(MARK) for c in chips if c.strip())
    assert f"{MARK}flat-footed" in page  # a condition (Kyra's)
    assert f"{MARK}move" in page  # an action's button
    assert f"{MARK}Round" in page and f"{MARK}Initiative" in page  # the template's own words
    assert f"{MARK}Leaving [2,2] provokes Orc" in page  # the preview's warning
    assert f"{MARK}1 square" in page  # a count, with ngettext
    assert re.search(r'data-test="cost">1,50 m<', page)  # French numbers


def test_french_distances_on_the_page(client: TestClient) -> None:
    table = make_table(client)
    to_valeros(table)
    headers = {"Accept-Language": "fr"}
    r = client.get(f"/t/{table.gm}/board", params={"mode": "move", "dest": "2,4"}, headers=headers)
    assert '<b data-test="cost">3 m</b>' in r.text
    r = client.get(f"/t/{table.gm}/board", params={"mode": "move", "dest": "1,2"}, headers=headers)
    assert '<b data-test="cost">1,50 m</b>' in r.text and "1 ▢ = 1,50 m" in r.text
    # the real French catalog: pf1's ``standard`` chip is the vocabulary's French word
    with language("fr"):
        standard = label("resource", "standard")
    chips = [c.strip() for c in re.findall(r'<span class="chip[^"]*">([^<]*)', r.text)]
    assert standard in chips
    r = client.get(
        f"/t/{table.gm}/board", params={"mode": "move", "dest": "1,2"}, headers={"Accept-Language": "it"}
    )
    assert '<b data-test="cost">1,50 m</b>' in r.text
    r = client.get(f"/t/{table.gm}/board", params={"mode": "move", "dest": "1,2"})
    assert '<b data-test="cost">1.50 m</b>' in r.text and "1 ▢ = 1.50 m" in r.text


def test_a_gm_log_line_is_in_the_readers_words(client: TestClient, marked: Marked) -> None:
    table = make_table(client)
    r = client.post(
        f"/t/{table.gm}/gm",
        data={"op": "add_condition", "target": "orc", "condition": "staggered", "version": "0"},
        headers={"Accept-Language": "fr"},
    )
    assert r.status_code == 200
    assert f"{MARK}GM: Orc is now {MARK}staggered" in r.text
    assert f"{MARK}{{who}}: {{command}}" not in r.text  # formatted, not shown raw
    log = client.get(f"/api/tables/{table.id}/log", headers=table.headers(table.gm)).json()
    assert log["log"][1]["command"]["condition"] == "staggered"  # the API keeps the identifiers


def test_a_weapon_named_like_an_action_keeps_the_files_word(client: TestClient) -> None:
    """The file's own names (a weapon called ``shield``) are never looked up in the vocabulary: in
    French (the real catalog) the page does not say "raise the shield" for it."""
    table = make_table(client, FIGHT.replace("longsword", "shield"))
    to_valeros(table)
    table.ok({"actor": "valeros", "do": "attack", "target": "orc", "weapon": "shield"})
    with language("fr"):
        action = label("action", "shield")
    assert action != "shield"
    page = client.get(f"/t/{table.gm}", headers={"Accept-Language": "fr"}).text
    assert "(shield)" in page  # the log entry's title: the command, its weapon as the file names it
    assert re.search(r"Valeros [^<]* Orc [^<]* shield", page)  # the attack's line
    assert action not in page


def test_links_and_authors_are_said_from_what_they_grant(client: TestClient, marked: Marked) -> None:
    """A link's words come from its role and scope, not from the label stored with it: a combatant
    called "side monsters" is its own name, the monsters' side link is translated."""
    table = make_table(client, FIGHT.replace("name: Kyra", "name: side monsters"))
    table.ok({"actor": "orc", "do": "end_turn"}, table.players["Orc"])
    table.ok({"actor": "valeros", "do": "end_turn"}, table.players["side heroes"])
    page = client.get(f"/t/{table.gm}", headers={"Accept-Language": "fr"}).text
    links = re.findall(r"<b>([^<]*)</b> <input class=\"link\"", page)
    assert sorted(links) == sorted(
        ["Orc", "Valeros", "side monsters", f"{MARK}side heroes", f"{MARK}side monsters", f"{MARK}spectator"]
    )
    authors = re.findall(r'<span class="muted small">· ([^<]*)</span>', page)
    assert authors == [f"{MARK}side heroes", "Orc"]  # newest first
    # the API keeps the labels as they were stored
    api = client.get(f"/api/tables/{table.id}/links", headers=table.headers(table.gm)).json()
    assert sorted(p["label"] for p in api["players"]) == sorted(
        ["Orc", "Valeros", "side monsters", "side heroes", "side monsters"]
    )


def test_api_messages_follow_the_request_language(client: TestClient, marked: Marked) -> None:
    table = make_table(client)
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    # the engine refuses: code and command stay identifiers, the message is French
    r = table.client.post(
        f"/api/tables/{table.id}/commands",
        json={"version": 0, "command": {"actor": "valeros", "do": "attack", "target": "orc"}},
        headers={**table.headers(table.gm), **fr},
    )
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "not_your_turn" and error["message"].startswith(MARK)
    assert "content-language" not in r.headers  # JSON, not a page
    # the tracker's own errors: no token, a stale version, a body pydantic refuses
    r = client.get(f"/api/tables/{table.id}", headers=fr)
    assert (
        r.status_code == 401
        and r.json()["error"]["message"] == f"{MARK}this needs the table's link (a bearer token)"
    )
    r = client.post(
        f"/api/tables/{table.id}/undo", json={"version": 9}, headers={**table.headers(table.gm), **fr}
    )
    assert r.status_code == 409 and r.json()["error"]["message"].startswith(MARK)
    r = client.post(
        f"/api/tables/{table.id}/undo", json={"versio": 0}, headers={**table.headers(table.gm), **fr}
    )
    assert r.status_code == 422 and r.json()["error"]["message"].startswith(MARK)
    # the same request in English
    r = client.get(f"/api/tables/{table.id}", headers={"Accept-Language": "en"})
    assert r.json()["error"]["message"] == "this needs the table's link (a bearer token)"


def test_two_readers_in_two_languages_do_not_mix(tracker: Tracker, monkeypatch: pytest.MonkeyPatch) -> None:
    # a French catalog slow enough that the requests' threads interleave in the middle of a page
    use_marked_french(monkeypatch, Marked(pause=0.0005))
    with language("en"):
        app = create_app(tracker)
    with TestClient(app) as c:
        table = make_table(c)
        to_valeros(table)

    async def run() -> list[tuple[str, httpx.Response]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://tracker") as ac:

            async def one(lang: str) -> tuple[str, httpx.Response]:
                r = await ac.get(f"/t/{table.gm}/board", headers={"Accept-Language": lang})
                return lang, r

            return await asyncio.gather(*(one("fr" if i % 2 else "en") for i in range(12)))

    for lang, r in asyncio.run(run()):
        assert r.status_code == 200 and r.headers["content-language"] == lang
        chips = [c.strip() for c in re.findall(r'<span class="chip[^"]*">([^<]*)', r.text) if c.strip()]
        assert chips
        if lang == "fr":
            assert all(c.startswith(MARK) for c in chips) and f"{MARK}Round" in r.text
        else:
            assert MARK not in r.text


def test_the_live_stream_runs_in_the_connections_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(client)

    async def watch(_tracker: Tracker, _live: Any) -> AsyncIterator[ServerSentEvent]:
        yield ServerSentEvent(i18n.current(), event="hello")

    monkeypatch.setattr(app_module, "_watch", watch)
    with client.stream(
        "GET", f"/t/{table.gm}/events", headers={"Accept-Language": "it;q=0.9, en;q=0.5"}
    ) as r:
        body = "".join(r.iter_text())
    assert "data: it" in body
    with client.stream(
        "GET", f"/api/tables/{table.id}/stream", params={"token": table.gm, "lang": "fr"}
    ) as r:
        body = "".join(r.iter_text())
    assert "data: fr" in body


def test_tactica_play_speaks_the_language(tracker: Tracker, marked: Marked) -> None:
    import io

    made = tracker.create(FIGHT, "fight.yaml", origin="play:fight.yaml")
    g = next(g for g in tracker.grants(made.table_id) if g.role == "gm")
    gm = Access(g.token, made.table_id, "gm", frozenset(), "GM")
    out = io.StringIO()
    answers: Iterator[str] = iter(["zz", "q"])
    with language("fr"):
        play(tracker, gm, lambda _prompt: next(answers), Console(file=out, width=140, color_system=None))
    text = out.getvalue()
    assert f"{MARK}round 1" in text
    assert f"{MARK}standard action" in text  # the orc's economy
    assert f"{MARK}type a number, u, t ID, l, hp ID N or q" in text
    assert f"{MARK}end the turn" in text  # a numbered choice (capitalised: the mark comes first here)


# -- in a browser ----------------------------------------------------------------------------------------
@pytest.mark.timeout(180)
def test_the_page_switches_to_italian(server: Server) -> None:
    api = server.client()
    created = api.post("/api/tables", json={"file": FIGHT, "filename": "bridge.yaml"}).json()
    # the orc's turn ends before the page opens: no live refresh races the clicks below
    ended = api.post(
        f"/api/tables/{created['table']}/commands",
        json={"version": 0, "command": {"actor": "orc", "do": "end_turn"}},
        headers={"Authorization": f"Bearer {created['links']['gm']['token']}"},
    )
    assert ended.status_code == 200
    expect.set_options(timeout=20_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 860}, locale="en-GB")
            page.goto(created["links"]["gm"]["url"])
            expect(page.locator("html")).to_have_attribute("lang", "en")
            expect(page.locator("[data-test=lang-en]")).to_have_attribute("aria-current", "true")
            page.click("[data-test=lang-it]")
            expect(page.locator("html")).to_have_attribute("lang", "it")
            switch = page.locator("[data-test=lang-it]")
            expect(switch).to_have_attribute("aria-current", "true")
            expect(switch).to_have_class("current")
            expect(page.locator("[data-test=lang-en]")).not_to_have_attribute("aria-current", "true")
            # htmx's board partials stay Italian (the cookie): a movement's cost in Italian numbers
            expect(page.locator("[data-test=actor] h2")).to_have_text("Valeros")
            page.click("[data-test=act-move]")
            expect(page.locator("#sq-1-2")).to_have_class(re.compile("reach"))
            page.click("#sq-1-2")
            expect(page.locator("[data-test=cost]")).to_have_text("1,50 m")
            expect(page.locator("html")).to_have_attribute("lang", "it")
        finally:
            browser.close()
