"""The pf1 rule list (ids and one line each), as ``tactica rules pf1`` prints it. Full text: docs/ and
the project spec; each id appears in a comment where the engine enforces it."""

from __future__ import annotations

from ...i18n import N_
from ..base import Rule

RULES: tuple[Rule, ...] = tuple(
    Rule(i, t)
    for i, t in (
        (
            "R-PF-ECO-1",
            N_(
                "One standard, one move, one swift action per turn; standard may become a second move; full-round = standard + move."
            ),
        ),
        ("R-PF-ECO-2", N_("One swift action per turn.")),
        ("R-PF-ECO-3", N_("end_turn ends the turn; slots refill at the start of the combatant's next turn.")),
        (
            "R-PF-ECO-4",
            N_("resources: standard, move, swift, full_round, five_foot_step, opportunity_attacks."),
        ),
        (
            "R-PF-ECO-5",
            N_("Staggered or disabled: one standard or one move action per turn, never a full-round action."),
        ),
        (
            "R-PF-TURN-1",
            N_(
                "Initiative d20 + modifier, highest first; ties by modifier then file order; a fixed list replaces it."
            ),
        ),
        ("R-PF-TURN-2", N_("Surprise round: only the surprising act, one standard or move action each.")),
        (
            "R-PF-TURN-3",
            N_(
                "Flat-footed until its first turn: no Dex to AC, no attacks of opportunity (unless Combat Reflexes)."
            ),
        ),
        (
            "R-PF-TURN-4",
            N_(
                "hp > 0 ok, 0 disabled, < 0 dying, <= -Con dead; dying/dead/unconscious take no turns, threaten nothing."
            ),
        ),
        (
            "R-PF-MOV-1",
            N_("A move action moves up to speed; diagonals alternate 1.5 m / 3 m within one movement."),
        ),
        (
            "R-PF-MOV-2",
            N_("Difficult terrain costs double; very difficult cannot be entered by a move action."),
        ),
        (
            "R-PF-MOV-3",
            N_(
                "Paths pass allies, not enemies or walls; never end on an occupied square; no corner cutting."
            ),
        ),
        (
            "R-PF-MOV-4",
            N_("5-foot step: one square, no action, no provocation, only with no other movement this round."),
        ),
        ("R-PF-MOV-5", N_("A double move is two move commands; the second uses the standard action.")),
        (
            "R-PF-ATK-1",
            N_(
                "Attack: d20 + bab + Str (melee) / Dex (ranged) + bonuses vs AC; natural 20 hits, natural 1 misses."
            ),
        ),
        (
            "R-PF-ATK-2",
            N_(
                "A natural roll in the threat range threatens; a confirmation roll that hits makes a critical (xN)."
            ),
        ),
        (
            "R-PF-ATK-3",
            N_("Damage: dice + Str (x1.5 two-handed, x0.5 off-hand, none ranged) + bonus; minimum 1."),
        ),
        (
            "R-PF-ATK-4",
            N_(
                "attack (standard): one attack at the highest bonus; melee within reach, ranged within range."
            ),
        ),
        ("R-PF-ATK-5", N_("Fighting defensively: -4 to attacks, +2 dodge AC until its next turn.")),
        (
            "R-PF-AOO-1",
            N_(
                "Threatened squares: reach 1.5 m adjacent; reach weapons two away, not adjacent; unarmed none."
            ),
        ),
        (
            "R-PF-AOO-2",
            N_("Leaving a threatened square by movement provokes; one opportunity per enemy per movement."),
        ),
        (
            "R-PF-AOO-3",
            N_("Casting (start only), ranged attacks and provoking specials provoke; difficult_step too."),
        ),
        (
            "R-PF-AOO-4",
            N_("One attack of opportunity per round; Combat Reflexes adds Dex; refills at its turn."),
        ),
        (
            "R-PF-AOO-5",
            N_("The opportunity attack resolves before the provoking act; disabled or worse stops it."),
        ),
        (
            "R-PF-AOO-6",
            N_("Flat-footed and multi-round casters make none; each eligible enemy gets a decision."),
        ),
        (
            "R-PF-FR-1",
            N_(
                "A full-round action takes the turn; without movement it allows a 5-foot step; run/withdraw/difficult_step do not."
            ),
        ),
        (
            "R-PF-FR-FA-1",
            N_(
                "Full attack: iteratives at bab, -5, -10, -15 (while > 0), plus an off-hand or double-weapon attack."
            ),
        ),
        ("R-PF-FR-FA-2", N_("A second attack in the turn turns the action into a full attack.")),
        (
            "R-PF-FR-FA-2b",
            N_("Two-weapon full attacks are declared on the first attack (full_attack: true)."),
        ),
        (
            "R-PF-FR-FA-3",
            N_("Iteratives in order, highest first; with two weapons, choose which strikes first."),
        ),
        (
            "R-PF-FR-FA-4",
            N_("Two-weapon penalties: -6/-10; light off-hand -4/-8; with the feat -4/-4, light -2/-2."),
        ),
        (
            "R-PF-FR-FA-5",
            N_(
                "After the first attack, a move action may replace the rest; no movement after a 5-foot step."
            ),
        ),
        (
            "R-PF-FR-FA-6",
            N_("Fighting defensively covers the whole full attack, declared on its first attack."),
        ),
        (
            "R-PF-FR-CAST-1",
            N_("A 1-round spell is a full-round action and takes effect before the caster's next turn."),
        ),
        (
            "R-PF-FR-CAST-2",
            N_(
                "1 minute = 10 rounds of consecutive casting turns (continue_casting), effect before turn 10."
            ),
        ),
        (
            "R-PF-FR-CAST-3",
            N_(
                "Casting needs concentration: other actions refused; damage calls for a check; disabled loses it."
            ),
        ),
        ("R-PF-FR-CAST-4", N_("While casting a spell of 1 round or more, the caster threatens nothing.")),
        (
            "R-PF-FR-MM-1",
            N_(
                "Spontaneous metamagic on a standard-action spell makes it a full-round action, effect at once."
            ),
        ),
        (
            "R-PF-FR-MM-2",
            N_(
                "Quicken makes it swift (no provocation, one per round); not for spells longer than full-round."
            ),
        ),
        ("R-PF-FR-MM-3", N_("Spontaneous metamagic on longer spells adds one full-round action.")),
        (
            "R-PF-FR-MM-4",
            N_("A prepared caster's metamagic never changes the casting time (except quicken)."),
        ),
        (
            "R-PF-FR-DS",
            N_("difficult_step (full-round): one square no move action could reach; provokes as movement."),
        ),
        (
            "R-PF-FR-RUN-1",
            N_("run (full-round): a straight line up to 4x speed (3x heavy armour; Run feat 5x / 4x)."),
        ),
        (
            "R-PF-FR-RUN-2",
            N_("Without the Run feat the runner loses its Dex bonus to AC until its next turn."),
        ),
        ("R-PF-FR-RUN-3", N_("No running blinded or over difficult terrain.")),
        (
            "R-PF-FR-RUN-4",
            N_("Con score rounds of running, then Con checks DC 10 +1 each; failure: resting for 10 rounds."),
        ),
        ("R-PF-FR-RUN-5", N_("Resting: no running, at most one move action's movement per turn.")),
        (
            "R-PF-FR-SPEC",
            N_("use_ability: a full-round special is a full-round action, a standard one a standard action."),
        ),
        ("R-PF-WD-1", N_("withdraw (full-round): up to 2x speed.")),
        (
            "R-PF-WD-2",
            N_(
                "Its starting square is not threatened by enemies that see it (invisible enemies still get their attack)."
            ),
        ),
        ("R-PF-WD-3", N_("Leaving any other threatened square provokes normally.")),
        ("R-PF-WD-4", N_("No withdraw while blinded; no 5-foot step in the same round.")),
        ("R-PF-WD-5", N_("Only with a movement mode it has a speed for (ground).")),
        (
            "R-PF-WD-6",
            N_(
                "Restricted withdraw: as a standard action, up to speed, when limited to one standard action."
            ),
        ),
    )
)
