"""The API contract, served at ``/api/openapi.json``.

Kept as Python data next to the routes so that a route and its description
change in the same commit; ``tests/api`` checks that every route of the app is
described here and that every described path exists.
"""

from __future__ import annotations

from typing import Any

_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["kind", "message"],
            "properties": {
                "kind": {"type": "string", "enum": ["input", "rule", "auth", "forbidden", "busy", "not_found", "state"]},
                "where": {"type": "string", "description": "the bad field, e.g. 'observation.amount' (kind=input)"},
                "rule": {"type": "string", "description": "rule ID from RULES.md (kind=rule)"},
                "message": {"type": "string"},
            },
        }
    },
}

_OBSERVATION = {
    "type": "object",
    "description": (
        "One observation of the vocabulary of dealer_pi.engine.observations (observation_from_dict). "
        "type is one of shoe_draw, card_seen, card_left, action, chips, dealer, decision. Examples: "
        '{"type":"action","seat":3,"action":"raise","amount":60}; {"type":"action","seat":3,"action":"fold"}; '
        '{"type":"dealer","declare":"misdeal"|"new hand"|"shuffle done"|"undo"}; '
        '{"type":"decision","alert_id":"a7","decision":"confirm"|"dismiss"}; '
        '{"type":"chips","seat":4,"amount":100,"single_chip":true}. source defaults to "dealer"; '
        "ts_ms is stamped by the server when absent."
    ),
    "required": ["type"],
    "properties": {
        "type": {"type": "string", "enum": ["shoe_draw", "card_seen", "card_left", "action", "chips", "dealer", "decision"]},
        "seat": {"type": "integer", "minimum": 1, "maximum": 10},
        "action": {"type": "string", "enum": ["fold", "check", "call", "bet", "raise", "all-in", "post"]},
        "amount": {"type": "integer", "minimum": 0, "description": "the seat's street total after the action (raise TO)"},
        "declare": {"type": "string", "enum": ["misdeal", "new hand", "shuffle done", "undo"]},
        "alert_id": {"type": "string"},
        "decision": {"type": "string", "enum": ["confirm", "dismiss"]},
        "zone": {"type": "string", "description": "seat:N, board, burn, muck or shoe"},
        "face_up": {"type": "boolean"},
        "card": {"type": ["string", "null"], "description": "Ah-style or null when unread"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "single_chip": {"type": "boolean"},
        "declared": {"type": "string", "enum": ["fold", "check", "call", "bet", "raise", "all-in", "post"],
                     "description": "chips: what the player said (BET-VERBAL)"},
        "declared_amount": {"type": "integer", "minimum": 1, "description": "chips: the amount said, raise TO"},
        "source": {"type": "string"},
        "ts_ms": {"type": "integer"},
    },
}

_EVENT = {
    "type": "object",
    "description": (
        "One journaled engine event. id: the journal's event id (also the SSE id), strictly increasing, "
        "never reused. ts_ms: server wall clock (ms since the epoch) when it was journaled. hand: the hand "
        "number it belongs to (null between hands). event: the engine event's own JSON form (its 'type' "
        "names it, e.g. CardDealt, ActionTaken, AlertRaised, PotAwarded); hole-card identities are "
        "replaced by null for views that may not see them."
    ),
    "required": ["id", "ts_ms", "event"],
    "properties": {
        "id": {"type": "integer"},
        "ts_ms": {"type": "integer"},
        "hand": {"type": ["integer", "null"]},
        "event": {"type": "object"},
    },
}

_LEVEL = {
    "type": "object",
    "required": ["small_blind", "big_blind", "minutes"],
    "properties": {
        "small_blind": {"type": "integer", "minimum": 0},
        "big_blind": {"type": "integer", "minimum": 1},
        "ante": {"type": "integer", "minimum": 0, "default": 0},
        "minutes": {"type": "number", "exclusiveMinimum": 0},
        "break": {"type": "boolean", "default": False, "description": "a break: no play, blinds unchanged"},
    },
}

_CLOCK = {
    "type": "object",
    "description": (
        "The table clock (TABLE-LEVELS) and the shot clock (BET-CLOCK). A page counts down locally from "
        "remaining_ms taken at server_time_ms. A new level applies from the next hand (TABLE-LEVELS): "
        "pending is true while the level's blinds/ante differ from the table's; the dealer's next 'new hand' "
        "then sets the table up again with the new forced bets, the stacks the last hand ended with and "
        "the button moved on."
    ),
    "properties": {
        "levels": {"type": "array", "items": _LEVEL},
        "level": {"type": "integer", "description": "1-based number of the current level (0 when no schedule)"},
        "running": {"type": "boolean"},
        "remaining_ms": {"type": ["integer", "null"], "description": "time left in the current level"},
        "server_time_ms": {"type": "integer"},
        "current": {"oneOf": [_LEVEL, {"type": "null"}]},
        "next": {"oneOf": [_LEVEL, {"type": "null"}]},
        "pending": {"type": "boolean"},
        "shot_clock": {
            "type": ["object", "null"],
            "properties": {
                "seat": {"type": ["integer", "null"]},
                "seconds": {"type": "integer"},
                "ends_at_ms": {"type": "integer"},
                "remaining_ms": {"type": "integer"},
            },
        },
    },
}

_SETUP = {
    "type": "object",
    "description": (
        "The table setup: TableSetup's JSON form (dealer_pi.engine.table_session), the same as a scenario "
        "file's header. Posting one starts a new session whose first hand is dealt in at once."
    ),
    "required": ["seats", "blinds", "button"],
    "additionalProperties": False,
    "properties": {
        "profile": {"type": "string", "description": "rule profile: standard, roberts, house-pig, online"},
        "overrides": {"type": "object", "description": "single profile options"},
        "structure": {"type": "string", "enum": ["no-limit", "pot-limit", "limit"]},
        "blinds": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2,
                   "description": "[small blind, big blind]; the big blind at least 1"},
        "ante": {"type": "integer", "minimum": 0},
        "button": {"type": "integer", "minimum": 1, "maximum": 10},
        "seats": {"type": "object", "propertyNames": {"pattern": "^([1-9]|10)$"},
                  "additionalProperties": {"type": "integer", "minimum": 0},
                  "description": 'seat "1".."10" -> stack (a number, not an object); at least two stacks above 0'},
        "names": {"type": "object", "propertyNames": {"pattern": "^([1-9]|10)$"},
                  "additionalProperties": {"type": "string"},
                  "description": "seat -> player name; each seat named must be in seats"},
    },
}

