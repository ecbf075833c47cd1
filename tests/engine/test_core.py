"""The apply loop: atomicity, pending decisions, undo, legal commands, error ordering, turn keeping."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tactica import Command, Encounter, IllegalCommand, load_encounter
from tactica.engine.core import GM
from tactica.rulesets.base import Action

from ..conftest import fighter, pf1_encounter
from .snapshot import snapshot

Json = dict[str, Any]


def duel(**extra: Any) -> Encounter:
    """valeros (heroes, AC 15) at [3, 3] and an orc (AC 13) at [4, 3]; the orc acts first."""
    data = pf1_encounter(
        fighter("valeros", "heroes", [3, 3]),
        fighter("orc", "monsters", [4, 3], ac=13),
        initiative=["orc", "valeros"],
    )
    data.update(extra)
    enc = load_encounter(data)
    enc.start()
    return enc


def opened_window(**extra: Any) -> Encounter:
    """valeros walks away from the orc: the orc's opportunity is pending."""
    enc = duel(**extra)
    enc.apply({"actor": "orc", "do": "end_turn"})
    res = enc.apply({"actor": "valeros", "do": "move", "path": [[2, 3], [1, 3]]})
    assert res.pending is not None and res.pending.actor == "orc"
    return enc


def rejected(enc: Encounter, cmd: Json | Command) -> IllegalCommand:
    """Apply ``cmd``, expecting a refusal that leaves the encounter exactly as it was."""
    before = snapshot(enc)
    predicted = enc.why_illegal(cmd)
    with pytest.raises(IllegalCommand) as info:
        enc.apply(cmd)
    assert snapshot(enc) == before
    if info.value.code not in ("dice_exhausted", "bad_die"):
        assert predicted is not None and predicted.code == info.value.code
    return info.value


# -- atomicity -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cmd", "code"),
    [
        ({"actor": "orc", "do": "move", "path": [[9, 9]]}, "bad_path"),
        ({"actor": "orc", "do": "attack", "target": "nobody"}, "unknown_combatant"),
        ({"actor": "valeros", "do": "end_turn"}, "not_your_turn"),
        ({"actor": "orc", "do": "fly"}, "unknown_action"),
        ({"actor": "orc", "do": "end_turn", "target": "valeros"}, "invalid_command"),
        ({"actor": "orc", "do": "move", "path": "north"}, "invalid_command"),
    ],
)
def test_a_rejected_command_leaves_no_trace(cmd: Json, code: str) -> None:
    enc = duel(seed=4)
    enc.apply({"actor": "orc", "do": "attack", "target": "valeros"})
    assert rejected(enc, cmd).code == code


def test_a_command_failing_midway_on_forced_dice_leaves_no_trace() -> None:
    # the attack roll (15) is there, the damage die is not: the step fails after spending the action
    enc = duel(dice=[15])
    before = snapshot(enc)
    exc = rejected(enc, {"actor": "orc", "do": "attack", "target": "valeros"})
    assert exc.code == "dice_exhausted"
    assert snapshot(enc) == before
    assert enc.dice.position == 0 and enc.log == [] and enc.history == []
    orc = enc.combatants["orc"]
    assert orc.data.standard == 1 and enc.combatants["valeros"].hp == 20


def test_a_failure_midway_after_earlier_commands_rebuilds_them_exactly() -> None:
    enc = duel(dice=[2, 15])  # orc misses (2), then valeros hits (15) with no damage die left
    enc.apply({"actor": "orc", "do": "attack", "target": "valeros"})
    enc.apply({"actor": "orc", "do": "end_turn"})
    before = snapshot(enc)
    assert rejected(enc, {"actor": "valeros", "do": "attack", "target": "orc"}).code == "dice_exhausted"
    assert snapshot(enc) == before
    assert enc.dice.position == 1 and len(enc.log) == 2


