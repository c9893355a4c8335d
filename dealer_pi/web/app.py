"""The Flask app factory: JSON API, server-sent events and the pages.

Views by role: the dealer token gets the ``dealer`` view (never a hole card),
the producer token the ``live`` view (hole cards at once, every read written to
the audit log), no token the ``public`` view, which is the state as it was
``stream_delay_s`` ago: the server holds the data back, the browser never has
it early. Every error is JSON ``{"error": {"kind", "message", "where"?, "rule"?}}``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterator

from flask import Flask, Response, jsonify, render_template, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from dealer_pi.config import Config
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.observations import KILL_RULES, KillReason, observation_from_dict
from dealer_pi.engine.setup import check_table
from dealer_pi.engine.table_session import TableSetup
from dealer_pi.resources import shipped
from dealer_pi.runtime.clock import check_command
from dealer_pi.runtime.engine_thread import Busy, Runtime
from dealer_pi.runtime.journal import JournalError
from dealer_pi.runtime.publisher import sse
from dealer_pi.runtime.views import ROLE_VIEW, has_hole_cards, redact_event, scrub_cards, state_has_hole_cards

from .auth import AuditLog, AuthError, Roles
from .broadcast_routes import broadcast_blueprint
from .limits import StreamPlan, StreamSlots
from .openapi import SPEC
from .rules import rules_blueprint

WEB_DIR = shipped("web")
PING_S = 15.0
GONE_CHECK_S = 1.0  # how soon a stream whose client went away gives its slot back
MAX_BODY = 64 * 1024
MAX_DEPTH = 32  # JSON nesting; no body the API takes is more than 4 deep
MAX_ID = 2**63 - 1  # the largest number SQLite keeps: event ids and hand numbers
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

# The tablet's kill sheet (POT-DEAD-HAND): each reason in the dealer's words, most used first, with
# the rule the engine cites for it (KILL_RULES), so the sheet names the rule the journal will.
KILL_WORDS: dict[KillReason, str] = {
    KillReason.CLOCK: "Clock ran out",
    KillReason.MUCK: "Hand touched the muck",
    KillReason.AWAY: "Player away from the table",
    KillReason.DISCLOSURE: "Said what the hand holds",
    KillReason.DELIBERATE_SHOW: "Showed a hole card on purpose",
    KillReason.DEALER: "Dealer killed an unprotected hand",
}
KILL_CHOICES = tuple((reason.value, words, KILL_RULES[reason]) for reason, words in KILL_WORDS.items())

PAGES = {
    "/dealer": ("dealer.html", {"page": "dealer", "live": False, "kill_reasons": KILL_CHOICES}),
    "/setup": ("setup.html", {"page": "setup", "live": False}),
    "/overlay": ("overlay.html", {"page": "overlay", "live": False}),
    "/overlay/live": ("overlay.html", {"page": "overlay", "live": True}),
    "/clock": ("clock.html", {"page": "clock", "live": False}),
}


def check_depth(data: Any) -> None:
    """Refuse JSON nested deeper than ``MAX_DEPTH`` (walked without recursion).

    >>> check_depth({"a": [[1]]})
    >>> import json
    >>> check_depth(json.loads("[" * 40 + "]" * 40))
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: body: is nested more than 32 levels deep
    """
    todo = [(data, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise InputError("body", f"is nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, dict):
            todo += [(v, depth + 1) for v in node.values()]
        elif isinstance(node, list):
            todo += [(v, depth + 1) for v in node]


def event_id(raw: str, where: str) -> int:
    """An event id from a header or a query: ASCII digits only (``'²'.isdigit()`` is true), at most 2**63-1.

    >>> event_id("42", "Last-Event-ID")
    42
    >>> event_id("²", "last_event_id")
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: last_event_id: must be an event id (a whole number), got '²'
    """
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19 and int(raw) <= MAX_ID):
        raise InputError(where, f"must be an event id (a whole number), got {raw[:40]!r}")
    return int(raw)


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
    # Threads kept free for API calls and page loads, and for the dealer's and producer's own
    # streams, whatever the number of viewers (limits.py).
    slots = StreamSlots(StreamPlan.for_threads(config.web.threads))
    app.extensions["dealer_pi"]["streams"] = slots
    # web.secure_delay: the producer's reads are of the delayed table too; the audit log says so.
    delayed = config.web.secure_delay
    app.register_blueprint(broadcast_blueprint(config, runtime, audit, roles))

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
        try:
            data = request.get_json(silent=True)
        except RecursionError:  # nested too deep for the parser itself
            raise InputError("body", f"is nested more than {MAX_DEPTH} levels deep") from None
        if data is None:
            raise InputError("body", "is not valid JSON")
        check_depth(data)
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
        # The engine's reasons may name a card from the table's state (a hole card, a burn): only
        # the producer may read those; anyone else is told the rule without the card.
        try:
            producer = role() == "producer"
        except AuthError:
            producer = False
        return _error(409, "rule", exc.message if producer else scrub_cards(exc.message), rule=exc.rule)

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

    @app.after_request
    def _headers(resp: Response) -> Response:
        # A token in a page's address (?token=) must not leave in a Referer header; pages load
        # nothing but their own scripts and styles (no inline code, nothing from elsewhere).
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["X-Content-Type-Options"] = "nosniff"
        if resp.mimetype == "text/html":
            resp.headers["Content-Security-Policy"] = CSP
        return resp

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
            audit.write("state", r, request.remote_addr, last_event_id=snap["last_event_id"], seats=sorted(snap["hole_cards"] or {}),
                        delayed=delayed)
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
        return jsonify(runtime.setup_view())

    @app.post("/api/setup")
    def post_setup() -> Response:
        Roles.require(role(), "dealer")
        data = body()
        if not isinstance(data, dict):
            raise InputError("setup", "must be an object")
        entered = TableSetup.from_dict(data)
        check_table(entered.seats, entered.button, entered.blinds, entered.ante)
        void = request.args.get("void_hand", "") in ("1", "true", "yes")
        runtime.submit("setup", {"setup": data, "void_hand": void})
        return jsonify(runtime.setup_view())

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
        return jsonify({"hands": runtime.hands_view()})

    @app.get("/api/hands/<int:hand>")
    def hand(hand: int) -> Response:
        r = role()
        Roles.require(r, "producer")
        if hand > MAX_ID:
            raise InputError("hand", f"a hand number is at most {MAX_ID}")
        events = runtime.journal.hand_events(hand)
        ended = next((h["ended_ms"] for h in runtime.journal.hands() if h["hand"] == hand), None)
        if events is None or (delayed and (ended is None or ended > runtime.now_ms() - config.web.stream_delay_s * 1000)):
            return _error(404, "not_found", f"no finished hand number {hand}" + (" older than the delay" if delayed else ""))
        audit.write("hand", r, request.remote_addr, hand=hand, delayed=delayed)
        # A finished hand still never names its burns (DEAL-NO-RABBIT): the producer's view of it.
        return jsonify({"hand": hand, "events": [
            dict(d, event=redact_event(d["event"], "live")) for d in (ev.to_dict() for ev in events)]})

    @app.get("/api/events")
    def events() -> Response:
        r = role()
        view = view_for(r)
        header = request.headers.get("Last-Event-ID")
        raw, where = (header, "Last-Event-ID") if header else (request.args.get("last_event_id"), "last_event_id")
        last: int | None = None
        if raw not in (None, ""):
            last = event_id(str(raw), where)
        remote = request.remote_addr
        refused = slots.take(r, remote)
        if refused is not None:
            # Each open stream holds a server thread: past its share a role, or an address, waits.
            resp = _error(refused.status, "busy", refused.message)
            resp.headers["Retry-After"] = "5"
            return resp
        if view == "live":
            audit.write("stream-open", r, remote, last_event_id=last, delayed=delayed)
        gone = request.environ.get("waitress.client_disconnected") or (lambda: False)
        stream = _Counted(_stream(runtime, view, last, audit if view == "live" else None, r, remote, gone, delayed),
                          lambda: slots.give(r, remote))
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
    app.register_blueprint(rules_blueprint())  # /rules and /api/rules: what a rule ID means

    @app.get("/")
    def index() -> Response:
        links = "".join(f'<li><a href="{u}">{u}</a></li>' for u in PAGES)
        name = escape(config.table.name)
        return Response(f"<!doctype html><title>dealer-pi</title><h1>{name}</h1><ul>{links}</ul>", mimetype="text/html")

    return app


class _Counted:
    """An event stream that gives its slot back when it ends, however it ends (WSGI ``close``)."""

    def __init__(self, stream: Iterator[bytes], give_back: Callable[[], None]) -> None:
        self.stream, self.give_back, self.released = stream, give_back, False

    def __iter__(self) -> Iterator[bytes]:
        return self.stream

    def close(self) -> None:
        try:
            self.stream.close()  # type: ignore[attr-defined]
        finally:
            if not self.released:
                self.released = True
                self.give_back()


def _stream(runtime: Runtime, view: str, last: int | None, audit: AuditLog | None, role: str, remote: str | None,
            gone: Callable[[], bool] = lambda: False, delayed: bool = False) -> Iterator[bytes]:
    """Backlog from the journal after ``last``, the current state, then live messages.

    Ends soon after the client goes away (``gone``), so its slot is free for the next viewer.
    The audit line at the end counts the messages that carried a hole card (state snapshots
    with hole cards, and events with one), as sent on this stream.
    """
    channel = runtime.publisher.channels[view]
    sent_id = last if last is not None else -1
    counted = {"hole_card_messages": 0, "hole_card_events": 0}
    as_event = _event_view(runtime, view)

    def count(kind: str, data: dict[str, Any]) -> None:
        if kind == "state" and state_has_hole_cards(data):
            counted["hole_card_messages"] += 1
        elif kind == "table" and has_hole_cards(data["event"]):
            counted["hole_card_messages"] += 1
            counted["hole_card_events"] += 1

    def table(d: dict[str, Any], event_id: int) -> bytes:
        shown = dict(d, event=redact_event(d["event"], as_event))
        count("table", shown)
        return sse("table", shown, event_id)

    def state(data: dict[str, Any]) -> bytes:
        count("state", data)
        return sse("state", data, data["last_event_id"] or None)

    try:
        cursor, snap, top = channel.cursor()
        if last is not None and last > top:
            last, sent_id = None, -1  # an id from another journal (the table was reset): start afresh
        yield b"retry: 2000\n\n"
        if last is not None:
            for ev in runtime.journal.iter_events(last, top):
                yield table(ev.to_dict(), ev.id)
                sent_id = ev.id
        first = snap if snap is not None else runtime.state(view)
        yield state(first)
        sent_id = max(sent_id, first["last_event_id"])
        quiet_since = time.monotonic()
        while not channel.closed and not gone():
            msgs = channel.wait(cursor, GONE_CHECK_S)
            if msgs is None:  # fell behind the channel's log: catch up from the journal
                cursor, snap, top = channel.cursor()
                for ev in runtime.journal.iter_events(sent_id, top):
                    yield table(ev.to_dict(), ev.id)
                    sent_id = ev.id
                if snap is not None:
                    yield state(snap)
                continue
            if not msgs:
                if time.monotonic() - quiet_since >= PING_S:
                    quiet_since = time.monotonic()
                    yield b": ping\n\n"
                continue
            quiet_since = time.monotonic()
            for m in msgs:
                cursor = m.seq
                if m.kind == "table":
                    assert m.event_id is not None
                    if m.event_id <= sent_id:
                        continue  # already sent from the backlog
                    sent_id = m.event_id
                count(m.kind, m.data)
                yield m.raw
    finally:
        if audit is not None:
            audit.write("stream-close", role, remote, last_event_id=sent_id, delayed=delayed, **counted)


def _event_view(runtime: Runtime, view: str) -> str:
    """How events read back from the journal are shown on ``view``'s stream: as the channel shows
    them (a public view that keeps hole cards until the hand ends shows events as the dealer does)."""
    return "dealer" if view == "public" and runtime.publisher.hole_cards_after_hand else view
