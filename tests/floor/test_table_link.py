"""A table on the broker: what it publishes, what it takes, and that it needs no broker to play."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from floor_helpers import Spy, Table, wait_for

from dealer_pi.config import config_from_dict
from dealer_pi.engine.observations import observation_from_dict
from dealer_pi.floor.broker import LocalBroker
from dealer_pi.floor.settings import check_floor
from dealer_pi.floor.topics import order_topic, table_topic

REPO = Path(__file__).resolve().parents[2]
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def test_table_publishes_every_entry_once_in_order_with_its_status(tmp_path: Path, broker: LocalBroker, room: str) -> None:
    spy = Spy(broker.url, f"dealer-pi/{room}/#")
    t = Table(tmp_path, broker.url, room, "t1")
    try:
        t.hand()
        t.new_hand()
        t.hand()
        last = t.runtime.journal.last_seq()
        events = lambda: spy.json(table_topic(room, "t1", "events"))  # noqa: E731
        wait_for(lambda: events() and events()[-1]["seq"] == last, what="every entry published")
        seqs = [m["seq"] for m in events()]
        assert seqs == list(range(1, last + 1))  # each journal entry once, in order
        journal = {e.seq: e for e in t.runtime.journal.entries_after(0)}
        for msg in events():
            assert msg["kind"] == journal[msg["seq"]].kind and msg["table"] == "t1"
        ids = [ev["id"] for m in events() for ev in m["events"]]
        assert ids == list(range(1, t.runtime.journal.last_event_id() + 1))
        assert spy.on(table_topic(room, "t1", "status"))[-1] == b"online"
        late = Spy(broker.url, table_topic(room, "t1", "status"))  # a floor that comes later still learns it
        wait_for(lambda: [r for tp, _, r in late.messages] == [True], what="retained online")
        late.close()
    finally:
        t.close()
        spy.close()
    # A clean stop says so too: the floor shows the table offline.
    late = Spy(broker.url, table_topic(room, "t1", "status"))
    wait_for(lambda: late.on(table_topic(room, "t1", "status")) == [b"offline"], what="retained offline")
    late.close()


def test_hole_cards_never_reach_the_floor_early(tmp_path: Path, broker: LocalBroker, room: str) -> None:
    """Events carry no hole card and no burn; the retained state is the public view through the delay;
    the alerts name no card."""
    now = [1_800_000_000_000]
    spy = Spy(broker.url, f"dealer-pi/{room}/#")
    t = Table(tmp_path, broker.url, room, "t1", delay_s=60, now_ms=lambda: now[0])
    try:
        t.hand()
        wait_for(lambda: spy.json(table_topic(room, "t1", "events"))[-1:] and
                 spy.json(table_topic(room, "t1", "events"))[-1]["seq"] == t.runtime.journal.last_seq())
        dealt = [ev["event"] for m in spy.json(table_topic(room, "t1", "events")) for ev in m["events"]
                 if ev["event"]["type"] in ("hole_cards_dealt", "card_burned")]
        assert all(c is None for e in dealt for c in (e.get("cards") or [e.get("card")]))
        # Before the delay the public view has no table at all; afterwards it is the public snapshot.
        states = spy.json(table_topic(room, "t1", "state"))
        assert states and all(s["view"] == "public" and s["table"] is None and not s["hole_cards"] for s in states)
        now[0] += 61_000
        t.runtime.publisher.poke()
        wait_for(lambda: any(s["table"] for s in spy.json(table_topic(room, "t1", "state"))), what="delayed state")
        shown = [s for s in spy.json(table_topic(room, "t1", "state")) if s["table"]][-1]
        assert shown["as_of_ms"] <= now[0] - 60_000 and shown["delay_s"] == 60
        # An alert about a card read by the shoe: the floor hears of it without the card's name.
        t.new_hand()
        t.runtime.submit("observation", observation_from_dict({"type": "card_seen", "zone": "board", "face_up": True,
                                                                "card": "Ah", "source": "camera"}))
        wait_for(lambda: any(m["alerts"] for m in spy.json(table_topic(room, "t1", "alerts"))), what="an alert")
        alerts = [a for m in spy.json(table_topic(room, "t1", "alerts")) for a in m["alerts"]]
        assert alerts and not any(CARD.search(json.dumps(a)) for a in alerts)
        assert all(a["rule"].startswith("DEAL-") for a in alerts)
    finally:
        t.close()
        spy.close()


def test_bad_floor_messages_name_topic_and_field_and_the_table_plays_on(
        tmp_path: Path, broker: LocalBroker, room: str, caplog: pytest.LogCaptureFixture) -> None:
    spy = Spy(broker.url, f"dealer-pi/{room}/#")
    t = Table(tmp_path, broker.url, room, "t1")
    topic = order_topic(room, "t1")
    try:
        wait_for(lambda: t.floor.view()["link"].get("connected"), what="the link")
        with caplog.at_level(logging.ERROR, logger="dealer_pi.floor.link"):
            spy.publish(topic, b"{not json")
            spy.publish(topic, {"orders": [{"id": "r1", "kind": "rebuy", "player": "Ann", "seat": 12, "chips": 10,
                                            "purchase": "rebuy"}]})
            spy.publish(f"dealer-pi/{room}/floor/clock", {"levels": "many", "level": 1, "running": True})
            spy.publish(f"dealer-pi/{room}/floor/hand-for-hand", {"active": "yes", "round": 1})
            wait_for(lambda: t.link.refused >= 4, what="four refusals")
        logged = [r.getMessage() for r in caplog.records]
        assert any(topic in m and "not JSON" in m for m in logged)
        assert any(topic in m and "orders[0].seat" in m for m in logged)
        assert any("floor/clock" in m and "levels" in m for m in logged)
        assert any("hand-for-hand" in m and "active" in m for m in logged)
        # Nothing of it was journaled, and the table and its link go on.
        assert not [e for e in t.runtime.journal.entries_after(0) if e.kind == "floor"]
        t.hand()
        spy.publish(topic, {"orders": [{"id": "w1", "kind": "penalty", "player": "seat 2", "seat": 2,
                                        "penalty": {"kind": "warning", "reason": "soft play"}}]})
        wait_for(lambda: any(r["id"] == "w1" for r in t.floor.view()["recent"]), what="the good order")
    finally:
        t.close()
        spy.close()


def test_without_a_floor_section_the_table_plays_alone(tmp_path: Path) -> None:
    from dealer_pi.runtime.wiring import Assistant

    config = config_from_dict({"web": {"dealer_token": "d-1"}, "journal": {"path": "j.sqlite3"}})
    assistant = Assistant.from_config(config, tmp_path, attach=False, port=0)
    try:
        assert assistant.runtime.floor is None
        assert assistant.runtime.state("dealer")["floor"] is None
        assert not any(r.rule.startswith("/api/floor") for r in assistant.app.url_map.iter_rules())
    finally:
        assistant.stop()
    bad = config_from_dict({"floor": {"broker": "http://x", "room": "main hall", "table_id": "floor",
                                      "ca_file": "missing.pem"}})
    keys = {k for k, _ in check_floor(bad, tmp_path)}
    assert {"floor.broker", "floor.room", "floor.table_id"} <= keys
    assert {k for k, _ in check_floor(config_from_dict({"floor": {"room": "main"}}), tmp_path)} == {"floor.room"}


def test_last_will_marks_a_dead_table_offline(tmp_path: Path, broker: LocalBroker, room: str) -> None:
    """``dealer-pi serve`` with [floor]: online while it runs; killed, the broker says offline for it."""
    conf = tmp_path / "config.toml"
    conf.write_text(f'[web]\ndealer_token = "dealer-token-9f3a"\naudit_log = "{tmp_path}/audit.log"\n'
                    f'[journal]\npath = "{tmp_path}/j.sqlite3"\n'
                    f'[floor]\nbroker = "{broker.url}"\nroom = "{room}"\ntable_id = "t9"\nkeepalive_s = 5\n')
    spy = Spy(broker.url, table_topic(room, "t9", "status"))
    proc = subprocess.Popen([sys.executable, "-m", "dealer_pi", "serve", "--config", str(conf), "--port", "0"], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        wait_for(lambda: spy.on(table_topic(room, "t9", "status"))[-1:] == [b"online"], timeout=30, what="online")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        # The broker notices the silence after 1.5 keepalives and publishes the will.
        wait_for(lambda: spy.on(table_topic(room, "t9", "status"))[-1:] == [b"offline"], timeout=20, what="the will")
    finally:
        if proc.poll() is None:
            proc.kill()
        spy.close()


def test_mqtts_broker_with_the_rooms_ca(tmp_path: Path, room: str) -> None:
    from dataclasses import replace

    from floor_helpers import broker_of, certificates

    certs = tmp_path / "certs"
    certs.mkdir()
    ca, cert, key = certificates(certs)
    tls = LocalBroker(tmp_path / "tls-broker", tls=(ca, cert, key)).start()
    good = replace(broker_of(tls.url), tls=True, ca_file=str(ca))
    t = Table(tmp_path, tls.url, room, "t1", broker=good)
    stranger = Table(tmp_path, tls.url, room, "t2", broker=replace(good, ca_file=str(cert)))  # not the room's CA
    try:
        t.hand()
        wait_for(lambda: t.link.connected and t.link.sent == t.runtime.journal.last_seq(), what="published over TLS")
        assert not stranger.link.connected  # the certificate check refuses the broker; the table plays on
        stranger.hand()
        assert stranger.runtime.table.hand == 1
    finally:
        t.close()
        stranger.close()
        tls.stop()


def test_a_broker_that_wants_a_password_takes_the_tables_user_and_refuses_a_wrong_one(tmp_path: Path, room: str) -> None:
    from dataclasses import replace

    from floor_helpers import broker_of

    locked = LocalBroker(tmp_path / "locked-broker", passwords={"table-t1": "s3cret-t1"}).start()
    good = replace(broker_of(locked.url), username="table-t1", password="s3cret-t1")
    t = Table(tmp_path, locked.url, room, "t1", broker=good)
    wrong = Table(tmp_path, locked.url, room, "t2", broker=replace(good, password="guess"))
    try:
        t.hand()
        wait_for(lambda: t.link.connected and t.link.sent == t.runtime.journal.last_seq(), what="published with a password")
        wait_for(lambda: wrong.runtime.floor.view()["link"].get("error"), what="the refusal shown")
        assert not wrong.link.connected  # refused by the broker; the table plays on alone
        wrong.hand()
        assert wrong.runtime.table.hand == 1
    finally:
        t.close()
        wrong.close()
        locked.stop()
