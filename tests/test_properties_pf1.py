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

import json
import os
from collections import defaultdict
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactica import Command, Encounter, IllegalCommand, load_encounter
from tactica.engine.errors import ERROR_CODES
from tactica.engine.events import EVENT_TYPES
from tactica.rulesets.pf1 import RULESET as PF1
from tactica.rulesets.pf1.stats import FEATS

from .engine.snapshot import dump, snapshot

Json = dict[str, Any]

_EXTRA = int(os.environ.get("TACTICA_PROPERTY_EXAMPLES", "0"))
FIGHTS = settings(
    max_examples=_EXTRA or 100,
    deadline=None,
    derandomize=not _EXTRA,  # the same examples on every run (CI); random ones when hunting
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FORCED = settings(FIGHTS, max_examples=_EXTRA or 60)
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
    width, height = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    squares = [(x, y) for y in range(height) for x in range(width)]
    n = draw(st.integers(2, 5))
    at = draw(st.lists(st.sampled_from(squares), min_size=n, max_size=n, unique=True))
    terrain: dict[str, list[list[int]]] = {"difficult": [], "very_difficult": [], "blocked": []}
    for sq, kind in draw(
        st.lists(
            st.tuples(st.sampled_from(squares), st.sampled_from(list(terrain))),
            max_size=len(squares) // 3,
            unique_by=lambda t: t[0],
        )
    ):
        if not (kind == "blocked" and sq in at):
            terrain[kind].append(list(sq))
    sides = draw(st.sampled_from([["red", "blue"], ["red", "blue"], ["red", "blue", "green"]]))
    ids = [f"c{i}" for i in range(n)]
    combatants = []
    for i, cid in enumerate(ids):
        c: Json = {
            "id": cid,
            "side": sides[i % len(sides)] if i < 2 else draw(st.sampled_from(sides)),
            "at": list(at[i]),
            "stats": draw(stats()),
        }
        if draw(st.integers(0, 4)) == 0:
            c["conditions"] = draw(st.lists(st.sampled_from(CONDITIONS), min_size=1, max_size=2, unique=True))
        combatants.append(c)
    data: Json = {
        "ruleset": "pf1",
        "map": {"width": width, "height": height, **terrain},
        "combatants": combatants,
        "seed": draw(st.integers(0, 2**31 - 1)),
        "variant": {"pf1.reach.second_diagonal": draw(st.booleans())},
    }
    if draw(st.booleans()):
        data["initiative"] = draw(st.permutations(ids))
    if draw(st.integers(0, 3)) == 0:
        data["surprise"] = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2, unique=True))
    if forced_dice:
        data["dice"] = draw(st.lists(st.integers(1, 20) | st.sampled_from([0, 21, 25]), max_size=25))
    return data


# -- random commands -------------------------------------------------------------------------------
JUNK_VALUES: list[Any] = [None, 3, -1, "x", "", True, [], [[1]], [[1, 2]], {"a": 1}, 2.5, [1, 2]]
GM_DOS = ["set_hp", "add_condition", "remove_condition", "move_to", "set_initiative"]


def some_square(draw: st.DrawFn, enc: Encounter) -> tuple[int, int]:
    return (draw(st.integers(-1, enc.grid.width)), draw(st.integers(-1, enc.grid.height)))


def some_name(draw: st.DrawFn, enc: Encounter, pool: list[str]) -> str:
    return draw(st.sampled_from([*pool, "nobody", "gm"] if pool else ["nobody"]))


def legal_choice(draw: st.DrawFn, enc: Encounter) -> Command | None:
    actor = enc.pending.actor if enc.pending is not None else enc.turn
    if actor is None:
        return None
    by_do: dict[str, list[Command]] = defaultdict(list)
    for cmd in enc.legal_commands(actor):
        by_do[cmd.do].append(cmd)
    assert by_do, f"{actor} must act but has nothing legal to do"  # no deadlock
    dos = sorted(by_do)
    if "end_turn" in dos and len(dos) > 1 and draw(st.integers(0, 5)) > 0:
        dos.remove("end_turn")  # ending the turn is always there: take it less often, fights go further
    do = draw(st.sampled_from(dos))
    return draw(st.sampled_from(by_do[do]))


