"""Property tests: random small pf1 fights driven by random command sequences keep the engine's promises.

Each example builds a random encounter (2-5 combatants on a small map with difficult, very difficult
and blocked squares; melee, reach, double, off-hand and ranged weapons; casters with spells of every
casting time and metamagic; specials) and plays a random sequence of commands: mostly legal ones
(decision answers included), plus near-misses made from legal ones, GM overrides, malformed
commands and undos. After every command:

- a rejected command leaves everything identical (a deep snapshot: every combatant slot and its
  ruleset data, occupancy, order, pending window, dice position and generator state, log, history),
  and ``why_illegal`` predicted exactly that error; an accepted one was predicted legal;
- nothing ever raises anything but ``IllegalCommand``;
- no resource goes negative; each state matches its hit points; the living hold their squares;
- hit points equal the starting hit points minus the damage events (reset by GM ``set_hp``);
- every event survives a JSON round trip unchanged;
- whoever must act has something legal to do (no deadlock), and every legal command is accepted;
- undo followed by the same command gives the same events and the same state.

At the end the command log, passed through its JSON form, is replayed on a fresh encounter and must
give the same events byte for byte and the same state. A second test forces short dice lists so
commands fail midway (``dice_exhausted``, ``bad_die``) and checks the rebuild leaves no trace.

``TACTICA_PROPERTY_EXAMPLES`` raises the number of examples (and randomises them) for a longer hunt.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tactica import Command, Encounter
from tactica.rulesets.pf1 import RULESET as PF1
from tactica.rulesets.pf1.stats import FEATS

from . import properties as prop

Json = dict[str, Any]

FIGHTS, FORCED = prop.fight_settings(100, 60)
MAX_STEPS = 80

# -- random encounters -----------------------------------------------------------------------------
WEAPONS: list[Json] = [
    {"id": "longsword", "damage": "1d8", "crit": "19-20/x2"},
    {"id": "greataxe", "grip": "two_handed", "damage": "1d12", "crit": "x3"},
    {"id": "dagger", "grip": "light", "hand": "off", "damage": "1d4", "crit": "19-20/x2"},
    {"id": "shortsword", "grip": "light", "damage": "1d6"},
    {"id": "glaive", "grip": "two_handed", "reach_m": 3, "damage": "1d10", "crit": "x3"},
    {"id": "whip", "grip": "one_handed", "reach_m": 4.5, "damage": "1d3"},
    {"id": "staff", "grip": "two_handed", "double": True, "damage": "1d6"},
    {"id": "shortbow", "kind": "ranged", "grip": "two_handed", "damage": "1d6", "crit": "x3", "range_m": 18},
    {"id": "sling", "kind": "ranged", "damage": "1d4"},
]
DAMAGE = ["1d6", "2d4+1", "3", "1d8-1", "1d4-2", "2d6", "1d10+4", "3d6+6"]
CASTING_TIMES = ["swift", "standard", "full_round", "1_round", "1_minute"]
CONDITIONS = [
    "blinded",
    "invisible",
    "staggered",
    "fighting_defensively",
    "running",
    "resting",
    "unconscious",
]


@st.composite
def weapons(draw: st.DrawFn) -> list[Json]:
    chosen = draw(st.lists(st.sampled_from(WEAPONS), max_size=3, unique_by=lambda w: w["id"]))
    out = []
    for w in chosen:
        w = dict(w)
        if draw(st.booleans()):
            w["attack_bonus"] = draw(st.integers(-2, 4))
            w["damage_bonus"] = draw(st.integers(-3, 4))
        out.append(w)
    return out


@st.composite
def spells(draw: st.DrawFn) -> list[Json]:
    n = draw(st.integers(1, 4))
    out = []
    for i in range(n):
        spell: Json = {
            "id": f"spell{i}",
            "level": draw(st.integers(0, 9)),
            "casting_time": draw(st.sampled_from(CASTING_TIMES)),
            "touch": draw(st.booleans()),
            "spontaneous": draw(st.booleans()),
        }
        if draw(st.booleans()):
            spell["damage"] = draw(st.sampled_from(DAMAGE))
        if draw(st.booleans()):
            spell["range_m"] = draw(st.sampled_from([1.5, 4.5, 9, 30]))
        out.append(spell)
    return out


@st.composite
def stats(draw: st.DrawFn) -> Json:
    s: Json = {
        "hp": draw(st.integers(-4, 0)) if draw(st.integers(0, 9)) == 0 else draw(st.integers(1, 30)),
        "scores": {
            "str": draw(st.integers(6, 20)),
            "dex": draw(st.integers(6, 20)),
            "con": draw(st.integers(1, 18)),
        },
        "bab": draw(st.integers(0, 16)),
        "speed_m": draw(st.sampled_from([0, 1.5, 3, 6, 9, 12])),
        "armor": draw(st.sampled_from(["none", "light", "medium", "heavy"])),
        "feats": draw(st.lists(st.sampled_from(FEATS), max_size=5, unique=True)),
        "weapons": draw(weapons()),
    }
    if draw(st.booleans()):
        s["ac"] = draw(st.integers(8, 24))
    if draw(st.booleans()):
        s["max_hp"] = s["hp"] + draw(st.integers(0, 10))
    if draw(st.booleans()):
        s["initiative"] = draw(st.integers(-2, 6))
    if draw(st.booleans()):
        s["caster"] = {"spontaneous": draw(st.booleans()), "concentration": draw(st.integers(0, 15))}
        s["spells"] = draw(spells())
    if draw(st.integers(0, 3)) == 0:
        s["specials"] = [
            {
                "id": f"special{i}",
                "action": draw(st.sampled_from(["standard", "full_round"])),
                "provokes": draw(st.booleans()),
                **({"damage": draw(st.sampled_from(DAMAGE))} if draw(st.booleans()) else {}),
                **({"range_m": draw(st.sampled_from([1.5, 6, 30]))} if draw(st.booleans()) else {}),
            }
            for i in range(draw(st.integers(1, 2)))
        ]
    return s


@st.composite
def encounters(draw: st.DrawFn, forced_dice: bool = False) -> Json:
    return prop.draw_encounter(
        draw,
        ruleset="pf1",
        terrain=["difficult", "very_difficult", "blocked"],
        terrain_share=3,
        stats=stats,
        conditions=CONDITIONS,
        variant=lambda draw: {"pf1.reach.second_diagonal": draw(st.booleans())},
        surprise_odds=3,
        forced_dice=forced_dice,
    )


# -- random commands -------------------------------------------------------------------------------
def candidate(draw: st.DrawFn, enc: Encounter) -> Command | None:
    """Any combatant's candidate command: legal or refused by a real rule (budget, reach, terrain...)."""
    actor = draw(st.sampled_from(list(enc.combatants)))
    cands = list(PF1.candidates(enc, actor))
    if enc.pending is not None and enc.pending.actor != actor:
        c = enc.combatants[actor]
        cands = [cmd for a in PF1.actions.values() if a.candidates for cmd in a.candidates(enc, c)]
    return draw(st.sampled_from(cands)) if cands else None


