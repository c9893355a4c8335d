"""What the floor means to one table: its orders, hand-for-hand and the deck-change prompt.

The runtime calls these hooks from its engine thread, so the table's floor
state changes in one thread only and only through the journal:

* :meth:`TableFloor.apply` takes what the link received (orders, the
  hand-for-hand round) or the dealer entered (deck registered) and journals
  it as a ``floor`` entry;
* :meth:`TableFloor.before_new_hand` may refuse the next hand
  (TABLE-HAND-FOR-HAND: the others are still playing; a broken table deals
  no more);
* :meth:`TableFloor.between_hands` gives the seating of the hand that was
  just started when orders change it (moves, rebuys, penalties, the chip
  race: :func:`dealer_pi.engine.tournament.reseat.reseat`); the runtime deals
  that hand with it and journals one ``setup`` entry that says which orders
  it carried out (``floor_done``);
* :meth:`TableFloor.replay` rebuilds all of it from the journal at start.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Mapping
from typing import Any, Callable, Deque

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.tournament.hand_for_hand import may_start
from dealer_pi.engine.tournament.orders import (
    SEATING, DeckChange, MoveOut, Order, PenaltyOrder, describe, order_from_dict, order_to_dict,
)
from dealer_pi.engine.tournament.reseat import StartedHand, reseat

log = logging.getLogger("dealer_pi.floor.table")

NEW_HAND_BODY = {"type": "dealer", "declare": "new hand"}


def _is_new_hand(body: Mapping[str, Any]) -> bool:
    return body.get("type") == "dealer" and body.get("declare") == "new hand"


class TableFloor:
    """One table's side of the floor (see the module text). ``view`` may be read from any thread."""

    def __init__(self, room: str, table_id: str) -> None:
        self.room, self.table_id = room, table_id
        self.link: dict[str, Any] = {"connected": False}
        self._view: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        """Everything the journal holds (the link's state is not in it)."""
        self.orders: dict[str, Order] = {}  # received, not carried out yet
        self.seen: set[str] = set()  # every order id ever received
        self.waiting: set[str] = set()  # kept for a later hand (a moved player sitting out)
        self.away: dict[int, int] = {}
        self.h4h: dict[str, Any] = {"active": False, "round": 0}
        self.played_round = 0
        self.playing: list[str] = []  # hand-for-hand: the tables still playing (display only)
        self.deck_prompt: dict[str, Any] | None = None
        self.broken: dict[str, Any] | None = None
        self.recent: Deque[dict[str, Any]] = collections.deque(maxlen=8)
        self.notes: list[str] = []
        self._refresh()

    # ------------------------------------------------------------------ journal entries

    def note(self, body: Mapping[str, Any], ts_ms: int) -> None:
        """A journaled ``floor`` entry (live or on replay)."""
        for raw in body.get("orders", ()):
            order = order_from_dict(raw, "journal.orders")
            self.seen.add(order.id)
            self.orders[order.id] = order
            if isinstance(order, DeckChange):
                self.deck_prompt = {"id": order.id, "reason": order.reason, "since_ms": ts_ms}
        for oid in body.get("cancelled", ()):
            self.orders.pop(oid, None)
            self.waiting.discard(oid)
        if "hand_for_hand" in body:
            h = body["hand_for_hand"]
            if h["active"] and not self.h4h["active"]:
                self.played_round = h["round"]  # the hand in play when it was called counts for this round
            self.h4h = {"active": h["active"], "round": h["round"]}
        if body.get("deck_registered"):
            self.deck_prompt = None
        if "broken" in body:
            self.broken = dict(body["broken"], since_ms=ts_ms)
        self._done(body.get("done", ()), ts_ms)
        self._refresh()

    def note_setup(self, body: Mapping[str, Any], ts_ms: int) -> None:
        """A journaled ``setup`` entry: orders carried out with it, minutes away still running,
        and (000 §68) a deck change when the limits changed."""
        if "floor_away" in body:
            self.away = {int(s): int(t) for s, t in body["floor_away"].items()}
        self.waiting = set(body.get("floor_waiting", ()))
        self.notes = list(body.get("floor_notes", ()))
        self._done(body.get("floor_done", ()), ts_ms)
        if str(body.get("reason", "")).startswith("TABLE-LEVELS"):
            self.level_changed(ts_ms)
        if "reason" in body and not body.get("redealt"):
            self.hand_started()
        self._refresh()

    def level_changed(self, ts_ms: int) -> None:
        """A new level reached the table (TABLE-LEVELS): the limits changed, so 000 §68 asks for a new deck."""
        self.deck_prompt = {"id": None, "reason": "the limits changed (000 §68)", "since_ms": ts_ms}
        self._refresh()

    def hand_started(self) -> None:
        """A new hand was dealt in (TABLE-HAND-FOR-HAND: it is this round's hand)."""
        if self.h4h["active"]:
            self.played_round = self.h4h["round"]
        self._refresh()

    def _done(self, records: Any, ts_ms: int) -> None:
        for rec in records:
            order = self.orders.pop(rec["id"], None)
            self.waiting.discard(rec["id"])
            text = describe(order) if order is not None else rec.get("kind", "")
            self.recent.appendleft({"id": rec["id"], "kind": rec.get("kind"), "text": text, "ts_ms": ts_ms,
                                    **({"refused": rec["refused"]} if "refused" in rec else {})})

    def replay(self, journal: Any) -> None:
        """Rebuild from every entry of the journal (at start, and after a failed write)."""
        self._reset()
        for entry in journal.entries_after(0):
            if entry.kind == "floor":
                self.note(entry.body, entry.ts_ms)
            elif entry.kind == "setup":
                self.note_setup(entry.body, entry.ts_ms)
            elif entry.kind == "observation" and _is_new_hand(entry.body):
                self.hand_started()
            elif entry.kind == "observation" and entry.body.get("type") == "level":
                self.level_changed(entry.ts_ms)

    # ------------------------------------------------------------------ inputs (engine thread)

    def apply(self, runtime: Any, payload: Mapping[str, Any], now: int) -> dict[str, Any] | None:
        """Journal what the link received or the dealer entered; None when it changes nothing."""
        body = self._body(payload)
        if body is None:
            return None
        self.note(body, now)  # first, so that the state published with the entry shows it
        result: dict[str, Any] = runtime.commit_entry("floor", body, now)  # a failed write replays the journal
        if body.get("orders") and not runtime.table.session.observations:
            self._reseat_now(runtime, now)  # no card dealt yet in this hand: it is still between hands
        elif body.get("orders") and not runtime.table.running:
            self._break_if_empty(runtime, now)  # a lone player need not wait for a hand that cannot come
        return result

    def _body(self, payload: Mapping[str, Any]) -> dict[str, Any] | None:
        kind = payload.get("type")
        if kind == "orders":
            fresh = [o for o in payload["orders"] if o.id not in self.seen]
            # The floor's list is the whole of what it still wants: an order gone from it was called off.
            cancelled = sorted(set(self.orders) - set(payload.get("open", self.orders)))
            if not fresh and not cancelled:
                return None
            done = [{"id": o.id, "kind": "penalty", "player": o.player, "seat": o.seat, "penalty": o.penalty.to_dict()}
                    for o in fresh if isinstance(o, PenaltyOrder) and o.penalty.kind == "warning"]
            return {"orders": [order_to_dict(o) for o in fresh], "done": done, "cancelled": cancelled}
        if kind == "hand_for_hand":
            h = payload["hand_for_hand"]
            self.playing = list(h.get("playing", ()))
            if (h["active"], h["round"]) == (self.h4h["active"], self.h4h["round"]) or self.broken is not None:
                self._refresh()
                return None
            return {"hand_for_hand": {"active": h["active"], "round": h["round"]}}
        if kind == "deck_registered":
            if self.deck_prompt is None:
                raise InputError("deck", "no deck change is waiting")
            pid = self.deck_prompt.get("id")
            return {"deck_registered": True, "done": [{"id": pid, "kind": "deck_change"}] if pid else []}
        raise InputError("floor", f"unknown floor input {kind!r}")

    def before_new_hand(self, runtime: Any, now: int) -> dict[str, Any] | None:
        """Refuse the next hand while hand-for-hand holds the table, or once the table is broken.
        When too few players are left to deal and the floor is sending more, they sit down first
        and that setup deals the hand (its result is returned)."""
        if self.broken is not None:
            raise RuleViolation("TABLE-MOVE", "this table is broken: its players have moved to other tables")
        if self._break_if_empty(runtime, now):
            raise RuleViolation("TABLE-MOVE", "this table is broken: its players have moved to other tables")
        self._hold_for_hand_for_hand()
        self._hold_for_break(runtime.clock_view())
        return self._seat_first(runtime, now)

    @staticmethod
    def _hold_for_break(clock: Mapping[str, Any]) -> None:
        """TABLE-LEVELS: no hand is dealt during the tournament's break."""
        current = clock.get("current") or {}
        if clock.get("running") and current.get("break"):
            left = int((clock.get("remaining_ms") or 0) / 1000)
            raise RuleViolation("TABLE-LEVELS", f"the tournament is on a break: play resumes in {left // 60}:{left % 60:02d}")

    def _seat_first(self, runtime: Any, now: int) -> dict[str, Any] | None:
        seats = {int(s): (row.get("name", ""), row["stack"]) for s, row in runtime.table.snapshot()["table"]["seats"].items()
                 if row["stack"] > 0}
        if len(seats) >= 2 or not self._pending():
            return None
        button = int(runtime.table.setup.button)
        between = {"setup": {"button": button, "seats": [{"seat": s, "stack": st, "name": n} for s, (n, st) in seats.items()]}}
        seating = self._seating(StartedHand(button, 0, seats), now)
        if seating is None or len(reseat(StartedHand(button, 0, seats), self._pending(), self.away, now).seats) < 2:
            return None
        result: dict[str, Any] = runtime.reseat(between, seating, now, new_hand=True)
        return result

    def _hold_for_hand_for_hand(self) -> None:
        if not may_start(self.h4h["active"], self.h4h["round"], self.played_round):
            others = [t for t in self.playing if t != self.table_id]
            waiting = f"tables {', '.join(others)} are still playing" if others else "the floor opens the next round"
            raise RuleViolation("TABLE-HAND-FOR-HAND", f"hand for hand: wait until {waiting} (000 §56)")

    def between_hands(self, runtime: Any, started: Mapping[str, Any], now: int) -> Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]] | None:
        """The seating of the hand just started, when orders change it; None when they do not."""
        hand = self._started(runtime, started)
        return self._seating(hand, now)

    # ------------------------------------------------------------------ seating

    def _pending(self) -> list[Order]:
        return [o for o in self.orders.values() if isinstance(o, SEATING)]

    def _seating(self, hand: StartedHand, now: int) -> Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]] | None:
        r = reseat(hand, self._pending(), self.away, now)
        if not r.changes(hand, self.away) and set(r.waiting) == self.waiting:
            return None

        def apply(setup: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
            out = dict(setup, seats={str(s): st for s, (_, st) in r.seats.items()},
                       names={str(s): n for s, (n, _) in r.seats.items() if n}, button=r.button)
            out["away"] = sorted(r.away)
            if not out["away"]:
                del out["away"]
            kinds = sorted({str(d["kind"]) for d in r.done})
            extra = {"floor_done": list(r.done), "floor_waiting": list(r.waiting),
                     "floor_away": {str(s): t for s, t in r.away.items()}, "floor_notes": list(r.notes),
                     "floor_reason": "floor orders carried out between hands: " + (", ".join(kinds) or "seating")}
            return out, extra
        return apply

    def _started(self, runtime: Any, started: Mapping[str, Any]) -> StartedHand:
        setup = started["setup"]
        hand = runtime.table.snapshot()["hand"]
        sb = hand.get("small_blind_seat") or hand.get("big_blind_seat") or 0
        return StartedHand(int(setup["button"]), int(sb),
                           {int(s["seat"]): (str(s.get("name") or ""), int(s["stack"])) for s in setup["seats"]})

    def _reseat_now(self, runtime: Any, now: int) -> None:
        initial = runtime.table.initial_events
        started = next((ev for ev, _ in initial if ev.get("type") == "hand_started"), None)
        if started is None:
            return
        seating = self._seating(self._started(runtime, started), now)
        if seating is not None:
            runtime.reseat(started, seating, now)

    def _break_if_empty(self, runtime: Any, now: int) -> bool:
        """When the players leaving would leave fewer than two, they leave now and the table closes
        (journaled: the moves are carried out, the table is broken). True when it closed."""
        leaving = [o for o in self._pending() if isinstance(o, MoveOut)
                   or (isinstance(o, PenaltyOrder) and o.penalty.kind == "disqualification")]
        if not leaving:
            return False
        seats = runtime.table.snapshot()["table"]["seats"]
        hand = StartedHand(0, 0, {int(s): (row.get("name", ""), row["stack"]) for s, row in seats.items() if row["stack"] > 0})
        r = reseat(hand, leaving, self.away, now)
        if len(r.seats) >= 2:
            return False
        body = {"done": list(r.done), "broken": {"players_left": len(r.seats)}}
        self.note(body, now)
        runtime.commit_entry("floor", body, now)
        return True

    # ------------------------------------------------------------------ the tablet's view

    def set_link(self, **state: Any) -> None:
        """The link's connection state (from its own thread; shown, never journaled)."""
        with self._lock:
            self.link = dict(self.link, **state)
            self._view = dict(self._view, link=dict(self.link))

    def _refresh(self) -> None:
        orders = [{"id": o.id, "kind": type(o).__name__, "text": describe(o),
                   "state": "waiting" if o.id in self.waiting else "next hand" if isinstance(o, SEATING) else "now"}
                  for o in self.orders.values()]
        view = {
            "room": self.room, "table": self.table_id, "orders": orders, "recent": list(self.recent),
            "notes": list(self.notes),
            "hand_for_hand": dict(self.h4h, playing=list(self.playing),
                                  may_deal=may_start(self.h4h["active"], self.h4h["round"], self.played_round)),
            "deck_change": dict(self.deck_prompt) if self.deck_prompt else None,
            "away": {str(s): t for s, t in self.away.items()}, "broken": self.broken,
        }
        with self._lock:
            self._view = dict(view, link=dict(self.link))

    def view(self) -> dict[str, Any]:
        with self._lock:
            return dict(self._view)
