"""The ``tactica`` command line (typer + rich). Every message goes through the translation function."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .cli_language import print_error
from .engine.errors import EncounterError
from .i18n import N_, _, ngettext, set_language
from .vocabulary import label, resource_value

if TYPE_CHECKING:
    from .files.loader import ScriptStep

app = typer.Typer(
    help=N_("Tactica: a tactical combat rules engine (pf1, terza, lagornis)."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

EXAMPLES = Path(__file__).parent / "examples"

LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang", help=N_("Language: en, fr or it (default: TACTICA_LANG, else the locale, else en).")
    ),
]


def _file_error(exc: EncounterError) -> typer.Exit:
    for line in str(exc).splitlines():
        print_error(err, line)
    return typer.Exit(2)


@app.callback()
def _main(lang: LangOption = None) -> None:
    # main() has chosen it already, from anywhere in the arguments (the help must be in it too);
    # this is for callers of ``app`` itself (tests, embedders)
    if lang:
        set_language(lang)


@app.command(help=N_("Run an encounter with a script and print what happens."))
def replay(
    file: Annotated[Path, typer.Argument(help=N_("An encounter or case file (YAML or JSON)."))],
    script: Annotated[
        Path | None, typer.Option("--script", "-s", help=N_("A script file (list of commands)."))
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help=N_("Seed for dice the file does not force."))
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("One JSON object per line (format.md section 5)."))
    ] = False,
) -> None:
    from .files.loader import load_file, load_script
    from .files.replay import build, case_steps
    from .files.replay import replay as run

    try:
        loaded = load_file(file, seed=seed)
        steps, dice = load_script(script) if script else (case_steps(loaded), None)
        enc = build(loaded, dice)
    except EncounterError as exc:
        raise _file_error(exc) from None
    lines = run(enc, steps)
    if as_json:
        from .files.replay import to_line

        for line in lines:
            sys.stdout.write(to_line(line) + "\n")
        return
    names = {c.id: c.name for c in enc.combatants.values()}
    _print_readable(
        lines, steps, loaded.setup.seed if loaded.setup.dice is None and dice is None else None, names
    )


def _print_readable(
    lines: Iterable[dict[str, Any]], steps: Sequence[ScriptStep], seed: int | None, names: dict[str, str]
) -> None:
    from .files.narrate import narrate

    if seed is not None:
        out.print(_("[dim]seed: {seed}[/]").format(seed=seed))
    for line in lines:
        if "final" in line:
            _print_final(line["final"])
            continue
        step = line["step"]
        if step != "start":
            cmd = steps[step].command
            out.print(f"[bold blue]> {json.dumps(cmd, ensure_ascii=False)}[/]", soft_wrap=True)
        if not line["ok"]:
            e = line["error"]
            out.print(f"  [bold red]✗ {e['code']}[/]: {e['message']}", soft_wrap=True)
            continue
        for ev in line["events"]:
            out.print("  " + narrate(ev, names), soft_wrap=True)
        if line.get("pending"):
            p = line["pending"]
            out.print(
                "  [bold yellow]? "
                + _("{who} must decide: {choices}").format(
                    who=names.get(p["actor"], p["actor"]),
                    choices=" / ".join(label("action", c) for c in p["choices"]),
                )
                + "[/]"
            )


def shown(key: str, value: Any) -> str:
    """A resource's value as a person reads it (``yes``/``no`` for a flag)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return resource_value(key, value)


def _print_final(final: dict[str, Any]) -> None:
    table = Table(title=_("Round {r}, {t}'s turn").format(r=final["round"], t=final["turn"] or "-"))
    for col in (_("combatant"), _("at"), _("hp"), _("state"), _("conditions"), _("resources")):
        table.add_column(col)
    for cid, c in final["combatants"].items():
        res = ", ".join(f"{label('resource', k)} {shown(k, v)}" for k, v in c["resources"].items())
        table.add_row(
            cid,
            str(c["at"]),
            f"{c['hp']}/{c['max_hp']}",
            label("state", c["state"]),
            ", ".join(label("condition", k) for k in c["conditions"]),
            res,
        )
    out.print(table)


@app.command(help=N_("Replay the bundled example fight and print its readable log."))
def demo(
    seed: Annotated[int, typer.Option("--seed", help=N_("Seed for the dice."))] = 7,
) -> None:
    replay(EXAMPLES / "pf1-demo.yaml", None, seed, False)


