"""The floor's own journal: every table's entries as received, and the floor's commands.

One SQLite file (WAL). Table entries are keyed by (table, epoch, seq), so a
copy received twice (QoS 1 redelivery, or the table starting again from the
floor's last ack) is stored once; ``epoch`` tells a table's journals apart.
The floor's commands (registration, the draw, the clock, penalties...) are
kept in order and replayed at start, as a table replays its journal.

>>> import tempfile, os
>>> s = FloorStore(os.path.join(tempfile.mkdtemp(), "floor.sqlite3"))
>>> s.add_entries([("t1", 7, 1, 1000, 1002, "observation", "{}"), ("t1", 7, 1, 1000, 1003, "observation", "{}")])
1
>>> s.last_seqs()
{'t1': (7, 1)}
>>> s.close()
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator, Sequence

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    tbl TEXT NOT NULL, epoch INTEGER NOT NULL, seq INTEGER NOT NULL,
    ts_ms INTEGER NOT NULL, received_ms INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (tbl, epoch, seq)
);
CREATE TABLE IF NOT EXISTS commands (
    seq INTEGER PRIMARY KEY, ts_ms INTEGER NOT NULL, body TEXT NOT NULL
);
"""

Row = tuple[str, int, int, int, int, str, str]  # table, epoch, seq, ts_ms, received_ms, kind, body (JSON)


class FloorStore:
    """Written by the floor's one worker thread; read by any."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._con.execute("PRAGMA journal_mode=WAL")
        self._con.execute("PRAGMA synchronous=NORMAL")  # a power cut loses the last moments, which the tables resend
        self._con.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._con.close()

    def add_entries(self, rows: Sequence[Row]) -> int:
        """Store entries in one transaction; returns how many were new."""
        if not rows:
            return 0
        with self._lock:
            before = self._con.total_changes
            self._con.execute("BEGIN")
            self._con.executemany("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            self._con.execute("COMMIT")
            return self._con.total_changes - before

    def add_command(self, ts_ms: int, body: dict[str, Any]) -> int:
        with self._lock:
            cur = self._con.execute("INSERT INTO commands(ts_ms, body) VALUES (?, ?)", (ts_ms, json.dumps(body)))
            return int(cur.lastrowid or 0)

    def commands(self) -> list[tuple[int, int, dict[str, Any]]]:
        with self._lock:
            rows = self._con.execute("SELECT seq, ts_ms, body FROM commands ORDER BY seq").fetchall()
        return [(s, t, json.loads(b)) for s, t, b in rows]

    def last_seqs(self) -> dict[str, tuple[int, int]]:
        """Each table's (epoch, last seq) of its newest journal."""
        with self._lock:
            rows = self._con.execute(
                "SELECT tbl, epoch, MAX(seq) FROM entries GROUP BY tbl, epoch ORDER BY tbl, epoch").fetchall()
        return {t: (e, s) for t, e, s in rows}

    def entries(self) -> Iterator[Row]:
        """Every entry in the order it was received (replay at start)."""
        with self._lock:
            rows = self._con.execute(
                "SELECT tbl, epoch, seq, ts_ms, received_ms, kind, body FROM entries ORDER BY received_ms, tbl, seq").fetchall()
        yield from rows

    def count(self, table: str | None = None) -> int:
        with self._lock:
            if table is None:
                return int(self._con.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
            return int(self._con.execute("SELECT COUNT(*) FROM entries WHERE tbl = ?", (table,)).fetchone()[0])

    def seqs(self, table: str) -> list[int]:
        """Every seq held for ``table`` (the outage benchmark checks there is no hole)."""
        with self._lock:
            return [r[0] for r in self._con.execute("SELECT seq FROM entries WHERE tbl = ? ORDER BY seq", (table,))]
