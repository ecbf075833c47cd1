"""The numbers the simulator shows a person, in the current language's format.

``12.5%`` and ``1,234.50`` in English are ``12,5 %`` and ``1 234,50`` in French, ``12,5%`` and
``1.234,50`` in Italian. What a run writes as data (CSV, Parquet, the JSON's figures) keeps
Python's own format: these are for the report, the plots and the verdict only.
"""

from __future__ import annotations

import math
from functools import cache

from babel.core import Locale
from babel.numbers import format_decimal, format_percent

from ..i18n import current, number

NONE = "-"
"""A figure with no value (no fights, or an interval of a single fight)."""


def decimal(x: float, places: int = 2, sign: bool = False) -> str:
    """``x`` with ``places`` decimals (``+`` before a positive one if ``sign``); ``-`` for NaN."""
    if math.isnan(x):
        return NONE
    return number(x, places=places, sign=sign)


def general(x: float) -> str:
    """``x`` with up to two decimals and no trailing zeros (``4``, ``4.5``, ``4.25``): quantiles,
    plot ticks."""
    if math.isnan(x):
        return NONE
    return format_decimal(x, format="#,##0.##", locale=current())


def count(n: int) -> str:
    """A whole number with the language's grouping: ``10,000`` / ``10 000`` / ``10.000``."""
    return number(n, places=0)


def _body(places: int) -> str:
    return "#,##0" + ("." + "0" * places if places > 0 else "")


@cache
def _percent_pattern(lang: str, places: int, sign: bool) -> str:
    """The language's percent pattern (``#,##0 %`` in French) with ``places`` decimals."""
    pattern = str(Locale.parse(lang).percent_formats[None].pattern).split(";")[0]
    pattern = pattern.replace("#,##0", _body(places), 1)
    return f"+{pattern};-{pattern}" if sign else pattern


def percent(p: float, places: int = 1, sign: bool = False) -> str:
    """The proportion ``p`` (0.125) as a percentage (``12.5%``, ``12,5 %``); ``-`` for NaN."""
    if math.isnan(p):
        return NONE
    lang = current()
    return format_percent(p, format=_percent_pattern(lang, places, sign), locale=lang)


def level(p: float = 0.95) -> str:
    """A confidence level or a share written whole: ``95%`` (``95 %`` in French)."""
    return percent(p, places=0)
