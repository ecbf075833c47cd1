"""The styles played from ``legal_commands`` alone: for a ruleset without a sense of its own.

It knows nothing of the ruleset but the shape of its commands: an ``attack`` with a ``target``
hurts an enemy, a ``path`` moves. ``aggressive`` attacks the weakest enemy it legally can, else
moves as near the nearest enemy as one legal move takes it, and answers every decision with its
first choice that is not ``decline``; ``cautious`` does the same but declines opportunities. It is
slow (every decision enumerates the legal commands, movement paths included) and knows no
tactics: write a :class:`~tactica.sim.policy.Sense` for a ruleset you simulate often.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.commands import Command
from ...engine.grid import chebyshev
from ...engine.state import Combatant, Window
from ..policy import Plan, Sense, command, end_turn
from .common import foes, nearest

if TYPE_CHECKING:
    from ...engine.core import Encounter

MAX_COMMANDS = 8
"""Commands tried in one turn before ending it (a legal attack may stay legal after it is made)."""


class GenericSense(Sense):
    def answer(self, enc: Encounter, window: Window) -> Command:
        for cmd in enc.legal_commands(window.actor):
            if cmd.do == "decline":
                continue
            if cmd.do == "opportunity_attack" and not self.style.take_opportunities:
                continue
            return cmd
        return command(window.actor, "decline")

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        moved = 0
        for _i in range(MAX_COMMANDS):
            enemies = {t.id: t for t in foes(enc, me)}
            if not enemies:
                return
            attacks: list[Command] = []
            moves: list[Command] = []
            for cmd in enc.legal_commands(me.id):
                if cmd.do == "attack" and cmd.target in enemies:
                    attacks.append(cmd)
                elif cmd.path is not None and cmd.do == "move":
                    moves.append(cmd)
            if attacks:
                best = min(attacks, key=lambda c: enemies[c.target or ""].hp)
                outcome = yield best
                if isinstance(outcome, Exception):
                    break
                continue
            target = nearest(me, enemies.values())
            if target is None or moved >= 2 or not moves:
                break
            here = chebyshev(me.pos, target.pos)
            path_end = min(
                moves, key=lambda c: (chebyshev((c.path or ((0, 0),))[-1], target.pos), len(c.path or ()))
            )
            if chebyshev((path_end.path or (me.pos,))[-1], target.pos) >= here:
                break
            moved += 1
            outcome = yield path_end
            if isinstance(outcome, Exception):
                break
        yield end_turn(me)
