"""Every word a real run shows is in the French and Italian catalogs.

The catalog check (test_i18n.py) compares the catalogs with what the extractor finds in the source;
these tests catch what it cannot see: a message built at run time, an identifier without a label, a
``_()`` inside an f-string (which Babel does not read). Each runs real commands with
``TACTICA_I18N_MISSING`` set, which makes the catalogs write down every message they were asked for
and do not have; the list must stay empty.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tactica import i18n
from tactica.i18n import language
from tactica.server.app import create_app
from tactica.server.storage import Store
from tactica.server.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "conformance"
EXAMPLES = ROOT / "src" / "tactica" / "examples"


def run(log: Path, lang: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TACTICA_LANG", *i18n.LOCALE_VARIABLES)}
    env.update({i18n.MISSING_LOG: str(log), "COLUMNS": "160"})
    return subprocess.run(
        [sys.executable, "-m", "tactica.cli", "--lang", lang, *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        check=False,
        timeout=300,
    )


def missing(log: Path) -> list[str]:
    return sorted(set(log.read_text(encoding="utf-8").splitlines())) if log.exists() else []


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_command_line_speaks_only_translated_words(lang: str, tmp_path: Path) -> None:
    log = tmp_path / "missing.txt"
    commands: list[tuple[str, ...]] = [
        ("--help",),
        ("demo",),
        ("conformance", str(CASES)),
        ("validate", str(EXAMPLES / "pf1-demo.yaml"), str(ROOT / "docs" / "examples" / "duel.yaml")),
        ("schema", "nothing"),
        ("play",),
        ("replay", str(ROOT / "tests" / "no-such-file.yaml")),
    ]
    for ruleset in ("pf1", "terza", "lagornis"):
        commands.append(("rules", ruleset))
    for command in (
        "replay",
        "demo",
        "validate",
        "conformance",
        "rules",
        "schema",
        "serve",
        "play",
        "simulate",
    ):
        commands.append((command, "--help"))
    for case in sorted(CASES.glob("*/*.yaml")):
        commands.append(("replay", str(case)))  # the readable log of every event and every error
    # Running each case in its own process costs a second each: run them in batches of one process.
    singles = [c for c in commands if c[0] != "replay" or "no-such-file" in c[-1]]
    for command in singles:
        run(log, lang, *command)
    replays = [c[1] for c in commands if c[0] == "replay" and "no-such-file" not in c[-1]]
    script = (
        "import sys\n"
        "from tactica.cli import app\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        app(['replay', path], standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("TACTICA_LANG", *i18n.LOCALE_VARIABLES)}
    env.update({i18n.MISSING_LOG: str(log), "TACTICA_LANG": lang, "COLUMNS": "160"})
    done = subprocess.run(
        [sys.executable, "-c", script, *replays],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert missing(log) == []


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_simulator_speaks_only_translated_words(lang: str, tmp_path: Path) -> None:
    log = tmp_path / "missing.txt"
    out = tmp_path / "out"
    fight = EXAMPLES / "pf1-demo.yaml"
    done = run(log, lang, "simulate", str(fight), "-n", "40", "-w", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert missing(log) == []


@pytest.fixture
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    log = tmp_path / "missing.txt"
    monkeypatch.setenv(i18n.MISSING_LOG, str(log))
    i18n.catalog.cache_clear()
    yield log
    i18n.catalog.cache_clear()


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_tracker_speaks_only_translated_words(lang: str, recording: Path, tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tracker.db'}")
    tracker = Tracker(store)
    try:
        with language("en"):
            app = create_app(tracker)
        with TestClient(app) as client:
            assert client.get(f"/?lang={lang}").status_code == 200
            for title, token in tracker.ensure_examples():
                page = client.get(f"/t/{token}?lang={lang}")
                assert page.status_code == 200, title
                board = client.get(f"/t/{token}/board")
                assert board.status_code == 200, title
                client.get(f"/t/{token}/board?mode=move")
            assert client.get("/t/not-a-token").status_code == 404
    finally:
        store.close()
    assert missing(recording) == []
