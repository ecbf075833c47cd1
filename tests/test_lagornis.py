"""The lagornis ruleset: what the conformance cases do not pin down (loading, variants, refusals,
the less travelled paths of reactions, opportunities, held actions and incantation, the views)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from tactica import Encounter, EncounterError, load_encounter
from tactica.cli import app
from tactica.rulesets import find_ruleset
from tactica.rulesets.lagornis import RULESET as LG
from tactica.rulesets.lagornis.economy import free_reactions, reaction_penalty

from .engine.test_core import rejected

Json = dict[str, Any]

AXE = {"id": "hache", "category": "heavy", "damage": "1d8"}
DAGGER = {"id": "dague", "category": "light", "damage": "1d4"}
SPARK = {"id": "etincelle", "cost": 0.5, "damage": "1d4", "range_m": 12}
STORM = {"id": "orage", "cost": 2, "damage": "2d6", "range_m": 20}


def fighter(cid: str, side: str, at: list[int], **stats: Any) -> Json:
    """A lagornis combatant: 20 hp, an axe and heavy 2 unless ``stats`` says otherwise."""
    base: Json = {"hp": 20, "skills": {"heavy": 2}, "weapons": [AXE]}
    base.update(stats)
    return {"id": cid, "side": side, "at": at, "stats": base}


def encounter(*combatants: Json, width: int = 8, height: int = 4, **extra: Any) -> Json:
    data: Json = {
        "ruleset": "lagornis",
        "map": {"width": width, "height": height},
        "combatants": list(combatants),
        "initiative": [c["id"] for c in combatants],
    }
    data.update(extra)
    return data


def started(data: Json, dice: list[int] | None = None) -> Encounter:
    enc = load_encounter(data, dice=dice if dice is not None else [])
    enc.start()
    return enc


def run(enc: Encounter, *commands: Json) -> list[Json]:
    """Apply the commands; return the events of the last one."""
    events: list[Json] = []
    for cmd in commands:
        events = enc.apply(cmd).events
    return events


def duel(
    dice: list[int] | None = None, a: Json | None = None, b: Json | None = None, **extra: Any
) -> Encounter:
    """``a`` (heroes) at [1, 1] acts before ``b`` (monsters) at [2, 1]."""
    return started(
        encounter(
            fighter("a", "heroes", [1, 1], **(a or {})),
            fighter("b", "monsters", [2, 1], **(b or {})),
            **extra,
        ),
        dice,
    )


def resources(enc: Encounter, cid: str) -> Json:
    res: Json = enc.view()["combatants"][cid]["resources"]
    return res


def of_type(events: list[Json], kind: str) -> list[Json]:
    return [e for e in events if e["type"] == kind]


# -- loading and variants --------------------------------------------------------------------------
class TestLoading:
    def test_unknown_skill_is_an_error_with_its_path(self) -> None:
        with pytest.raises(EncounterError) as info:
            load_encounter(encounter(fighter("a", "heroes", [0, 0], skills={"magie": 2})))
        assert "combatants[0].stats.skills" in str(info.value)

    def test_a_spell_cost_is_counted_in_half_actions(self) -> None:
        spell = {"id": "x", "cost": 0.75}
        with pytest.raises(EncounterError, match="half actions"):
            load_encounter(encounter(fighter("a", "heroes", [0, 0], spells=[spell])))

    def test_unknown_or_mistyped_variants_are_refused(self) -> None:
        a = fighter("a", "heroes", [0, 0])
        with pytest.raises(EncounterError, match="unknown variant"):
            load_encounter(encounter(a, variant={"lagornis.reaction_penalty": 3}))
        with pytest.raises(EncounterError, match="must be a whole number"):
            load_encounter(encounter(a, variant={"lagornis.reaction_penalty_base": "3"}))
        with pytest.raises(EncounterError, match="must be one of"):
            load_encounter(encounter(a, variant={"lagornis.fatigue.effect": "sleepy"}))

    def test_defaults_come_from_the_variants_and_stats_override_them(self) -> None:
        data = encounter(
            fighter("a", "heroes", [0, 0], skills={"course": 2}),
            fighter("b", "monsters", [3, 0], dodge_tokens=5, defense=14, speed_m=6),
            variant={
                "lagornis.dodge.tokens_per_fight": 1,
                "lagornis.course.metres_per_rank": 3,
                "lagornis.defense.passive_default": 11,
            },
        )
        enc = started(data)
        assert resources(enc, "a")["dodge_tokens"] == 1
        assert resources(enc, "a")["movement_m"] == 16  # 10 + 2 ranks x 3 m
        assert enc.combatants["a"].data.p.defense == 11
        assert resources(enc, "b")["dodge_tokens"] == 5
        assert resources(enc, "b")["movement_m"] == 6
        assert enc.combatants["b"].data.p.defense == 14

    def test_rules_lists_every_id_and_every_variant(self) -> None:
        result = CliRunner(env={"COLUMNS": "300"}).invoke(app, ["rules", "lagornis"])
        assert result.exit_code == 0
        for rule_id in LG.rule_ids():
            assert rule_id in result.output
        for v in LG.variants:
            assert v.name in result.output
        named = {
            "lagornis.reaction_penalty_base",
            "lagornis.reaction_penalty_first_x",
            "lagornis.cast.full_action_worth",
        }
        assert named <= {v.name for v in LG.variants}

    def test_the_ruleset_is_found_by_name(self) -> None:
        assert find_ruleset("lagornis") is LG


# -- economy ---------------------------------------------------------------------------------------
class TestEconomy:
    def test_pay_full_takes_half_of_the_full_action_first(self) -> None:
        enc = duel([10], a={"skills": {"magic": 1}, "spells": [SPARK]})
        events = run(enc, {"actor": "a", "do": "cast", "spell": "etincelle", "target": "b", "pay": "full"})
        assert events[0] == {
            "type": "action",
            "actor": "a",
            "action": "cast",
            "cost": ["half"],
            "spell": "etincelle",
        }
        assert (resources(enc, "a")["full"], resources(enc, "a")["bonus"]) == (0.5, 0.5)

    def test_an_unknown_pay_is_a_malformed_command(self) -> None:
        enc = duel()
        assert rejected(enc, {"actor": "a", "do": "disengage", "pay": "reaction"}).code == "invalid_command"

    def test_an_attack_needs_the_whole_full_action(self) -> None:
        enc = duel()
        run(enc, {"actor": "a", "do": "disengage", "pay": "full"})
        assert rejected(enc, {"actor": "a", "do": "attack", "target": "b"}).code == "no_budget"

    def test_the_bonus_uses_need_the_bonus_itself(self) -> None:
        enc = duel()
        run(enc, {"actor": "a", "do": "disengage"})
        assert resources(enc, "a")["full"] == 1
        assert rejected(enc, {"actor": "a", "do": "bonus_reaction"}).code == "no_budget"
        assert rejected(enc, {"actor": "a", "do": "bonus_move"}).code == "no_budget"

    def test_resources_view_holds_the_spec_keys_and_more(self) -> None:
        enc = duel()
        res = resources(enc, "a")
        spec = {"full", "bonus", "reactions", "reactions_used", "movement_m", "dodge_tokens", "fatigue"}
        assert spec | {"opportunity_used", "weapon:hache", "held", "incantation"} <= set(res)
        assert res["full"] == 1 and isinstance(res["full"], int)

    def test_view_shows_weapon_durability_and_broken_weapons(self) -> None:
        enc = duel(a={"weapons": [AXE, {**DAGGER, "durability": 0}]})
        view = enc.view()["combatants"]["a"]
        assert view["weapons"] == {
            "hache": {"durability": 10, "broken": False},
            "dague": {"durability": 0, "broken": True},
        }
        assert view["broken"] == ["dague"]
        assert (
            rejected(enc, {"actor": "a", "do": "attack", "target": "b", "weapon": "dague"}).code
            == "not_allowed"
        )


# -- reactions -------------------------------------------------------------------------------------
class TestReactions:
    @pytest.mark.parametrize(("adr", "free"), [(-1, 0), (0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (7, 4)])
    def test_free_reactions_are_ceil_of_half_adr(self, adr: int, free: int) -> None:
        assert free_reactions(adr) == free

    @pytest.mark.parametrize(
        ("variants", "penalties"),
        [
            ({}, [0, 4, 5, 6]),
            ({"lagornis.reaction_penalty_first_x": 0}, [0, 3, 4, 5]),
            ({"lagornis.reaction_penalty_base": 1}, [0, 2, 3, 4]),
        ],
    )
    def test_penalty_by_rank(self, variants: Json, penalties: list[int]) -> None:
        enc = duel(b={"adr": 2}, variant=variants)
        b = enc.combatants["b"]
        assert [reaction_penalty(enc, b, rank) for rank in (1, 2, 3, 4)] == penalties

    def test_a_failed_reaction_can_be_made_to_hit(self) -> None:
        # 5 + 2 = 7 < defense 10, but the dodge fails (3 + 0 - 4 < 7): with "hits" it hits all the same
        enc = duel([5, 3, 6], variant={"lagornis.reaction.failed_reaction": "hits"})
        run(enc, {"actor": "a", "do": "attack", "target": "b"})
        events = run(enc, {"actor": "b", "do": "dodge"})
        assert of_type(events, "attack")[0]["hit"] is True
        assert of_type(events, "damage")[0]["amount"] == 6

    def test_hit_on_equal_can_be_switched_off(self) -> None:
        enc = duel([8], variant={"lagornis.attack.hit_on_equal": False})
        run(enc, {"actor": "a", "do": "attack", "target": "b"})
        attack = of_type(run(enc, {"actor": "b", "do": "decline"}), "attack")[0]
        assert (attack["total"], attack["vs"], attack["hit"]) == (10, 10, False)

    def test_surprised_combatants_may_react_with_the_variant(self) -> None:
        data = encounter(
            fighter("a", "heroes", [1, 1]),
            fighter("b", "monsters", [2, 1]),
            surprise=["a"],
            variant={"lagornis.surprise.surprised_react": True},
        )
        enc = started(data, [10])
        res = enc.apply({"actor": "a", "do": "attack", "target": "b"})
        assert res.pending is not None and res.pending.actor == "b"

    def test_dodge_penalty_fatigue_hits_dodges_only(self) -> None:
        # a (fatigue 2) attacks: 10 + 2 = 12, no fatigue penalty; b (fatigue 3) dodges 14 + 0 - 4 - 3 = 7
        enc = duel(
            [10, 14, 1],
            a={"fatigue": 2},
            b={"fatigue": 3},
            variant={"lagornis.fatigue.effect": "dodge_penalty"},
        )
        run(enc, {"actor": "a", "do": "attack", "target": "b"})
        events = run(enc, {"actor": "b", "do": "dodge"})
        assert of_type(events, "attack")[0]["total"] == 12
        assert of_type(events, "check")[0]["total"] == 7

    def test_parry_without_a_weapon_named_uses_the_first_usable_one(self) -> None:
        # 10 + 2 = 12 against parry 15 + light 1 - 4 = 12: a tie, the attacker's
        enc = duel([10, 15, 4], b={"skills": {"light": 1}, "weapons": [{**AXE, "durability": 0}, DAGGER]})
        run(enc, {"actor": "a", "do": "attack", "target": "b"})
        events = run(enc, {"actor": "b", "do": "parry"})
        assert of_type(events, "reaction")[0]["weapon"] == "dague"
        assert of_type(events, "check")[0]["success"] is False
        assert of_type(events, "resource")[0]["resource"] == "weapon:dague"

    def test_answers_take_only_their_own_fields(self) -> None:
        enc = duel([10])
        run(enc, {"actor": "a", "do": "attack", "target": "b"})
        assert rejected(enc, {"actor": "b", "do": "dodge", "weapon": "hache"}).code == "invalid_command"
        assert rejected(enc, {"actor": "b", "do": "parry", "weapon": "epee"}).code == "invalid_command"
        assert rejected(enc, {"actor": "a", "do": "end_turn"}).code == "decision_pending"

    def test_the_window_lists_a_parry_per_usable_weapon(self) -> None:
        enc = duel([10], b={"weapons": [AXE, DAGGER]})
        run(enc, {"actor": "a", "do": "attack", "target": "b"})
        legal = {(c.do, c.weapon) for c in enc.legal_commands("b")}
        assert legal == {
            ("dodge", None),
            ("parry", "hache"),
            ("parry", "dague"),
            ("dampen", None),
            ("decline", None),
        }

    def test_advanced_defence_needs_a_half_spell_and_half_an_action(self) -> None:
        big = {"id": "boule", "cost": 1, "damage": "1d6"}
        enc = duel([10], b={"skills": {"magic": 1}, "spells": [big]})
        res = enc.apply({"actor": "a", "do": "attack", "target": "b"})
        assert res.pending is not None and "cast" not in res.pending.choices
        enc = duel([10, 10], b={"spells": [SPARK, big]})
        res = enc.apply({"actor": "a", "do": "attack", "target": "b"})
        assert res.pending is not None and "cast" in res.pending.choices
        assert rejected(enc, {"actor": "b", "do": "cast", "spell": "boule"}).code == "not_allowed"
        assert rejected(enc, {"actor": "b", "do": "cast"}).code == "invalid_command"

    def test_a_protector_is_never_the_attacker(self) -> None:
        # a (extended defence) attacks its own ally c, next to it: c is asked, a is not
        data = encounter(
            fighter("a", "heroes", [1, 1]), fighter("c", "heroes", [2, 1]), fighter("b", "monsters", [5, 1])
        )
        enc = started(data, [10])
        enc.combatants["a"].data.extended = True  # as if extended defence (its full action pays the attack)
        res = enc.apply({"actor": "a", "do": "attack", "target": "c"})
        assert res.pending is not None and res.pending.actor == "c"


# -- opportunities ---------------------------------------------------------------------------------
class TestOpportunity:
    def test_an_enemy_without_a_usable_weapon_gets_none(self) -> None:
        enc = duel(b={"weapons": [{**AXE, "durability": 0}]})
        res = enc.apply({"actor": "a", "do": "move", "path": [[0, 1]]})
        assert res.pending is None and not of_type(res.events, "opportunity")

    def test_coming_to_an_enemy_and_stopping_there_provokes_nothing(self) -> None:
        data = encounter(fighter("a", "heroes", [0, 1]), fighter("b", "monsters", [4, 1]))
        res = started(data).apply({"actor": "a", "do": "move", "path": [[1, 1], [2, 1], [3, 1]]})
        assert res.pending is None and of_type(res.events, "moved")[0]["to"] == [3, 1]

    def test_the_opportunity_strikes_only_the_mover(self) -> None:
        data = encounter(
            fighter("a", "heroes", [1, 1]), fighter("c", "heroes", [1, 2]), fighter("b", "monsters", [2, 1])
        )
        enc = started(data, [10])
        run(enc, {"actor": "a", "do": "move", "path": [[0, 1]]})
        assert rejected(enc, {"actor": "b", "do": "opportunity_attack", "target": "c"}).code == "not_allowed"
        assert (
            rejected(enc, {"actor": "b", "do": "opportunity_attack", "weapon": "x"}).code == "invalid_command"
        )

    def test_disengage_lasts_for_the_turn_and_the_count_for_the_round(self) -> None:
        # round 1: a disengages and walks away; round 2 its walking away provokes, at -3 again
        data = encounter(
            fighter("a", "heroes", [1, 1], speed_m=1.5), fighter("b", "monsters", [2, 1], skills={"light": 0})
        )
        enc = started(data, [12, 1])
        run(enc, {"actor": "a", "do": "disengage"}, {"actor": "a", "do": "move", "path": [[0, 1]]})
        run(enc, {"actor": "a", "do": "end_turn"}, {"actor": "b", "do": "move", "path": [[1, 1]]})
        res = enc.apply({"actor": "b", "do": "end_turn"})
        assert res.pending is None
        res = enc.apply({"actor": "a", "do": "move", "path": [[0, 2]]})
        assert res.pending is None  # [0, 2] is still next to b at [1, 1]
        run(enc, {"actor": "a", "do": "end_turn"}, {"actor": "b", "do": "end_turn"})
        res = enc.apply({"actor": "a", "do": "move", "path": [[0, 3]]})
        assert of_type(res.events, "opportunity")[0]["reason"] == "move"
        run(enc, {"actor": "b", "do": "opportunity_attack"})
        attack = of_type(run(enc, {"actor": "a", "do": "decline"}), "attack")[0]
        assert attack["modifiers"][-1] == {"source": "opportunity", "value": -3}
        assert resources(enc, "b")["opportunity_used"] == 1


# -- held actions ----------------------------------------------------------------------------------
def hold(actor: str, trigger: str, then: Json, **extra: Any) -> Json:
    return {"actor": actor, "do": "hold", "trigger": trigger, "then": {"actor": actor, **then}, **extra}


class TestHold:
    @pytest.mark.parametrize(
        ("cmd", "code"),
        [
            (hold("a", "sneezes", {"do": "attack"}), "invalid_command"),
            (
                {"actor": "a", "do": "hold", "trigger": "attacked", "then": {"actor": "b", "do": "attack"}},
                "invalid_command",
            ),
            (hold("a", "attacked", {"do": "end_turn"}), "not_allowed"),
            (hold("a", "attacked", {"do": "attack", "amount": 1}), "invalid_command"),
            (hold("a", "attacked", {"do": "attack"}, by="nobody"), "unknown_combatant"),
            (hold("a", "attacked", {"do": "attack", "weapon": "epee"}), "invalid_command"),
            (hold("a", "attacked", {"do": "cast", "spell": "orage"}), "not_allowed"),
            ({"actor": "a", "do": "hold", "trigger": "attacked"}, "invalid_command"),
        ],
    )
    def test_refused_holds(self, cmd: Json, code: str) -> None:
        enc = duel(a={"spells": [STORM]})
        assert rejected(enc, cmd).code == code

    def test_a_hold_needs_the_whole_full_action(self) -> None:
        enc = duel()
        run(enc, {"actor": "a", "do": "disengage", "pay": "full"})
        assert rejected(enc, hold("a", "attacked", {"do": "attack"})).code == "no_budget"

    def test_enemy_moves_fires_before_the_first_step_and_decline_keeps_holding(self) -> None:
        data = encounter(
            fighter("a", "heroes", [1, 1], weapons=[{**AXE, "reach_m": 4.5}]),
            fighter("b", "monsters", [4, 1]),
            fighter("c", "monsters", [4, 2]),
        )
        enc = started(data, [15, 3])
        run(enc, hold("a", "enemy_moves", {"do": "attack"}), {"actor": "a", "do": "end_turn"})
        res = enc.apply({"actor": "b", "do": "move", "path": [[5, 1]]})
        assert res.pending is not None and res.pending.choices == ("release", "decline")
        assert not of_type(res.events, "moved")
        run(enc, {"actor": "a", "do": "decline"})
        assert resources(enc, "a")["held"] == {
            "trigger": "enemy_moves",
            "then": {"actor": "a", "do": "attack"},
        }
        run(enc, {"actor": "b", "do": "end_turn"})
        res = enc.apply({"actor": "c", "do": "move", "path": [[3, 2]]})
        assert res.pending is not None and res.pending.actor == "a"
        events = run(enc, {"actor": "a", "do": "release"})
        assert events[0] == {"type": "action", "actor": "a", "action": "attack", "cost": [], "held": True}
        events = run(enc, {"actor": "c", "do": "decline"})
        assert [e["type"] for e in events] == ["attack", "damage", "moved"]
        assert resources(enc, "a")["held"] is None

    def test_no_decision_when_the_held_command_could_not_run(self) -> None:
        data = encounter(fighter("a", "heroes", [0, 1]), fighter("b", "monsters", [5, 1]))
        enc = started(data)
        run(enc, hold("a", "enemy_moves", {"do": "attack", "target": "b"}), {"actor": "a", "do": "end_turn"})
        assert enc.apply({"actor": "b", "do": "move", "path": [[6, 1]]}).pending is None

    def test_a_held_move_and_a_held_extended_defense(self) -> None:
        data = encounter(
            fighter("a", "heroes", [0, 1]), fighter("d", "heroes", [0, 3]), fighter("b", "monsters", [6, 1])
        )
        enc = started(data)
        run(enc, hold("a", "enemy_moves", {"do": "move", "path": [[0, 0]]}), {"actor": "a", "do": "end_turn"})
        run(enc, hold("d", "enemy_moves", {"do": "extended_defense"}), {"actor": "d", "do": "end_turn"})
        enc.apply({"actor": "b", "do": "move", "path": [[5, 1]]})
        events = run(enc, {"actor": "a", "do": "release"})
        assert of_type(events, "moved")[0]["to"] == [0, 0]
        events = run(enc, {"actor": "d", "do": "release"})
        assert of_type(events, "resource")[0] == {
            "type": "resource",
            "actor": "d",
            "resource": "reactions",
            "value": 3,
            "delta": 2,
        }
        assert enc.combatants["b"].pos == (5, 1)


# -- spells ----------------------------------------------------------------------------------------
class TestCasting:
    def caster(self, *spells: Json, dice: list[int] | None = None, **extra: Any) -> Encounter:
        data = encounter(
            fighter("m", "heroes", [0, 1], skills={"magic": 2}, spells=list(spells), weapons=[]),
            fighter("b", "monsters", [5, 1]),
            fighter("c", "monsters", [5, 2]),
            **extra,
        )
        return started(data, dice)

    def test_targets(self) -> None:
        short = {"id": "court", "cost": 1, "damage": "1d4", "range_m": 3}
        enc = self.caster(SPARK, short, {"id": "soin", "cost": 1})
        cast = {"actor": "m", "do": "cast"}
        assert rejected(enc, {**cast, "spell": "etincelle"}).code == "invalid_command"
        assert rejected(enc, {**cast, "spell": "etincelle", "targets": ["b", "c"]}).code == "not_allowed"
        assert rejected(enc, {**cast, "spell": "etincelle", "target": "nobody"}).code == "unknown_combatant"
        assert rejected(enc, {**cast, "spell": "court", "target": "b"}).code == "out_of_reach"
        assert rejected(enc, {**cast, "spell": "feu", "target": "b"}).code == "invalid_command"
        assert (
            rejected(enc, {**cast, "spell": "etincelle", "target": "b", "amount": 1}).code
            == "invalid_command"
        )
        events = run(enc, {**cast, "spell": "soin"})
        assert of_type(events, "spell_cast") == [
            {"type": "spell_cast", "caster": "m", "spell": "soin", "targets": []}
        ]

    def test_an_area_spell_strikes_each_target_in_turn(self) -> None:
        area = {"id": "boule", "cost": 1, "damage": "1d6", "area": True}
        enc = self.caster(area, dice=[12, 4, 13, 5])
        res = enc.apply({"actor": "m", "do": "cast", "spell": "boule", "targets": ["b", "c"]})
        assert res.pending is not None and res.pending.actor == "b"
        res = enc.apply({"actor": "b", "do": "decline"})
        assert [e["hp"] for e in of_type(res.events, "damage")] == [16]
        assert res.pending is not None and res.pending.actor == "c"
        res = enc.apply({"actor": "c", "do": "decline"})
        assert of_type(res.events, "attack")[0]["roll"] == 13
        assert of_type(res.events, "damage")[0]["hp"] == 15

    def test_a_spell_of_one_and_a_half_goes_off_in_one_turn(self) -> None:
        enc = self.caster({"id": "vague", "cost": 1.5, "damage": "1d4"}, dice=[10])
        events = run(enc, {"actor": "m", "do": "cast", "spell": "vague", "target": "b"})
        assert events[0]["cost"] == ["full", "bonus"]
        assert of_type(events, "spell_cast") and not of_type(events, "spell_started")

    def test_incantation_amounts(self) -> None:
        enc = self.caster(STORM)
        cast = {"actor": "m", "do": "cast", "spell": "orage", "target": "b"}
        assert rejected(enc, {**cast, "amount": 0.3}).code == "invalid_command"
        assert rejected(enc, {**cast, "amount": 2}).code == "no_budget"
        run(enc, {**cast, "amount": 1})
        assert resources(enc, "m")["incantation"] == {"spell": "orage", "progress": 1, "cost": 2}
        run(
            enc,
            {"actor": "m", "do": "end_turn"},
            {"actor": "b", "do": "end_turn"},
            {"actor": "c", "do": "end_turn"},
        )
        again = {"actor": "m", "do": "cast", "spell": "orage"}
        assert rejected(enc, {**again, "amount": 1.5}).code == "not_allowed"  # it needs only 1
        assert rejected(enc, {**again, "target": "c"}).code == "not_allowed"  # the targets are kept
        assert {c.amount for c in enc.legal_commands("m") if c.do == "cast"} == {None, 0.5, 1.0}

    def test_abandon_spell(self) -> None:
        enc = self.caster(STORM)
        assert rejected(enc, {"actor": "m", "do": "abandon_spell"}).code == "not_allowed"
        run(enc, {"actor": "m", "do": "cast", "spell": "orage", "target": "b"})
        events = run(enc, {"actor": "m", "do": "abandon_spell"})
        assert events == [{"type": "spell_lost", "caster": "m", "spell": "orage", "reason": "other_action"}]
        assert resources(enc, "m")["incantation"] is None

    def test_an_incanting_caster_is_offered_no_advanced_defence(self) -> None:
        enc = self.caster(STORM, SPARK, dice=[10])
        run(enc, {"actor": "m", "do": "cast", "spell": "orage", "target": "b", "amount": 1})
        run(enc, {"actor": "m", "do": "end_turn"})
        enc.apply({"actor": "gm", "do": "move_to", "target": "b", "to": [1, 1]})
        res = enc.apply({"actor": "b", "do": "attack", "target": "m"})
        assert res.pending is not None and "cast" not in res.pending.choices


# -- movement --------------------------------------------------------------------------------------
class TestMovement:
    def test_allies_can_be_crossed_enemies_cannot_and_out_enemies_can(self) -> None:
        data = encounter(
            fighter("a", "heroes", [0, 2]),
            fighter("f", "heroes", [1, 2]),
            fighter("b", "monsters", [0, 3], hp=0),
            fighter("e", "monsters", [4, 2]),
            height=5,
        )
        enc = started(data)
        assert rejected(enc, {"actor": "a", "do": "move", "path": [[1, 2]]}).code == "bad_path"
        through_e = [[1, 2], [2, 2], [3, 2], [4, 2], [5, 2]]
        assert rejected(enc, {"actor": "a", "do": "move", "path": through_e}).code == "bad_path"
        run(enc, {"actor": "a", "do": "move", "path": [[0, 3], [1, 3]]})
        assert enc.combatants["a"].pos == (1, 3)

    def test_a_mover_put_out_by_an_opportunity_stops_and_spends_what_it_walked(self) -> None:
        data = encounter(fighter("a", "heroes", [1, 1], hp=3), fighter("b", "monsters", [2, 1]))
        enc = started(data, [15, 8])
        run(
            enc,
            {"actor": "a", "do": "move", "path": [[0, 1], [0, 2]]},
            {"actor": "b", "do": "opportunity_attack"},
        )
        events = run(enc, {"actor": "a", "do": "decline"})
        assert not of_type(events, "moved")
        assert enc.combatants["a"].pos == (1, 1) and enc.combatants["a"].state == "out"
        assert resources(enc, "a")["movement_m"] == 10

    def test_legal_moves_fit_the_movement_left(self) -> None:
        enc = started(encounter(fighter("a", "heroes", [0, 0], speed_m=3), fighter("b", "monsters", [7, 3])))
        ends = {c.path[-1] for c in enc.legal_commands("a") if c.do == "move" and c.path}
        assert ends == {(1, 0), (2, 0), (0, 1), (0, 2), (1, 1), (2, 1), (1, 2)}
