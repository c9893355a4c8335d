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


# ---- start-up check, hash chain, verify ---------------------------------------------------------

import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from dealer_pi.cli import main  # noqa: E402
from dealer_pi.runtime.journal import GENESIS, entry_hash  # noqa: E402
from dealer_pi.runtime.journal_check import inspect, startup_problem  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def small_journal(path: Path, entries: int = 6) -> None:
    j = Journal(path)
    j.append("setup", {"setup": {"blinds": [5, 10]}, "hand_base": 0}, 1, [({"type": "hand_started"}, 1)])
    for n in range(2, entries + 1):
        j.append("observation", {"type": "action", "seat": 1, "action": "check", "n": n}, n,
                 [({"type": "action_taken", "n": n}, 1)] * (n % 3))
    j.close()


def raw(path: Path, sql: str, *args: object) -> None:
    con = sqlite3.connect(path)
    con.execute(sql, args)
    con.commit()
    con.close()


def serve(config: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "dealer_pi", "serve", "--config", str(config), "--port", "0", *extra],
                          capture_output=True, text=True, env=env, timeout=60)


def config_for(tmp: Path, journal: Path) -> Path:
    cfg = tmp / "config.toml"
    cfg.write_text(f'[web]\ndealer_token = "dealer-token-0123"\nproducer_token = "producer-token-0123"\n'
                   f'audit_log = "audit.log"\n[journal]\npath = "{journal}"\n')
    return cfg


