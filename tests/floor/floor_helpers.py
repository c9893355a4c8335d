"""Shared by the floor tests: tables and a floor on a real Mosquitto, hands played on demand, a spy client."""

from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as mqtt

from dealer_pi.engine.observations import DealerDeclaration, Declaration, Observation
from dealer_pi.engine.table_session import TableSetup
from dealer_pi.floor.floor_config import floor_config_from_dict
from dealer_pi.floor.link import TableLink
from dealer_pi.floor.service import FloorService
from dealer_pi.floor.settings import Broker, TableLinkSettings, parse_broker
from dealer_pi.floor.table_side import TableFloor
from dealer_pi.runtime.engine_thread import Runtime
from dealer_pi.sim.table import SimTable

FLOOR_TOKEN = "floor-secret-3"
LEVELS = [{"small_blind": 25, "big_blind": 50, "minutes": 10}, {"small_blind": 50, "big_blind": 100, "ante": 10, "minutes": 10},
          {"small_blind": 100, "big_blind": 200, "minutes": 10, "break": True}]


def wait_for(cond: Callable[[], Any], timeout: float = 15.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or cond}")


def broker_of(url: str) -> Broker:
    host, port, _ = parse_broker(url)
    return Broker(host, port, keepalive_s=5)


class Table:
    """A table's runtime with its floor link; ``hand()`` plays one hand, ``new_hand()`` starts the next."""

    def __init__(self, tmp: Path, url: str, room: str, name: str, setup: dict[str, Any] | None = None,
                 delay_s: float = 300, now_ms: Callable[[], int] | None = None, broker: Broker | None = None) -> None:
        setup = setup or {"blinds": [25, 50], "seats": {str(s): 5000 for s in range(1, 7)}, "button": 1}
        kw = {"now_ms": now_ms} if now_ms else {}
        self.name = name
        self.runtime = Runtime(tmp / name / "journal.sqlite3", setup, stream_delay_s=delay_s, **kw)
        self.runtime.floor = TableFloor(room, name)
        self.runtime.start()
        settings = TableLinkSettings(broker or broker_of(url), room, name)
        self.link = TableLink(self.runtime, settings, self.runtime.floor).start()
        self._sim: Any = None
        self._of: Any = None
        self._pending: Observation | None = None

    @property
    def floor(self) -> TableFloor:
        return self.runtime.floor  # type: ignore[no-any-return]

    def _observations(self) -> Any:
        if self._of is not self.runtime.table:
            self._of = self.runtime.table
            setup = TableSetup.from_dict(self.runtime.table.setup_dict())
            self._sim = iter(SimTable(setup, 1000, seed=len(self.runtime.journal.hands()) + 7).observations())
        return self._sim

    def hand(self) -> None:
        """Play the current hand to its end (the next "new hand" is kept for :meth:`new_hand`)."""
        for obs in self._observations():
            if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND:
                return
            self.runtime.submit("observation", obs)

    def card_out(self) -> None:
        """Deal the hand's first card: from now on the hand is on (000 §47), orders wait for its end."""
        self.runtime.submit("observation", next(self._observations()))

    def new_hand(self) -> Any:
        table = self.runtime.table
        level = table.next_level()
        result = self.runtime.submit("observation", DealerDeclaration(Declaration.NEW_HAND))
        started = next((e["event"] for e in result.get("events", []) if e["event"].get("type") == "hand_started"), None)
        if self.runtime.table is table and started is not None and table.next_level() != level:
            # TABLE-LEVELS: the engine dealt this hand at the new level; the simulated players follow it.
            sb, bb, ante = table.next_level()
            setup = TableSetup.from_dict(table.releveled(started, (sb, bb), ante))
            self._sim = iter(SimTable(setup, 1000, seed=len(self.runtime.journal.hands()) + 7).observations())
        return result

    def setup(self) -> dict[str, Any]:
        return self.runtime.table.setup_dict()  # type: ignore[no-any-return]

    def close(self) -> None:
        self.link.stop()
        self.runtime.stop()


def floor(tmp: Path, url: str, room: str, **tournament: Any) -> FloorService:
    t = {"name": "Test cup", "tables": ["t1", "t2"], "starting_stack": 5000, "seats_per_table": 9, "levels": LEVELS,
         "payouts": [50, 30, 20], "buy_in": 100} | tournament
    config, broker, base = floor_config_from_dict({
        "floor": {"broker": url, "room": room}, "web": {"floor_token": FLOOR_TOKEN},
        "store": {"path": str(tmp / "floor.sqlite3")}, "tournament": t,
    }, tmp)
    return FloorService(config, broker, base).start()


class Spy:
    """A plain MQTT client that records what it receives (topic, payload, retained)."""

    def __init__(self, url: str, topic: str) -> None:
        b = broker_of(url)
        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="")
        self.client.on_message = self._on
        self.client.connect(b.host, b.port)
        self.client.subscribe(topic, 1)
        self.client.loop_start()

    def _on(self, client: Any, userdata: Any, msg: Any) -> None:
        with self._lock:
            self.messages.append((msg.topic, msg.payload, bool(msg.retain)))

    def on(self, topic: str) -> list[bytes]:
        with self._lock:
            return [p for t, p, _ in self.messages if t == topic]

    def json(self, topic: str) -> list[Any]:
        return [json.loads(p) for p in self.on(topic)]

    def publish(self, topic: str, payload: Any, retain: bool = False) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(topic, data, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def http(method: str, url: str, body: Any = None, token: str | None = FLOOR_TOKEN) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def certificates(d: Path) -> tuple[Path, Path, Path]:
    """A CA and a server certificate for 127.0.0.1 signed by it (openssl)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
        "-subj", "/CN=dealer-pi test room CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    (d / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "server.crt", "-days", "2", "-extfile", "ext.cnf")
    return d / "ca.crt", d / "server.crt", d / "server.key"
