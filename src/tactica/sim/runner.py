"""Play one fight to its end with a policy per side, and measure it from its events.

Determinism: fight ``index`` of a run with master seed ``S`` is played with the dice seed
:func:`fight_seed(S, index) <fight_seed>`, and each policy gets its own random source seeded from
that fight seed and the name it plays (a side or a combatant id). Nothing else is random, so a
fight's result depends on ``(S, index)``, the scenario and the policies only: not on which worker
plays it, in which order, or next to which other fights.
"""

from __future__ import annotations

import dataclasses
import hashlib
import traceback
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..engine.commands import Command
from ..engine.core import Encounter, StepResult
from ..engine.errors import EncounterError, IllegalCommand
from ..engine.state import Setup, Window
from ..i18n import N_, _
from ..rulesets.base import Ruleset
from .invariants import check, check_replay
from .policy import Plan, Policy, end_turn, make_policy

DEFAULT_POLICY = "aggressive"
MAX_REFUSED_PER_TURN = 12
"""A plan refused this many times in one turn has its turn ended for it (and the refusals counted)."""

METRICS: tuple[str, ...] = (
    "damage_dealt",
    "damage_taken",
    "down",
    "opportunities_provoked",
    "opportunity_attacks",
    "reactions",
    "third_actions",
    "fatigue_gained",
    "spells_lost",
)
"""What is measured per combatant in every fight (see :func:`measure`)."""
METRIC_LABELS = {
    "damage_dealt": N_("damage dealt"),
    "damage_taken": N_("damage taken"),
    "down": N_("combatants down"),
    "opportunities_provoked": N_("opportunities provoked"),
    "opportunity_attacks": N_("opportunity attacks made"),
    "reactions": N_("reactions used"),
    "third_actions": N_("third actions used"),
    "fatigue_gained": N_("fatigue gained"),
    "spells_lost": N_("spells lost"),
}
"""How the reports name each figure (marked here, translated where shown)."""

UNFINISHED = "unfinished"
"""The winner of a fight stopped at the round limit (nobody won, nobody was wiped out)."""
ERROR = "error"
"""The winner of a fight stopped by an exception from the engine or a policy (a bug to report)."""
DRAW = "draw"
"""The winner of a fight where every side is down."""

OUTCOME_LABELS = {
    # Translators: how a fight ended (a plot's bar, a case file's description)
    DRAW: N_("draw"),
    # Translators: how a fight ended: stopped at the round limit with nobody beaten
    UNFINISHED: N_("unfinished"),
    # Translators: how a fight ended: stopped by a bug in the engine or a policy
    ERROR: N_("error"),
}
"""How the reports name the outcomes that are no side's win (translated where shown)."""


def outcome_label(winner: str) -> str:
    """What a person reads for the winner of a fight: the side as the file names it, or the
    translated word for a draw, an unfinished fight or an error."""
    label = OUTCOME_LABELS.get(winner)
    return _(label) if label is not None else winner


def outcome_text(key: str, sides: Collection[str]) -> str:
    """What a person reads for an outcome of the fights counted or compared (a row, a bar, a
    figure): ``heroes win`` for a side of ``sides``, else :func:`outcome_label`'s word."""
    if key in sides:
        # Translators: the fights a side won, as a table's row or a plot's bar: "heroes win"
        return _("{side} win").format(side=key)
    return outcome_label(key)


def _derive(*parts: object) -> int:
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def fight_seed(master: int, index: int) -> int:
    """The dice seed of fight ``index`` in a run with master seed ``master`` (a 63-bit hash, so
    neighbouring fights and neighbouring master seeds give unrelated dice)."""
    return _derive("fight", master, index)


def policy_seed(seed: int, who: str) -> int:
    """The seed of the random source of the policy playing ``who`` in the fight with dice ``seed``."""
    return _derive("policy", seed, who)


@dataclass(frozen=True, slots=True)
class FightResult:
    """One fight: who won, how long it took, and each combatant's figures (:data:`METRICS`, in
    setup order within each metric)."""

    index: int
    seed: int
    winner: str
    rounds: int
    commands: int
    refused: int
    metrics: tuple[tuple[int, ...], ...]
    error: str | None = None


