"""Topic names and the checks every message gets on the way in.

Topics (QoS 1 throughout):

* ``dealer-pi/<room>/<table>/state``   table -> anyone: the public view, after the stream delay (retained)
* ``dealer-pi/<room>/<table>/events``  table -> floor: one message per journal entry, with its seq
* ``dealer-pi/<room>/<table>/alerts``  table -> floor: the open alerts, no card named (retained)
* ``dealer-pi/<room>/<table>/status``  ``online`` (retained), ``offline`` as the last will
* ``dealer-pi/<room>/floor/clock``            floor -> tables: the tournament clock (retained)
* ``dealer-pi/<room>/floor/hand-for-hand``    floor -> tables: the round, who is still playing (retained)
* ``dealer-pi/<room>/floor/tables/<table>/orders``  floor -> one table: its open orders (retained)
* ``dealer-pi/<room>/floor/tables/<table>/ack``     floor -> one table: the last seq it holds (retained)

A table subscribes to the room's clock and hand-for-hand and to its own
``floor/tables/<table>/#``, not to every table's orders and acks: with a few
hundred tables that fan-out would cost the broker the square of the tables.

>>> table_topic("main", "t3", "events")
'dealer-pi/main/t3/events'
>>> parse_table_topic("main", "dealer-pi/main/t3/alerts")
('t3', 'alerts')
>>> decode("dealer-pi/main/floor/clock", b"[1]")
Traceback (most recent call last):
...
dealer_pi.floor.topics.MessageError: dealer-pi/main/floor/clock: (message): must be a JSON object, got list
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from dealer_pi.engine.errors import InputError

PREFIX: Final = "dealer-pi"
TABLE_KINDS: Final = ("state", "events", "alerts", "status")
MAX_MESSAGE: Final = 512 * 1024
VERSION: Final = 1


class MessageError(ValueError):
    """A message that was refused: names the topic and the field."""

    def __init__(self, topic: str, where: str, message: str) -> None:
        self.topic, self.where, self.message = topic, where, message
        super().__init__(f"{topic}: {where}: {message}")


def table_topic(room: str, table: str, kind: str) -> str:
    return f"{PREFIX}/{room}/{table}/{kind}"


def floor_topic(room: str, *parts: str) -> str:
    return "/".join((PREFIX, room, "floor", *parts))


def order_topic(room: str, table: str) -> str:
    return floor_topic(room, "tables", table, "orders")


def ack_topic(room: str, table: str) -> str:
    return floor_topic(room, "tables", table, "ack")


def parse_table_topic(room: str, topic: str) -> tuple[str, str] | None:
    """(table, kind) of a table's topic in ``room``; None for anything else."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[1] != room or parts[2] == "floor" or parts[3] not in TABLE_KINDS:
        return None
    return parts[2], parts[3]


def decode(topic: str, payload: bytes) -> dict[str, Any]:
    """A JSON object, or :class:`MessageError`."""
    if len(payload) > MAX_MESSAGE:
        raise MessageError(topic, "(message)", f"{len(payload)} bytes, more than {MAX_MESSAGE}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(topic, "(message)", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise MessageError(topic, "(message)", f"must be a JSON object, got {type(data).__name__}")
    return data


def encode(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def whole(topic: str, data: Mapping[str, Any], key: str, low: int = 0, high: int = 2**62, *, optional: bool = False) -> int:
    v = data.get(key)
    if v is None and optional:
        return low
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise MessageError(topic, key, f"must be a whole number from {low} to {high}, got {v!r}")
    return v


def flag(topic: str, data: Mapping[str, Any], key: str) -> bool:
    v = data.get(key, False)
    if not isinstance(v, bool):
        raise MessageError(topic, key, f"must be true or false, got {v!r}")
    return v


def names(topic: str, data: Mapping[str, Any], key: str) -> list[str]:
    v = data.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and 0 < len(x) <= 40 for x in v):
        raise MessageError(topic, key, "must be a list of table ids")
    return list(v)


def check_ack(topic: str, data: Mapping[str, Any]) -> tuple[int, bool]:
    """(seq, resend) of the floor's confirmation."""
    return whole(topic, data, "seq"), flag(topic, data, "resend")


def check_hand_for_hand(topic: str, data: Mapping[str, Any]) -> dict[str, Any]:
    return {"active": flag(topic, data, "active"), "round": whole(topic, data, "round", 0, 10**6),
            "playing": names(topic, data, "playing")}


def check_clock(topic: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The floor's clock as a ``sync`` command for the table clock (TABLE-LEVELS)."""
    from dealer_pi.runtime.clock import check_command

    body = {k: data.get(k) for k in ("levels", "level", "running", "remaining_ms")}
    try:
        return check_command(dict(body, action="sync"), "clock")
    except InputError as exc:
        raise MessageError(topic, exc.where.removeprefix("clock.") or "(message)", exc.message) from None


def check_events(topic: str, table: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """A table's journal entry: its seq, time, kind and public events (each with an id and a type)."""
    if data.get("table") != table:
        raise MessageError(topic, "table", f"must be {table!r} (the topic's table), got {data.get('table')!r}")
    seq = whole(topic, data, "seq", 1)
    ts = whole(topic, data, "ts_ms")
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        raise MessageError(topic, "kind", f"must be the journal entry's kind, got {kind!r}")
    events = data.get("events")
    if not isinstance(events, list):
        raise MessageError(topic, "events", "must be a list")
    for i, ev in enumerate(events):
        if not isinstance(ev, Mapping) or not isinstance(ev.get("event"), Mapping) or not isinstance(ev["event"].get("type"), str):
            raise MessageError(topic, f"events[{i}]", "must be {id, hand, event: {type, ...}}")
        whole(topic, ev, "id", 1)
        if ev.get("hand") is not None:
            whole(topic, ev, "hand", 0)
    floor = data.get("floor")
    if floor is not None and not isinstance(floor, Mapping):
        raise MessageError(topic, "floor", "must be an object")
    return {"seq": seq, "ts_ms": ts, "kind": kind, "events": events, "floor": floor or {}}


def check_alerts(topic: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    alerts = data.get("alerts")
    if not isinstance(alerts, list):
        raise MessageError(topic, "alerts", "must be a list")
    out = []
    for i, a in enumerate(alerts):
        if not isinstance(a, Mapping):
            raise MessageError(topic, f"alerts[{i}]", "must be an object")
        for key in ("alert_id", "rule", "verdict", "remedy"):
            if not isinstance(a.get(key), str):
                raise MessageError(topic, f"alerts[{i}].{key}", "must be text")
        out.append({k: a.get(k) for k in ("alert_id", "rule", "verdict", "remedy", "seat", "hand", "since_ms")})
    return out


def check_status(topic: str, payload: bytes) -> str:
    text = payload.decode("utf-8", "replace").strip()
    if text not in ("online", "offline"):
        raise MessageError(topic, "(message)", f"must be 'online' or 'offline', got {text[:40]!r}")
    return text
