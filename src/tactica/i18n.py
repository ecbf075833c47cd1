"""One translation function for every message a person reads.

Messages are written in English in the source and looked up in the gettext catalogs under
``tactica/locale`` (domain ``tactica``). The language is chosen once per process with
:func:`set_language` (the CLI's ``--lang``, ``TACTICA_LANG``, or the locale); without a catalog the
English text is used as it is.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tactica"

_translations: gettext.NullTranslations = gettext.NullTranslations()


def set_language(lang: str | None = None) -> str:
    """Install the catalog for ``lang`` (or ``TACTICA_LANG``); return the language in use."""
    global _translations
    chosen = lang or os.environ.get("TACTICA_LANG") or ""
    languages = [chosen] if chosen else None
    _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=languages, fallback=True)
    return chosen or "en"


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count, choosing the plural form of the current language."""
    return _translations.ngettext(singular, plural, n)
