"""The tracker's web application: the JSON API (``/api``), the table page (``/t/{token}``), live updates.

Access is by link: every table has a GM token, a spectator token and player tokens (per side and per
combatant). The API takes the token as ``Authorization: Bearer TOKEN`` (or ``X-Tactica-Token``, or
``?token=`` for an EventSource, which cannot set headers). A missing token is 401; a token that
grants nothing on the table is 404, exactly like a table that does not exist.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

from anyio import to_thread
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette import EventSourceResponse, ServerSentEvent

from .. import __version__, available_rulesets
from ..engine.commands import Command
from ..engine.errors import EncounterError, EncounterErrors, IllegalCommand
from ..files.loader import describe_error
from ..i18n import _, current, ngettext
from . import page
from .language import LanguageMiddleware, switch
from .storage import Store
from .tracker import (
    MAX_FILE_BYTES,
    Access,
    Broken,
    Conflict,
    Forbidden,
    Live,
    NotFound,
    Outcome,
    Tracker,
    case_yaml,
)
from .views import legal_json, state

HERE = Path(__file__).parent
T = TypeVar("T")
MAX_BODY = 16 * 1024
"""The largest request body, but for a new table's file (``MAX_FILE_BYTES`` plus room for JSON)."""
MAX_NESTING = 8
WORKER_THREADS = int(os.environ.get("TACTICA_WORKER_THREADS", "6"))


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}, **extra}


# -- request bodies --------------------------------------------------------------------------------------
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateBody(Strict):
    file: str = Field(description="The encounter file's text (YAML or JSON).", max_length=MAX_FILE_BYTES)
    filename: str = Field("encounter.yaml", max_length=200, pattern=r"^[^/\\]*$")
    title: str | None = Field(None, max_length=120)


class CommandBody(Strict):
    version: int = Field(description="The table version the command was made against.", ge=0)
    command: dict[str, Any] = Field(description="A command (format.md section 2).")


class AnswerBody(Strict):
    version: int = Field(ge=0)
    answer: dict[str, Any] = Field(description="The answer: {do: one of the choices, ...}; actor optional.")


class UndoBody(Strict):
    version: int = Field(ge=0)


def _depth(v: Any, d: int = 0) -> int:
    if isinstance(v, dict):
        return max([_depth(x, d + 1) for x in v.values()], default=d + 1)
    if isinstance(v, list):
        return max([_depth(x, d + 1) for x in v], default=d + 1)
    return d


def _checked(command: dict[str, Any]) -> dict[str, Any]:
    if _depth(command) > MAX_NESTING:
        raise IllegalCommand("invalid_command", _("the command is nested too deeply"))
    return command


