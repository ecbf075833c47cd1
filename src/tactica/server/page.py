"""The table page's view model: what ``board.html`` draws for one link and one UI state.

The UI state lives in the URL (``sel``: the selected token, ``mode``: an action being aimed on the
map or the GM's ``place``, ``dest``: the square aimed at), so a live refresh redraws exactly what the
person was looking at, against the new state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from fastapi import Request

from ..engine.commands import Command, Square
from ..engine.core import GM
from ..engine.errors import IllegalCommand
from ..engine.grid import BLOCKED
from ..i18n import _, metres
from ..vocabulary import label
from . import adapters
from .tracker import Access, Live, Tracker
from .views import (
    TERRAIN,
    ActionView,
    actions,
    author_labels,
    chips,
    command_label,
    conditions,
    grant_label,
    hp_percent,
    initials,
    log_blocks,
    role_label,
    side_colours,
    square_set,
    trigger_text,
)

PLACE = "place"


@dataclass(frozen=True)
class UI:
    sel: str | None = None
    mode: str | None = None
    dest: Square | None = None

    def query(self, **change: Any) -> str:
        from .app import query

        ui = replace(self, **change)
        d: Any = ui.dest
        dest = d if isinstance(d, str) or d is None else f"{d[0]},{d[1]}"
        return query(sel=ui.sel, mode=ui.mode, dest=dest)


def ui_from(params: Mapping[str, Any], live: Live) -> UI:
    """The UI state from a query string or form; anything that does not fit the table is dropped."""
    enc = live.enc
    sel = params.get("sel")
    sel = sel if isinstance(sel, str) and sel in enc.combatants else None
    mode = params.get("mode")
    valid_modes = {a.id for a in enc.ruleset.actions.values()} | {PLACE}
    mode = mode if isinstance(mode, str) and mode in valid_modes else None
    dest: Square | None = None
    raw = params.get("dest")
    if isinstance(raw, str) and raw.count(",") == 1:
        xs, ys = raw.split(",")
        if xs.strip().isdigit() and ys.strip().isdigit():
            d = (int(xs), int(ys))
            if enc.grid.inside(d):
                dest = d
    return UI(sel, mode, dest if mode else None)


def after_action(ui: UI) -> UI:
    return replace(ui, mode=None, dest=None)


def cmd_json(cmd: Command) -> str:
    return json.dumps(cmd.to_json(), ensure_ascii=False)


def gm_command(form: Mapping[str, Any], live: Live) -> Command:
    """A GM override from the page's form (set hp, a condition, place a token, initiative)."""
    op = form.get("op")
    target = form.get("target") or None
    if op == "set_hp":
        try:
            hp = int(str(form.get("hp", "")).strip())
        except ValueError:
            raise IllegalCommand("invalid_command", _("hit points must be a whole number")) from None
        return Command(actor=GM, do="set_hp", target=target, hp=hp)
    if op in ("add_condition", "remove_condition"):
        return Command(actor=GM, do=op, target=target, condition=form.get("condition") or None)
    if op == "move_to":
        ui = ui_from({"mode": PLACE, "dest": form.get("dest")}, live)
        if ui.dest is None:
            raise IllegalCommand("invalid_command", _("choose a square on the map"))
        return Command(actor=GM, do="move_to", target=target, to=ui.dest)
    if op in ("initiative_up", "initiative_down") and isinstance(target, str):
        order = [c.id for c in live.enc.order]
        if target not in order:
            raise IllegalCommand("unknown_combatant", _("there is no combatant {t!r}").format(t=target))
        i = order.index(target)
        j = i - 1 if op == "initiative_up" else i + 1
        if 0 <= j < len(order):
            order[i], order[j] = order[j], order[i]
        return Command(actor=GM, do="set_initiative", order=tuple(order))
    raise IllegalCommand("invalid_command", _("unknown GM override {op!r}").format(op=op))


def _buttons(view: ActionView, names: dict[str, str]) -> list[dict[str, str]]:
    return [
        {"label": command_label(c, names, with_action=False) or view.label, "command": cmd_json(c)}
        for c in view.commands
    ]


def board_context(
    tracker: Tracker,
    live: Live,
    access: Access,
    ui: UI,
    request: Request,
    flash: tuple[str, str, str] | None = None,
) -> dict[str, Any]:
    with live.lock:
        return _context(tracker, live, access, ui, request, flash)


