"""What the property tests of every ruleset share (test_properties_pf1, _terza, _lagornis).

The settings (``TACTICA_PROPERTY_EXAMPLES`` raises the number of examples and randomises them for a
longer hunt), the random encounter skeleton, the generic command makers, the ruleset-agnostic
invariants (refusals leave no trace and are predicted, events and views survive JSON, undo is exact,
the log replays byte for byte, whoever must act can act) and ``play``, the driver that plays a random
command sequence; each test module passes in its own generators and checks through a ``Fight``.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tactica import Command, Encounter, IllegalCommand, load_encounter
from tactica.engine.errors import ERROR_CODES
from tactica.engine.events import EVENT_TYPES

from .engine.snapshot import dump, snapshot

Json = dict[str, Any]
Maker = Callable[[st.DrawFn, Encounter], Any]

# -- settings --------------------------------------------------------------------------------------
EXTRA = int(os.environ.get("TACTICA_PROPERTY_EXAMPLES", "0"))


def fight_settings(examples: int, forced_examples: int) -> tuple[settings, settings]:
    """The settings of the random fights and of the forced-dice ones."""
    fights = settings(
        max_examples=EXTRA or examples,
        deadline=None,
        derandomize=not EXTRA,  # the same examples on every run (CI); random ones when hunting
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    return fights, settings(fights, max_examples=EXTRA or forced_examples)


# -- random encounters -----------------------------------------------------------------------------
def draw_places(
    draw: st.DrawFn, width: int, height: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Every square of the map, and 2-5 distinct squares to stand on."""
    squares = [(x, y) for y in range(height) for x in range(width)]
    n = draw(st.integers(2, 5))
    return squares, draw(st.lists(st.sampled_from(squares), min_size=n, max_size=n, unique=True))


def draw_terrain(
    draw: st.DrawFn, squares: list[tuple[int, int]], at: list[tuple[int, int]], kinds: list[str], share: int
) -> dict[str, list[list[int]]]:
    """Up to one square in ``share`` of each kind of terrain; nobody stands on a blocked one."""
    terrain: dict[str, list[list[int]]] = {kind: [] for kind in kinds}
    for sq, kind in draw(
        st.lists(
            st.tuples(st.sampled_from(squares), st.sampled_from(kinds)),
            max_size=len(squares) // share,
            unique_by=lambda t: t[0],
        )
    ):
        if not (kind == "blocked" and sq in at):
            terrain[kind].append(list(sq))
    return terrain


def draw_side(draw: st.DrawFn, sides: list[str], i: int) -> str:
    """The first two combatants on opposite sides, the others anywhere."""
    return sides[i % len(sides)] if i < 2 else draw(st.sampled_from(sides))


def draw_opening(
    draw: st.DrawFn, data: Json, ids: list[str], surprise_odds: int, forced_dice: bool, bad_dice: list[int]
) -> Json:
    """Fixed initiative or not, surprise one time in ``surprise_odds + 1``, forced dice (bad ones too)."""
    if draw(st.booleans()):
        data["initiative"] = draw(st.permutations(ids))
    if draw(st.integers(0, surprise_odds)) == 0:
        data["surprise"] = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2, unique=True))
    if forced_dice:
        data["dice"] = draw(st.lists(st.integers(1, 20) | st.sampled_from(bad_dice), max_size=25))
    return data


def draw_encounter(
    draw: st.DrawFn,
    *,
    ruleset: str,
    terrain: list[str],
    terrain_share: int,
    stats: Callable[[], st.SearchStrategy[Json]],
    conditions: list[str],
    variant: Callable[[st.DrawFn], Json],
    surprise_odds: int,
    forced_dice: bool,
    decorate: Callable[[st.DrawFn, Json], None] | None = None,
) -> Json:
    """A random encounter on a 3x3 to 7x7 map with 2 or 3 sides; ``decorate`` adds to each combatant."""
    width, height = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    squares, at = draw_places(draw, width, height)
    ground = draw_terrain(draw, squares, at, terrain, terrain_share)
    sides = draw(st.sampled_from([["red", "blue"], ["red", "blue"], ["red", "blue", "green"]]))
    ids = [f"c{i}" for i in range(len(at))]
    combatants = []
    for i, cid in enumerate(ids):
        c: Json = {"id": cid, "side": draw_side(draw, sides, i), "at": list(at[i]), "stats": draw(stats())}
        if decorate is not None:
            decorate(draw, c)
        if draw(st.integers(0, 4)) == 0:
            c["conditions"] = draw(st.lists(st.sampled_from(conditions), min_size=1, max_size=2, unique=True))
        combatants.append(c)
    data: Json = {
        "ruleset": ruleset,
        "map": {"width": width, "height": height, **ground},
        "combatants": combatants,
        "seed": draw(st.integers(0, 2**31 - 1)),
        "variant": variant(draw),
    }
    return draw_opening(draw, data, ids, surprise_odds, forced_dice, [0, 21, 25])


