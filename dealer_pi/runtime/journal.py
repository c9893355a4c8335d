"""The journal: every accepted input and the events it caused, on disk before anyone hears of it.

One SQLite file in WAL mode with ``synchronous=FULL``: a commit returns only
once the data would survive a power cut. An *entry* is one accepted input
(``setup``, ``observation`` or ``clock``); its events are written in the same
transaction, so a crash leaves either both or neither. A restart replays the
entries since the last ``setup`` and gets the table back exactly where it was.

Finished hands are indexed in ``hands`` so that their full event log can be
exported.

The entries form a hash chain, so that an entry changed or deleted afterwards is
noticed (``dealer-pi journal verify``): each entry stores ``prev_hash``, the hash
of the entry before it, and ``hash``, the SHA-256 of that, its own number, time,
kind and body and every event it caused (:func:`entry_hash`). Entries written
before the chain existed have no stored hashes; the chain runs through them all
the same, so from the first hashed entry on they cannot be changed unnoticed.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> j = Journal(os.path.join(d, "t.sqlite3"))
>>> seq, ids = j.append("observation", {"type": "dealer", "declare": "new hand"}, 1000, [({"type": "HandStarted"}, 1)])
>>> (seq, ids)
(1, [1])
>>> [e.kind for e in j.entries_since_last_setup()]
['observation']
>>> j.close()
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

ENTRY_KINDS = ("setup", "observation", "clock", "floor")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    ts_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT,
    hash TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    entry_seq INTEGER NOT NULL REFERENCES entries(seq),
    ts_ms INTEGER NOT NULL,
    hand INTEGER,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_hand ON events(hand);
CREATE TABLE IF NOT EXISTS hands (
    hand INTEGER PRIMARY KEY,
    first_event_id INTEGER NOT NULL,
    last_event_id INTEGER NOT NULL,
    started_ms INTEGER NOT NULL,
    ended_ms INTEGER NOT NULL
);
"""
# Added later: how each hand ended (played, misdeal, voided) and why. Older journals get the columns.
_HAND_COLUMNS = (("result", "TEXT"), ("why", "TEXT"))


@dataclass(frozen=True)
class Entry:
    seq: int
    ts_ms: int
    kind: str
    body: dict[str, Any]


@dataclass(frozen=True)
class StoredEvent:
    id: int
    entry_seq: int
    ts_ms: int
    hand: int | None
    body: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "ts_ms": self.ts_ms, "hand": self.hand, "event": self.body}


class JournalError(RuntimeError):
    """The journal could not be written (the input was not accepted), or could not be opened."""


GENESIS = "0" * 64  # the "previous hash" of the first entry

EventRow = tuple[int, int, "int | None", str]  # id, ts_ms, hand, body as stored


