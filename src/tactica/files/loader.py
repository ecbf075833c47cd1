"""Load encounter, case and script files into engine setups, with errors that say what and where.

Every error names the file, the line, the YAML path (``combatants[1].stats.bab``) and what was
expected. Nothing here is on the engine's hot path: files are read once.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..engine.errors import EncounterError, EncounterErrors
from ..engine.state import CombatantSetup, MapSetup, Setup
from ..i18n import N_, _, ngettext, number
from ..rulesets import find_ruleset
from ..rulesets.base import Ruleset
from .models import CASE_KEYS, CaseModel, EncounterModel

Loc = tuple[str | int, ...]


def _yaml12_booleans(base: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    """A safe loader whose booleans are YAML 1.2's (true/false only): the spec writes
    ``hand: off`` and ``facing: N`` unquoted, and YAML 1.1 would read ``off``/``no``/``yes`` as booleans."""

    class Loader(base):  # type: ignore[valid-type, misc]
        pass

    bool_tag = "tag:yaml.org,2002:bool"
    Loader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != bool_tag]
        for first, resolvers in base.yaml_implicit_resolvers.items()
    }
    yaml12 = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
    Loader.add_implicit_resolver(bool_tag, yaml12, list("tTfF"))
    return Loader


YAML_LOADER = _yaml12_booleans(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
"""The loader for every file Tactica reads: safe, libyaml's parser when present, YAML 1.2 booleans."""


