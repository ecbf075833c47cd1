"""``tactica play``: the fight in a terminal, saved to the same storage as the web tracker."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from tactica.cli import app
from tactica.server.storage import Store
from tactica.server.terminal import choices_for, play
from tactica.server.tracker import Access, Tracker

from .conftest import FIGHT


def gm_of(tracker: Tracker, table_id: str) -> Access:
    g = next(g for g in tracker.grants(table_id) if g.role == "gm")
    return Access(g.token, table_id, "gm", frozenset(), "GM")


def scripted(tracker: Tracker, access: Access, steps: list[str | Callable[[], str]]) -> Callable[[str], str]:
    """A reader that answers the prompts in order; a callable step looks at the table first."""
    it: Iterator[str | Callable[[], str]] = iter(steps)

    def read(_prompt: str) -> str:
        step = next(it)  # StopIteration would mean the loop asked more than the script says
        return step() if callable(step) else step

    return read


def number(tracker: Tracker, access: Access, label: str) -> Callable[[], str]:
    def find() -> str:
        choices, _who = choices_for(tracker.live(access.table_id), access)
        return str(next(c.number for c in choices if label in c.label))

    return find


def test_a_gm_plays_in_the_terminal(tracker: Tracker) -> None:
    made = tracker.create(FIGHT, "fight.yaml", origin="play:fight.yaml")
    gm = gm_of(tracker, made.table_id)
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    steps: list[str | Callable[[], str]] = [
        "u",  # nothing to undo yet: an error, the loop goes on
        "99",  # no such choice
        number(tracker, gm, "End the turn"),
        number(tracker, gm, "Attack"),
        number(tracker, gm, "Attack"),  # the second attack makes it a full attack
        "u",  # take it back
        "t orc",  # the orc's threatened squares
        lambda: number(tracker, gm, "Move X Y")() + " 1 2",  # leaving [2,2] provokes the orc: asked first
        "n",
        lambda: number(tracker, gm, "Move X Y")() + " 1 2",
        "y",
        number(tracker, gm, "Attack of opportunity"),
        "hp kyra 5",
        "l",
        "q",
    ]
    play(tracker, gm, scripted(tracker, gm, steps), console)
    text = out.getvalue()
    assert "there is nothing to undo" in text and "no choice 99" in text
    assert "full attack" in text and "undone" in text
    assert "leaving [2,2] provokes Orc" in text
    assert "Orc may react" in text
    assert "Orc attacks Valeros" in text
    assert " Va " in text and "███" in text  # the map: tokens and walls
    live = tracker.live(made.table_id)
    assert [c.do for c in live.enc.log] == ["end_turn", "attack", "move", "opportunity_attack", "set_hp"]
    assert live.enc.combatants["valeros"].pos == (1, 2) and live.enc.combatants["kyra"].hp == 5
    # saved: another process sees the same table
    again = Tracker(Store(tracker.store.url))
    assert again.live(made.table_id).enc.view() == live.enc.view()


def test_play_command_line(tmp_path: Path, sqlite_url: str) -> None:
    fight = tmp_path / "fight.yaml"
    fight.write_text(FIGHT)
    runner = CliRunner()
    r = runner.invoke(app, ["play", str(fight), "--db", sqlite_url], input="q\n")
    assert r.exit_code == 0, r.output
    assert "Orc" in r.output and "End the turn" in r.output
    store = Store(sqlite_url)
    [row] = store.tables()
    r = runner.invoke(app, ["play", "--resume", row.id, "--db", sqlite_url], input="")
    assert r.exit_code == 0 and row.id in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(FIGHT.replace("bab: 6", "bab: -1"))
    r = runner.invoke(app, ["play", str(bad), "--db", sqlite_url])
    assert r.exit_code == 2 and "combatants[0].stats.bab" in r.output
    assert runner.invoke(app, ["play", "--resume", "nope", "--db", sqlite_url]).exit_code == 2
    store.close()
