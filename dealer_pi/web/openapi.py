"""The API contract, served at ``/api/openapi.json``.

Kept as Python data next to the routes so that a route and its description
change in the same commit; ``tests/api`` checks that every route of the app is
described here and that every described path exists.
"""

from __future__ import annotations

from typing import Any

from dealer_pi.engine.observations import KillReason

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
        "type is one of shoe_draw, card_seen, card_left, action, chips, kill, dealer, decision, and for the floor "
        "between hands seat_player, remove_player, rebuy, level, away, and for what players say verbal, "
        "play_board, announce, and at the showdown winners. Examples: "
        '{"type":"action","seat":3,"action":"raise","amount":60}; {"type":"action","seat":3,"action":"fold"}; '
        '{"type":"dealer","declare":"misdeal"|"new hand"|"shuffle done"|"undo"|"cards out"|"void hand"} '
        '("cards out": the hole cards are all dealt, the betting opens: what a table with no card sensor taps; '
        '"void hand": the running hand is void, stacks back, no redeal); '
        '{"type":"decision","alert_id":"a7","decision":"confirm"|"dismiss"}; '
        '{"type":"chips","seat":4,"amount":100,"single_chip":true}; '
        '{"type":"seat_player","seat":5,"stack":1500,"name":"Dee","post_now":false,"moved":false} '
        "(TABLE-NEW-PLAYER: waits for the big blind unless post_now; moved: from another table, TABLE-MOVE); "
        '{"type":"remove_player","seat":5}; {"type":"rebuy","seat":2,"amount":500} (TABLE-REBUY, between hands '
        'only: 409 BET-TABLE-STAKES during a hand); {"type":"level","small_blind":25,"big_blind":50,"ante":5} '
        "(TABLE-LEVELS, from the next hand; both blinds 0 with an ante: ante only); "
        '{"type":"away","seat":4,"away":true} (TABLE-AWAY, from the next hand); '
        '{"type":"verbal","seat":3,"action":"raise","amount":60} (BET-VERBAL: said, no chips yet; binding); '
        '{"type":"play_board","seat":3} (POT-SHOW-BOTH: "I play the board" at the showdown); '
        '{"type":"announce","seat":3,"hand":"flush"} (POT-CARDS-SPEAK: a called hand, not binding; one of '
        "high-card, pair, two-pair, three-of-a-kind, straight, flush, full-house, four-of-a-kind, "
        'straight-flush); '
        '{"type":"winners","pot":0,"seats":[3]} (POT-CARDS-SPEAK: the dealer names who wins a pot, 0 the main '
        'pot, where no sensor read the tabled cards; a split pot names each winning seat); '
        '{"type":"kill","seat":3,"reason":"touched-muck"} (a dead hand, POT-DEAD-HAND: its uncalled raise '
        'goes back). source defaults to "dealer" ("sensor" for shoe_draw, card_seen, card_left); '
        "ts_ms is stamped by the server when absent."
    ),
    "required": ["type"],
    "properties": {
        "type": {"type": "string", "enum": ["shoe_draw", "card_seen", "card_left", "action", "chips", "kill", "dealer",
                                            "decision",
                                            "seat_player", "remove_player", "rebuy", "level", "away", "verbal",
                                            "play_board", "announce", "winners"]},
        "seat": {"type": "integer", "minimum": 1, "maximum": 10},
        "action": {"type": "string", "enum": ["fold", "check", "call", "bet", "raise", "all-in", "post"]},
        "amount": {"type": "integer", "minimum": 0, "description": "action/verbal: the seat's street total after the action "
                                                                   "(raise TO); rebuy: the chips added"},
        "declare": {"type": "string", "enum": ["misdeal", "new hand", "shuffle done", "undo", "cards out", "void hand"]},
        "stack": {"type": "integer", "minimum": 1, "description": "seat_player: the new player's chips"},
        "name": {"type": "string", "maxLength": 40, "description": "seat_player: the player's name"},
        "post_now": {"type": "boolean", "description": "seat_player: posts a big blind at once (else waits for it)"},
        "moved": {"type": "boolean", "description": "seat_player: moved from another table (plays at once, 000 §52-53)"},
        "small_blind": {"type": "integer", "minimum": 0, "description": "level"},
        "big_blind": {"type": "integer", "minimum": 0, "description": "level: 0 only with small_blind 0 and an ante"},
        "ante": {"type": "integer", "minimum": 0, "description": "level"},
        "away": {"type": "boolean", "description": "away: true away, false back"},
        "hand": {"type": "string", "enum": ["high-card", "pair", "two-pair", "three-of-a-kind", "straight", "flush",
                                           "full-house", "four-of-a-kind", "straight-flush"],
                 "description": "announce: what the player calls the hand"},
        "pot": {"type": "integer", "minimum": 0, "description": "winners: which pot, 0 the main pot"},
        "seats": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 10}, "minItems": 1,
                  "description": "winners: the seats that win the pot, each once"},
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
        "reason": {"type": "string", "enum": [r.value for r in KillReason],
                   "description": "kill: why the hand is dead (dealer-kill 000 §33, touched-muck §32, clock §29, "
                                  "away §30-31, verbal-disclosure §35, deliberate-show 002 §6.8)"},
        "second_motion": {"type": "boolean", "description": "chips: pushed in a forward motion after the first "
                          "(BET-STRING: dismissed, unless 'raise' was said without an amount, 000 §7)"},
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
        "big_blind": {"type": "integer", "minimum": 0, "description": "0 only with small_blind 0 and an ante (an ante-only level)"},
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
        "The table setup: TableSetup's JSON form (dealer_pi.engine.table_setup), the same as a scenario "
        "file's header. Posting one starts a new session whose first hand is dealt in at once. Read back "
        "(GET /api/setup, the state's setup) it is the live table: current stacks, busted seats left out, "
        "the next hand's button and blinds."
    ),
    "required": ["seats", "blinds", "button"],
    "additionalProperties": False,
    "properties": {
        "profile": {"type": "string", "description": "rule profile: standard, roberts, house-pig, online"},
        "overrides": {"type": "object", "description": "single profile options"},
        "structure": {"type": "string", "enum": ["no-limit", "pot-limit", "limit"]},
        "blinds": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2,
                   "description": "[small blind, big blind]; [0, 0] with an ante is an ante-only game (000 §19a)"},
        "ante": {"type": "integer", "minimum": 0},
        "button": {"type": "integer", "minimum": 1, "maximum": 10},
        "seats": {"type": "object", "propertyNames": {"pattern": "^([1-9]|10)$"},
                  "additionalProperties": {"type": "integer", "minimum": 0},
                  "description": 'seat "1".."10" -> stack (a number, not an object); at least two stacks above 0'},
        "names": {"type": "object", "propertyNames": {"pattern": "^([1-9]|10)$"},
                  "additionalProperties": {"type": "string"},
                  "description": "seat -> player name; each seat named must be in seats"},
        "away": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 10},
                 "description": "seats whose player is away: dealt and killed, blinds still taken (TABLE-AWAY; "
                                "the floor's minutes-away penalty, TABLE-PENALTY)"},
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
    "verbal": {"summary": "seat 3 says 'call' (no chips yet): binding (BET-VERBAL)",
               "value": {"type": "verbal", "seat": 3, "action": "call"}},
    "level": {"summary": "blinds 10/20 with a 2 ante from the next hand (TABLE-LEVELS)",
              "value": {"type": "level", "small_blind": 10, "big_blind": 20, "ante": 2}},
    "away": {"summary": "seat 2 is away from the next hand (TABLE-AWAY)", "value": {"type": "away", "seat": 2}},
    "seat-player": {"summary": "Dee sits in seat 5 between hands (TABLE-NEW-PLAYER; 409 while a hand runs)",
                    "value": {"type": "seat_player", "seat": 5, "stack": 1500, "name": "Dee"}},
    "rebuy": {"summary": "seat 1 adds 500 between hands (TABLE-REBUY; 409 while a hand runs)",
              "value": {"type": "rebuy", "seat": 1, "amount": 500}},
    "kill": {"summary": "the dealer rules seat 3's hand dead: its clock ran out (POT-DEAD-HAND, BET-CLOCK)",
             "value": {"type": "kill", "seat": 3, "reason": "clock"}},
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
                "still_frames": {"type": "integer", "description": "frames of a still table not read again (nothing had changed)"},
                "part_frames": {"type": "integer", "description": "frames read after a change only where it changed (the rest of the table as last read)"},
                "card_height_px": {"type": "number", "description": "a card's length in the frame: the config's, else the markers' (camera straight over the table), else 0 (measured from the cards)"},
                "picture": {"type": "string", "description": "ok, or too light: the frames do not tell the table from card stock, and face-down cards are not counted"},
                "picture_detail": {"type": "string", "description": "why the picture is not ok, and what to do; empty when it is"},
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
        "setup": {"oneOf": [_SETUP, {"type": "null"}], "description": "the live table in the setup's form"},
        "awaiting_setup": {"type": "boolean", "description": "true on a fresh journal: there is no table (table is "
                                                             "null) until a setup is posted; nothing can be entered"},
        "seq": {"type": "integer", "description": "number of the last journal entry applied"},
        "rev": {"type": "integer", "description": "this snapshot's number, rising with every snapshot the server makes: of "
                                                  "two with the same seq (a device or clock change between), the newer"},
        "floor": {"type": ["object", "null"], "description": (
            "the card room's floor (docs/floor.md), null without [floor] and in the public view: room, table, "
            "link {connected, broker, sent_seq, confirmed_seq, refused}, orders [{id, kind, text, state: now | "
            "next hand | waiting}] (carried out between hands), recent (orders carried out), notes, "
            "hand_for_hand {active, round, playing: [tables still playing], may_deal}, deck_change {reason, "
            "since_ms} or null (TABLE-DECK-CHANGE), away {seat: until_ms}, broken")},
    },
}