def test_a_bad_forced_die_midway_leaves_no_trace() -> None:
    enc = duel(dice=[15, 9])  # a d8 of 9
    exc = rejected(enc, {"actor": "orc", "do": "attack", "target": "valeros"})
    assert exc.code == "bad_die" and "d8" in exc.message


def test_an_answer_failing_midway_leaves_the_decision_pending() -> None:
    enc = opened_window(dice=[15])  # the opportunity attack hits, its damage die is missing
    before = snapshot(enc)
    exc = rejected(enc, {"actor": "orc", "do": "opportunity_attack", "target": "valeros"})
    assert exc.code == "dice_exhausted"
    assert snapshot(enc) == before
    # the suspended command was rebuilt: declining resumes it
    res = enc.apply({"actor": "orc", "do": "decline"})
    assert [e["type"] for e in res.events] == ["moved"]
    assert enc.combatants["valeros"].pos == (1, 3)


def test_start_failing_on_forced_dice_leaves_the_encounter_unstarted() -> None:
    data = pf1_encounter(fighter("a", "x", [0, 0]), fighter("b", "y", [5, 5]), dice=[12])
    enc = load_encounter(data)
    with pytest.raises(IllegalCommand) as info:
        enc.start()
    assert info.value.code == "dice_exhausted"
    assert enc.start_events is None and enc.dice.position == 0 and enc.current is None


def test_apply_starts_an_unstarted_encounter_but_a_refusal_unstarts_it() -> None:
    enc = load_encounter(
        pf1_encounter(fighter("a", "x", [0, 0]), fighter("b", "y", [5, 5]), initiative=["a", "b"], seed=1)
    )
    before = snapshot(enc)
    with pytest.raises(IllegalCommand) as info:
        enc.apply({"actor": "b", "do": "end_turn"})
    assert info.value.code == "not_your_turn"
    assert snapshot(enc) == before and enc.start_events is None
    res = enc.apply({"actor": "a", "do": "end_turn"})
    assert enc.start_events is not None and res.events[-1] == {
        "type": "turn_started",
        "actor": "b",
        "round": 1,
    }


def test_a_first_command_failing_midway_leaves_the_encounter_unstarted() -> None:
    data = pf1_encounter(
        fighter("a", "x", [0, 0]), fighter("b", "y", [1, 0]), initiative=["a", "b"], dice=[15]
    )
    enc = load_encounter(data)
    before = snapshot(enc)
    with pytest.raises(IllegalCommand) as info:
        enc.apply({"actor": "a", "do": "attack", "target": "b"})
    assert info.value.code == "dice_exhausted"
    assert snapshot(enc) == before and enc.start_events is None


def test_nothing_is_legal_when_the_encounter_cannot_start() -> None:
    enc = load_encounter(pf1_encounter(fighter("a", "x", [0, 0]), fighter("b", "y", [1, 0]), dice=[3]))
    before = snapshot(enc)
    assert list(enc.legal_commands("a")) == []
    err = enc.why_illegal({"actor": "a", "do": "end_turn"})
    assert err is not None and err.code == "dice_exhausted"
    assert snapshot(enc) == before


def test_legality_before_start_is_that_of_the_started_encounter() -> None:
    enc = load_encounter(
        pf1_encounter(fighter("a", "x", [0, 0]), fighter("b", "y", [5, 5]), initiative=["a", "b"], seed=1)
    )
    before = snapshot(enc)
    assert enc.is_legal({"actor": "a", "do": "end_turn"})
    err = enc.why_illegal({"actor": "b", "do": "end_turn"})
    assert err is not None and err.code == "not_your_turn"
    legal = list(enc.legal_commands("a"))
    assert Command(actor="a", do="end_turn") in legal and list(enc.legal_commands("b")) == []
    assert snapshot(enc) == before
    started = load_encounter(
        pf1_encounter(fighter("a", "x", [0, 0]), fighter("b", "y", [5, 5]), initiative=["a", "b"], seed=1)
    )
    started.start()
    assert legal == list(started.legal_commands("a"))


