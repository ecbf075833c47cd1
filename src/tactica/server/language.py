"""The tracker speaks each reader's language: chosen per request, by a pure ASGI middleware.

The order, first to last: the query parameter ``?lang=xx`` (which also sets the ``tactica_lang``
cookie, so the page's later requests, htmx's board partials and the live stream keep it), that
cookie, the ``Accept-Language`` header (its q-values honoured), then the server's own language (the
one ``tactica --lang``, ``TACTICA_LANG`` or the locale chose when the app was made).

The request then runs inside :func:`tactica.i18n.language`: a context variable, so two requests in
two languages never mix, and whatever the request starts (a thread for a sync endpoint, the task of a
streaming response) inherits it. A ``BaseHTTPMiddleware`` would not do: it runs the endpoint in a task
of its own, and a streaming response outlives it.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlencode

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection, Request

from ..i18n import LANGUAGES, current, first_supported, language, supported

COOKIE = "tactica_lang"
PARAM = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
NATIVE = {"en": "English", "fr": "Français", "it": "Italiano"}
"""Each language's name in itself: the switch shows these, never translated."""
MAX_TAGS = 32
"""The most ``Accept-Language`` entries looked at (a client sending hundreds gets the first ones)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def accepted(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (by q-value, then by
    their order in the header); tags with ``q=0`` or a q-value that is not one are left out."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:MAX_TAGS]):
        tag, *params = (p.strip() for p in part.split(";"))
        if not tag:
            continue
        q = 1.0
        for param in params:
            name, _sep, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = -1.0
        if not math.isfinite(q) or not 0 < q <= 1:
            continue
        ranked.append((-q, i, tag))
    return [tag for _q, _i, tag in sorted(ranked)]


def from_header(header: str) -> str | None:
    """The first language of the header that Tactica speaks (``fr-CH`` is French)."""
    return first_supported(accepted(header))


def choose(scope: Scope, default: str) -> tuple[str, bool]:
    """The language of a request, and whether the query asked for it (then the cookie is set)."""
    conn = HTTPConnection(scope)
    asked = first_supported(conn.query_params.getlist(PARAM))
    if asked:
        return asked, True
    chosen = supported(conn.cookies.get(COOKIE))
    if chosen:
        return chosen, False
    return from_header(", ".join(conn.headers.getlist("accept-language"))) or default, False


def set_cookie(lang: str) -> str:
    return f"{COOKIE}={lang}; Max-Age={COOKIE_MAX_AGE}; Path=/; SameSite=Lax"


class LanguageMiddleware:
    """Run each request in its reader's language; tell caches and browsers which one an HTML page is in."""

    def __init__(self, app: Any, default: str) -> None:
        self.app = app
        self.default = supported(default) or LANGUAGES[0]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        lang, asked = choose(scope, self.default)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if asked:
                    headers.append("set-cookie", set_cookie(lang))
                if headers.get("content-type", "").startswith("text/html"):
                    headers["content-language"] = lang
                    headers.add_vary_header("Accept-Language")
                    headers.add_vary_header("Cookie")
            await send(message)

        with language(lang):
            await self.app(scope, receive, sending)


def switch(request: Request) -> dict[str, Any]:
    """The page's language switch (a Jinja context processor): ``lang`` for ``<html lang>``, and a
    link per language to this same page, its other query parameters kept."""
    lang = current()
    if request.method == "GET":
        path = request.url.path
        kept = [(k, v) for k, v in request.query_params.multi_items() if k != PARAM]
    else:  # a page answered to a form (the home page after a failed upload): back to the start
        path, kept = "/", []
    return {
        "lang": lang,
        "languages": [
            {
                "code": code,
                "name": NATIVE.get(code, code),
                "url": f"{path}?{urlencode([*kept, (PARAM, code)])}",
                "current": code == lang,
            }
            for code in LANGUAGES
        ],
    }
