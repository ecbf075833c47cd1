"""One translation function for every message a person reads, and the locale's numbers.

Messages are written in English in the source and looked up in the gettext catalogs under
``tactica/locale`` (domain ``tactica``, made with Babel: see docs/translating.md). The language is
chosen by, first to last: the CLI's ``--lang`` (or a web page's switch, cookie and
``Accept-Language``), ``TACTICA_LANG``, the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
``LANG``), then English.

The current language lives in a context variable: the tracker serves each request in its reader's
language while other requests run, and a CLI run sets it once with :func:`set_language`.
"""

from __future__ import annotations

import gettext
import math
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from .engine.errors import EncounterError

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tactica"
LANGUAGES: tuple[str, ...] = ("en", "fr", "it")
"""The languages Tactica speaks, English (the source's) first."""
DEFAULT = "en"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: ContextVar[str] = ContextVar("tactica_language", default=DEFAULT)


MISSING_LOG = "TACTICA_I18N_MISSING"
"""If set, a file to which every message shown without a translation is appended (one per line):
how the tests find words that never reach the catalogs (built at run time, or not extracted)."""


class _Recording(gettext.NullTranslations):
    """A catalog that also writes down each message it has no translation for."""

    def __init__(self, inner: gettext.GNUTranslations, log: Path) -> None:
        super().__init__()
        self.inner = inner
        self.known: dict[Any, str] = inner._catalog  # type: ignore[attr-defined]
        self.log = log

    def _miss(self, key: str) -> None:
        with self.log.open("a", encoding="utf-8") as f:
            f.write(key.replace("\n", "\\n") + "\n")

    def gettext(self, message: str) -> str:
        if message not in self.known:
            self._miss(message)
        return self.inner.gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if (msgid1, 0) not in self.known:
            self._miss(msgid1)
        return self.inner.ngettext(msgid1, msgid2, n)

    def pgettext(self, context: str, message: str) -> str:
        if f"{context}\x04{message}" not in self.known:
            self._miss(f"{context}|{message}")
        return self.inner.pgettext(context, message)


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English needs none: its messages are the source's)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    log = os.environ.get(MISSING_LOG)
    if log and isinstance(found, gettext.GNUTranslations):
        return _Recording(found, Path(log))
    return found


def supported(tag: str | None) -> str | None:
    """The language of ``tag`` if Tactica speaks it: ``fr_FR.UTF-8``, ``fr-CA`` and ``FR`` are ``fr``."""
    if not tag:
        return None
    base = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    return base if base in LANGUAGES else None


def from_environment() -> str | None:
    """The language ``TACTICA_LANG`` or the locale asks for, if Tactica speaks it.

    ``LANGUAGE`` may list several (``it:fr``): the first spoken one wins. A locale Tactica does not
    speak (``C``, ``de_DE``) is passed over, as gettext does.
    """
    for name in ("TACTICA_LANG", *LOCALE_VARIABLES):
        found = first_supported(os.environ.get(name, "").split(":"))
        if found:
            return found
    return None


def first_supported(tags: Iterable[str]) -> str | None:
    """The first of ``tags`` (in order of preference) that names a language Tactica speaks."""
    for tag in tags:
        found = supported(tag)
        if found:
            return found
    return None


def resolve(lang: str | None) -> str:
    """The language to use for an explicit choice ``lang`` (or none): see the module's order.

    An explicit language Tactica does not speak is an :class:`EncounterError` naming the choices.
    """
    if lang:
        found = supported(lang)
        if found is None:
            raise EncounterError(
                _("unknown language {lang!r}: choose one of {choices}").format(
                    lang=lang, choices=", ".join(LANGUAGES)
                )
            )
        return found
    return from_environment() or DEFAULT


def set_language(lang: str | None = None) -> str:
    """Use ``lang`` (resolved as :func:`resolve` does) from now on in this context; return it."""
    chosen = resolve(lang)
    _current.set(chosen)
    return chosen


def current() -> str:
    """The language in use."""
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (a request of the tracker), then the language before."""
    token = _current.set(supported(lang) or DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return catalog(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count, choosing the plural form of the current language."""
    return catalog(_current.get()).ngettext(singular, plural, n)


def ngettext_amount(singular: str, plural: str, amount: float) -> str:
    """:func:`ngettext` for an amount that need not be whole (1.5 actions): the language's own
    rule picks the form (CLDR: French says "1,5 action", Italian and English "1,5 azioni")."""
    from babel import Locale

    category = Locale.parse(_current.get()).plural_form(amount)
    # a whole number gettext's rule puts in the same form: one 1, many 1000000, other 2
    return ngettext(singular, plural, {"one": 1, "many": 1_000_000}.get(category, 2))


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (the rules' vocabulary: see :mod:`tactica.vocabulary`)."""
    return catalog(_current.get()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now (a help text, a rule's line):
    the code that shows it calls :func:`_` then."""
    return message


def NP_(context: str, message: str) -> str:
    """:func:`N_` with a gettext context."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """:func:`N_` for a message with a plural (shown later with :func:`ngettext`)."""
    return singular, plural


# -- numbers -----------------------------------------------------------------------------------------
def number(value: Any, places: int | None = None, sign: bool = False) -> str:
    """``value`` in the current language's format: with ``places`` decimals, or by default a whole
    number as it is and others with two (``1.50`` in English, ``1,50`` in French and Italian);
    ``sign`` puts ``+`` before a positive number. Anything that is not a number (``None``, ``True``,
    a word) is shown as ``str(value)``."""
    if isinstance(value, bool) or not isinstance(value, Real):  # numpy's numbers are Real too
        return str(value)
    from babel.numbers import format_decimal  # a fifth of the CLI's start-up: only when a number is shown

    amount = int(value) if isinstance(value, Integral) else float(value)
    if places is None:
        places = 2 if math.isfinite(amount) and not float(amount).is_integer() else 0
    body = "#,##0" + ("." + "0" * places if places > 0 else "")
    text = format_decimal(amount, format=body, locale=_current.get())
    return "+" + text if sign and amount > 0 else text


def metres(value: float, sign: bool = False) -> str:
    """A distance in metres in the current language's format: ``1,50 m`` in French."""
    return f"{number(value, sign=sign)} m"