# -- pending decisions -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cmd",
    [
        {"actor": "valeros", "do": "end_turn"},
        {"actor": "valeros", "do": "move", "path": [[0, 3]]},
        {"actor": "orc", "do": "end_turn"},
        {"actor": "orc", "do": "attack", "target": "valeros"},
        {"actor": "orc", "do": "no_such_action"},
        {"actor": "valeros", "do": "decline"},
        {"actor": "valeros", "do": "opportunity_attack", "target": "orc"},
        {"actor": GM, "do": "set_hp", "target": "orc", "hp": 3},
        {"actor": GM, "do": "move_to", "target": "orc", "to": [7, 7]},
        {"actor": GM, "do": "set_initiative", "order": ["valeros", "orc"]},
        {"actor": GM, "do": "add_condition", "target": "orc", "condition": "blinded"},
        {"actor": GM, "do": "remove_condition", "target": "valeros", "condition": "flat_footed"},
    ],
)
def test_while_a_decision_is_pending_everything_else_is_decision_pending(cmd: Json) -> None:
    enc = opened_window(seed=2)
    exc = rejected(enc, cmd)
    assert exc.code == "decision_pending"
    assert "orc" in exc.message and "attack of opportunity" in exc.message  # the answers, as labels


def test_the_answer_resumes_the_interrupted_command() -> None:
    enc = opened_window(dice=[15, 3])
    res = enc.apply({"actor": "orc", "do": "opportunity_attack", "target": "valeros"})
    types = [e["type"] for e in res.events]
    assert types == ["attack", "damage", "moved"]
    assert res.pending is None and enc.pending is None
    assert enc.combatants["valeros"].pos == (1, 3)
    assert enc.turn == "valeros"


def test_declining_resumes_too() -> None:
    enc = opened_window(seed=3)
    res = enc.apply({"actor": "orc", "do": "decline"})
    assert [e["type"] for e in res.events] == ["moved"]
    assert enc.pending is None


def test_a_wrong_answer_is_refused_and_the_decision_stays() -> None:
    enc = opened_window(seed=3)
    assert rejected(enc, {"actor": "orc", "do": "decline", "target": "valeros"}).code == "invalid_command"
    assert rejected(enc, {"actor": "orc", "do": "opportunity_attack", "target": "orc"}).code == "not_allowed"
    assert enc.pending is not None


def test_answers_outside_a_decision_are_not_allowed() -> None:
    enc = duel(seed=3)
    assert rejected(enc, {"actor": "orc", "do": "decline"}).code == "not_allowed"
    assert (
        rejected(enc, {"actor": "orc", "do": "opportunity_attack", "target": "valeros"}).code == "not_allowed"
    )


def test_a_mover_downed_by_an_opportunity_ends_its_turn() -> None:
    enc = opened_window(dice=[15, 8])
    res = enc.apply({"actor": "orc", "do": "opportunity_attack", "target": "valeros"})
    assert enc.combatants["valeros"].hp == 20 - 11  # still standing: the turn goes on
    assert res.events[-1]["type"] == "moved" and enc.turn == "valeros"
    low = opened_window(
        dice=[15, 8],
        combatants=[
            fighter("valeros", "heroes", [3, 3], hp=3),
            fighter("orc", "monsters", [4, 3], ac=13),
        ],
    )
    res = low.apply({"actor": "orc", "do": "opportunity_attack", "target": "valeros"})
    types = [e["type"] for e in res.events]
    assert types[:3] == ["attack", "damage", "state"] and "moved" not in types
    assert types[-2:] == ["round_started", "turn_started"] and low.turn == "orc"


