"""The readable log and the rules' messages speak the reader's language: labels for identifiers,
the locale's distances, and no event type left without words.

The French tests use a stand-in catalog (every message comes back as ``«fr»`` + the English), so
they check what goes through the translation API, not the translators' work in progress.
"""

from __future__ import annotations

from typing import Any

import pytest

from tactica import Encounter, IllegalCommand, load_encounter
from tactica.engine.events import EVENT_TYPES
from tactica.files.conformance import case_files
from tactica.files.loader import load_file
from tactica.files.narrate import NARRATORS, narrate
from tactica.files.replay import build, case_steps, replay
from tactica.i18n import language
from tactica.vocabulary import label

from ..conftest import CONFORMANCE, MARK, fighter, pf1_encounter, use_marked_french

Json = dict[str, Any]


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch) -> Any:
    use_marked_french(monkeypatch)
    with language("fr"):
        yield


def refusal(enc: Encounter, command: Json) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as info:
        enc.apply(command)
    return info.value


# -- French (a stand-in catalog) --------------------------------------------------------------------
def test_a_move_is_narrated_in_the_locales_metres(french: None) -> None:
    line = narrate({"type": "moved", "actor": "valeros", "from": [0, 0], "to": [1, 0], "metres": 1.5})
    assert line.startswith(MARK)
    assert "1,50 m" in line and "1.5" not in line


def test_an_actions_name_and_cost_are_vocabulary_labels(french: None) -> None:
    line = narrate({"type": "action", "actor": "valeros", "action": "full_attack", "cost": ["full_round"]})
    assert label("resource", "full_round") == MARK + "full-round action"
    assert label("resource", "full_round") in line
    assert label("action", "full_attack") in line
    assert "full_round" not in line and "full_attack" not in line


def test_a_free_action_says_so(french: None) -> None:
    line = narrate({"type": "action", "actor": "valeros", "action": "five_foot_step", "cost": []})
    assert MARK + "free" in line and label("action", "five_foot_step") in line


@pytest.mark.parametrize(
    ("event", "kind", "ident"),
    [
        (
            {"type": "opportunity", "provoker": "a", "by": "b", "reason": "leave_threatened", "at": [0, 0]},
            "reason",
            "leave_threatened",
        ),
        (
            {"type": "spell_lost", "caster": "a", "spell": "orage", "reason": "concentration"},
            "reason",
            "concentration",
        ),
        (
            {
                "type": "check",
                "actor": "a",
                "check": "reflex",
                "roll": 9,
                "total": 11,
                "dc": 13,
                "success": False,
            },
            "check",
            "reflex",
        ),
        (
            {"type": "condition", "actor": "a", "condition": "flat_footed", "added": False},
            "condition",
            "flat_footed",
        ),
        (
            {
                "type": "reaction",
                "actor": "a",
                "reaction": "opportunity_attack",
                "against": "b",
                "penalty": 0,
            },
            "reaction",
            "opportunity_attack",
        ),
        (
            {"type": "resource", "actor": "a", "resource": "dodge_tokens", "value": 0, "delta": -1},
            "resource",
            "dodge_tokens",
        ),
        ({"type": "state", "actor": "a", "state": "dying"}, "state", "dying"),
    ],
)
def test_every_identifier_is_shown_by_its_label(french: None, event: Json, kind: str, ident: str) -> None:
    line = narrate(event)
    assert label(kind, ident) in line
    assert ident not in line.replace(label(kind, ident), "")


def test_an_attacks_kind_and_modifier_sources_are_labels(french: None) -> None:
    event = {
        "type": "attack",
        "attacker": "valeros",
        "target": "orc",
        "weapon": "longsword",
        "kind": "full_attack",
        "roll": 12,
        "total": 17,
        "vs": 13,
        "hit": True,
        "critical": False,
        "modifiers": [{"source": "bab", "value": 1}, {"source": "two_weapon", "value": -4}],
    }
    line = narrate(event)
    assert label("attack", "full_attack") in line
    assert "+1 " + label("modifier", "bab") in line and "-4 " + label("modifier", "two_weapon") in line


def test_a_gm_event_reads_as_a_sentence(french: None) -> None:
    line = narrate(
        {"type": "gm", "what": "add_condition", "detail": {"target": "orc", "condition": "blinded"}},
        {"orc": "Grok"},
    )
    assert "Grok" in line and label("condition", "blinded") in line and "{" not in line


def test_a_lagornis_movement_resource_is_in_metres(french: None) -> None:
    line = narrate({"type": "resource", "actor": "a", "resource": "movement_m", "value": 11.5, "delta": 1.5})
    assert "11,50 m" in line and "+1,50 m" in line