def assign_policies(setup: Setup, spec: Mapping[str, str]) -> dict[str, str]:
    """Combatant id -> the key of ``spec`` that chooses its policy: its own id, else its side, else
    ``*``; ``""`` for the default. A key naming neither a side nor a combatant is an error."""
    sides = {c.side for c in setup.combatants}
    ids = {c.id for c in setup.combatants}
    for key in spec:
        if key != "*" and key not in sides and key not in ids:
            raise EncounterError(
                _("--policy {key}: there is no side or combatant {key!r} (sides: {sides})").format(
                    key=key, sides=", ".join(sorted(sides))
                ),
                where="policy",
            )
    out = {}
    for c in setup.combatants:
        out[c.id] = next((k for k in (c.id, c.side, "*") if k in spec), "")
    return out


class Runner:
    """Plays fights of one scenario: the setup, its ruleset and the policies are built once and
    serve every fight (a policy's per-fight memory is reset by ``new_fight``)."""

    def __init__(
        self,
        setup: Setup,
        ruleset: Ruleset,
        policies: Mapping[str, str],
        max_rounds: int = 50,
        check: bool = False,
    ) -> None:
        self.setup = dataclasses.replace(setup, dice=None)
        self.check = check  # the invariants after every command, and the replay at the end (slow)
        self.ruleset = ruleset
        self.max_rounds = max_rounds
        keys = assign_policies(setup, policies)
        self.players: dict[str, Policy] = {}  # policy key ("" for the default) -> its policy
        for key in dict.fromkeys(keys.values()):
            self.players[key] = make_policy(policies.get(key, DEFAULT_POLICY) if key else DEFAULT_POLICY)
        self.policy_of = {cid: self.players[key] for cid, key in keys.items()}
        self.ids = [c.id for c in setup.combatants]

    def encounter(self, seed: int) -> Encounter:
        return Encounter(dataclasses.replace(self.setup, seed=seed), self.ruleset)

    def play(self, index: int, seed: int) -> tuple[FightResult, Encounter]:
        """Play fight ``index`` with dice ``seed``; return its result and the finished encounter."""
        enc = self.encounter(seed)
        fight = _Fight(self, enc)
        error = None
        try:
            enc.start()
            for key, policy in self.players.items():
                policy.new_fight(enc, policy_seed(seed, key or "*"))
            fight.run()
            if self.check:
                check_replay(enc)
        except Exception as exc:  # a bug in the engine or a policy: recorded, the run goes on
            error = "".join(traceback.format_exception_only(exc)).strip()
        winner = ERROR if error is not None else (enc.outcome() or UNFINISHED)
        rounds = min(enc.round, self.max_rounds)
        metrics = measure(enc, self.ids)
        return FightResult(index, seed, winner, rounds, fight.commands, fight.refused, metrics, error), enc