# -- undo ------------------------------------------------------------------------------------------
def test_undo_takes_back_exactly_one_command() -> None:
    enc = duel(seed=5)
    shots = [snapshot(enc)]
    script: list[Json] = [
        {"actor": "orc", "do": "attack", "target": "valeros"},
        {"actor": "orc", "do": "end_turn"},
        {"actor": "valeros", "do": "move", "path": [[2, 3]]},
        {"actor": "orc", "do": "decline"},
        {"actor": GM, "do": "set_hp", "target": "orc", "hp": 4},
        {"actor": "valeros", "do": "end_turn"},
    ]
    for cmd in script:
        enc.apply(cmd)
        shots.append(snapshot(enc))
    for cmd in reversed(script):
        assert enc.undo() == Command.from_json(cmd)
        shots.pop()
        assert snapshot(enc) == shots[-1]
    with pytest.raises(IllegalCommand) as info:
        enc.undo()
    assert info.value.code == "not_allowed"


def test_undo_then_the_same_command_gives_the_same_events() -> None:
    enc = duel(seed=9)
    first = enc.apply({"actor": "orc", "do": "attack", "target": "valeros"})
    after = snapshot(enc)
    enc.undo()
    again = enc.apply({"actor": "orc", "do": "attack", "target": "valeros"})
    assert json.dumps(again.events) == json.dumps(first.events)
    assert snapshot(enc) == after


def test_undoing_an_answer_reopens_the_decision() -> None:
    enc = opened_window(seed=3)
    window = enc.pending
    enc.apply({"actor": "orc", "do": "decline"})
    enc.undo()
    assert enc.pending == window
    res = enc.apply({"actor": "orc", "do": "decline"})
    assert [e["type"] for e in res.events] == ["moved"]


# -- legal commands: one source of legality --------------------------------------------------------
def legal_is_applied(enc: Encounter, actor: str) -> list[Command]:
    legal = list(enc.legal_commands(actor))
    for cmd in legal:
        before = snapshot(enc)
        enc.apply(cmd)
        enc.undo()
        assert snapshot(enc) == before, cmd
    return legal


def test_every_legal_command_is_accepted_and_in_agrees() -> None:
    enc = duel(seed=11)
    view = enc.legal_commands("orc")
    legal = legal_is_applied(enc, "orc")
    assert legal and all(cmd in view for cmd in legal)
    assert len(view) == view.count() == len(legal) and bool(view)
    assert {c.do for c in legal} >= {"move", "five_foot_step", "attack", "end_turn", "withdraw", "run"}
    assert not enc.legal_commands("valeros") and len(enc.legal_commands("valeros")) == 0
    assert list(enc.legal_commands("nobody")) == [] and list(enc.legal_commands(GM)) == []


def test_legal_commands_of_a_pending_decision_are_its_answers() -> None:
    enc = opened_window(seed=3)
    legal = legal_is_applied(enc, "orc")
    assert {c.do for c in legal} == {"opportunity_attack", "decline"}
    assert list(enc.legal_commands("valeros")) == []


def test_in_asks_is_legal_for_any_command_or_mapping() -> None:
    enc = duel(seed=11)
    view = enc.legal_commands("orc")
    probes: list[Any] = [
        Command(actor="orc", do="attack", target="valeros", defensively=True),
        Command(actor="orc", do="attack", target="valeros", weapon="axe"),
        Command(actor="orc", do="move", path=((9, 9),)),
        {"actor": "orc", "do": "five_foot_step", "to": [4, 4]},
        {"actor": "orc", "do": "five_foot_step", "to": "x"},
        Command(actor="valeros", do="end_turn"),
        "end_turn",
    ]
    for probe in probes:
        cmd = probe
        if isinstance(probe, dict):
            try:
                cmd = Command.from_json(probe)
            except IllegalCommand:
                assert probe not in view
                continue
        expected = isinstance(cmd, Command) and cmd.actor == "orc" and enc.is_legal(cmd)
        assert (probe in view) == expected
    assert Command(actor="orc", do="attack", target="valeros", defensively=True) in view
    assert {"actor": "orc", "do": "five_foot_step", "to": [4, 4]} in view