@app.command(help=N_("Check files without running them; exit 2 if any is wrong."))
def validate(
    files: Annotated[list[Path], typer.Argument(help=N_("Encounter, case or script files."))],
) -> None:
    from .files.loader import load_file

    bad = 0
    for f in files:
        try:
            load_file(f)
        except EncounterError as exc:
            bad += 1
            for line in str(exc).splitlines():
                err.print(f"[bold red]✗[/] {line}", soft_wrap=True)
            continue
        out.print(f"[green]✓[/] {f}")
    if bad:
        raise typer.Exit(2)


@app.command(help=N_("Run conformance cases; report each failure and the rule ids covered and not covered."))
def conformance(
    paths: Annotated[list[Path], typer.Argument(help=N_("Case files or folders of them."))],
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help=N_("Also list the cases that pass."))
    ] = False,
) -> None:
    from .files.conformance import case_files, coverage, run_case
    from .rulesets import find_ruleset

    results = [run_case(p) for p in case_files(paths)]
    failed = 0
    for res in results:
        if res.failures:
            failed += 1
            out.print(_("[red]FAIL[/] {path}").format(path=escape(str(res.path))), soft_wrap=True)
            for f in res.failures:
                out.print(f"     {f}", soft_wrap=True)
        elif verbose:
            out.print(_("[green]ok[/] {path}").format(path=escape(str(res.path))))
    rulesets = sorted({r.ruleset for r in results if r.ruleset})
    gaps = coverage(results, {rs: find_ruleset(rs).rule_ids() for rs in rulesets})
    for rs in rulesets:
        ids = find_ruleset(rs).rule_ids()
        missing = gaps[rs]
        covered = len(ids) - len(missing)
        if missing:
            line = ngettext(
                "{rs}: {n} of {total} rule id covered; not covered: {ids}",
                "{rs}: {n} of {total} rule ids covered; not covered: {ids}",
                len(ids),
            ).format(rs=rs, n=covered, total=len(ids), ids=", ".join(missing))
        else:
            line = ngettext(
                "{rs}: all {total} rule id covered", "{rs}: all {total} rule ids covered", len(ids)
            ).format(rs=rs, total=len(ids))
        out.print(line)
    out.print(
        ngettext(
            "{n} case: {passed} passed, {failed} failed",
            "{n} cases: {passed} passed, {failed} failed",
            len(results),
        ).format(n=len(results), passed=len(results) - failed, failed=failed)
    )
    if failed:
        raise typer.Exit(1)


@app.command(help=N_("List a ruleset's rules (with their ids) and its variant switches."))
def rules(ruleset: Annotated[str, typer.Argument(help=N_("pf1, terza, lagornis, ..."))]) -> None:
    from .rulesets import find_ruleset

    try:
        rs = find_ruleset(ruleset)
    except EncounterError as exc:
        raise _file_error(exc) from None
    title = _(rs.title)
    table = Table(title=f"{rs.name}: {title}")
    table.add_column(_("rule"), overflow="fold", no_wrap=True)
    table.add_column(_("what it says"), overflow="fold")
    for r in rs.rules:
        table.add_row(r.id, _(r.text))
    out.print(table)
    if rs.variants:
        vt = Table(title=_("variants"))
        for col in (_("name"), _("type"), _("default"), _("what it does")):
            vt.add_column(col, overflow="fold")
        for v in rs.variants:
            vt.add_row(v.name, v.type.__name__, json.dumps(v.default), _(v.description))
        out.print(vt)


@app.command(help=N_("Print the JSON Schema of an encounter or case file."))
def schema(kind: Annotated[str, typer.Argument(help=N_("encounter or case"))]) -> None:
    from .files.schema import json_schema

    if kind not in ("encounter", "case"):
        err.print(_("error: choose encounter or case"))
        raise typer.Exit(2)
    sys.stdout.write(json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n")


# The tracker (server/) and the simulator (sim/) add their commands (serve, play, simulate) here.
for _package in ("tactica.server", "tactica.sim"):
    if find_spec(_package) is not None and find_spec(f"{_package}.cli") is not None:
        import_module(f"{_package}.cli").register(app)


def main() -> None:
    """The ``tactica`` command: the language first (``--lang``, ``TACTICA_LANG``, the locale), so
    that the help and Click's own messages are in it too."""
    from .cli_language import localize, take_lang

    lang, args = take_lang(sys.argv[1:])
    try:
        set_language(lang)
    except EncounterError as exc:
        raise SystemExit(_file_error(exc).exit_code) from None
    command = typer.main.get_command(app)
    localize(command, args)
    command(args=args, prog_name="tactica")


if __name__ == "__main__":
    main()
