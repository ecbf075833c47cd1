"""English, French and Italian: the catalogs, the choice of language, the rules' vocabulary, numbers."""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale

from tactica import catalogs, i18n
from tactica.engine.errors import EncounterError
from tactica.i18n import _, language, metres, ngettext, number, pgettext
from tactica.vocabulary import VOCABULARY, label

ROOT = Path(__file__).resolve().parent.parent


# -- the catalogs ------------------------------------------------------------------------------------
def test_every_message_is_translated_and_no_catalog_is_stale() -> None:
    """Extracts the messages from the source and compares: a message missing from a catalog, one
    the source no longer has, an untranslated form, a lost {field} or markup, an old .mo: all fail."""
    problems = catalogs.check()
    assert not problems, "\n".join(str(p) for p in problems[:40]) + (
        f"\n... {len(problems)} in all; run: python -m tactica.catalogs update" if problems else ""
    )


def test_the_check_finds_an_untranslated_message_and_a_lost_field() -> None:
    from babel.messages.catalog import Message

    assert [p.what for p in catalogs.message_problems("fr", Message("{a} moves", ""))] == ["not translated"]
    lost = list(catalogs.message_problems("fr", Message("{a} moves to {to}", "{a} se déplace")))
    assert lost and "fields" in lost[0].what
    markup = list(catalogs.message_problems("it", Message("[bold]{a}[/]", "{a}")))
    assert markup and "markup" in markup[0].what
    two_forms = Message(("{n} square", "{n} squares"), ("{n} case", "{n} cases"))
    assert "2 plural forms, not 3" in [p.what for p in catalogs.message_problems("fr", two_forms)]


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_plural_forms_follow_cldr(lang: str) -> None:
    """The catalogs' plural expressions choose the form CLDR's rules give (one, many, other)."""
    count, expr = catalogs.PLURAL_FORMS[lang]
    choose = gettext.c2py(expr)
    rule = Locale.parse(lang).plural_form
    order = ["one", "many", "other"] if count == 3 else ["one", "other"]
    for n in [0, 1, 2, 3, 5, 11, 21, 100, 999_999, 1_000_000, 1_000_001, 2_000_000, 10**7, 10**12]:
        assert choose(n) == order.index(rule(n)), (lang, n)


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_french_and_italian_catalogs_have_three_plural_forms(lang: str) -> None:
    """Every plural message has its three forms, and the compiled catalog picks them by the count."""
    plurals = [m for m in catalogs.read(lang) if m.id and m.pluralizable]
    assert len(plurals) >= 10
    differ = 0
    for m in plurals:
        singular, plural_id = catalogs.texts(m.id)
        one, many, other = catalogs.texts(m.string)
        with language(lang):
            assert [ngettext(singular, plural_id, n) for n in (1, 1_000_000, 7)] == [one, many, other]
            # French counts 0 as singular, Italian does not
            assert ngettext(singular, plural_id, 0) == (one if lang == "fr" else other)
        differ += one != other
    assert differ > len(plurals) // 2, "most plural messages change with the count"


# -- the rules' own words ----------------------------------------------------------------------------
SEED_WORDS = {
    # the issue's list: the seeds' words, French (pf1, lagornis) and Italian (terza)
    "fr": [
        ("resource", "full-round action", "action complexe"),
        ("action", "1.5 m step", "pas de placement de 1,50 m"),
        ("action", "attack of opportunity", "attaque d'opportunité"),
        ("action", "withdraw", "retraite"),
        ("action", "run", "courir"),
        ("resource", "bonus action", "action bonus"),
        ("resource", "reaction", "réaction"),
        ("reaction", "dodge", "esquive"),
        ("reaction", "parry", "parade"),
        ("reaction", "dampen", "amortissement"),
        ("resource", "dodge tokens", "jetons d'esquive"),
        ("resource", "fatigue", "fatigue"),
    ],
    "it": [
        ("action", "third action", "terza azione"),
        ("reason", "entering the Zone of Control", "zona di controllo"),
        ("action", "attack of opportunity", "attacco di opportunità"),
        ("action", "press", "incalzare"),
        ("check", "Reflex save", "ts riflessi"),
        ("action", "withdraw", "ritirarsi"),
    ],
}


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_seeds_vocabulary_is_used(lang: str) -> None:
    with language(lang):
        for kind, english, seed_word in SEED_WORDS[lang]:
            assert english == VOCABULARY[kind][next(k for k, v in VOCABULARY[kind].items() if v == english)]
            assert seed_word in pgettext(kind, english).lower(), (kind, english, pgettext(kind, english))


def test_italian_says_svantaggio_for_disadvantage() -> None:
    italian = catalogs.read("it")
    hits = [m for m in italian if m.id and "disadvantage" in str(m.id)]
    assert hits, "no message about disadvantage: the test needs one"
    for m in hits:
        assert "svantaggio" in catalogs.texts(m.string)[0].lower(), m.id


def test_one_identifier_two_words() -> None:
    """The action ``move`` and the economy slot ``move`` are different words."""
    with language("fr"):
        assert label("action", "move") != label("resource", "move")
        assert "mouvement" in label("resource", "move")


def test_unknown_identifiers_are_the_files_own_words() -> None:
    with language("fr"):
        assert label("action", "magic_missile") == "magic missile"
        assert label("resource", "weapon:long_sword") == f"{label('resource', 'weapon')}: long sword"


