"""The table's own floor endpoints (a blueprint on the table's app, present only with ``[floor]``).

``GET /api/floor``: what the floor has asked of this table (dealer, producer).
``POST /api/floor/deck-registered``: the dealer has registered the new deck with
the shoe and the camera (TABLE-DECK-CHANGE); journaled, the prompt goes away.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from dealer_pi.web.auth import Roles


def attach_floor_api(app: Flask) -> None:
    app.register_blueprint(_blueprint())


def _parts() -> tuple[Any, Roles]:
    ext = current_app.extensions["dealer_pi"]
    return ext["runtime"], ext["roles"]


def _blueprint() -> Blueprint:
    bp = Blueprint("table_floor", __name__)

    @bp.get("/api/floor")
    def floor_view() -> Response:
        runtime, roles = _parts()
        Roles.require(roles.role_of(request.headers, request.args), "dealer", "producer")
        return jsonify(runtime.floor.view())

    @bp.post("/api/floor/deck-registered")
    def deck_registered() -> Response:
        runtime, roles = _parts()
        Roles.require(roles.role_of(request.headers, request.args), "dealer")
        runtime.submit("floor", {"type": "deck_registered"})
        return jsonify(runtime.floor.view())

    return bp
