"""What to simulate: an encounter, the variants of each arm, the policies, how many fights.

A run is described by an encounter file and command-line options, or by a *simulation file*
that names the encounter and holds the same options (the command line overrides it)::

    encounter: ../encounters/terza-skirmish.yaml   # a path (relative to this file) or a mapping
    fights: 10000
    seed: 1
    max_rounds: 50
    variant: {terza.zoc.guarded_exempt: true}      # both arms
    compare: {terza.third_action.disengage: true}  # arm B only
    policies: {heroes: cautious, monsters: aggressive, orc3: random}

The encounter's own ``seed`` and forced ``dice`` are not used (every fight has its own seed), nor
are a case file's script and expectations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError

from ..engine.errors import EncounterError, EncounterErrors
from ..files.loader import Loaded, _validation_errors, load_file, read_yaml, setup_from_data
from ..files.models import CASE_KEYS
from ..i18n import _
from ..rulesets.common import Model

DEFAULT_FIGHTS = 1000
DEFAULT_SEED = 1
DEFAULT_MAX_ROUNDS = 50
NOT_SIMULATED = frozenset({*CASE_KEYS, "dice", "seed"})
"""Keys of an encounter or case file the simulator leaves out."""


@dataclass(frozen=True)
class Scenario:
    """An encounter to simulate: its mapping (without script, dice, seed) and where it came from
    (for messages and for a ruleset given as a file path, found relative to ``base_dir``)."""

    data: Mapping[str, Any]
    file: str = "<data>"
    base_dir: str | None = None

    @cached_property
    def key(self) -> str:
        """A text that is equal for equal scenarios (workers cache what they build per scenario)."""
        return json.dumps([self.file, self.base_dir, self.data], sort_keys=True, default=str)

    def load(self, variants: Mapping[str, Any] | None = None) -> Loaded:
        """The setup and ruleset, with ``variants`` laid over the file's (checked by the ruleset)."""
        data = dict(self.data)
        if variants:
            data["variant"] = {**dict(data.get("variant") or {}), **variants}
        base = Path(self.base_dir) if self.base_dir else None
        return setup_from_data(data, self.file, None, seed=0, base_dir=base)

    @classmethod
    def from_data(
        cls, data: Mapping[str, Any], file: str = "<data>", base_dir: str | None = None
    ) -> Scenario:
        return cls({k: v for k, v in data.items() if k not in NOT_SIMULATED}, file, base_dir)


@dataclass(frozen=True)
class Arm:
    """One side of a comparison: ``A`` (the encounter with ``--variant``) or ``B`` (plus ``--compare``)."""

    label: str
    variants: dict[str, Any]


@dataclass(frozen=True)
class SimSpec:
    """Everything a run needs; equal specs give equal results, whatever runs them."""

    scenario: Scenario
    fights: int = DEFAULT_FIGHTS
    seed: int = DEFAULT_SEED
    variant: dict[str, Any] = field(default_factory=dict)
    compare: dict[str, Any] = field(default_factory=dict)
    policies: dict[str, str] = field(default_factory=dict)
    max_rounds: int = DEFAULT_MAX_ROUNDS
    check: bool = False
    """Check the invariants after every command and the replay of every fight (slow: a fuzzer's
    or a ruleset author's setting; a broken invariant is recorded as the fight's error)."""

    @property
    def arms(self) -> list[Arm]:
        out = [Arm("A", dict(self.variant))]
        if self.compare:
            out.append(Arm("B", {**self.variant, **self.compare}))
        return out

    def validate(self) -> Loaded:
        """Load every arm once here, so a wrong variant or policy is reported before any work."""
        from .policy import make_policy
        from .runner import assign_policies

        loaded = self.scenario.load(self.variant)
        for arm in self.arms[1:]:
            self.scenario.load(arm.variants)
        assign_policies(loaded.setup, self.policies)
        for name in set(self.policies.values()):
            make_policy(name)
        if self.fights < 1 or self.max_rounds < 1:
            raise EncounterError(_("the number of fights and max_rounds must be 1 or more"), where="simulate")
        return loaded

    def change_text(self) -> str:
        """What B changes, as a designer wrote it: ``terza.third_action.disengage=true``."""
        return ", ".join(f"{k}={format_value(v)}" for k, v in self.compare.items())

    def policies_text(self) -> str:
        """The policies as a designer chose them (``heroes=cautious, monsters=aggressive``), or the
        default's words in the current language when none was."""
        # Translators: the policies of a run when none was chosen: every side plays "aggressive"
        return ", ".join(f"{k}={v}" for k, v in sorted(self.policies.items())) or _("aggressive for all")


def format_value(v: Any) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


def parse_assignment(text: str, what: str) -> tuple[str, Any]:
    """``name=value`` from the command line; the value is read as YAML (``true``, ``3``, ``deny``)."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise EncounterError(_("{what} {text!r}: write name=value").format(what=what, text=text), where=what)
    try:
        value = yaml.safe_load(raw) if raw.strip() else ""
    except yaml.YAMLError:
        value = raw
    return name.strip(), value


class SimFileModel(Model):
    """A simulation file (see the module docstring)."""

    encounter: str | dict[str, Any]
    fights: int | None = Field(default=None, ge=1)
    seed: int | None = None
    max_rounds: int | None = Field(default=None, ge=1)
    variant: dict[str, Any] = {}
    compare: dict[str, Any] = {}
    policies: dict[str, str] = {}


def read(path: str | Path) -> tuple[Scenario, SimFileModel | None]:
    """The scenario a file describes, and its simulation options if it is a simulation file."""
    data, lines = read_yaml(path)
    p = Path(path)
    if isinstance(data, Mapping) and "encounter" in data:
        try:
            sim = SimFileModel.model_validate(data)
        except ValidationError as exc:
            raise EncounterErrors(_validation_errors(exc, (), str(path), lines)) from None
        if isinstance(sim.encounter, str):
            enc_path = p.parent / sim.encounter
            load_file(enc_path)  # errors with the encounter file's own lines
            enc_data, _lines = read_yaml(enc_path)
            return Scenario.from_data(enc_data, str(enc_path), str(enc_path.parent)), sim
        return Scenario.from_data(sim.encounter, str(path), str(p.parent)), sim
    load_file(path)  # errors with lines
    if not isinstance(data, Mapping):  # pragma: no cover - load_file refuses it first
        raise EncounterError(_("an encounter file must be a mapping"), file=str(path))
    return Scenario.from_data(data, str(path), str(p.parent)), None