@pytest.mark.parametrize(
    "cmd",
    [
        {"actor": "orc", "do": "attack", "target": "valeros", "weapon": "axe"},
        {"actor": "orc", "do": "five_foot_step", "to": [3, 3]},
        {"actor": "orc", "do": "five_foot_step", "to": [6, 3]},
        {"actor": "orc", "do": "move", "path": [[5, 3], [6, 3], [7, 3], [7, 4], [7, 5], [7, 6], [7, 7]]},
        {"actor": "orc", "do": "cast", "spell": "fireball"},
        {"actor": "orc", "do": "abandon_spell"},
        {"actor": "valeros", "do": "attack", "target": "orc"},
        {"actor": "ghost", "do": "end_turn"},
        {"actor": GM, "do": "set_hp", "target": "ghost", "hp": 1},
        {"actor": GM, "do": "attack", "target": "orc"},
        {"actor": "orc", "do": "set_hp", "target": "orc", "hp": 99},
    ],
)
def test_why_illegal_gives_the_code_apply_raises(cmd: Json) -> None:
    enc = duel(seed=12)
    predicted = enc.why_illegal(cmd)
    assert predicted is not None and not enc.is_legal(cmd)
    assert rejected(enc, cmd).code == predicted.code
    assert predicted.message


# -- error ordering --------------------------------------------------------------------------------
def test_error_codes_come_in_a_fixed_order() -> None:
    enc = opened_window(seed=2)
    # unknown_combatant before decision_pending
    assert enc.why_illegal({"actor": "ghost", "do": "fly", "path": [[1, 1]]}).code == "unknown_combatant"  # type: ignore[union-attr]
    # decision_pending before unknown_action / invalid_command / not_your_turn
    assert enc.why_illegal({"actor": "valeros", "do": "fly", "hp": 3}).code == "decision_pending"  # type: ignore[union-attr]
    enc.apply({"actor": "orc", "do": "decline"})
    enc.apply({"actor": GM, "do": "set_hp", "target": "orc", "hp": -20})  # the orc is dead, not its turn
    assert enc.combatants["orc"].state == "dead"
    order = [
        ({"actor": "orc", "do": "fly", "hp": 3}, "unknown_action"),
        ({"actor": "orc", "do": "end_turn", "hp": 3}, "invalid_command"),
        ({"actor": "orc", "do": "move"}, "invalid_command"),
        ({"actor": "orc", "do": "end_turn"}, "defeated"),
    ]
    for cmd, code in order:
        assert rejected(enc, cmd).code == code, cmd
    enc.apply({"actor": GM, "do": "set_hp", "target": "orc", "hp": 5})
    assert rejected(enc, {"actor": "orc", "do": "end_turn"}).code == "not_your_turn"


def test_a_malformed_mapping_is_invalid_before_anything_else() -> None:
    enc = opened_window(seed=2)
    assert rejected(enc, {"actor": "ghost", "do": "x", "path": "n"}).code == "invalid_command"
    assert rejected(enc, {"actor": "ghost", "dx": "x"}).code == "invalid_command"


def test_gm_and_combatant_actions_do_not_mix() -> None:
    enc = duel(seed=2)
    exc = rejected(enc, {"actor": GM, "do": "attack", "target": "orc"})
    assert exc.code == "not_allowed" and "GM" in exc.message
    exc = rejected(enc, {"actor": "orc", "do": "move_to", "target": "orc", "to": [6, 6]})
    assert exc.code == "not_allowed" and "only the GM" in exc.message


# -- turn keeping ----------------------------------------------------------------------------------
def test_a_combatant_felled_as_its_turn_begins_does_not_hold_up_the_fight() -> None:
    # the caster's own 1-round spell lands on itself at the start of its next turn and fells it
    caster = fighter(
        "mage",
        "heroes",
        [0, 0],
        hp=2,
        caster={"concentration": 5},
        spells=[{"id": "backfire", "casting_time": "1_round", "damage": "5", "touch": True}],
    )
    enc = load_encounter(
        pf1_encounter(caster, fighter("orc", "monsters", [7, 7]), initiative=["mage", "orc"])
    )
    enc.start()
    enc.apply({"actor": "mage", "do": "cast", "spell": "backfire", "targets": ["mage"]})
    enc.apply({"actor": "mage", "do": "end_turn"})
    res = enc.apply({"actor": "orc", "do": "end_turn"})
    types = [(e["type"], e.get("actor") or e.get("target")) for e in res.events]
    assert ("damage", "mage") in types and ("state", "mage") in types
    assert types[-1] == ("turn_started", "orc") and enc.turn == "orc"
    assert enc.combatants["mage"].state == "dying"
    assert ("turn_ended", "mage") in types


