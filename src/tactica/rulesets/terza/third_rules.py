"""The third action's resource, limits and windows, and Incalzare (R-TA-3-4, 3-5, 3-7, 3-8).

Kept apart from :mod:`.third` (the kinds and their effects) because movement needs the press
(an enemy leaving the presser's zone opens its window) and the kinds need movement (``step``).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.grid import Square
from ...engine.state import Combatant, Window
from ...i18n import _
from ...vocabulary import label
from .combat import condition_disadvantage
from .rolls import reflex_save
from .state import data

if TYPE_CHECKING:
    from ...engine.core import Encounter

KINDS = ("defend", "step", "disengage", "rotate", "draw", "shield", "press", "sheathe")
"""R-TA-3-3, in the spec's order."""
LIMITING = ("stunned", "paralyzed", "restrained", "grappled", "incapacitated")
"""R-TA-3-4 (c)."""

TURN = "turn"  # at the end of its own turn: do: third (R-TA-3-2 a)
ROUND_END = "round_end"  # the end-of-round window (R-TA-3-2 b)
PRESS = "press"  # the Incalzare window (R-TA-3-2 c)

Ask = Generator[Window, Command, bool]


class ThirdChoices(tuple[str, ...]):
    """The choices of a third-action window: the allowed kinds and ``decline``. ``third`` answers
    it too (R-TA-3-3: ``{do: third, kind: defend}`` is the same as ``{do: defend}``), without being
    listed: the engine asks ``cmd.do in window.choices``, and this says yes to ``third``."""

    def __contains__(self, item: object) -> bool:
        return item == "third" or tuple.__contains__(self, item)


@dataclass(frozen=True, slots=True)
class ThirdContext:
    """Context of a third-action window: which window, and the mover a press would hold."""

    when: str
    mover: str | None = None


def third_blocker(enc: Encounter, c: Combatant) -> tuple[str, str] | None:
    """Why ``c`` may take no third action now, as (error code, reason), or None (R-TA-3-4)."""
    d = data(c)
    if enc.ruleset.is_defeated(c):
        return "defeated", _("{a} is {s}").format(a=c.name, s=label("state", c.state))
    if d.third < 1:
        # R-TA-ECO-3: one per round
        return "no_budget", _("{a} has already used its third action this round").format(a=c.name)
    if d.attacked_this_round:
        return "not_allowed", _("{a} made an attack during its turn this round").format(a=c.name)
    dis = condition_disadvantage(c)
    if dis is not None:
        return "not_allowed", _("{a} has disadvantage ({c})").format(a=c.name, c=label("condition", dis))
    limit = next((k for k in LIMITING if k in c.conditions), None)
    if limit is not None:
        return "not_allowed", _("{a} is {c}").format(a=c.name, c=label("condition", limit))
    if enc.variants["terza.third_action.no_after_move"] and d.moved_this_round:
        return "not_allowed", _("{a} has moved this round (variant terza.third_action.no_after_move)").format(
            a=c.name
        )
    return None


def spend_third(enc: Encounter, c: Combatant, kind: str, **detail: object) -> None:
    """R-TA-3-5: the third action is its own resource; the reaction is untouched."""
    data(c).third -= 1
    event = ev.action(c.id, "third", ["third"])
    event["kind"] = kind
    event.update(detail)
    enc.emit(event)


# -- Incalzare (R-TA-3-7, R-TA-3-8) -----------------------------------------------------------------
def offer_press(enc: Encounter, presser: Combatant, mover: Combatant, at: Square) -> Ask:
    """``mover``, adjacent to ``presser`` when its movement began, is about to leave the presser's
    zone from ``at``: the presser may press. Returns whether it keeps contact."""
    if third_blocker(enc, presser) is not None:
        return False
    trigger = {"type": "press", "mover": mover.id, "at": ev.sq(at)}
    answer = yield Window(
        presser.id, ThirdChoices(("press", "decline")), trigger, ThirdContext(PRESS, mover.id)
    )
    if answer.do == "decline":
        return False
    spend_third(enc, presser, "press", target=mover.id)
    if "incalzare" in data(presser).p.skills:
        return True
    # without Incalzare: a Reflex save, DC 13 + the mover's Dex modifier; failing still spends it
    return reflex_save(enc, presser, 13 + data(mover).p.dex_mod, against=mover.id)
