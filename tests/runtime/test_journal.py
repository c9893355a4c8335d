"""The journal: durable settings, atomic entries, replay input, finished hands."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer_pi.runtime.journal import Journal, JournalError


def test_journal_is_wal_with_full_synchronous_writes(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    assert j._write.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._write.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    j.close()


def test_entry_and_its_events_are_one_transaction(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    j.append("setup", {"setup": {}, "hand_base": 0}, 1, [({"type": "hand_started"}, 1)])
    # An event that cannot be stored (not JSON) makes the whole entry fail: neither is written.
    with pytest.raises(TypeError):
        j.append("observation", {"type": "dealer"}, 2, [({"bad": object()}, 1)])
    # A write refused by SQLite rolls back too, and says so as a JournalError.
    with pytest.raises(JournalError):
        j._write.execute("PRAGMA query_only=1")
        try:
            j.append("observation", {"type": "dealer", "declare": "undo"}, 3, [({"type": "x"}, 1)])
        finally:
            j._write.execute("PRAGMA query_only=0")
    assert [e.seq for e in j.entries_since_last_setup()] == [1]
    assert j.last_event_id() == 1
    # Nothing was left half-open: the next entry is written normally.
    assert j.append("observation", {"type": "dealer", "declare": "undo"}, 4, [({"type": "x"}, 1)])[1] == [2]
    j.close()


def test_replay_starts_at_the_last_setup_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.append("setup", {"setup": {"a": 1}, "hand_base": 0}, 1, [({"type": "hand_started"}, 1)])
    j.append("observation", {"type": "dealer", "declare": "new hand"}, 2, [({"type": "hand_ended"}, 1)], finished_hand=1)
    j.append("clock", {"action": "start"}, 3)
    j.append("setup", {"setup": {"a": 2}, "hand_base": 1}, 4, [({"type": "hand_started"}, 2)])
    j.append("observation", {"type": "action", "seat": 1, "action": "fold"}, 5, [({"type": "action_taken"}, 2)])
    j.close()
    j = Journal(path)
    entries = j.entries_since_last_setup()
    assert [(e.seq, e.kind) for e in entries] == [(4, "setup"), (5, "observation")]
    assert entries[0].body == {"setup": {"a": 2}, "hand_base": 1}
    assert [e.body for e in j.clock_entries()] == [{"action": "start"}]
    assert j.last_event_id(before_seq=4) == 2
    assert [h["hand"] for h in j.hands()] == [1]
    assert [e.body["type"] for e in j.hand_events(1) or []] == ["hand_started", "hand_ended"]
    assert j.hand_events(2) is None
    assert [e.id for e in j.events_after(2, until_id=3)] == [3]
    j.close()


def test_other_readers_see_only_committed_entries(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.append("setup", {"setup": {}, "hand_base": 0}, 1)
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 1
    other.close()
    j.close()


def test_a_long_backlog_is_read_in_full_page_by_page(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    j.append("setup", {"setup": {}, "hand_base": 0}, 1, [({"type": "x", "n": n}, 1) for n in range(2500)])
    assert [e.id for e in j.iter_events(10, 2400, page=300)] == list(range(11, 2401))
    j.close()
