"""Property tests: random small terza fights driven by random command sequences keep the engine's promises.

Each example builds a random encounter (2-5 combatants on a small map with difficult and blocked
squares; melee, light, reach and ranged weapons, shields in hand or not; every skill; spells of
every casting time, touch, cantrips and saves; items that cast spells, plain and continuous ones;
random facings, conditions and variant switches) and plays a random sequence of commands: mostly
legal ones (decision answers and other combatants' reaction spells included), plus near-misses
made from legal ones, GM overrides, malformed commands and undos. After every command:

- a rejected command leaves everything identical (a deep snapshot), and ``why_illegal`` predicted
  exactly that error; an accepted one was predicted legal;
- nothing ever raises anything but ``IllegalCommand``;
- the economy slots stay 0 or 1, movement never goes negative, at most one spell and one item per
  turn; each state matches its hit points; the living hold their squares;
- hit points equal the starting hit points minus the damage events (reset by GM ``set_hp``);
- every event survives a JSON round trip unchanged;
- whoever must act has something legal to do (no deadlock), and every legal command is accepted;
- ``legal_commands`` offers exactly the third-action kinds ``third_action_options`` allows, and a
  kind it refuses is refused by ``apply`` with that very reason;
- undo followed by the same command gives the same events and the same state.

Over the whole record: the third action is spent at most once per round by each combatant, and a
combatant makes at most one opportunity attack from the start of one of its turns to the start of
the next (R-TA-ECO-2: one reaction, refreshed at the start of its own turn; that is what "one per
round" means for a reaction). At the end the command log, through its JSON form, is replayed on a
fresh encounter and must give the same events byte for byte and the same state. A second test
forces short dice lists so commands fail midway (``dice_exhausted``, ``bad_die``) and checks the
rebuild leaves no trace.

``TACTICA_PROPERTY_EXAMPLES`` raises the number of examples (and randomises them) for a longer hunt.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tactica import Command, Encounter, load_encounter
from tactica.engine.grid import DIRECTIONS
from tactica.rulesets.terza import RULESET as TERZA
from tactica.rulesets.terza.stats import SKILLS
from tactica.rulesets.terza.third_rules import KINDS

from . import properties as prop
from .engine.snapshot import dump

Json = dict[str, Any]

FIGHTS, FORCED = prop.fight_settings(60, 30)
MAX_STEPS = 70

# -- random encounters -----------------------------------------------------------------------------
WEAPONS: list[Json] = [
    {"id": "spada", "damage": "1d8", "to_hit": 5, "damage_bonus": 3},
    {"id": "pugnale", "damage": "1d4", "to_hit": 4, "damage_bonus": 2, "light": True},
    {"id": "lancia", "damage": "1d10", "to_hit": 4, "damage_bonus": 1, "reach_m": 3},
    {"id": "arco", "kind": "ranged", "damage": "1d6", "to_hit": 5, "range_m": 18},
    {"id": "balestra", "kind": "ranged", "damage": "1d8", "to_hit": 3, "light": True},
    {"id": "randello", "damage": "1d6-2", "to_hit": 2, "damage_bonus": -1, "light": True},
]
DAMAGE = ["1d6", "2d4+1", "3", "1d8-1", "2d6", "1d10+4"]
CONDITIONS = sorted(TERZA.conditions - {"dead", "unconscious"})


@st.composite
def spells(draw: st.DrawFn) -> list[Json]:
    out = []
    for i in range(draw(st.integers(1, 4))):
        spell: Json = {
            "id": f"spell{i}",
            "casting_time": draw(st.sampled_from(["action", "bonus", "reaction"])),
            "touch": draw(st.booleans()),
            "cantrip": draw(st.booleans()),
        }
        if draw(st.booleans()):
            spell["damage"] = draw(st.sampled_from(DAMAGE))
            if draw(st.booleans()):
                spell["save"] = "reflex"
                spell["dc"] = draw(st.integers(5, 20))
        out.append(spell)
    return out


@st.composite
def items(draw: st.DrawFn, spell_ids: list[str]) -> list[Json]:
    out = []
    for i in range(draw(st.integers(1, 3))):
        item: Json = {"id": f"item{i}", "use": draw(st.sampled_from(["action", "bonus"]))}
        if draw(st.integers(0, 3)) == 0:
            item["continuous"] = True
        effect = draw(st.sampled_from(["none", "text", "spell", "name"]))
        if effect == "text":
            item["effect"] = "una pozione"
        elif effect == "spell" and spell_ids:
            item["effect"] = {"spell": draw(st.sampled_from(spell_ids))}
        elif effect == "spell":
            item["effect"] = {"spell": {"id": "dono", "damage": draw(st.sampled_from(DAMAGE))}}
        elif effect == "name" and spell_ids:
            item["effect"] = draw(st.sampled_from(spell_ids))
        out.append(item)
    return out


@st.composite
def stats(draw: st.DrawFn) -> Json:
    weapons = draw(st.lists(st.sampled_from(WEAPONS), max_size=3, unique_by=lambda w: w["id"]))
    s: Json = {
        "hp": draw(st.integers(-3, 0)) if draw(st.integers(0, 9)) == 0 else draw(st.integers(1, 30)),
        "scores": {"str": draw(st.integers(6, 20)), "dex": draw(st.integers(6, 20))},
        "speed_m": draw(st.sampled_from([0, 1.5, 3, 6, 9, 12])),
        "attacks": draw(st.integers(1, 3)),
        "weapons": weapons,
    }
    if draw(st.integers(0, 2)) == 0:  # the skills guard their owner: not too often, movers must provoke
        s["skills"] = draw(st.lists(st.sampled_from(SKILLS), max_size=3, unique=True))
    for key, values in (
        ("ac", st.integers(8, 20)),
        ("reflex", st.integers(-2, 8)),
        ("max_hp", st.integers(30, 40)),
    ):
        if draw(st.booleans()):
            s[key] = draw(values)
    shield = draw(st.sampled_from([None, "scudo", {"id": "brocchiero", "ac": 1}]))
    if shield is not None:
        s["shield"] = shield
    holdable = [w["id"] for w in weapons] + (
        [shield if isinstance(shield, str) else shield["id"]] if shield else []
    )
    hands = draw(st.sampled_from(["default", "empty", "some"]))
    if hands == "empty":
        s["wielding"] = []  # unguarded: it provokes, and has no zone of its own
    elif hands == "some" and holdable:
        s["wielding"] = draw(st.lists(st.sampled_from(holdable), max_size=2, unique=True))
    if draw(st.integers(0, 2)) == 0:
        s["spells"] = draw(spells())
    if draw(st.integers(0, 3)) == 0:
        s["items"] = draw(items([sp["id"] for sp in s.get("spells", [])]))
    return s


def face(draw: st.DrawFn, c: Json) -> None:
    if draw(st.booleans()):
        c["facing"] = draw(st.sampled_from(list(DIRECTIONS)))


@st.composite
def encounters(draw: st.DrawFn, forced_dice: bool = False) -> Json:
    return prop.draw_encounter(
        draw,
        ruleset="terza",
        terrain=["difficult", "blocked"],
        terrain_share=4,
        stats=stats,
        conditions=CONDITIONS,
        variant=lambda draw: {
            "terza.third_action.disengage": draw(st.booleans()),
            "terza.third_action.no_after_move": draw(st.booleans()),
            "terza.zoc.guarded_exempt": draw(st.booleans()),
            "terza.press.mode": draw(st.sampled_from(["follow", "deny"])),
            "terza.defend.ac_bonus": draw(st.integers(0, 5)),
        },
        surprise_odds=4,
        forced_dice=forced_dice,
        decorate=face,
    )


# -- random commands -------------------------------------------------------------------------------
FACINGS = [*DIRECTIONS, "UP"]


def reaction_spell(draw: st.DrawFn, enc: Encounter) -> Command | None:
    """Now and then another combatant's reaction spell, on a turn not its own (R-TA-LIM-3)."""
    if enc.pending is None and draw(st.integers(0, 9)) == 0:
        other = draw(st.sampled_from(list(enc.combatants)))
        casts = [c for c in enc.legal_commands(other) if c.do == "cast"]
        if casts:
            return draw(st.sampled_from(casts))
    return None


