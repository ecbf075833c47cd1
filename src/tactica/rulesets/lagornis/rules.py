"""The lagornis rule list (ids and one line each), as ``tactica rules lagornis`` prints it. Full text:
docs/rulesets/lagornis.md and the project spec; each id appears in a comment where it is enforced."""

from __future__ import annotations

from ...i18n import N_
from ..base import Rule

RULES: tuple[Rule, ...] = tuple(
    Rule(i, t)
    for i, t in (
        (
            "R-LG-ECO-1",
            N_(
                "Each round: one full action (1), one bonus action (0.5), one reaction, one movement (speed_m)."
            ),
        ),
        (
            "R-LG-ECO-2",
            N_(
                "On its turn a combatant moves, uses its full and its bonus action in any order, split as it likes."
            ),
        ),
        (
            "R-LG-ECO-3",
            N_(
                "Costs are in actions: a 0.5 action is paid from the bonus or half the full action; 1 + 0.5, or three 0.5 uses."
            ),
        ),
        (
            "R-LG-ECO-4",
            N_(
                "At the end of the round everything resets, used or not (an incantation in progress carries over)."
            ),
        ),
        (
            "R-LG-ECO-5",
            N_(
                "The bonus action may buy bonus_reaction (+1 reaction) or bonus_move (+1 movement) this round."
            ),
        ),
        (
            "R-LG-ECO-6",
            N_(
                "resources: full, bonus, reactions, reactions_used, movement_m, dodge_tokens, fatigue, opportunity_used."
            ),
        ),
        (
            "R-LG-INIT-1",
            N_("Initiative 1d20 + ADR, highest first (ties: ADR, then file order), or the GM's order."),
        ),
        (
            "R-LG-INIT-2",
            N_("The order stays the same from round to round (the GM may reorder with set_initiative)."),
        ),
        (
            "R-LG-INIT-3",
            N_(
                "Surprise: the listed combatants take a full normal turn in round 0; the others do nothing in it."
            ),
        ),
        ("R-LG-ATK-1", N_("attack costs the full action: d20 + weapon mastery + weapon bonus - penalties.")),
        (
            "R-LG-ATK-2",
            N_(
                "The target may answer with one reaction (dodge, parry, dampen, decline); unanswered, it hits when total >= defense."
            ),
        ),
        (
            "R-LG-ATK-3",
            N_(
                "Damage: weapon dice + bonus, reduced by the reaction; dice order attack, defence, damage (only when needed)."
            ),
        ),
        ("R-LG-ATK-4", N_("hp 0 or less: out.")),
        (
            "R-LG-ATK-5",
            N_(
                "A damaging spell is an attack (d20 + magic); a dodge halves an area spell; spell_cast comes before its window."
            ),
        ),
        (
            "R-LG-ATK-6",
            N_(
                "A 0.5 action is paid from the bonus first, then half the full action; pay: full takes the full action first."
            ),
        ),
        (
            "R-LG-ATK-7",
            N_("Event order: reaction, its cost, check, attack, damage, weapon wear, then conditions."),
        ),
        (
            "R-LG-REA-1",
            N_("A reaction is a reflex in another's turn: dodge, parry, dampen, or an advanced defence."),
        ),
        (
            "R-LG-REA-2",
            N_("One reaction a round (+1 bonus_reaction, +2 extended_defense); none left, no reaction."),
        ),
        (
            "R-LG-REA-3",
            N_(
                "The first ceil(ADR/2) reactions are free; each further one has a penalty of 3 + X (X = 1, 2, ...)."
            ),
        ),
        (
            "R-LG-REA-4",
            N_(
                "Opposed roll: d20 + skill - penalties beats the attack total to succeed; a failed reaction changes nothing."
            ),
        ),
        (
            "R-LG-REA-5",
            N_(
                "dodge (ADR): a token, or 1 fatigue; success: 0 damage (area: half); margin 1-2: off_balance (-2 next action roll)."
            ),
        ),
        (
            "R-LG-REA-6",
            N_(
                "parry (weapon mastery): success halves (shield: stops); the weapon loses half the damage; 0 = broken; unparryable."
            ),
        ),
        ("R-LG-REA-7", N_("dampen: always succeeds, no roll, damage - floor(DEX/2).")),
        (
            "R-LG-REA-8",
            N_(
                "Advanced defence: a reaction that also costs 0.5 action: a 0.5 action out of turn (a 0.5 spell)."
            ),
        ),
        (
            "R-LG-REA-9",
            N_(
                "extended_defense (full action, defence or weapon skill): +2 reactions, parries may protect an adjacent ally."
            ),
        ),
        (
            "R-LG-MOV-1",
            N_(
                "Movement: speed_m a round (+2 m per course rank), 1.5 m squares, diagonals 1.5 / 3 m, in any number of moves."
            ),
        ),
        (
            "R-LG-OPP-1",
            N_(
                "Moving away from an adjacent enemy, or passing by one, gives it an opportunity action (move / passing), one per move."
            ),
        ),
        ("R-LG-OPP-2", N_("disengage (0.5 action): its movement this turn gives no opportunity.")),
        ("R-LG-OPP-3", N_("An opportunity action is free (no action, no reaction) and optional.")),
        ("R-LG-OPP-4", N_("Each opportunity action has a penalty of 3 x N, N its rank this round.")),
        ("R-LG-OPP-5", N_("The target of an opportunity attack may react to it as to any attack.")),
        (
            "R-LG-HOLD-1",
            N_(
                "hold spends the full action and names a command (then) and a trigger, optionally by one combatant."
            ),
        ),
        (
            "R-LG-HOLD-2",
            N_(
                "When the trigger happens the holder may release (runs at once, before the act completes) or decline."
            ),
        ),
        ("R-LG-HOLD-3", N_("An unreleased held action is lost at the end of the round.")),
        ("R-LG-CAST-1", N_("A spell of 0.5 or 1 action is cast like an action of that cost.")),
        (
            "R-LG-CAST-2",
            N_(
                "A longer spell is incanted over consecutive turns (cast puts in the full and bonus left) until its cost is reached."
            ),
        ),
        ("R-LG-CAST-3", N_("Skipping a turn of incantation, or being out, loses the spell (spell_lost).")),
        (
            "R-LG-CAST-4",
            N_(
                "The full action is worth 1 action towards an incantation (variant lagornis.cast.full_action_worth)."
            ),
        ),
    )
)
