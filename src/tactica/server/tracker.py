"""The tracker's core, shared by the HTTP API, the web page and the terminal: tables, access, writes.

A table lives in memory as an :class:`~tactica.Encounter` rebuilt from storage (its file, then its
log replayed), guarded by a lock. A write is checked (who may send it, which version it was made
against), applied to the encounter (the engine refuses it whole or accepts it whole), committed to
the log, and only then answered and published. If the commit fails, the encounter takes the command
back (``undo`` rebuilds it exactly), so memory never holds what the database does not.
"""

from __future__ import annotations

import copy
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from .. import available_rulesets
from ..engine.commands import Command
from ..engine.core import GM, Encounter
from ..engine.errors import EncounterError, IllegalCommand
from ..files.loader import YAML_LOADER, Loaded, YamlLines, setup_from_data
from ..files.models import CASE_KEYS
from ..i18n import _
from .hub import Hub
from .storage import GrantRow, LogRow, Stale, Store, effective

MAX_FILE_BYTES = 256 * 1024
"""The largest encounter file a table accepts (a 100-combatant fight is about 40 kB)."""
MAX_MAP_SIDE = 100
MAX_COMBATANTS = 100
MAX_LIVE = 512
"""Tables kept in memory at once (a table not used for a while is replayed from storage when needed)."""

EXAMPLE_DIRS = (
    Path(__file__).resolve().parents[1] / "examples",
    Path(__file__).resolve().parent / "examples",
)


class Forbidden(Exception):
    """This link may not do that (a spectator writing, a player acting for someone else)."""


class NotFound(Exception):
    """No table for this id (or this token grants nothing on it: the two look the same)."""


class Conflict(Exception):
    """The write was made against an older version of the table; nothing was applied."""

    def __init__(self, version: int) -> None:
        super().__init__(_("the table has changed since (now at version {v})").format(v=version))
        self.version = version


class Broken(Exception):
    """The stored log no longer replays (the rules changed under it)."""


@dataclass(frozen=True)
class Access:
    """What one link may do. The GM may do everything; a player commands its ``scope``; a spectator
    only watches."""

    token: str
    table_id: str
    role: str
    scope: frozenset[str]
    label: str

    @property
    def can_write(self) -> bool:
        return self.role in ("gm", "player")

    def may_command(self, actor: str) -> bool:
        if self.role == "gm":
            return True
        return self.role == "player" and actor != GM and actor in self.scope

    def check_command(self, actor: str) -> None:
        if self.role == "spectator":
            raise Forbidden(_("this is a spectator link: it can only watch"))
        if not self.may_command(actor):
            raise Forbidden(_("this link may not act for {actor}").format(actor=actor))


@dataclass
class Live:
    """A table in memory. Touch ``enc`` only while holding ``lock``."""

    id: str
    title: str
    ruleset: str
    seed: int
    source: str
    data: dict[str, Any]
    loaded: Loaded
    enc: Encounter
    version: int
    entries: list[LogRow]  # the command entries in force, in order (enc.log mirrors them)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.enc.combatants.values()}


@dataclass(frozen=True)
class Outcome:
    """What a write did: the message published to the table's watchers (and answered to the writer)."""

    message: dict[str, Any]

    @property
    def version(self) -> int:
        return int(self.message["version"])


@dataclass(frozen=True)
class Created:
    table_id: str
    title: str
    grants: list[GrantRow]

    def token(self, role: str) -> str:
        return next(g.token for g in self.grants if g.role == role)


# -- reading encounter files -----------------------------------------------------------------------
def _no_aliases(text: str) -> None:
    """YAML aliases can expand a small file into a huge document ("billion laughs"): refused."""
    try:
        for ev in yaml.parse(text, Loader=YAML_LOADER):
            if isinstance(ev, yaml.AliasEvent):
                raise EncounterError(_("YAML aliases (*name) are not accepted in a table's file"))
    except yaml.YAMLError:
        return  # the real load reports it with its line