_SETUP_EXAMPLES = {
    "home-game": {"summary": "three players, names given", "value": {
        "profile": "standard", "structure": "no-limit", "blinds": [5, 10], "ante": 0, "button": 1,
        "seats": {"1": 1000, "3": 800, "7": 1200}, "names": {"1": "Ann", "3": "Bob", "7": "Cy"}}},
}

# In this order they are all accepted by a table freshly set up with seats 1-3 and the button on 1
# (tests/api checks that against the real server).
_OBSERVATION_EXAMPLES = {
    "shoe-draw": {"summary": "the shoe let a card out (card null: a shoe that only counts)",
                  "value": {"type": "shoe_draw", "card": "Ah", "source": "shoe"}},
    "card-seen": {"summary": "the camera saw it face up at seat 2 (DEAL-HOLE-EXPOSED raises alert a1)",
                  "value": {"type": "card_seen", "zone": "seat:2", "face_up": True, "card": "Ah", "confidence": 0.98,
                            "source": "camera"}},
    "decision": {"summary": "the dealer answers an alert",
                 "value": {"type": "decision", "alert_id": "a1", "decision": "dismiss"}},
    "card-left": {"summary": "the card left the seat", "value": {"type": "card_left", "zone": "seat:2", "card": None,
                                                                  "source": "camera"}},
    "action": {"summary": "seat 1 raises to 30", "value": {"type": "action", "seat": 1, "action": "raise", "amount": 30}},
    "chips": {"summary": "seat 2 pushes one 100 chip saying 'call' (BET-OVERSIZED-CHIP, BET-VERBAL)",
              "value": {"type": "chips", "seat": 2, "amount": 100, "single_chip": True, "declared": "call"}},
    "undo": {"summary": "take back the last dealer entry", "value": {"type": "dealer", "declare": "undo"}},
    "fold": {"summary": "a fold needs no amount", "value": {"type": "action", "seat": 2, "action": "fold"}},
}

_CLOCK_EXAMPLES = {
    "set-levels": {"summary": "a two-level structure", "value": {"action": "set_levels", "levels": [
        {"small_blind": 5, "big_blind": 10, "minutes": 20}, {"small_blind": 10, "big_blind": 20, "ante": 2, "minutes": 20},
        {"small_blind": 0, "big_blind": 1, "minutes": 10, "break": True}]}},
    "start": {"summary": "start the clock", "value": {"action": "start"}},
    "set-level": {"summary": "jump to level 2", "value": {"action": "set_level", "level": 2}},
    "shot-clock": {"summary": "call the clock on seat 3 (BET-CLOCK)", "value": {"action": "shot_clock", "seat": 3, "seconds": 30}},
    "shot-clock-stop": {"summary": "stop it", "value": {"action": "shot_clock_stop"}},
}