def favour(draw: st.DrawFn, dos: list[str]) -> list[str]:
    moving = [d for d in ("move", "withdraw", "third") if d in dos]
    if moving and draw(st.integers(0, 2)) == 0:
        dos = moving  # movement is what provokes and presses: a good share of the steps
    if "opportunity_attack" in dos and draw(st.integers(0, 3)) > 0:
        dos = ["opportunity_attack"]  # mostly take the opportunity: the reaction limit gets tested
    return dos


def legal_choice(draw: st.DrawFn, enc: Encounter) -> Command | None:
    return prop.legal_choice(draw, enc, first=reaction_spell, narrow=favour)


def candidate(draw: st.DrawFn, enc: Encounter) -> Command | None:
    """Any combatant's candidate command: legal or refused by a real rule (budget, reach, limits...)."""
    actor = draw(st.sampled_from(list(enc.combatants)))
    c = enc.combatants[actor]
    cands = [cmd for a in TERZA.actions.values() if a.candidates for cmd in a.candidates(enc, c)]
    cands += [Command(actor=actor, do=k) for k in KINDS]  # every kind, as an answer or on a turn
    return draw(st.sampled_from(cands)) if cands else None


def near_miss(draw: st.DrawFn, enc: Encounter) -> Command | Json:
    """A legal command with something changed: often still legal, often not."""
    base = prop.near_miss_base(draw, enc, legal_choice)
    data = base.to_json()
    c = enc.combatants.get(base.actor)
    p = c.data.p if c else None
    own = {
        "weapon": [*p.weapons, "unarmed", *([p.shield.id] if p.shield else [])] if p else [],
        "spell": list(p.spells) if p else [],
        "item": list(p.items) if p else [],
    }
    for _ in range(draw(st.integers(1, 2))):
        field = draw(
            st.sampled_from(
                ["kind", "facing", "weapon", "spell", "item", "target", "targets", "to", "path", "actor"]
            )
        )
        if field == "kind":
            data[field] = draw(st.sampled_from([*KINDS, "jump"]))
        elif field == "facing":
            data[field] = draw(st.sampled_from(FACINGS))
        elif field in ("weapon", "spell", "item"):
            data[field] = draw(st.sampled_from([*own[field], "axe"]))
        else:
            data[field] = prop.some_field(draw, enc, field)
    return data