# -- random commands -------------------------------------------------------------------------------
JUNK_VALUES: list[Any] = [None, 3, -1, "x", "", True, [], [[1]], [[1, 2]], {"a": 1}, 2.5, [1, 2]]
GM_DOS = ["set_hp", "add_condition", "remove_condition", "move_to", "set_initiative"]


def some_square(draw: st.DrawFn, enc: Encounter) -> tuple[int, int]:
    return (draw(st.integers(-1, enc.grid.width)), draw(st.integers(-1, enc.grid.height)))


def some_name(draw: st.DrawFn, pool: list[str]) -> str:
    return draw(st.sampled_from([*pool, "nobody", "gm"] if pool else ["nobody"]))


def some_path(draw: st.DrawFn, enc: Encounter, longest: int) -> list[list[int]]:
    return [list(some_square(draw, enc)) for _ in range(draw(st.integers(0, longest)))]


def acting(enc: Encounter) -> str | None:
    """Who must act: the one a decision waits for, else whose turn it is."""
    return enc.pending.actor if enc.pending is not None else enc.turn


def legal_choice(
    draw: st.DrawFn,
    enc: Encounter,
    first: Callable[[st.DrawFn, Encounter], Command | None] | None = None,
    narrow: Callable[[st.DrawFn, list[str]], list[str]] | None = None,
) -> Command | None:
    """One of the legal commands of whoever must act, by action first; ``first`` may pick one before,
    ``narrow`` may favour some actions."""
    actor = acting(enc)
    if actor is None:
        return None
    if first is not None and (cmd := first(draw, enc)) is not None:
        return cmd
    by_do: dict[str, list[Command]] = defaultdict(list)
    for cmd in enc.legal_commands(actor):
        by_do[cmd.do].append(cmd)
    assert by_do, f"{actor} must act but has nothing legal to do"  # no deadlock
    dos = sorted(by_do)
    if "end_turn" in dos and len(dos) > 1 and draw(st.integers(0, 5)) > 0:
        dos.remove("end_turn")  # ending the turn is always there: take it less often, fights go further
    if narrow is not None:
        dos = narrow(draw, dos)
    return draw(st.sampled_from(by_do[draw(st.sampled_from(dos))]))


def near_miss_base(draw: st.DrawFn, enc: Encounter, choose: Maker) -> Command:
    """The legal command a near miss is made from (``choose`` is the ruleset's legal choice)."""
    return choose(draw, enc) or Command(actor=draw(st.sampled_from(list(enc.combatants))), do="end_turn")


def some_field(draw: st.DrawFn, enc: Encounter, field: str) -> Any:
    """A near miss's value for a field every ruleset has: target, actor, targets, to, path."""
    ids = list(enc.combatants)
    if field in ("target", "actor"):
        return some_name(draw, ids)
    if field == "targets":
        return draw(st.lists(st.sampled_from([*ids, "nobody"]), max_size=3))
    if field == "to":
        return list(some_square(draw, enc))
    assert field == "path", field
    return some_path(draw, enc, 4)


def gm_command(
    draw: st.DrawFn,
    enc: Encounter,
    *,
    dos: list[str],
    hp: tuple[int, int],
    conditions: list[str],
    facings: list[str] | None = None,
    spoil_order: bool = True,
) -> Json:
    """A GM override, right or wrong: hit points, conditions, place, initiative (spoilt at times), facing."""
    ids = list(enc.combatants)
    do = draw(st.sampled_from(dos))
    target = some_name(draw, ids)
    if do == "set_hp":
        return {"actor": "gm", "do": do, "target": target, "hp": draw(st.integers(*hp))}
    if do in ("add_condition", "remove_condition"):
        return {"actor": "gm", "do": do, "target": target, "condition": draw(st.sampled_from(conditions))}
    if do == "move_to":
        return {"actor": "gm", "do": do, "target": target, "to": list(some_square(draw, enc))}
    if do == "set_facing":
        assert facings is not None
        return {"actor": "gm", "do": do, "target": target, "facing": draw(st.sampled_from(facings))}
    order = draw(st.permutations(ids))
    if spoil_order and draw(st.integers(0, 4)) == 0:
        order = order[1:] + draw(st.sampled_from([[], [order[0]], ["nobody"], [order[0], order[0]]]))
    return {"actor": "gm", "do": do, "order": order}


