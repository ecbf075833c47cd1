"""Property tests: random small lagornis fights driven by random command sequences keep the engine's
promises (the same ones as pf1's, see test_properties_pf1) and lagornis's own:

- reactions used in a round never exceed the reactions available that round (1, +1 for each
  bonus_reaction, +2 for extended_defense), counted from the events and seen in the state;
- every ``reaction`` event's penalty is the rule's for its rank (R-LG-REA-3, with the encounter's
  variants), its rank counted from the round's events;
- dodge tokens, fatigue and weapon durability are resources the log accounts for: each ``resource``
  event's value is the previous one plus its delta, and the final state shows the last value;
- a broken weapon never attacks or parries again; the economy never goes below zero.

Each example builds a random encounter (2-5 combatants, weapons of every category with low
durability, spells of 0.5 to 3 actions, random variants, surprise, fixed or rolled initiative) and
plays mostly legal commands (answers to windows included), near-misses, GM overrides, junk and undos.
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tactica import Command, Encounter
from tactica.rulesets.lagornis import RULESET as LG
from tactica.rulesets.lagornis.stats import CATEGORIES

from . import properties as prop
from .engine.snapshot import dump

Json = dict[str, Any]

FIGHTS, FORCED = prop.fight_settings(100, 60)
MAX_STEPS = 80

# -- random encounters -----------------------------------------------------------------------------
DAMAGE = ["1d4", "1d6", "1d8", "2d6", "1d8+1", "3"]
SKILL_NAMES = [*CATEGORIES, "magic", "course", "defense"]


@st.composite
def weapons(draw: st.DrawFn) -> list[Json]:
    out = []
    for i in range(draw(st.integers(0, 3))):
        w: Json = {"id": f"w{i}", "category": draw(st.sampled_from(CATEGORIES))}
        w["damage"] = draw(st.sampled_from(DAMAGE))
        if draw(st.booleans()):
            w["durability"] = draw(st.integers(0, 6))  # low: weapons break within a fight
        if draw(st.integers(0, 3)) == 0:
            w["reach_m"] = draw(st.sampled_from([3, 4.5, 12]))
        for flag in ("unparryable", "area"):
            if draw(st.integers(0, 4)) == 0:
                w[flag] = True
        if draw(st.booleans()):
            w["bonus"] = draw(st.integers(-2, 3))
        out.append(w)
    return out


@st.composite
def spells(draw: st.DrawFn) -> list[Json]:
    out = []
    for i in range(draw(st.integers(0, 3))):
        sp: Json = {"id": f"s{i}", "cost": draw(st.sampled_from([0.5, 0.5, 1, 1.5, 2, 3]))}
        if draw(st.integers(0, 4)) > 0:
            sp["damage"] = draw(st.sampled_from(DAMAGE))
        if draw(st.booleans()):
            sp["range_m"] = draw(st.sampled_from([1.5, 4.5, 12]))
        for flag in ("unparryable", "area"):
            if draw(st.integers(0, 3)) == 0:
                sp[flag] = True
        out.append(sp)
    return out


@st.composite
def stats(draw: st.DrawFn) -> Json:
    s: Json = {
        "hp": draw(st.integers(-2, 0)) if draw(st.integers(0, 12)) == 0 else draw(st.integers(1, 20)),
        "adr": draw(st.integers(-1, 6)),
        "dex": draw(st.integers(-1, 6)),
        "speed_m": draw(st.sampled_from([0, 1.5, 4.5, 10])),
        "skills": draw(st.dictionaries(st.sampled_from(SKILL_NAMES), st.integers(0, 4), max_size=4)),
        "weapons": draw(weapons()),
        "spells": draw(spells()),
    }
    for key, low, high in (("defense", 5, 16), ("dodge_tokens", 0, 3), ("fatigue", 0, 3)):
        if draw(st.booleans()):
            s[key] = draw(st.integers(low, high))
    return s


@st.composite
def variants(draw: st.DrawFn) -> Json:
    out: Json = {}
    choices: dict[str, st.SearchStrategy[Any]] = {
        "lagornis.reaction_penalty_base": st.integers(0, 4),
        "lagornis.reaction_penalty_first_x": st.integers(0, 2),
        "lagornis.cast.full_action_worth": st.sampled_from([1.0, 1.5]),
        "lagornis.defense.passive_default": st.integers(6, 14),
        "lagornis.course.metres_per_rank": st.sampled_from([1.5, 2.0, 3.0]),
        "lagornis.dodge.tokens_per_fight": st.integers(0, 3),
        "lagornis.fatigue.effect": st.sampled_from(["none", "roll_penalty", "dodge_penalty"]),
        "lagornis.reaction.ties": st.sampled_from(["attacker", "defender"]),
        "lagornis.reaction.failed_reaction": st.sampled_from(["as_unanswered", "hits"]),
        "lagornis.attack.hit_on_equal": st.booleans(),
        "lagornis.surprise.surprised_react": st.booleans(),
    }
    for name, strategy in choices.items():
        if draw(st.booleans()):
            out[name] = draw(strategy)
    return out


@st.composite
def encounters(draw: st.DrawFn, forced_dice: bool = False) -> Json:
    width, height = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    squares, at = prop.draw_places(draw, width, height)
    free = [s for s in squares if s not in at]
    blocked = draw(st.lists(st.sampled_from(free), max_size=len(free) // 4, unique=True)) if free else []
    difficult = [s for s in free if s not in blocked and draw(st.integers(0, 7)) == 0]
    ids = [f"c{i}" for i in range(len(at))]
    sides = ["red", "blue"]
    data: Json = {
        "ruleset": "lagornis",
        "variant": draw(variants()),
        "map": {
            "width": width,
            "height": height,
            "blocked": [list(s) for s in blocked],
            "difficult": [list(s) for s in difficult],
        },
        "combatants": [
            {
                "id": cid,
                "side": sides[i % 2] if i < 2 else draw(st.sampled_from(sides)),
                "at": list(at[i]),
                "stats": draw(stats()),
                **({"conditions": ["off_balance"]} if draw(st.integers(0, 5)) == 0 else {}),
            }
            for i, cid in enumerate(ids)
        ],
        "seed": draw(st.integers(0, 2**31 - 1)),
    }
    return prop.draw_opening(draw, data, ids, 3, forced_dice, [0, 21])


# -- random commands -------------------------------------------------------------------------------
def candidate(draw: st.DrawFn, enc: Encounter) -> Command | None:
    """Any combatant's candidate command: legal, or refused by a real rule (budget, reach, turn...)."""
    actor = draw(st.sampled_from(list(enc.combatants)))
    c = enc.combatants[actor]
    cands = [cmd for a in LG.actions.values() if a.candidates for cmd in a.candidates(enc, c)]
    if enc.pending is not None and enc.pending.actor == actor:
        cands += list(LG.candidates(enc, actor))
    return draw(st.sampled_from(cands)) if cands else None


