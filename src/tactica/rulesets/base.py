"""The Ruleset base class: declared metadata, variants, actions, and hooks with neutral defaults.

A ruleset is static (one instance serves every encounter); what changes lives in the Encounter
(``enc.rdata``) and its combatants (``c.data``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..engine import events as ev
from ..engine.commands import COMMAND_FIELDS, TYPE_WORDS, Command
from ..engine.errors import EncounterError, IllegalCommand
from ..engine.grid import Square, fmt_square
from ..engine.state import Combatant, CombatantSetup, Window
from ..i18n import N_, _

if TYPE_CHECKING:
    from ..engine.core import Encounter, Step


@dataclass(frozen=True)
class Variant:
    """A rule switch: ``name`` (``terza.zoc.guarded_exempt``), its Python type, default and choices."""

    name: str
    type: type
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None

    def parse(self, value: Any) -> Any:
        ok = isinstance(value, self.type) and not (self.type is not bool and isinstance(value, bool))
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise EncounterError(
                _("variant {name} must be {expected}, not {value!r}").format(
                    name=self.name, expected=_(TYPE_WORDS.get(self.type, N_("a value"))), value=value
                )
            )
        if self.choices is not None and value not in self.choices:
            raise EncounterError(
                _("variant {name} must be one of {choices}, not {value!r}").format(
                    name=self.name, choices=", ".join(map(str, self.choices)), value=value
                )
            )
        return value


CheckFn = Callable[["Encounter", Any, Command], Any]
RunFn = Callable[["Encounter", Any, Command, Any], "Step"]
CandidatesFn = Callable[["Encounter", Combatant], Iterable[Command]]


@dataclass(frozen=True)
class Action:
    """One action id: the fields it takes, its check (pure: raises IllegalCommand, returns a plan)
    and its run (a generator that mutates, emits events and may yield windows)."""

    id: str
    check: CheckFn
    run: RunFn
    fields: frozenset[str] = frozenset()
    required: tuple[str, ...] = ()
    any_time: bool = False
    candidates: CandidatesFn | None = None
    label: str = ""
    forbidden: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The command fields this action does not take (computed once: the engine checks them on every
    command without building a dict)."""

    def __post_init__(self) -> None:
        taken = self.fields | {"actor", "do"}
        object.__setattr__(self, "forbidden", tuple(f for f in COMMAND_FIELDS if f not in taken))


def module_action(
    id_: str,
    module: Any,
    fields: tuple[str, ...] = (),
    required: tuple[str, ...] = (),
    name: str = "",
    any_time: bool = False,
) -> Action:
    """The action ``id_`` from a module that spells it ``check_<name>``, ``run_<name>`` and
    ``<name>_candidates`` (``name`` defaults to the id)."""
    name = name or id_
    return Action(
        id_,
        getattr(module, f"check_{name}"),
        getattr(module, f"run_{name}"),
        frozenset(fields),
        required,
        any_time=any_time,
        candidates=getattr(module, f"{name}_candidates"),
    )


@dataclass(frozen=True)
class Rule:
    id: str
    text: str


