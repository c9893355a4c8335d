"""The table's link to the floor: publishes from its journal, takes the floor's orders.

Offline-first. The table never waits for the broker; the link reads the
journal and publishes one ``events`` message per entry, in order, with the
entry's seq. The floor confirms the last seq it holds (a retained ``ack``);
after a reconnect, a restart or the floor's ``resend``, the link starts again
from that seq, so the floor gets every entry and drops what it already has.

Inbound messages are checked (:mod:`.topics`, the engine's order checks);
a bad one is logged with its topic and field and dropped, and the link goes
on. Orders and the hand-for-hand round go to the engine thread as ``floor``
work (journaled there); the clock becomes a ``sync`` clock command when it
differs from the table's (TABLE-LEVELS: the floor's clock is the one clock).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

from dealer_pi.engine.errors import EngineError
from dealer_pi.runtime.views import redact_event, scrub_cards

from . import mqtt as M
from .settings import TableLinkSettings
from .table_side import TableFloor
from .topics import (
    MessageError, ack_topic, check_ack, check_clock, check_hand_for_hand, decode, encode, floor_topic, order_topic,
    table_topic,
)

log = logging.getLogger("dealer_pi.floor.link")

PAGE = 200
WINDOW = 5000  # entries published and not yet confirmed before the link waits for the floor
ACK_WAIT_S = 1.0  # after subscribing, how long to wait for the floor's retained ack
STATE_EVERY_S = 0.5
CLOCK_TOLERANCE_MS = 2000


def floor_event(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the floor may see it: no hole card, no burn, no card named in an alert."""
    out = redact_event(event, "dealer")
    if out.get("type") == "alert_raised":
        out = {k: (scrub_cards(v) if isinstance(v, str) and k not in ("type", "rule", "alert_id") else v)
               for k, v in out.items() if k != "trigger"}
        out["card"] = None
    return out


def floor_alert(alert: dict[str, Any], hand: int | None) -> dict[str, Any]:
    return {"alert_id": alert.get("alert_id"), "rule": alert.get("rule"), "verdict": alert.get("verdict"),
            "remedy": scrub_cards(str(alert.get("remedy", ""))), "seat": alert.get("seat"), "hand": hand}