_DEVICES = {
    "type": "object",
    "description": "Device status; entries appear for the devices the runtime was started with.",
    "properties": {
        "shoe": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "description": "none, gpio, serial, virtual"},
                "connected": {"type": "boolean"},
                "state": {"type": "string"},
                "detail": {"type": "string"},
            },
        },
        "camera": {
            "type": "object",
            "properties": {
                "source": {"type": "string"},
                "fps": {"type": "number", "description": "frames the camera delivers per second"},
                "vision_fps": {"type": "number", "description": "frames the vision pipeline looks at per second (the tablet shows this)"},
                "calibration": {"type": "string", "description": "none, ok, moved, fixed zones, waiting for the table's markers, not calibrated: why"},
                "dropped": {"type": "integer"},
                "cards_in_view": {"type": "integer"},
                "bad_frames": {"type": "integer"},
            },
        },
        "buttons": {"type": "object"},
        "light": {"type": "object"},
        "queue": {
            "type": "object",
            "properties": {"depth": {"type": "integer"}, "capacity": {"type": "integer"}, "dropped_frames": {"type": "integer"}},
        },
    },
}

_CAMERA_READ = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "zone": {"type": "string", "description": "where the card lay: board, seat:N, burn, shoe"},
        "read": {"type": ["string", "null"], "description": "the card the camera named, null when it named none"},
    },
}
_READ_ID = {"name": "read_id", "in": "path", "required": True, "schema": {"type": "integer"}}

_SNAPSHOT = {
    "type": "object",
    "description": (
        "The table as one role may see it. view: dealer (live, never hole cards during a hand), live "
        "(producer, hole cards undelayed, each read audited), public (the state as it was delay_s seconds "
        "ago, with the hole cards of that moment). table is TableSession.snapshot() of the engine with "
        "the secrets taken out (snapshot(secrets=False): keys table, hand, pots, alerts, procedure, "
        "observations; table.seats[N] has hole_count, the number of cards at the seat, and last_action "
        "{action, to, all_in} on this street or null; hand has small_blind_seat (null: dead small blind) and "
        "big_blind_seat); hole_cards carries the hole cards where the view allows (seat -> two cards, null "
        "for an unread one), null otherwise. Burned and undealt cards appear in no view."
    ),
    "required": ["view", "last_event_id", "as_of_ms", "table", "hole_cards", "clock", "devices"],
    "properties": {
        "view": {"type": "string", "enum": ["dealer", "live", "public"]},
        "last_event_id": {"type": "integer", "description": "id of the last event included (0 = none)"},
        "as_of_ms": {"type": "integer", "description": "wall-clock time the state describes"},
        "delay_s": {"type": "integer"},
        "table": {"type": "object"},
        "hole_cards": {"type": ["object", "null"]},
        "clock": _CLOCK,
        "devices": _DEVICES,
        "notices": {
            "type": "array",
            "description": "recent rejected inputs from devices (not journaled), newest last",
            "items": {"type": "object", "properties": {"ts_ms": {"type": "integer"}, "source": {"type": "string"}, "message": {"type": "string"}, "rule": {"type": ["string", "null"]}}},
        },
        "setup": _SETUP,
        "seq": {"type": "integer", "description": "number of the last journal entry applied"},
    },
}

_VIEW_PARAM = {
    "name": "view",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": ["public"]},
    "description": "view=public asks for the delayed public view whatever the token",
}

