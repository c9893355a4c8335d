"""Checking a journal without changing it: at start-up, and for ``dealer-pi journal verify``.

:func:`inspect` opens the file read-only and looks at everything: SQLite's own
``quick_check``, every entry and event readable (JSON objects of a known kind),
the entry numbers without holes, and the hash chain (see
:mod:`dealer_pi.runtime.journal`). Each finding names the entry or event.
:func:`startup_problem` turns the first finding into the one line ``serve``
prints before it refuses to start.

Entries written before the hash chain existed carry no stored hash: they are
counted as ``unhashed``, and the chain runs through them, so the first hashed
entry after them seals them as they were when the chain began.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from .journal import ENTRY_KINDS, GENESIS, chain

MAX_FINDINGS = 50
WHAT_TO_DO = ("the journal was not changed: restore it from a backup, or point [journal] path at a new file "
              "to start a new table; `dealer-pi journal verify FILE` lists every problem")


@dataclass(frozen=True)
class Finding:
    where: str  # "entry 17", "event 203", "the file"
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


@dataclass
class Report:
    path: Path
    entries: int = 0
    events: int = 0
    unhashed: int = 0  # entries written before the chain existed
    final_hash: str = GENESIS
    hashes: dict[str, int] = field(default_factory=dict)  # hash -> entry number, to place an export's hash
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def add(self, where: str, problem: str) -> None:
        if len(self.findings) < MAX_FINDINGS:
            self.findings.append(Finding(where, problem))


def _open(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None)
    con.execute("PRAGMA query_only=1")
    return con


def inspect(path: str | Path) -> Report:
    """Everything wrong with the journal at ``path`` (read only; a missing file is an empty journal)."""
    p = Path(path)
    report = Report(p)
    if not p.exists():
        return report
    try:
        con = _open(p)
    except sqlite3.Error as exc:
        report.add("the file", f"cannot be opened ({exc})")
        return report
    try:
        _check(con, report)
    except sqlite3.DatabaseError as exc:
        report.add("the file", f"is not a readable SQLite database ({exc})")
    finally:
        con.close()
    return report


def _check(con: sqlite3.Connection, report: Report) -> None:
    damage = [r[0] for r in con.execute("PRAGMA quick_check")]
    if damage != ["ok"]:
        report.add("the file", "SQLite's quick_check found damage: " + "; ".join(map(str, damage[:3])))
        return
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = {"entries", "events", "hands"} - tables
    if missing:
        report.add("the file", f"is not a dealer-pi journal (no table {', '.join(sorted(missing))})")
        return
    expected = 1
    for row, events, anchor, digest in chain(con):
        seq, ts_ms, kind, body, prev_hash, stored = row
        where = f"entry {seq}"
        if seq != expected:
            report.add(where, f"entries {expected}..{seq - 1} are missing (deleted)" if seq > expected
                       else "is out of order")
        expected = seq + 1
        _entry(where, ts_ms, kind, body, report)
        for event_id, _, hand, text in events:
            _event(f"event {event_id} (of entry {seq})", hand, text, report)
        if stored is None:
            report.unhashed += 1
            if report.hashes:
                report.add(where, "has no hash although entries before it have: written by an older dealer-pi "
                                  "or outside it")
        else:
            if prev_hash != anchor:
                report.add(where, "does not carry the hash of the entry before it: an entry before it was changed "
                                  "or deleted")
            elif stored != digest:
                report.add(where, "does not match its hash: it or one of its events was changed")
            report.hashes[stored] = seq
        report.final_hash = stored or digest
        report.entries += 1
        report.events += len(events)
    orphans = con.execute("SELECT COUNT(*), MIN(id) FROM events WHERE entry_seq NOT IN (SELECT seq FROM entries)").fetchone()
    if orphans[0]:
        report.add(f"event {orphans[1]}", f"{orphans[0]} event(s) belong to no entry (their entry was deleted)")


def _entry(where: str, ts_ms: object, kind: object, body: object, report: Report) -> None:
    if not isinstance(ts_ms, int):
        report.add(where, f"its time is not a whole number ({ts_ms!r})")
    if kind not in ENTRY_KINDS:
        report.add(where, f"unknown kind {kind!r} (known: {', '.join(ENTRY_KINDS)})")
    data = _json(where, body, report)
    if data is not None and kind == "setup" and not isinstance(data.get("setup"), dict):
        report.add(where, "a setup entry without its setup")


def _event(where: str, hand: object, body: object, report: Report) -> None:
    if hand is not None and not isinstance(hand, int):
        report.add(where, f"its hand number is not a whole number ({hand!r})")
    _json(where, body, report)


def _json(where: str, text: object, report: Report) -> dict[str, object] | None:
    if not isinstance(text, str):
        report.add(where, "its body is not text")
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        report.add(where, f"its body is not JSON ({exc})")
        return None
    if not isinstance(data, dict):
        report.add(where, "its body is not a JSON object")
        return None
    return data


def startup_problem(path: str | Path) -> str | None:
    """None when the journal can be served; otherwise one line naming the file, the entry and what to do."""
    report = inspect(path)
    if report.ok:
        return None
    more = f" (and {len(report.findings) - 1} more)" if len(report.findings) > 1 else ""
    return f"journal {report.path}: {report.findings[0]}{more}; {WHAT_TO_DO}"