def typed_value(draw: st.DrawFn, enc: Encounter, field: str) -> Any:
    """A well-typed junk value for path, to, hp and order; a name for the other fields."""
    if field == "path":
        return some_path(draw, enc, 3)
    if field == "to":
        return list(some_square(draw, enc))
    if field == "hp":
        return draw(st.integers(-5, 5))
    if field == "order":
        return draw(st.permutations(list(enc.combatants)))
    return some_name(draw, list(enc.combatants))


def junk(
    draw: st.DrawFn,
    enc: Encounter,
    *,
    dos: list[str],
    fields: list[str],
    values: list[Any],
    typed: Maker | None = None,
    unknown_field: bool = True,
) -> Json:
    """A random mapping: any actor, any action id, any fields, badly typed or typed by ``typed``
    (a name without it), now and then a field no command has."""
    ids = list(enc.combatants)
    data: Json = {"actor": some_name(draw, ids), "do": draw(st.sampled_from(dos))}
    for f in draw(st.lists(st.sampled_from(fields), max_size=3, unique=True)):
        if draw(st.booleans()):
            data[f] = draw(st.sampled_from(values))
        elif typed is None:
            data[f] = some_name(draw, ids)
        else:
            data[f] = typed(draw, enc, f)
    if unknown_field and draw(st.integers(0, 9)) == 0:
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


def check_event_json(events: list[Json]) -> None:
    """Every event starts with a known type and survives a JSON round trip unchanged."""
    for e in events:
        assert next(iter(e)) == "type" and e["type"] in EVENT_TYPES, e
        assert json.loads(json.dumps(e)) == e, e


def check_events(events: list[Json]) -> None:
    """What holds for the events of any ruleset: ``check_event_json``, moves end where their path does,
    damage is never negative."""
    check_event_json(events)
    for e in events:
        if e["type"] == "moved":
            assert e["path"] and e["to"] == e["path"][-1], e
        elif e["type"] == "damage":
            assert e["amount"] >= 0, e


def non_negative(value: Any, where: str) -> None:
    """Every count in ``value`` (a resource, or the top level of a combatant's ruleset data) is >= 0."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        assert value >= 0, where
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (int, float)) or k == "casting":  # not the profile: modifiers may be < 0
                non_negative(v, f"{where}.{k}")


def check_view_json(enc: Encounter) -> Json:
    """The view survives a JSON round trip unchanged; returns it."""
    view = enc.view()
    assert json.loads(json.dumps(view)) == view
    return view


def check_counts(enc: Encounter, view: Json, data: Callable[[Any], Any] = dump) -> None:
    """No resource in the view and no count in ``data`` of a combatant's ruleset data goes negative."""
    for cid, c in enc.combatants.items():
        for name, value in view["combatants"][cid]["resources"].items():
            non_negative(value, f"{cid}.resources.{name}")
        non_negative(data(c.data), f"{cid}.data")


def check_occupancy(enc: Encounter, ruleset: Any) -> None:
    """The map holds exactly the living combatants that stand where it says."""
    for square, c in enc.occupied.items():
        assert c.pos == square and ruleset.holds_square(c), (square, c)
    for c in enc.combatants.values():
        if ruleset.holds_square(c):
            assert c.pos in enc.occupied, c  # held by it, or by someone sharing it (downed on an ally)


def check_turn(enc: Encounter, ruleset: Any) -> None:
    """Each state matches the hit points; who must act can act; the fight ends only when all are down."""
    for cid, c in enc.combatants.items():
        assert c.state == ruleset.state_from(c), (cid, c.hp, c.state)
    if enc.pending is None and enc.current is not None:
        assert not ruleset.is_defeated(enc.current)
        assert enc.is_legal(Command(actor=enc.current.id, do="end_turn"))
    if enc.current is None and enc.pending is None:
        assert all(ruleset.is_defeated(c) for c in enc.order)


