"""What the built-in policies do, situation by situation, in each ruleset; and the policy registry."""

from __future__ import annotations

from typing import Any

import pytest

from tactica import Command, Encounter, load_encounter
from tactica.engine.errors import EncounterError
from tactica.engine.state import Window
from tactica.sim.policy import AGGRESSIVE, CAUTIOUS, Policy, make_policy, policy_names, register_policy
from tactica.sim.runner import Runner, assign_policies
from tactica.sim.sense.lagornis import LagornisSense
from tactica.sim.sense.terza import TerzaSense

from ..conftest import fighter as conftest_fighter
from ..conftest import pf1_encounter
from .helpers import scenario


def first_round(data: dict[str, Any], policies: dict[str, str] | None = None, seed: int = 1) -> Encounter:
    """Play round 1 of ``data`` (its initiative fixed) with the policies; return the encounter."""
    loaded = scenario(data).load()
    result, enc = Runner(loaded.setup, loaded.ruleset, policies or {}, max_rounds=1).play(0, seed)
    assert result.error is None, result.error
    return enc


def events_of(enc: Encounter, actor: str) -> list[dict[str, Any]]:
    """The events of ``actor``'s first turn (from its turn_started to its turn_ended)."""
    out: list[dict[str, Any]] = []
    inside = False
    for events in (enc.start_events or [], *enc.history):
        for ev in events:
            if ev["type"] == "turn_started" and ev["actor"] == actor:
                inside = True
            elif inside and ev["type"] == "turn_ended" and ev["actor"] == actor:
                return out
            elif inside:
                out.append(ev)
    return out


def actions(evs: list[dict[str, Any]], actor: str) -> list[str]:
    return [e["action"] for e in evs if e["type"] == "action" and e["actor"] == actor]


def attacks(evs: list[dict[str, Any]], attacker: str) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == "attack" and e["attacker"] == attacker]


# -- pf1 -----------------------------------------------------------------------------------------------
def pf1(*fighters: dict[str, Any], width: int = 10, first: str = "hero", **extra: Any) -> dict[str, Any]:
    """A pf1 encounter (tests/conftest.py) whose initiative puts ``first`` first."""
    ids = [f["id"] for f in fighters]
    return pf1_encounter(
        *fighters, width=width, height=5, initiative=[first, *[i for i in ids if i != first]], **extra
    )


def fighter(cid: str, side: str, at: list[int], **stats: Any) -> dict[str, Any]:
    """tests/conftest.py's fighter, sturdier (60 hp) and seasoned (bab 6: two attacks)."""
    return conftest_fighter(cid, side, at, **{"hp": 60, "bab": 6, "ac": 14, **stats})


def test_pf1_full_attack_when_someone_is_in_reach() -> None:
    enc = first_round(pf1(fighter("hero", "h", [2, 2]), fighter("orc", "m", [3, 2])))
    evs = events_of(enc, "hero")
    assert actions(evs, "hero") == ["attack", "full_attack"]  # the second attack makes it a full attack
    assert len(attacks(evs, "hero")) == 2  # bab 6: +6 and +1


def test_pf1_five_foot_step_then_full_attack() -> None:
    enc = first_round(pf1(fighter("hero", "h", [2, 2]), fighter("orc", "m", [4, 2])))
    evs = events_of(enc, "hero")
    assert actions(evs, "hero")[0] == "five_foot_step"
    assert len(attacks(evs, "hero")) == 2
    assert not [e for e in evs if e["type"] == "opportunity"]


def test_pf1_move_and_attack_when_a_move_away() -> None:
    enc = first_round(pf1(fighter("hero", "h", [1, 2]), fighter("orc", "m", [6, 2])))
    evs = events_of(enc, "hero")
    assert actions(evs, "hero") == ["move", "attack"]
    assert len(attacks(evs, "hero")) == 1


def test_pf1_aggressive_double_moves_cautious_moves_once() -> None:
    data = pf1(fighter("hero", "h", [0, 2]), fighter("orc", "m", [19, 2]), width=20)
    assert actions(events_of(first_round(data), "hero"), "hero") == ["move", "move"]
    assert actions(events_of(first_round(data, {"h": "cautious"}), "hero"), "hero") == ["move"]


def test_pf1_two_weapons_when_it_pays() -> None:
    twf = {
        "feats": ["two_weapon_fighting"],
        "weapons": [
            {"id": "sword", "damage": "1d8"},
            {"id": "dagger", "grip": "light", "damage": "1d4", "hand": "off"},
        ],
    }
    enc = first_round(pf1(fighter("hero", "h", [2, 2], **twf), fighter("orc", "m", [3, 2])))
    hits = attacks(events_of(enc, "hero"), "hero")
    assert [h["weapon"] for h in hits] == ["sword", "sword", "dagger"]