SWORD = {"id": "spada", "kind": "melee", "damage": "1d8", "to_hit": 4, "damage_bonus": 2}
AXE = {"id": "hache", "category": "heavy", "damage": "1d8"}
PATHS_TOO_LONG = [
    # a speed of 9 m (6 squares); 7 squares cost 10,50 m
    pytest.param(
        pf1_encounter(
            fighter("valeros", "heroes", [0, 0]),
            fighter("orc", "monsters", [7, 7]),
            initiative=["valeros", "orc"],
        ),
        [[x, 0] for x in range(1, 8)],
        "10,50 m",
        "9 m",
        id="pf1",
    ),
    pytest.param(
        {
            "ruleset": "terza",
            "map": {"width": 10, "height": 4},
            "combatants": [
                {"id": "a", "side": "h", "at": [0, 0], "stats": {"hp": 20, "ac": 12, "weapons": [SWORD]}},
                {"id": "b", "side": "m", "at": [9, 3], "stats": {"hp": 20, "ac": 12, "weapons": [SWORD]}},
            ],
            "initiative": ["a", "b"],
        },
        [[x, 0] for x in range(1, 8)],
        "10,50 m",
        "9 m",
        id="terza",
    ),
    # a speed of 3 m; 3 squares cost 4,50 m
    pytest.param(
        {
            "ruleset": "lagornis",
            "map": {"width": 8, "height": 4},
            "combatants": [
                {"id": "a", "side": "h", "at": [0, 0], "stats": {"hp": 20, "speed_m": 3, "weapons": [AXE]}},
                {"id": "b", "side": "m", "at": [7, 3], "stats": {"hp": 20, "weapons": [AXE]}},
            ],
            "initiative": ["a", "b"],
        },
        [[1, 0], [2, 0], [3, 0]],
        "4,50 m",
        "3 m",
        id="lagornis",
    ),
]


@pytest.mark.parametrize(("data", "path", "cost", "speed"), PATHS_TOO_LONG)
def test_a_path_too_long_shows_the_locales_distance(
    french: None, data: Json, path: list[list[int]], cost: str, speed: str
) -> None:
    enc = load_encounter(data)
    enc.start()
    exc = refusal(enc, {"actor": data["initiative"][0], "do": "move", "path": path})
    assert exc.code == "bad_path"
    assert exc.message.startswith(MARK)
    assert cost in exc.message and speed in exc.message
    python_float = str(float(cost.removesuffix(" m").replace(",", ".")))  # "10.5"
    assert python_float not in exc.message


def test_a_terza_refusal_names_the_facing_by_its_label(french: None) -> None:
    data = {
        "ruleset": "terza",
        "map": {"width": 10, "height": 4},
        "combatants": [
            {"id": "a", "side": "h", "at": [2, 2], "facing": "W", "stats": {"hp": 20, "weapons": [SWORD]}},
            {"id": "b", "side": "m", "at": [9, 3], "stats": {"hp": 20, "weapons": [SWORD]}},
        ],
        "initiative": ["a", "b"],
    }
    enc = load_encounter(data)
    enc.start()
    west = label("direction", "W")
    assert west == MARK + "W"
    assert west in refusal(enc, {"actor": "a", "do": "rotate", "facing": "W"}).message
    assert f"{west}:" in refusal(enc, {"actor": "a", "do": "step", "to": [2, 3]}).message


def test_a_refusal_names_the_slots_by_their_labels(french: None) -> None:
    enc = load_encounter(
        pf1_encounter(
            fighter("valeros", "heroes", [0, 0]),
            fighter("orc", "monsters", [7, 7]),
            initiative=["valeros", "orc"],
        )
    )
    enc.start()
    enc.apply({"actor": "valeros", "do": "move", "path": [[1, 0]]})
    enc.apply({"actor": "valeros", "do": "move", "path": [[2, 0]]})  # the standard action pays
    exc = refusal(enc, {"actor": "valeros", "do": "move", "path": [[3, 0]]})
    assert exc.code == "no_budget"
    assert label("resource", "standard") in exc.message and label("resource", "move") in exc.message


# -- English (no stand-in) ----------------------------------------------------------------------------
def conformance_events() -> list[Json]:
    events: list[Json] = []
    for path in case_files([CONFORMANCE]):
        loaded = load_file(path)
        for line in replay(build(loaded), case_steps(loaded)):
            events += line.get("events") or []
    return events


def test_every_event_type_has_words() -> None:
    assert set(NARRATORS) == set(EVENT_TYPES)


def test_every_event_of_the_conformance_suite_is_narrated() -> None:
    events = conformance_events()
    assert {e["type"] for e in events} == set(EVENT_TYPES)  # every type, so every narrator, runs
    for event in events:
        line = narrate(event, {"valeros": "Valeros"})
        assert line and line != str(event), event
        assert "{" not in line.replace("[", ""), (event, line)


def test_the_english_log_reads_as_before() -> None:
    assert narrate({"type": "moved", "actor": "a", "from": [0, 0], "to": [1, 1], "metres": 1.5}) == (
        "a moves [0,0] → [1,1] (1.50 m)"
    )
    assert narrate({"type": "condition", "actor": "orc", "condition": "flat_footed", "added": False}) == (
        "orc is no longer flat-footed"
    )