NEAR_MISS_FIELDS = [
    "defensively",
    "full_attack",
    "metamagic",
    "hand",
    "weapon",
    "target",
    "targets",
    "to",
    "path",
    "actor",
]


def near_miss(draw: st.DrawFn, enc: Encounter) -> Command | Json:
    """A legal command with something changed: often still legal, often not."""
    base = prop.near_miss_base(draw, enc, prop.legal_choice)
    data = base.to_json()
    c = enc.combatants.get(base.actor)
    own = {
        "weapon": list(c.data.p.weapons) if c else [],
        "spell": list(c.data.p.spells) if c else [],
        "special": list(c.data.p.specials) if c else [],
    }
    for _ in range(draw(st.integers(1, 2))):
        field = draw(st.sampled_from(NEAR_MISS_FIELDS))
        if field in ("defensively", "full_attack"):
            data[field] = draw(st.booleans())
        elif field == "metamagic":
            data[field] = draw(st.lists(st.sampled_from([*FEATS, "fly_spell"]), max_size=2, unique=True))
        elif field == "hand":
            data[field] = draw(st.sampled_from(["main", "off", "tail"]))
        elif field == "weapon":
            data[field] = draw(st.sampled_from([*own["weapon"], "axe"]))
        else:
            data[field] = prop.some_field(draw, enc, field)
    if base.do == "cast" and own["spell"] and draw(st.booleans()):
        data["spell"] = draw(st.sampled_from(own["spell"]))
    return data


def pf1_gm_command(draw: st.DrawFn, enc: Encounter) -> Json:
    return prop.gm_command(
        draw, enc, dos=prop.GM_DOS, hp=(-40, 40), conditions=[*sorted(PF1.conditions), "on_fire"]
    )


def pf1_junk(draw: st.DrawFn, enc: Encounter) -> Json:
    """A random mapping: any actor, any action id, any fields, well or badly typed."""
    return prop.junk(
        draw,
        enc,
        dos=[*PF1.actions, *PF1.gm_actions, *PF1.answers, "fly"],
        fields=["target", "weapon", "spell", "special", "path", "to", "hp", "condition", "order", "by"],
        values=prop.JUNK_VALUES,
        typed=prop.typed_value,
    )


# -- invariants ------------------------------------------------------------------------------------
def check_pf1_events(events: list[Json]) -> None:
    for e in events:
        if e["type"] == "attack":
            # R-PF-ATK-1: natural 20 hits, natural 1 misses, otherwise total against AC
            assert 1 <= e["roll"] <= 20, e
            assert e["hit"] == (e["roll"] == 20 or (e["roll"] != 1 and e["total"] >= e["vs"])), e
            assert e["hit"] or not e["critical"], e


def check_all_events(events: list[Json]) -> None:
    prop.check_events(events)
    check_pf1_events(events)


def check_state(enc: Encounter) -> None:
    view = prop.check_view_json(enc)
    prop.check_counts(enc, view)
    prop.check_occupancy(enc, PF1)
    prop.check_turn(enc, PF1)


PF1_FIGHT = prop.Fight(
    legal_choice=prop.legal_choice,
    candidate=candidate,
    near_miss=near_miss,
    gm_command=pf1_gm_command,
    junk=pf1_junk,
    check_start=prop.state_only(check_state),
    check_step=prop.hp_and_state(check_state),
    max_steps=MAX_STEPS,
    steps=("legal",) * 8 + ("candidate",) * 2 + ("near_miss",) * 2 + ("gm", "junk", "undo", "probe"),
    events_check=check_all_events,
    unchanged_record=True,
)
play = partial(prop.play, PF1_FIGHT)


@FIGHTS
@given(encounters(), st.data())
def test_random_fights_keep_every_invariant(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data)


@FORCED
@given(encounters(forced_dice=True), st.data())
def test_forced_dice_running_out_midway_leave_no_trace(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data, forced=True)
