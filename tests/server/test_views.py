"""The page's and the terminal's shared views, one piece at a time: the file's own words, the GM's
log lines, the economy chips, the links' words and the language a request is read in."""

from __future__ import annotations

from typing import Any

import pytest

from tactica.engine.core import Encounter
from tactica.i18n import _, language
from tactica.server.language import choose
from tactica.server.storage import GrantRow
from tactica.server.tracker import read_source
from tactica.server.views import author_labels, chip, chips, conditions, data_label, event_line, grant_label
from tactica.vocabulary import label

from .conftest import FIGHT

NAMES = {"orc": "Orc", "kyra": "Kyra", "valeros": "Valeros"}


@pytest.fixture
def enc() -> Encounter:
    _data, loaded = read_source(FIGHT.replace("name: Kyra", "name: side monsters"), "fight.yaml")
    e = Encounter(loaded.setup, loaded.ruleset)
    e.start()
    return e


def test_the_files_words_are_its_own() -> None:
    with language("fr"):
        assert label("action", "shield") != "shield"
        assert data_label("shield") == "shield" and data_label("long_sword") == "long sword"


@pytest.mark.parametrize(
    ("what", "detail", "line"),
    [
        ("set_hp", {"target": "orc", "hp": 5, "was": 80}, "GM: Orc's hit points 80 → 5"),
        ("add_condition", {"target": "kyra", "condition": "staggered"}, "GM: Kyra is now staggered"),
        ("remove_condition", {"target": "kyra", "condition": "staggered"}, "GM: Kyra is no longer staggered"),
        ("move_to", {"target": "kyra", "from": [1, 4], "to": [0, 5]}, "GM: Kyra is placed [1,4] → [0,5]"),
        ("set_initiative", {"order": ["valeros", "orc", "kyra"]}, "GM: initiative order Valeros, Orc, Kyra"),
        ("set_facing", {"target": "kyra", "facing": "NE", "was": "S"}, "GM: Kyra faces NE (was S)"),
    ],
)
def test_every_gm_override_reads_as_a_sentence(what: str, detail: dict[str, Any], line: str) -> None:
    with language("en"):
        assert event_line({"type": "gm", "what": what, "detail": detail}, NAMES).text == line


def test_a_name_with_brackets_is_no_markup() -> None:
    names = {**NAMES, "kyra": "Kyra [red]the [/b]bold"}
    ev = {"type": "gm", "what": "add_condition", "detail": {"target": "kyra", "condition": "staggered"}}
    with language("en"):
        assert event_line(ev, names).text == "GM: Kyra [red]the [/b]bold is now staggered"


def test_an_attacks_modifiers_are_the_narrators() -> None:
    ev = {
        "type": "attack",
        "attacker": "orc",
        "target": "kyra",
        "weapon": "shield",
        "kind": "normal",
        "roll": 12,
        "total": 17,
        "vs": 15,
        "hit": True,
        "critical": False,
        "modifiers": [{"source": "bab", "value": 6}, {"source": "str", "value": -1}],
    }
    with language("en"):
        line = event_line(ev, NAMES)
    assert line.text == "Orc attacks Kyra with shield — hit"
    assert line.detail == "d20 12 +6 BAB -1 Str = 17 vs 15"


def test_chips_and_conditions(enc: Encounter) -> None:
    with language("fr"):
        assert chip("movement_m", 1.5).value == "1,50 m"
        assert chip("full", 0.5).value == "0,50" and chip("full", 0.5).on
        assert chip("fatigue", 2).usage
        valeros = enc.combatants["valeros"]
        shown = chips(enc, valeros, NAMES)
        assert shown[0].label == label("resource", "standard")
        assert conditions(enc, enc.combatants["kyra"]) == [label("condition", "flat_footed")]


def test_a_links_words_come_from_its_grant(enc: Encounter) -> None:
    grants = [
        GrantRow("t1", "x", "gm", (), "GM"),
        GrantRow("t2", "x", "spectator", (), "spectator"),
        GrantRow("t3", "x", "player", ("valeros", "kyra"), "side heroes"),
        GrantRow("t4", "x", "player", ("orc",), "side monsters"),
        GrantRow("t5", "x", "player", ("valeros",), "Valeros"),
        GrantRow("t6", "x", "player", ("kyra",), "side monsters"),  # a combatant called so
        GrantRow("t7", "x", "player", ("orc",), "Orc"),
    ]
    with language("en"):
        words = [grant_label(g, enc) for g in grants]
        assert words == ["GM", "spectator", "side heroes", "side monsters", "Valeros", "side monsters", "Orc"]
    with language("fr"):
        side = _("side {side}").format(side="heroes")
        # two links stored as "side monsters" read differently: a log entry's author stays as written
        assert author_labels(grants, enc) == {
            "GM": _("GM"),
            "spectator": _("spectator"),
            "side heroes": side,
            "side monsters": "side monsters",
            "Valeros": "Valeros",
            "Orc": "Orc",
        }


def _scope(query: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    return {"type": "http", "query_string": query, "headers": headers or []}


def test_the_request_language_query_then_cookie_then_header() -> None:
    header = (b"accept-language", b"de, it;q=0.8")
    cookie = (b"cookie", b"other=1; tactica_lang=fr")
    assert choose(_scope(b"lang=xx&lang=it-IT", [cookie, header]), "en") == ("it", True)
    assert choose(_scope(b"lang=xx", [cookie, header]), "en") == ("fr", False)
    assert choose(_scope(b"", [header]), "en") == ("it", False)
    assert choose(_scope(b"", [(b"accept-language", b"de")]), "en") == ("en", False)
