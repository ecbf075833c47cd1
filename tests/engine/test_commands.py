"""Commands: frozen values built from mappings with every field checked; repr pastes back; JSON round trip."""

from __future__ import annotations

import json
import math
from dataclasses import FrozenInstanceError
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.engine.commands import COMMAND_FIELDS, Command
from tactica.engine.errors import IllegalCommand


def invalid(data: Any) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as info:
        Command.from_json(data)
    assert info.value.code == "invalid_command"
    return info.value


# -- every way a command can be malformed ---------------------------------------------------------
@pytest.mark.parametrize("data", [None, "end_turn", 3, ["actor", "do"], ("a", "b")])
def test_a_command_must_be_a_mapping(data: Any) -> None:
    assert "mapping" in invalid(data).message


def test_an_unknown_field_is_named_with_the_allowed_ones() -> None:
    exc = invalid({"actor": "v", "do": "move", "pth": [[1, 1]]})
    assert "'pth'" in exc.message and "path" in exc.message and "actor" in exc.message


def test_a_non_string_key_is_an_unknown_field() -> None:
    assert "unknown field" in invalid({"actor": "v", "do": "end_turn", 1: 2}).message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"do": "end_turn"}, "actor"),
        ({"actor": "v"}, "do"),
        ({}, "actor"),
        ({"actor": None, "do": "end_turn"}, "actor"),
        ({"actor": "v", "do": None}, "do"),
    ],
)
def test_actor_and_do_are_required(data: dict[str, Any], field: str) -> None:
    exc = invalid(data)
    assert f"missing field {field!r}" in exc.message


def test_the_message_says_where() -> None:
    with pytest.raises(IllegalCommand) as info:
        Command.from_json({"actor": "v"}, where="script[3]")
    assert info.value.message.startswith("script[3]: ")


BAD_VALUES: list[tuple[str, Any, str]] = [
    ("actor", 3, "non-empty string"),
    ("actor", "", "non-empty string"),
    ("do", ["move"], "non-empty string"),
    ("target", True, "non-empty string"),
    ("weapon", 1.5, "non-empty string"),
    ("spell", {}, "non-empty string"),
    ("condition", "", "non-empty string"),
    ("targets", 3, "list of strings"),
    ("targets", ["orc", 2], "list of strings"),
    ("metamagic", "empower_spell", "list of strings"),
    ("order", [None], "list of strings"),
    ("path", "north", "list of squares"),
    ("path", 5, "list of squares"),
    ("path", [[1, 2, 3]], "a square"),
    ("path", [[1, "2"]], "a square"),
    ("path", [[True, 2]], "a square"),
    ("path", [[1.0, 2]], "a square"),
    ("path", [3, 4], "a square"),
    ("to", [1], "a square"),
    ("to", "1,2", "a square"),
    ("to", {"x": 1, "y": 2}, "a square"),
    ("defensively", "yes", "true or false"),
    ("full_attack", 1, "true or false"),
    ("hp", 1.5, "whole number"),
    ("hp", True, "whole number"),
    ("hp", "3", "whole number"),
    ("amount", "2", "a number"),
    ("amount", False, "a number"),
    ("amount", math.nan, "finite"),
    ("amount", math.inf, "finite"),
    ("amount", 10**400, "finite"),
    ("then", "end_turn", "mapping"),
]


@pytest.mark.parametrize(("field", "value", "expected"), BAD_VALUES)
def test_a_mistyped_field_is_invalid_command(field: str, value: Any, expected: str) -> None:
    data = {"actor": "v", "do": "x", field: value}
    exc = invalid(data)
    assert expected in exc.message
    if field == "path" and isinstance(value, list):  # the step at fault is named: path[0]
        assert "'path[0]'" in exc.message and repr(value[0]) in exc.message
    elif field != "then":
        assert repr(field) in exc.message and repr(value) in exc.message


def test_a_nested_then_is_checked_with_its_place() -> None:
    exc = invalid({"actor": "v", "do": "ready", "then": {"actor": "v", "do": "attack", "target": 3}})
    assert exc.message.startswith("command.then: ")


def test_every_field_is_checked() -> None:
    """No field of Command slips through unchecked: each refuses a value of a foreign type."""
    checked = {field for field, _v, _e in BAD_VALUES}
    assert checked | {"kind", "facing", "trigger", "by", "pay", "item", "special", "ability", "hand"} == set(
        COMMAND_FIELDS
    )
    for field in ("kind", "facing", "trigger", "by", "pay", "item", "special", "ability", "hand"):
        invalid({"actor": "v", "do": "x", field: 7})


