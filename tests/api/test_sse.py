"""Server-sent events over a real waitress server on 127.0.0.1: ids, reconnect with Last-Event-ID."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

import live_helpers as H
from dealer_pi.web.app import create_app
from dealer_pi.web.auth import AuditLog
from dealer_pi.web.server import Server


class SSEClient:
    """A minimal EventSource: parses id/event/data blocks from a streaming HTTP response."""

    def __init__(self, port: int, token: str | None, last_event_id: int | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", "/api/events", headers=headers)
        self.sock = self.conn.sock  # the response takes it over (and the connection forgets it)
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200
        assert self.resp.getheader("Content-Type", "").startswith("text/event-stream")

    def messages(self) -> Iterator[dict[str, Any]]:
        msg: dict[str, Any] = {}
        while True:
            line = self.resp.fp.readline().decode()
            if line == "":
                return
            line = line.rstrip("\n")
            if not line:
                if "data" in msg:
                    msg["data"] = json.loads(msg["data"])
                    yield msg
                msg = {}
            elif line.startswith(":"):
                continue
            else:
                key, _, value = line.partition(": ")
                msg[key] = value

    def until_state(self, last_event_id: int) -> list[dict[str, Any]]:
        out = []
        for m in self.messages():
            out.append(m)
            if m.get("event") == "state" and m["data"]["last_event_id"] >= last_event_id:
                return out
        raise AssertionError("stream ended")

    def drain(self, quiet_s: float) -> list[dict[str, Any]]:
        """Every message still coming, until none has come for ``quiet_s`` seconds."""
        out: list[dict[str, Any]] = []
        assert self.sock is not None
        self.sock.settimeout(quiet_s)
        try:
            for m in self.messages():
                out.append(m)
        except TimeoutError:
            pass
        return out

    def close(self) -> None:
        self.resp.close()  # the response holds the socket open as long as it lives
        self.conn.close()


@pytest.fixture
def served(serve: Any) -> tuple[Any, Server]:
    return serve(threads=16)  # type: ignore[no-any-return]


def _post(port: int, obs: dict[str, Any]) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/api/observations", body=json.dumps(obs),
                 headers={"Authorization": f"Bearer {H.DEALER}", "Content-Type": "application/json"})
    r = conn.getresponse()
    body = json.loads(r.read())
    conn.close()
    assert r.status == 200, body
    return body  # type: ignore[no-any-return]


def test_sse_reconnect_with_last_event_id_gets_everything_missed(served: tuple[Any, Server]) -> None:
    rt, server = served
    script = H.checked_down_hand()
    first, missed, after = script[:6], script[6:16], script[16:20]
    client = SSEClient(server.port, H.DEALER)
    hello = client.until_state(0)
    assert hello[-1]["event"] == "state" and hello[-1]["data"]["view"] == "dealer"
    start_id = hello[-1]["data"]["last_event_id"]
    ids: list[int] = []
    for obs in first:
        top = _post(server.port, obs)["last_event_id"]
    got = client.until_state(top)
    ids += [int(m["id"]) for m in got if m.get("event") == "table"]
    assert all(m["data"]["id"] == int(m["id"]) for m in got if m.get("event") == "table")
    last_seen = int(got[-1]["id"])
    client.close()  # the tablet loses its connection...

    posted = []
    for obs in missed:  # ...while the table plays on
        posted += [e["id"] for e in _post(server.port, obs)["events"]]
    assert posted, "the missed observations caused events"

    client = SSEClient(server.port, H.DEALER, last_event_id=last_seen)
    top = rt.journal.last_event_id()
    backlog = client.until_state(top)
    replayed = [int(m["id"]) for m in backlog if m.get("event") == "table"]
    assert replayed == posted  # every missed event, once, in order
    assert backlog[-1]["event"] == "state" and backlog[-1]["data"]["last_event_id"] == top
    for obs in after:  # and then it is live again
        top = _post(server.port, obs)["last_event_id"]
    live = client.until_state(top)
    ids += replayed + [int(m["id"]) for m in live if m.get("event") == "table"]
    client.close()
    assert ids == list(range(start_id + 1, top + 1))  # nothing lost, nothing twice


def test_sse_fresh_connection_starts_with_the_current_state(served: tuple[Any, Server]) -> None:
    rt, server = served
    for obs in H.checked_down_hand()[:4]:
        _post(server.port, obs)
    client = SSEClient(server.port, None)
    first = next(client.messages())
    client.close()
    assert first["event"] == "state" and first["data"]["view"] == "public"
    assert first["data"]["last_event_id"] == 0  # the public view has nothing before the delay


def test_sse_after_a_server_restart_the_reconnect_gets_what_was_missed(tmp_path: Path) -> None:
    script = H.checked_down_hand()
    rt = H.runtime(tmp_path, 300)
    server = Server(create_app(H.config(tmp_path), rt, audit=AuditLog(tmp_path / "audit.log")), port=0, threads=8).start()
    try:
        client = SSEClient(server.port, H.DEALER)
        seen = client.until_state(0)[-1]["data"]["last_event_id"]
        client.close()
        missed = []
        for obs in script[:16]:  # the tablet is away while these are entered...
            missed += [e["id"] for e in _post(server.port, obs)["events"]]
    finally:
        rt.stop()  # ...and then the server goes down
        server.close()
    rt = H.runtime(tmp_path, 300)
    server = Server(create_app(H.config(tmp_path), rt, audit=AuditLog(tmp_path / "audit.log")), port=0, threads=8).start()
    try:
        client = SSEClient(server.port, H.DEALER, last_event_id=seen)
        got = client.until_state(missed[-1])
        client.close()
        assert [int(m["id"]) for m in got if m.get("event") == "table"] == missed
    finally:
        rt.stop()
        server.close()


def test_sse_an_id_from_another_journal_starts_afresh(served: tuple[Any, Server]) -> None:
    rt, server = served
    for obs in H.checked_down_hand()[:14]:
        _post(server.port, obs)
    client = SSEClient(server.port, H.DEALER, last_event_id=10_000)  # say, the table's journal was reset
    first = next(client.messages())
    client.close()
    assert first["event"] == "state" and first["data"]["last_event_id"] == rt.journal.last_event_id()
    for obs in H.checked_down_hand()[14:16]:  # and what follows is sent, not skipped as "already seen"
        top = _post(server.port, obs)["last_event_id"]
    client = SSEClient(server.port, H.DEALER, last_event_id=10_000)
    got = client.until_state(top)
    client.close()
    assert got[-1]["data"]["last_event_id"] == top


def test_the_audit_log_counts_the_hole_cards_a_producer_stream_really_carried(served: tuple[Any, Server]) -> None:
    rt, server = served
    client = SSEClient(server.port, H.PRODUCER)
    client.until_state(0)
    top = 0
    for obs in H.checked_down_hand()[:16]:
        top = _post(server.port, obs)["last_event_id"]
    got = client.until_state(top)
    got += client.drain(quiet_s=2.0)  # a busy server may still be sending what the posts caused
    client.close()
    states = sum(1 for m in got if m.get("event") == "state" and any(
        c for cards in (m["data"].get("hole_cards") or {}).values() for c in cards))
    events = sum(1 for m in got if m.get("event") == "table" and m["data"]["event"]["type"] == "hole_cards_dealt"
                 and any(m["data"]["event"].get("cards") or ()))
    assert states >= 8  # every state from the first hole card on
    carried = states + events  # a state with a hole card, or a deal event showing one
    audit = AuditLog(Path(server_audit(rt)))
    closed = H.wait_for(lambda: [a for a in audit.read() if a["what"] == "stream-close"])
    # the server may have sent a state or two the client did not wait for before it hung up
    assert carried <= closed[0]["hole_card_messages"] <= carried + 2
    assert closed[0]["role"] == "producer" and closed[0]["last_event_id"] >= top


def server_audit(rt: Any) -> Path:
    return Path(rt.journal.path).parent / "audit.log"