def test_when_nobody_is_left_no_new_round_starts() -> None:
    enc = duel(seed=1)
    enc.apply({"actor": GM, "do": "set_hp", "target": "valeros", "hp": -30})
    res = enc.apply({"actor": GM, "do": "set_hp", "target": "orc", "hp": -30})
    assert [e["type"] for e in res.events] == ["gm", "state", "turn_ended"]
    assert enc.current is None and enc.turn is None and enc.outcome() == "draw"
    assert list(enc.legal_commands("orc")) == []


def test_a_gm_revival_after_everyone_fell_starts_the_next_turn() -> None:
    enc = duel(seed=1)
    enc.apply({"actor": GM, "do": "set_hp", "target": "valeros", "hp": -30})
    enc.apply({"actor": GM, "do": "set_hp", "target": "orc", "hp": -30})
    assert enc.current is None
    res = enc.apply({"actor": GM, "do": "set_hp", "target": "valeros", "hp": 5})
    types = [e["type"] for e in res.events]
    assert types[:2] == ["gm", "state"] and types[-1] == "turn_started"
    assert enc.turn == "valeros" and enc.round == 2
    assert enc.is_legal({"actor": "valeros", "do": "end_turn"})


def test_an_encounter_where_nobody_can_act_starts_with_nobody_s_turn() -> None:
    enc = load_encounter(
        pf1_encounter(
            fighter("a", "x", [0, 0], hp=-20), fighter("b", "y", [3, 3], hp=-20), initiative=["a", "b"]
        )
    )
    events = enc.start().events
    assert [e["type"] for e in events] == ["initiative", "round_started"]
    assert enc.current is None and enc.outcome() == "draw"


def test_outcome_names_the_side_left_standing() -> None:
    enc = duel(seed=1)
    assert enc.outcome() is None
    enc.apply({"actor": GM, "do": "set_hp", "target": "orc", "hp": -1})
    assert enc.outcome() == "heroes"


# -- squares ---------------------------------------------------------------------------------------
def test_walking_through_an_ally_leaves_the_ally_its_square() -> None:
    enc = load_encounter(
        pf1_encounter(
            fighter("a", "h", [1, 1]),
            fighter("b", "h", [2, 1]),
            fighter("o", "m", [7, 7]),
            initiative=["a", "b", "o"],
        )
    )
    enc.start()
    enc.apply({"actor": "a", "do": "move", "path": [[2, 1], [3, 1]]})
    assert {s: c.id for s, c in enc.occupied.items()} == {(2, 1): "b", (3, 1): "a", (7, 7): "o"}
    enc.apply({"actor": "a", "do": "end_turn"})
    err = enc.why_illegal({"actor": "b", "do": "five_foot_step", "to": [3, 1]})
    assert err is not None and err.code == "bad_path"
    enc.apply({"actor": "b", "do": "move", "path": [[2, 2]]})
    assert {s: c.id for s, c in enc.occupied.items()} == {(2, 2): "b", (3, 1): "a", (7, 7): "o"}