# -- what a valid mapping becomes ------------------------------------------------------------------
def test_fields_are_converted_to_frozen_values() -> None:
    cmd = Command.from_json(
        {
            "actor": "v",
            "do": "move",
            "path": [[1, 2], (2, 3)],
            "to": [4, 5],
            "targets": ["a", "b"],
            "amount": 2,
            "then": {"actor": "v", "do": "end_turn"},
        }
    )
    assert cmd.path == ((1, 2), (2, 3))
    assert cmd.to == (4, 5)
    assert cmd.targets == ("a", "b")
    assert cmd.amount == 2.0 and isinstance(cmd.amount, float)
    assert cmd.then == Command(actor="v", do="end_turn")
    hash(cmd)  # hashable: usable in sets and as dict keys


def test_a_single_target_string_is_a_one_element_list() -> None:
    assert Command.from_json({"actor": "v", "do": "cast", "targets": "orc"}).targets == ("orc",)


def test_null_fields_are_unset() -> None:
    assert Command.from_json({"actor": "v", "do": "end_turn", "target": None}) == Command(
        actor="v", do="end_turn"
    )


def test_from_json_returns_a_command_as_it_is() -> None:
    cmd = Command(actor="v", do="end_turn")
    assert Command.from_json(cmd) is cmd


def test_commands_are_frozen() -> None:
    cmd = Command(actor="v", do="end_turn")
    with pytest.raises(FrozenInstanceError):
        cmd.do = "move"  # type: ignore[misc]


def test_given_lists_set_fields_in_declaration_order() -> None:
    cmd = Command(actor="v", do="attack", weapon="sword", target="orc", defensively=False)
    assert list(cmd.given()) == ["actor", "do", "target", "weapon", "defensively"]


def test_repr_pastes_back_as_code() -> None:
    cmd = Command(actor="valeros", do="move", path=((4, 4), (5, 4)))
    assert repr(cmd) == "Command(actor='valeros', do='move', path=((4, 4), (5, 4)))"
    nested = Command(actor="v", do="ready", trigger="moves", then=cmd, amount=1.5)
    assert eval(repr(nested), {"Command": Command}) == nested


def test_to_json_is_the_script_form() -> None:
    cmd = Command(
        actor="v", do="move", path=((1, 2),), to=(3, 4), order=("a", "b"), then=Command(actor="v", do="x")
    )
    assert cmd.to_json() == {
        "actor": "v",
        "do": "move",
        "path": [[1, 2]],
        "to": [3, 4],
        "then": {"actor": "v", "do": "x"},
        "order": ["a", "b"],
    }
    json.dumps(cmd.to_json())


# -- round trips, for any command ------------------------------------------------------------------
NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789-", min_size=1, max_size=8)
SQUARE = st.tuples(st.integers(-3, 40), st.integers(-3, 40))
NAMES = st.lists(NAME, max_size=4).map(tuple)


def commands(depth: int = 1) -> st.SearchStrategy[Command]:
    fields: dict[str, st.SearchStrategy[Any]] = {
        "target": NAME,
        "targets": NAMES,
        "weapon": NAME,
        "spell": NAME,
        "special": NAME,
        "item": NAME,
        "path": st.lists(SQUARE, max_size=6).map(tuple),
        "to": SQUARE,
        "metamagic": NAMES,
        "defensively": st.booleans(),
        "full_attack": st.booleans(),
        "hand": NAME,
        "kind": NAME,
        "facing": NAME,
        "trigger": NAME,
        "by": NAME,
        "amount": st.floats(allow_nan=False, allow_infinity=False),
        "pay": NAME,
        "hp": st.integers(-(10**6), 10**6),
        "condition": NAME,
        "order": NAMES,
    }
    if depth > 0:
        fields["then"] = commands(depth - 1)
    return st.fixed_dictionaries({"actor": NAME, "do": NAME}, optional={k: v for k, v in fields.items()}).map(
        lambda kw: Command(**kw)
    )


@settings(max_examples=150, deadline=None)
@given(commands())
def test_json_round_trip_is_the_identity(cmd: Command) -> None:
    data = cmd.to_json()
    assert Command.from_json(json.loads(json.dumps(data))) == cmd


@settings(max_examples=150, deadline=None)
@given(commands())
def test_repr_round_trip_is_the_identity(cmd: Command) -> None:
    assert eval(repr(cmd), {"Command": Command}) == cmd