@pytest.mark.parametrize("damage", ["garbage", "header", "entry", "event"])
def test_a_damaged_journal_stops_serve_with_one_line_naming_file_and_entry_and_is_left_unchanged(
        tmp_path: Path, damage: str) -> None:
    path = tmp_path / "journal.sqlite3"
    if damage == "garbage":
        path.write_bytes(os.urandom(5000))
    else:
        small_journal(path)
        if damage == "header":
            data = bytearray(path.read_bytes())
            data[:16] = b"not a database!!"
            path.write_bytes(bytes(data))
        elif damage == "entry":
            raw(path, "UPDATE entries SET body = ? WHERE seq = 3", "{'type': 'action'")
        else:
            raw(path, "UPDATE events SET body = ? WHERE id = 2", "[1, 2")
    before = path.read_bytes()
    r = serve(config_for(tmp_path, path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert str(path) in line and "the journal was not changed" in line
    where = {"garbage": "the file", "header": "the file", "entry": "entry 3", "event": "event 2 (of entry 2)"}[damage]
    assert f": {where}: " in line, line
    assert path.read_bytes() == before
    assert not (tmp_path / "audit.log").exists()  # nothing started


def test_every_entry_carries_the_hash_of_the_one_before(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    small_journal(path, 4)
    con = sqlite3.connect(path)
    rows = con.execute("SELECT seq, ts_ms, kind, body, prev_hash, hash FROM entries ORDER BY seq").fetchall()
    prev = GENESIS
    for seq, ts, kind, body, prev_hash, digest in rows:
        events = con.execute("SELECT id, ts_ms, hand, body FROM events WHERE entry_seq = ? ORDER BY id", (seq,)).fetchall()
        assert prev_hash == prev and digest == entry_hash(prev, seq, ts, kind, body, events)
        prev = digest
    con.close()
    report = inspect(path)
    assert report.ok and report.entries == 4 and report.final_hash == prev and report.unhashed == 0


@pytest.mark.parametrize("tamper, where", [
    ("UPDATE entries SET body = '{\"type\":\"action\",\"seat\":2,\"action\":\"fold\",\"n\":3}' WHERE seq = 3",
     "entry 3: does not match its hash"),
    ("UPDATE events SET body = '{\"type\":\"action_taken\",\"n\":99}' WHERE entry_seq = 5", "entry 5: does not match"),
    ("DELETE FROM entries WHERE seq = 4", "entry 5: entries 4..4 are missing"),
    ("UPDATE entries SET ts_ms = 77 WHERE seq = 2", "entry 2: does not match its hash"),
])
def test_journal_verify_names_a_changed_or_deleted_entry(tmp_path: Path, capsys, tamper: str, where: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "j.sqlite3"
    small_journal(path)
    assert main(["journal", "verify", str(path)]) == 0
    assert "6 entries" in capsys.readouterr().out
    raw(path, tamper)
    assert main(["journal", "verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert where in err, err


def test_the_export_carries_the_final_hash_and_verify_finds_entries_deleted_after_it(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import live_helpers as H
    from dealer_pi.engine.observations import observation_from_dict

    rt = H.runtime(tmp_path)
    for obs in H.checked_down_hand():
        rt.submit("observation", observation_from_dict(obs, "test"))
    rt.stop()
    path = tmp_path / "journal.sqlite3"
    last = inspect(path).entries
    assert main(["export", "--journal", str(path), "--json", str(tmp_path / "x.json")]) == 0
    final = json.loads((tmp_path / "x.json").read_text())["journal_hash"]
    assert final == inspect(path).final_hash
    assert f"final hash {final}" in capsys.readouterr().err
    # more play after the export is fine; the exported part must still be there, unchanged
    j = Journal(path)
    j.append("clock", {"action": "start"}, 99)
    j.close()
    assert main(["journal", "verify", str(path), "--final", final]) == 0
    assert f"entry {last}'s" in capsys.readouterr().err
    # cutting the end off (the exported last entry and what followed) leaves a chain without the hash
    raw(path, "DELETE FROM entries WHERE seq >= ?", last)
    raw(path, "DELETE FROM events WHERE entry_seq >= ?", last)
    assert main(["journal", "verify", str(path)]) == 0  # on its own the shorter chain is consistent
    assert main(["journal", "verify", str(path), "--final", final]) == 1
    assert "is not in this journal's chain" in capsys.readouterr().err


def test_a_journal_from_before_the_hash_chain_loads_and_is_sealed_from_then_on(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE entries (seq INTEGER PRIMARY KEY, ts_ms INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL);
        CREATE TABLE events (id INTEGER PRIMARY KEY, entry_seq INTEGER NOT NULL, ts_ms INTEGER NOT NULL,
                             hand INTEGER, body TEXT NOT NULL);
        CREATE TABLE hands (hand INTEGER PRIMARY KEY, first_event_id INTEGER NOT NULL, last_event_id INTEGER NOT NULL,
                            started_ms INTEGER NOT NULL, ended_ms INTEGER NOT NULL);
        INSERT INTO entries VALUES (1, 1, 'setup', '{"setup":{},"hand_base":0}');
        INSERT INTO entries VALUES (2, 2, 'clock', '{"action":"start"}');
        INSERT INTO events VALUES (1, 1, 1, 1, '{"type":"hand_started"}');
    """)
    con.commit()
    con.close()
    assert startup_problem(path) is None
    assert main(["journal", "verify", str(path)]) == 0
    assert "none of its 2 entries has a hash" in capsys.readouterr().out
    j = Journal(path)  # the writer adds the two columns and goes on with the chain
    j.append("clock", {"action": "pause"}, 3)
    j.close()
    report = inspect(path)
    assert report.ok and report.unhashed == 2 and report.entries == 3
    # from now on the old entries cannot be changed unnoticed either
    raw(path, "UPDATE entries SET body = '{\"action\":\"pause\"}' WHERE seq = 2")
    assert [str(f) for f in inspect(path).findings] == ["entry 3: does not carry the hash of the entry before it: "
                                                        "an entry before it was changed or deleted"]


def test_entries_refused_on_replay_are_counted_and_shown(tmp_path: Path) -> None:
    import live_helpers as H

    H.runtime(tmp_path).stop()  # a table set up, as a real server leaves it
    path = tmp_path / "journal.sqlite3"
    j = Journal(path)  # then an entry this version's rules refuse (seat 7 is empty)
    j.append("observation", {"type": "action", "seat": 7, "action": "fold"}, 2, [({"type": "x"}, 1)])
    j.close()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "dealer_pi", "serve", "--config", str(config_for(tmp_path, path)),
                             "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert "serving" in proc.stdout.readline()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "1 journal entry did not replay as recorded" in err and "journal entry 2 refused on replay" in err