def entry_hash(prev: str, seq: int, ts_ms: int, kind: str, body: str, events: Sequence[EventRow]) -> str:
    """The chain hash of one entry: SHA-256 over the previous hash and the entry as stored.

    >>> entry_hash(GENESIS, 1, 1000, "clock", '{"action":"start"}', [])[:16]
    '8892b7fba1e876c6'
    """
    record = [prev, seq, ts_ms, kind, body, [list(e) for e in events]]
    return hashlib.sha256(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def chain(con: sqlite3.Connection) -> Iterator[tuple[tuple[Any, ...], list[EventRow], str, str]]:
    """Every entry row ``(seq, ts_ms, kind, body, prev_hash, hash)`` in order, with its events, the
    hash it should carry as ``prev_hash`` (the stored hash of the entry before it, or the chain's
    own where that one has none) and the hash the chain gives it. Reads entries and events side
    by side, however long the journal."""
    has_hash = "hash" in {r[1] for r in con.execute("PRAGMA table_info(entries)")}
    cols = "seq, ts_ms, kind, body, prev_hash, hash" if has_hash else "seq, ts_ms, kind, body, NULL, NULL"
    events = con.execute("SELECT entry_seq, id, ts_ms, hand, body FROM events ORDER BY entry_seq, id")
    pending = events.fetchone()
    anchor = GENESIS
    for row in con.execute(f"SELECT {cols} FROM entries ORDER BY seq"):
        mine: list[EventRow] = []
        while pending is not None and pending[0] <= row[0]:
            if pending[0] == row[0]:
                mine.append((pending[1], pending[2], pending[3], pending[4]))
            pending = events.fetchone()
        digest = entry_hash(anchor, row[0], row[1], row[2], row[3], mine)
        yield row, mine, anchor, digest
        # Going on from the stored hash names a changed entry once, not every entry after it too.
        anchor = row[5] or digest


class Journal:
    """Append-only store. Writes come from the engine thread only; reads from any thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._write = self._connect()
            self._write.executescript(_SCHEMA)
            self._upgrade()
            self.last_hash = self._chain_head()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"journal {self.path}: cannot be opened as a journal ({exc})") from None
        self._local = threading.local()
        self._lock = threading.Lock()

    def _upgrade(self) -> None:
        """An older journal gets the columns added since (the hash chain; how each hand ended);
        its entries stay as they are."""
        columns = {r[1] for r in self._write.execute("PRAGMA table_info(entries)")}
        for name in ("prev_hash", "hash"):
            if name not in columns:
                self._write.execute(f"ALTER TABLE entries ADD COLUMN {name} TEXT")
        have = {row[1] for row in self._write.execute("PRAGMA table_info(hands)")}
        for name, kind in _HAND_COLUMNS:
            if name not in have:
                self._write.execute(f"ALTER TABLE hands ADD COLUMN {name} {kind}")

    def _chain_head(self) -> str:
        """The hash the next entry will carry as its ``prev_hash``."""
        row = self._write.execute("SELECT hash FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        if row is None:
            return GENESIS
        if row[0]:
            return str(row[0])
        head = GENESIS
        for _, _, _, head in chain(self._write):  # the last entries have no hash yet: run the chain
            pass
        return head

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        return con

    def _reader(self) -> sqlite3.Connection:
        con: sqlite3.Connection | None = getattr(self._local, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
            con.execute("PRAGMA query_only=1")
            self._local.con = con
        return con

    def close(self) -> None:
        with self._lock:
            self._write.close()
        con = getattr(self._local, "con", None)
        if con is not None:
            con.close()

    # -- writing ---------------------------------------------------------------

    def append(
        self,
        kind: str,
        body: dict[str, Any],
        ts_ms: int,
        events: Sequence[tuple[dict[str, Any], int | None]] = (),
        finished_hand: int | None = None,
        finished_how: tuple[str, str] = ("played", ""),
    ) -> tuple[int, list[int]]:
        """Write one entry and its events in one durable transaction; return (seq, event ids).

        ``finished_hand``: the hand that these events ended, indexed for export, with
        ``finished_how`` = (result, why): played, misdeal or voided.
        """
        if kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {kind!r}")
        # Encode first: a body that is not JSON fails here, before the transaction opens.
        text = json.dumps(body, separators=(",", ":"))
        rows = [(hand, json.dumps(event, separators=(",", ":"))) for event, hand in events]
        with self._lock:
            con = self._write
            try:
                con.execute("BEGIN IMMEDIATE")
                cur = con.execute("INSERT INTO entries(ts_ms, kind, body) VALUES (?, ?, ?)", (ts_ms, kind, text))
                seq = int(cur.lastrowid or 0)
                ids = []
                for hand, event_text in rows:
                    cur = con.execute(
                        "INSERT INTO events(entry_seq, ts_ms, hand, body) VALUES (?, ?, ?, ?)", (seq, ts_ms, hand, event_text)
                    )
                    ids.append(int(cur.lastrowid or 0))
                stored: list[EventRow] = [(i, ts_ms, hand, t) for i, (hand, t) in zip(ids, rows)]
                digest = entry_hash(self.last_hash, seq, ts_ms, kind, text, stored)
                con.execute("UPDATE entries SET prev_hash = ?, hash = ? WHERE seq = ?", (self.last_hash, digest, seq))
                if finished_hand is not None:
                    row = con.execute(
                        "SELECT MIN(id), MAX(id), MIN(ts_ms), MAX(ts_ms) FROM events WHERE hand = ?", (finished_hand,)
                    ).fetchone()
                    if row[0] is not None:
                        con.execute(
                            "INSERT OR REPLACE INTO hands(hand, first_event_id, last_event_id, started_ms, ended_ms,"
                            " result, why) VALUES (?,?,?,?,?,?,?)",
                            (finished_hand, row[0], row[1], row[2], row[3], *finished_how),
                        )
                con.execute("COMMIT")
                self.last_hash = digest
            except BaseException as exc:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise JournalError(f"journal {self.path}: {exc}") from exc
                raise
        return seq, ids

    # -- reading ---------------------------------------------------------------

    def entries_since_last_setup(self) -> list[Entry]:
        """The last ``setup`` entry and everything after it (all entries when there is none)."""
        con = self._reader()
        row = con.execute("SELECT MAX(seq) FROM entries WHERE kind = 'setup'").fetchone()
        start = row[0] or 0
        return [Entry(s, t, k, json.loads(b)) for s, t, k, b in con.execute(
            "SELECT seq, ts_ms, kind, body FROM entries WHERE seq >= ? ORDER BY seq", (start,)
        )]

    def entries_after(self, seq: int) -> Iterator[Entry]:
        con = self._reader()
        for s, t, k, b in con.execute("SELECT seq, ts_ms, kind, body FROM entries WHERE seq > ? ORDER BY seq", (seq,)):
            yield Entry(s, t, k, json.loads(b))

    def page_after(self, seq: int, limit: int = 200) -> list[tuple[Entry, list[StoredEvent]]]:
        """Up to ``limit`` entries after ``seq``, each with its events (the floor link's backlog)."""
        con = self._reader()
        rows = con.execute("SELECT seq, ts_ms, kind, body FROM entries WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit)).fetchall()
        if not rows:
            return []
        events: dict[int, list[StoredEvent]] = {}
        for ev in self._events("WHERE entry_seq BETWEEN ? AND ? ORDER BY id", (rows[0][0], rows[-1][0])):
            events.setdefault(ev.entry_seq, []).append(ev)
        return [(Entry(s, t, k, json.loads(b)), events.get(s, [])) for s, t, k, b in rows]

    def epoch(self) -> int:
        """When this journal began (its first entry's time, ms; 0 when empty): tells one journal from another."""
        row = self._reader().execute("SELECT ts_ms FROM entries ORDER BY seq LIMIT 1").fetchone()
        return int(row[0]) if row else 0

    def events_for_entries(self, first_seq: int) -> dict[int, list[StoredEvent]]:
        """Events grouped by entry, for entries from ``first_seq`` on (used to check a replay)."""
        out: dict[int, list[StoredEvent]] = {}
        for ev in self._events("WHERE entry_seq >= ? ORDER BY id", (first_seq,)):
            out.setdefault(ev.entry_seq, []).append(ev)
        return out

    def events_after(self, event_id: int, *, until_id: int | None = None, limit: int = 10_000) -> list[StoredEvent]:
        """Events with ``event_id < id <= until_id`` in order (the backlog of a reconnecting client)."""
        top = until_id if until_id is not None else 2**62
        return list(self._events("WHERE id > ? AND id <= ? ORDER BY id LIMIT ?", (event_id, top, limit)))

    def iter_events(self, after: int, until_id: int, page: int = 1000) -> Iterator[StoredEvent]:
        """Every event with ``after < id <= until_id``, read a page at a time (however many)."""
        while after < until_id:
            chunk = self.events_after(after, until_id=until_id, limit=page)
            if not chunk:
                return
            yield from chunk
            after = chunk[-1].id

    def clock_entries(self) -> list[Entry]:
        """Every clock command ever journaled (the clock outlives setups)."""
        con = self._reader()
        return [Entry(s, t, k, json.loads(b)) for s, t, k, b in con.execute(
            "SELECT seq, ts_ms, kind, body FROM entries WHERE kind = 'clock' ORDER BY seq"
        )]

    def last_seq(self) -> int:
        row = self._reader().execute("SELECT MAX(seq) FROM entries").fetchone()
        return int(row[0] or 0)

    def last_hand(self) -> int:
        row = self._reader().execute("SELECT MAX(hand) FROM events").fetchone()
        return int(row[0] or 0)

    def last_event_id(self, before_seq: int | None = None) -> int:
        """The last event id (of entries before ``before_seq`` when given); 0 when none."""
        if before_seq is not None:
            row = self._reader().execute("SELECT MAX(id) FROM events WHERE entry_seq < ?", (before_seq,)).fetchone()
            return int(row[0] or 0)
        row = self._reader().execute("SELECT MAX(id) FROM events").fetchone()
        return int(row[0] or 0)

    def hands(self) -> list[dict[str, Any]]:
        """Finished hands with how they ended (``result``: played, misdeal, voided; ``why``)."""
        rows = self._reader().execute(
            "SELECT hand, first_event_id, last_event_id, started_ms, ended_ms, result, why FROM hands ORDER BY hand"
        ).fetchall()
        out = []
        for h, first, last, s, e, result, why in rows:
            if result is None:  # written before hands said how they ended: read it off the last event
                ended = json.loads(self._reader().execute("SELECT body FROM events WHERE id = ?", (last,)).fetchone()[0])
                result, why = ("misdeal", "voided by a misdeal") if ended.get("misdeal") else ("played", "")
            out.append({"hand": h, "started_ms": s, "ended_ms": e, "events": last - first + 1, "first_event_id": first,
                        "last_event_id": last, "result": result, "why": why})
        return out

    def started_hands(self) -> list[tuple[int, int, int, int]]:
        """Every hand number that has events: (hand, first ts_ms, last ts_ms, events)."""
        return [tuple(r) for r in self._reader().execute(
            "SELECT hand, MIN(ts_ms), MAX(ts_ms), COUNT(*) FROM events WHERE hand IS NOT NULL GROUP BY hand ORDER BY hand"
        )]

    def hand_events(self, hand: int) -> list[StoredEvent] | None:
        row = self._reader().execute("SELECT first_event_id, last_event_id FROM hands WHERE hand = ?", (hand,)).fetchone()
        if row is None:
            return None
        return list(self._events("WHERE hand = ? AND id BETWEEN ? AND ? ORDER BY id", (hand, row[0], row[1])))

    def hand_entries(self, hand: int) -> list[Entry]:
        """The accepted observations that made one finished hand (for PHH export)."""
        row = self._reader().execute(
            "SELECT MIN(entry_seq), MAX(entry_seq) FROM events WHERE hand = ?", (hand,)
        ).fetchone()
        if row[0] is None:
            return []
        con = self._reader()
        return [Entry(s, t, k, json.loads(b)) for s, t, k, b in con.execute(
            "SELECT seq, ts_ms, kind, body FROM entries WHERE seq BETWEEN ? AND ? ORDER BY seq", (row[0], row[1])
        )]

    def setup_before(self, seq: int) -> Entry | None:
        row = self._reader().execute(
            "SELECT seq, ts_ms, kind, body FROM entries WHERE kind = 'setup' AND seq <= ? ORDER BY seq DESC LIMIT 1", (seq,)
        ).fetchone()
        return None if row is None else Entry(row[0], row[1], row[2], json.loads(row[3]))

    def _events(self, where: str, params: tuple[Any, ...]) -> Iterator[StoredEvent]:
        for i, s, t, h, b in self._reader().execute(f"SELECT id, entry_seq, ts_ms, hand, body FROM events {where}", params):
            yield StoredEvent(i, s, t, h, json.loads(b))
