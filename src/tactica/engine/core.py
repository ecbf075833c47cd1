"""The apply loop: commands in, events out; pending decisions; atomicity; undo; legal commands.

A command runs as a generator (a *step*). When it opens a window for another combatant's decision
it yields a :class:`Window`; the encounter keeps the suspended generator and reports ``pending``;
the answer is sent back into it and the command resumes. Every check happens before the step
starts mutating; if anything fails after that (forced dice running out, a bug), the encounter is
rebuilt from its setup and command log, so a rejected command leaves no trace.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..i18n import _
from ..vocabulary import label
from .commands import Command
from .dice import Dice, ForcedDice, SeededDice
from .errors import IllegalCommand
from .events import Event
from .grid import Grid, Square
from .state import Combatant, MapSetup, Setup, Window

if TYPE_CHECKING:
    from ..rulesets.base import Action, Ruleset

Step = Generator[Window, Command, None]

GM = "gm"


def pending_refusal(enc: Encounter, window: Window) -> IllegalCommand:
    """The refusal of a command while ``window`` waits for its combatant's answer (which it lists)."""
    who = enc.combatants[window.actor].name if window.actor in enc.combatants else window.actor
    return IllegalCommand(
        "decision_pending",
        _("{who} must first answer: {choices}").format(
            who=who, choices=", ".join(label("action", choice) for choice in window.choices)
        ),
    )


def grid_for(m: MapSetup, diagonal_rule: str) -> Grid:
    """The grid of a map. A grid never changes once built, so encounters on the same map (a
    simulator's thousands of fights, every rebuild for undo) share one."""
    try:
        return _cached_grid(m, diagonal_rule)
    except TypeError:  # a map built in code with lists: not hashable, build it each time
        return _build_grid(m, diagonal_rule)


def _build_grid(m: MapSetup, diagonal_rule: str) -> Grid:
    return Grid(
        m.width, m.height, m.square_m, m.difficult, m.very_difficult, m.blocked, diagonal_rule=diagonal_rule
    )


_cached_grid = lru_cache(maxsize=64)(_build_grid)


@dataclass(frozen=True)
class StepResult:
    """What one accepted command did: its events, and the decision now pending (if any)."""

    events: list[Event]
    pending: Window | None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": True,
            "events": self.events,
            "pending": None if self.pending is None else self.pending.to_json(),
        }