def test_a_mover_downed_on_an_allys_square_ends_on_the_last_square_it_may_end_on() -> None:
    enc = load_encounter(
        pf1_encounter(
            fighter("a", "h", [0, 3], hp=1),
            fighter("b", "h", [1, 3]),
            fighter("orc", "m", [2, 2]),
            initiative=["orc", "a", "b"],
            dice=[15, 8],
        )
    )
    enc.start()
    enc.apply({"actor": "orc", "do": "end_turn"})
    enc.apply(
        {"actor": "a", "do": "move", "path": [[1, 3], [0, 4]]}
    )  # through b; leaving b's square provokes
    enc.apply({"actor": "orc", "do": "opportunity_attack", "target": "a"})
    a = enc.combatants["a"]
    assert (a.pos, a.state) == ((0, 3), "dying") and enc.turn == "b"  # R-PF-MOV-3: back where it started
    assert enc.occupied[(1, 3)].id == "b" and enc.occupied[(0, 3)] is a
    enc.apply({"actor": "b", "do": "move", "path": [[0, 2]]})
    assert (1, 3) not in enc.occupied and enc.occupied[(0, 3)] is a


def test_the_dead_hold_no_square_even_when_moved_or_dead_from_the_start() -> None:
    enc = load_encounter(
        pf1_encounter(
            fighter("a", "h", [1, 1]),
            fighter("corpse", "m", [2, 1], hp=-20),
            fighter("o", "m", [7, 7]),
            initiative=["a", "corpse", "o"],
        )
    )
    enc.start()
    assert enc.combatants["corpse"].state == "dead" and (2, 1) not in enc.occupied
    enc.apply({"actor": GM, "do": "move_to", "target": "corpse", "to": [5, 5]})
    assert (5, 5) not in enc.occupied and enc.combatants["corpse"].pos == (5, 5)
    enc.apply({"actor": "a", "do": "move", "path": [[2, 2], [3, 3], [4, 4], [5, 5]]})
    assert enc.occupied[(5, 5)].id == "a"


def test_back_from_the_dead_a_combatant_holds_its_square_if_free() -> None:
    enc = duel(seed=1)
    enc.apply({"actor": GM, "do": "set_hp", "target": "valeros", "hp": -30})
    assert (3, 3) not in enc.occupied
    enc.apply({"actor": GM, "do": "set_hp", "target": "valeros", "hp": 5})
    assert enc.occupied[(3, 3)].id == "valeros"


# -- structure -------------------------------------------------------------------------------------
def test_encounters_on_one_map_share_their_grid() -> None:
    a, b = duel(seed=1), duel(seed=2)
    assert a.grid is b.grid
    a.apply({"actor": "orc", "do": "end_turn"})
    a.undo()
    assert a.grid is b.grid


def test_an_action_knows_the_fields_it_refuses() -> None:
    a = Action("poke", lambda e, c, cmd: None, lambda e, c, cmd, p: iter(()), frozenset({"target"}))
    assert "target" not in a.forbidden and "actor" not in a.forbidden and "do" not in a.forbidden
    assert {"path", "hp", "then", "weapon"} <= set(a.forbidden)


def test_view_is_json_ready() -> None:
    enc = opened_window(seed=3)
    view = enc.view()
    assert json.loads(json.dumps(view)) == view
    assert view["pending"] == {
        "actor": "orc",
        "choices": ["opportunity_attack", "decline"],
        "trigger": {"type": "opportunity", "provoker": "valeros", "reason": "leave_threatened", "at": [3, 3]},
    }
    assert view["turn"] == "valeros" and view["round"] == 1
    assert set(view["combatants"]) == {"valeros", "orc"}


def test_starting_twice_is_a_programming_error() -> None:
    enc = duel(seed=1)
    with pytest.raises(RuntimeError):
        enc.start()


def test_an_answer_from_a_defeated_combatant_is_defeated_first() -> None:
    enc = load_encounter(
        pf1_encounter(
            fighter("a", "h", [0, 0]),
            fighter("down", "m", [5, 5], hp=-3),
            fighter("b", "m", [7, 7]),
            initiative=["a", "down", "b"],
            seed=1,
        )
    )
    enc.start()
    for do in ("decline", "opportunity_attack", "end_turn"):
        assert enc.why_illegal({"actor": "down", "do": do}).code == "defeated"  # type: ignore[union-attr]
