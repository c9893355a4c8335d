"""Routes of the stream's extras: player stats, the hand replayer and one page per overlay element.

Who sees what follows the views: a finished hand is the public's (and, with
``web.secure_delay``, the producer's) only once ``stream_delay_s`` has passed
since it ended; the producer sees the rest at once (each read audited); the
dealer sees a finished hand's action but never a hole card that was not shown.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from dealer_pi.broadcast.replayer import hand_steps
from dealer_pi.broadcast.stats import journal_stats
from dealer_pi.config import Config
from dealer_pi.runtime.engine_thread import Runtime
from dealer_pi.runtime.views import ROLE_VIEW, redact_event

from .auth import AuditLog, AuthError, Roles

ELEMENTS = ("bars", "board", "ticker", "scoreboard")


def _not_found(message: str) -> Response:
    resp = jsonify({"error": {"kind": "not_found", "message": message}})
    resp.status_code = 404
    return resp


def broadcast_blueprint(config: Config, runtime: Runtime, audit: AuditLog, roles: Roles) -> Blueprint:
    bp = Blueprint("broadcast", __name__)
    delay_ms = int(config.web.stream_delay_s * 1000)
    secure = config.web.secure_delay

    def role() -> str:
        return roles.role_of(request.headers, request.args)

    def delayed(r: str) -> bool:
        """Whether this role sees only what is older than the delay."""
        return r == "public" or (r == "producer" and secure)

    def cutoff(r: str) -> int | None:
        return runtime.now_ms() - delay_ms if delayed(r) else None

    def finished(r: str) -> list[dict[str, Any]]:
        limit = cutoff(r)
        return [h for h in runtime.journal.hands() if limit is None or h["ended_ms"] <= limit]

    def one_hand(r: str, hand: int) -> list[dict[str, Any]] | Response:
        if not any(h["hand"] == hand for h in finished(r)):
            later = " yet (finished hands are shown once the stream delay has passed)" if delayed(r) else ""
            return _not_found(f"no finished hand number {hand}{later}")
        events = runtime.journal.hand_events(hand) or []
        view = ROLE_VIEW[r]
        if r == "producer":
            audit.write("replay", r, request.remote_addr, hand=hand, delayed=secure)
        return [dict(d, event=redact_event(d["event"], view)) for d in (ev.to_dict() for ev in events)]

    @bp.get("/api/stats")
    def stats() -> Response:
        r = role()
        args = request.args
        return jsonify(journal_stats(runtime.journal, session=args.get("session") or None, since=args.get("from") or None,
                                     until=args.get("to") or None, hands_before_ms=cutoff(r)))

    @bp.get("/api/replay/hands")
    def replay_list() -> Response:
        r = role()
        return jsonify({"delay_s": int(config.web.stream_delay_s) if delayed(r) else 0, "hands": [
            {k: h[k] for k in ("hand", "started_ms", "ended_ms", "events")} for h in finished(r)]})

    @bp.get("/api/replay/hands/<int:hand>")
    def replay_hand(hand: int) -> Response:
        r = role()
        events = one_hand(r, hand)
        if isinstance(events, Response):
            return events
        sees_cards = r != "dealer"
        steps = hand_steps([e["event"] for e in events], hand, runtime.desk.wait if sees_cards else None)
        return jsonify({"hand": hand, "view": ROLE_VIEW[r], "steps": steps,
                        "links": {"phh": f"/api/replay/hands/{hand}.phh", "json": f"/api/replay/hands/{hand}.json"}})

    @bp.get("/api/replay/hands/<int:hand>.json")
    def replay_json(hand: int) -> Response:
        r = role()
        events = one_hand(r, hand)
        if isinstance(events, Response):
            return events
        resp = jsonify({"hand": hand, "view": ROLE_VIEW[r], "events": events})
        resp.headers["Content-Disposition"] = f'inline; filename="hand-{hand:05d}.json"'
        return resp

    @bp.get("/api/replay/hands/<int:hand>.phh")
    def replay_phh(hand: int) -> Response:
        r = role()
        if r == "dealer":
            raise AuthError(403, "a hand history names the hole cards: the dealer token may not read it")
        events = one_hand(r, hand)
        if isinstance(events, Response):
            return events
        from dealer_pi.runtime.export import export_hands

        got = next((h for h in export_hands(runtime.journal) if h.hand == hand), None)
        if got is None or got.history is None:
            return _not_found(f"hand {hand} has no hand history: {got.problem if got else 'not in the journal'}")
        return Response(got.phh(), mimetype="text/plain", headers={
            "Content-Disposition": f'inline; filename="hand-{hand:05d}.phh"'})

    def page(template: str, **ctx: Any) -> str:
        return render_template(template, table_name=config.table.name, stream_delay_s=int(config.web.stream_delay_s),
                               api="/api", **ctx)

    @bp.get("/replay")
    def replay_page() -> str:
        return page("replay.html", page="replay", live=False)

    @bp.get("/overlay/stats")
    def stats_page() -> str:
        return page("stats_overlay.html", page="stats", live=False)

    @bp.get("/overlay/<element>")
    def element_page(element: str) -> str | Response:
        if element not in ELEMENTS:
            return _not_found(f"no overlay element {element!r} (there are: {', '.join(ELEMENTS)}, stats)")
        return page("overlay.html", page="overlay", live=False, element=element)

    @bp.get("/overlay/live/<element>")
    def live_element_page(element: str) -> str | Response:
        if element not in ELEMENTS:
            return _not_found(f"no overlay element {element!r} (there are: {', '.join(ELEMENTS)})")
        return page("overlay.html", page="overlay", live=True, element=element)

    return bp