def check_apply(
    enc: Encounter,
    cmd: Command | Json,
    forced: bool,
    events_check: Callable[[list[Json]], None] = check_events,
    same_events: bool = False,
) -> bool:
    """Apply ``cmd`` and check the step; return whether it was accepted. A refusal leaves everything
    identical and was predicted with its code; an acceptance was predicted. ``same_events``: the result's
    events are the very list the history holds."""
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
    if same_events:
        assert res.events is enc.history[-1]
    assert res.events == enc.history[-1] and res.pending == enc.pending
    events_check(res.events)
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
    actor = acting(enc)
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


StepCheck = Callable[[Encounter, Json], None]


def state_only(check_state: Callable[[Encounter], None]) -> StepCheck:
    """A step check that checks the state."""
    return lambda enc, _data: check_state(enc)


def hp_and_state(check_state: Callable[[Encounter], None]) -> StepCheck:
    """A step check that checks the hit point accounting, then the state."""

    def check(enc: Encounter, data: Json) -> None:
        check_hp_accounting(enc, data)
        check_state(enc)

    return check


# -- the driver ------------------------------------------------------------------------------------
STEPS = ["legal"] * 8 + ["candidate"] * 2 + ["near_miss"] * 2 + ["gm", "junk", "undo"]


@dataclass(frozen=True)
class Fight:
    """A ruleset's part in ``play``: its command makers and its checks."""

    legal_choice: Callable[[st.DrawFn, Encounter], Command | None]
    candidate: Callable[[st.DrawFn, Encounter], Command | None]
    near_miss: Maker
    gm_command: Maker
    junk: Maker
    check_start: StepCheck  # after the start
    check_step: StepCheck  # after every command, accepted or not
    max_steps: int
    steps: tuple[str, ...] = tuple(STEPS)  # "probe" samples the legal commands (check_legal_sample)
    events_check: Callable[[list[Json]], None] = check_events
    same_events: bool = False  # see check_apply
    before_legal: Callable[[Encounter], None] | None = None  # before a legal choice, unless forced
    check_end: Callable[[Encounter], None] | None = None  # over the whole record
    unchanged_record: bool = False  # the events as first reported never change afterwards
    start_untouched: bool = True  # a start that fails leaves no start events


def play(fight: Fight, draw: st.DrawFn, data: Json, forced: bool = False) -> None:
    """Start ``data`` and play a random command sequence, checking every step; at the end, replay the log
    (unless ``forced``: the dice then run out on purpose)."""
    enc = load_encounter(data)
    try:
        start = enc.start()
    except IllegalCommand as exc:
        assert forced and exc.code in ("dice_exhausted", "bad_die")
        if fight.start_untouched:
            assert enc.start_events is None
        return
    fight.events_check(start.events)
    fight.check_start(enc, data)
    # the events as first reported: the record must never change afterwards (no shared, mutated values)
    recorded = [json.dumps(start.events)]
    for _ in range(draw(st.integers(1, fight.max_steps))):
        kind = draw(st.sampled_from(list(fight.steps)))
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
            if fight.before_legal is not None and not forced:
                fight.before_legal(enc)
            cmd = fight.legal_choice(draw, enc)
            must_pass = cmd is not None and not forced
            if cmd is None:
                cmd = fight.gm_command(draw, enc)
        elif kind == "candidate":
            cmd = fight.candidate(draw, enc) or fight.gm_command(draw, enc)
        elif kind == "near_miss":
            cmd = fight.near_miss(draw, enc)
        elif kind == "gm":
            cmd = fight.gm_command(draw, enc)
        else:
            cmd = fight.junk(draw, enc)
        accepted = check_apply(enc, cmd, forced, fight.events_check, fight.same_events)
        assert accepted or not must_pass, f"legal command {cmd!r} refused"
        if accepted:
            recorded.append(json.dumps(enc.history[-1]))
        fight.check_step(enc, data)
    if fight.unchanged_record:
        assert [json.dumps(enc.start_events), *map(json.dumps, enc.history)] == recorded
    if fight.check_end is not None:
        fight.check_end(enc)
    if not forced:
        check_replay(enc, data)
