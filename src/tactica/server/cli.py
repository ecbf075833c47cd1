"""The tracker's commands for the main CLI: ``tactica serve`` and ``tactica play``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..cli_language import print_error
from ..engine.errors import EncounterError
from ..i18n import N_, _

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help=N_(
            "Database URL (default: TACTICA_DATABASE_URL, else a SQLite file under ~/.local/share/tactica)."
        ),
    ),
]


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``play`` to the main CLI (their help is marked here and translated by the
    main CLI when it starts, in the language it chose)."""
    app.command(
        help=N_("Start the web tracker (GM and player pages, HTTP API with docs at /docs, live updates).")
    )(serve)
    app.command(
        help=N_("Run a fight in the terminal: map, order, economy, numbered commands, prompts, undo (saved).")
    )(play)


def serve(
    host: Annotated[
        str, typer.Option(help=N_("Address to listen on (0.0.0.0 lets phones on the LAN in)."))
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("Port (default: TACTICA_PORT or 8000)."))] = 0,
    db: DbOption = None,
    examples: Annotated[
        bool, typer.Option("--examples", help=N_("Open a table for each bundled example fight."))
    ] = False,
    public_url: Annotated[
        str | None, typer.Option("--public-url", help=N_("The address players use, for the printed links."))
    ] = None,
) -> None:
    import uvicorn

    from .app import create_app
    from .storage import Store
    from .tracker import Tracker

    port = port or int(os.environ.get("TACTICA_PORT", "8000"))
    store = Store(db)
    tracker = Tracker(store)
    base = (public_url or f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}").rstrip("/")
    out.print(_("[bold]Tactica tracker[/] · storage: {kind} · {url}").format(kind=store.kind, url=base))
    if examples:
        for title, token in tracker.ensure_examples():
            gm = _("GM: {url}").format(url=f"[link]{base}/t/{token}[/link]")
            out.print(f"  [bold]{title}[/] · {gm}", soft_wrap=True)
    out.print(
        "  " + _("new table: {url}  ·  API: {docs}").format(url=f"{base}/", docs=f"{base}/docs"),
        soft_wrap=True,
    )
    uvicorn.run(create_app(tracker), host=host, port=port, log_level="warning", access_log=False)


def play(
    file: Annotated[
        Path | None, typer.Argument(help=N_("An encounter file (YAML or JSON) to start a new table from."))
    ] = None,
    db: DbOption = None,
    resume: Annotated[
        str | None, typer.Option("--resume", help=N_("Continue a saved table (its id)."))
    ] = None,
) -> None:
    from .storage import Store
    from .terminal import play as loop
    from .tracker import Access, Tracker

    tracker = Tracker(Store(db))
    if resume:
        row = tracker.store.table(resume)
        if row is None:
            print_error(err, _("no table {t}").format(t=resume))
            raise typer.Exit(2)
        table_id = row.id
    elif file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            print_error(err, f"{file}: {exc}")
            raise typer.Exit(2) from None
        try:
            made = tracker.create(text, file.name, origin=f"play:{file.name}")
        except EncounterError as exc:
            for line in str(exc).splitlines():
                print_error(err, line)
            raise typer.Exit(2) from None
        table_id = made.table_id
    else:
        err.print(_("give an encounter FILE, or --resume TABLE"))
        raise typer.Exit(2)
    gm = next(g for g in tracker.grants(table_id) if g.role == "gm")
    access = Access(gm.token, table_id, "gm", frozenset(), gm.label)
    out.print(
        _(
            "table {t} (saved; continue with `tactica play --resume {t}` or in the browser at /t/{tok})"
        ).format(t=table_id, tok=gm.token),
        soft_wrap=True,
    )

    def read(prompt: str) -> str:
        return input(prompt)

    loop(tracker, access, read, out)