def test_pf1_cautious_withdraws_when_hurt_and_takes_its_opportunities() -> None:
    data = pf1(fighter("hero", "h", [2, 2], hp=10, max_hp=60), fighter("orc", "m", [3, 2]))
    evs = events_of(first_round(data, {"h": "cautious"}), "hero")
    assert actions(evs, "hero") == ["withdraw"]
    assert not [e for e in evs if e["type"] == "opportunity"]  # R-PF-WD-2: the start square is safe


def test_pf1_aggressive_takes_the_opportunity_a_shot_provokes() -> None:
    archer = fighter(
        "hero", "h", [2, 2], weapons=[{"id": "bow", "kind": "ranged", "damage": "1d8", "range_m": 30}]
    )
    enc = first_round(pf1(archer, fighter("orc", "m", [3, 2]), first="orc"))  # not flat-footed then
    evs = events_of(enc, "hero")
    assert [e["type"] for e in evs if e["type"] in ("opportunity", "attack")][:2] == ["opportunity", "attack"]
    assert attacks(evs, "orc")[0]["kind"] == "opportunity"


def test_pf1_caster_casts_when_the_spell_does_more() -> None:
    wizard = fighter(
        "hero",
        "h",
        [1, 2],
        bab=1,
        caster={"concentration": 5},
        weapons=[{"id": "staff", "damage": "1d4"}],
        spells=[{"id": "bolt", "level": 1, "damage": "5d6", "range_m": 30}],
    )
    evs = events_of(first_round(pf1(wizard, fighter("orc", "m", [6, 2]))), "hero")
    assert actions(evs, "hero") == ["cast"]
    assert [e["type"] for e in evs].count("spell_cast") == 1


# -- terza ----------------------------------------------------------------------------------------------
def terza(*fighters: dict[str, Any], first: str = "hero", **extra: Any) -> dict[str, Any]:
    ids = [f["id"] for f in fighters]
    return {
        "ruleset": "terza",
        "map": {"width": 14, "height": 5},
        "combatants": list(fighters),
        "initiative": [first, *[i for i in ids if i != first]],
        **extra,
    }


def swordsman(cid: str, side: str, at: list[int], **stats: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"hp": 30, "ac": 13, "weapons": [{"id": "sword", "damage": "1d8", "to_hit": 5}]}
    base.update(stats)
    return {"id": cid, "side": side, "at": at, "stats": base}


def test_terza_closing_in_ends_with_the_third_action_unless_the_trial_rule_forbids_it() -> None:
    data = terza(swordsman("hero", "h", [0, 2]), swordsman("orc", "m", [13, 2]))
    evs = events_of(first_round(data), "hero")
    assert actions(evs, "hero") == ["dash", "move", "third"]
    assert [e.get("kind") for e in evs if e["type"] == "action" and e["action"] == "third"] == ["defend"]
    data["variant"] = {"terza.third_action.no_after_move": True}
    assert actions(events_of(first_round(data), "hero"), "hero") == ["dash", "move"]


def test_terza_attack_action_makes_every_attack_then_no_third_action() -> None:
    data = terza(swordsman("hero", "h", [2, 2], attacks=2), swordsman("orc", "m", [3, 2]))
    evs = events_of(first_round(data), "hero")
    assert actions(evs, "hero") == ["attack"]
    assert len(attacks(evs, "hero")) == 2


def window(actor: str, choices: tuple[str, ...], **trigger: Any) -> Window:
    return Window(actor, choices, trigger)


def test_terza_press_and_round_end_choices() -> None:
    enc = load_encounter(
        terza(
            swordsman("hero", "h", [2, 2], skills=["incalzare"]),
            swordsman("orc", "m", [3, 2]),
            variant={"terza.third_action.disengage": True},
        )
    )
    enc.start()
    press = window("hero", ("press", "decline"), type="press", mover="orc")
    assert TerzaSense(AGGRESSIVE).answer(enc, press).do == "press"
    assert TerzaSense(CAUTIOUS).answer(enc, press).do == "press"  # incalzare: no save to fail
    enc.combatants["hero"].data.p = enc.combatants["orc"].data.p  # the same without incalzare
    assert TerzaSense(CAUTIOUS).answer(enc, press).do == "decline"
    end = window("hero", ("defend", "step", "disengage", "decline"), type="round_end")
    assert TerzaSense(AGGRESSIVE).answer(enc, end).do == "defend"
    enc.combatants["hero"].hp = 5  # hurt: cautious steps out of the zone, without provoking
    out = TerzaSense(CAUTIOUS).answer(enc, end)
    assert out.do == "disengage" and out.to is not None and out.to[0] < 2


