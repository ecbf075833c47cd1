"""The terza ruleset: variants, stats, the third action's options and legal commands, and the
behaviours the conformance cases do not pin down one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tactica import Command, Encounter, EncounterError, IllegalCommand, load_encounter
from tactica.cli import app
from tactica.rulesets import available, find_ruleset
from tactica.rulesets.terza import RULESET, facing_towards
from tactica.rulesets.terza.combat import guarded
from tactica.rulesets.terza.third_rules import KINDS, ThirdChoices

from .conftest import CONFORMANCE

SWORD = {"id": "spada", "kind": "melee", "damage": "1d8", "to_hit": 4, "damage_bonus": 2}


def fighter(cid: str, side: str, at: list[int], facing: str | None = None, **stats: Any) -> dict[str, Any]:
    """A terza combatant mapping: a sword in hand unless ``stats`` says otherwise."""
    base: dict[str, Any] = {"hp": 20, "ac": 12, "weapons": [SWORD]}
    base.update(stats)
    out: dict[str, Any] = {"id": cid, "side": side, "at": at, "stats": base}
    if facing:
        out["facing"] = facing
    return out


def encounter(*combatants: dict[str, Any], size: int = 8, **extra: Any) -> Encounter:
    data: dict[str, Any] = {
        "ruleset": "terza",
        "map": {"width": size, "height": size},
        "combatants": list(combatants),
        "seed": 3,
    }
    data.update(extra)
    enc = load_encounter(data)
    enc.start()
    return enc


def apply(enc: Encounter, **cmd: Any) -> list[dict[str, Any]]:
    return enc.apply(cmd).events


def error(enc: Encounter, **cmd: Any) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as info:
        enc.apply(cmd)
    return info.value


def options(enc: Encounter, actor: str) -> dict[str, str | None]:
    return dict(RULESET.third_action_options(enc, actor))


def kinds_offered(enc: Encounter, actor: str) -> set[str]:
    """The third-action kinds legal_commands yields for ``actor`` now."""
    out = set()
    for cmd in enc.legal_commands(actor):
        if cmd.do == "third":
            assert cmd.kind is not None
            out.add(cmd.kind)
        elif cmd.do in KINDS and enc.pending is not None:
            out.add(cmd.do)
    return out


# -- registration and variants -------------------------------------------------------------------------
class TestVariants:
    def test_terza_is_discovered(self) -> None:
        assert "terza" in available()
        assert find_ruleset("terza") is RULESET

    def test_the_five_switches_are_declared_once_with_type_default_and_description(self) -> None:
        declared = {v.name: (v.type, v.default) for v in RULESET.variants}
        assert declared == {
            "terza.third_action.disengage": (bool, False),
            "terza.third_action.no_after_move": (bool, False),
            "terza.zoc.guarded_exempt": (bool, True),
            "terza.press.mode": (str, "follow"),
            "terza.defend.ac_bonus": (int, 2),
        }
        assert all(v.description and "\n" not in v.description for v in RULESET.variants)
        assert next(v for v in RULESET.variants if v.name == "terza.press.mode").choices == ("follow", "deny")

    def test_rules_command_lists_rules_and_variants(self) -> None:
        result = CliRunner().invoke(app, ["rules", "terza"], env={"COLUMNS": "250"})
        assert result.exit_code == 0, result.output
        for rule in RULESET.rules:
            assert rule.id in result.output
        for v in RULESET.variants:
            assert v.name in result.output

    @pytest.mark.parametrize(
        ("variant", "words"),
        [
            ({"terza.third_action.dsengage": True}, ["unknown variant", "terza.third_action.dsengage"]),
            ({"terza.zoc.guarded_exempt": "yes"}, ["must be true or false"]),
            ({"terza.defend.ac_bonus": True}, ["must be a whole number"]),
            ({"terza.defend.ac_bonus": 2.5}, ["must be a whole number"]),
            ({"terza.press.mode": "chase"}, ["must be one of follow, deny"]),
        ],
    )
    def test_a_bad_variant_in_a_file_is_a_load_error(
        self, tmp_path: Path, variant: dict[str, Any], words: list[str]
    ) -> None:
        path = tmp_path / "fight.yaml"
        data = {
            "ruleset": "terza",
            "variant": variant,
            "map": {"width": 4, "height": 4},
            "combatants": [fighter("a", "h", [0, 0])],
        }
        path.write_text(yaml.safe_dump(data))
        with pytest.raises(EncounterError) as info:
            load_encounter(path)
        text = str(info.value)
        assert "fight.yaml" in text and "variant" in text
        for w in words:
            assert w in text

    def test_variants_reach_the_encounter(self) -> None:
        enc = encounter(fighter("a", "h", [0, 0]), variant={"terza.press.mode": "deny"})
        assert enc.variants["terza.press.mode"] == "deny"
        assert enc.variants["terza.defend.ac_bonus"] == 2


# -- stats ------------------------------------------------------------------------------------------------
class TestStats:
    @pytest.mark.parametrize(
        ("stats", "where"),
        [
            ({"hp": 5, "bab": 3}, "combatants[0].stats.bab"),
            ({"hp": 5, "skills": ["parry"]}, "combatants[0].stats.skills[0]"),
            ({"hp": 5, "weapons": [SWORD], "wielding": ["ascia"]}, "combatants[0].stats"),
            ({"hp": 5, "spells": [{"id": "f", "save": "reflex"}]}, "combatants[0].stats.spells[0]"),
            ({"hp": 5, "items": [{"id": "w", "effect": {"spell": "nope"}}]}, "combatants[0].stats"),
            ({"hp": 5, "shield": "spada", "weapons": [SWORD]}, "combatants[0].stats"),
        ],
    )
    def test_bad_stats_are_load_errors_with_their_path(self, stats: dict[str, Any], where: str) -> None:
        data = {
            "ruleset": "terza",
            "map": {"width": 4, "height": 4},
            "combatants": [{"id": "a", "side": "h", "at": [0, 0], "stats": stats}],
        }
        with pytest.raises(EncounterError) as info:
            load_encounter(data)
        assert where in str(info.value)

    def test_defaults(self) -> None:
        enc = encounter(
            {
                "id": "a",
                "side": "h",
                "at": [0, 0],
                "stats": {"hp": 7, "scores": {"dex": 14}, "weapons": [SWORD]},
            }
        )
        a = enc.combatants["a"]
        view = enc.view()["combatants"]["a"]
        assert (view["max_hp"], view["wielding"]) == (7, ["spada"])
        p = a.data.p
        assert (p.ac, p.reflex, p.initiative, p.speed_units, p.attacks) == (12, 2, 2, 6, 1)
        assert view["resources"]["movement_m"] == 9


# -- facing -----------------------------------------------------------------------------------------------
class TestFacing:
    @pytest.mark.parametrize(
        ("to", "facing"),
        [
            ((5, 3), "E"),
            ((3, 0), "N"),
            ((0, 3), "W"),
            ((3, 6), "S"),
            ((5, 1), "NE"),
            ((4, 7), "S"),
            ((6, 5), "SE"),
        ],
    )
    def test_facing_towards(self, to: tuple[int, int], facing: str) -> None:
        assert facing_towards((3, 3), to) == facing

    def test_a_combatant_without_facing_faces_its_nearest_enemy(self) -> None:
        enc = encounter(
            fighter("a", "h", [1, 1]),
            fighter("b", "h", [2, 2], facing="S"),
            fighter("far", "m", [7, 1]),
            fighter("near", "m", [1, 4]),
        )
        facings = {cid: c["facing"] for cid, c in enc.view()["combatants"].items()}
        # near: b at [2, 2] is nearer than a (5 against 9), up and right: NE
        assert facings == {"a": "S", "b": "S", "far": "W", "near": "NE"}

    def test_gm_set_facing_checks_the_facing(self) -> None:
        enc = encounter(fighter("a", "h", [1, 1]), fighter("m", "m", [5, 5]))
        assert error(enc, actor="gm", do="set_facing", target="a", facing="UP").code == "invalid_command"
        events = apply(enc, actor="gm", do="set_facing", target="a", facing="W")
        assert events == [
            {"type": "gm", "what": "set_facing", "detail": {"target": "a", "facing": "W", "was": "SE"}}
        ]


# -- the third action: options, legal commands, windows -------------------------------------------------
class TestThirdActionOptions:
    def duel(self, **extra: Any) -> Encounter:
        return encounter(
            fighter("goblin", "m", [4, 3]),
            fighter(
                "aldo", "h", [3, 3], facing="E", shield="scudo", weapons=[SWORD, {**SWORD, "id": "pugnale"}]
            ),
            initiative=["aldo", "goblin"],
            dice=[10, 5],
            **extra,
        )

    def test_on_its_own_turn_every_kind_with_a_reason_when_refused(self) -> None:
        enc = self.duel()
        opts = options(enc, "aldo")
        assert list(opts) == list(KINDS)
        assert opts["defend"] is None and opts["rotate"] is None
        assert opts["draw"] is None and opts["shield"] is None and opts["sheathe"] is None
        assert opts["step"] is None  # forward is the goblin's square, back is free
        assert "removed for the trial" in (opts["disengage"] or "")
        assert "adjacent enemy leaves" in (opts["press"] or "")
        assert kinds_offered(enc, "aldo") == {k for k, why in opts.items() if why is None}

    def test_a_kind_with_nothing_to_offer_says_why(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3]),
            fighter("bea", "h", [2, 3]),
            fighter("aldo", "h", [3, 3], facing="E"),
            initiative=["aldo", "goblin", "bea"],
        )
        opts = options(enc, "aldo")
        assert opts["step"] == "aldo: [4, 3] is occupied by goblin; aldo: [2, 3] is occupied by bea"
        assert opts["draw"] == "aldo has no weapon to draw: every one is in hand"
        assert opts["shield"] == "aldo has no shield"
        assert "step" not in kinds_offered(enc, "aldo")

    def test_step_is_offered_when_either_square_is_free(self) -> None:
        enc = self.duel()
        assert options(enc, "aldo")["step"] is None  # back, [2, 3], is free
        steps = [c for c in enc.legal_commands("aldo") if c.do == "third" and c.kind == "step"]
        assert steps == [Command(actor="aldo", do="third", kind="step", to=(2, 3))]

    def test_legal_commands_offer_exactly_the_allowed_kinds_and_refused_ones_fail_with_the_reason(
        self,
    ) -> None:
        enc = self.duel(variant={"terza.third_action.disengage": True})
        opts = options(enc, "aldo")
        allowed = {k for k, why in opts.items() if why is None}
        assert allowed == {"defend", "step", "disengage", "rotate", "draw", "shield", "sheathe"}
        assert kinds_offered(enc, "aldo") == allowed
        for cmd in enc.legal_commands("aldo"):
            assert enc.is_legal(cmd)
        exc = enc.why_illegal(Command(actor="aldo", do="third", kind="press"))
        assert exc is not None and exc.code == "not_allowed" and exc.message == opts["press"]

    def test_after_an_attack_nothing_is_allowed_and_every_reason_says_why(self) -> None:
        enc = self.duel()
        apply(enc, actor="aldo", do="attack", target="goblin", weapon="spada")
        opts = options(enc, "aldo")
        assert all(why is not None and "made an attack" in why for why in opts.values())
        assert kinds_offered(enc, "aldo") == set()
        exc = error(enc, actor="aldo", do="third", kind="defend")
        assert exc.code == "not_allowed" and "made an attack" in exc.message

    def test_the_round_end_window_offers_the_allowed_kinds(self) -> None:
        enc = self.duel()
        apply(enc, actor="aldo", do="end_turn")
        apply(enc, actor="goblin", do="end_turn")
        assert enc.pending is not None and enc.pending.actor == "aldo"
        opts = options(enc, "aldo")
        allowed = [k for k, why in opts.items() if why is None]
        assert list(enc.pending.choices) == [*allowed, "decline"]
        assert enc.pending.to_json()["choices"] == [*allowed, "decline"]
        offered = {c.do for c in enc.legal_commands("aldo")}
        assert offered == {*allowed, "decline"}
        # the other combatant is not in a window: nothing for it now
        assert set(options(enc, "goblin").values()) == {"aldo must decide first"}

    def test_a_window_answer_must_be_an_allowed_kind(self) -> None:
        enc = self.duel()
        apply(enc, actor="aldo", do="end_turn")
        apply(enc, actor="goblin", do="end_turn")
        assert error(enc, actor="aldo", do="press").code == "decision_pending"
        assert error(enc, actor="aldo", do="third", kind="press").code == "decision_pending"
        assert error(enc, actor="aldo", do="third").code == "invalid_command"
        assert error(enc, actor="aldo", do="rotate").code == "invalid_command"  # no facing
        assert error(enc, actor="aldo", do="defend", to=[2, 3]).code == "invalid_command"
        assert error(enc, actor="aldo", do="decline", kind="defend").code == "invalid_command"
        assert error(enc, actor="aldo", do="step", to=[3, 4]).code == "bad_path"
        # both forms answer alike
        events = apply(enc, actor="aldo", do="third", kind="rotate", facing="N")
        assert events[0] == {
            "type": "action",
            "actor": "aldo",
            "action": "third",
            "cost": ["third"],
            "kind": "rotate",
            "facing": "N",
        }

    def test_the_press_window_offers_press_only(self) -> None:
        enc = self.duel()
        apply(enc, actor="aldo", do="move", path=[[2, 3], [1, 3]])
        assert enc.pending is not None and enc.pending.actor == "goblin"
        assert enc.pending.choices == ("press", "decline")
        opts = options(enc, "goblin")
        assert [k for k, why in opts.items() if why is None] == ["press"]
        assert "only press" in (opts["defend"] or "")
        assert {c.do for c in enc.legal_commands("goblin")} == {"press", "decline"}

    def test_the_kind_id_on_its_own_turn_is_the_third_action(self) -> None:
        enc = self.duel()
        events = apply(enc, actor="aldo", do="defend")
        assert events[0]["action"] == "third" and events[0]["kind"] == "defend"
        assert {"type": "turn_ended", "actor": "aldo"} in events
        enc2 = self.duel()
        assert error(enc2, actor="aldo", do="press").code == "not_allowed"

    def test_third_choices_accept_the_third_form(self) -> None:
        choices = ThirdChoices(("defend", "decline"))
        assert "third" in choices and "defend" in choices and "rotate" not in choices
        assert list(choices) == ["defend", "decline"]


class TestThirdActionOncePerRound:
    def test_a_press_spends_the_round_s_third_action(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3], skills=["incalzare"]),
            fighter("aldo", "h", [3, 3]),
            initiative=["aldo", "goblin"],
        )
        apply(enc, actor="aldo", do="move", path=[[2, 3], [1, 3]])
        apply(enc, actor="goblin", do="press")
        apply(enc, actor="aldo", do="end_turn")
        exc = error(enc, actor="goblin", do="third", kind="defend")
        assert exc.code == "no_budget" and "already used its third action" in exc.message
        # nor does it get the end-of-round window
        apply(enc, actor="goblin", do="end_turn")
        assert enc.pending is not None and enc.pending.actor == "aldo"

    def test_one_press_window_per_presser_per_movement(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3]),
            fighter("aldo", "h", [3, 3]),
            initiative=["aldo", "goblin"],
        )
        # leaves the zone, comes back, leaves again: one window only
        apply(enc, actor="aldo", do="move", path=[[2, 3], [3, 2], [2, 1]])
        assert enc.pending is not None and enc.pending.trigger["at"] == [3, 3]
        events = apply(enc, actor="goblin", do="decline")
        assert enc.pending is None
        assert events[-1]["type"] == "moved" and events[-1]["to"] == [2, 1]

    def test_a_presser_that_attacked_on_its_turn_gets_no_window(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3]),
            fighter("aldo", "h", [3, 3]),
            initiative=["goblin", "aldo"],
            dice=[1],
        )
        apply(enc, actor="goblin", do="attack", target="aldo")
        apply(enc, actor="goblin", do="end_turn")
        apply(enc, actor="aldo", do="move", path=[[2, 3], [1, 3]])
        assert enc.pending is None


class TestPressFollow:
    """R-TA-3-7: the presser goes to the free square next to the mover cheapest to reach; ties by
    the shortest straight line from where it stands, then the lowest y, then the lowest x."""

    def follow(self, mover_at: list[int], path: list[list[int]], blocker_at: list[int] | None) -> list[int]:
        others = [fighter("blocker", "m", blocker_at, weapons=[])] if blocker_at else []
        enc = encounter(
            fighter("goblin", "m", [3, 3], skills=["incalzare"]),
            *others,
            fighter("aldo", "h", mover_at),
            initiative=["aldo", "goblin", *(["blocker"] if blocker_at else [])],
        )
        apply(enc, actor="aldo", do="move", path=path)
        events = apply(enc, actor="goblin", do="press")
        assert events[-1]["actor"] == "goblin" and events[-1]["type"] == "moved"
        assert enc.pending is None
        to: list[int] = events[-1]["to"]
        return to

    def test_the_cheapest_square_wins(self) -> None:
        # aldo ends at [1, 6]: [2, 5] costs 2 squares, every other free neighbour 3 or more
        assert self.follow([2, 3], [[1, 4], [1, 5], [1, 6]], None) == [2, 5]

    def test_equal_cost_goes_to_the_shortest_straight_line(self) -> None:
        # aldo ends at [6, 3]: [5, 2], [5, 3], [5, 4] all cost 2; [5, 3] is 2 away in a straight line
        assert self.follow([4, 3], [[5, 2], [6, 3]], None) == [5, 3]

    def test_equal_lines_go_to_the_lowest_y(self) -> None:
        # aldo ends at [5, 5] and [4, 4] is taken (an ally of the goblin, a place to pass, not to
        # stop): [5, 4] and [4, 5] both cost 2 and lie sqrt(5) away; y decides before x
        assert self.follow([2, 4], [[2, 5], [3, 6], [4, 6], [5, 5]], [4, 4]) == [5, 4]

    def test_then_the_lowest_x(self) -> None:
        # aldo ends at [3, 6], [3, 5] is taken: [2, 5] and [4, 5] cost 2, lie sqrt(5) away, same y
        assert self.follow([3, 4], [[2, 5], [3, 6]], [3, 5]) == [2, 5]

    def test_out_of_reach_means_no_follow(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3], skills=["incalzare"], speed_m=1.5),
            fighter("aldo", "h", [3, 3]),
            initiative=["aldo", "goblin"],
        )
        apply(enc, actor="aldo", do="move", path=[[2, 3], [1, 3], [0, 3]])
        events = apply(enc, actor="goblin", do="press")
        assert [e for e in events if e["type"] == "moved"] == [events[-1]]
        assert enc.combatants["goblin"].pos == (4, 3)


# -- zones of control and opportunity attacks -------------------------------------------------------------
class TestOpportunities:
    def test_zone_of_control_squares(self) -> None:
        enc = encounter(
            fighter("lancia", "m", [3, 3], weapons=[{**SWORD, "id": "lancia", "reach_m": 3}]),
            fighter("nudo", "m", [0, 0], weapons=[]),
            fighter("lottatore", "m", [7, 7], weapons=[], skills=["unarmed_combat"]),
        )
        assert len(RULESET.zone_of_control(enc, "lancia")) == 24
        assert RULESET.zone_of_control(enc, "nudo") == []
        assert sorted(RULESET.zone_of_control(enc, "lottatore")) == [(6, 6), (6, 7), (7, 6)]

    @pytest.mark.parametrize("condition", ["stunned", "paralyzed", "incapacitated"])
    def test_a_combatant_that_cannot_act_takes_no_opportunity(self, condition: str) -> None:
        goblin = fighter("goblin", "m", [5, 3])
        goblin["conditions"] = [condition]
        enc = encounter(goblin, fighter("bruno", "h", [2, 3], wielding=[]), initiative=["bruno", "goblin"])
        events = apply(enc, actor="bruno", do="move", path=[[3, 3], [4, 3]])
        assert enc.pending is None and not [e for e in events if e["type"] == "opportunity"]

    def test_an_opportunity_answer_is_checked(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [5, 3], weapons=[SWORD, {**SWORD, "id": "arco", "kind": "ranged"}]),
            fighter("bruno", "h", [2, 3], wielding=[]),
            fighter("carla", "h", [0, 0]),
            initiative=["bruno", "goblin", "carla"],
            dice=[10, 1],
        )
        apply(enc, actor="bruno", do="move", path=[[3, 3], [4, 3]])
        assert error(enc, actor="goblin", do="opportunity_attack", target="carla").code == "not_allowed"
        assert error(enc, actor="goblin", do="opportunity_attack", weapon="arco").code == "not_allowed"
        assert error(enc, actor="goblin", do="opportunity_attack", weapon="ascia").code == "invalid_command"
        assert error(enc, actor="goblin", do="opportunity_attack", weapon="unarmed").code == "not_allowed"
        assert error(enc, actor="goblin", do="opportunity_attack", to=[1, 1]).code == "invalid_command"
        assert error(enc, actor="carla", do="end_turn").code == "decision_pending"
        events = apply(enc, actor="goblin", do="opportunity_attack", target="bruno", weapon="spada")
        assert [e["type"] for e in events][:3] == ["action", "attack", "damage"]

    def test_a_mover_put_out_stops_where_it_was_struck(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [5, 3], weapons=[{**SWORD, "damage": "1d4", "damage_bonus": 20}]),
            fighter("bruno", "h", [2, 3], wielding=[]),
            fighter("carla", "h", [0, 0]),
            initiative=["bruno", "goblin", "carla"],
            dice=[15, 1],
        )
        apply(enc, actor="bruno", do="move", path=[[3, 3], [4, 3], [4, 4]])
        events = apply(enc, actor="goblin", do="opportunity_attack")
        types = [e["type"] for e in events]
        assert "state" in types and enc.combatants["bruno"].state == "out"
        assert enc.combatants["bruno"].pos == (3, 3)
        assert next(e for e in events if e["type"] == "moved")["to"] == [3, 3]
        # out during its own turn: the turn ends
        assert enc.turn == "goblin"

    def test_paths_pass_allies_not_enemies(self) -> None:
        enc = encounter(
            fighter("aldo", "h", [1, 1]),
            fighter("bea", "h", [2, 1]),
            fighter("goblin", "m", [1, 2]),
            initiative=["aldo", "bea", "goblin"],
        )
        assert error(enc, actor="aldo", do="move", path=[[1, 2], [1, 3]]).code == "bad_path"
        assert error(enc, actor="aldo", do="move", path=[[2, 1]]).code == "bad_path"
        apply(enc, actor="aldo", do="move", path=[[2, 1], [3, 1]])
        # the goblin, adjacent when aldo set off, may press as he leaves its zone
        assert enc.pending is not None and enc.pending.actor == "goblin"
        events = apply(enc, actor="goblin", do="decline")
        assert events[-1]["to"] == [3, 1] and enc.combatants["bea"].pos == (2, 1)


# -- spells and items -------------------------------------------------------------------------------------
class TestSpellsAndItems:
    def test_a_damaging_reaction_spell_answering_an_attack_strikes_the_attacker(self) -> None:
        maga = fighter(
            "maga",
            "h",
            [3, 3],
            weapons=[],
            spells=[{"id": "ritorsione", "casting_time": "reaction", "damage": "1d6"}],
        )
        enc = encounter(fighter("goblin", "m", [4, 3]), maga, initiative=["goblin", "maga"], dice=[4, 10, 5])
        apply(enc, actor="goblin", do="attack", target="maga")
        assert enc.pending is not None and enc.pending.choices == ("cast", "decline")
        assert enc.pending.trigger == {
            "type": "attack",
            "attacker": "goblin",
            "target": "maga",
            "weapon": "spada",
        }
        assert [c.to_json() for c in enc.legal_commands("maga")] == [
            {"actor": "maga", "do": "cast", "spell": "ritorsione"},
            {"actor": "maga", "do": "decline"},
        ]
        assert error(enc, actor="maga", do="cast", spell="nope").code == "invalid_command"
        events = apply(enc, actor="maga", do="cast", spell="ritorsione")
        assert {
            "type": "spell_cast",
            "caster": "maga",
            "spell": "ritorsione",
            "targets": ["goblin"],
        } in events
        assert enc.combatants["goblin"].hp == 16
        assert [e["type"] for e in events][-2:] == ["attack", "damage"]

    def test_an_item_whose_effect_names_a_spell_casts_it(self) -> None:
        maga = fighter(
            "maga",
            "h",
            [3, 3],
            spells=[{"id": "fiamma", "damage": "1d6"}],
            items=[{"id": "bacchetta", "use": "bonus", "effect": "fiamma"}],
        )
        enc = encounter(maga, fighter("goblin", "m", [4, 3]), initiative=["maga", "goblin"], dice=[6])
        events = apply(enc, actor="maga", do="use_item", item="bacchetta", target="goblin")
        assert events[0] == {
            "type": "action",
            "actor": "maga",
            "action": "use_item",
            "cost": ["bonus"],
            "item": "bacchetta",
        }
        assert enc.combatants["goblin"].hp == 14
        assert error(enc, actor="maga", do="cast", spell="fiamma", target="goblin").code == "not_allowed"

    def test_touch_spells_reach_adjacent_targets_and_guard_the_caster(self) -> None:
        maga = fighter(
            "maga",
            "h",
            [1, 3],
            weapons=[],
            spells=[{"id": "tocco", "casting_time": "bonus", "touch": True, "damage": "1d4"}],
        )
        enc = encounter(maga, fighter("goblin", "m", [4, 3]), initiative=["maga", "goblin"], dice=[2])
        assert error(enc, actor="maga", do="cast", spell="tocco", target="goblin").code == "out_of_reach"
        apply(enc, actor="maga", do="move", path=[[2, 3]])
        # moving into the goblin's zone now would provoke (unguarded) ...
        assert not is_guarded(enc, "maga")
        apply(enc, actor="maga", do="move", path=[[3, 3]])
        assert enc.pending is not None
        apply(enc, actor="goblin", do="decline")
        apply(enc, actor="maga", do="cast", spell="tocco", target="goblin")
        # ... after a touch spell this turn she is guarded: leaving the zone provokes nothing
        assert is_guarded(enc, "maga")
        events = apply(enc, actor="maga", do="move", path=[[2, 2]])
        assert not [e for e in events if e["type"] == "opportunity"]
        assert enc.pending is not None and enc.pending.trigger["type"] == "press"  # not a provocation


def is_guarded(enc: Encounter, cid: str) -> bool:
    return guarded(enc, enc.combatants[cid])


# -- atomicity and undo -----------------------------------------------------------------------------------
class TestAtomicity:
    def test_a_rejected_window_answer_changes_nothing(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3]),
            fighter("aldo", "h", [3, 3]),
            initiative=["aldo", "goblin"],
            dice=[12, 5],
        )
        apply(enc, actor="aldo", do="move", path=[[2, 3], [1, 3]])
        before = (enc.view(), enc.dice.position, len(enc.log))
        error(enc, actor="goblin", do="third", kind="defend")
        assert (enc.view(), enc.dice.position, len(enc.log)) == before

    def test_undo_takes_back_a_press_and_its_follow(self) -> None:
        enc = encounter(
            fighter("goblin", "m", [4, 3], skills=["incalzare"]),
            fighter("aldo", "h", [3, 3]),
            initiative=["aldo", "goblin"],
        )
        apply(enc, actor="aldo", do="move", path=[[2, 3], [1, 3], [0, 3]])
        pending_view = enc.view()
        apply(enc, actor="goblin", do="press")
        assert enc.combatants["goblin"].pos == (1, 3)
        enc.undo()
        assert enc.view() == pending_view


def test_every_variant_value_is_exercised_by_a_conformance_case() -> None:
    """Each boolean switch both ways, every choice of a choice switch, and the default and another
    value of a number switch, set explicitly in some terza case's ``variant:``."""
    seen: dict[str, set[Any]] = {v.name: set() for v in RULESET.variants}
    for path in sorted((CONFORMANCE / "terza").glob("*.yaml")):
        for name, value in (yaml.safe_load(path.read_text()).get("variant") or {}).items():
            seen[name].add(value)
    for v in RULESET.variants:
        if v.type is bool:
            wanted = {True, False}
        elif v.choices is not None:
            wanted = set(v.choices)
        else:
            wanted = {v.default}
            assert len(seen[v.name]) >= 2, f"{v.name}: no case sets a value other than the default"
        assert wanted <= seen[v.name], f"{v.name}: values never exercised: {wanted - seen[v.name]}"
