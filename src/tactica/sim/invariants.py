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
from ..vocabulary import label

if TYPE_CHECKING:
    from ..engine.core import Encounter


class InvariantBroken(AssertionError):
    """An invariant does not hold: a bug in the engine or a ruleset (the message says which)."""


def check(enc: Encounter, after: Command | None = None) -> None:
    """Raise :class:`InvariantBroken` if the encounter is in a state no rule allows."""
    problems = problems_of(enc)
    if problems:
        text = "; ".join(problems)
        if after is None:
            raise InvariantBroken(_("invariant broken: {problems}").format(problems=text))
        raise InvariantBroken(
            # Translators: {command} is the command just applied, as the program writes it
            _("invariant broken after {command}: {problems}").format(command=repr(after), problems=text)
        )


def problems_of(enc: Encounter) -> list[str]:
    out = []
    rs = enc.ruleset
    # a mover suspended mid-path by a pending decision may stand on an ally's square it is passing
    # through: squares are checked between commands only
    settled = enc.pending is None
    for c in enc.combatants.values():
        if c.hp > c.max_hp:
            out.append(
                _("{id} has {hp} hp, more than its {max_hp}").format(id=c.id, hp=c.hp, max_hp=c.max_hp)
            )
        derived = rs.state_from(c)
        if derived != c.state:
            out.append(
                _("{id} is {state} but its hp and conditions make it {derived}").format(
                    id=c.id, state=label("state", c.state), derived=label("state", derived)
                )
            )
        if settled and rs.holds_square(c) and enc.occupied.get(c.pos) is not c:
            holder = enc.occupied.get(c.pos)
            if holder is None or rs.holds_square(holder):
                out.append(
                    _("{id} stands on {square}, which the map gives to {holder}").format(
                        id=c.id, square=list(c.pos), holder=holder and holder.id
                    )
                )
    for square, c in enc.occupied.items():
        if c.pos != square:
            out.append(
                _("the map puts {id} on {square} but it stands on {at}").format(
                    id=c.id, square=list(square), at=list(c.pos)
                )
            )
    w = enc.pending
    if w is not None:
        if w.actor not in enc.combatants:
            out.append(_("a decision is pending for {actor!r}, who is no combatant").format(actor=w.actor))
        if not w.choices:
            out.append(_("{actor}'s pending decision offers no choice").format(actor=w.actor))
    view = enc.view()
    try:
        json.dumps(view)
    except (TypeError, ValueError) as exc:
        out.append(_("the view is not JSON: {error}").format(error=exc))
    for cid, cv in view["combatants"].items():
        for name, value in (cv.get("resources") or {}).items():
            if isinstance(value, Number) and not isinstance(value, bool) and value < 0:  # type: ignore[operator]
                out.append(
                    _("{id}'s resource {name} is {value}").format(
                        id=cid, name=label("resource", name), value=value
                    )
                )
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
