"""``tactica simulate``: the command a rules designer runs (the main CLI calls :func:`register`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..cli_language import print_error
from ..engine.errors import EncounterError
from ..i18n import N_, _
from .fmt import count

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


HELP = N_(
    "Play thousands of fights with a policy per side; report win rates, rounds, damage and more, "
    "and with --compare, what a rule variant changes."
)
"""The command's help (the main command line translates the help texts when it starts)."""


def register(app: typer.Typer) -> None:
    app.command(name="simulate", help=HELP)(simulate)


def simulate(
    file: Annotated[
        Path, typer.Argument(help=N_("An encounter file, or a simulation file (encounter: ...)."))
    ],
    fights: Annotated[
        int | None, typer.Option("-n", "--fights", help=N_("Fights per arm (default 1000)."))
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help=N_("name=value: a rule variant for every fight (repeat).")),
    ] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare", help=N_("name=value: run B with this variant too, and compare with A (repeat).")
        ),
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy", help=N_("side=name or combatant=name: aggressive, cautious, random, ... (repeat).")
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help=N_("Master seed (default 1): same seed, same results."))
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help=N_("Local processes (default: one per core)."))
    ] = None,
    backend: Annotated[str, typer.Option("--backend", help=N_("local or dask."))] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help=N_("The Dask scheduler address, e.g. tcp://10.0.0.5:8786.")),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help=N_("Write fights.csv/.parquet, summary.json and plots here.")),
    ] = None,
    dump_fight: Annotated[
        list[int] | None,
        typer.Option(
            "--dump-fight",
            help=N_("Export fight K as a case file (of each arm) instead of running (repeat)."),
        ),
    ] = None,
    max_rounds: Annotated[
        int | None,
        typer.Option("--max-rounds", help=N_("Stop a fight after this round (default 50): unfinished.")),
    ] = None,
    plots: Annotated[
        bool, typer.Option("--plots/--no-plots", help=N_("Write the PNG plots with --out."))
    ] = True,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help=N_("Check the engine's invariants after every command (slow; for ruleset authors)."),
        ),
    ] = False,
) -> None:
    # the help is HELP, given where the command is registered (a docstring is not translated)
    from .batch import make_backend
    from .batch import simulate as run
    from .output import fight_case, write_all, write_case
    from .report import print_report
    from .scenario import DEFAULT_FIGHTS, DEFAULT_MAX_ROUNDS, DEFAULT_SEED, SimSpec, parse_assignment, read

    try:
        scenario, sim = read(file)
        spec = SimSpec(
            scenario,
            fights=_pick(fights, sim.fights if sim else None, DEFAULT_FIGHTS),
            seed=_pick(seed, sim.seed if sim else None, DEFAULT_SEED),
            variant={**(sim.variant if sim else {}), **_pairs(variant, "--variant", parse_assignment)},
            compare={**(sim.compare if sim else {}), **_pairs(compare, "--compare", parse_assignment)},
            policies={
                **(sim.policies if sim else {}),
                **{k: str(v) for k, v in _pairs(policy, "--policy", parse_assignment).items()},
            },
            max_rounds=_pick(max_rounds, sim.max_rounds if sim else None, DEFAULT_MAX_ROUNDS),
            check=check,
        )
        spec.validate()
        chosen = make_backend(backend, workers, scheduler)
    except EncounterError as exc:
        for line in str(exc).splitlines():
            print_error(err, line)
        raise typer.Exit(2) from None

    if dump_fight:
        where = out_dir or Path.cwd()
        for k in dump_fight:
            for a, arm in enumerate(spec.arms):
                path = where / f"fight-{k}{'' if len(spec.arms) == 1 else '-' + arm.label}.yaml"
                write_case(fight_case(spec, k, a), path)
                out.print(_("fight {k} (arm {arm}) → {path}").format(k=k, arm=arm.label, path=path))
        return

    total = spec.fights * len(spec.arms)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _Speed(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task(_("simulating"), total=total)
        result = run(spec, chosen, progress=lambda n: bar.advance(task, n))
    print_report(result, out)
    if out_dir is not None:
        for path in write_all(result, out_dir, plots=plots):
            # Translators: a file a run wrote (fights.csv, summary.json, a plot)
            out.print(Text(_("wrote {path}").format(path=path), style="dim"))


class _Speed(ProgressColumn):
    """Fights per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            return Text("", style="cyan")
        # Translators: the progress bar's speed: fights played per second
        return Text(_("{n} fights/s").format(n=count(round(speed))), style="cyan")


def _pick(*values: Any) -> Any:
    return next(v for v in values if v is not None)


def _pairs(items: list[str] | None, what: str, parse: Any) -> dict[str, Any]:
    return dict(parse(text, what) for text in items or [])