def read_source(
    text: str, filename: str = "encounter.yaml", seed: int | None = None
) -> tuple[dict[str, Any], Loaded]:
    """Check an uploaded encounter file (YAML or JSON) and load it. A case file is accepted too:
    its script and expectations are left out (the table starts at the beginning of the fight)."""
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise EncounterError(
            _("the file is larger than {n} kB").format(n=MAX_FILE_BYTES // 1024), file=filename
        )
    _no_aliases(text)
    try:
        data = yaml.load(text, Loader=YAML_LOADER)  # a safe loader (libyaml's when present)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise EncounterError(
            _("not valid YAML: {e}").format(e=getattr(exc, "problem", None) or exc),
            file=filename,
            line=mark.line + 1 if mark else None,
        ) from None
    if not isinstance(data, dict):
        raise EncounterError(
            _("an encounter file must be a mapping (ruleset:, map:, combatants:, ...)"), file=filename
        )
    data = {k: v for k, v in data.items() if k not in CASE_KEYS}
    rs = data.get("ruleset")
    # a file may name a Python ruleset file for the CLI; a table only runs installed rulesets
    if rs not in available_rulesets():
        raise EncounterError(
            _("unknown ruleset {name!r} (known: {known})").format(
                name=rs, known=", ".join(sorted(available_rulesets()))
            ),
            where="ruleset",
            file=filename,
        )
    m = data.get("map")
    if isinstance(m, dict):
        for key in ("width", "height"):
            v = m.get(key)
            if isinstance(v, int) and v > MAX_MAP_SIDE:
                raise EncounterError(
                    _("the tracker shows maps of at most {n} squares a side").format(n=MAX_MAP_SIDE),
                    where=f"map.{key}",
                    file=filename,
                )
    cs = data.get("combatants")
    if isinstance(cs, list) and len(cs) > MAX_COMBATANTS:
        raise EncounterError(
            _("at most {n} combatants per table").format(n=MAX_COMBATANTS), where="combatants", file=filename
        )
    try:
        loaded = setup_from_data(data, filename, None, seed)
    except EncounterError:
        # again with the line of each problem (finding lines costs a second parse: only on errors)
        setup_from_data(data, filename, YamlLines(text), seed)
        raise
    return data, loaded


def _title(data: Mapping[str, Any], filename: str) -> str:
    desc = data.get("description")
    if isinstance(desc, str) and desc.strip():
        return desc.strip().splitlines()[0][:120]
    stem = Path(filename).stem.replace("_", " ").replace("-", " ").strip()
    return stem[:120] or _("a fight")


