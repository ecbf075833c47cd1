"""Errors are values with codes (format.md section 7)."""

from __future__ import annotations

from typing import Any, Final

ERROR_CODES: Final = (
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
)


class IllegalCommand(Exception):
    """A command the rules refuse. ``code`` is one of :data:`ERROR_CODES`; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[IllegalCommand], tuple[str, str]]:
        # pickling (a simulator's worker processes) and copying rebuild from (code, message)
        return (type(self), (self.code, self.message))

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class EncounterError(Exception):
    """A file or setup that cannot be loaded. ``where`` is the YAML path (``combatants[1].stats.bab``)."""

    def __init__(self, message: str, where: str = "", file: str = "", line: int | None = None) -> None:
        self.message = message
        self.where = where
        self.file = file
        self.line = line
        super().__init__(str(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.where, self.file, self.line))

    def __str__(self) -> str:
        head = self.file
        if head and self.line is not None:
            head += f":{self.line}"
        parts = [p for p in (head, self.where) if p]
        return ": ".join([*parts, self.message])


class EncounterErrors(EncounterError):
    """Several load errors at once (every problem a file has, not just the first)."""

    def __init__(self, errors: list[EncounterError]) -> None:
        self.errors = errors
        first = errors[0]
        super().__init__(first.message, first.where, first.file, first.line)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.errors,))

    def __str__(self) -> str:
        return "\n".join(EncounterError.__str__(e) for e in self.errors)
