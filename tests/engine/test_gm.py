"""GM overrides: commands of ``actor: gm``, each logged as a ``gm`` event, checked like any other."""

from __future__ import annotations

from typing import Any

import pytest

from tactica import Encounter, IllegalCommand, load_encounter

from ..conftest import fighter, pf1_encounter
from .snapshot import snapshot

Json = dict[str, Any]


@pytest.fixture
def enc() -> Encounter:
    e = load_encounter(
        pf1_encounter(
            fighter("valeros", "heroes", [3, 3]),
            fighter("orc", "monsters", [4, 3], ac=13),
            fighter("kyra", "heroes", [0, 0]),
            initiative=["orc", "valeros", "kyra"],
            map={"width": 8, "height": 8, "blocked": [[6, 6]]},
            seed=1,
        )
    )
    e.start()
    return e


def gm(enc: Encounter, do: str, **fields: Any) -> list[Json]:
    n = len(enc.log)
    events = enc.apply({"actor": "gm", "do": do, **fields}).events
    assert len(enc.log) == n + 1 and enc.log[-1].actor == "gm"  # logged like any command
    assert events[0]["type"] == "gm" and events[0]["what"] == do
    return events


def refused(enc: Encounter, do: str, **fields: Any) -> IllegalCommand:
    before = snapshot(enc)
    with pytest.raises(IllegalCommand) as info:
        enc.apply({"actor": "gm", "do": do, **fields})
    assert snapshot(enc) == before
    return info.value


def test_set_hp_records_the_old_value_and_updates_the_state(enc: Encounter) -> None:
    events = gm(enc, "set_hp", target="valeros", hp=0)
    assert events == [
        {"type": "gm", "what": "set_hp", "detail": {"target": "valeros", "hp": 0, "was": 20}},
        {"type": "state", "actor": "valeros", "state": "disabled"},
    ]
    assert enc.combatants["valeros"].hp == 0
    assert gm(enc, "set_hp", target="valeros", hp=0)[1:] == []  # no change, no state event


def test_set_hp_may_go_above_the_maximum(enc: Encounter) -> None:
    gm(enc, "set_hp", target="orc", hp=99)
    assert enc.view()["combatants"]["orc"]["hp"] == 99


def test_set_hp_felling_the_current_combatant_ends_its_turn(enc: Encounter) -> None:
    events = gm(enc, "set_hp", target="orc", hp=-1)
    assert [e["type"] for e in events] == ["gm", "state", "turn_ended", "condition", "turn_started"]
    assert enc.turn == "valeros"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"target": "ghost", "hp": 3}, "unknown_combatant"),
        ({"target": "orc"}, "invalid_command"),
        ({"hp": 3}, "invalid_command"),
        ({"target": "orc", "hp": 3, "to": [1, 1]}, "invalid_command"),
        ({"target": "orc", "hp": "3"}, "invalid_command"),
    ],
)
def test_set_hp_checks_its_fields(enc: Encounter, fields: Json, code: str) -> None:
    assert refused(enc, "set_hp", **fields).code == code


def test_conditions_come_and_go_with_gm_and_condition_events(enc: Encounter) -> None:
    events = gm(enc, "add_condition", target="orc", condition="blinded")
    assert events[1] == {
        "type": "condition",
        "actor": "orc",
        "condition": "blinded",
        "added": True,
        "until": "gm",
    }
    assert "blinded" in enc.view()["combatants"]["orc"]["conditions"]
    events = gm(enc, "remove_condition", target="orc", condition="blinded")
    assert events == [
        {"type": "gm", "what": "remove_condition", "detail": {"target": "orc", "condition": "blinded"}},
        {"type": "condition", "actor": "orc", "condition": "blinded", "added": False, "until": None},
    ]
    assert "blinded" not in enc.view()["combatants"]["orc"]["conditions"]


def test_a_state_condition_shows_as_a_state(enc: Encounter) -> None:
    events = gm(enc, "add_condition", target="valeros", condition="unconscious")
    assert events[1:] == [{"type": "state", "actor": "valeros", "state": "unconscious"}]
    view = enc.view()["combatants"]["valeros"]
    assert view["state"] == "unconscious" and "unconscious" not in view["conditions"]
    events = gm(enc, "remove_condition", target="valeros", condition="unconscious")
    assert events[1:] == [{"type": "state", "actor": "valeros", "state": "ok"}]


@pytest.mark.parametrize(
    ("do", "condition", "code"),
    [
        ("add_condition", "on_fire", "invalid_command"),
        ("remove_condition", "on_fire", "invalid_command"),
        ("remove_condition", "blinded", "not_allowed"),
        ("add_condition", "flat_footed", "not_allowed"),  # valeros is flat-footed until his first turn
    ],
)
def test_conditions_are_checked(enc: Encounter, do: str, condition: str, code: str) -> None:
    exc = refused(enc, do, target="valeros", condition=condition)
    assert exc.code == code
    if code == "invalid_command":
        assert "blinded" in exc.message  # the known conditions are listed


def test_move_to_teleports_without_provoking(enc: Encounter) -> None:
    enc.apply({"actor": "orc", "do": "end_turn"})  # the orc may now take opportunities
    events = gm(enc, "move_to", target="valeros", to=[0, 7])
    assert events == [
        {"type": "gm", "what": "move_to", "detail": {"target": "valeros", "from": [3, 3], "to": [0, 7]}}
    ]
    assert enc.pending is None and enc.combatants["valeros"].pos == (0, 7)
    assert enc.occupied[(0, 7)].id == "valeros" and (3, 3) not in enc.occupied


@pytest.mark.parametrize("to", [[8, 0], [-1, 2], [6, 6], [4, 3], [0, 0]])
def test_move_to_needs_a_free_square_on_the_map(enc: Encounter, to: list[int]) -> None:
    assert refused(enc, "move_to", target="valeros", to=to).code == "bad_path"


def test_move_to_its_own_square_is_allowed(enc: Encounter) -> None:
    gm(enc, "move_to", target="valeros", to=[3, 3])
    assert enc.occupied[(3, 3)].id == "valeros"


def test_set_initiative_reorders_and_keeps_the_current_turn(enc: Encounter) -> None:
    events = gm(enc, "set_initiative", order=["kyra", "orc", "valeros"])
    assert events == [
        {"type": "gm", "what": "set_initiative", "detail": {"order": ["kyra", "orc", "valeros"]}}
    ]
    assert enc.turn == "orc"
    res = enc.apply({"actor": "orc", "do": "end_turn"})
    assert res.events[-1] == {"type": "turn_started", "actor": "valeros", "round": 1}
    res = enc.apply({"actor": "valeros", "do": "end_turn"})
    assert [e["type"] for e in res.events][:3] == ["turn_ended", "round_ended", "round_started"]
    assert enc.turn == "kyra"


@pytest.mark.parametrize(
    "order",
    [["orc", "valeros"], ["orc", "valeros", "kyra", "kyra"], ["orc", "valeros", "ghost"], []],
)
def test_set_initiative_needs_every_combatant_once(enc: Encounter, order: list[str]) -> None:
    exc = refused(enc, "set_initiative", order=order)
    assert exc.code == "invalid_command" and "kyra, orc, valeros" in exc.message


def test_gm_commands_work_whoever_s_turn_it_is_and_undo(enc: Encounter) -> None:
    before = snapshot(enc)
    gm(enc, "set_hp", target="kyra", hp=1)
    gm(enc, "add_condition", target="kyra", condition="staggered")
    gm(enc, "move_to", target="kyra", to=[1, 0])
    for _ in range(3):
        enc.undo()
    assert snapshot(enc) == before