def near_miss(draw: st.DrawFn, enc: Encounter) -> Command | Json:
    """A legal command with something changed: often still legal, often not."""
    base = prop.near_miss_base(draw, enc, prop.legal_choice)
    data = base.to_json()
    c = enc.combatants.get(base.actor)
    own_weapons = list(c.data.p.weapons) if c else []
    own_spells = list(c.data.p.spells) if c else []
    for _ in range(draw(st.integers(1, 2))):
        field = draw(
            st.sampled_from(
                ["weapon", "spell", "target", "targets", "amount", "pay", "path", "actor", "trigger"]
            )
        )
        if field == "weapon":
            data[field] = draw(st.sampled_from([*own_weapons, "axe"]))
        elif field == "spell":
            data[field] = draw(st.sampled_from([*own_spells, "fly"]))
        elif field == "amount":
            data[field] = draw(st.sampled_from([0.5, 1, 1.5, 2, 0.25, 0, -1]))
        elif field == "pay":
            data[field] = draw(st.sampled_from(["bonus", "full", "half", "reaction"]))
        elif field == "trigger":
            data[field] = draw(st.sampled_from(["attacked", "enemy_moves", "ally_attacked", "sneezes"]))
            data.setdefault(
                "then", {"actor": base.actor, "do": draw(st.sampled_from(["attack", "end_turn"]))}
            )
        else:
            data[field] = prop.some_field(draw, enc, field)
    return data


def lg_gm_command(draw: st.DrawFn, enc: Encounter) -> Json:
    return prop.gm_command(
        draw, enc, dos=prop.GM_DOS, hp=(-5, 25), conditions=["off_balance", "x"], spoil_order=False
    )


def lg_junk(draw: st.DrawFn, enc: Encounter) -> Json:
    return prop.junk(
        draw,
        enc,
        dos=[*LG.actions, *LG.gm_actions, *LG.answers, "fly"],
        fields=["target", "weapon", "spell", "path", "amount", "pay", "by"],
        values=prop.JUNK_VALUES,
        unknown_field=False,
    )


# -- lagornis invariants ---------------------------------------------------------------------------
def variant(data: Json, name: str) -> Any:
    return data["variant"].get(name, next(v.default for v in LG.variants if v.name == name))


