"""Offline-first: a table plays on without the broker and the floor ends up with every entry, once."""

from __future__ import annotations

import time
from pathlib import Path

from floor_helpers import Table, floor, wait_for

from dealer_pi.engine.observations import observation_from_dict
from dealer_pi.floor.broker import LocalBroker


def _held(svc: object, table: str) -> list[int]:
    return svc.store.seqs(table)  # type: ignore[attr-defined, no-any-return]


def test_broker_away_and_back_nothing_lost_or_duplicated_at_the_floor(tmp_path: Path, own_broker: LocalBroker, room: str) -> None:
    svc = floor(tmp_path / "floor", own_broker.url, room)
    tables = [Table(tmp_path, own_broker.url, room, name) for name in ("t1", "t2")]
    try:
        for t in tables:
            t.hand()
        wait_for(lambda: all(_held(svc, t.name)[-1:] == [t.runtime.journal.last_seq()] for t in tables), what="caught up")
        own_broker.stop()
        for t in tables:  # the tables play on without the broker
            t.new_hand()
            t.hand()
        assert all(not t.link.connected for t in tables)
        time.sleep(1)
        own_broker.start()
        for t in tables:
            wait_for(lambda t=t: _held(svc, t.name)[-1:] == [t.runtime.journal.last_seq()], timeout=40,
                     what=f"{t.name} republished")
            held = _held(svc, t.name)
            assert held == list(range(1, t.runtime.journal.last_seq() + 1))  # nothing lost, nothing twice
        stats = svc.stats_view()
        assert stats["taken"] == sum(t.runtime.journal.last_seq() for t in tables)
    finally:
        for t in tables:
            t.close()
        svc.stop()


def test_a_restarted_table_sends_from_the_floors_ack_and_a_restarted_floor_replays(
        tmp_path: Path, broker: LocalBroker, room: str) -> None:
    svc = floor(tmp_path / "floor", broker.url, room)
    t = Table(tmp_path, broker.url, room, "t1")
    t.hand()
    wait_for(lambda: _held(svc, "t1")[-1:] == [t.runtime.journal.last_seq()], what="caught up")
    t.close()
    svc.stop()
    # The floor is down while the table starts again from its journal and plays a hand.
    t = Table(tmp_path, broker.url, room, "t1")
    t.new_hand()
    t.runtime.submit("observation", observation_from_dict({"type": "shoe_draw", "card": None, "source": "shoe"}))
    svc = floor(tmp_path / "floor", broker.url, room)
    try:
        wait_for(lambda: _held(svc, "t1")[-1:] == [t.runtime.journal.last_seq()], timeout=30, what="the rest")
        assert _held(svc, "t1") == list(range(1, t.runtime.journal.last_seq() + 1))
        view = {x["table"]: x for x in svc.tables_view()["tables"]}["t1"]
        assert view["hand"] == t.runtime.table.hand and view["status"] == "online"
    finally:
        t.close()
        svc.stop()