_TOKEN_PARAM = {
    "name": "token",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": "the bearer token, for clients that cannot set headers (EventSource, OBS browser source)",
}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERRORS = {
    "400": _json(_ERROR, "bad body; error.where names the field"),
    "401": _json(_ERROR, "no token where one is needed, or an unknown token"),
    "403": _json(_ERROR, "the token's role may not do this"),
}

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "dealer-pi",
        "version": "1",
        "description": (
            "Live table API. Authentication: 'Authorization: Bearer TOKEN' or '?token=TOKEN'. Roles: "
            "dealer (web.dealer_token: tablet, may post), producer (web.producer_token: live overlay with "
            "hole cards, every read audited), public (no token: delayed overlay only). An unknown token "
            "gets 401 even where no token is needed. Errors are JSON: {\"error\": {kind, message, where?, rule?}}. "
            "Pages (HTML, rendered from web/templates): /dealer (dealer.html), /setup (setup.html), "
            "/overlay (overlay.html, live=false), /overlay/live (overlay.html, live=true), /clock (clock.html); "
            "static files under /static/ from web/static/. Each template gets: page, table_name, "
            "stream_delay_s, live, api (the API prefix '/api')."
        ),
    },
    "paths": {
        "/api/whoami": {
            "get": {
                "summary": "The caller's role",
                "parameters": [_TOKEN_PARAM],
                "responses": {
                    "200": _json({"type": "object", "properties": {"role": {"type": "string", "enum": ["dealer", "producer", "public"]}, "stream_delay_s": {"type": "integer"}, "table_name": {"type": "string"}}}),
                    "401": _ERRORS["401"],
                },
            }
        },
        "/api/state": {
            "get": {
                "summary": "Snapshot of the table filtered by role (dealer -> view dealer, producer -> live, none -> public)",
                "parameters": [_TOKEN_PARAM, _VIEW_PARAM],
                "responses": {"200": _json(_SNAPSHOT), "401": _ERRORS["401"]},
            }
        },
        "/api/events": {
            "get": {
                "summary": "Server-sent events for the caller's view",
                "description": (
                    "text/event-stream. On connect the server sends the events after Last-Event-ID (header, "
                    "or ?last_event_id=N) from the journal, then 'event: state' with the current Snapshot, then "
                    "live messages: 'event: table' (id = event id, data = Event) for each event, and after each "
                    "batch 'event: state' (id = last event id, data = Snapshot). 'event: notice' (no id) reports "
                    "rejected device input; ': ping' comments keep the connection open. The public view "
                    "receives each message only once the stream delay has passed."
                ),
                "parameters": [
                    _TOKEN_PARAM,
                    _VIEW_PARAM,
                    {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "integer"}},
                    {"name": "last_event_id", "in": "query", "required": False, "schema": {"type": "integer"}},
                ],
                "responses": {
                    "200": {"description": "the stream", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                    "400": _ERRORS["400"],
                    "401": _ERRORS["401"],
                    "503": _json(_ERROR, "too many open streams (web.threads - 16): the API keeps its threads; retry"),
                },
            }
        },
        "/api/observations": {
            "post": {
                "summary": "Enter one observation (dealer): an action, a declaration, an alert decision...",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _OBSERVATION, "examples": _OBSERVATION_EXAMPLES}}},
                "responses": {
                    "200": _json({"type": "object", "properties": {"accepted": {"type": "boolean"}, "events": {"type": "array", "items": _EVENT}, "last_event_id": {"type": "integer"}}}, "accepted and journaled; the events it caused (dealer view)"),
                    **_ERRORS,
                    "409": _json(_ERROR, "well-formed but refused by the rules; error.rule names the rule; nothing changed"),
                    "503": _json(_ERROR, "the engine queue stayed full; nothing was recorded, try again"),
                },
            }
        },
        "/api/setup": {
            "get": {
                "summary": "The current setup (dealer or producer)",
                "parameters": [_TOKEN_PARAM],
                "responses": {"200": _json({"type": "object", "properties": {"setup": _SETUP, "hand_running": {"type": "boolean"}}}), "401": _ERRORS["401"], "403": _ERRORS["403"]},
            },
            "post": {
                "summary": "Replace the setup between hands (dealer); 409 while a hand is running (BET-TABLE-STAKES, TABLE-REBUY)",
                "parameters": [_TOKEN_PARAM, {"name": "void_hand", "in": "query", "required": False, "schema": {"type": "string", "enum": ["1"]}, "description": "void the running hand (its chips go back as the new setup says) and start over"}],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _SETUP, "examples": _SETUP_EXAMPLES}}},
                "responses": {
                    "200": _json({"type": "object", "properties": {"setup": _SETUP, "hand_running": {"type": "boolean"}}}),
                    **_ERRORS,
                    "409": _json(_ERROR, "a hand is running"),
                    "503": _json(_ERROR, "the engine queue stayed full"),
                },
            },
        },
        "/api/clock": {
            "get": {
                "summary": "The table clock and shot clock (anyone)",
                "parameters": [_TOKEN_PARAM],
                "responses": {"200": _json(_CLOCK), "401": _ERRORS["401"]},
            },
            "post": {
                "summary": "Drive the clock (dealer)",
                "description": (
                    'Body {"action": A, ...}: set_levels {levels: [Level...]} (restarts at level 1, paused); '
                    "start; pause; resume; next; previous; set_level {level: N (1-based)}; "
                    "shot_clock {seat?: N, seconds?: S (default 30)} (BET-CLOCK); shot_clock_stop."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["action"],
                                "properties": {
                                    "action": {"type": "string", "enum": ["set_levels", "start", "pause", "resume", "next", "previous", "set_level", "shot_clock", "shot_clock_stop"]},
                                    "levels": {"type": "array", "items": _LEVEL},
                                    "level": {"type": "integer", "minimum": 1},
                                    "seat": {"type": "integer", "minimum": 1, "maximum": 10},
                                    "seconds": {"type": "integer", "minimum": 1, "maximum": 600},
                                },
                            },
                            "examples": _CLOCK_EXAMPLES,
                        }
                    },
                },
                "responses": {"200": _json(_CLOCK), **_ERRORS, "503": _json(_ERROR, "the engine queue stayed full")},
            },
        },
        "/api/hands": {
            "get": {
                "summary": "Finished hands (dealer or producer)",
                "parameters": [_TOKEN_PARAM],
                "responses": {
                    "200": _json({"type": "object", "properties": {"hands": {"type": "array", "items": {"type": "object", "properties": {"hand": {"type": "integer"}, "started_ms": {"type": "integer"}, "ended_ms": {"type": "integer"}, "events": {"type": "integer"}}}}}}),
                    "401": _ERRORS["401"],
                    "403": _ERRORS["403"],
                },
            }
        },
        "/api/hands/{hand}": {
            "get": {
                "summary": "The full event log of one finished hand (producer; audited)",
                "parameters": [_TOKEN_PARAM, {"name": "hand", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "responses": {
                    "200": _json({"type": "object", "properties": {"hand": {"type": "integer"}, "events": {"type": "array", "items": _EVENT}}}),
                    "401": _ERRORS["401"],
                    "403": _ERRORS["403"],
                    "404": _json(_ERROR, "no finished hand with that number"),
                },
            }
        },
        "/api/camera/reads": {
            "get": {
                "summary": "The camera's face-up reads waiting for the dealer to confirm or correct (dealer)",
                "description": (
                    "Reads whose card nothing else made certain (no smart shoe named it, or the shoe and the camera "
                    "disagree). A board card is listed at once, a card read at a seat only once that seat's hand was shown at showdown. "
                    "Each answer leaves the picture as a labelled example in the state folder, which "
                    "`dealer-pi vision enrol --from-journal` adapts the reader to."
                ),
                "parameters": [_TOKEN_PARAM],
                "responses": {
                    "200": _json({"type": "object", "properties": {"reads": {"type": "array", "items": _CAMERA_READ}}}),
                    "401": _ERRORS["401"],
                    "403": _ERRORS["403"],
                },
            }
        },
        "/api/camera/reads/{read_id}/picture": {
            "get": {
                "summary": "The camera's picture of one waiting read, as JPEG (dealer)",
                "parameters": [_TOKEN_PARAM, _READ_ID],
                "responses": {
                    "200": {"description": "the picture", "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}},
                    "400": _json(_ERROR, "no such read waits for the dealer (or no camera is attached)"),
                    "401": _ERRORS["401"],
                    "403": _ERRORS["403"],
                },
            }
        },
        "/api/camera/reads/{read_id}": {
            "post": {
                "summary": "Say which card a waiting read shows: the read itself to confirm it, another to correct it (dealer)",
                "parameters": [_TOKEN_PARAM, _READ_ID],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"type": "object", "required": ["card"], "additionalProperties": False,
                               "properties": {"card": {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$"}}},
                    "examples": {"corrected": {"summary": "the picture shows the king of diamonds", "value": {"card": "Kd"}}}}}},
                "responses": {
                    "200": _json({"type": "object", "properties": {"learned": {"type": "boolean"}, "reads": {"type": "array", "items": _CAMERA_READ}}}),
                    **_ERRORS,
                },
            }
        },
        "/api/openapi.json": {"get": {"summary": "This document", "responses": {"200": _json({"type": "object"})}}},
        "/healthz": {"get": {"summary": "Liveness", "responses": {"200": _json({"type": "object", "properties": {"ok": {"type": "boolean"}}})}}},
    },
    "components": {
        "schemas": {
            "Error": _ERROR,
            "Observation": _OBSERVATION,
            "Event": _EVENT,
            "Snapshot": _SNAPSHOT,
            "Setup": _SETUP,
            "Clock": _CLOCK,
            "Level": _LEVEL,
            "Devices": _DEVICES,
        }
    },
}