def terza_gm_command(draw: st.DrawFn, enc: Encounter) -> Json:
    return prop.gm_command(
        draw,
        enc,
        dos=[*prop.GM_DOS, "set_facing"],
        hp=(-10, 40),
        conditions=[*sorted(TERZA.conditions), "on_fire"],
        facings=FACINGS,
    )


def terza_typed(draw: st.DrawFn, enc: Encounter, field: str) -> Any:
    return draw(st.sampled_from(KINDS)) if field == "kind" else prop.typed_value(draw, enc, field)


def terza_junk(draw: st.DrawFn, enc: Encounter) -> Json:
    """A random mapping: any actor, any action id, any fields, well or badly typed."""
    return prop.junk(
        draw,
        enc,
        dos=[*TERZA.actions, *TERZA.gm_actions, *TERZA.answers, *KINDS, "fly"],
        fields=["target", "weapon", "spell", "item", "kind", "facing", "path", "to", "hp", "order"],
        values=[*prop.JUNK_VALUES, "N"],
        typed=terza_typed,
    )


# -- invariants ------------------------------------------------------------------------------------
def check_record(enc: Encounter) -> None:
    """R-TA-ECO-3: at most one third action per round; R-TA-ECO-2: at most one opportunity attack
    from the start of one of a combatant's turns to the start of its next."""
    thirds: Counter[tuple[int, str]] = Counter()
    opportunities: Counter[tuple[str, int]] = Counter()
    turns: Counter[str] = Counter()
    round_ = 0
    for events in [enc.start_events or [], *enc.history]:
        for e in events:
            if e["type"] == "round_started":
                round_ = e["round"]
            elif e["type"] == "turn_started":
                turns[e["actor"]] += 1
            elif e["type"] == "action" and e["action"] == "third":
                thirds[(round_, e["actor"])] += 1
            elif e["type"] == "attack" and e["kind"] == "opportunity":
                opportunities[(e["attacker"], turns[e["attacker"]])] += 1
    assert all(n == 1 for n in thirds.values()), thirds
    assert all(n == 1 for n in opportunities.values()), opportunities