def candidate(draw: st.DrawFn, enc: Encounter) -> Command | None:
    """Any combatant's candidate command: legal or refused by a real rule (budget, reach, terrain...)."""
    actor = draw(st.sampled_from(list(enc.combatants)))
    cands = list(PF1.candidates(enc, actor))
    if enc.pending is not None and enc.pending.actor != actor:
        c = enc.combatants[actor]
        cands = [cmd for a in PF1.actions.values() if a.candidates for cmd in a.candidates(enc, c)]
    return draw(st.sampled_from(cands)) if cands else None


def near_miss(draw: st.DrawFn, enc: Encounter) -> Command | Json:
    """A legal command with something changed: often still legal, often not."""
    base = legal_choice(draw, enc) or Command(
        actor=draw(st.sampled_from(list(enc.combatants))), do="end_turn"
    )
    data = base.to_json()
    ids = list(enc.combatants)
    c = enc.combatants.get(base.actor)
    own = {
        "weapon": list(c.data.p.weapons) if c else [],
        "spell": list(c.data.p.spells) if c else [],
        "special": list(c.data.p.specials) if c else [],
    }
    for _ in range(draw(st.integers(1, 2))):
        field = draw(
            st.sampled_from(
                [
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
            )
        )
        if field in ("defensively", "full_attack"):
            data[field] = draw(st.booleans())
        elif field == "metamagic":
            data[field] = draw(st.lists(st.sampled_from([*FEATS, "fly_spell"]), max_size=2, unique=True))
        elif field == "hand":
            data[field] = draw(st.sampled_from(["main", "off", "tail"]))
        elif field == "weapon":
            data[field] = draw(st.sampled_from([*own["weapon"], "axe"]))
        elif field in ("target", "actor"):
            data[field] = some_name(draw, enc, ids)
        elif field == "targets":
            data[field] = draw(st.lists(st.sampled_from([*ids, "nobody"]), max_size=3))
        elif field == "to":
            data[field] = list(some_square(draw, enc))
        else:
            data[field] = [list(some_square(draw, enc)) for _ in range(draw(st.integers(0, 4)))]
    if base.do == "cast" and own["spell"] and draw(st.booleans()):
        data["spell"] = draw(st.sampled_from(own["spell"]))
    return data


def gm_command(draw: st.DrawFn, enc: Encounter) -> Json:
    ids = list(enc.combatants)
    do = draw(st.sampled_from(GM_DOS))
    target = some_name(draw, enc, ids)
    if do == "set_hp":
        return {"actor": "gm", "do": do, "target": target, "hp": draw(st.integers(-40, 40))}
    if do in ("add_condition", "remove_condition"):
        cond = draw(st.sampled_from([*sorted(PF1.conditions), "on_fire"]))
        return {"actor": "gm", "do": do, "target": target, "condition": cond}
    if do == "move_to":
        return {"actor": "gm", "do": do, "target": target, "to": list(some_square(draw, enc))}
    order = draw(st.permutations(ids))
    if draw(st.integers(0, 4)) == 0:
        order = order[1:] + draw(st.sampled_from([[], [order[0]], ["nobody"], [order[0], order[0]]]))
    return {"actor": "gm", "do": do, "order": order}


def junk(draw: st.DrawFn, enc: Encounter) -> Json:
    """A random mapping: any actor, any action id, any fields, well or badly typed."""
    ids = list(enc.combatants)
    dos = [*PF1.actions, *PF1.gm_actions, *PF1.answers, "fly"]
    data: Json = {"actor": some_name(draw, enc, ids), "do": draw(st.sampled_from(dos))}
    fields = draw(
        st.lists(
            st.sampled_from(
                ["target", "weapon", "spell", "special", "path", "to", "hp", "condition", "order", "by"]
            ),
            max_size=3,
            unique=True,
        )
    )
    for f in fields:
        if draw(st.booleans()):
            data[f] = draw(st.sampled_from(JUNK_VALUES))
        elif f in ("path",):
            data[f] = [list(some_square(draw, enc)) for _ in range(draw(st.integers(0, 3)))]
        elif f == "to":
            data[f] = list(some_square(draw, enc))
        elif f == "hp":
            data[f] = draw(st.integers(-5, 5))
        elif f == "order":
            data[f] = draw(st.permutations(ids))
        else:
            data[f] = some_name(draw, enc, ids)
    if draw(st.integers(0, 9)) == 0:
        data["unknown_field"] = 1
    return data


# -- invariants ------------------------------------------------------------------------------------
def start_hp(data: Json) -> dict[str, int]:
    return {c["id"]: c["stats"]["hp"] for c in data["combatants"]}


def check_hp_accounting(enc: Encounter, data: Json) -> None:
    """hp = starting hp - damage (GM set_hp resets it); each damage event's hp is the running value."""
    hp = start_hp(data)
    for events in [enc.start_events or [], *enc.history]:
        for e in events:
            if e["type"] == "damage":
                hp[e["target"]] -= e["amount"]
                assert e["hp"] == hp[e["target"]], e
                assert e["amount"] >= 0, e
            elif e["type"] == "gm" and e["what"] == "set_hp":
                assert e["detail"]["was"] == hp[e["detail"]["target"]], e
                hp[e["detail"]["target"]] = e["detail"]["hp"]
    assert hp == {cid: c.hp for cid, c in enc.combatants.items()}


def check_events(events: list[Json]) -> None:
    """What holds for the events of any ruleset (the terza and lagornis property tests use it too)."""
    for e in events:
        assert next(iter(e)) == "type" and e["type"] in EVENT_TYPES, e
        assert json.loads(json.dumps(e)) == e, e
        if e["type"] == "moved":
            assert e["path"] and e["to"] == e["path"][-1], e
        elif e["type"] == "damage":
            assert e["amount"] >= 0, e


def check_pf1_events(events: list[Json]) -> None:
    for e in events:
        if e["type"] == "attack":
            # R-PF-ATK-1: natural 20 hits, natural 1 misses, otherwise total against AC
            assert 1 <= e["roll"] <= 20, e
            assert e["hit"] == (e["roll"] == 20 or (e["roll"] != 1 and e["total"] >= e["vs"])), e
            assert e["hit"] or not e["critical"], e


def non_negative(value: Any, where: str) -> None:
    """Every count in ``value`` (a resource, or the top level of a combatant's ruleset data) is >= 0."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        assert value >= 0, where
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (int, float)) or k == "casting":  # not the profile: modifiers may be < 0
                non_negative(v, f"{where}.{k}")


def check_state(enc: Encounter) -> None:
    view = enc.view()
    assert json.loads(json.dumps(view)) == view
    for cid, c in enc.combatants.items():
        for name, value in view["combatants"][cid]["resources"].items():
            non_negative(value, f"{cid}.resources.{name}")
        non_negative(dump(c.data), f"{cid}.data")
        assert c.state == PF1.state_from(c), (cid, c.hp, c.state)
    # occupancy: the map holds exactly the living combatants that stand where it says
    for square, c in enc.occupied.items():
        assert c.pos == square and PF1.holds_square(c), (square, c)
    for c in enc.combatants.values():
        if PF1.holds_square(c):
            assert c.pos in enc.occupied, c  # held by it, or by someone sharing it (downed on an ally)
    # who must act can act
    if enc.pending is None and enc.current is not None:
        assert not PF1.is_defeated(enc.current)
        assert enc.is_legal(Command(actor=enc.current.id, do="end_turn"))
    if enc.current is None and enc.pending is None:
        assert all(PF1.is_defeated(c) for c in enc.order)


def check_apply(enc: Encounter, data: Json, cmd: Command | Json, forced: bool) -> bool:
    """Apply ``cmd`` and check the step; return whether it was accepted."""
    before = snapshot(enc)
    predicted = enc.why_illegal(cmd)
    try:
        res = enc.apply(cmd)
    except IllegalCommand as exc:
        assert exc.code in ERROR_CODES and exc.message
        assert snapshot(enc) == before, f"{cmd!r} was refused ({exc}) but changed the encounter"
        if forced and exc.code in ("dice_exhausted", "bad_die"):
            return False
        assert predicted is not None, f"{cmd!r} was predicted legal but refused: {exc}"
        assert predicted.code == exc.code, (cmd, predicted, exc)
        return False
    assert predicted is None, f"{cmd!r} was predicted illegal ({predicted}) but accepted"
    assert res.events == enc.history[-1] and res.pending == enc.pending
    check_events(res.events)
    return True


def check_undo_redo(enc: Encounter) -> None:
    """Undo the last command and apply it again: the same events and the same state."""
    after = snapshot(enc)
    events = json.dumps(enc.history[-1])
    last = enc.undo()
    enc.apply(last)
    assert json.dumps(enc.history[-1]) == events
    assert snapshot(enc) == after


def check_legal_sample(draw: st.DrawFn, enc: Encounter) -> None:
    """A few of the legal commands of whoever must act: each is accepted, and undo restores exactly."""
    actor = enc.pending.actor if enc.pending is not None else enc.turn
    if actor is None:
        return
    legal = list(enc.legal_commands(actor))
    before = snapshot(enc)
    for cmd in draw(st.lists(st.sampled_from(legal), max_size=3, unique=True)) if legal else []:
        assert cmd in enc.legal_commands(actor)
        enc.apply(cmd)
        enc.undo()
        assert snapshot(enc) == before, cmd


def check_replay(enc: Encounter, data: Json) -> None:
    """The log, through its JSON form, replayed on a fresh encounter gives the same events, byte for byte."""
    fresh = load_encounter(data)
    assert json.dumps(fresh.start().events) == json.dumps(enc.start_events)
    for cmd, events in zip(enc.log, enc.history, strict=True):
        res = fresh.apply(json.loads(json.dumps(cmd.to_json())))
        assert json.dumps(res.events) == json.dumps(events)
    assert snapshot(fresh) == snapshot(enc)


def play(draw: st.DrawFn, data: Json, forced: bool = False) -> None:
    enc = load_encounter(data)
    try:
        start = enc.start()
    except IllegalCommand as exc:
        assert forced and exc.code in ("dice_exhausted", "bad_die")
        assert enc.start_events is None
        return
    check_events(start.events)
    check_pf1_events(start.events)
    check_state(enc)
    # the events as first reported: the record must never change afterwards (no shared, mutated values)
    recorded = [json.dumps(start.events)]
    for _ in range(draw(st.integers(1, MAX_STEPS))):
        kind = draw(
            st.sampled_from(
                ["legal"] * 8 + ["candidate"] * 2 + ["near_miss"] * 2 + ["gm", "junk", "undo", "probe"]
            )
        )
        if kind == "undo":
            if enc.log:
                check_undo_redo(enc)
            continue
        if kind == "probe":
            if not forced:
                check_legal_sample(draw, enc)
            continue
        cmd: Command | Json | None
        must_pass = False
        if kind == "legal":
            cmd = legal_choice(draw, enc)
            must_pass = cmd is not None and not forced
            if cmd is None:
                cmd = gm_command(draw, enc)
        elif kind == "candidate":
            cmd = candidate(draw, enc) or gm_command(draw, enc)
        elif kind == "near_miss":
            cmd = near_miss(draw, enc)
        elif kind == "gm":
            cmd = gm_command(draw, enc)
        else:
            cmd = junk(draw, enc)
        accepted = check_apply(enc, data, cmd, forced)
        assert accepted or not must_pass, f"legal command {cmd!r} refused"
        if accepted:
            check_pf1_events(enc.history[-1])
            recorded.append(json.dumps(enc.history[-1]))
        check_hp_accounting(enc, data)
        check_state(enc)
    assert [json.dumps(enc.start_events), *map(json.dumps, enc.history)] == recorded
    if not forced:
        check_replay(enc, data)


@FIGHTS
@given(encounters(), st.data())
def test_random_fights_keep_every_invariant(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data)


@FORCED
@given(encounters(forced_dice=True), st.data())
def test_forced_dice_running_out_midway_leave_no_trace(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data, forced=True)
