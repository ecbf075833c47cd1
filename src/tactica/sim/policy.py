"""Policies: who decides what, in a simulated fight.

A :class:`Policy` plays the combatants of one side (or one combatant). On a combatant's turn the
runner asks it for a *turn plan*: a generator that yields commands one after another and is sent
back what became of each (the :class:`~tactica.StepResult`, or the :class:`~tactica.IllegalCommand`
that refused it), so a plan can try a fast guess and fall back when ``apply`` says no. When a
decision is pending (an opportunity, a reaction, a press, a held action's trigger) the runner asks
the policy of the combatant who must decide for an :meth:`Policy.answer`.

Built-in policies (``tactica simulate --policy side=NAME``):

- ``aggressive``: close in, full attack when it can, take every opportunity;
- ``cautious``: 5-ft steps rather than moves, withdraws when hurt, avoids provoking;
- ``random``: uniform over the legal commands (``enc.legal_commands``): a fuzzer.

``aggressive`` and ``cautious`` are *styles*; how a style is played in a given ruleset is that
ruleset's :class:`Sense` (pf1: full attack or move-and-attack; terza: third actions and press;
lagornis: which reaction given tokens, fatigue and penalties, holding actions). A ruleset without
a sense of its own is played by :class:`~tactica.sim.sense.generic.GenericSense`, from
``legal_commands`` alone.

Third parties add policies with :func:`register_policy` (or the entry-point group
``tactica.policies``: ``name = "package.module:factory"``) and senses for their own rulesets with
:func:`register_sense`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, TypeAlias

from ..engine.commands import Command
from ..engine.errors import EncounterError, IllegalCommand
from ..engine.state import Combatant, Window
from ..i18n import _

if TYPE_CHECKING:
    from ..engine.core import Encounter, StepResult

Outcome: TypeAlias = "StepResult | IllegalCommand | None"
"""What the runner sends back into a plan: the result of its last command, or the refusal."""
Plan: TypeAlias = Generator[Command, Outcome, None]
"""A turn plan: yields commands; receives what became of each (a result, or the refusal)."""


command = lru_cache(maxsize=8192)(Command)
"""``Command(...)``, remembered. Building a :class:`Command` costs microseconds (a frozen
dataclass of 24 fields) and a policy asks for the same few commands over and over; commands are
immutable, so one instance serves every fight."""


def end_turn(me: Combatant) -> Command:
    return command(me.id, "end_turn")


class Policy:
    """Chooses commands for the combatants it plays. Subclass and override :meth:`turn` (or the
    simpler :meth:`choose`) and :meth:`answer`.

    One instance plays one side (or one combatant) for a whole batch of fights: keep per-fight
    memory in attributes reset by :meth:`new_fight`. Every random choice must come from
    :attr:`rng` (seeded per fight by the runner), never from the global ``random`` module, or the
    same seed would not give the same results. A policy must not touch ``enc.dice``: the dice
    belong to the rules, and a replay of the fight's command log would roll differently."""

    name = "policy"

    def __init__(self) -> None:
        self.seed = 0
        self._rng: random.Random | None = None

    def new_fight(self, enc: Encounter, seed: int) -> None:
        """Called once per fight, after the encounter started, before any decision; ``seed`` seeds
        :attr:`rng` for this fight."""
        self.seed = seed
        self._rng = None

    @property
    def rng(self) -> random.Random:
        """This fight's own random source (made on first use: most policies never need one)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        """The plan for ``me``'s turn. The default asks :meth:`choose` for each command and ends
        the turn as soon as a command is refused. The runner ends the turn itself when the plan
        finishes without doing so, and drops the plan as soon as the turn is over."""
        while True:
            outcome = yield self.choose(enc, me)
            if isinstance(outcome, IllegalCommand):
                yield end_turn(me)
                return

    def choose(self, enc: Encounter, me: Combatant) -> Command:
        """One command for ``me`` now (used by the default :meth:`turn`)."""
        return end_turn(me)

    def answer(self, enc: Encounter, window: Window) -> Command:
        """The answer to the pending decision ``window`` (whose ``actor`` this policy plays)."""
        return command(window.actor, "decline")


# -- random: the fuzzer --------------------------------------------------------------------------------
class RandomPolicy(Policy):
    """Uniform over the legal commands, every time (answers too). Slow, as it enumerates every
    legal command, movement paths included; its use is to explore what no sensible policy does."""

    name = "random"

    def choose(self, enc: Encounter, me: Combatant) -> Command:
        return self.rng.choice(list(enc.legal_commands(me.id)))

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        while True:
            # a refused command means legal_commands and apply disagree: let the runner count it
            yield self.choose(enc, me)

    def answer(self, enc: Encounter, window: Window) -> Command:
        return self.rng.choice(list(enc.legal_commands(window.actor)))


# -- styles and senses -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    """How a sense plays: the knobs the built-in styles set."""

    name: str
    take_opportunities: bool
    """Take every opportunity offered (cautious weighs each)."""
    avoid_provoking: bool
    """Never choose a movement that provokes when another choice exists."""
    hurt_fraction: float
    """At or below this fraction of its hit points, a combatant is hurt (cautious withdraws)."""


AGGRESSIVE = Style("aggressive", take_opportunities=True, avoid_provoking=False, hurt_fraction=0.0)
CAUTIOUS = Style("cautious", take_opportunities=False, avoid_provoking=True, hurt_fraction=0.5)


class Sense:
    """How one ruleset is played in a given :class:`Style`: one instance per (ruleset, style,
    side), made by the factory given to :func:`register_sense`. ``policy`` is the policy it plays
    for (its :attr:`Policy.rng` is the fight's random source)."""

    def __init__(self, style: Style) -> None:
        self.style = style
        self.policy = Policy()

    def new_fight(self, enc: Encounter, policy: Policy) -> None:
        self.policy = policy

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        raise NotImplementedError

    def answer(self, enc: Encounter, window: Window) -> Command:
        raise NotImplementedError

    def hurt(self, me: Combatant) -> bool:
        return me.hp <= self.style.hurt_fraction * me.max_hp


SenseFactory = Callable[[Style], Sense]
_SENSES: dict[str, SenseFactory] = {}
_BUILTIN_SENSES = {
    "pf1": "tactica.sim.sense.pf1:Pf1Sense",
    "terza": "tactica.sim.sense.terza:TerzaSense",
    "lagornis": "tactica.sim.sense.lagornis:LagornisSense",
}


def register_sense(ruleset: str, factory: SenseFactory) -> None:
    """Teach the built-in styles how to play ``ruleset``: ``factory(style)`` makes a :class:`Sense`."""
    _SENSES[ruleset] = factory


def sense_factory(ruleset: str) -> SenseFactory:
    """The sense registered for ``ruleset``, else a built-in one, else the generic sense."""
    found = _SENSES.get(ruleset)
    if found is not None:
        return found
    target = _BUILTIN_SENSES.get(ruleset)
    if target is not None:
        module, _sep, attr = target.partition(":")
        factory: SenseFactory = getattr(import_module(module), attr)
        _SENSES[ruleset] = factory
        return factory
    return _generic()


def _generic() -> SenseFactory:
    from .sense.generic import GenericSense

    return GenericSense


class StylePolicy(Policy):
    """A built-in style (``aggressive``, ``cautious``): delegates to the sense of the encounter's
    ruleset, made on first use and kept for the batch."""

    def __init__(self, style: Style) -> None:
        super().__init__()
        self.style = style
        self.name = style.name
        self._senses: dict[str, Sense] = {}
        self.sense: Sense | None = None

    def new_fight(self, enc: Encounter, seed: int) -> None:
        super().new_fight(enc, seed)
        name = enc.ruleset.name
        sense = self._senses.get(name)
        if sense is None:
            sense = self._senses[name] = sense_factory(name)(self.style)
        sense.new_fight(enc, self)
        self.sense = sense

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        assert self.sense is not None, "new_fight first"
        return self.sense.turn(enc, me)

    def answer(self, enc: Encounter, window: Window) -> Command:
        assert self.sense is not None, "new_fight first"
        return self.sense.answer(enc, window)


# -- the registry ------------------------------------------------------------------------------------------
PolicyFactory = Callable[[], Policy]
_POLICIES: dict[str, PolicyFactory] = {
    "aggressive": lambda: StylePolicy(AGGRESSIVE),
    "cautious": lambda: StylePolicy(CAUTIOUS),
    "random": RandomPolicy,
}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make ``factory()`` available as ``--policy side=name`` (a class works as its own factory)."""
    _POLICIES[name] = factory
    _entry_point_policies.cache_clear()


@cache
def _entry_point_policies() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group="tactica.policies") if ep.name not in _POLICIES}


def policy_names() -> list[str]:
    """Every policy name: built-in, registered, and installed under ``tactica.policies``."""
    return sorted({*_POLICIES, *_entry_point_policies()})


def make_policy(name: str) -> Policy:
    """A fresh policy by name; an :class:`EncounterError` listing the known names if unknown."""
    factory = _POLICIES.get(name)
    if factory is None:
        target = _entry_point_policies().get(name)
        if target is None:
            raise EncounterError(
                _("unknown policy {name!r} (known: {known})").format(
                    name=name, known=", ".join(policy_names())
                ),
                where="policy",
            )
        module, _sep, attr = target.partition(":")
        factory = getattr(import_module(module), attr)
        _POLICIES[name] = factory
    policy = factory()
    if not isinstance(policy, Policy):
        raise EncounterError(_("policy {name!r} is not a tactica.sim.Policy").format(name=name), "policy")
    return policy