def check_state(enc: Encounter) -> None:
    view = prop.check_view_json(enc)
    for cid, c in enc.combatants.items():
        r = view["combatants"][cid]["resources"]
        for slot in ("action", "bonus", "reaction", "third", "interaction"):
            assert r[slot] in (0, 1), (cid, slot, r)
        assert r["movement_m"] >= 0 and r["spells_this_turn"] in (0, 1) and r["items_this_turn"] in (0, 1), (
            cid,
            r,
        )
        assert dump(c.data)["attacks_left"] >= 0
        assert c.facing in DIRECTIONS
    prop.check_occupancy(enc, TERZA)
    prop.check_turn(enc, TERZA)


def check_third_options(enc: Encounter) -> None:
    """legal_commands offers exactly the allowed kinds; a refused kind fails with its reason."""
    actor = prop.acting(enc)
    if actor is None:
        return
    opts = dict(TERZA.third_action_options(enc, actor))
    legal = list(enc.legal_commands(actor))
    if enc.pending is None:
        offered = {c.kind for c in legal if c.do == "third"}
    else:
        offered = {c.do for c in legal if c.do in KINDS}
    assert offered == {k for k, why in opts.items() if why is None}, (actor, offered, opts)
    for kind, why in opts.items():
        if why is None or kind in ("step", "disengage", "rotate", "draw", "sheathe"):
            continue  # those need arguments; their reasons come from the arguments' checks
        exc = enc.why_illegal(Command(actor=actor, do="third", kind=kind))
        assert exc is not None, (actor, kind, why)
        if enc.pending is None:
            assert exc.message == why, (actor, kind, exc, why)
        else:  # a kind the window does not offer is not one of its choices (format.md)
            assert exc.code == "decision_pending", (actor, kind, exc)


TERZA_FIGHT = prop.Fight(
    legal_choice=legal_choice,
    candidate=candidate,
    near_miss=near_miss,
    gm_command=terza_gm_command,
    junk=terza_junk,
    check_start=prop.state_only(check_state),
    check_step=prop.hp_and_state(check_state),
    max_steps=MAX_STEPS,
    events_check=prop.check_event_json,
    same_events=True,
    before_legal=check_third_options,
    check_end=check_record,
)
play = partial(prop.play, TERZA_FIGHT)


@FIGHTS
@given(encounters(), st.data())
def test_random_fights_keep_every_invariant(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data)


@FORCED
@given(encounters(forced_dice=True), st.data())
def test_forced_dice_running_out_midway_leave_no_trace(data: Json, draws: st.DataObject) -> None:
    play(draws.draw, data, forced=True)


@st.composite
def melees(draw: st.DrawFn) -> Json:
    """A crowded melee: everyone armed (a zone of control each) and, with guarded_exempt off, every
    step into or out of a zone provokes: opportunity attacks, presses and third actions galore."""
    size = draw(st.integers(4, 6))
    n = draw(st.integers(3, 6))
    squares = [(x, y) for y in range(size) for x in range(size)]
    at = draw(st.lists(st.sampled_from(squares), min_size=n, max_size=n, unique=True))
    combatants = [
        {
            "id": f"c{i}",
            "side": ["red", "blue"][i % 2],
            "at": list(at[i]),
            "stats": {
                "hp": draw(st.integers(15, 40)),
                "weapons": [draw(st.sampled_from(WEAPONS[:3]))],
                "skills": draw(st.lists(st.sampled_from(SKILLS), max_size=1)),
                "scores": {"dex": draw(st.integers(8, 18))},
            },
        }
        for i in range(n)
    ]
    return {
        "ruleset": "terza",
        "map": {"width": size, "height": size},
        "combatants": combatants,
        "seed": draw(st.integers(0, 2**31 - 1)),
        "variant": {
            "terza.zoc.guarded_exempt": False,
            "terza.press.mode": draw(st.sampled_from(["follow", "deny"])),
            "terza.third_action.disengage": draw(st.booleans()),
        },
    }


@FIGHTS
@given(melees(), st.data())
def test_crowded_melee_one_reaction_and_one_third_action(data: Json, draws: st.DataObject) -> None:
    enc = load_encounter(data)
    enc.start()
    for _ in range(MAX_STEPS):
        cmd = legal_choice(draws.draw, enc)
        if cmd is None or enc.outcome() is not None:
            break
        enc.apply(cmd)
        check_state(enc)
    check_record(enc)
