"""How the translation catalogs are made and checked, with Babel.

    python -m tactica.catalogs update   # extract the messages, merge them into en/fr/it, compile
    python -m tactica.catalogs check    # what is missing, stale or wrong (the test suite runs this)
    python -m tactica.catalogs glossary # docs/glossary.md's tables from the vocabulary and catalogs

The source is English. ``update`` extracts every message from the package (Python: ``_``,
``ngettext``, ``ngettext_amount``, ``pgettext``, ``N_``, ``NP_``, ``NN_``; the tracker's Jinja
templates: ``_``, ``ngettext``)
into ``locale/tactica.pot``, merges it into each language's ``.po`` file (a new message arrives
untranslated, a removed one is dropped), fills the English catalog from the source, and compiles
each ``.po`` into the ``.mo`` file the program reads. French and Italian get the three plural forms
of CLDR (one, many, other), which Babel's own gettext table still gives as two.
"""

from __future__ import annotations

import copy
import io
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE = Path(__file__).parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
METHODS = [("**.py", "python"), ("server/templates/**.html", "jinja2")]
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "ngettext_amount": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
    "NN_": (1, 2),
}
COMMENT_TAGS = ("Translators:",)
# gettext's form of CLDR's plural rules for whole numbers (Babel's table gives French and Italian
# two forms; CLDR 42 and later give three: one, many (a million, ...), other).
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "en": (2, "(n != 1)"),
    "fr": (3, "(n == 0 || n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
    "it": (3, "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
}
FIELD = re.compile(r"(?<!\{)\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")
# rich markup: [bold], [red], [bold green], [/]... (not "[required]", which is a word in brackets)
STYLE = (
    r"(?:bold|dim|italic|underline|strike|reverse|link|not|on|black|red|green|yellow|blue|magenta|cyan|white)"
)
MARKUP = re.compile(rf"\[/?(?:{STYLE}(?: {STYLE})*)?\]")

Key = tuple[str | None, tuple[str, ...]]


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def extract() -> Catalog:
    """Every message of the package's source, as a template catalog (no locations: they change
    with every edit and say nothing a translator needs that the comments do not)."""
    template = Catalog(project="tactica", domain=DOMAIN, fuzzy=False)
    found = extract_from_dir(
        PACKAGE,
        METHODS,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )
    for _filename, _lineno, message, comments, context in found:
        template.add(message, None, auto_comments=comments, context=context)
    return template


def texts(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    """A message's id or string as a list (one text, or one per plural form)."""
    if value is None:
        return [""]
    return [value] if isinstance(value, str) else [v or "" for v in value]


def key(m: Message) -> Key:
    return (m.context, tuple(texts(m.id)))


def keys(catalog: Catalog) -> set[Key]:
    return {key(m) for m in catalog if m.id}


def to_po(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, no_location=True, sort_output=True, ignore_obsolete=True)
    return buf.getvalue()


def to_mo(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


HEADER = {
    "project": "tactica",
    "copyright_holder": "the Tactica contributors",
    "msgid_bugs_address": "the project's issue tracker",
    "last_translator": "the Tactica team",
}
NAMES = {"en": "English", "fr": "French", "it": "Italian"}


def with_header(catalog: Catalog, lang: str) -> None:
    """The header's people and names, instead of Babel's placeholders."""
    from importlib.metadata import PackageNotFoundError, version

    for attr, value in HEADER.items():
        setattr(catalog, attr, value)
    try:
        catalog.version = version("tactica")
    except PackageNotFoundError:  # running from a source tree that was not installed
        catalog.version = "0"
    catalog.language_team = f"{NAMES.get(lang, lang)} (the Tactica team)"
    catalog.revision_date = datetime.now(UTC)  # written only when something else changed
    catalog.header_comment = (
        f"# {NAMES.get(lang, lang)} messages of Tactica (python -m tactica.catalogs update).\n"
        "# This file is distributed under the same license as the tactica project."
    )


def with_plural_forms(catalog: Catalog, lang: str) -> None:
    n, expr = PLURAL_FORMS[lang]
    # Babel sets these from its own table; the header is written from them
    catalog._num_plurals = n  # type: ignore[assignment]
    catalog._plural_expr = expr  # type: ignore[assignment]


def merged(template: Catalog, lang: str) -> Catalog:
    """``lang``'s catalog brought up to ``template``; English is the source's own words."""
    path = po_path(lang)
    if path.exists():
        catalog = read(lang)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="tactica", fuzzy=False)
    with_plural_forms(catalog, lang)
    # a copy: update() adopts the template's own Message objects, and English fills them in
    catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_creation_date=False)
    with_plural_forms(catalog, lang)
    with_header(catalog, lang)
    catalog.obsolete.clear()
    if lang == "en":
        for m in catalog:
            if m.id:
                m.string = tuple(m.id) if m.pluralizable else m.id
                m.flags.discard("fuzzy")  # the source's own words need no review
    catalog.fuzzy = False
    return catalog


def update() -> list[Path]:
    """Extract, merge, compile; return the files written (a file whose messages did not change is
    left alone, so its dates do not churn)."""
    template = extract()
    written: list[Path] = []
    LOCALE_DIR.mkdir(exist_ok=True)
    if not TEMPLATE.exists() or keys(_read_template()) != keys(template):
        TEMPLATE.write_bytes(to_po(template))
        written.append(TEMPLATE)
    for lang in LANGUAGES:
        path = po_path(lang)
        before = path.read_bytes() if path.exists() else b""
        catalog = merged(template, lang)
        if not before or _without_dates(before) != _without_dates(to_po(catalog)):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(to_po(catalog))
            written.append(path)
        compiled = to_mo(read(lang))
        if not mo_path(lang).exists() or mo_path(lang).read_bytes() != compiled:
            mo_path(lang).write_bytes(compiled)
            written.append(mo_path(lang))
    return written


def _read_template() -> Catalog:
    with TEMPLATE.open("rb") as f:
        return read_po(f, domain=DOMAIN)


def _without_dates(po: bytes) -> list[bytes]:
    return [line for line in po.splitlines() if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision'))]


# -- checks ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    lang: str
    message: str
    what: str

    def __str__(self) -> str:
        return f"{self.lang}: {self.message!r}: {self.what}"


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def markup(text: str) -> list[str]:
    return sorted(MARKUP.findall(text))


def message_problems(lang: str, m: Message) -> Iterable[Problem]:
    """What is wrong with one translated message: missing forms, lost or invented ``{fields}``,
    rich markup that differs from the English."""
    ids = texts(m.id)
    shown = ids[0] if m.context is None else f"{m.context}|{ids[0]}"
    strings = texts(m.string)
    if m.pluralizable and len(strings) != PLURAL_FORMS[lang][0]:
        yield Problem(lang, shown, f"{len(strings)} plural forms, not {PLURAL_FORMS[lang][0]}")
    if any(not s for s in strings):
        yield Problem(lang, shown, "not translated" + (" (every plural form)" if m.pluralizable else ""))
        return
    if m.fuzzy:
        yield Problem(lang, shown, "marked fuzzy")
    known: set[str] = set().union(*(fields(i) for i in ids))
    for s in strings:
        if m.pluralizable:
            if not fields(s) <= known:
                yield Problem(lang, shown, f"unknown fields {sorted(fields(s) - known)} in {s!r}")
        elif fields(s) != known:
            yield Problem(lang, shown, f"fields {sorted(fields(s))} instead of {sorted(known)} in {s!r}")
        if markup(s) != markup(ids[-1]):
            yield Problem(lang, shown, f"markup {markup(s)} instead of {markup(ids[-1])} in {s!r}")


def check() -> list[Problem]:
    """Everything that keeps the catalogs from matching the source and each other."""
    problems: list[Problem] = []
    wanted = keys(extract())
    if not TEMPLATE.exists() or keys(_read_template()) != wanted:
        problems.append(Problem("pot", str(TEMPLATE.name), "stale: run python -m tactica.catalogs update"))
    for lang in LANGUAGES:
        if not po_path(lang).exists():
            problems.append(
                Problem(lang, str(po_path(lang)), "missing: run python -m tactica.catalogs update")
            )
            continue
        catalog = read(lang)
        have = keys(catalog)
        for k in sorted(wanted - have, key=repr):
            problems.append(Problem(lang, repr(k), "in the source, not in the catalog (stale catalog)"))
        for k in sorted(have - wanted, key=repr):
            problems.append(Problem(lang, repr(k), "in the catalog, no longer in the source (stale catalog)"))
        if catalog.plural_forms != "nplurals={}; plural={};".format(*PLURAL_FORMS[lang]):
            problems.append(Problem(lang, "Plural-Forms", f"is {catalog.plural_forms!r}"))
        for m in catalog:
            if m.id:
                problems.extend(message_problems(lang, m))
        if not mo_path(lang).exists() or mo_path(lang).read_bytes() != to_mo(catalog):
            problems.append(Problem(lang, mo_path(lang).name, "not compiled from the .po: run update"))
    return problems


# -- the glossary -------------------------------------------------------------------------------------
GLOSSARY = PACKAGE.parent.parent / "docs" / "glossary.md"
START, END = "<!-- vocabulary: made by python -m tactica.catalogs glossary -->", "<!-- end of vocabulary -->"
KIND_TITLES = {
    "action": "Actions, answers and GM overrides",
    "resource": "Economy slots and counters",
    "condition": "Conditions",
    "state": "States",
    "check": "Checks",
    "reason": "Why an opportunity is provoked or a spell lost",
    "attack": "Kinds of attack",
    "reaction": "Reactions",
    "direction": "Facing",
    "modifier": "Sources of attack modifiers",
}


def vocabulary_tables() -> str:
    """The vocabulary in the three languages, one Markdown table per kind of identifier."""
    from .vocabulary import VOCABULARY

    catalogs = {lang: read(lang) for lang in LANGUAGES if lang != "en"}
    out: list[str] = []
    for kind, words in VOCABULARY.items():
        out += [f"### {KIND_TITLES.get(kind, kind)} (`{kind}`)", ""]
        out += ["| identifier | English | Français | Italiano |", "| --- | --- | --- | --- |"]
        for ident, english in sorted(words.items()):
            cells = [f"`{ident}`", english]
            for lang in ("fr", "it"):
                m = catalogs[lang].get(english, context=kind)
                cells.append(texts(m.string)[0] if m is not None else "")
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        out.append("")
    return "\n".join(out)


def glossary_text() -> str:
    """docs/glossary.md with its generated part brought up to date (the rest is written by hand)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    head, _sep, rest = text.partition(START)
    _old, _sep, tail = rest.partition(END)
    return f"{head}{START}\n\n{vocabulary_tables()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["glossary"]:
        GLOSSARY.write_text(glossary_text(), encoding="utf-8")
        print(f"wrote {GLOSSARY.relative_to(PACKAGE.parent.parent)}")
        return 0
    if argv[:1] == ["update"]:
        for path in update():
            print(f"wrote {path.relative_to(PACKAGE.parent.parent)}")
        argv = ["check"]
    if argv[:1] == ["check"]:
        problems = check()
        for p in problems:
            print(p)
        print(f"{len(problems)} problem(s)")
        return 1 if problems else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
