"""Dice: seeded and forced sources, and dice notation compiled once with d20's grammar."""

from __future__ import annotations

import pickle
import random

import pytest

from tactica.engine.dice import MAX_DICE, DiceExpr, ForcedDice, SeededDice, compile_dice
from tactica.engine.errors import EncounterError, IllegalCommand


# -- SeededDice ----------------------------------------------------------------------------------
def test_seeded_dice_repeat_for_the_same_seed() -> None:
    a, b = SeededDice(7), SeededDice(7)
    rolls_a = [a.roll(s) for s in (20, 6, 8, 12, 4, 100) * 20]
    rolls_b = [b.roll(s) for s in (20, 6, 8, 12, 4, 100) * 20]
    assert rolls_a == rolls_b
    assert a.position == b.position == 120


def test_seeded_dice_differ_between_seeds() -> None:
    a, b = SeededDice(1), SeededDice(2)
    assert [a.roll(20) for _ in range(30)] != [b.roll(20) for _ in range(30)]


def test_seeded_dice_stay_on_their_faces_and_reach_every_face() -> None:
    d = SeededDice(3)
    faces = [d.roll(6) for _ in range(600)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(d.roll(1) == 1 for _ in range(10))


def test_seeded_dice_ignore_the_global_random_module() -> None:
    d1 = SeededDice(5)
    first = [d1.roll(20) for _ in range(5)]
    random.seed(12345)
    random.random()
    d2 = SeededDice(5)
    random.seed(999)
    assert [d2.roll(20) for _ in range(5)] == first


def test_seeded_dice_count_their_position() -> None:
    d = SeededDice(0)
    assert d.position == 0
    d.roll(20)
    d.roll(6)
    assert d.position == 2


# -- ForcedDice ----------------------------------------------------------------------------------
def test_forced_dice_hand_out_faces_in_order() -> None:
    d = ForcedDice([17, 4, 12])
    assert [d.roll(20), d.roll(6), d.roll(20)] == [17, 4, 12]
    assert d.position == 3


def test_forced_dice_running_out_is_dice_exhausted_with_a_clear_message() -> None:
    d = ForcedDice([5])
    d.roll(20)
    with pytest.raises(IllegalCommand) as info:
        d.roll(8)
    assert info.value.code == "dice_exhausted"
    assert "(1 used;" in info.value.message and "d8" in info.value.message
    assert d.position == 1  # nothing was consumed


def test_forced_dice_empty_list_is_exhausted_at_once() -> None:
    with pytest.raises(IllegalCommand) as info:
        ForcedDice([]).roll(20)
    assert info.value.code == "dice_exhausted"


@pytest.mark.parametrize(("face", "sides"), [(7, 6), (0, 20), (-1, 4), (21, 20)])
def test_a_forced_face_outside_the_die_is_bad_die(face: int, sides: int) -> None:
    d = ForcedDice([3, face])
    d.roll(20)
    with pytest.raises(IllegalCommand) as info:
        d.roll(sides)
    assert info.value.code == "bad_die"
    msg = info.value.message
    assert f"#{2}" in msg and str(face) in msg and f"d{sides}" in msg and f"1 to {sides}" in msg
    assert d.position == 1


def test_forced_dice_copy_their_list() -> None:
    faces = [1, 2]
    d = ForcedDice(faces)
    faces[0] = 99
    assert d.roll(20) == 1


# -- compile_dice: the d20 grammar, sums only ------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "groups", "const"),
    [
        ("1d8+3", ((1, 8),), 3),
        ("d6", ((1, 6),), 0),
        ("2d6-1d4+1", ((2, 6), (-1, 4)), 1),
        ("-(1d4+2)", ((-1, 4),), -2),
        ("(1d6)", ((1, 6),), 0),
        ("((2d4+1)-(1d6-3))", ((2, 4), (-1, 6)), 4),
        ("10", (), 10),
        ("-3", (), -3),
        ("1d4--2", ((1, 4),), 2),
        ("+1d4", ((1, 4),), 0),
        ("0d6+1", (), 1),
        ("1d6 + 2d6", ((1, 6), (2, 6)), 0),
        (" 1d6+1 ", ((1, 6),), 1),
    ],
)
def test_compile_dice_reads_sums_differences_and_parentheses(
    text: str, groups: tuple[tuple[int, int], ...], const: int
) -> None:
    e = compile_dice(text)
    assert (e.groups, e.const) == (groups, const)
    assert e.text == text


