"""The tracker's commands for the main CLI: ``tactica serve`` and ``tactica play``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..engine.errors import EncounterError
from ..i18n import _

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database URL (default: TACTICA_DATABASE_URL, else a SQLite file under ~/.local/share/tactica).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``play`` to the main CLI."""
    app.command()(serve)
    app.command()(play)


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 lets phones on the LAN in).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (default: TACTICA_PORT or 8000).")] = 0,
    db: DbOption = None,
    examples: Annotated[
        bool, typer.Option("--examples", help="Open a table for each bundled example fight.")
    ] = False,
    public_url: Annotated[
        str | None, typer.Option("--public-url", help="The address players use, for the printed links.")
    ] = None,
) -> None:
    """Start the web tracker (GM and player pages, HTTP API with docs at /docs, live updates)."""
    import uvicorn

    from .app import create_app
    from .storage import Store
    from .tracker import Tracker

    port = port or int(os.environ.get("TACTICA_PORT", "8000"))
    store = Store(db)
    tracker = Tracker(store)
    base = (public_url or f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}").rstrip("/")
    out.print(f"[bold]Tactica tracker[/] · {_('storage')}: {store.kind} · {base}")
    if examples:
        for title, token in tracker.ensure_examples():
            out.print(f"  [bold]{title}[/] · GM: [link]{base}/t/{token}[/link]", soft_wrap=True)
    out.print(f"  {_('new table')}: {base}/  ·  API: {base}/docs", soft_wrap=True)
    uvicorn.run(create_app(tracker), host=host, port=port, log_level="warning", access_log=False)


def play(
    file: Annotated[
        Path | None, typer.Argument(help="An encounter file (YAML or JSON) to start a new table from.")
    ] = None,
    db: DbOption = None,
    resume: Annotated[str | None, typer.Option("--resume", help="Continue a saved table (its id).")] = None,
) -> None:
    """Run a fight in the terminal: map, order, economy, numbered commands, prompts, undo (saved)."""
    from .storage import Store
    from .terminal import play as loop
    from .tracker import Access, Tracker

    tracker = Tracker(Store(db))
    if resume:
        row = tracker.store.table(resume)
        if row is None:
            err.print(f"[bold red]{_('error')}[/]: {_('no table {t}').format(t=resume)}")
            raise typer.Exit(2)
        table_id = row.id
    elif file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            err.print(f"[bold red]{_('error')}[/]: {file}: {exc}")
            raise typer.Exit(2) from None
        try:
            made = tracker.create(text, file.name, origin=f"play:{file.name}")
        except EncounterError as exc:
            for line in str(exc).splitlines():
                err.print(f"[bold red]{_('error')}[/]: {line}", soft_wrap=True)
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
