"""The Flask app factory: JSON API, server-sent events and the pages.

Views by role: the dealer token gets the ``dealer`` view (never a hole card),
the producer token the ``live`` view (hole cards at once, every read written to
the audit log), no token the ``public`` view, which is the state as it was
``stream_delay_s`` ago: the server holds the data back, the browser never has
it early. Every error is JSON ``{"error": {"kind", "message", "where"?, "rule"?}}``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Iterator

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from dealer_pi.config import Config
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.observations import observation_from_dict
from dealer_pi.runtime.clock import check_command
from dealer_pi.runtime.engine_thread import Busy, Runtime
from dealer_pi.runtime.journal import JournalError
from dealer_pi.runtime.publisher import sse
from dealer_pi.runtime.views import ROLE_VIEW, has_hole_cards, redact_event

from .auth import AuditLog, AuthError, Roles
from .openapi import SPEC

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
PING_S = 15.0
API_THREADS = 16
MAX_BODY = 64 * 1024

PAGES = {
    "/dealer": ("dealer.html", {"page": "dealer", "live": False}),
    "/setup": ("setup.html", {"page": "setup", "live": False}),
    "/overlay": ("overlay.html", {"page": "overlay", "live": False}),
    "/overlay/live": ("overlay.html", {"page": "overlay", "live": True}),
    "/clock": ("clock.html", {"page": "clock", "live": False}),
}


def _error(status: int, kind: str, message: str, **extra: Any) -> Response:
    body = {"error": {"kind": kind, "message": message, **{k: v for k, v in extra.items() if v is not None}}}
    resp = jsonify(body)
    resp.status_code = status
    return resp


def create_app(config: Config, runtime: Runtime, *, audit: AuditLog | None = None, web_dir: Path | None = None) -> Flask:
    web = Path(web_dir) if web_dir else WEB_DIR
    app = Flask("dealer_pi", template_folder=str(web / "templates"), static_folder=str(web / "static"), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.sort_keys = False  # type: ignore[attr-defined]
    roles = Roles(config.web.dealer_token, config.web.producer_token)
    audit = audit or AuditLog(config.web.audit_log)
    app.extensions["dealer_pi"] = {"runtime": runtime, "audit": audit, "roles": roles}
    # Threads kept free for API calls and page loads whatever the number of viewers.
    max_streams = max(1, config.web.threads - API_THREADS)
    streams = threading.BoundedSemaphore(max_streams)

    def role() -> str:
        return roles.role_of(request.headers, request.args)

    def view_for(r: str) -> str:
        wanted = request.args.get("view")
        if wanted not in (None, "", "public"):
            raise InputError("view", "the only view you may ask for is 'public'")
        return "public" if wanted == "public" else ROLE_VIEW[r]

    def body() -> Any:
        if not request.is_json:
            raise InputError("body", "must be JSON (Content-Type: application/json)")
        data = request.get_json(silent=True)
        if data is None:
            raise InputError("body", "is not valid JSON")
        return data

    @app.errorhandler(AuthError)
    def _auth(exc: AuthError) -> Response:
        resp = _error(exc.status, "auth" if exc.status == 401 else "forbidden", exc.message)
        if exc.status == 401:
            resp.headers["WWW-Authenticate"] = 'Bearer realm="dealer-pi"'
        return resp

    @app.errorhandler(InputError)
    def _input(exc: InputError) -> Response:
        return _error(400, "input", exc.message, where=exc.where)

    @app.errorhandler(RuleViolation)
    def _rule(exc: RuleViolation) -> Response:
        return _error(409, "rule", exc.message, rule=exc.rule)

    @app.errorhandler(Busy)
    def _busy(exc: Busy) -> Response:
        resp = _error(503, "busy", str(exc))
        resp.headers["Retry-After"] = "1"
        return resp

    @app.errorhandler(JournalError)
    def _journal(exc: JournalError) -> Response:
        return _error(503, "state", f"not recorded, the journal could not be written: {exc}")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        kind = {404: "not_found", 413: "input", 405: "input"}.get(exc.code or 500, "input")
        return _error(exc.code or 500, kind, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _bug(exc: Exception) -> Response:  # never a bare 500 page; the log has the traceback
        app.logger.exception("unhandled error")
        return _error(500, "state", f"internal error: {type(exc).__name__}")

    # ------------------------------------------------------------------ API

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify({"ok": True})

    @app.get("/api/openapi.json")
    def openapi() -> Response:
        return jsonify(SPEC)

    @app.get("/api/whoami")
    def whoami() -> Response:
        return jsonify({"role": role(), "stream_delay_s": int(config.web.stream_delay_s), "table_name": config.table.name})

    @app.get("/api/state")
    def state() -> Response:
        r = role()
        view = view_for(r)
        snap = runtime.state(view)
        if view == "live":
            audit.write("state", r, request.remote_addr, last_event_id=snap["last_event_id"], seats=sorted(snap["hole_cards"] or {}))
        return jsonify(snap)

    @app.post("/api/observations")
    def observations() -> Response:
        Roles.require(role(), "dealer")
        obs = observation_from_dict(body(), "observation")
        result = runtime.submit("observation", obs)
        events = [dict(ev, event=redact_event(ev["event"], "dealer")) for ev in result["events"]]
        return jsonify({"accepted": True, "events": events, "last_event_id": result["last_event_id"]})

    @app.get("/api/setup")
    def get_setup() -> Response:
        Roles.require(role(), "dealer", "producer")
        return jsonify({"setup": runtime.table.setup_dict(), "hand_running": runtime.table.running})

    @app.post("/api/setup")
    def post_setup() -> Response:
        Roles.require(role(), "dealer")
        data = body()
        if not isinstance(data, dict):
            raise InputError("setup", "must be an object")
        void = request.args.get("void_hand", "") in ("1", "true", "yes")
        runtime.submit("setup", {"setup": data, "void_hand": void})
        return jsonify({"setup": runtime.table.setup_dict(), "hand_running": runtime.table.running})

    @app.get("/api/clock")
    def get_clock() -> Response:
        role()  # an unknown token is still refused
        return jsonify(runtime.clock_view())

    @app.post("/api/clock")
    def post_clock() -> Response:
        Roles.require(role(), "dealer")
        runtime.submit("clock", check_command(body()))
        return jsonify(runtime.clock_view())

    @app.get("/api/hands")
    def hands() -> Response:
        Roles.require(role(), "dealer", "producer")
        return jsonify({"hands": [
            {k: h[k] for k in ("hand", "started_ms", "ended_ms", "events")} for h in runtime.journal.hands()
        ]})

    @app.get("/api/hands/<int:hand>")
    def hand(hand: int) -> Response:
        r = role()
        Roles.require(r, "producer")
        events = runtime.journal.hand_events(hand)
        if events is None:
            return _error(404, "not_found", f"no finished hand number {hand}")
        audit.write("hand", r, request.remote_addr, hand=hand)
        # A finished hand still never names its burns (DEAL-NO-RABBIT): the producer's view of it.
        return jsonify({"hand": hand, "events": [
            dict(d, event=redact_event(d["event"], "live")) for d in (ev.to_dict() for ev in events)]})

    @app.get("/api/events")
    def events() -> Response:
        r = role()
        view = view_for(r)
        raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
        last: int | None = None
        if raw not in (None, ""):
            if not str(raw).isdigit():
                raise InputError("Last-Event-ID", f"must be an event id (a whole number), got {raw!r}")
            last = int(str(raw))
        remote = request.remote_addr
        if not streams.acquire(blocking=False):
            # Each open stream holds a server thread: past the limit the API itself would stall.
            raise Busy(f"too many open event streams (at most {max_streams}); try again shortly")
        if view == "live":
            audit.write("stream-open", r, remote, last_event_id=last)
        stream = _Counted(_stream(runtime, view, last, audit if view == "live" else None, r, remote), streams)
        return Response(stream, mimetype="text/event-stream", headers={
            "Cache-Control": "no-cache", "X-Accel-Buffering": "no",
        })

    from .camera_reads import camera_reads

    app.register_blueprint(camera_reads)  # the dealer confirms or corrects the camera's reads

    # ------------------------------------------------------------------ pages

    def _page(template: str, ctx: dict[str, Any]) -> str:
        return render_template(
            template, table_name=config.table.name, stream_delay_s=int(config.web.stream_delay_s), api="/api", **ctx
        )

    for url, (template, ctx) in PAGES.items():
        app.add_url_rule(url, f"page_{url}", (lambda t=template, c=ctx: _page(t, c)))

    @app.get("/")
    def index() -> Response:
        links = "".join(f'<li><a href="{u}">{u}</a></li>' for u in PAGES)
        return Response(f"<!doctype html><title>dealer-pi</title><h1>{config.table.name}</h1><ul>{links}</ul>", mimetype="text/html")

    return app


class _Counted:
    """An event stream that gives its slot back when it ends, however it ends (WSGI ``close``)."""

    def __init__(self, stream: Iterator[bytes], slots: threading.BoundedSemaphore) -> None:
        self.stream, self.slots, self.released = stream, slots, False

    def __iter__(self) -> Iterator[bytes]:
        return self.stream

    def close(self) -> None:
        try:
            self.stream.close()  # type: ignore[attr-defined]
        finally:
            if not self.released:
                self.released = True
                self.slots.release()


def _stream(runtime: Runtime, view: str, last: int | None, audit: AuditLog | None, role: str, remote: str | None) -> Iterator[bytes]:
    """Backlog from the journal after ``last``, the current state, then live messages."""
    channel = runtime.publisher.channels[view]
    sent_id = last if last is not None else -1
    holes = 0
    try:
        cursor, state, top = channel.cursor()
        if last is not None and last > top:
            last, sent_id = None, -1  # an id from another journal (the table was reset): start afresh
        yield b"retry: 2000\n\n"
        if last is not None:
            for ev in runtime.journal.iter_events(last, top):
                d = ev.to_dict()
                holes += has_hole_cards(d["event"]) and view != "dealer"
                yield sse("table", dict(d, event=redact_event(d["event"], view)), ev.id)
                sent_id = ev.id
        if state is None:
            state = runtime.state(view)
        yield sse("state", state, state["last_event_id"] or None)
        sent_id = max(sent_id, state["last_event_id"])
        while not channel.closed:
            msgs = channel.wait(cursor, PING_S)
            if msgs is None:  # fell behind the channel's log: catch up from the journal
                cursor, state, top = channel.cursor()
                for ev in runtime.journal.iter_events(sent_id, top):
                    d = ev.to_dict()
                    yield sse("table", dict(d, event=redact_event(d["event"], view)), ev.id)
                    sent_id = ev.id
                if state is not None:
                    yield sse("state", state, state["last_event_id"] or None)
                continue
            if not msgs:
                yield b": ping\n\n"
                continue
            for m in msgs:
                cursor = m.seq
                if m.kind == "table":
                    assert m.event_id is not None
                    if m.event_id <= sent_id:
                        continue  # already sent from the backlog
                    sent_id = m.event_id
                    holes += has_hole_cards(m.data["event"]) and view != "dealer"
                yield m.raw
    finally:
        if audit is not None:
            audit.write("stream-close", role, remote, last_event_id=sent_id, hole_card_events=holes)
