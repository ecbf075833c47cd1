"""pf1 details that a conformance case expresses badly: our choices where pf1.md is silent or terse,
and a few internals (damage modifiers) checked directly. Each test names the rule it is about."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica import Encounter, IllegalCommand, load_encounter
from tactica.engine.events import Event

from .conftest import fighter, pf1_encounter

Json = dict[str, Any]


def encounter(*combatants: Json, dice: list[int], **extra: Any) -> Encounter:
    enc = load_encounter(pf1_encounter(*combatants, **extra), dice=dice)
    enc.start()
    return enc


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def refused(enc: Encounter, command: Json) -> str:
    with pytest.raises(IllegalCommand) as info:
        enc.apply(command)
    return info.value.code


class TestDamageModifiers:
    """R-PF-ATK-3: the Str *modifier* is multiplied and rounded down, a penalty too (the spec's letter)."""

    @pytest.mark.parametrize(
        ("strength", "weapon", "expected"),
        [
            (8, {"id": "club", "grip": "two_handed", "damage": "1d6"}, 4 - 2),  # floor(-1 x 1.5) = -2
            (16, {"id": "club", "grip": "two_handed", "damage": "1d6"}, 4 + 4),  # floor(3 x 1.5) = 4
            (16, {"id": "club", "grip": "one_handed", "damage": "1d6"}, 4 + 3),
            (6, {"id": "sling", "kind": "ranged", "damage": "1d6", "range_m": 30}, 4),  # ranged: no Str
        ],
    )
    def test_main_hand(self, strength: int, weapon: Json, expected: int) -> None:
        enc = encounter(
            fighter("a", "h", [1, 1], scores={"str": strength}, bab=10, weapons=[weapon]),
            fighter("b", "m", [2, 1], ac=5, hp=30),
            dice=[10, 4],
            initiative=["a", "b"],
        )
        events = enc.apply({"actor": "a", "do": "attack", "target": "b"}).events
        assert of_type(events, "damage")[0]["amount"] == expected

    def test_off_hand_penalty_is_halved_rounding_down(self) -> None:
        # Str 6 (-2) x 0.5 = -1 on the off-hand dagger: 1d4 (3) - 1 = 2; the longsword gets the full -2
        enc = encounter(
            fighter(
                "a",
                "h",
                [1, 1],
                scores={"str": 6},
                bab=10,
                feats=["two_weapon_fighting"],
                weapons=[
                    {"id": "longsword", "damage": "1d8"},
                    {"id": "dagger", "grip": "light", "damage": "1d4", "hand": "off"},
                ],
            ),
            fighter("b", "m", [2, 1], ac=5, hp=30),
            dice=[10, 3, 10, 5],
            initiative=["a", "b"],
        )
        first = enc.apply(
            {"actor": "a", "do": "attack", "target": "b", "weapon": "dagger", "full_attack": True}
        )
        assert of_type(first.events, "damage")[0]["amount"] == 2
        second = enc.apply({"actor": "a", "do": "attack", "target": "b", "weapon": "longsword"})
        assert of_type(second.events, "damage")[0]["amount"] == 3


class TestTouchSpells:
    """Our choice (pf1.md is silent): touch spells roll a touch attack against touch AC."""

    def caster(self, **spell: Any) -> Json:
        return fighter(
            "ezren",
            "h",
            [1, 1],
            scores={"str": 12, "dex": 16, "int": 18},
            bab=2,
            caster={"concentration": 5},
            spells=[{"id": "zap", "level": 1, "touch": True, "damage": "1d6", **spell}],
            weapons=[],
        )

    def test_melee_touch_needs_an_adjacent_target_and_uses_str(self) -> None:
        far = fighter("orc", "m", [3, 1], scores={"dex": 12}, ac=18)
        enc = encounter(self.caster(), far, dice=[], initiative=["ezren", "orc"])
        assert (
            refused(enc, {"actor": "ezren", "do": "cast", "spell": "zap", "targets": ["orc"]})
            == "out_of_reach"
        )
        # touch AC = 10 + Dex 1 = 11, not its AC 18: 8 + bab 2 + Str 1 = 11 hits; 1d6 = 5
        near = fighter("orc", "m", [2, 1], scores={"dex": 12}, ac=18, weapons=[])
        enc = encounter(self.caster(), near, dice=[8, 5], initiative=["orc", "ezren"])
        enc.apply({"actor": "orc", "do": "end_turn"})  # no longer flat-footed
        events = enc.apply({"actor": "ezren", "do": "cast", "spell": "zap", "targets": ["orc"]}).events
        attack = of_type(events, "attack")[0]
        assert (attack["kind"], attack["touch"], attack["total"], attack["vs"], attack["hit"]) == (
            "normal",
            "melee",
            11,
            11,
            True,
        )
        assert of_type(events, "damage")[0]["amount"] == 5

    def test_ranged_touch_uses_dex_and_range_and_a_miss_deals_nothing(self) -> None:
        target = fighter("orc", "m", [6, 1], scores={"dex": 14}, ac=18)
        enc = encounter(self.caster(range_m=9), target, dice=[6], initiative=["orc", "ezren"])
        enc.apply({"actor": "orc", "do": "end_turn"})
        # 6 + 2 + Dex 3 = 11 vs touch AC 12: a miss, no damage die rolled (none is forced)
        events = enc.apply({"actor": "ezren", "do": "cast", "spell": "zap", "targets": ["orc"]}).events
        attack = of_type(events, "attack")[0]
        assert (attack["touch"], attack["total"], attack["vs"], attack["hit"]) == ("ranged", 11, 12, False)
        assert of_type(events, "damage") == []


class TestDexDenied:
    """R-PF-ATK-1 with R-PF-TURN-3 and R-PF-FR-RUN-2: only flat-footed and running deny Dex to AC."""

    @pytest.mark.parametrize(
        ("conditions", "feats", "ac"),
        [([], [], 16), (["blinded"], [], 16), (["running"], [], 14), (["running"], ["run"], 16)],
    )
    def test_ac_against_an_attack(self, conditions: list[str], feats: list[str], ac: int) -> None:
        target = fighter("b", "m", [2, 1], scores={"dex": 14}, ac=16, feats=feats)
        target["conditions"] = conditions
        # b acts first, so it is no longer flat-footed when a attacks
        enc = encounter(fighter("a", "h", [1, 1]), target, dice=[2], initiative=["b", "a"])
        enc.apply({"actor": "b", "do": "end_turn"})
        events = enc.apply({"actor": "a", "do": "attack", "target": "b"}).events
        assert of_type(events, "attack")[0]["vs"] == ac


class TestSpellLostReasons:
    def test_an_opportunity_that_disables_the_caster_loses_the_spell_as_defeated(self) -> None:
        # R-PF-AOO-5 / R-PF-FR-CAST-3: our reason for "disabled or worse" is "defeated"
        orc = fighter("orc", "m", [2, 1], weapons=[{"id": "club", "damage": "1d6"}], bab=5)
        ezren = fighter(
            "ezren",
            "h",
            [1, 1],
            hp=4,
            ac=10,
            caster={"concentration": 5},
            spells=[{"id": "zap", "level": 1, "damage": "1d6", "range_m": 30}],
        )
        enc = encounter(orc, ezren, dice=[10, 1], initiative=["orc", "ezren"])
        enc.apply({"actor": "orc", "do": "end_turn"})
        enc.apply({"actor": "ezren", "do": "cast", "spell": "zap", "targets": ["orc"]})
        events = enc.apply({"actor": "orc", "do": "opportunity_attack", "target": "ezren"}).events
        # 1d6 (1) + Str 3 = 4: hp 0
        assert [e["reason"] for e in of_type(events, "spell_lost")] == ["defeated"]
        assert of_type(events, "spell_cast") == [] and of_type(events, "check") == []


class TestLongerSpontaneousMetamagic:
    def test_one_minute_gains_one_more_turn(self) -> None:
        """R-PF-FR-MM-3, our reading of "1_minute -> one more turn": ten casting turns instead of nine,
        the spell in effect before the caster's turn eleven rounds after it began."""
        seoni = fighter(
            "seoni",
            "h",
            [0, 0],
            feats=["still_spell"],
            caster={"spontaneous": True, "concentration": 6},
            spells=[{"id": "storm", "level": 3, "casting_time": "1_minute", "damage": "1d6"}],
        )
        enc = encounter(seoni, fighter("orc", "m", [7, 7]), dice=[3], initiative=["seoni", "orc"])
        first = enc.apply(
            {
                "actor": "seoni",
                "do": "cast",
                "spell": "storm",
                "targets": ["orc"],
                "metamagic": ["still_spell"],
            }
        )
        assert of_type(first.events, "spell_started")[0]["completes"] == {"round": 12, "before": "seoni"}
        casting_turns = 0
        cast_in: int | None = None
        while cast_in is None:
            enc.apply({"actor": "seoni", "do": "end_turn"})
            for e in enc.apply({"actor": "orc", "do": "end_turn"}).events:
                if e.get("action") == "continue_casting":
                    casting_turns += 1
                if e["type"] == "spell_cast":
                    cast_in = enc.round
        assert (casting_turns, cast_in) == (10, 12)


class TestAnswersWithoutADecision:
    """format.md section 7: an answer with no window open is not_your_turn out of turn; on the
    actor's own turn it is not_allowed (there is nothing to answer)."""

    def test_codes(self) -> None:
        enc = encounter(fighter("a", "h", [1, 1]), fighter("b", "m", [2, 1]), dice=[], initiative=["a", "b"])
        assert refused(enc, {"actor": "b", "do": "decline"}) == "not_your_turn"
        assert refused(enc, {"actor": "b", "do": "opportunity_attack", "target": "a"}) == "not_your_turn"
        assert refused(enc, {"actor": "a", "do": "opportunity_attack", "target": "b"}) == "not_allowed"
        assert refused(enc, {"actor": "a", "do": "decline"}) == "not_allowed"


class TestStatsAndView:
    def test_unquoted_hand_off_in_yaml_is_the_off_hand(self, tmp_path: Path) -> None:
        # YAML 1.1 reads `off` as false; the spec writes `hand: off`
        path = tmp_path / "fight.yaml"
        path.write_text(
            "ruleset: pf1\nmap: {width: 5, height: 5}\ninitiative: [a, b]\ncombatants:\n"
            "  - {id: a, side: h, at: [1, 1], stats: {hp: 9, weapons: [{id: s, damage: 1d6},"
            " {id: d, grip: light, damage: 1d4, hand: off}]}}\n"
            "  - {id: b, side: m, at: [2, 1], stats: {hp: 9}}\n"
        )
        enc = load_encounter(path, dice=[])
        enc.start()
        assert enc.view()["combatants"]["a"]["wielding"] == ["s", "d"]

    def test_draw_weapon_adds_to_what_is_wielded(self) -> None:
        a = fighter(
            "a", "h", [1, 1], weapons=[{"id": "sword", "damage": "1d8"}, {"id": "axe", "damage": "1d6"}]
        )
        enc = encounter(a, fighter("b", "m", [4, 4]), dice=[], initiative=["a", "b"])
        enc.apply({"actor": "a", "do": "draw_weapon", "weapon": "axe"})
        assert enc.view()["combatants"]["a"]["wielding"] == ["sword", "axe"]

    def test_no_five_foot_step_from_difficult_ground(self) -> None:
        enc = encounter(
            fighter("a", "h", [1, 1]),
            fighter("b", "m", [4, 4]),
            dice=[],
            initiative=["a", "b"],
            map={"width": 8, "height": 8, "difficult": [[1, 1]]},
        )
        assert enc.view()["combatants"]["a"]["resources"]["five_foot_step"] is False
        assert refused(enc, {"actor": "a", "do": "five_foot_step", "to": [2, 1]}) == "terrain"


class TestFullAttackDeclaration:
    def test_full_attack_true_on_a_later_attack_is_harmless(self) -> None:
        """R-PF-FR-FA-2: a further attack makes a full attack whether or not it says so."""
        enc = encounter(
            fighter("a", "h", [1, 1], bab=6),
            fighter("b", "m", [2, 1], hp=40),
            dice=[2, 2],
            initiative=["a", "b"],
        )
        enc.apply({"actor": "a", "do": "attack", "target": "b"})
        events = enc.apply({"actor": "a", "do": "attack", "target": "b", "full_attack": True}).events
        assert of_type(events, "action")[0]["action"] == "full_attack"

    def test_a_declared_full_attack_cannot_be_undeclared(self) -> None:
        enc = encounter(
            fighter("a", "h", [1, 1], bab=6),
            fighter("b", "m", [2, 1], hp=40),
            dice=[2, 2],
            initiative=["a", "b"],
        )
        enc.apply({"actor": "a", "do": "attack", "target": "b", "full_attack": True})
        assert (
            refused(enc, {"actor": "a", "do": "attack", "target": "b", "full_attack": False}) == "not_allowed"
        )

    def test_staggered_cannot_declare_a_full_attack(self) -> None:
        """R-PF-ECO-5: like every full-round action, refused with ``condition``."""
        a = fighter("a", "h", [1, 1], bab=6)
        a["conditions"] = ["staggered"]
        enc = encounter(a, fighter("b", "m", [2, 1]), dice=[], initiative=["a", "b"])
        assert refused(enc, {"actor": "a", "do": "attack", "target": "b", "full_attack": True}) == "condition"


class TestLegalCommandsAgreeWithApply:
    def test_every_listed_command_is_accepted(self) -> None:
        """One source of legality: in a mid-fight position, each command legal_commands lists applies."""
        data = pf1_encounter(
            fighter("a", "h", [2, 2], bab=6, feats=["run"]),
            fighter("b", "m", [3, 2]),
            fighter(
                "c", "m", [5, 5], weapons=[{"id": "bow", "kind": "ranged", "damage": "1d6", "range_m": 30}]
            ),
            initiative=["b", "c", "a"],
            map={"width": 7, "height": 7, "difficult": [[1, 1]], "very_difficult": [[2, 3]]},
        )
        enc = load_encounter(data, seed=3)
        enc.start()
        enc.apply({"actor": "b", "do": "end_turn"})
        enc.apply({"actor": "c", "do": "end_turn"})
        legal = list(enc.legal_commands("a"))
        assert {c.do for c in legal} >= {"move", "attack", "five_foot_step", "run", "withdraw", "end_turn"}
        for cmd in legal:
            trial = load_encounter(data, seed=3)
            trial.start()
            trial.apply({"actor": "b", "do": "end_turn"})
            trial.apply({"actor": "c", "do": "end_turn"})
            trial.apply(cmd)  # raises if legal_commands listed a refused command


def test_a_spell_target_named_twice_is_refused() -> None:
    caster = {"caster": {"concentration": 5}, "spells": [{"id": "bolt", "damage": "1d6", "range_m": 30}]}
    enc = encounter(
        fighter("m", "h", [0, 0], **caster), fighter("o", "x", [3, 3]), dice=[], initiative=["m", "o"]
    )
    assert (
        refused(enc, {"actor": "m", "do": "cast", "spell": "bolt", "targets": ["o", "o"]})
        == "invalid_command"
    )
    assert (
        refused(enc, {"actor": "m", "do": "cast", "spell": "bolt", "targets": ["o"], "target": "o"})
        == "invalid_command"
    )


def test_casting_is_not_a_condition_to_set_by_hand() -> None:
    enc = encounter(fighter("a", "h", [0, 0]), fighter("o", "x", [3, 3]), dice=[], initiative=["a", "o"])
    for do in ("add_condition", "remove_condition"):
        assert refused(enc, {"actor": "gm", "do": do, "target": "a", "condition": "casting"}) == "not_allowed"


def test_a_mover_downed_on_an_allys_square_ends_on_the_last_free_one() -> None:
    # R-PF-MOV-3: a path may pass through allies but never end on an occupied square
    enc = encounter(
        fighter("a", "h", [0, 3], hp=1),
        fighter("b", "h", [1, 3]),
        fighter("orc", "m", [2, 2]),
        dice=[15, 8],
        initiative=["orc", "a", "b"],
    )
    enc.apply({"actor": "orc", "do": "end_turn"})
    enc.apply({"actor": "a", "do": "move", "path": [[1, 3], [0, 4]]})
    enc.apply({"actor": "orc", "do": "opportunity_attack"})
    a, b = enc.combatants["a"], enc.combatants["b"]
    assert a.state == "dying" and a.pos == (0, 3) and b.pos == (1, 3)
    assert enc.occupied[(0, 3)] is a and enc.occupied[(1, 3)] is b


def test_use_ability_takes_special_or_ability() -> None:
    breath = {"specials": [{"id": "breath", "damage": "2d6", "range_m": 6}]}
    enc = encounter(
        fighter("d", "m", [0, 0], **breath), fighter("v", "h", [2, 0]), dice=[3, 4], initiative=["d", "v"]
    )
    result = enc.apply({"actor": "d", "do": "use_ability", "ability": "breath", "target": "v"})
    assert of_type(result.events, "damage")[0]["amount"] == 7
    enc.undo()
    assert refused(enc, {"actor": "d", "do": "use_ability", "target": "v"}) == "invalid_command"
    both = {"actor": "d", "do": "use_ability", "special": "breath", "ability": "breath", "target": "v"}
    assert refused(enc, both) == "invalid_command"
    assert enc.apply({"actor": "d", "do": "use_ability", "special": "breath", "target": "v"}).events
