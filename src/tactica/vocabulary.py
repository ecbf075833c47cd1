"""The rules' own words: every identifier a person reads (actions, economy slots, conditions, ...).

Events and commands carry identifiers (``five_foot_step``, ``full_round``, ``enter_zoc``); the spec
fixes them and they never change with the language. What a person reads is the *label* of an
identifier, looked up here and translated with a gettext context naming its kind, because one
identifier can name two things: the action ``move`` ("move", "se déplacer") is not the economy slot
``move`` ("move action", "action de mouvement").

The French and Italian labels follow the seeds' own vocabulary; docs/glossary.md lists them.
"""

from __future__ import annotations

from typing import Any

from .i18n import NP_, metres, number, pgettext

# The kinds of identifiers, in the order :func:`label` tries them when the kind is not known.
VOCABULARY: dict[str, dict[str, str]] = {
    "action": {
        "abandon_spell": NP_("action", "abandon the spell"),
        "add_condition": NP_("action", "add a condition"),
        "attack": NP_("action", "attack"),
        "bonus_move": NP_("action", "bonus move"),
        "bonus_reaction": NP_("action", "bonus reaction"),
        "cast": NP_("action", "cast a spell"),
        "continue_casting": NP_("action", "continue casting"),
        "dampen": NP_("action", "dampen"),
        "dash": NP_("action", "dash"),
        "decline": NP_("action", "decline"),
        "defend": NP_("action", "defend"),
        "difficult_step": NP_("action", "step into very difficult terrain"),
        "disengage": NP_("action", "disengage"),
        "dodge": NP_("action", "dodge"),
        "draw": NP_("action", "draw"),
        "draw_weapon": NP_("action", "draw a weapon"),
        "end_turn": NP_("action", "end the turn"),
        "extended_defense": NP_("action", "extended defence"),
        "five_foot_step": NP_("action", "1.5 m step"),
        "full_attack": NP_("action", "full attack"),
        "hold": NP_("action", "hold an action"),
        "move": NP_("action", "move"),
        "move_to": NP_("action", "place"),
        "offhand_attack": NP_("action", "off-hand attack"),
        "opportunity_attack": NP_("action", "attack of opportunity"),
        "parry": NP_("action", "parry"),
        "press": NP_("action", "press"),
        "release": NP_("action", "release the held action"),
        "remove_condition": NP_("action", "remove a condition"),
        "rotate": NP_("action", "turn to face"),
        "run": NP_("action", "run"),
        "set_facing": NP_("action", "set facing"),
        "set_hp": NP_("action", "set hit points"),
        "set_initiative": NP_("action", "set initiative"),
        "sheathe": NP_("action", "sheathe"),
        "shield": NP_("action", "raise the shield"),
        "step": NP_("action", "step"),
        "third": NP_("action", "third action"),
        "use_ability": NP_("action", "use a special ability"),
        "use_item": NP_("action", "use an item"),
        "withdraw": NP_("action", "withdraw"),
    },
    # Economy slots (an action event's ``cost``) and the counters a combatant's chips show.
    "resource": {
        "action": NP_("resource", "action"),
        "bonus": NP_("resource", "bonus action"),
        "disengaged": NP_("resource", "disengaged"),
        "dodge_tokens": NP_("resource", "dodge tokens"),
        "extended_defense": NP_("resource", "extended defence"),
        "fatigue": NP_("resource", "fatigue"),
        "five_foot_step": NP_("resource", "1.5 m step"),
        "full": NP_("resource", "full action"),
        "full_round": NP_("resource", "full-round action"),
        "half": NP_("resource", "half action"),
        "held": NP_("resource", "held action"),
        "incantation": NP_("resource", "incantation"),
        "interaction": NP_("resource", "object interaction"),
        "items_this_turn": NP_("resource", "items this turn"),
        "move": NP_("resource", "move action"),
        "movement_m": NP_("resource", "movement"),
        "opportunity_attacks": NP_("resource", "attacks of opportunity"),
        "opportunity_used": NP_("resource", "opportunity action used"),
        "reaction": NP_("resource", "reaction"),
        "reactions": NP_("resource", "reactions"),
        "reactions_used": NP_("resource", "reactions used"),
        "spells_this_turn": NP_("resource", "spells this turn"),
        "standard": NP_("resource", "standard action"),
        "swift": NP_("resource", "swift action"),
        "third": NP_("resource", "third action"),
        "weapon": NP_("resource", "weapon"),
    },
    "condition": {
        "blinded": NP_("condition", "blinded"),
        "casting": NP_("condition", "casting"),
        "dead": NP_("condition", "dead"),
        "defending": NP_("condition", "defending"),
        "dodging": NP_("condition", "dodging"),
        "fighting_defensively": NP_("condition", "fighting defensively"),
        "flat_footed": NP_("condition", "flat-footed"),
        "frightened": NP_("condition", "frightened"),
        "grappled": NP_("condition", "grappled"),
        "incapacitated": NP_("condition", "incapacitated"),
        "invisible": NP_("condition", "invisible"),
        "off_balance": NP_("condition", "off balance"),
        "paralyzed": NP_("condition", "paralysed"),
        "poisoned": NP_("condition", "poisoned"),
        "prone": NP_("condition", "prone"),
        "restrained": NP_("condition", "restrained"),
        "resting": NP_("condition", "resting"),
        "running": NP_("condition", "running"),
        "staggered": NP_("condition", "staggered"),
        "stunned": NP_("condition", "stunned"),
        "surprised": NP_("condition", "surprised"),
        "unconscious": NP_("condition", "unconscious"),
    },
    "state": {
        "ok": NP_("state", "fighting"),
        "dead": NP_("state", "dead"),
        "disabled": NP_("state", "disabled"),
        "dying": NP_("state", "dying"),
        "out": NP_("state", "out of the fight"),
        "unconscious": NP_("state", "unconscious"),
    },
    "check": {
        "concentration": NP_("check", "concentration"),
        "constitution": NP_("check", "Constitution"),
        "dampen": NP_("check", "dampen"),
        "dodge": NP_("check", "dodge"),
        "initiative": NP_("check", "initiative"),
        "parry": NP_("check", "parry"),
        "reflex": NP_("check", "Reflex save"),
    },
    # Why an opportunity is provoked, and why a spell is lost.
    "reason": {
        "cast": NP_("reason", "casting"),
        "concentration": NP_("reason", "failed concentration"),
        "defeated": NP_("reason", "caster defeated"),
        "enter_zoc": NP_("reason", "entering the Zone of Control"),
        "interrupted": NP_("reason", "interrupted"),
        "leave_threatened": NP_("reason", "leaving a threatened square"),
        "leave_zoc": NP_("reason", "leaving the Zone of Control"),
        "move": NP_("reason", "moving"),
        "other_action": NP_("reason", "another action"),
        "passing": NP_("reason", "passing by"),
        "ranged": NP_("reason", "ranged attack"),
        # what releases a held action (lagornis): "attack when {trigger}"
        "ally_attacked": NP_("reason", "an ally is attacked"),
        "attacked": NP_("reason", "it is attacked"),
        "enemy_enters_reach": NP_("reason", "an enemy comes within reach"),
        "enemy_moves": NP_("reason", "an enemy moves"),
        "sheathe": NP_("reason", "sheathing"),
        "step": NP_("reason", "stepping"),
    },
    "attack": {
        "full_attack": NP_("attack", "full attack"),
        "normal": NP_("attack", "attack"),
        "opportunity": NP_("attack", "attack of opportunity"),
    },
    "reaction": {
        "cast": NP_("reaction", "spell"),
        "dampen": NP_("reaction", "dampen"),
        "dodge": NP_("reaction", "dodge"),
        "opportunity_attack": NP_("reaction", "attack of opportunity"),
        "parry": NP_("reaction", "parry"),
    },
    # Where a combatant faces (terza).
    "direction": {
        "N": NP_("direction", "N"),
        "NE": NP_("direction", "NE"),
        "E": NP_("direction", "E"),
        "SE": NP_("direction", "SE"),
        "S": NP_("direction", "S"),
        "SW": NP_("direction", "SW"),
        "W": NP_("direction", "W"),
        "NW": NP_("direction", "NW"),
    },
    # The sources of an attack roll's modifiers.
    "modifier": {
        "bab": NP_("modifier", "BAB"),
        "cha": NP_("modifier", "Cha"),
        "con": NP_("modifier", "Con"),
        "defensively": NP_("modifier", "defensively"),
        "dex": NP_("modifier", "Dex"),
        "fatigue": NP_("modifier", "fatigue"),
        "heavy": NP_("modifier", "heavy weapon"),
        "improvised": NP_("modifier", "improvised weapon"),
        "int": NP_("modifier", "Int"),
        "light": NP_("modifier", "light weapon"),
        "magic": NP_("modifier", "magic"),
        "off_balance": NP_("modifier", "off balance"),
        "opportunity": NP_("modifier", "opportunity"),
        "polearm": NP_("modifier", "polearm"),
        "reaction": NP_("modifier", "reaction penalty"),
        "shield": NP_("modifier", "shield"),
        "str": NP_("modifier", "Str"),
        "to_hit": NP_("modifier", "to hit"),
        "two_weapon": NP_("modifier", "two weapons"),
        "weapon": NP_("modifier", "weapon"),
        "wis": NP_("modifier", "Wis"),
    },
}