# -- size limits (before anything reads the body) -------------------------------------------------------
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BodyLimit:
    """Refuse bodies over the limit with 413, by Content-Length and by counting what arrives."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        limit = MAX_FILE_BYTES * 2 if path in ("/api/tables", "/new") else MAX_BODY
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _too_large(send, limit)
                    return
        seen = 0

        async def counting() -> MutableMapping[str, Any]:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooLarge()
            return msg

        try:
            await self.app(scope, counting, send)
        except _TooLarge:
            await _too_large(send, limit)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps(
        error_body("too_large", _("the request is larger than {n} kB").format(n=limit // 1024))
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- the application ---------------------------------------------------------------------------------------
def create_app(tracker: Tracker | None = None, *, store_url: str | None = None) -> FastAPI:
    """The tracker's ASGI app over ``tracker`` (or a new one on ``store_url`` / the default storage)."""
    tracker = tracker or Tracker(Store(store_url))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # few worker threads: the work is short and mostly holds the GIL, and with dozens of threads
        # the event loop (which reads requests and writes answers) waits for the GIL behind all of them
        to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS
        yield

    app = FastAPI(
        lifespan=lifespan,
        title="Tactica tracker",
        version=__version__,
        description="Run fights at the table: create a table from an encounter file, send commands, "
        "answer pending decisions, undo, follow live. Access is by link (a bearer token).",
    )
    app.state.tracker = tracker
    app.add_middleware(BodyLimit)
    templates = Jinja2Templates(directory=str(HERE / "templates"), context_processors=[switch])
    templates.env.globals["_"] = _
    templates.env.globals["ngettext"] = ngettext
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        # links carry tokens: never send them to another site in a Referer
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if not request.url.path.startswith(("/docs", "/redoc")):
            response.headers.setdefault("X-Frame-Options", "DENY")
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                "img-src 'self' data:",
            )
        return response

    # the outermost layer: everything under it (errors, pages, streams) speaks the request's language
    app.add_middleware(LanguageMiddleware, default=current())

    # -- errors ---------------------------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(_r: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message, **exc.extra), status_code=exc.status)

    @app.exception_handler(IllegalCommand)
    async def _illegal(_r: Request, exc: IllegalCommand) -> JSONResponse:
        return JSONResponse({"error": exc.to_json()}, status_code=422)

    @app.exception_handler(Forbidden)
    async def _forbidden(_r: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse(error_body("forbidden", str(exc)), status_code=403)

    @app.exception_handler(NotFound)
    async def _not_found(_r: Request, _exc: NotFound) -> JSONResponse:
        return JSONResponse(error_body("not_found", _("no such table")), status_code=404)

    @app.exception_handler(Broken)
    async def _broken(_r: Request, exc: Broken) -> JSONResponse:
        return JSONResponse(error_body("broken_table", str(exc)), status_code=500)

    @app.exception_handler(EncounterError)
    async def _bad_file(_r: Request, exc: EncounterError) -> JSONResponse:
        errs = exc.errors if isinstance(exc, EncounterErrors) else [exc]
        problems = [{"where": e.where, "line": e.line, "message": e.message} for e in errs]
        return JSONResponse(error_body("invalid_file", str(exc), problems=problems), status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return JSONResponse(error_body("invalid_command", invalid_message(first, where)), status_code=422)

    @app.exception_handler(RecursionError)
    async def _deep(_r: Request, _exc: RecursionError) -> JSONResponse:
        return JSONResponse(
            error_body("invalid_command", _("the request is nested too deeply")), status_code=422
        )

    # -- access ---------------------------------------------------------------------------------------
    def bearer(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        return request.headers.get("x-tactica-token") or request.query_params.get("token")

    def table_access(request: Request, table_id: str) -> tuple[Access, Live]:
        token = bearer(request)
        if not token:
            raise ApiError(401, "unauthorized", _("this needs the table's link (a bearer token)"))
        access = tracker.access(token)
        if access is None or access.table_id != table_id:
            raise ApiError(404, "not_found", _("no such table"))
        return access, tracker.live(table_id)

    def conflict(live: Live, exc: Conflict) -> JSONResponse:
        with live.lock:
            body = error_body("stale", str(exc), state=state(live))
        return JSONResponse(body, status_code=409)

    def write(request: Request, table_id: str, change: Callable[[Access], Outcome]) -> Response:
        """One change to a table through the caller's link: 200 with its outcome, 409 (with the
        current state) if the table moved on since the version the caller saw."""
        access, live = table_access(request, table_id)
        try:
            out = change(access)
        except Conflict as exc:
            return conflict(live, exc)
        return JSONResponse(out.message)

    def links(request: Request, table_id: str) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        out: dict[str, Any] = {"players": []}
        for g in tracker.grants(table_id):
            url = f"{base}/t/{g.token}"
            if g.role == "player":
                out["players"].append(
                    {"label": g.label, "combatants": list(g.scope), "url": url, "token": g.token}
                )
            else:
                out[g.role] = {"url": url, "token": g.token}
        return out

    # -- API ------------------------------------------------------------------------------------------
    @app.get("/api/rulesets", tags=["api"])
    def rulesets() -> dict[str, Any]:
        """The rulesets this tracker runs."""
        return {"rulesets": sorted(available_rulesets())}

    @app.post("/api/tables", status_code=201, tags=["api"])
    async def create_table(request: Request) -> JSONResponse:
        """Create a table from an encounter file: JSON ``{file, filename?, title?}``, a multipart
        upload (field ``file``), or the YAML/JSON file itself as the body. Answers the links."""
        ctype = request.headers.get("content-type", "")
        if ctype.startswith("multipart/form-data"):
            form = await request.form()
            upload = form.get("file")
            if upload is None or isinstance(upload, str):
                raise ApiError(422, "invalid_file", _("send the encounter file in the field 'file'"))
            raw = await upload.read()
            body = CreateBody(
                file=_text(raw),
                filename=upload.filename or "encounter.yaml",
                title=_form_str(form.get("title")),
            )
        elif ctype.startswith("application/json"):
            try:
                body = CreateBody.model_validate_json(await request.body())
            except ValidationError as exc:
                first: Any = exc.errors()[0] if exc.errors() else {}
                where = ".".join(str(p) for p in first.get("loc", ()))
                raise ApiError(422, "invalid_file", invalid_message(first, where)) from None
        else:
            body = CreateBody(file=_text(await request.body()))
        made = await _threaded(tracker.create, body.file, body.filename, body.title)
        return JSONResponse(
            {
                "table": made.table_id,
                "title": made.title,
                "version": 0,
                "links": links(request, made.table_id),
            },
            status_code=201,
        )

    @app.get("/api/tables/{table_id}", tags=["api"])
    def get_state(request: Request, table_id: str) -> dict[str, Any]:
        """The table's state (round, turn, pending decision, combatants with their resources)."""
        access, live = table_access(request, table_id)
        with live.lock:
            out = state(live)
        out["you"] = {"role": access.role, "combatants": sorted(access.scope), "label": access.label}
        return out

    @app.get("/api/tables/{table_id}/links", tags=["api"])
    def get_links(request: Request, table_id: str) -> dict[str, Any]:
        """Every link of the table (GM only)."""
        access, _live = table_access(request, table_id)
        if access.role != "gm":
            raise Forbidden(_("only the GM sees the table's links"))
        return links(request, table_id)

    @app.get("/api/tables/{table_id}/legal", tags=["api"])
    def get_legal(
        request: Request, table_id: str, actor: Annotated[str, Query(max_length=64)]
    ) -> dict[str, Any]:
        """``actor``'s legal commands now, and for each action it cannot take, why not."""
        _access, live = table_access(request, table_id)
        with live.lock:
            if actor not in live.enc.combatants:
                raise IllegalCommand(
                    "unknown_combatant", _("there is no combatant {actor!r}").format(actor=actor)
                )
            return legal_json(live, actor)

    @app.post("/api/tables/{table_id}/commands", tags=["api"])
    def post_command(request: Request, table_id: str, body: CommandBody) -> Response:
        """Send a command made against ``version``: 200 with its events, 409 (with the current state)
        if the table moved on, 422 with the engine's error if the rules refuse it."""
        return write(
            request, table_id, lambda access: tracker.act(access, body.version, _checked(body.command))
        )

    @app.post("/api/tables/{table_id}/decision", tags=["api"])
    def post_decision(request: Request, table_id: str, body: AnswerBody) -> Response:
        """Answer the pending decision (``actor`` defaults to the one who must decide)."""
        return write(
            request, table_id, lambda access: tracker.answer(access, body.version, _checked(body.answer))
        )

    @app.post("/api/tables/{table_id}/undo", tags=["api"])
    def post_undo(request: Request, table_id: str, body: UndoBody) -> Response:
        """Take back the latest command in force (the GM: any; a player: its own combatants')."""
        return write(request, table_id, lambda access: tracker.undo(access, body.version))

    @app.get("/api/tables/{table_id}/log", tags=["api"])
    def get_log(request: Request, table_id: str) -> dict[str, Any]:
        """The events so far: the start, then each command in force with its events."""
        _access, live = table_access(request, table_id)
        return {"version": live.version, "log": tracker.event_log(live)}

    @app.get("/api/tables/{table_id}/case", tags=["api"])
    def get_case(
        request: Request,
        table_id: str,
        fmt: Annotated[str, Query(alias="format", pattern="^(yaml|json)$")] = "yaml",
    ) -> Response:
        """The fight as a case file (encounter + script + every die face), for ``tactica replay``."""
        access, live = table_access(request, table_id)
        return case_response(live, fmt, access)

    @app.get("/api/tables/{table_id}/stream", tags=["api"])
    async def stream(request: Request, table_id: str) -> EventSourceResponse:
        """Server-sent events: a ``step`` message (with its events) for every write to the table."""
        _access, live = await _threaded(table_access, request, table_id)
        return EventSourceResponse(_watch(tracker, live), ping=15)

    # -- pages ----------------------------------------------------------------------------------------
    def page_access(token: str) -> tuple[Access, Live] | None:
        access = tracker.access(token)
        if access is None:
            return None
        return access, tracker.live(access.table_id)

    def not_a_link(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "invalid.html", {}, status_code=404)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(
            request, "home.html", {"rulesets": sorted(available_rulesets()), "error": None}
        )

    @app.post("/new", response_class=HTMLResponse, include_in_schema=False)
    async def new_table(request: Request) -> Response:
        form = await request.form()
        upload = form.get("file")
        text = ""
        filename = "encounter.yaml"
        if upload is not None and not isinstance(upload, str):
            text = _text(await upload.read())
            filename = upload.filename or filename
        pasted = _form_str(form.get("text"))
        if not text.strip() and pasted:
            text = pasted
        try:
            made = await _threaded(tracker.create, text, filename, _form_str(form.get("title")))
        except EncounterError as exc:
            return templates.TemplateResponse(
                request,
                "home.html",
                {"rulesets": sorted(available_rulesets()), "error": str(exc)},
                status_code=422,
            )
        return RedirectResponse(f"/t/{made.token('gm')}", status_code=303)

    @app.get("/t/{token}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(request: Request, token: str) -> HTMLResponse:
        found = page_access(token)
        if found is None:
            return not_a_link(request)
        access, live = found
        ctx = page.board_context(tracker, live, access, page.ui_from(request.query_params, live), request)
        return templates.TemplateResponse(request, "table.html", ctx)

    @app.get("/t/{token}/board", response_class=HTMLResponse, include_in_schema=False)
    def board(request: Request, token: str) -> HTMLResponse:
        found = page_access(token)
        if found is None:
            return not_a_link(request)
        access, live = found
        ctx = page.board_context(tracker, live, access, page.ui_from(request.query_params, live), request)
        return templates.TemplateResponse(request, "board.html", ctx)

    def after_write(
        request: Request, access: Access, live: Live, form: Any, write: Callable[[], object]
    ) -> HTMLResponse:
        ui = page.ui_from(form, live)
        flash = None
        try:
            write()
            ui = page.after_action(ui)
        except IllegalCommand as exc:
            flash = ("error", f"{exc.message}", exc.code)
        except Forbidden as exc:
            flash = ("error", str(exc), "forbidden")
        except Conflict:
            flash = (
                "warn",
                _(
                    "The table changed before your click arrived (someone else acted first). "
                    "Here it is now: check and try again."
                ),
                "stale",
            )
        ctx = page.board_context(tracker, live, access, ui, request, flash=flash)
        return templates.TemplateResponse(request, "board.html", ctx)

    def form_version(form: Any) -> int:
        try:
            return int(form.get("version", ""))
        except ValueError:
            return -1

    async def page_write(
        request: Request, token: str, change: Callable[[Access, Live, Any], object]
    ) -> HTMLResponse:
        """One change to a table from its page: the form, the link's access, then the board as it
        now is (or the refusal)."""
        form = await request.form()
        found = await _threaded(page_access, token)
        if found is None:
            return not_a_link(request)
        access, live = found
        return await _threaded(after_write, request, access, live, form, lambda: change(access, live, form))

    def page_command(access: Access, live: Live, form: Any) -> object:
        try:
            command = json.loads(_form_str(form.get("command")) or "null")
        except ValueError:
            raise IllegalCommand("invalid_command", _("the command is not valid JSON")) from None
        if not isinstance(command, dict):
            raise IllegalCommand("invalid_command", _("a command must be a mapping"))
        return tracker.act(access, form_version(form), _checked(command))

    @app.post("/t/{token}/act", response_class=HTMLResponse, include_in_schema=False)
    async def act(request: Request, token: str) -> HTMLResponse:
        return await page_write(request, token, page_command)

    @app.post("/t/{token}/gm", response_class=HTMLResponse, include_in_schema=False)
    async def gm_override(request: Request, token: str) -> HTMLResponse:
        return await page_write(
            request,
            token,
            lambda access, live, form: tracker.act(access, form_version(form), page.gm_command(form, live)),
        )

    @app.post("/t/{token}/undo", response_class=HTMLResponse, include_in_schema=False)
    async def undo(request: Request, token: str) -> HTMLResponse:
        return await page_write(
            request, token, lambda access, _live, form: tracker.undo(access, form_version(form))
        )

    @app.get("/t/{token}/events", include_in_schema=False)
    async def page_stream(request: Request, token: str) -> Response:
        found = await _threaded(page_access, token)
        if found is None:
            return PlainTextResponse(_("no such table"), status_code=404)
        return EventSourceResponse(_watch(tracker, found[1]), ping=15)

    @app.get("/t/{token}/case", include_in_schema=False)
    def page_case(request: Request, token: str) -> Response:
        found = page_access(token)
        if found is None:
            return not_a_link(request)
        return case_response(found[1], "yaml", found[0])

    def case_response(live: Live, fmt: str, access: Access) -> Response:
        case = tracker.case(live, with_seed=access.role == "gm")
        if fmt == "json":
            return JSONResponse(case)
        return PlainTextResponse(
            case_yaml(case),
            media_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="tactica-{live.id}.yaml"'},
        )

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, Any]:
        return {"ok": True, "storage": tracker.store.kind}

    return app


def invalid_message(error: Any, where: str) -> str:
    """A request pydantic refused, in words (its own messages are English only); ``where`` is the
    field's path in the body (empty for the body itself)."""
    kind = str(error.get("type", ""))
    if not where:
        if kind == "json_invalid":
            return _("the body is not valid JSON")
        if kind == "missing":
            return _("the request needs a JSON body")
        if kind in ("dict_type", "model_type", "model_attributes_type"):
            return _("the body must be a JSON object")
        return str(error.get("msg") or _("invalid request"))
    return _("{where}: {message}").format(where=where, message=describe_error(error))


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise EncounterError(_("the file is not UTF-8 text")) from None


def _form_str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


async def _threaded(fn: Callable[..., T], *args: Any) -> T:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args)


async def _watch(tracker: Tracker, live: Live) -> AsyncIterator[ServerSentEvent]:
    """The SSE stream of one table: a ``hello`` with the current version, then every ``step``."""
    sub = tracker.hub.subscribe(live.id)
    try:
        yield ServerSentEvent(json.dumps({"type": "hello", "version": live.version}), event="hello")
        while True:
            msg = await sub.get()
            yield ServerSentEvent(
                json.dumps(msg, ensure_ascii=False),
                event=str(msg.get("type", "step")),
                id=str(msg.get("version")),
            )
    finally:
        tracker.hub.unsubscribe(sub)


def query(**params: Any) -> str:
    return urlencode({k: v for k, v in params.items() if v not in (None, "")})


__all__ = ["Command", "create_app", "query"]
