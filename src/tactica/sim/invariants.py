"""What must hold after every command of any ruleset: the fuzzer's (and ``--check``'s) judge.

- hit points never exceed the maximum, and each combatant's state is what its ruleset derives;
- every square holds at most the one combatant the occupancy map says, and it stands there
  (between commands: a mover suspended mid-path may be passing through an ally's square);
- a pending decision is a combatant's, and offers at least one choice;
- the view is plain JSON and no resource count is negative;
- at the end, the fight's command log replayed on a fresh encounter gives the same events.
"""

from __future__ import annotations

import json
from numbers import Number
from typing import TYPE_CHECKING, Any

from ..engine.commands import Command
from ..i18n import _

if TYPE_CHECKING:
    from ..engine.core import Encounter


class InvariantBroken(AssertionError):
    """An invariant does not hold: a bug in the engine or a ruleset (the message says which)."""


def check(enc: Encounter, after: Command | None = None) -> None:
    """Raise :class:`InvariantBroken` if the encounter is in a state no rule allows."""
    where = f" after {after!r}" if after is not None else ""
    problems = problems_of(enc)
    if problems:
        raise InvariantBroken(_("invariant broken{where}: {p}").format(where=where, p="; ".join(problems)))


def problems_of(enc: Encounter) -> list[str]:
    out = []
    rs = enc.ruleset
    # a mover suspended mid-path by a pending decision may stand on an ally's square it is passing
    # through: squares are checked between commands only
    settled = enc.pending is None
    for c in enc.combatants.values():
        if c.hp > c.max_hp:
            out.append(f"{c.id} has {c.hp} hp, more than its {c.max_hp}")
        derived = rs.state_from(c)
        if derived != c.state:
            out.append(f"{c.id} is {c.state} but its hp and conditions make it {derived}")
        if settled and rs.holds_square(c) and enc.occupied.get(c.pos) is not c:
            holder = enc.occupied.get(c.pos)
            if holder is None or rs.holds_square(holder):
                out.append(f"{c.id} stands on {list(c.pos)}, which the map gives to {holder and holder.id}")
    for square, c in enc.occupied.items():
        if c.pos != square:
            out.append(f"the map puts {c.id} on {list(square)} but it stands on {list(c.pos)}")
    w = enc.pending
    if w is not None:
        if w.actor not in enc.combatants:
            out.append(f"a decision is pending for {w.actor!r}, who is no combatant")
        if not w.choices:
            out.append(f"{w.actor}'s pending decision offers no choice")
    view = enc.view()
    try:
        json.dumps(view)
    except (TypeError, ValueError) as exc:
        out.append(f"the view is not JSON: {exc}")
    for cid, cv in view["combatants"].items():
        for name, value in (cv.get("resources") or {}).items():
            if isinstance(value, Number) and not isinstance(value, bool) and value < 0:  # type: ignore[operator]
                out.append(f"{cid}'s resource {name} is {value}")
    return out


def check_replay(enc: Encounter) -> None:
    """The fight's log, replayed on a fresh encounter, gives the same events, byte for byte."""
    from ..engine.core import Encounter as Fresh

    again = Fresh(enc.setup, enc.ruleset)
    start = again.start()
    if _dump(start.events) != _dump(enc.start_events):
        raise InvariantBroken(_("replay: the start differs"))
    for i, (cmd, events) in enumerate(zip(enc.log, enc.history, strict=True)):
        got = again.apply(cmd).events
        if _dump(got) != _dump(events):
            raise InvariantBroken(_("replay: command {i} ({cmd!r}) gives other events").format(i=i, cmd=cmd))


def _dump(events: Any) -> str:
    return json.dumps(events, sort_keys=False)
