"""The floor process: subscribes to the room, keeps its journal, runs the director, answers the pages.

One worker thread does everything that changes state: it takes the broker's
messages and the staff's commands from one queue, in order. Each table's
entries are taken in seq order exactly once: a copy already held is dropped
(counted as a duplicate), a gap makes the floor ask the table to send again
from its last ack (``resend``), and what is taken is stored, folded into the
room and handed to the director, then confirmed with a retained ``ack``.
"""

from __future__ import annotations

import collections
import concurrent.futures
import json
import logging
import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable, Deque

from dealer_pi.engine.errors import EngineError

from . import mqtt as M
from .director import Director
from .floor_config import FloorConfig
from .room import Room
from .settings import Broker
from .store import FloorStore, Row
from .topics import (
    MessageError, ack_topic, check_alerts, check_events, check_status, decode, encode, floor_topic, order_topic,
    parse_table_topic, table_topic,
)

log = logging.getLogger("dealer_pi.floor")

BATCH = 2000
RESEND_EVERY_S = 2.0
CLOCK_EVERY_S = 10.0


def wall_ms() -> int:
    return int(time.time() * 1000)


class Stats:
    """What the floor received; latency = floor's time of taking an entry - the table's time of journaling it."""

    def __init__(self) -> None:
        self.received = self.taken = self.duplicates = self.gaps = self.refused = self.resends = 0
        self.latency_ms: Deque[int] = collections.deque(maxlen=200_000)
        self.wire_ms: Deque[int] = collections.deque(maxlen=200_000)  # from the link's publish (the broker's part)

    def to_json(self) -> dict[str, Any]:
        def summary(values: Deque[int]) -> dict[str, Any]:
            lat = sorted(values)

            def q(p: float) -> float | None:
                return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else None

            return {"n": len(lat), "p50": q(0.5), "p99": q(0.99), "max": lat[-1] if lat else None}

        return {"received": self.received, "taken": self.taken, "duplicates": self.duplicates, "gaps": self.gaps,
                "refused": self.refused, "resends": self.resends, "latency_ms": summary(self.latency_ms),
                "from_publish_ms": summary(self.wire_ms)}