# -- lagornis -------------------------------------------------------------------------------------------
def lagornis(*fighters: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "ruleset": "lagornis",
        "map": {"width": 12, "height": 5},
        "combatants": list(fighters),
        "initiative": [f["id"] for f in fighters],
        **extra,
    }


def raider(cid: str, side: str, at: list[int], **stats: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hp": 30,
        "skills": {"heavy": 3},
        "weapons": [{"id": "axe", "category": "heavy", "damage": "2d8"}],
    }
    base.update(stats)
    return {"id": cid, "side": side, "at": at, "stats": base}


def test_lagornis_reaction_choice_follows_the_defender() -> None:
    knight = raider(
        "knight",
        "h",
        [2, 2],
        skills={"shield": 4},
        weapons=[{"id": "shield", "category": "shield", "damage": "1d4", "durability": 40}],
    )
    rogue = raider("rogue", "h", [2, 3], adr=8, dodge_tokens=2, weapons=[])
    monk = raider("monk", "h", [2, 1], dex=12, weapons=[])
    enc = load_encounter(lagornis(raider("brute", "m", [3, 2]), knight, rogue, monk))
    enc.start()
    sense = LagornisSense(CAUTIOUS)

    def attacked(who: str, choices: tuple[str, ...]) -> Command:
        w = window(
            who,
            (*choices, "decline"),
            type="attack",
            attacker="brute",
            target=who,
            weapon="axe",
            kind="normal",
        )
        return sense.answer(enc, w)

    shield = attacked("knight", ("dodge", "parry", "dampen"))
    assert (shield.do, shield.weapon) == ("parry", "shield")  # a shield parry stops the blow
    assert attacked("rogue", ("dodge", "dampen")).do == "dodge"  # ADR 8 against +3
    assert attacked("monk", ("dodge", "dampen")).do == "dampen"  # DEX 12 takes 6 off a 2d8 blow


def test_lagornis_holds_its_attack_when_nobody_can_be_reached_and_releases_it() -> None:
    data = lagornis(raider("hero", "h", [0, 2], speed_m=3), raider("orc", "m", [11, 2]))
    evs = events_of(first_round(data, {"h": "cautious"}), "hero")
    held = [e for e in evs if e["type"] == "action" and e["action"] == "hold"]
    assert held and held[0]["trigger"] == "enemy_enters_reach"
    enc = load_encounter(data)
    enc.start()
    release = window("hero", ("release", "decline"), type="hold", trigger="enemy_enters_reach", by="orc")
    assert LagornisSense(AGGRESSIVE).answer(enc, release).do == "release"


# -- the registry and the assignment of policies ------------------------------------------------------------
def test_policy_registry_and_assignment() -> None:
    assert {"aggressive", "cautious", "random"} <= set(policy_names())

    class Idle(Policy):
        name = "idle"

    register_policy("idle", Idle)
    assert isinstance(make_policy("idle"), Idle)
    with pytest.raises(EncounterError, match="unknown policy 'nope'"):
        make_policy("nope")
    setup = scenario(pf1(fighter("hero", "h", [2, 2]), fighter("orc", "m", [3, 2]))).load().setup
    assert assign_policies(setup, {"h": "cautious", "orc": "random"}) == {"hero": "h", "orc": "orc"}
    assert assign_policies(setup, {"*": "random"}) == {"hero": "*", "orc": "*"}
    with pytest.raises(EncounterError, match="no side or combatant 'elves'"):
        assign_policies(setup, {"elves": "random"})


def test_a_policy_that_keeps_failing_has_its_turns_ended_and_counted() -> None:
    class Stubborn(Policy):
        name = "stubborn"

        def choose(self, enc: Encounter, me: Any) -> Command:
            return Command(actor=me.id, do="attack", target="nobody")

        def turn(self, enc: Encounter, me: Any) -> Any:
            while True:
                yield self.choose(enc, me)

    register_policy("stubborn", Stubborn)
    loaded = scenario(pf1(fighter("hero", "h", [2, 2]), fighter("orc", "m", [3, 2]))).load()
    result, _enc = Runner(loaded.setup, loaded.ruleset, {"h": "stubborn"}, max_rounds=2).play(0, 1)
    assert result.error is None
    assert result.refused == 2 * 12  # MAX_REFUSED_PER_TURN a turn, two turns
