"""The terza rule list (ids and one line each), as ``tactica rules terza`` prints it. Full text: the
project spec (terza.md) and docs/rulesets/terza.md; each id appears in a comment where the engine
enforces it."""

from __future__ import annotations

from ...i18n import N_
from ..base import Rule

RULES: tuple[Rule, ...] = tuple(
    Rule(i, t)
    for i, t in (
        (
            "R-TA-ECO-1",
            N_(
                "A turn: movement up to speed split around actions, one action, one bonus action (only for bonus things), one free draw or sheathe."
            ),
        ),
        (
            "R-TA-ECO-2",
            N_(
                "One reaction per round, refreshed at the start of its own turn; an opportunity attack uses it."
            ),
        ),
        (
            "R-TA-ECO-3",
            N_("The third action is its own resource: one per round, refreshed at the start of each round."),
        ),
        (
            "R-TA-ECO-4",
            N_(
                "Actions: attack (attacks weapon attacks), dash, disengage, dodge, cast, use_item, withdraw, move, offhand_attack, draw/sheathe, end_turn."
            ),
        ),
        (
            "R-TA-ECO-5",
            N_("resources: action, bonus, reaction, third, movement_m, spells_this_turn, items_this_turn."),
        ),
        (
            "R-TA-MOV-1",
            N_(
                "1.5 m squares; every step costs 1.5 m, diagonal or not; difficult terrain double; paths as in pf1."
            ),
        ),
        (
            "R-TA-MOV-2",
            N_(
                "Forward is the square in the facing direction, back the opposite one; only rotate (and the GM) change facing."
            ),
        ),
        (
            "R-TA-ATK-1",
            N_(
                "Attack: d20 + to_hit vs AC (+ shield in hand); natural 20 hits and doubles the dice, natural 1 misses; advantage/disadvantage."
            ),
        ),
        (
            "R-TA-ATK-2",
            N_("Damage: weapon dice + damage_bonus; the off-hand attack adds the bonus only when negative."),
        ),
        ("R-TA-ATK-3", N_("Reflex save: d20 + reflex vs DC; natural 1 fails, natural 20 succeeds.")),
        (
            "R-TA-ATK-4",
            N_(
                "Disadvantage while blinded, poisoned, prone, restrained or frightened, or shooting with an enemy adjacent."
            ),
        ),
        ("R-TA-ATK-5", N_("hp 0 or less: out (no turns, no reactions); the GM may set dead.")),
        (
            "R-TA-ZOC-1",
            N_(
                "Zone of control: the squares within reach of a melee weapon in hand (unarmed_combat: adjacent ones); none without."
            ),
        ),
        (
            "R-TA-ZOC-2",
            N_(
                "Entering or leaving an enemy zone while unguarded provokes an opportunity attack (enter_zoc / leave_zoc)."
            ),
        ),
        (
            "R-TA-ZOC-3",
            N_("Within one movement, an enemy gets at most one opportunity against the same mover."),
        ),
        (
            "R-TA-ZOC-4",
            N_(
                "The opportunity attack costs the reaction, is one melee attack before the step; not for attackers without reaction, out, or who cannot see the mover."
            ),
        ),
        (
            "R-TA-ZOC-5",
            N_(
                "Variant terza.zoc.guarded_exempt (default true); false: every entry or exit provokes unless the mover disengaged."
            ),
        ),
        (
            "R-TA-ZOC-6",
            N_(
                "disengage: its movement does not provoke for the rest of the turn (third-action step and sheathe excepted)."
            ),
        ),
        ("R-TA-WD-1", N_("withdraw takes the action and the turn's movement: a path up to 2x speed.")),
        (
            "R-TA-WD-2",
            N_("Its start square is not threatened by enemies it can see; invisible enemies still strike."),
        ),
        ("R-TA-WD-3", N_("Passing through another threatened square provokes as usual.")),
        ("R-TA-WD-4", N_("No withdraw while blinded.")),
        ("R-TA-LIM-1", N_("At most one spell per turn on its own turn: action, bonus action or item alike.")),
        (
            "R-TA-LIM-2",
            N_("At most one item used per turn; continuous items are always active and never used."),
        ),
        (
            "R-TA-LIM-3",
            N_(
                "A reaction spell: once per turn, any turn, even after a spell of its own turn; costs the reaction; also the answer to an attack."
            ),
        ),
        (
            "R-TA-3-1",
            N_(
                "Besides its normal actions, one third action per round: a very simple response the opponent does not prevent."
            ),
        ),
        (
            "R-TA-3-2",
            N_(
                "When: at the end of its own turn (ends it), at the end of the round (a window each, in initiative order), or to press."
            ),
        ),
        (
            "R-TA-3-3",
            N_(
                "Kinds: defend, step, disengage, rotate, draw, shield, press, sheathe; a window's choices are the allowed kinds."
            ),
        ),
        (
            "R-TA-3-4",
            N_(
                "Not after attacking on its own turn this round, with disadvantage, when stunned/paralyzed/restrained/grappled/incapacitated/out, or (variant) after moving."
            ),
        ),
        ("R-TA-3-5", N_("The third action is not a reaction: each leaves the other available.")),
        (
            "R-TA-3-6",
            N_(
                "A third-action step into or out of an enemy zone always provokes (step); sheathing in an enemy zone always provokes (sheathe)."
            ),
        ),
        (
            "R-TA-3-7",
            N_(
                "Press: an adjacent enemy leaving the presser's zone; incalzare keeps contact, else Reflex DC 13 + mover's Dex; follow or deny."
            ),
        ),
        ("R-TA-3-8", N_("A failed press still spends the third action.")),
    )
)