class Encounter:
    """A fight in progress. Build with :func:`tactica.load_encounter` or ``Encounter(setup)``.

    >>> enc.start(); enc.apply({"actor": "valeros", "do": "end_turn"})
    """

    def __init__(self, setup: Setup, ruleset: Ruleset | None = None) -> None:
        if ruleset is None:
            from ..rulesets import find_ruleset

            ruleset = find_ruleset(setup.ruleset)
        self.setup = setup
        self.ruleset = ruleset
        self.variants: dict[str, Any] = ruleset.resolve_variants(setup.variants)
        self.log: list[Command] = []
        self.history: list[list[Event]] = []
        self._reset()

    # -- building and rebuilding -----------------------------------------------------------------
    def _reset(self) -> None:
        s = self.setup
        self.grid = grid_for(s.map, self.ruleset.diagonal_rule(self.variants))
        self.dice: Dice = ForcedDice(list(s.dice)) if s.dice is not None else SeededDice(s.seed)
        self.combatants: dict[str, Combatant] = {}
        self.occupied: dict[Square, Combatant] = {}
        self.crowded = False
        """Whether two combatants ever stood on one square (only then does :meth:`vacate` look for
        someone else standing on a square that is left)."""
        for i, cs in enumerate(s.combatants):
            c = self.ruleset.new_combatant(self, cs, i)
            self.combatants[c.id] = c
            if self.ruleset.holds_square(c):  # a combatant that starts dead lies on its square
                self.occupied[c.pos] = c
        self.order: list[Combatant] = list(self.combatants.values())
        self.round = 0
        self.turn_index = -1
        self.current: Combatant | None = None
        self.pending: Window | None = None
        self._step: Step | None = None
        self.events: list[Event] = []
        self.start_events: list[Event] | None = None
        self.rdata: Any = self.ruleset.new_encounter_data(self)

    def _rebuild(self, log: list[Command]) -> None:
        started = self.start_events is not None
        self._reset()
        self.log = []
        self.history = []
        if started:
            self.start()
        for cmd in log:
            self.apply(cmd)

    # -- the public loop -------------------------------------------------------------------------
    def start(self) -> StepResult:
        """Roll initiative and begin the first turn (the encounter's "start" line)."""
        if self.start_events is not None:
            raise RuntimeError("encounter already started")
        self.events = []
        self._drive(self.ruleset.start(self), None, None)
        self.start_events = self.events
        return StepResult(self.events, self.pending)

    def apply(self, command: Command | Mapping[str, Any]) -> StepResult:
        """Apply one command atomically. Raises :class:`IllegalCommand` and leaves no trace if refused.

        An encounter not started yet is started first (as :meth:`start` would); if the command is
        then refused, it goes back to not started, so even that leaves no trace."""
        cmd = command if isinstance(command, Command) else Command.from_json(command)
        if self.start_events is None:
            self.start()
            try:
                return self._apply(cmd)
            except BaseException:
                self._reset()  # refused (checked, or failed midway and rebuilt): back to not started
                raise
        return self._apply(cmd)

    def _apply(self, cmd: Command) -> StepResult:
        step = self._prepare(cmd)
        self.events = []
        logged = len(self.log)
        self.log.append(cmd)
        if isinstance(step, tuple):  # the answer to a pending decision
            gen, answer = step
            self._drive(gen, answer, logged)
        else:
            self._drive(step, None, logged)
        self.history.append(self.events)
        return StepResult(self.events, self.pending)

    def _drive(self, gen: Step, value: Command | None, logged: int | None) -> None:
        """Run ``gen`` to its next window or its end; on failure rebuild from the first ``logged``
        commands of the log (``None``: nothing to rebuild, the encounter is starting)."""
        try:
            self.pending = None  # the window is answered: the resumed step must not see it open
            window = gen.send(value) if value is not None else next(gen)
        except StopIteration:
            self._step = None
            self.pending = None
        except BaseException:
            if logged is None:
                self._reset()
            else:
                self._rebuild(self.log[:logged])
            raise
        else:
            self._step = gen
            self.pending = window

    def _prepare(self, cmd: Command) -> Step | tuple[Step, Command]:
        """Every check before anything changes; returns the step to run."""
        rs = self.ruleset
        if cmd.actor != GM and cmd.actor not in self.combatants:
            raise IllegalCommand(
                "unknown_combatant", _("there is no combatant {actor!r}").format(actor=cmd.actor)
            )
        if self.pending is not None:
            w = self.pending
            if cmd.actor != w.actor or cmd.do not in w.choices:
                raise pending_refusal(self, w)
            rs.check_answer(self, w, cmd)
            assert self._step is not None
            return (self._step, cmd)
        action = self.action_for(cmd)
        actor = None if cmd.actor == GM else self.combatants[cmd.actor]
        plan = action.check(self, actor, cmd)
        return self._with_epilogue(action.run(self, actor, cmd, plan))

    def _with_epilogue(self, step: Step) -> Step:
        yield from step
        yield from self.ruleset.after_command(self)

    def action_for(self, cmd: Command) -> Action:
        """The action ``cmd.do`` names, with the checks every action shares (fields, actor, turn)."""
        rs = self.ruleset
        action = rs.gm_actions.get(cmd.do) if cmd.actor == GM else rs.actions.get(cmd.do)
        if action is None:
            if cmd.do in rs.answers:
                if cmd.actor != GM and rs.is_defeated(self.combatants[cmd.actor]):
                    raise _defeated(self.combatants[cmd.actor])
                if cmd.actor != GM and self.current is not self.combatants[cmd.actor]:
                    raise IllegalCommand(
                        "not_your_turn",
                        _("{actor} has no decision to answer and it is not its turn").format(actor=cmd.actor),
                    )
                raise IllegalCommand(
                    "not_allowed",
                    _("{actor}: there is no decision to answer with {do}").format(
                        actor=cmd.actor, do=label("action", cmd.do)
                    ),
                )
            if cmd.actor == GM and cmd.do in rs.actions:
                raise IllegalCommand(
                    "not_allowed", _("the GM does not take combat actions; use move_to, set_hp, ...")
                )
            if cmd.actor != GM and cmd.do in rs.gm_actions:
                raise IllegalCommand(
                    "not_allowed",
                    _("{actor}: only the GM may use {do}").format(
                        actor=cmd.actor, do=label("action", cmd.do)
                    ),
                )
            raise IllegalCommand(
                "unknown_action",
                _("{do!r} is not an action of the {ruleset} ruleset").format(do=cmd.do, ruleset=rs.name),
            )
        for f in action.forbidden:
            if getattr(cmd, f) is not None:
                raise IllegalCommand(
                    "invalid_command",
                    _("{actor}: {do} does not take the field {f!r}").format(actor=cmd.actor, do=cmd.do, f=f),
                )
        for f in action.required:
            if getattr(cmd, f) is None:
                raise IllegalCommand(
                    "invalid_command", _("{actor}: {do} needs {f!r}").format(actor=cmd.actor, do=cmd.do, f=f)
                )
        if cmd.actor != GM:
            c = self.combatants[cmd.actor]
            if rs.is_defeated(c):
                raise _defeated(c)
            if not action.any_time and self.current is not c:
                raise IllegalCommand(
                    "not_your_turn",
                    _("it is not {actor}'s turn (it is {current}'s)").format(
                        actor=c.name, current=self.current.name if self.current else _("nobody")
                    ),
                )
        return action

    def undo(self) -> Command:
        """Take back the last command (exactly: the encounter is rebuilt from its log without it)."""
        if not self.log:
            raise IllegalCommand("not_allowed", _("there is nothing to undo"))
        last = self.log[-1]
        self._rebuild(self.log[:-1])
        return last

    # -- legality --------------------------------------------------------------------------------
    def why_illegal(self, command: Command | Mapping[str, Any]) -> IllegalCommand | None:
        """The error ``apply`` would raise for this command, or ``None`` if it is legal.

        The rules are checked, not the dice: a legal command can still fail on forced dice running
        out (``dice_exhausted``, ``bad_die``), which only applying it finds. On an encounter not
        started yet, the answer is for the encounter as :meth:`start` would leave it."""
        try:
            cmd = command if isinstance(command, Command) else Command.from_json(command)
            if self.start_events is None:
                with self._started_for_a_look():
                    self._prepare(cmd)
            else:
                self._prepare(cmd)
        except IllegalCommand as exc:
            return exc
        return None

    @contextmanager
    def _started_for_a_look(self) -> Iterator[None]:
        """Start an encounter that has not started, and put it back as it was afterwards (starting
        is deterministic, so this changes nothing)."""
        try:
            self.start()
            yield
        finally:
            self._reset()

    def is_legal(self, command: Command | Mapping[str, Any]) -> bool:
        return self.why_illegal(command) is None

    def legal_commands(self, actor: str) -> LegalCommands:
        """A lazy view of ``actor``'s legal commands now: iterate it, ``len()`` it, or ask ``in``."""
        return LegalCommands(self, actor)

    # -- helpers for rulesets ---------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        self.events.append(event)

    @property
    def turn(self) -> str | None:
        return self.current.id if self.current else None

    def rank(self, c: Combatant) -> int:
        """Position of ``c`` in the initiative order (for ordering windows)."""
        return self.order.index(c)

    def move_token(self, c: Combatant, to: Square) -> None:
        """Put ``c`` on ``to``. A mover passing through an ally's square does not take it from the
        ally (neither on the way in nor on the way out); the dead hold no square."""
        here = c.pos
        c.pos = to
        if self.occupied.get(here) is c:
            self.vacate(here, c)
        if to in self.occupied:
            self.crowded = True  # c stands on a square another holds (passing through an ally)
        elif self.ruleset.holds_square(c):
            self.occupied[to] = c

    def vacate(self, square: Square, c: Combatant) -> None:
        """``c`` no longer holds ``square``: anyone else still standing there takes it (an ally
        that a mover was passing through, or someone downed while passing through an ally)."""
        del self.occupied[square]
        if not self.crowded:
            return  # nobody ever shared a square: nobody to look for (the common, fast case)
        for other in self.combatants.values():
            if other is not c and other.pos == square and self.ruleset.holds_square(other):
                self.occupied[square] = other
                return

    def outcome(self) -> str | None:
        """The side still standing when only one is, ``"draw"`` when none is, else ``None``."""
        sides = {c.side for c in self.order if not self.ruleset.is_out_of_fight(c)}
        if len(sides) > 1:
            return None
        return sides.pop() if sides else "draw"

    def view(self) -> dict[str, Any]:
        """The final-state view of format.md section 5 (JSON-ready)."""
        return {
            "round": self.round,
            "turn": self.turn,
            "pending": None if self.pending is None else self.pending.to_json(),
            "combatants": {c.id: self.ruleset.combatant_view(self, c) for c in self.combatants.values()},
        }


