"""The OpenAPI part of the stream's extras: the snapshot's ``broadcast`` field, stats and the replayer."""

from __future__ import annotations

from typing import Any

_SEAT_EQUITY = {
    "type": "object",
    "properties": {
        "win": {"type": "number", "description": "share of boards won alone"},
        "tie": {"type": "number", "description": "share of boards split"},
        "equity": {"type": "number", "description": "share of the pot: wins plus each split's part"},
        "name": {"type": "string", "description": "the hand it makes now, in dealer words"},
        "outs": {"type": "array", "items": {"type": "string"}, "description": "on the turn: rivers that put it in front"},
    },
}

BROADCAST = {
    "type": "object",
    "description": (
        "What the stream shows beyond the table: ticker (the last actions in words, every view) and, in the "
        "live and public views only, equity: null when there is none to give (one player left, an unread hole "
        "card), {pending: true} while it is worked out, else {seats: {seat: SeatEquity}, exact, boards, stderr, "
        "board}. Equities come from hole cards: they reach a view exactly when its hole cards do."
    ),
    "properties": {
        "ticker": {"type": "array", "items": {"type": "object", "properties": {
            "text": {"type": "string"}, "kind": {"type": "string"}, "seat": {"type": ["integer", "null"]},
            "hand": {"type": ["integer", "null"]}}}},
        "equity": {"type": ["object", "null"], "properties": {
            "seats": {"type": "object", "additionalProperties": _SEAT_EQUITY}, "exact": {"type": "boolean"},
            "boards": {"type": "integer"}, "stderr": {"type": "number"}, "pending": {"type": "boolean"}}},
    },
}

_TOKEN = {"name": "token", "in": "query", "required": False, "schema": {"type": "string"}}
_HAND = {"name": "hand", "in": "path", "required": True, "schema": {"type": "integer"}}
_ERR = {"description": "error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _ok(schema: dict[str, Any], mime: str = "application/json") -> dict[str, Any]:
    return {"description": "OK", "content": {mime: {"schema": schema}}}


_DAY = {"type": "string", "format": "date"}
PATHS: dict[str, Any] = {
    "/api/stats": {"get": {
        "summary": "Player stats from the journal (hands, VPIP, PFR, 3-bet, AF, WTSD, W$SD; see the README). "
                   "The public (and a producer under secure_delay) counts only hands older than the delay.",
        "parameters": [_TOKEN, {"name": "session", "in": "query", "schema": _DAY},
                       {"name": "from", "in": "query", "schema": _DAY}, {"name": "to", "in": "query", "schema": _DAY}],
        "responses": {"200": _ok({"type": "object", "properties": {
            "hands": {"type": "integer"}, "sessions": {"type": "array"}, "players": {"type": "array"}}}),
            "400": _ERR, "401": _ERR}}},
    "/api/replay/hands": {"get": {
        "summary": "Finished hands the role may replay (the public: those that ended before the delay)",
        "parameters": [_TOKEN], "responses": {"200": _ok({"type": "object"}), "401": _ERR}}},
    "/api/replay/hands/{hand}": {"get": {
        "summary": "One finished hand step by step: text, board, pot, seats (stack, bet, cards the view may see), "
                   "equity (not for the dealer); producer reads audited",
        "parameters": [_TOKEN, _HAND], "responses": {"200": _ok({"type": "object"}), "401": _ERR, "404": _ERR}}},
    "/api/replay/hands/{hand}.json": {"get": {
        "summary": "The hand's events as the role may see them", "parameters": [_TOKEN, _HAND],
        "responses": {"200": _ok({"type": "object"}), "401": _ERR, "404": _ERR}}},
    "/api/replay/hands/{hand}.phh": {"get": {
        "summary": "The hand's PHH history (names hole cards: producer, or the public after the delay)",
        "parameters": [_TOKEN, _HAND],
        "responses": {"200": _ok({"type": "string"}, "text/plain"), "401": _ERR, "403": _ERR, "404": _ERR}}},
}
