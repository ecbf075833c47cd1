"""Errors are values with codes; they survive pickling (a simulator's worker processes) and copying."""

from __future__ import annotations

import copy
import pickle

import pytest

from tactica.engine.errors import ERROR_CODES, EncounterError, EncounterErrors, IllegalCommand


def test_the_error_codes_are_those_of_the_format() -> None:
    assert set(ERROR_CODES) == {
        "invalid_command",
        "unknown_action",
        "unknown_combatant",
        "not_your_turn",
        "decision_pending",
        "no_budget",
        "already_moved",
        "bad_path",
        "terrain",
        "out_of_reach",
        "condition",
        "not_allowed",
        "casting",
        "dice_exhausted",
        "bad_die",
        "defeated",
    }


def test_illegal_command_carries_code_and_message() -> None:
    exc = IllegalCommand("no_budget", "valeros has no move action left")
    assert exc.to_json() == {"code": "no_budget", "message": "valeros has no move action left"}
    assert str(exc) == "no_budget: valeros has no move action left"


def test_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(AssertionError):
        IllegalCommand("oops", "x")


@pytest.mark.parametrize("clone", [lambda e: pickle.loads(pickle.dumps(e)), copy.copy, copy.deepcopy])
def test_illegal_command_pickles_and_copies(clone: object) -> None:
    exc = IllegalCommand("bad_die", "forced die #2 is 7")
    back = clone(exc)  # type: ignore[operator]
    assert isinstance(back, IllegalCommand)
    assert (back.code, back.message, str(back)) == (exc.code, exc.message, str(exc))


def test_encounter_error_pickles_with_its_place() -> None:
    exc = EncounterError("required, but missing", "combatants[1].stats.hp", "fight.yaml", 12)
    back = pickle.loads(pickle.dumps(exc))
    assert (back.message, back.where, back.file, back.line) == (exc.message, exc.where, exc.file, exc.line)
    assert str(back) == "fight.yaml:12: combatants[1].stats.hp: required, but missing"


def test_encounter_errors_pickle_every_error() -> None:
    exc = EncounterErrors([EncounterError("a", "x", "f", 1), EncounterError("b", "y", "f", 2)])
    back = pickle.loads(pickle.dumps(exc))
    assert isinstance(back, EncounterErrors)
    assert [e.message for e in back.errors] == ["a", "b"]
    assert str(back) == str(exc) == "f:1: x: a\nf:2: y: b"
