"""The floor's pages and API (Flask, served by waitress like the table's).

Roles: the ``floor_token`` (Bearer header or ``?token=`` once) opens the floor
staff's page, ``GET /api/tables`` and the commands; no token gets the public
tournament board and ``GET /api/tournament``.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.web.app import _error  # one error shape for every dealer-pi API
from dealer_pi.resources import shipped
from dealer_pi.web.auth import AuthError, Roles

from .director import COMMANDS
from .service import FloorService

WEB_DIR = shipped("web")


class FloorRoles(Roles):
    """One token, the floor staff's; no token: the public (the board)."""

    def __init__(self, floor_token: str) -> None:
        self._tokens = [(floor_token, "floor")] if floor_token else []


def create_floor_app(service: FloorService, floor_token: str, web_dir: Path | None = None) -> Flask:
    web = Path(web_dir) if web_dir else WEB_DIR
    app = Flask("dealer_pi_floor", template_folder=str(web / "templates"), static_folder=str(web / "static"),
                static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024
    app.json.sort_keys = False  # type: ignore[attr-defined]
    roles = FloorRoles(floor_token)
    name = service.config.tournament.name

    def role() -> str:
        return roles.role_of(request.headers, request.args)

    @app.errorhandler(AuthError)
    def _auth(exc: AuthError) -> Response:
        return _error(exc.status, "auth" if exc.status == 401 else "forbidden", exc.message)

    @app.errorhandler(InputError)
    def _input(exc: InputError) -> Response:
        return _error(400, "input", exc.message, where=exc.where)

    @app.errorhandler(RuleViolation)
    def _rule(exc: RuleViolation) -> Response:
        return _error(409, "rule", exc.message, rule=exc.rule)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        return _error(exc.code or 500, "not_found" if exc.code == 404 else "input", exc.description or exc.name)

    @app.errorhandler(Exception)
    def _bug(exc: Exception) -> Response:
        app.logger.exception("unhandled error")
        return _error(500, "state", f"internal error: {type(exc).__name__}")

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify({"ok": True, "broker_connected": service.connected})

    @app.get("/api/tournament")
    def tournament() -> Response:
        role()  # an unknown token is still refused
        return jsonify(service.tournament_view())

    @app.get("/api/tables")
    def tables() -> Response:
        Roles.require(role(), "floor")
        return jsonify(service.tables_view())

    @app.get("/api/stats")
    def stats() -> Response:
        Roles.require(role(), "floor")
        return jsonify(service.stats_view())

    @app.post("/api/tournament/<command>")
    def command(command: str) -> Response:
        Roles.require(role(), "floor")
        cmd = command.replace("-", "_")
        if cmd not in COMMANDS:
            raise InputError("command", "must be one of " + ", ".join(c.replace("_", "-") for c in COMMANDS))
        body = request.get_json(silent=True) if request.content_length else {}
        if not isinstance(body, dict):
            raise InputError("body", "must be a JSON object")
        return jsonify(service.command(dict(body, cmd=cmd)))

    @app.get("/floor")
    def floor_page() -> str:
        return render_template("floor.html", page="floor", api="/api", tournament_name=name)

    @app.get("/board")
    def board_page() -> str:
        return render_template("board.html", page="board", api="/api", tournament_name=name)

    @app.get("/")
    def index() -> Response:
        title = escape(name)
        return Response(f'<!doctype html><title>{title}</title><h1>{title}</h1><ul><li><a href="/floor">Floor</a>'
                        '</li><li><a href="/board">Tournament board</a></li></ul>', mimetype="text/html")

    return app