@pytest.mark.parametrize(
    "text",
    ["4d6kh3", "4d6kl1", "1d20ro1", "1d6rr1", "1d6e6", "2*3", "1d6*2", "1d6/2", "(1d6,2d6)kh1", "1d6 [fire]"],
)
def test_compile_dice_refuses_what_is_not_a_plain_sum(text: str) -> None:
    with pytest.raises(EncounterError) as info:
        compile_dice(text)
    assert repr(text) in info.value.message
    assert "sums of dice" in info.value.message


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "not dice notation"),
        ("abc", "not dice notation"),
        ("1d", "not dice notation"),
        ("1.5", "whole numbers"),
        ("1d0", "bad die"),
        (f"{MAX_DICE + 1}d6", "more than"),
        (f"{MAX_DICE}d6-1d4", "more than"),
    ],
)
def test_compile_dice_errors_say_why(text: str, why: str) -> None:
    with pytest.raises(EncounterError) as info:
        compile_dice(text)
    assert why in info.value.message


def test_compile_dice_refuses_a_non_string() -> None:
    with pytest.raises(EncounterError):
        compile_dice(6)  # type: ignore[arg-type]


def test_compile_dice_compiles_each_text_once() -> None:
    compile_dice.cache_clear()
    first = compile_dice("3d7+2")
    again = compile_dice("3d7+2")
    assert first is again
    info = compile_dice.cache_info()
    assert (info.hits, info.misses) == (1, 1)


def test_dice_expressions_pickle() -> None:
    e = compile_dice("2d6-1")
    assert pickle.loads(pickle.dumps(e)) == e


# -- rolling a compiled expression ---------------------------------------------------------------
def test_roll_uses_the_given_dice_in_order_and_reports_faces() -> None:
    e = compile_dice("2d6-1d4+3")
    faces: list[int] = []
    assert e.roll(ForcedDice([5, 2, 4]), faces) == 5 + 2 - 4 + 3
    assert faces == [5, 2, 4]


def test_roll_dice_only_leaves_out_the_constant() -> None:
    e = compile_dice("1d8+3")
    assert e.roll_dice_only(ForcedDice([6])) == 6


def test_a_roll_stays_within_the_expressions_bounds() -> None:
    e = compile_dice("2d6-1d4+1")
    d = SeededDice(11)
    totals = {e.roll(d) for _ in range(2000)}
    assert min(totals) == 2 - 4 + 1
    assert max(totals) == 12 - 1 + 1


@pytest.mark.parametrize(
    ("text", "maximum"), [("2d6+3", 12), ("1d6-1d4", 5), ("-(2d4)", -2), ("5", 0), ("1d8-2d6+1d4", 10)]
)
def test_maximum_dice_puts_added_dice_high_and_subtracted_dice_low(text: str, maximum: int) -> None:
    assert compile_dice(text).maximum_dice == maximum


def test_maximum_dice_is_the_largest_roll_of_the_dice_part() -> None:
    e = compile_dice("1d6-1d4")
    d = SeededDice(2)
    assert max(e.roll_dice_only(d) for _ in range(2000)) == e.maximum_dice


def test_dice_expr_is_a_frozen_value() -> None:
    e = DiceExpr("1d6", ((1, 6),), 0)
    with pytest.raises(AttributeError):
        e.const = 3  # type: ignore[misc]
