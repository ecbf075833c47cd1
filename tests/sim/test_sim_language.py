"""``tactica simulate`` speaks the reader's language: its report, verdict and plots go through the
translation functions and show numbers in the language's format, while its data (CSV, Parquet, the
JSON's figures) stays the same in every language.

The real catalogs are being translated, so a stand-in catalog marks every translated message with
``«fr»``: a message shown without it did not go through the translation functions."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

import tactica.i18n
from tactica.i18n import language
from tactica.sim.batch import RunResult
from tactica.sim.output import fight_case, summary, write_all
from tactica.sim.plots import rounds, win_rates
from tactica.sim.report import render
from tactica.sim.scenario import SimSpec

from ..conftest import MARK, use_marked_french
from .helpers import EXAMPLES, LINE, from_file, run

ENGLISH_DECIMAL = re.compile(r"\d\.\d")
FRENCH_PERCENT = re.compile(r"\d,\d\u00a0%")  # "42,5 %": a decimal comma, a no-break space


@pytest.fixture(autouse=True)
def marked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    use_marked_french(monkeypatch)
    yield


@pytest.fixture(scope="module")
def single() -> RunResult:
    return run(SimSpec(from_file(LINE), fights=40, seed=3))


@pytest.fixture(scope="module")
def compared() -> RunResult:
    scenario = from_file(EXAMPLES / "terza-skirmish.yaml")
    return run(
        SimSpec(
            scenario, fights=30, seed=2, policies={"heroes": "cautious"}, compare={"terza.defend.ac_bonus": 4}
        )
    )


def report_text(result: RunResult) -> str:
    console = Console(record=True, width=240, color_system=None)
    console.print(render(result))
    return console.export_text()


def test_the_summary_is_translated_and_its_rates_use_a_decimal_comma(single: RunResult) -> None:
    with language("fr"):
        text = report_text(single)
    for words in ("Who wins", "Per fight, by side", "Per combatant", "Rounds: mean", "damage dealt"):
        assert MARK + words in text
    assert MARK + "heroes win" in text
    assert FRENCH_PERCENT.search(text), text
    assert not ENGLISH_DECIMAL.search(text), text  # every decimal shown is French


def test_the_same_summary_in_english_is_unchanged(single: RunResult) -> None:
    text = report_text(single)
    assert MARK not in text
    assert "Who wins" in text and re.search(r"\d\.\d%", text)
    tables = text.split("\n", 1)[1]  # after the headline (its speed may be "1,118 fights/s")
    assert not re.search(r"\d,\d", tables)


def test_a_comparison_and_its_verdict_are_translated(compared: RunResult) -> None:
    with language("fr"):
        text = report_text(compared)
        verdict = summary(compared)["compare"]["verdict"]
    assert MARK + "A: as the encounter" in text
    assert verdict.startswith(MARK) and "terza.defend.ac_bonus=4" in verdict  # the change as written
    assert FRENCH_PERCENT.search(verdict), verdict
    for line in text.splitlines():
        if "terza.defend.ac_bonus=4" not in line:  # a variant's value is written as the designer did
            assert not ENGLISH_DECIMAL.search(line), line


def test_the_data_stays_the_same_in_every_language(single: RunResult, tmp_path: Path) -> None:
    english = write_all(single, tmp_path / "en", plots=False)
    with language("fr"):
        french = write_all(single, tmp_path / "fr", plots=False)
    csv_en, csv_fr = english[0].read_text(), french[0].read_text()
    assert csv_fr == csv_en
    assert csv_fr.startswith('"arm","fight","seed","winner","rounds"') and MARK not in csv_fr
    assert english[1].read_bytes() == french[1].read_bytes()  # fights.parquet
    summary_en = json.loads(english[2].read_text())
    summary_fr = json.loads(french[2].read_text())
    assert summary_fr["arms"] == summary_en["arms"]  # every figure, as numbers with dots
    assert re.search(r'"rate": 0\.\d', french[2].read_text())


def test_the_plots_are_translated_with_french_ticks(single: RunResult) -> None:
    with language("fr"):
        fig = win_rates(single)
        fig.canvas.draw()
        ax = fig.axes[0]
        assert ax.get_title().startswith(MARK + MARK + "Who wins")  # the subject in the title
        assert ax.get_ylabel().startswith(MARK)
        assert any(t.get_text().endswith("\u00a0%") for t in ax.get_yticklabels())
        assert all(MARK in t.get_text() for t in ax.get_xticklabels())
        notes = [t.get_text() for t in ax.texts]
        assert notes and all(FRENCH_PERCENT.search(n) for n in notes)
        fig = rounds(single)
        fig.canvas.draw()
        legend = fig.axes[0].get_legend()
        assert legend is not None and legend.get_texts()[0].get_text().startswith(MARK + "mean")
        assert not ENGLISH_DECIMAL.search(legend.get_texts()[0].get_text())


def test_a_fight_exported_as_a_case_is_described_in_the_language(single: RunResult) -> None:
    with language("fr"):
        case = fight_case(single.spec, 7)
    assert case["description"].startswith(MARK + "Fight 7 of `tactica simulate --seed 3`")
    assert case["case"] == "simulate/pf1-4v4-line/fight-7-A"  # the identifiers do not change


def test_workers_play_in_the_callers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight's recorded messages (an error's) are in the language of the run, in whichever
    process plays it: jobs carry the language and a worker speaks it while it plays them."""
    from tactica.sim import batch

    spec = SimSpec(from_file(LINE), fights=4, seed=1)
    with language("fr"):
        jobs = batch.jobs_for(spec, 2)
    assert [j.language for j in jobs] == ["fr", "fr"]
    spoken: list[str] = []

    class Listening:
        def play(self, index: int, seed: int) -> tuple[object, None]:
            spoken.append(tactica.i18n.current())
            return object(), None

    monkeypatch.setattr(batch, "runner_for", lambda job: Listening())
    batch.run_job(jobs[0])
    assert spoken == ["fr", "fr"]
    assert tactica.i18n.current() == "en"