class Tracker:
    """Tables in storage and in memory; every write goes through here."""

    def __init__(self, store: Store, hub: Hub | None = None) -> None:
        self.store = store
        self.hub = hub or Hub()
        self._live: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self._loading = threading.Lock()
        self._grants: dict[str, Access] = {}  # a grant never changes once made: kept after the first look
        self._links: dict[str, tuple[GrantRow, ...]] = {}  # a table's grants, kept the same way

    # -- creating ----------------------------------------------------------------------------------
    def create(
        self, text: str, filename: str = "encounter.yaml", title: str | None = None, origin: str = "upload"
    ) -> Created:
        """A new table from an encounter file; its GM, spectator, side and combatant links."""
        data, loaded = read_source(text, filename)
        enc = Encounter(loaded.setup, loaded.ruleset)
        try:
            enc.start()
        except IllegalCommand as exc:  # forced dice that cannot even roll initiative
            raise EncounterError(exc.message, file=filename) from None
        table_id = secrets.token_urlsafe(6)
        grants = [
            GrantRow(_token(), table_id, "gm", (), "GM"),
            GrantRow(_token(), table_id, "spectator", (), "spectator"),
        ]
        sides: dict[str, list[str]] = {}
        for c in enc.combatants.values():
            sides.setdefault(c.side, []).append(c.id)
        for side, ids in sides.items():
            grants.append(GrantRow(_token(), table_id, "player", tuple(ids), f"side {side}"))
        for c in enc.combatants.values():
            grants.append(GrantRow(_token(), table_id, "player", (c.id,), c.name))
        title = (title or "").strip()[:120] or _title(data, filename)
        self.store.create_table(
            table_id,
            title=title,
            ruleset=loaded.setup.ruleset,
            source=text,
            seed=loaded.setup.seed,
            origin=origin,
            grants=grants,
        )
        return Created(table_id, title, grants)

    def ensure_examples(self) -> list[tuple[str, str]]:
        """A table for each bundled example fight (made once, kept across restarts): (title, GM token)."""
        out = []
        for folder in EXAMPLE_DIRS:
            for path in sorted(folder.glob("*.yaml")):
                origin = f"example:{path.name}"
                existing = self.store.tables(origin)
                if existing:
                    gm = next(g for g in self.store.grants(existing[0].id) if g.role == "gm")
                    out.append((existing[0].title, gm.token))
                    continue
                try:
                    made = self.create(path.read_text(encoding="utf-8"), path.name, origin=origin)
                except EncounterError:
                    continue  # an example for a ruleset not installed here
                out.append((made.title, made.token("gm")))
        return out

    # -- reading -----------------------------------------------------------------------------------
    def access(self, token: str | None) -> Access | None:
        if not token or len(token) > 64:
            return None
        known = self._grants.get(token)
        if known is not None:
            return known
        g = self.store.grant(token)
        if g is None:
            return None
        access = Access(g.token, g.table_id, g.role, frozenset(g.scope), g.label)
        if len(self._grants) < 100_000:
            self._grants[token] = access
        return access

    def live(self, table_id: str) -> Live:
        """The table in memory (replayed from storage on first use; the least recently used are let
        go past ``MAX_LIVE``: they are replayed again when next needed)."""
        with self._loading:
            live = self._live.get(table_id)
            if live is not None:
                self._live.move_to_end(table_id)
                return live
        with self._loading:
            live = self._live.get(table_id)
            if live is None:
                live = self._load(table_id)
                self._live[table_id] = live
                while len(self._live) > MAX_LIVE:
                    self._live.popitem(last=False)
        return live

    def forget(self, table_id: str) -> None:
        """Drop the in-memory table (the next read replays it from storage)."""
        with self._loading:
            self._live.pop(table_id, None)

    def _load(self, table_id: str) -> Live:
        row = self.store.table(table_id)
        if row is None:
            raise NotFound(table_id)
        data, loaded = read_source(row.source, f"table {table_id}", seed=row.seed)
        enc = Encounter(loaded.setup, loaded.ruleset)
        enc.start()
        log = self.store.log(table_id)
        entries = effective(log)
        for e in entries:
            try:
                enc.apply(e.command or {})
            except IllegalCommand as exc:
                raise Broken(
                    _("table {t}: log entry {n} no longer replays: {code}: {msg}").format(
                        t=table_id, n=e.seq, code=exc.code, msg=exc.message
                    )
                ) from None
        version = log[-1].seq if log else 0
        return Live(row.id, row.title, row.ruleset, row.seed, row.source, data, loaded, enc, version, entries)

    def grants(self, table_id: str) -> list[GrantRow]:
        """Every link of a table (made with it, never changed: every page shows who wrote each entry)."""
        known = self._links.get(table_id)
        if known is None:
            known = tuple(self.store.grants(table_id))
            if known and len(self._links) < 10_000:
                self._links[table_id] = known
        return list(known)

    # -- writing -----------------------------------------------------------------------------------
    def act(self, access: Access, seen: int, command: Mapping[str, Any] | Command) -> Outcome:
        """Apply one command sent through ``access`` against version ``seen``."""
        cmd = command if isinstance(command, Command) else Command.from_json(command)
        access.check_command(cmd.actor)
        live = self.live(access.table_id)
        with live.lock:
            self._check_version(live, seen)
            result = live.enc.apply(cmd)  # IllegalCommand: refused whole, nothing changed
            entry = self._commit(live, seen, "command", cmd, access.label)
            live.entries.append(entry)
            msg = self._message(live, "command", cmd.to_json(), access.label, result.events)
            self.hub.publish(live.id, msg)  # under the lock: watchers get the steps in order
        return Outcome(msg)

    def answer(self, access: Access, seen: int, answer: Mapping[str, Any]) -> Outcome:
        """Answer the pending decision (``actor`` defaults to the one who must decide)."""
        live = self.live(access.table_id)
        with live.lock:
            pending = live.enc.pending
            if pending is None:
                self._check_version(live, seen)
                raise IllegalCommand("not_allowed", _("there is no decision to answer"))
            data = dict(answer)
            data.setdefault("actor", pending.actor)
            return self.act(access, seen, data)

    def undo(self, access: Access, seen: int) -> Outcome:
        """Take back the latest command in force. The GM may take back anything; a player only a
        command of its own combatants (our choice: a misclick is fixed without calling the GM, and
        nobody can erase what someone else did)."""
        if not access.can_write:
            raise Forbidden(_("this is a spectator link: it can only watch"))
        live = self.live(access.table_id)
        with live.lock:
            self._check_version(live, seen)
            if not live.entries:
                raise IllegalCommand("not_allowed", _("there is nothing to undo"))
            last = live.enc.log[-1]
            access.check_command(last.actor)
            live.enc.undo()
            self._commit(live, seen, "undo", None, access.label, restore=last)
            live.entries.pop()
            msg = self._message(live, "undo", last.to_json(), access.label, [])
            self.hub.publish(live.id, msg)
        return Outcome(msg)

    def _check_version(self, live: Live, seen: int) -> None:
        if seen != live.version:
            raise Conflict(live.version)

    def _commit(
        self,
        live: Live,
        seen: int,
        kind: str,
        cmd: Command | None,
        author: str,
        restore: Command | None = None,
    ) -> LogRow:
        """Commit the entry; if that fails, put the encounter back as the log has it."""
        try:
            new = self.store.append(live.id, seen, kind, None if cmd is None else cmd.to_json(), author)
        except BaseException as exc:
            if kind == "command":
                live.enc.undo()
            elif restore is not None:
                live.enc.apply(restore)
            if isinstance(exc, Stale):
                # another process wrote to this table: the next use reloads it from storage, and
                # whoever still holds this copy is refused by the database the same way
                self.forget(live.id)
                raise Conflict(exc.current) from None
            raise
        live.version = new
        return LogRow(new, kind, None if cmd is None else cmd.to_json(), author, datetime.now(UTC))

    def _message(
        self, live: Live, kind: str, command: dict[str, Any], author: str, events: list[dict[str, Any]]
    ) -> dict[str, Any]:
        enc = live.enc
        return {
            "type": "step",
            "table": live.id,
            "version": live.version,
            "kind": kind,
            "command": command,
            "author": author,
            "events": events,
            "pending": None if enc.pending is None else enc.pending.to_json(),
            "round": enc.round,
            "turn": enc.turn,
            "outcome": enc.outcome(),
        }

    # -- the record --------------------------------------------------------------------------------
    def event_log(self, live: Live) -> list[dict[str, Any]]:
        """The fight so far: the start, then each command in force with its events."""
        with live.lock:
            enc = live.enc
            out: list[dict[str, Any]] = [{"step": "start", "events": list(enc.start_events or [])}]
            for entry, cmd, events in zip(live.entries, enc.log, enc.history, strict=True):
                out.append(
                    {
                        "seq": entry.seq,
                        "command": cmd.to_json(),
                        "author": entry.author,
                        "events": list(events),
                    }
                )
            return out

    def case(self, live: Live, with_seed: bool = False) -> dict[str, Any]:
        """The fight as a case file (format.md section 4): the encounter, the commands in force as
        the script, and every die face rolled as forced ``dice``, with what each step did as its
        expectation. Replaying it gives the same fight whatever becomes of the seeded dice, so any
        fight can become a test or a bug report. The seed is left out
        unless ``with_seed``: whoever knows it can foresee every roll to come."""
        with live.lock:
            commands = list(live.enc.log)
        enc = Encounter(live.loaded.setup, live.loaded.ruleset)
        rec = _RecordingDice(enc.dice)
        enc.dice = rec  # type: ignore[assignment]  # keeps the faces; its position is the inner one's
        start = enc.start()
        script = []
        for cmd in commands:
            r = enc.apply(cmd)
            script.append(
                {
                    "do": cmd.to_json(),
                    "expect": {"ok": True, "events": r.events, "pending": _pending_expect(r.pending)},
                }
            )
        case: dict[str, Any] = {"case": f"tracker/{live.id}", "rules": []}
        for k, v in live.data.items():
            if k not in ("seed", "dice"):
                case[k] = copy.deepcopy(v)
        if with_seed:
            # only for the GM: the seed tells every die still to come (the forced dice replay the
            # fight without it)
            case["seed"] = live.seed
        case["dice"] = list(rec.faces)
        case["script"] = script
        case["expect_start"] = {"events": start.events, "pending": _pending_expect(start.pending)}
        case["expect_final"] = {
            "round": enc.round,
            "turn": enc.turn,
            "combatants": {
                c.id: {
                    "at": [c.pos[0], c.pos[1]],
                    "hp": c.hp,
                    "state": c.state,
                    "conditions": v["conditions"],
                }
                for c in enc.combatants.values()
                for v in [enc.ruleset.combatant_view(enc, c)]
            },
        }
        return case


def _pending_expect(w: Any) -> dict[str, Any] | None:
    return None if w is None else {"actor": w.actor, "choices": list(w.choices)}


class _RecordingDice:
    """Hands out the faces of ``inner`` and keeps them (for a case file's forced ``dice``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.faces: list[int] = []

    @property
    def position(self) -> int:
        return int(self.inner.position)

    def roll(self, sides: int) -> int:
        face = int(self.inner.roll(sides))
        self.faces.append(face)
        return face


def _token() -> str:
    return secrets.token_urlsafe(24)


def case_yaml(case: dict[str, Any]) -> str:
    return yaml.safe_dump(case, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


def iter_examples() -> Iterator[Path]:
    for folder in EXAMPLE_DIRS:
        yield from sorted(folder.glob("*.yaml"))