def _defeated(c: Combatant) -> IllegalCommand:
    return IllegalCommand(
        "defeated", _("{actor} is {state} and cannot act").format(actor=c.name, state=label("state", c.state))
    )


class LegalCommands:
    """python-chess style: iterate for the commands, ``cmd in view`` asks :meth:`Encounter.is_legal`."""

    def __init__(self, enc: Encounter, actor: str) -> None:
        self.enc = enc
        self.actor = actor

    def __iter__(self) -> Iterator[Command]:
        enc = self.enc
        if enc.start_events is None:
            # not started yet: the commands legal once it starts (found on a started look, then undone)
            try:
                with enc._started_for_a_look():
                    legal = [c for c in enc.ruleset.candidates(enc, self.actor) if enc.is_legal(c)]
            except IllegalCommand:
                return  # it cannot even start (forced dice run out on initiative): nothing is legal
            yield from legal
            return
        for cmd in enc.ruleset.candidates(enc, self.actor):
            if enc.is_legal(cmd):
                yield cmd

    def __contains__(self, cmd: object) -> bool:
        """``cmd in view`` asks :meth:`Encounter.is_legal`; a mapping is read as a command first."""
        if isinstance(cmd, Mapping):
            try:
                cmd = Command.from_json(cmd)
            except IllegalCommand:
                return False
        if not isinstance(cmd, Command) or cmd.actor != self.actor:
            return False
        return self.enc.is_legal(cmd)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return len(self)