def label(kind: str, ident: str) -> str:
    """The reader's word for ``ident`` of ``kind``, in the current language.

    An identifier the vocabulary does not know (a spell, a weapon or a condition the encounter file
    names) is the file's own word: it is shown as written, underscores as spaces. ``weapon:sword``
    (a resource per weapon) reads "weapon: sword".
    """
    words = VOCABULARY.get(kind, {})
    english = words.get(ident)
    if english is not None:
        return pgettext(kind, english)
    if ":" in ident:
        head, _sep, tail = ident.partition(":")
        return f"{label(kind, head)}: {tail.replace('_', ' ')}"
    return ident.replace("_", " ")


def any_label(ident: str, kinds: tuple[str, ...] = ("action", "resource", "condition", "state")) -> str:
    """The label of ``ident`` under the first of ``kinds`` that knows it (for a place that shows
    identifiers of mixed kinds, such as a combatant's chips)."""
    for kind in kinds:
        if ident in VOCABULARY.get(kind, {}):
            return label(kind, ident)
    return label(kinds[0], ident)


def resource_value(key: str, value: Any) -> str:
    """A resource's amount as a person reads it: metres for ``*_m`` (``movement_m``), else the
    number in the language's format (anything else as it is)."""
    if key.endswith("_m") and isinstance(value, int | float) and not isinstance(value, bool):
        return metres(value)
    return number(value)