def _context(
    tracker: Tracker, live: Live, access: Access, ui: UI, request: Request, flash: tuple[str, str, str] | None
) -> dict[str, Any]:
    enc = live.enc
    names = live.names()
    colours = side_colours(enc)
    base = f"/t/{access.token}"
    is_gm = access.role == "gm"
    turn = enc.current

    # the pending decision: a prompt, with buttons for whoever may answer it
    prompt = None
    if enc.pending is not None:
        w = enc.pending
        views = actions(enc, w.actor)
        mine = access.may_command(w.actor)
        prompt = {
            "actor": w.actor,
            "name": names.get(w.actor, w.actor),
            "text": trigger_text(w.trigger, names),
            "mine": mine,
            "choices": [
                {
                    "label": command_label(c, names),
                    "command": cmd_json(c),
                    "decline": c.do == "decline",
                }
                for v in views
                for c in v.commands
            ],
        }

    # the current actor: economy chips and actions
    actor = None
    action_views: list[ActionView] = []
    can_act = False
    if turn is not None:
        can_act = access.may_command(turn.id) and enc.pending is None
        action_views = actions(enc, turn.id) if enc.pending is None else []
        actor = {
            "id": turn.id,
            "name": turn.name,
            "colour": colours[turn.side],
            "chips": chips(enc, turn, names),
            "hp": turn.hp,
            "max_hp": turn.max_hp,
            "state": turn.state,
            "state_label": label("state", turn.state),
        }
    menu = []
    for v in action_views:
        menu.append(
            {
                "do": v.do,
                "label": v.label,
                "legal": v.legal,
                "reason": f"{v.reason.message}" if v.reason is not None else "",
                "code": v.reason.code if v.reason is not None else "",
                "on_map": v.on_map,
                "buttons": [] if v.on_map else _buttons(v, names),
                "aiming": ui.mode == v.do,
                "count": len(v.commands),
            }
        )

    # aiming on the map: the squares an action can reach, and the preview of the chosen one
    reach: dict[Square, Command] = {}
    preview: dict[str, Any] | None = None
    provoke_at: dict[Square, list[str]] = {}
    if ui.mode == PLACE and is_gm and ui.sel is not None:
        for y in range(enc.grid.height):
            for x in range(enc.grid.width):
                s = (x, y)
                if enc.grid.kind(s) != BLOCKED and s not in enc.occupied:
                    reach[s] = Command(actor=GM, do="move_to", target=ui.sel, to=s)
    elif ui.mode is not None and can_act and turn is not None:
        view = next((v for v in action_views if v.do == ui.mode and v.on_map), None)
        if view is not None:
            reach = square_set(view.commands)
    if ui.dest is not None and ui.dest in reach:
        cmd = reach[ui.dest]
        if cmd.actor != GM:
            p = adapters.preview(enc, cmd)
            provoke_at = {sq: [names.get(i, i) for i in ids] for sq, ids in p.provokes}
            preview = {
                "label": command_label(cmd, names),
                "command": cmd_json(cmd),
                "metres": None if p.metres is None else metres(p.metres),
                "squares": len(p.path),
                "provokes": [
                    {"square": list(s), "by": [names.get(i, i) for i in ids]} for s, ids in p.provokes
                ],
                "known": p.known,
                "error": p.error.message if p.error else None,
            }
        else:
            preview = {"place": True, "command": cmd_json(cmd), "label": command_label(cmd, names)}
    path_index: dict[Square, int] = {}
    if ui.dest is not None and ui.dest in reach:
        for i, s in enumerate(adapters.movement_path(reach[ui.dest])):
            path_index[s] = i + 1

    selected = enc.combatants.get(ui.sel) if ui.sel else None
    threatened = set(adapters.threatened_squares(enc, selected)) if selected is not None else set()

    tokens = {c.pos: c for c in enc.combatants.values() if c.state != "dead"}
    for c in enc.combatants.values():  # the dead lie under the living
        tokens.setdefault(c.pos, c)
    rows = []
    for y in range(enc.grid.height):
        row = []
        for x in range(enc.grid.width):
            s = (x, y)
            cls = [TERRAIN[enc.grid.kind(s)]]
            if s in threatened:
                cls.append("threat")
            if s in reach:
                cls.append("reach")
            if s in path_index:
                cls.append("path")
            if s == ui.dest and s in reach:
                cls.append("dest")
            if s in provoke_at:
                cls.append("provoke")
            here = tokens.get(s)
            token = None
            if here is not None:
                token = {
                    "id": here.id,
                    "name": here.name,
                    "initials": initials(here.name),
                    "colour": colours[here.side],
                    "hp": hp_percent(here),
                    "state": here.state,
                    "state_label": label("state", here.state),
                    "current": turn is here,
                    "pending": enc.pending is not None and enc.pending.actor == here.id,
                    "selected": selected is here,
                    "conditions": conditions(enc, here),
                    "mine": access.may_command(here.id) and access.role == "player",
                }
            title = f"[{x},{y}]"
            if s in provoke_at:
                title += " — " + _("leaving provokes: {who}").format(who=", ".join(provoke_at[s]))
            row.append(
                {
                    "x": x,
                    "y": y,
                    "cls": " ".join(k for k in cls if k),
                    "token": token,
                    "aim": s in reach,
                    "step": path_index.get(s),
                    "title": title,
                }
            )
        rows.append(row)

    order = []
    for o in enc.order:
        order.append(
            {
                "id": o.id,
                "name": o.name,
                "initials": initials(o.name),
                "colour": colours[o.side],
                "side": o.side,
                "hp": o.hp,
                "max_hp": o.max_hp,
                "hp_pct": hp_percent(o),
                "state": o.state,
                "state_label": label("state", o.state),
                "conditions": conditions(enc, o),
                "current": turn is o,
                "pending": enc.pending is not None and enc.pending.actor == o.id,
                "mine": access.role == "player" and o.id in access.scope,
                "selected": selected is o,
            }
        )

    sel_view = None
    if selected is not None:
        sel_view = {
            "id": selected.id,
            "name": selected.name,
            "colour": colours[selected.side],
            "hp": selected.hp,
            "max_hp": selected.max_hp,
            "state": selected.state,
            "state_label": label("state", selected.state),
            "side": selected.side,
            "at": list(selected.pos),
            "conditions": conditions(enc, selected),
            "all_conditions": sorted(
                ({"id": k, "label": label("condition", k)} for k in enc.ruleset.conditions),
                key=lambda c: c["label"],
            ),
            "threatens": len(threatened),
            "chips": chips(enc, selected, names),
        }

    last_cmd = live.enc.log[-1] if live.enc.log else None
    can_undo = bool(last_cmd) and (is_gm or (last_cmd is not None and access.may_command(last_cmd.actor)))
    grants = tracker.grants(live.id)
    player_links = []
    if is_gm:
        root = str(request.base_url).rstrip("/")
        for g in grants:
            if g.role != "gm":
                player_links.append(
                    {
                        "label": grant_label(g, enc),
                        "role": role_label(g.role),
                        "url": f"{root}/t/{g.token}",
                    }
                )
    scope_names = [names.get(i, i) for i in sorted(access.scope)]
    outcome = enc.outcome()
    return {
        "live": live,
        "title": live.title,
        "ruleset": live.ruleset,
        "version": live.version,
        "round": enc.round,
        "base": base,
        "ui": ui,
        "refresh": f"{base}/board?{ui.query()}",
        "role": access.role,
        "is_gm": is_gm,
        "label": grant_label(access, enc),
        "mode_label": label("action", ui.mode) if ui.mode and ui.mode != PLACE else "",
        "scope_names": scope_names,
        "prompt": prompt,
        "actor": actor,
        "can_act": can_act,
        "menu": menu,
        "preview": preview,
        "rows": rows,
        "width": enc.grid.width,
        "height": enc.grid.height,
        "square_m": metres(enc.grid.square_m),
        "order": order,
        "sel": sel_view,
        "log": log_blocks(tracker.event_log(live), names, author_labels(grants, enc)),
        "can_undo": can_undo,
        "undo_label": command_label(last_cmd, names) if last_cmd is not None else "",
        "links": player_links,
        "outcome": outcome,
        "flash": flash,
        "turn_name": turn.name if turn is not None else None,
        "gm_name": _("GM"),
    }