def format_loc(loc: Loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class YamlLines:
    """YAML path -> line number, from the composed node tree."""

    def __init__(self, text: str) -> None:
        self.root: yaml.Node | None
        try:
            self.root = yaml.compose(text, Loader=YAML_LOADER)
        except yaml.YAMLError:
            self.root = None

    def line(self, loc: Loc) -> int | None:
        node = self.root
        if node is None:
            return None
        line = node.start_mark.line + 1
        for part in loc:
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == part:
                        nxt = v
                        line = k.start_mark.line + 1
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
                nxt = node.value[part]
            if nxt is None:
                break
            node = nxt
            line = node.start_mark.line + 1
        return line


def read_yaml(path: str | Path) -> tuple[Any, YamlLines]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EncounterError(_("no such file"), file=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EncounterError(_("cannot read the file: {e}").format(e=exc), file=str(path)) from None
    try:
        data = yaml.load(text, Loader=YAML_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise EncounterError(
            _("not valid YAML: {e}").format(e=getattr(exc, "problem", None) or exc),
            file=str(path),
            line=mark.line + 1 if mark else None,
        ) from None
    return data, YamlLines(text)


# pydantic's error types, in the reader's words (pydantic's own messages are English only)
EXPECTED: dict[str, str] = {
    "int_type": N_("expected a whole number"),
    "int_parsing": N_("expected a whole number"),
    "int_from_float": N_("expected a whole number"),
    "float_type": N_("expected a number"),
    "float_parsing": N_("expected a number"),
    "finite_number": N_("expected a finite number"),
    "bool_type": N_("expected true or false"),
    "bool_parsing": N_("expected true or false"),
    "string_type": N_("expected a string"),
    "list_type": N_("expected a list"),
    "tuple_type": N_("expected a list"),
    "set_type": N_("expected a list"),
    "dict_type": N_("expected a mapping"),
    "model_type": N_("expected a mapping"),
    "model_attributes_type": N_("expected a mapping"),
}


def _pydantic_message(err: Mapping[str, Any]) -> str:
    """The message of one pydantic error in the current language (pydantic's English when the
    type is a rare one)."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind in EXPECTED:
        return _(EXPECTED[kind])
    if kind == "greater_than_equal":
        return _("expected a number of at least {n}").format(n=number(ctx.get("ge")))
    if kind == "greater_than":
        return _("expected a number greater than {n}").format(n=number(ctx.get("gt")))
    if kind == "less_than_equal":
        return _("expected a number of at most {n}").format(n=number(ctx.get("le")))
    if kind == "less_than":
        return _("expected a number less than {n}").format(n=number(ctx.get("lt")))
    if kind == "too_short" and isinstance(ctx.get("min_length"), int):
        n = ctx["min_length"]
        return ngettext("expected at least {n} item", "expected at least {n} items", n).format(n=n)
    if kind == "too_long" and isinstance(ctx.get("max_length"), int):
        n = ctx["max_length"]
        return ngettext("expected at most {n} item", "expected at most {n} items", n).format(n=n)
    if kind == "string_too_long" and isinstance(ctx.get("max_length"), int):
        n = ctx["max_length"]
        return ngettext("expected at most {n} character", "expected at most {n} characters", n).format(n=n)
    if kind == "string_too_short" and isinstance(ctx.get("min_length"), int):
        n = ctx["min_length"]
        return ngettext("expected at least {n} character", "expected at least {n} characters", n).format(n=n)
    if kind in ("literal_error", "enum") and isinstance(ctx.get("expected"), str):
        choices = re.findall(r"'([^']*)'", ctx["expected"]) or [ctx["expected"]]
        return _("expected one of {choices}").format(choices=", ".join(choices))
    msg = str(err["msg"])
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]  # our own validators' messages, translated when raised
    return msg


def describe_error(err: Mapping[str, Any]) -> str:
    """One pydantic error in words, in the current language (the file loader's and the tracker's
    API's: pydantic's own messages are English only)."""
    kind = err["type"]
    if kind == "extra_forbidden":
        return _("unknown key (not part of the format)")
    if kind == "missing":
        return _("required, but missing")
    msg = _pydantic_message(err)
    if "input" in err:
        return _("{msg} (got {value!r})").format(msg=msg, value=err["input"])
    return msg


def _validation_errors(
    exc: ValidationError, prefix: Loc, file: str, lines: YamlLines | None
) -> list[EncounterError]:
    out = []
    for err in exc.errors():
        loc = prefix + tuple(err["loc"])
        out.append(
            EncounterError(describe_error(err), format_loc(loc), file, lines.line(loc) if lines else None)
        )
    return out


def _stats_errors(
    data: Mapping[str, Any], file: str, lines: YamlLines | None, base_dir: Path | None, known: set[str]
) -> list[EncounterError]:
    """Best effort: the stats errors of a file whose outer structure already has errors."""
    try:
        ruleset = load_ruleset(str(data.get("ruleset")), base_dir)
    except Exception:
        return []
    out: list[EncounterError] = []
    combatants = data.get("combatants")
    for i, c in enumerate(combatants if isinstance(combatants, list) else []):
        if isinstance(c, Mapping) and isinstance(c.get("stats"), Mapping):
            try:
                ruleset.parse_stats(c["stats"])
            except ValidationError as exc:
                errs = _validation_errors(exc, ("combatants", i, "stats"), file, lines)
                out += [e for e in errs if e.where not in known]
    return out


@dataclass(frozen=True)
class Loaded:
    """A loaded file: the setup to build encounters from, and the case parts if it is a case."""

    setup: Setup
    ruleset: Ruleset
    case: CaseModel | None
    file: str


def load_ruleset(name: str, base_dir: Path | None) -> Ruleset:
    """A built-in or installed ruleset by name, or a Python file that defines ``RULESET``."""
    if name.endswith(".py"):
        import importlib.util

        path = (base_dir / name) if base_dir and not Path(name).is_absolute() else Path(name)
        spec = importlib.util.spec_from_file_location(f"tactica_user_ruleset_{path.stem}", path)
        if spec is None or spec.loader is None or not path.exists():
            raise EncounterError(_("no ruleset file {p}").format(p=path), where="ruleset")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rs = getattr(module, "RULESET", None)
        if not isinstance(rs, Ruleset):
            raise EncounterError(_("{p} defines no RULESET").format(p=path), where="ruleset")
        return rs
    return find_ruleset(name)


def setup_from_data(
    data: Any,
    file: str = "<data>",
    lines: YamlLines | None = None,
    seed: int | None = None,
    base_dir: Path | None = None,
) -> Loaded:
    """Check a parsed encounter or case mapping and build its :class:`Setup`."""
    if not isinstance(data, Mapping):
        raise EncounterError(
            _("an encounter file must be a mapping (ruleset:, map:, combatants:, ...)"), file=file
        )
    is_case = any(k in data for k in CASE_KEYS)
    try:
        model: EncounterModel = (CaseModel if is_case else EncounterModel).model_validate(data)
    except ValidationError as exc:
        # report the stats' own errors too, so one run shows every problem of the file
        errs = _validation_errors(exc, (), file, lines)
        errs += _stats_errors(data, file, lines, base_dir, {e.where for e in errs})
        raise EncounterErrors(errs) from None
    errors: list[EncounterError] = []

    def err(message: str, loc: Loc) -> None:
        errors.append(EncounterError(message, format_loc(loc), file, lines.line(loc) if lines else None))

    try:
        ruleset = load_ruleset(model.ruleset, base_dir)
    except EncounterError as exc:
        raise EncounterError(
            exc.message, "ruleset", file, lines.line(("ruleset",)) if lines else None
        ) from None
    try:
        ruleset.resolve_variants(model.variant)
    except EncounterError as exc:
        loc: Loc = tuple(exc.where.split(".", 1)) if exc.where else ("variant",)
        err(exc.message, loc)

    m = model.map
    squares: dict[tuple[int, int], str] = {}
    for key in ("difficult", "very_difficult", "blocked"):
        for i, (x, y) in enumerate(getattr(m, key)):
            if not (0 <= x < m.width and 0 <= y < m.height):
                err(
                    _("square [{x}, {y}] is off the {w}x{h} map").format(x=x, y=y, w=m.width, h=m.height),
                    ("map", key, i),
                )
            squares[(x, y)] = key
    combatants = []
    seen: dict[str, int] = {}
    taken: dict[tuple[int, int], str] = {}
    for i, c in enumerate(model.combatants):
        if c.id in seen:
            err(
                _("id {id!r} is already used by combatants[{j}]").format(id=c.id, j=seen[c.id]),
                ("combatants", i, "id"),
            )
        if c.id == "gm":
            err(_("the id 'gm' is reserved for the game master"), ("combatants", i, "id"))
        seen[c.id] = i
        x, y = c.at
        if not (0 <= x < m.width and 0 <= y < m.height):
            err(
                _("square [{x}, {y}] is off the {w}x{h} map").format(x=x, y=y, w=m.width, h=m.height),
                ("combatants", i, "at"),
            )
        elif squares.get((x, y)) == "blocked":
            err(_("square [{x}, {y}] is a wall").format(x=x, y=y), ("combatants", i, "at"))
        if (x, y) in taken:
            err(
                _("square [{x}, {y}] is already taken by {o}").format(x=x, y=y, o=taken[(x, y)]),
                ("combatants", i, "at"),
            )
        taken[(x, y)] = c.id
        for j, cond in enumerate(c.conditions):
            if cond in ruleset.engine_conditions:
                err(
                    _("{c!r} follows from the rules and cannot start a fight").format(c=cond),
                    ("combatants", i, "conditions", j),
                )
            elif cond not in ruleset.conditions:
                err(
                    _("unknown condition {c!r} (known: {known})").format(
                        c=cond, known=", ".join(sorted(ruleset.conditions))
                    ),
                    ("combatants", i, "conditions", j),
                )
        try:
            stats = ruleset.parse_stats(c.stats)
        except ValidationError as exc:
            errors.extend(_validation_errors(exc, ("combatants", i, "stats"), file, lines))
            continue
        combatants.append(CombatantSetup(c.id, c.side, (x, y), stats, c.name, c.facing, tuple(c.conditions)))
    for key in ("initiative", "surprise"):
        ids = getattr(model, key) or []
        for j, ident in enumerate(ids):
            if ident not in seen:
                err(_("{id!r} is not a combatant").format(id=ident), (key, j))
        if len(set(ids)) != len(ids):
            err(_("a combatant is listed twice"), (key,))
    if model.initiative is not None and set(model.initiative) != set(seen):
        missing = sorted(set(seen) - set(model.initiative))
        if missing:
            err(
                _("the initiative order must list every combatant; missing: {m}").format(
                    m=", ".join(missing)
                ),
                ("initiative",),
            )
    if errors:
        raise EncounterErrors(errors)
    chosen_seed = seed if seed is not None else model.seed
    if chosen_seed is None:
        chosen_seed = secrets.randbelow(2**31)
    setup = Setup(
        ruleset=model.ruleset,
        map=MapSetup(
            m.width,
            m.height,
            m.square_m,
            tuple((x, y) for x, y in m.difficult),
            tuple((x, y) for x, y in m.very_difficult),
            tuple((x, y) for x, y in m.blocked),
        ),
        combatants=tuple(combatants),
        variants=dict(model.variant),
        seed=chosen_seed,
        dice=tuple(model.dice) if model.dice is not None else None,
        initiative=tuple(model.initiative) if model.initiative is not None else None,
        surprise=tuple(model.surprise),
    )
    return Loaded(setup, ruleset, model if isinstance(model, CaseModel) else None, file)


def load_file(path: str | Path, seed: int | None = None) -> Loaded:
    data, lines = read_yaml(path)
    return setup_from_data(data, str(path), lines, seed, Path(path).parent)


@dataclass(frozen=True)
class ScriptStep:
    command: Any  # the raw mapping: it is checked when it runs, so a bad one is a rejected step
    expect: dict[str, Any] | None


def script_from_data(
    data: Any, file: str, lines: YamlLines | None = None
) -> tuple[list[ScriptStep], list[int] | None]:
    """A script file: a list of commands (or ``{do: command, expect: ...}`` steps), or a mapping
    with ``script:`` and optional ``dice:``."""
    dice = None
    steps = data
    if isinstance(data, Mapping):
        unknown = set(data) - {"script", "dice"}
        if unknown:
            raise EncounterError(_("unknown key (a script has script: and dice:)"), sorted(unknown)[0], file)
        steps = data.get("script") or []
        dice = data.get("dice")
        if dice is not None and (not isinstance(dice, list) or not all(isinstance(d, int) for d in dice)):
            raise EncounterError(_("dice must be a list of whole numbers"), "dice", file)
    if not isinstance(steps, list):
        raise EncounterError(_("a script must be a list of commands"), "script", file)
    out = []
    for i, step in enumerate(steps):
        if isinstance(step, Mapping) and "do" in step and isinstance(step["do"], Mapping):
            extra = set(step) - {"do", "expect"}
            if extra:
                loc: Loc = ("script", i, sorted(extra)[0])
                raise EncounterError(
                    _("unknown key in a script step"),
                    format_loc(loc),
                    file,
                    lines.line(loc) if lines else None,
                )
            out.append(ScriptStep(step["do"], step.get("expect")))
        else:
            out.append(ScriptStep(step, None))
    return out, dice


def load_script(path: str | Path) -> tuple[list[ScriptStep], list[int] | None]:
    data, lines = read_yaml(path)
    return script_from_data(data, str(path), lines)
