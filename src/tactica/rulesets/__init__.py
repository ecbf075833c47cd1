"""The ruleset registry: built-in rulesets plus any installed under the entry-point group
``tactica.rulesets`` (a third party's package declares ``name = "module:RULESET"``)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from importlib.util import find_spec

from ..engine.errors import EncounterError
from ..i18n import _
from .base import Ruleset

BUILTIN = ("pf1", "terza", "lagornis")


@cache
def available() -> dict[str, str]:
    """Ruleset name -> ``module:attribute`` of every ruleset that can be loaded."""
    found = {n: f"tactica.rulesets.{n}:RULESET" for n in BUILTIN if find_spec(f"tactica.rulesets.{n}")}
    for ep in entry_points(group="tactica.rulesets"):
        found.setdefault(ep.name, ep.value)
    return found


@cache
def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; an EncounterError listing the known ones if there is none."""
    import importlib

    target = available().get(name)
    if target is None:
        raise EncounterError(
            _("unknown ruleset {name!r} (known: {known})").format(
                name=name, known=", ".join(sorted(available()))
            ),
            where="ruleset",
        )
    module, _sep, attr = target.partition(":")
    ruleset = getattr(importlib.import_module(module), attr)
    assert isinstance(ruleset, Ruleset)
    return ruleset


__all__ = ["Ruleset", "available", "find_ruleset"]