_SETUP_VIEW = {"type": "object", "properties": {
    "setup": _SETUP,
    "hand_running": {"type": "boolean"},
    "table": {"type": "boolean", "description": "false on a fresh journal: setup is then only a proposal (from the "
                                                "config's [table]), and no hand runs until one is posted"},
}}

_HAND_ROW = {"type": "object", "properties": {
    "hand": {"type": "integer"}, "started_ms": {"type": "integer"}, "ended_ms": {"type": ["integer", "null"]},
    "events": {"type": "integer"},
    "result": {"type": "string", "enum": ["played", "misdeal", "voided", "running", "abandoned"],
               "description": "played to its end; voided by a misdeal (redealt); voided to set the table up anew; "
                              "still running; abandoned: left unfinished by an older version"},
    "why": {"type": "string", "description": "for a void hand: the rule and what happened to the stacks"},
}}

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
                    "429": _json(_ERROR, "this address already has its 4 public streams open; retry after Retry-After"),
                    "503": _json(_ERROR, "every stream this role may open is open (16 threads are kept for the API, "
                                         "8 streams each for the dealer and the producer, the rest are shared); retry"),
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
                "summary": "The live table in the setup's form (dealer or producer): current stacks, busted seats empty",
                "parameters": [_TOKEN_PARAM],
                "responses": {"200": _json(_SETUP_VIEW), "401": _ERRORS["401"], "403": _ERRORS["403"]},
            },
            "post": {
                "summary": "Set the table up anew (dealer): a new session, hands numbered on. Between hands only: "
                           "409 BET-TABLE-STAKES while a hand runs unless ?void_hand=1. The floor's changes between "
                           "hands (a player seated or removed, a rebuy, a level) are observations instead, each its "
                           "own journal entry (POST /api/observations)",
                "parameters": [_TOKEN_PARAM, {"name": "void_hand", "in": "query", "required": False, "schema": {"type": "string", "enum": ["1"]}, "description": "a query parameter, not a body field: void the running hand first (its own journal entry, stacks back as at its start; /api/hands lists it as voided) and then set up"}],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _SETUP, "examples": _SETUP_EXAMPLES}}},
                "responses": {
                    "200": _json(_SETUP_VIEW),
                    **_ERRORS,
                    "409": _json(_ERROR, "a hand is running (the message says how to void it)"),
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
                    "shot_clock {seat?: N, seconds?: S (default 30)} (BET-CLOCK); shot_clock_stop; "
                    "sync {levels, level, running, remaining_ms} (the floor's clock, TABLE-LEVELS)."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["action"],
                                "properties": {
                                    "action": {"type": "string", "enum": ["set_levels", "start", "pause", "resume", "next", "previous", "set_level", "shot_clock", "shot_clock_stop", "sync"]},
                                    "levels": {"type": "array", "items": _LEVEL},
                                    "running": {"type": "boolean"},
                                    "remaining_ms": {"type": "integer", "minimum": 0},
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
                "summary": "Every hand number ever started, with how it ended (dealer or producer)",
                "parameters": [_TOKEN_PARAM],
                "responses": {
                    "200": _json({"type": "object", "properties": {"hands": {"type": "array", "items": _HAND_ROW}}}),
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

# The stream's extras (stats, the replayer, the snapshot's broadcast field) are described beside their routes.
from .broadcast_openapi import BROADCAST, PATHS  # noqa: E402

SPEC["paths"].update(PATHS)
_SNAPSHOT["properties"]["broadcast"] = BROADCAST


# The rule catalogue (docs/rules.md): what each rule ID in an alert, a refusal or a remedy means.
# Anyone may read it; the page /rules (rules.html) lists it, /rules/ID jumps to one rule.
_RULE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "family": {"type": "string", "description": "the catalogue's heading, e.g. 'DEAL — dealing procedure and the deck'"},
        "text": {"type": "string"},
        "sources": {"type": "array", "items": {"type": "object", "properties": {
            "ref": {"type": "string", "description": "e.g. '002 §14.5'"},
            "seed": {"type": "string", "description": "the seed document's number, e.g. '002'"},
            "title": {"type": "string"}}}},
    },
}
SPEC["components"]["schemas"]["Rule"] = _RULE
SPEC["paths"]["/api/rules"] = {"get": {
    "summary": "The whole rule catalogue (anyone)",
    "parameters": [_TOKEN_PARAM],
    "responses": {"200": _json({"type": "object", "properties": {
        "rules": {"type": "array", "items": _RULE},
        "seeds": {"type": "object", "additionalProperties": {"type": "string"}}}}), "401": _ERRORS["401"]},
}}
SPEC["paths"]["/api/rules/{rule_id}"] = {"get": {
    "summary": "One rule by ID, e.g. DEAL-BOARD-EXTRA (case does not matter; anyone)",
    "parameters": [_TOKEN_PARAM, {"name": "rule_id", "in": "path", "required": True, "schema": {"type": "string"}}],
    "responses": {"200": _json(_RULE), "400": _ERRORS["400"], "401": _ERRORS["401"],
                  "404": _json(_ERROR, "no such rule in the catalogue")},
}}
