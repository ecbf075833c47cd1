"""Every random number of an encounter comes from its :class:`Dice`.

Dice notation is parsed with the ``d20`` library's grammar and compiled once into a
:class:`DiceExpr` (a sum of dice groups and a constant); rolling uses the encounter's own source,
never the global ``random`` module and never d20's roller.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import d20
import d20.diceast as ast

from ..i18n import _, ngettext
from .errors import EncounterError, IllegalCommand


class Dice(Protocol):
    """A source of die faces. ``position`` counts the faces handed out so far."""

    position: int

    def roll(self, sides: int) -> int:
        """One face of a die with ``sides`` faces, 1..sides."""
        ...


class SeededDice:
    """Pseudo-random dice from a seeded :class:`random.Random` owned by the encounter."""

    __slots__ = ("_random", "position", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed).random
        self.position = 0

    def roll(self, sides: int) -> int:
        self.position += 1
        return int(self._random() * sides) + 1


class ForcedDice:
    """Faces given in advance (a script's ``dice:``), consumed in order; running out is an error."""

    __slots__ = ("faces", "position")

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.position = 0

    def roll(self, sides: int) -> int:
        if self.position >= len(self.faces):
            raise IllegalCommand(
                "dice_exhausted",
                ngettext(
                    "the script's forced dice ran out ({n} used; a d{sides} was needed)",
                    "the script's forced dice ran out (all {n} used; a d{sides} was needed)",
                    len(self.faces),
                ).format(n=len(self.faces), sides=sides),
            )
        face = self.faces[self.position]
        if not 1 <= face <= sides:
            raise IllegalCommand(
                "bad_die",
                _("forced die #{i} is {face}, but a d{sides} only has faces 1 to {sides}").format(
                    i=self.position + 1, face=face, sides=sides
                ),
            )
        self.position += 1
        return face


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A compiled dice expression: ``groups`` of (count, sides) (count < 0 subtracts) plus ``const``."""

    text: str
    groups: tuple[tuple[int, int], ...]
    const: int

    def roll(self, dice: Dice, faces: list[int] | None = None) -> int:
        """Roll once; append every face to ``faces`` when given."""
        total = self.const
        for count, sides in self.groups:
            sign = 1 if count > 0 else -1
            for _i in range(count * sign):
                face = dice.roll(sides)
                if faces is not None:
                    faces.append(face)
                total += sign * face
        return total

    def roll_dice_only(self, dice: Dice, faces: list[int] | None = None) -> int:
        """Roll the dice part only (no constant)."""
        return self.roll(dice, faces) - self.const

    @property
    def maximum_dice(self) -> int:
        """The dice part at its maximum (for maximised spells): added dice on their highest face,
        subtracted dice on their lowest (``1d6-1d4`` is at most 6 - 1)."""
        return sum(count * sides if count > 0 else count for count, sides in self.groups)


def _linear(node: ast.Node, text: str) -> tuple[list[tuple[int, int]], int]:
    if isinstance(node, ast.Expression):
        return _linear(node.roll, text)
    if isinstance(node, ast.Parenthetical):
        return _linear(node.value, text)
    if isinstance(node, ast.Literal):
        if not isinstance(node.value, int):
            raise EncounterError(_("dice expression {e!r}: only whole numbers are allowed").format(e=text))
        return [], node.value
    if isinstance(node, ast.Dice) and type(node) is ast.Dice:
        if node.num < 0 or node.size < 1 or not isinstance(node.size, int):
            raise EncounterError(_("dice expression {e!r}: bad die").format(e=text))
        return ([(node.num, node.size)] if node.num else []), 0
    if isinstance(node, ast.UnOp) and node.op in "+-":
        groups, const = _linear(node.value, text)
        if node.op == "-":
            return [(-c, s) for c, s in groups], -const
        return groups, const
    if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
        lg, lc = _linear(node.left, text)
        rg, rc = _linear(node.right, text)
        if node.op == "-":
            return lg + [(-c, s) for c, s in rg], lc - rc
        return lg + rg, lc + rc
    raise EncounterError(
        _("dice expression {e!r}: only sums of dice and numbers are supported (like 2d6+3)").format(e=text)
    )


MAX_DICE = 1000
"""The most dice one expression may roll (d20's own limit): ``1000000d6`` is a typo, not a weapon."""


@lru_cache(maxsize=4096)
def compile_dice(text: str) -> DiceExpr:
    """Parse ``text`` with d20's grammar into a :class:`DiceExpr`; raise :class:`EncounterError`.

    Only sums and differences of dice and whole numbers are accepted (``2d6+1d4-1``, parentheses
    too); d20's other operators (``kh``, ``ro``, ``*``, sets, annotations) are refused. Surrounding
    blanks are ignored. Compiled once per distinct text (cached)."""
    if not isinstance(text, str):
        raise EncounterError(_("{e!r} is not dice notation (like 1d8+3)").format(e=text))
    try:
        tree = d20.parse(text.strip())
    except Exception as exc:  # d20 raises its own parse errors; all mean the same to a user
        raise EncounterError(_("{e!r} is not dice notation (like 1d8+3)").format(e=text)) from exc
    groups, const = _linear(tree, text)
    if sum(abs(count) for count, _sides in groups) > MAX_DICE:
        raise EncounterError(
            ngettext(
                "dice expression {e!r}: more than {n} die in one roll",
                "dice expression {e!r}: more than {n} dice in one roll",
                MAX_DICE,
            ).format(e=text, n=MAX_DICE)
        )
    return DiceExpr(text, tuple(groups), const)