def test_glossary_is_current() -> None:
    assert catalogs.GLOSSARY.read_text(encoding="utf-8") == catalogs.glossary_text(), (
        "docs/glossary.md is stale: python -m tactica.catalogs glossary"
    )


# -- numbers ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "step", "run", "big"),
    [
        ("en", "1.50 m", "9 m", "1,234.50"),
        ("fr", "1,50 m", "9 m", "1\u202f234,50"),
        ("it", "1,50 m", "9 m", "1.234,50"),
    ],
)
def test_distances_and_numbers_in_the_locales_format(lang: str, step: str, run: str, big: str) -> None:
    with language(lang):
        assert metres(1.5) == step
        assert metres(9) == run
        assert number(1234.5) == big


# -- choosing the language ------------------------------------------------------------------------------
@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("TACTICA_LANG", *i18n.LOCALE_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_order_of_choice(clean_env: pytest.MonkeyPatch) -> None:
    assert i18n.resolve(None) == "en"
    clean_env.setenv("LANG", "it_IT.UTF-8")
    assert i18n.resolve(None) == "it"
    clean_env.setenv("LC_ALL", "C")  # a locale Tactica does not speak is passed over
    assert i18n.resolve(None) == "it"
    clean_env.setenv("LANGUAGE", "de:fr")
    assert i18n.resolve(None) == "fr"
    clean_env.setenv("TACTICA_LANG", "it")
    assert i18n.resolve(None) == "it"
    assert i18n.resolve("fr-CA") == "fr"
    with pytest.raises(EncounterError, match=r"'de'.*en, fr, it"):
        i18n.resolve("de")


def test_language_is_per_context() -> None:
    with language("fr"):
        french = _("free")
        with language("it"):
            italian = _("free")
        assert _("free") == french
    assert _("free") == "free"
    assert french != "free" and italian != "free" and french != italian


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("TACTICA_LANG", *i18n.LOCALE_VARIABLES)}
    base.update({"COLUMNS": "200", "TERMINAL_WIDTH": "200", **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "tactica.cli", *args], capture_output=True, text=True, env=base, check=False
    )


def test_cli_lang_option_translates_output_and_help() -> None:
    rules = run_cli("--lang", "fr", "rules", "pf1")
    assert rules.returncode == 0, rules.stderr
    with language("fr"):
        assert _("what it says") in rules.stdout
        assert _("One swift action per turn.") in rules.stdout
    helped = run_cli("--lang", "it", "--help")
    with language("it"):
        assert _("Tactica: a tactical combat rules engine (pf1, terza, lagornis).") in helped.stdout
        assert _("Show this message and exit.") in helped.stdout
        assert _("Commands") in helped.stdout


def test_cli_language_from_environment_and_locale() -> None:
    demo_fr = run_cli("demo", env={"LANG": "fr_FR.UTF-8"})
    demo_it = run_cli("demo", env={"TACTICA_LANG": "it", "LANG": "fr_FR.UTF-8"})
    assert demo_fr.returncode == 0 and demo_it.returncode == 0, demo_fr.stderr + demo_it.stderr
    with language("fr"):
        assert label("action", "move") in demo_fr.stdout
    with language("it"):
        assert label("action", "move") in demo_it.stdout
    assert demo_fr.stdout != demo_it.stdout


def test_cli_refuses_an_unknown_language() -> None:
    bad = run_cli("--lang", "de", "demo")
    assert bad.returncode == 2
    assert "'de'" in bad.stderr and "en, fr, it" in bad.stderr


def test_no_message_hides_inside_an_f_string() -> None:
    """Babel does not read calls inside f-strings on Python 3.11: such a message never reaches the
    catalogs. Write ``_("[dim]seed: {seed}[/]").format(seed=...)`` instead."""
    import ast

    hidden = []
    for path in sorted((ROOT / "src" / "tactica").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in catalogs.KEYWORDS
                ):
                    hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}: {ast.unparse(inner)}")
    assert hidden == []


def test_a_decimal_amount_takes_the_languages_own_plural() -> None:
    """CLDR: French says "1,5 action" (singular below 2), English and Italian "1.5 actions"."""
    from tactica.i18n import ngettext_amount

    message = ("{a}: {s} costs {n} action", "{a}: {s} costs {n} actions")
    chosen = {}
    for lang in ("en", "fr", "it"):
        with language(lang):
            chosen[lang] = [ngettext_amount(*message, x) == ngettext(*message, 1) for x in (0.5, 1, 1.5, 2)]
    assert chosen == {
        "en": [False, True, False, False],
        "fr": [True, True, True, False],
        "it": [False, True, False, False],
    }


def test_lang_may_come_anywhere_before_a_double_dash() -> None:
    from tactica.cli_language import take_lang

    assert take_lang(["replay", "f.yaml", "--lang", "fr", "--json"]) == ("fr", ["replay", "f.yaml", "--json"])
    assert take_lang(["--lang=it", "demo"]) == ("it", ["demo"])
    assert take_lang(["demo", "--", "--lang", "fr"]) == (None, ["demo", "--", "--lang", "fr"])
    after = run_cli("demo", "--lang", "it")
    assert after.returncode == 0, after.stderr
    with language("it"):
        assert label("action", "move") in after.stdout