def expected_penalty(data: Json, adr: int, rank: int) -> int:
    """R-LG-REA-3 written out again: ceil(ADR / 2) free, then base + X, X from first_x."""
    free = max(0, (adr + 1) // 2)
    if rank <= free:
        return 0
    return int(
        variant(data, "lagornis.reaction_penalty_base") + variant(data, "lagornis.reaction_penalty_first_x")
    ) + (rank - free - 1)


def check_reactions(enc: Encounter, data: Json) -> None:
    """Reactions per round within what is available; every penalty the rule's for its rank."""
    adr = {c["id"]: c["stats"]["adr"] for c in data["combatants"]}
    used: dict[str, int] = defaultdict(int)
    available: dict[str, int] = defaultdict(lambda: 1)
    for events in [enc.start_events or [], *enc.history]:
        for e in events:
            if e["type"] == "round_ended":
                used.clear()
                available.clear()
            elif e["type"] == "action" and e["action"] == "bonus_reaction":
                available[e["actor"]] += 1
            elif e["type"] == "action" and e["action"] == "extended_defense":
                available[e["actor"]] += 2
            elif e["type"] == "reaction":
                used[e["actor"]] += 1
                rank = used[e["actor"]]
                assert rank <= available[e["actor"]], ("more reactions than available", e)
                assert e["penalty"] == expected_penalty(data, adr[e["actor"]], rank), (rank, e)
    view = enc.view()["combatants"]
    for cid in enc.combatants:
        res = view[cid]["resources"]
        assert res["reactions_used"] == used[cid], (cid, res)
        assert res["reactions"] + res["reactions_used"] == available[cid], (cid, res)


def check_resource_log(enc: Encounter, data: Json) -> None:
    """Dodge tokens, fatigue and weapon durability: the log's values chain and end at the state's."""
    value: dict[tuple[str, str], Any] = {}
    for c in data["combatants"]:
        s = c["stats"]
        value[(c["id"], "dodge_tokens")] = s.get(
            "dodge_tokens", variant(data, "lagornis.dodge.tokens_per_fight")
        )
        value[(c["id"], "fatigue")] = s.get("fatigue", 0)
        for w in s["weapons"]:
            value[(c["id"], f"weapon:{w['id']}")] = w.get("durability", 10)
    for events in [enc.start_events or [], *enc.history]:
        for e in events:
            if e["type"] == "resource" and (e["actor"], e["resource"]) in value:
                key = (e["actor"], e["resource"])
                assert e["value"] == value[key] + e["delta"] and e["value"] >= 0, (value[key], e)
                value[key] = e["value"]
            elif e["type"] == "attack" and (e["attacker"], f"weapon:{e['weapon']}") in value:
                assert value[(e["attacker"], f"weapon:{e['weapon']}")] > 0, ("a broken weapon attacked", e)
            elif e["type"] == "reaction" and e["reaction"] == "parry":
                assert value[(e["actor"], f"weapon:{e['weapon']}")] > 0, ("a broken weapon parried", e)
    for (cid, name), v in value.items():
        assert enc.view()["combatants"][cid]["resources"][name] == v, (cid, name)


def check_state(enc: Encounter) -> None:
    view = enc.view()
    prop.check_counts(enc, view, lambda data: {k: v for k, v in dump(data).items() if k != "p"})
    for cid, c in enc.combatants.items():
        d = c.data
        assert d.full in (0, 0.5, 1) and d.bonus in (0, 0.5), (cid, d.full, d.bonus)
        broken = [w for w, b in view["combatants"][cid]["weapons"].items() if b["broken"]]
        assert broken == view["combatants"][cid]["broken"]
    prop.check_turn(enc, LG)


def check_all(enc: Encounter, data: Json) -> None:
    prop.check_hp_accounting(enc, data)
    check_state(enc)
    check_reactions(enc, data)
    check_resource_log(enc, data)


LG_FIGHT = prop.Fight(
    legal_choice=prop.legal_choice,
    candidate=candidate,
    near_miss=near_miss,
    gm_command=lg_gm_command,
    junk=lg_junk,
    check_start=check_all,
    check_step=check_all,
    max_steps=MAX_STEPS,
    start_untouched=False,
)
play = partial(prop.play, LG_FIGHT)


@FIGHTS
@given(encounters(), st.data())
def test_random_lagornis_fights_keep_every_invariant(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data)


@FORCED
@given(encounters(forced_dice=True), st.data())
def test_lagornis_forced_dice_running_out_midway_leave_no_trace(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data, forced=True)
