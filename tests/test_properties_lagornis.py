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
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tactica import Command, Encounter, IllegalCommand, load_encounter
from tactica.rulesets.lagornis import RULESET as LG
from tactica.rulesets.lagornis.stats import CATEGORIES

from .engine.snapshot import dump
from .test_properties_pf1 import (
    FIGHTS,
    FORCED,
    JUNK_VALUES,
    MAX_STEPS,
    check_apply,
    check_events,
    check_hp_accounting,
    check_replay,
    check_undo_redo,
    legal_choice,
    non_negative,
    some_name,
    some_square,
)

Json = dict[str, Any]

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
    squares = [(x, y) for y in range(height) for x in range(width)]
    n = draw(st.integers(2, 5))
    at = draw(st.lists(st.sampled_from(squares), min_size=n, max_size=n, unique=True))
    free = [s for s in squares if s not in at]
    blocked = draw(st.lists(st.sampled_from(free), max_size=len(free) // 4, unique=True)) if free else []
    difficult = [s for s in free if s not in blocked and draw(st.integers(0, 7)) == 0]
    ids = [f"c{i}" for i in range(n)]
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
    if draw(st.booleans()):
        data["initiative"] = draw(st.permutations(ids))
    if draw(st.integers(0, 3)) == 0:
        data["surprise"] = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2, unique=True))
    if forced_dice:
        data["dice"] = draw(st.lists(st.integers(1, 20) | st.sampled_from([0, 21]), max_size=25))
    return data


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
    base = legal_choice(draw, enc) or Command(
        actor=draw(st.sampled_from(list(enc.combatants))), do="end_turn"
    )
    data = base.to_json()
    ids = list(enc.combatants)
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
        elif field in ("target", "actor"):
            data[field] = some_name(draw, enc, ids)
        elif field == "targets":
            data[field] = draw(st.lists(st.sampled_from([*ids, "nobody"]), max_size=3))
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
            data[field] = [list(some_square(draw, enc)) for _ in range(draw(st.integers(0, 4)))]
    return data


def gm_command(draw: st.DrawFn, enc: Encounter) -> Json:
    ids = list(enc.combatants)
    do = draw(st.sampled_from(["set_hp", "add_condition", "remove_condition", "move_to", "set_initiative"]))
    target = some_name(draw, enc, ids)
    if do == "set_hp":
        return {"actor": "gm", "do": do, "target": target, "hp": draw(st.integers(-5, 25))}
    if do in ("add_condition", "remove_condition"):
        return {
            "actor": "gm",
            "do": do,
            "target": target,
            "condition": draw(st.sampled_from(["off_balance", "x"])),
        }
    if do == "move_to":
        return {"actor": "gm", "do": do, "target": target, "to": list(some_square(draw, enc))}
    return {"actor": "gm", "do": do, "order": draw(st.permutations(ids))}


def junk(draw: st.DrawFn, enc: Encounter) -> Json:
    ids = list(enc.combatants)
    data: Json = {
        "actor": some_name(draw, enc, ids),
        "do": draw(st.sampled_from([*LG.actions, *LG.gm_actions, *LG.answers, "fly"])),
    }
    for f in draw(
        st.lists(
            st.sampled_from(["target", "weapon", "spell", "path", "amount", "pay", "by"]),
            max_size=3,
            unique=True,
        )
    ):
        data[f] = draw(st.sampled_from(JUNK_VALUES)) if draw(st.booleans()) else some_name(draw, enc, ids)
    return data


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
    for cid, c in enc.combatants.items():
        for name, value in view["combatants"][cid]["resources"].items():
            non_negative(value, f"{cid}.resources.{name}")
        non_negative({k: v for k, v in dump(c.data).items() if k != "p"}, f"{cid}.data")
        d = c.data
        assert d.full in (0, 0.5, 1) and d.bonus in (0, 0.5), (cid, d.full, d.bonus)
        assert c.state == LG.state_from(c), (cid, c.hp, c.state)
        broken = [w for w, b in view["combatants"][cid]["weapons"].items() if b["broken"]]
        assert broken == view["combatants"][cid]["broken"]
    if enc.pending is None and enc.current is not None:
        assert not LG.is_defeated(enc.current)
        assert enc.is_legal(Command(actor=enc.current.id, do="end_turn"))
    if enc.current is None and enc.pending is None:
        assert all(LG.is_defeated(c) for c in enc.order)


def check_all(enc: Encounter, data: Json) -> None:
    check_hp_accounting(enc, data)
    check_state(enc)
    check_reactions(enc, data)
    check_resource_log(enc, data)


def play(draw: st.DrawFn, data: Json, forced: bool = False) -> None:
    enc = load_encounter(data)
    try:
        start = enc.start()
    except IllegalCommand as exc:
        assert forced and exc.code in ("dice_exhausted", "bad_die")
        return
    check_events(start.events)
    check_all(enc, data)
    for _ in range(draw(st.integers(1, MAX_STEPS))):
        kind = draw(
            st.sampled_from(["legal"] * 8 + ["candidate"] * 2 + ["near_miss"] * 2 + ["gm", "junk", "undo"])
        )
        if kind == "undo":
            if enc.log:
                check_undo_redo(enc)
            continue
        cmd: Command | Json | None
        if kind == "legal":
            cmd = legal_choice(draw, enc)
            if cmd is None:
                cmd = gm_command(draw, enc)
            elif not forced:
                assert check_apply(enc, data, cmd, forced), f"legal command {cmd!r} refused"
                check_all(enc, data)
                continue
        elif kind == "candidate":
            cmd = candidate(draw, enc) or gm_command(draw, enc)
        elif kind == "near_miss":
            cmd = near_miss(draw, enc)
        elif kind == "gm":
            cmd = gm_command(draw, enc)
        else:
            cmd = junk(draw, enc)
        check_apply(enc, data, cmd, forced)
        check_all(enc, data)
    if not forced:
        check_replay(enc, data)


@FIGHTS
@given(encounters(), st.data())
def test_random_lagornis_fights_keep_every_invariant(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data)


@FORCED
@given(encounters(forced_dice=True), st.data())
def test_lagornis_forced_dice_running_out_midway_leave_no_trace(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data, forced=True)