class FloorService:
    def __init__(self, config: FloorConfig, broker: Broker, base: Path, now_ms: Callable[[], int] = wall_ms) -> None:
        self.config, self.broker, self.now_ms = config, broker, now_ms
        self.room_name = config.floor.room
        path = Path(config.store.path)
        self.store = FloorStore(path if path.is_absolute() else base / path)
        self.room = Room()
        self.director = Director(config.tournament, self.room)
        self.lock = threading.RLock()
        self.stats = Stats()
        self.connected = False
        self.last: dict[str, tuple[int, int]] = {}  # table -> (epoch, last seq taken)
        self._resend_at: dict[str, float] = {}
        self._clock_at = 0.0
        self._inbox: queue.Queue[tuple[str, Any, Any]] = queue.Queue()
        self._stop = threading.Event()
        self.client = M.make_client(broker, f"dealer-pi-floor-{self.room_name}")
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = lambda c, u, msg: self._inbox.put(("message", msg.topic, msg.payload))
        self._thread = threading.Thread(target=self._work, name="floor", daemon=True)

    # ------------------------------------------------------------------ life cycle

    def start(self) -> FloorService:
        self._replay()
        M.start(self.client, self.broker)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        M.stop(self.client)
        self.store.close()

    def _replay(self) -> None:
        """The room and the tournament as they were: commands and entries in the order they came."""
        commands = [(ts, 0, ("command", body)) for _, ts, body in self.store.commands()]
        entries = [(row[4], 1, ("entry", row)) for row in self.store.entries()]
        with self.lock:
            for ts, _, (kind, item) in sorted(commands + entries, key=lambda x: (x[0], x[1])):
                if kind == "command":
                    self.director.command(item, ts)
                else:
                    table, epoch, seq, ts, received, _k, body = item
                    entry = json.loads(body)
                    self.last[table] = (epoch, seq)
                    self.director.on_entry(table, entry, self.room.apply(table, entry), received)
            self.director.take_changes()

    # ------------------------------------------------------------------ paho callbacks

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if M.failed(reason_code):
            log.warning("floor: the broker refused the connection: %s", reason_code)
            return
        room = self.room_name
        client.subscribe([(table_topic(room, "+", k), M.QOS) for k in ("events", "alerts", "status")])
        self.connected = True
        self._inbox.put(("connected", None, None))
        log.info("floor: connected to %s, room %s", self.broker.url, room)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        self.connected = False
        if not self._stop.is_set():
            log.warning("floor: lost the broker (%s); reconnecting", reason_code)

    # ------------------------------------------------------------------ the worker

    def command(self, body: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """A staff command, run on the worker thread; raises what the director raised."""
        done: concurrent.futures.Future[dict[str, Any]] = concurrent.futures.Future()
        self._inbox.put(("command", body, done))
        return done.result(timeout)

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                first = self._inbox.get(timeout=0.2)
            except queue.Empty:
                first = None
            items = [first] if first else []
            while len(items) < BATCH:
                try:
                    items.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            try:
                self._batch(items)
            except Exception:  # a bug must not stop the floor
                log.exception("floor: a batch failed")

    def _batch(self, items: list[tuple[str, Any, Any]]) -> None:
        rows: list[Row] = []
        touched: set[str] = set()
        with self.lock:
            now = self.now_ms()
            for kind, a, b in items:
                try:
                    if kind == "message":
                        self._message(a, b, now, rows, touched)
                    elif kind == "command":
                        self._flush(rows, touched)
                        self._command(a, b, now)
                    elif kind == "connected":
                        self._ask_all_again()
                except Exception:  # one item's bug must not lose the others
                    log.exception("floor: %s failed", kind)
            self._flush(rows, touched)
            self._publish_changes(now)

    def _message(self, topic: str, payload: bytes, now: int, rows: list[Row], touched: set[str]) -> None:
        self.stats.received += 1
        parsed = parse_table_topic(self.room_name, topic)
        if parsed is None:
            return
        table, kind = parsed
        try:
            if kind == "events":
                self._entry(table, topic, decode(topic, payload), now, rows, touched)
            elif kind == "alerts":
                self.room.set_alerts(table, check_alerts(topic, decode(topic, payload)))
            elif kind == "status":
                self.room.set_status(table, check_status(topic, payload), now)
        except MessageError as exc:
            self.stats.refused += 1
            log.error("floor: refused a message on %s: %s: %s", exc.topic, exc.where, exc.message)

    def _entry(self, table: str, topic: str, data: dict[str, Any], now: int, rows: list[Row], touched: set[str]) -> None:
        entry = check_events(topic, table, data)
        epoch = data.get("epoch") if isinstance(data.get("epoch"), int) else 0
        held_epoch, held = self.last.get(table, (epoch, 0))
        expected = held + 1 if held_epoch == epoch else 1
        if entry["seq"] < expected and held_epoch == epoch:
            self.stats.duplicates += 1
            return
        if entry["seq"] != expected:
            self.stats.gaps += 1
            log.info("floor: table %s sent seq %d, the floor expected %d: asking for the rest again", table,
                     entry["seq"], expected)
            self._ask_again(table, held if held_epoch == epoch else 0, epoch)
            return
        if held_epoch != epoch and table in self.last:
            log.warning("floor: table %s starts a new journal (epoch %s)", table, epoch)
        self.last[table] = (epoch, entry["seq"])
        rows.append((table, epoch, entry["seq"], entry["ts_ms"], now, entry["kind"], json.dumps(entry, separators=(",", ":"))))
        self.stats.taken += 1
        touched.add(table)
        try:
            self.director.on_entry(table, entry, self.room.apply(table, entry), now)
        except Exception:  # the entry is kept whatever the director made of it
            log.exception("floor: the director failed on %s seq %d", table, entry["seq"])
        shown = self.now_ms()  # the floor's page and API show it from now on
        self.stats.latency_ms.append(shown - entry["ts_ms"])
        if isinstance(data.get("sent_ms"), int):
            self.stats.wire_ms.append(shown - data["sent_ms"])

    def _flush(self, rows: list[Row], touched: set[str]) -> None:
        self.store.add_entries(rows)
        rows.clear()
        for table in touched:
            epoch, seq = self.last[table]
            self.client.publish(ack_topic(self.room_name, table), encode({"seq": seq, "epoch": epoch}), qos=M.QOS, retain=True)
        touched.clear()

    def _ask_again(self, table: str, seq: int, epoch: int) -> None:
        """Ask the table to send again from ``seq`` (at most every few seconds: the resent copies are on their way)."""
        at = time.monotonic()
        if at - self._resend_at.get(table, 0.0) < RESEND_EVERY_S:
            return
        self._resend_at[table] = at
        self.stats.resends += 1
        self.client.publish(ack_topic(self.room_name, table), encode({"seq": seq, "epoch": epoch, "resend": True}),
                            qos=M.QOS, retain=True)

    def _ask_all_again(self) -> None:
        """After (re)connecting: what the broker held for the floor while it was away is gone; every table
        known sends again from the floor's last ack."""
        for table, (epoch, seq) in self.last.items():
            self._resend_at.pop(table, None)
            self._ask_again(table, seq, epoch)
        self._clock_at = 0.0
        self.director.changed.update({"clock", "hand_for_hand"} | {f"orders:{t}" for t in self.director.t.tables})

    def _command(self, body: Any, done: concurrent.futures.Future[dict[str, Any]], now: int) -> None:
        try:
            result = self.director.command(body, now)
        except EngineError as exc:
            done.set_exception(exc)
            return
        except Exception as exc:
            log.exception("floor: command %r failed", body)
            done.set_exception(exc)
            return
        self.store.add_command(now, body)
        done.set_result(result)

    def _publish_changes(self, now: int) -> None:
        changes = self.director.take_changes()
        if time.monotonic() - self._clock_at > CLOCK_EVERY_S:
            changes.add("clock")  # the clock again now and then: a table that was away gets it right
        if not self.connected:
            self.director.changed.update(changes)  # published once the broker is back
            return
        room = self.room_name
        for change in sorted(changes):
            if change == "clock":
                self._clock_at = time.monotonic()
                self.client.publish(floor_topic(room, "clock"), encode(self.director.clock_message(now)), qos=M.QOS, retain=True)
            elif change == "hand_for_hand":
                self.client.publish(floor_topic(room, "hand-for-hand"), encode(self.director.hand_for_hand_view()),
                                    qos=M.QOS, retain=True)
            elif change.startswith("orders:"):
                table = change.split(":", 1)[1]
                self.client.publish(order_topic(room, table), encode({"orders": self.director.open_orders(table)}),
                                    qos=M.QOS, retain=True)

    # ------------------------------------------------------------------ views (web threads)

    def tables_view(self) -> dict[str, Any]:
        with self.lock:
            now = self.now_ms()
            names = list(self.director.t.tables) + sorted(set(self.room.tables) - set(self.director.t.tables))
            tables = []
            for name in names:
                view = self.room.table(name).to_json(now)
                view["orders"] = self.director.open_orders(name)
                view["in_play"] = name in self.director.drawn or not self.director.drawn
                if not view["in_play"]:
                    view["players"] = []  # a table left out of the draw holds nobody of the tournament
                tables.append(view)
            alerts = [dict(a, table=t["table"]) for t in tables for a in t["alerts"]]
            return {"room": self.room_name, "broker": {"url": self.broker.url, "connected": self.connected},
                    "tables": tables, "alerts": alerts, "log": list(self.director.log),
                    "players": [p.to_json() for p in self.director.players.values()],
                    "hand_for_hand": self.director.hand_for_hand_view(), "server_time_ms": now}

    def tournament_view(self) -> dict[str, Any]:
        with self.lock:
            return self.director.tournament_view(self.now_ms())

    def stats_view(self) -> dict[str, Any]:
        with self.lock:
            return dict(self.stats.to_json(), stored=self.store.count(), tables={t: s for t, (_, s) in self.last.items()})
