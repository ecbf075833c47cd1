"""The terza rule list (ids and one line each), as ``tactica rules terza`` prints it. Full text: the
project spec (terza.md) and docs/rulesets/terza.md; each id appears in a comment where the engine
enforces it."""

from __future__ import annotations

from ..base import Rule

RULES: tuple[Rule, ...] = tuple(
    Rule(i, t)
    for i, t in (
        (
            "R-TA-ECO-1",
            "A turn: movement up to speed split around actions, one action, one bonus action (only for bonus things), one free draw or sheathe.",
        ),
        (
            "R-TA-ECO-2",
            "One reaction per round, refreshed at the start of its own turn; an opportunity attack uses it.",
        ),
        (
            "R-TA-ECO-3",
            "The third action is its own resource: one per round, refreshed at the start of each round.",
        ),
        (
            "R-TA-ECO-4",
            "Actions: attack (attacks weapon attacks), dash, disengage, dodge, cast, use_item, withdraw, move, offhand_attack, draw/sheathe, end_turn.",
        ),
        (
            "R-TA-ECO-5",
            "resources: action, bonus, reaction, third, movement_m, spells_this_turn, items_this_turn.",
        ),
        (
            "R-TA-MOV-1",
            "1.5 m squares; every step costs 1.5 m, diagonal or not; difficult terrain double; paths as in pf1.",
        ),
        (
            "R-TA-MOV-2",
            "Forward is the square in the facing direction, back the opposite one; only rotate (and the GM) change facing.",
        ),
        (
            "R-TA-ATK-1",
            "Attack: d20 + to_hit vs AC (+ shield in hand); natural 20 hits and doubles the dice, natural 1 misses; advantage/disadvantage.",
        ),
        (
            "R-TA-ATK-2",
            "Damage: weapon dice + damage_bonus; the off-hand attack adds the bonus only when negative.",
        ),
        ("R-TA-ATK-3", "Reflex save: d20 + reflex vs DC; natural 1 fails, natural 20 succeeds."),
        (
            "R-TA-ATK-4",
            "Disadvantage while blinded, poisoned, prone, restrained or frightened, or shooting with an enemy adjacent.",
        ),
        ("R-TA-ATK-5", "hp 0 or less: out (no turns, no reactions); the GM may set dead."),
        (
            "R-TA-ZOC-1",
            "Zone of control: the squares within reach of a melee weapon in hand (unarmed_combat: adjacent ones); none without.",
        ),
        (
            "R-TA-ZOC-2",
            "Entering or leaving an enemy zone while unguarded provokes an opportunity attack (enter_zoc / leave_zoc).",
        ),
        ("R-TA-ZOC-3", "Within one movement, an enemy gets at most one opportunity against the same mover."),
        (
            "R-TA-ZOC-4",
            "The opportunity attack costs the reaction, is one melee attack before the step; not for attackers without reaction, out, or who cannot see the mover.",
        ),
        (
            "R-TA-ZOC-5",
            "Variant terza.zoc.guarded_exempt (default true); false: every entry or exit provokes unless the mover disengaged.",
        ),
        (
            "R-TA-ZOC-6",
            "disengage: its movement does not provoke for the rest of the turn (third-action step and sheathe excepted).",
        ),
        ("R-TA-WD-1", "withdraw takes the action and the turn's movement: a path up to 2x speed."),
        (
            "R-TA-WD-2",
            "Its start square is not threatened by enemies it can see; invisible enemies still strike.",
        ),
        ("R-TA-WD-3", "Passing through another threatened square provokes as usual."),
        ("R-TA-WD-4", "No withdraw while blinded."),
        ("R-TA-LIM-1", "At most one spell per turn on its own turn: action, bonus action or item alike."),
        ("R-TA-LIM-2", "At most one item used per turn; continuous items are always active and never used."),
        (
            "R-TA-LIM-3",
            "A reaction spell: once per turn, any turn, even after a spell of its own turn; costs the reaction; also the answer to an attack.",
        ),
        (
            "R-TA-3-1",
            "Besides its normal actions, one third action per round: a very simple response the opponent does not prevent.",
        ),
        (
            "R-TA-3-2",
            "When: at the end of its own turn (ends it), at the end of the round (a window each, in initiative order), or to press.",
        ),
        (
            "R-TA-3-3",
            "Kinds: defend, step, disengage, rotate, draw, shield, press, sheathe; a window's choices are the allowed kinds.",
        ),
        (
            "R-TA-3-4",
            "Not after attacking on its own turn this round, with disadvantage, when stunned/paralyzed/restrained/grappled/incapacitated/out, or (variant) after moving.",
        ),
        ("R-TA-3-5", "The third action is not a reaction: each leaves the other available."),
        (
            "R-TA-3-6",
            "A third-action step into or out of an enemy zone always provokes (step); sheathing in an enemy zone always provokes (sheathe).",
        ),
        (
            "R-TA-3-7",
            "Press: an adjacent enemy leaving the presser's zone; incalzare keeps contact, else Reflex DC 13 + mover's Dex; follow or deny.",
        ),
        ("R-TA-3-8", "A failed press still spends the third action."),
    )
)
