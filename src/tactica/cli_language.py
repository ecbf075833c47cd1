"""The command line's help and Click's own messages in the chosen language.

Typer builds its Click commands from help texts given at import time, before ``--lang`` is read, so
the help texts are marked with :func:`~tactica.i18n.N_` and :func:`localize` translates the built
command tree once the language is known. Click and Typer write their own words ("Usage:", "Missing
argument", the help panels' titles) in English: the ones Typer passes through the standard
``gettext`` module (which knows nothing of our catalogs) are listed below, and :func:`localize` points
Typer's translation functions at ours.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.markup import escape
from typer import _click as click
from typer.core import TyperGroup

from . import i18n
from .i18n import N_, _

CLICK_MESSAGES = (
    N_("Aborted!"),
    N_("Arguments"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Options"),
    N_("default: {default}"),
    N_("env var: {var}"),
    N_("required"),
)
"""The messages of Typer's own that go through ``gettext`` (Typer's bundled Click writes the rest,
usage errors among them, in English only: we cannot reach them)."""
HELP_OPTION = N_("Show this message and exit.")

# Typer's help panels read these module constants, which it translated once at import.
TYPER_PANEL_TEXTS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}

GETTEXT_MODULES = ("typer.core",)


def print_error(console: Console, message: str) -> None:
    """One line of an error report (``message`` is shown as it is: a path or a name with brackets
    is no markup)."""
    console.print(_("[bold red]error[/]: {message}").format(message=escape(message)), soft_wrap=True)


def take_lang(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """The value of ``--lang xx`` or ``--lang=xx`` anywhere in ``argv`` (before a ``--``), and
    ``argv`` without it. Read before Click parses the rest, so that the help and the errors of that
    very run are in the language, and so that ``tactica replay FILE --lang fr`` works as well as
    ``tactica --lang fr replay FILE``."""
    lang: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    return lang, rest


def _translate_tree(command: click.Command) -> None:
    if command.help:
        command.help = _(command.help)
    if command.short_help:
        command.short_help = _(command.short_help)
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = _(text)  # type: ignore[attr-defined]  # options and Typer's arguments have one
    _translate_help_option(command)
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            _translate_tree(sub)


def _translate_help_option(command: click.Command) -> None:
    """Click makes ``--help`` when it first formats a command; translate its text then."""
    make = command.get_help_option

    def translated(ctx: click.Context) -> Any:
        option = make(ctx)
        if option is not None and option.help == HELP_OPTION:
            option.help = _(HELP_OPTION)
        return option

    command.get_help_option = translated  # type: ignore[method-assign]


def localize(command: click.Command, argv: Sequence[str] = ("--help",)) -> None:
    """Translate ``command``'s help texts and Click's and Typer's words into the current language.

    Typer's help panels come from ``typer.rich_utils``, which costs a tenth of a second to import
    (it brings rich's Markdown): it is loaded here only when ``argv`` asks for help. A usage error
    loads it later, with English panel titles, like the rest of Click's usage errors."""
    for name in GETTEXT_MODULES:
        module: ModuleType | None = sys.modules.get(name)
        if module is None:
            continue
        if hasattr(module, "_"):
            module._ = i18n._  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = i18n.ngettext  # type: ignore[attr-defined]
    wants_help = not argv or "--help" in argv
    rich_utils = import_module("typer.rich_utils") if wants_help else sys.modules.get("typer.rich_utils")
    if rich_utils is not None:
        for attr, text in TYPER_PANEL_TEXTS.items():
            setattr(rich_utils, attr, _(text))
    _translate_tree(command)