class _Fight:
    """One fight being played: the loop that asks the policies and applies their commands."""

    __slots__ = ("commands", "enc", "refused", "runner")

    def __init__(self, runner: Runner, enc: Encounter) -> None:
        self.runner = runner
        self.enc = enc
        self.commands = self.refused = 0

    def run(self) -> None:
        enc = self.enc
        policy_of = self.runner.policy_of
        max_rounds = self.runner.max_rounds
        plan: Plan | None = None
        plan_turn = (-1, -1)
        sent: StepResult | IllegalCommand | None = None
        refused_this_turn = 0
        try:
            while enc.outcome() is None and enc.round <= max_rounds:
                w = enc.pending
                if w is not None:
                    self.answer(w)
                    continue
                me = enc.current
                if me is None:
                    break  # nobody can act any more
                turn = (enc.round, enc.turn_index)
                if turn != plan_turn:
                    if plan is not None:
                        plan.close()
                    plan = policy_of[me.id].turn(enc, me)
                    plan_turn, sent, refused_this_turn = turn, None, 0
                cmd = None
                if plan is not None and refused_this_turn < MAX_REFUSED_PER_TURN:
                    try:
                        cmd = plan.send(sent)
                    except StopIteration:
                        plan = None
                if cmd is None:  # the plan is over, or refused too often: the turn ends
                    self.apply(end_turn(me))  # a ruleset refusing end_turn ends the fight in error
                    continue
                try:
                    sent = self.apply(cmd)
                except IllegalCommand as exc:
                    sent = exc
                    self.refused += 1
                    refused_this_turn += 1
        finally:
            if plan is not None:
                plan.close()

    def apply(self, cmd: Command) -> StepResult:
        result = self.enc.apply(cmd)
        self.commands += 1
        if self.runner.check:
            check(self.enc, cmd)
        return result

    def answer(self, w: Window) -> None:
        """Apply the answer of ``w.actor``'s policy; if refused, decline, or else the first legal
        answer (counted as refused)."""
        enc = self.enc
        try:
            self.apply(self.runner.policy_of[w.actor].answer(enc, w))
            return
        except IllegalCommand:
            self.refused += 1
        if "decline" in w.choices:
            self.apply(Command(actor=w.actor, do="decline"))
        else:
            self.apply(next(iter(enc.legal_commands(w.actor))))


def measure(enc: Encounter, ids: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """Each :data:`METRICS` figure per combatant (in ``ids`` order), read from the fight's events.

    - ``damage_dealt`` / ``damage_taken``: ``damage`` event amounts (overkill included), dealt by
      the attacker of the last ``attack`` event, else the caster of the last ``spell_cast``, else the
      actor of the last ``action`` (a special ability);
    - ``down``: 1 if out of the fight at the end;
    - ``opportunities_provoked``: ``opportunity`` events where it is the provoker (offered to an
      enemy, taken or not); ``opportunity_attacks``: attacks of kind ``opportunity`` it made;
    - ``reactions``: ``reaction`` events, and actions paid with a ``reaction``;
    - ``third_actions``: actions paid with a ``third`` action (terza);
    - ``fatigue_gained``: positive ``resource fatigue`` deltas; ``spells_lost``: ``spell_lost``.
    """
    pos = {cid: i for i, cid in enumerate(ids)}
    n = len(ids)
    dealt = [0] * n
    taken = [0] * n
    provoked = [0] * n
    opp_attacks = [0] * n
    reactions = [0] * n
    third = [0] * n
    fatigue = [0] * n
    lost = [0] * n
    source = -1
    for events in (enc.start_events or [], *enc.history):
        for ev in events:
            kind = ev["type"]
            if kind == "damage":
                amount = ev["amount"]
                taken[pos[ev["target"]]] += amount
                if source >= 0:
                    dealt[source] += amount
            elif kind == "attack":
                source = pos[ev["attacker"]]
                if ev["kind"] == "opportunity":
                    opp_attacks[source] += 1
            elif kind == "action":
                source = pos[ev["actor"]]
                cost = ev["cost"]
                if "reaction" in cost:
                    reactions[source] += 1
                if "third" in cost:
                    third[source] += 1
            elif kind == "opportunity":
                provoked[pos[ev["provoker"]]] += 1
            elif kind == "spell_cast":
                source = pos[ev["caster"]]
            elif kind == "reaction":
                reactions[pos[ev["actor"]]] += 1
            elif kind == "resource":
                if ev["resource"] == "fatigue" and ev["delta"] > 0:
                    fatigue[pos[ev["actor"]]] += ev["delta"]
            elif kind == "spell_lost":
                lost[pos[ev["caster"]]] += 1
            elif kind == "turn_started":
                source = -1
    out_of_fight = enc.ruleset.is_out_of_fight
    down = [int(out_of_fight(enc.combatants[cid])) for cid in ids]
    return (
        tuple(dealt),
        tuple(taken),
        tuple(down),
        tuple(provoked),
        tuple(opp_attacks),
        tuple(reactions),
        tuple(third),
        tuple(fatigue),
        tuple(lost),
    )
