"""The floor's picture of each table, built from the entries the tables publish.

A table's seats and stacks come from its ``hand_started`` events (who is dealt
in, with what, the button and the blinds) and ``hand_ended`` (the stacks after
the hand; a player left with nothing is out). Status comes from the retained
``status`` topic (``offline`` is the table's last will), open alerts from its
``alerts`` topic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass
class TableView:
    table: str
    status: str = "unknown"  # online | offline | unknown (never heard of)
    status_ms: int = 0
    epoch: int = 0
    last_seq: int = 0
    last_entry_ms: int = 0  # the table's time of its newest entry
    hand: int | None = None
    running: bool = False
    blinds: list[int] = field(default_factory=list)
    ante: int = 0
    button: int = 0
    small_blind_seat: int = 0
    big_blind_seat: int = 0
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {name, stack}
    hand_started_ms: int = 0
    hand_ended_ms: int = 0
    alerts: list[dict[str, Any]] = field(default_factory=list)
    broken: bool = False
    busted: list[tuple[str, int]] = field(default_factory=list)  # (name, stack at the start) of the last hand

    def players(self) -> dict[int, str]:
        return {s: row["name"] for s, row in self.seats.items() if row["stack"] > 0}

    def to_json(self, now_ms: int) -> dict[str, Any]:
        since = max(self.hand_started_ms, self.hand_ended_ms)
        return {
            "table": self.table, "status": self.status, "hand": self.hand, "running": self.running,
            "blinds": list(self.blinds), "ante": self.ante, "button": self.button,
            "small_blind_seat": self.small_blind_seat or None, "big_blind_seat": self.big_blind_seat or None,
            "players": [{"seat": s, "name": r["name"], "stack": r["stack"]} for s, r in sorted(self.seats.items())
                        if r["stack"] > 0],
            "alerts": list(self.alerts), "last_seq": self.last_seq, "broken": self.broken,
            "last_hand_ended_ms": self.hand_ended_ms or None,
            "since_last_hand_s": round((now_ms - self.hand_ended_ms) / 1000) if self.hand_ended_ms else None,
            "activity_ms": since or None,
        }


class Room:
    """Every table of one room (written by the floor's worker thread only)."""

    def __init__(self) -> None:
        self.tables: dict[str, TableView] = {}

    def table(self, name: str) -> TableView:
        view = self.tables.get(name)
        if view is None:
            view = self.tables[name] = TableView(name)
        return view

    def set_status(self, name: str, status: str, now_ms: int) -> None:
        t = self.table(name)
        if t.status != status:
            t.status, t.status_ms = status, now_ms

    def set_alerts(self, name: str, alerts: list[dict[str, Any]]) -> None:
        self.table(name).alerts = alerts

    def apply(self, name: str, entry: Mapping[str, Any]) -> list[str]:
        """Fold one entry in; returns what it changed that the director cares for
        (``hand_started``, ``hand_ended``)."""
        t = self.table(name)
        t.last_seq, t.last_entry_ms = entry["seq"], entry["ts_ms"]
        floor = entry.get("floor") or {}
        for rec in list(floor.get("done", ())) + list(floor.get("floor_done", ())):
            self._carried_out(t, rec)
        if floor.get("broken"):
            t.broken, t.seats = True, {}
        seen: list[str] = []
        for item in entry["events"]:
            ev = item["event"]
            kind = ev.get("type")
            if kind == "hand_started":
                self._started(t, item, ev, entry["ts_ms"])
                seen.append(kind)
            elif kind == "hand_ended":
                self._ended(t, ev, entry["ts_ms"])
                seen.append(kind)
        return seen

    @staticmethod
    def _carried_out(t: TableView, rec: Mapping[str, Any]) -> None:
        """An order the table carried out between hands: the seats change before the next hand starts."""
        kind, seat = rec.get("kind"), rec.get("seat")
        if not isinstance(seat, int):
            return
        if kind == "move_out" or (kind == "penalty" and "chips_removed" in rec):
            t.seats.pop(seat, None)
        elif kind == "move_in":
            t.seats[seat] = {"name": str(rec.get("player")), "stack": int(rec.get("stack") or 0), "start": 0}
        elif kind == "rebuy" and "stack" in rec:
            t.seats[seat] = {"name": str(rec.get("player")), "stack": int(rec["stack"]), "start": 0}

    @staticmethod
    def _started(t: TableView, item: Mapping[str, Any], ev: Mapping[str, Any], ts: int) -> None:
        setup = ev.get("setup") or {}
        seats = setup.get("seats") or []
        t.hand, t.running, t.hand_started_ms = item.get("hand"), True, ts
        t.seats = {int(s["seat"]): {"name": s.get("name") or f"seat {s['seat']}", "stack": int(s["stack"]),
                                    "start": int(s["stack"])} for s in seats}
        t.button = int(setup.get("button") or 0)
        bb = int(setup.get("small_bet") or 0)
        t.ante = max([int(s.get("ante") or 0) for s in seats] or [0])
        blinds = {int(s["seat"]): int(s.get("blind") or 0) for s in seats}
        order = sorted(blinds, key=lambda s: (s - t.button - 1) % 10)  # clockwise from the button
        t.big_blind_seat = next((s for s in order if blinds[s] == bb and bb), 0)
        t.small_blind_seat = next((s for s in order if 0 < blinds[s] < bb), 0)
        t.blinds = [blinds.get(t.small_blind_seat, 0) or bb // 2, bb]
        t.busted = []

    @staticmethod
    def _ended(t: TableView, ev: Mapping[str, Any], ts: int) -> None:
        t.running, t.hand_ended_ms = False, ts
        busted = []
        for seat, stack in ev.get("stacks") or []:
            row = t.seats.get(int(seat))
            if row is None:
                continue
            row["stack"] = int(stack)
            if stack == 0 and not ev.get("misdeal"):
                busted.append((row["name"], row.get("start", 0)))
        t.busted = busted