class TableLink:
    def __init__(self, runtime: Any, settings: TableLinkSettings, floor: TableFloor) -> None:
        self.runtime, self.settings, self.floor = runtime, settings, floor
        room, table = settings.room, settings.table_id
        self.topic = {k: table_topic(room, table, k) for k in ("state", "events", "alerts", "status")}
        self.ack_topic, self.order_topic = ack_topic(room, table), order_topic(room, table)
        self.clock_topic, self.h4h_topic = floor_topic(room, "clock"), floor_topic(room, "hand-for-hand")
        self.client = M.make_client(settings.broker, f"dealer-pi-{room}-{table}", will=(self.topic["status"], b"offline"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.epoch = runtime.journal.epoch()
        self.confirmed = 0
        self.sent = 0
        self.synced = False
        self.connected = False
        self.refused = 0  # messages refused (bad topic data)
        self._subscribed_at: float | None = None
        self._inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._alerts_key: Any = None
        self._state_seq = -1
        self._state_at = 0.0
        self._threads = [threading.Thread(target=self._pump, name="floor-out", daemon=True),
                         threading.Thread(target=self._inbound, name="floor-in", daemon=True)]

    # ------------------------------------------------------------------ life cycle

    def start(self) -> TableLink:
        self.floor.set_link(connected=False, broker=self.settings.broker.url, room=self.settings.room)
        M.start(self.client, self.settings.broker)
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self.connected:
            self.client.publish(self.topic["status"], b"offline", qos=1, retain=True).wait_for_publish(2)
        M.stop(self.client)
        for t in self._threads:
            t.join(timeout=5)

    # ------------------------------------------------------------------ paho callbacks (its network thread)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if M.failed(reason_code):
            log.warning("floor broker %s refused the connection: %s", self.settings.broker.url, reason_code)
            self.floor.set_link(connected=False, error=str(reason_code))
            return
        with self._lock:
            self.connected, self.synced, self._subscribed_at = True, False, None
        client.subscribe([(self.clock_topic, M.QOS), (self.h4h_topic, M.QOS),
                          (f"{self.order_topic.rsplit('/', 1)[0]}/#", M.QOS)])
        client.publish(self.topic["status"], b"online", qos=M.QOS, retain=True)
        self._alerts_key, self._state_seq = None, -1  # retained copies may be gone with the broker
        self.floor.set_link(connected=True, error="")
        log.info("floor: connected to %s as %s/%s", self.settings.broker.url, self.settings.room, self.settings.table_id)

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, reason_codes: Any, properties: Any) -> None:
        with self._lock:
            self._subscribed_at = time.monotonic()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        with self._lock:
            self.connected, self.synced = False, False
        self.floor.set_link(connected=False)
        if not self._stop.is_set():
            log.warning("floor: lost the broker (%s); the table goes on and catches up later", reason_code)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        self._inbox.put((msg.topic, msg.payload))

    # ------------------------------------------------------------------ inbound

    def _inbound(self) -> None:
        while not self._stop.is_set():
            try:
                topic, payload = self._inbox.get(timeout=0.5)
            except queue.Empty:
                continue
            try:
                self._handle(topic, payload)
            except MessageError as exc:
                self._refuse(exc)
            except EngineError as exc:
                where = getattr(exc, "where", None) or getattr(exc, "rule", "")
                self._refuse(MessageError(topic, where or "(message)", getattr(exc, "message", str(exc))))
            except Exception:  # a bug must not stop the link
                log.exception("floor: handling a message on %s failed", topic)

    def _refuse(self, exc: MessageError) -> None:
        log.error("floor: refused a message on %s: %s: %s", exc.topic, exc.where, exc.message)
        self.refused += 1  # counted once logged: a reader of the count finds the log line there
        self.floor.set_link(refused=self.refused, last_refused=str(exc))

    def _handle(self, topic: str, payload: bytes) -> None:
        if topic == self.ack_topic:
            data = decode(topic, payload)
            seq, resend = check_ack(topic, data)
            if data.get("epoch") not in (None, self.epoch):
                seq = 0  # the floor holds another journal's entries under this table's name
            with self._lock:
                self.confirmed = seq
                if not self.synced or resend:
                    self.sent, self.synced = seq, self.connected
            self.floor.set_link(confirmed_seq=seq)
        elif topic == self.order_topic:
            self._orders(topic, decode(topic, payload))
        elif topic == self.h4h_topic:
            h = check_hand_for_hand(topic, decode(topic, payload))
            self.runtime.submit("floor", {"type": "hand_for_hand", "hand_for_hand": h})
        elif topic == self.clock_topic:
            self._clock(topic, decode(topic, payload))

    def _orders(self, topic: str, data: dict[str, Any]) -> None:
        from dealer_pi.engine.tournament.orders import order_from_dict

        raw = data.get("orders")
        if not isinstance(raw, list):
            raise MessageError(topic, "orders", "must be a list of orders")
        orders = [order_from_dict(o, f"orders[{i}]") for i, o in enumerate(raw)]
        open_ids = {o.id for o in orders}
        fresh = [o for o in orders if o.id not in self.floor.seen]
        if fresh or set(list(self.floor.orders)) - open_ids:
            self.runtime.submit("floor", {"type": "orders", "orders": fresh, "open": open_ids})

    def _clock(self, topic: str, data: dict[str, Any]) -> None:
        cmd = check_clock(topic, data)
        sent = data.get("sent_ms")
        now = self.runtime.now_ms()
        if cmd["running"] and isinstance(sent, int) and not isinstance(sent, bool) and cmd["remaining_ms"] is not None:
            cmd["remaining_ms"] -= max(0, now - sent)  # a retained clock may be old by the time it arrives
            if cmd["remaining_ms"] < 0:
                return  # that level is over already: the floor's next clock message says where it is
        mine = self.runtime.clock_view()
        same = (mine["levels"] == cmd["levels"] and mine["level"] == cmd["level"] and mine["running"] == cmd["running"]
                and abs((mine["remaining_ms"] or 0) - (cmd["remaining_ms"] or 0)) <= CLOCK_TOLERANCE_MS)
        if not same:
            self.runtime.submit("clock", cmd)

    # ------------------------------------------------------------------ outbound

    def _pump(self) -> None:
        channel = self.runtime.publisher.channels["dealer"]
        cursor = channel.seq
        while not self._stop.is_set():
            msgs = channel.wait(cursor, 0.25)
            cursor = channel.seq if msgs is None or msgs else cursor
            if msgs:
                cursor = msgs[-1].seq
            try:
                self._publish_all()
            except Exception:
                log.exception("floor: publishing failed; trying again")
                self._stop.wait(1.0)

    def _ready(self) -> bool:
        with self._lock:
            if not self.connected:
                return False
            if not self.synced and self._subscribed_at is not None and time.monotonic() - self._subscribed_at > ACK_WAIT_S:
                self.synced = True  # no ack retained: the floor has nothing of this table yet
                self.sent = self.confirmed
            return self.synced

    def _publish_all(self) -> None:
        if not self._ready():
            return
        self._publish_entries()
        self._publish_alerts()
        self._publish_state()

    def _publish_entries(self) -> None:
        journal = self.runtime.journal
        while not self._stop.is_set() and self._ready():
            with self._lock:
                start, ahead = self.sent, self.sent - self.confirmed
            if ahead >= WINDOW:
                return  # the floor is behind: wait for its acks
            page = journal.page_after(start, PAGE)
            if not page:
                return
            for entry, events in page:
                msg = {"v": 1, "table": self.settings.table_id, "epoch": self.epoch, "seq": entry.seq,
                       "ts_ms": entry.ts_ms, "kind": entry.kind,
                       "events": [{"id": ev.id, "hand": ev.hand, "event": floor_event(ev.body)} for ev in events]}
                floor = _floor_part(entry.kind, entry.body)
                if floor:
                    msg["floor"] = floor
                msg["sent_ms"] = self.runtime.now_ms()
                self.client.publish(self.topic["events"], encode(msg), qos=M.QOS)
            with self._lock:
                if self.sent == start:  # not rewound meanwhile by a reconnect or a resend
                    self.sent = page[-1][0].seq
            self.floor.set_link(sent_seq=page[-1][0].seq)

    def _publish_alerts(self) -> None:
        alerts = self.runtime.open_alerts()
        key = [a.get("alert_id") for a in alerts]
        if key == self._alerts_key:
            return
        hand = self.runtime.table.hand
        body = {"v": 1, "table": self.settings.table_id, "alerts": [floor_alert(a, hand) for a in alerts],
                "ts_ms": self.runtime.now_ms()}
        self.client.publish(self.topic["alerts"], encode(body), qos=M.QOS, retain=True)
        self._alerts_key = key

    def _publish_state(self) -> None:
        """The public view, as the public overlay has it (after the stream delay); coalesced."""
        batch = self.runtime.publisher.public_batch
        seq = batch.seq if batch is not None else 0
        if seq == self._state_seq or time.monotonic() - self._state_at < STATE_EVERY_S:
            return
        state = self.runtime.state("public")
        state.pop("devices", None)
        self.client.publish(self.topic["state"], encode(state), qos=M.QOS, retain=True)
        self._state_seq, self._state_at = seq, time.monotonic()


def _floor_part(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """What the floor needs of an entry besides its events: its orders and what was carried out."""
    if kind == "floor":
        return dict(body)
    if kind == "setup":
        keys = ("reason", "floor_done", "floor_waiting", "floor_notes", "redealt")
        return {k: body[k] for k in keys if k in body}
    return {}
