"""Commands: small frozen values, built from a mapping with every field checked.

``Command(actor='valeros', do='move', path=((4, 4), (5, 4)))`` -- the repr pastes back as code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..i18n import N_, _
from .errors import IllegalCommand

Square = tuple[int, int]


@dataclass(frozen=True, slots=True, repr=False)
class Command:
    """One thing a combatant (or the GM, ``actor='gm'``) does. Unused fields are ``None``."""

    actor: str
    do: str
    target: str | None = None
    targets: tuple[str, ...] | None = None
    weapon: str | None = None
    spell: str | None = None
    special: str | None = None
    ability: str | None = None  # the same as ``special`` (pf1's use_ability takes either name)
    item: str | None = None
    path: tuple[Square, ...] | None = None
    to: Square | None = None
    metamagic: tuple[str, ...] | None = None
    defensively: bool | None = None
    full_attack: bool | None = None
    hand: str | None = None
    kind: str | None = None
    facing: str | None = None
    trigger: str | None = None
    by: str | None = None
    then: Command | None = None
    amount: float | None = None
    pay: str | None = None
    hp: int | None = None
    condition: str | None = None
    order: tuple[str, ...] | None = None

    def given(self) -> dict[str, Any]:
        """The fields that are set (not ``None``), in declaration order."""
        out: dict[str, Any] = {}
        for f in _FIELDS:
            v = getattr(self, f)
            if v is not None:
                out[f] = v
        return out

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.given().items())
        return f"Command({inner})"

    def to_json(self) -> dict[str, Any]:
        """The mapping form, as in a script file."""
        out: dict[str, Any] = {}
        for k, v in self.given().items():
            if k in ("path", "order", "targets", "metamagic"):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            elif k == "to":
                v = list(v)
            elif k == "then":
                v = v.to_json()
            out[k] = v
        return out

    @classmethod
    def from_json(cls, data: Any, where: str | None = None) -> Command:
        """Build from a mapping; any missing, unknown or mistyped field is ``invalid_command``.
        ``where`` names the command in the messages (``script[3]``; by default "command")."""
        if isinstance(data, Command):
            return data
        if where is None:
            # Translators: names the command a message is about, as in "command: missing field 'actor'"
            where = _("command")
        if not isinstance(data, Mapping):
            raise IllegalCommand("invalid_command", _("{w}: a command must be a mapping").format(w=where))
        unknown = [k for k in data if k not in _FIELDS]
        if unknown:
            raise IllegalCommand(
                "invalid_command",
                _("{w}: unknown field {f!r} (allowed: {allowed})").format(
                    w=where, f=unknown[0], allowed=", ".join(_FIELDS)
                ),
            )
        for req in ("actor", "do"):
            if data.get(req) is None:  # absent, or given as null: both are missing
                raise IllegalCommand("invalid_command", _("{w}: missing field {f!r}").format(w=where, f=req))
        kwargs: dict[str, Any] = {}
        for k, v in data.items():
            if v is None:
                continue
            if k == "then" and isinstance(v, Mapping) and "actor" not in v:
                v = {"actor": data["actor"], **v}  # a held command is the holder's own
            kwargs[k] = _convert(k, v, where)
        return cls(**kwargs)


TYPE_WORDS: dict[type, str] = {
    bool: N_("true or false"),
    int: N_("a whole number"),
    float: N_("a number"),
    str: N_("a string"),
}
"""What a value of each type must be, for an error message (translated where shown)."""

_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Command))
COMMAND_FIELDS: tuple[str, ...] = _FIELDS
"""Every field of :class:`Command`, in declaration order."""
_STR = {
    "actor",
    "do",
    "target",
    "weapon",
    "spell",
    "special",
    "ability",
    "item",
    "hand",
    "kind",
    "facing",
    "trigger",
    "by",
    "pay",
    "condition",
}
_STR_LIST = {"targets", "metamagic", "order"}


def _bad(where: str, field: str, expected: str, value: Any) -> IllegalCommand:
    """``expected`` is already translated (``_("a whole number")``)."""
    return IllegalCommand(
        "invalid_command",
        _("{w}: field {f!r} must be {expected}, not {v!r}").format(
            w=where, f=field, expected=expected, v=value
        ),
    )


def _square(v: Any, where: str, field: str) -> Square:
    if (
        isinstance(v, (list, tuple))
        and len(v) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in v)
    ):
        return (v[0], v[1])
    raise _bad(where, field, _("a square [x, y]"), v)


def _convert(k: str, v: Any, where: str) -> Any:
    if k in _STR:
        if not isinstance(v, str) or not v:
            raise _bad(where, k, _("a non-empty string"), v)
        return v
    if k in _STR_LIST:
        if isinstance(v, str) and k == "targets":
            return (v,)
        if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
            raise _bad(where, k, _("a list of strings"), v)
        return tuple(v)
    if k == "path":
        if not isinstance(v, (list, tuple)):
            raise _bad(where, k, _("a list of squares"), v)
        return tuple(_square(s, where, f"{k}[{i}]") for i, s in enumerate(v))
    if k == "to":
        return _square(v, where, k)
    if k in ("defensively", "full_attack"):
        if not isinstance(v, bool):
            raise _bad(where, k, _(TYPE_WORDS[bool]), v)
        return v
    if k == "hp":
        if not isinstance(v, int) or isinstance(v, bool):
            raise _bad(where, k, _(TYPE_WORDS[int]), v)
        return v
    if k == "amount":
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise _bad(where, k, _(TYPE_WORDS[float]), v)
        try:
            number = float(v)
        except OverflowError:
            number = math.inf
        if not math.isfinite(number):  # NaN would not even equal itself
            raise _bad(where, k, _("a finite number"), v)
        return number
    if k == "then":
        return Command.from_json(v, where=f"{where}.then")
    raise AssertionError(k)  # pragma: no cover - every field is handled above