class Ruleset:
    """Base class. Subclasses set the metadata and override the hooks that differ."""

    name: str = ""
    title: str = ""
    rules: tuple[Rule, ...] = ()
    variants: tuple[Variant, ...] = ()
    conditions: frozenset[str] = frozenset()
    stats_model: type[BaseModel] = BaseModel
    actions: Mapping[str, Action] = {}
    gm_actions: Mapping[str, Action] = {}
    defeated_states: frozenset[str] = frozenset({"dead", "dying", "out", "unconscious"})
    out_of_fight_states: frozenset[str] = frozenset({"dead", "dying", "out", "unconscious"})
    economy_slots: tuple[str, ...] = ()
    engine_conditions: frozenset[str] = frozenset()
    """Conditions only the rules set and clear (pf1 ``casting``): not a GM's or a file's to add or remove."""
    answers: frozenset[str] = frozenset({"decline"})
    """Ids that only answer a pending decision."""

    # -- variants ----------------------------------------------------------------------------------
    def resolve_variants(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``; an unknown name or a wrong type is an EncounterError."""
        known = {v.name: v for v in self.variants}
        out = {v.name: v.default for v in self.variants}
        for name, value in given.items():
            if name not in known:
                raise EncounterError(
                    _("unknown variant {name!r} for ruleset {rs} (known: {known})").format(
                        name=name, rs=self.name, known=", ".join(known) or _("none")
                    ),
                    where=f"variant.{name}",
                )
            try:
                out[name] = known[name].parse(value)
            except EncounterError as exc:
                exc.where = f"variant.{name}"
                raise
        return out

    # -- building -----------------------------------------------------------------------------------
    def parse_stats(self, raw: Any) -> Any:
        """Validate a combatant's ``stats`` mapping (pydantic; errors carry their path)."""
        return self.stats_model.model_validate(raw)

    def diagonal_rule(self, variants: Mapping[str, Any]) -> str:
        return "alternate"

    def new_encounter_data(self, enc: Encounter) -> Any:
        return None

    def new_combatant(self, enc: Encounter, setup: CombatantSetup, index: int) -> Combatant:
        raise NotImplementedError

    # -- the loop -----------------------------------------------------------------------------------
    def initiative_modifier(self, c: Combatant) -> int:
        """What a combatant adds to its initiative d20 (and the first tie-break)."""
        return 0

    def start(self, enc: Encounter) -> Step:
        """Initiative (the file's fixed order, or d20 + modifier, highest first, ties by modifier
        then file order: R-PF-TURN-1, R-LG-INIT-1), then the surprise round 0 when anyone
        surprises (R-PF-TURN-2, R-LG-INIT-3), else round 1, and the first turn."""
        setup = enc.setup
        if setup.initiative:
            order = [enc.combatants[i] for i in setup.initiative]
            enc.emit(ev.initiative([c.id for c in order], {}, {}))
        else:
            rolls: dict[str, int] = {}
            faces: dict[str, int] = {}
            for c in enc.combatants.values():
                faces[c.id] = enc.dice.roll(20)
                rolls[c.id] = faces[c.id] + self.initiative_modifier(c)
            order = sorted(
                enc.combatants.values(), key=lambda c: (-rolls[c.id], -self.initiative_modifier(c), c.index)
            )
            enc.emit(ev.initiative([c.id for c in order], rolls, faces))
        enc.order = order  # R-LG-INIT-2: the order stays from round to round
        enc.round = 0 if setup.surprise else 1
        enc.emit(ev.round_started(enc.round))
        yield from self.next_turn(enc)

    def takes_turn(self, enc: Encounter, c: Combatant) -> bool:
        """Everybody acts, but in the surprise round (round 0) only the surprising."""
        return enc.round != 0 or c.id in enc.setup.surprise

    def check_answer(self, enc: Encounter, window: Window, cmd: Command) -> None:
        """Check an answer's arguments before it is sent into the suspended step."""

    def candidates(self, enc: Encounter, actor: str) -> Iterator[Command]:
        """Commands worth asking :meth:`Encounter.is_legal` about (a superset of the legal ones)."""
        if enc.pending is not None:
            if enc.pending.actor == actor:
                yield from self.answer_candidates(enc, enc.pending)
            return
        c = enc.combatants.get(actor)
        if c is None:
            return
        for action in self.actions.values():
            if action.candidates is not None:
                yield from action.candidates(enc, c)

    def answer_candidates(self, enc: Encounter, window: Window) -> Iterable[Command]:
        return [Command(actor=window.actor, do=choice) for choice in window.choices]

    # -- states and views ---------------------------------------------------------------------------
    def is_defeated(self, c: Combatant) -> bool:
        return c.state in self.defeated_states

    def is_out_of_fight(self, c: Combatant) -> bool:
        return c.state in self.out_of_fight_states

    def resources(self, enc: Encounter, c: Combatant) -> dict[str, Any]:
        return {}

    def combatant_view(self, enc: Encounter, c: Combatant) -> dict[str, Any]:
        view: dict[str, Any] = {
            "at": [c.pos[0], c.pos[1]],
            "hp": c.hp,
            "max_hp": c.max_hp,
            "state": c.state,
            "conditions": sorted(k for k in c.conditions if k not in self.state_conditions),
            "resources": self.resources(enc, c),
            "wielding": list(c.wielding),
        }
        if c.facing is not None:
            view["facing"] = c.facing
        return view

    # -- hit points, states, conditions -------------------------------------------------------------
    state_conditions: frozenset[str] = frozenset({"unconscious"})
    """Condition names a GM may add that show as a *state* (never listed among ``conditions``)."""

    def state_from(self, c: Combatant) -> str:
        return "ok" if c.hp > 0 else "out"

    def update_state(self, enc: Encounter, c: Combatant) -> None:
        """Recompute ``c.state`` from its hp and flags; emit ``state`` and react when it changed."""
        new = self.state_from(c)
        if new != c.state:
            old = c.state
            c.state = new
            enc.emit(ev.state(c.id, new))
            self.on_state_change(enc, c, old)

    def holds_square(self, c: Combatant) -> bool:
        """Whether ``c`` occupies its square (blocks it for others). The dead do not."""
        return c.state != "dead"

    def on_state_change(self, enc: Encounter, c: Combatant, old: str) -> None:
        if not self.holds_square(c):
            if enc.occupied.get(c.pos) is c:
                enc.vacate(c.pos, c)  # the dead no longer hold their square
        elif c.pos not in enc.occupied:
            # back from the dead (a GM's set_hp): it holds its square again if nobody took it
            enc.occupied[c.pos] = c
        elif enc.occupied[c.pos] is not c:
            enc.crowded = True  # back on a square someone else took: it gets it when they leave

    def set_hp(self, enc: Encounter, c: Combatant, hp: int) -> None:
        c.hp = hp
        self.update_state(enc, c)

    def add_condition(self, enc: Encounter, c: Combatant, name: str, until: Any = None) -> None:
        c.conditions[name] = until
        if name in self.state_conditions:
            self.update_state(enc, c)
        else:
            enc.emit(ev.condition(c.id, name, True, until))

    def remove_condition(self, enc: Encounter, c: Combatant, name: str) -> None:
        if name not in c.conditions:
            return
        del c.conditions[name]
        if name in self.state_conditions:
            self.update_state(enc, c)
        else:
            enc.emit(ev.condition(c.id, name, False))

    def expire_conditions(self, enc: Encounter, c: Combatant) -> None:
        """At the start of ``c``'s turn: drop conditions that last until then (``{round, turn_of}``)."""
        for other in enc.combatants.values():
            if not other.conditions:
                continue
            for name, until in list(other.conditions.items()):
                if isinstance(until, dict) and until.get("turn_of") == c.id and enc.round >= until["round"]:
                    self.remove_condition(enc, other, name)

    # -- what a table shows before anything is done (the tracker's overlays) ----------------------------
    def threatened_squares(self, enc: Encounter, c: Combatant) -> list[tuple[int, int]] | None:
        """The squares ``c`` threatens (or controls) now; ``None`` when the ruleset cannot say."""
        return None

    def provoking_squares(
        self, enc: Encounter, cmd: Command
    ) -> list[tuple[tuple[int, int], list[str]]] | None:
        """For a movement command: each square whose leaving would provoke, with who may strike
        (positions as they are now); ``None`` when the ruleset cannot say."""
        return None

    def rule_ids(self) -> list[str]:
        return [r.id for r in self.rules]

    # -- the turn loop (shared; rulesets override the hooks) -----------------------------------------
    # takes_turn: may this combatant act now; round_end: windows and effects before round_ended;
    # round_reset: after it; begin_turn: effects, then turn_started, then start-of-turn actions.

    def round_end(self, enc: Encounter) -> Step:
        return
        yield

    def round_reset(self, enc: Encounter) -> None:
        """Called after ``round_ended`` and before the next ``round_started``."""

    def begin_turn(self, enc: Encounter, c: Combatant) -> Step:
        enc.emit(ev.turn_started(c.id, enc.round))
        return
        yield

    def end_turn(self, enc: Encounter, c: Combatant) -> Step:
        """End ``c``'s turn and start the next one."""
        enc.emit(ev.turn_ended(c.id))
        yield from self.next_turn(enc)

    def next_turn(self, enc: Encounter) -> Step:
        """Advance to the next combatant that takes a turn (rounds end and start on the way).

        Nobody left standing: no new round is started, ``enc.current`` becomes ``None``. A combatant
        defeated by what happens as its turn begins (its own spell completing on itself) has its
        turn ended at once, so the fight never waits on someone who cannot act."""
        n = len(enc.order)
        for _tries in range(2 * n + 2):
            enc.turn_index += 1
            if enc.turn_index >= n:
                if all(self.is_defeated(c) for c in enc.order):
                    break  # checked once a round, not once a turn: the simulator's hot path
                yield from self.round_end(enc)
                enc.emit(ev.round_ended(enc.round))
                self.round_reset(enc)
                enc.round += 1
                enc.emit(ev.round_started(enc.round))
                enc.turn_index = 0
            c = enc.order[enc.turn_index]
            if not self.is_defeated(c) and self.takes_turn(enc, c):
                enc.current = c
                yield from self.begin_turn(enc, c)
                if enc.pending is None and self.is_defeated(c):
                    yield from self.end_turn(enc, c)
                return
        enc.current = None  # nobody can act any more

    def after_command(self, enc: Encounter) -> Step:
        """After every command: a combatant defeated during its own turn ends that turn; when nobody
        was left to act and someone can again (a GM's ``set_hp``), the next turn starts."""
        if enc.pending is not None:
            return
        c = enc.current
        if c is not None and self.is_defeated(c):
            yield from self.end_turn(enc, c)
        elif c is None and not all(self.is_defeated(o) for o in enc.order):
            # nobody was left to act and the GM brought someone back: the turns go on
            yield from self.next_turn(enc)


def check_passage(enc: Encounter, c: Combatant, s: Square, last: bool, past_defeated: bool = False) -> None:
    """The square ``s`` of ``c``'s path: no enemy may stand on it (with ``past_defeated``, a defeated
    one may be walked past: lagornis), and the path may not end on anyone else's square."""
    other = enc.occupied.get(s)
    if other is None or other is c:
        return
    if other.side != c.side and not (past_defeated and enc.ruleset.is_defeated(other)):
        raise illegal(
            "bad_path", _("{a}: the path goes through {o} at {sq}"), a=c.name, o=other.name, sq=fmt_square(s)
        )
    if last:
        raise illegal(
            "bad_path", _("{a}: the path ends on {o}'s square {sq}"), a=c.name, o=other.name, sq=fmt_square(s)
        )


def back_off_shared_square(enc: Encounter, c: Combatant, start: Square, walked: list[Square]) -> int:
    """A mover stopped mid-path (downed by an opportunity attack) while passing through an ally
    may not stay on the ally's square (R-PF-MOV-3, R-TA-MOV-1): put it back on the last square of
    its path it may end on (or where it started). Returns how many steps of ``walked`` it kept."""

    def shared(square: Square) -> bool:
        return any(o is not c and o.pos == square and enc.ruleset.holds_square(o) for o in enc.order)

    if not shared(c.pos):
        return len(walked)
    kept = len(walked)
    while kept > 0 and shared(walked[kept - 1]):
        kept -= 1
    enc.move_token(c, walked[kept - 1] if kept else start)
    return kept


def illegal(code: str, message: str, **fmt: Any) -> IllegalCommand:
    """An IllegalCommand with ``message`` (already translated: ``_("{a} cannot ...")``) formatted
    with ``fmt``."""
    return IllegalCommand(code, message.format(**fmt))
