"""The live runtime: one engine thread owns the table; everything else only queues work for it.

Inputs and their queue policy:

* web requests (:meth:`Runtime.submit`): wait for room up to a timeout, then
  fail with :class:`Busy` (HTTP 503); the caller gets the result or the
  rule that refused it.
* devices (:meth:`Runtime.put`: shoe, buttons): block until there is room,
  never dropped; a refusal becomes a notice on the dashboard.
* camera (:meth:`Runtime.offer`): dropped when the queue is half full, so a
  busy camera can never crowd out the shoe or the dealer.

For each accepted input the engine thread appends the input and its events to
the journal (one durable transaction) and only then answers the caller and
publishes. A refused input is never journaled. At start the journal is
replayed, so after a crash the table is exactly where it was.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Deque, Mapping

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.observations import (
    DealerDeclaration, Declaration, Observation, observation_from_dict, observation_to_dict,
)

from .clock import TableClock
from .devices import DeviceBoard
from .journal import Journal, JournalError
from .publisher import Batch, Publisher
from .table import Table
from .views import redact_event, redact_state

log = logging.getLogger("dealer_pi.runtime")

QUEUE_SIZE = 256
ANSWER_S = 30.0


class Busy(RuntimeError):
    """The engine queue stayed full: nothing was recorded."""


@dataclass
class _Work:
    kind: str  # observation | setup | clock | refresh | stop
    payload: Any
    origin: str  # web | device | camera
    done: threading.Event | None = None
    result: Any = None
    error: BaseException | None = None


def wall_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Runtime:
    journal_path: str | Path
    default_setup: Mapping[str, Any]
    stream_delay_s: float = 300
    queue_size: int = QUEUE_SIZE
    now_ms: Callable[[], int] = wall_ms
    devices: DeviceBoard = field(default_factory=DeviceBoard)
    on_alerts: Callable[[list[dict[str, Any]]], None] | None = None  # the alert light/buzzer: open alerts
    teacher: Any = None  # learns from the table: sees every journaled observation (runtime/teacher.py)

    def __post_init__(self) -> None:
        self.queue: queue.Queue[_Work] = queue.Queue(maxsize=self.queue_size)
        self.journal = Journal(self.journal_path)
        self.clock = TableClock()
        self.publisher = Publisher(self.stream_delay_s, self._render, self.now_ms)
        self.notices: Deque[dict[str, Any]] = collections.deque(maxlen=20)
        self.dropped_camera = 0
        self.accepted = 0  # observations journaled since start
        self.replay_mismatches = 0
        self._thread = threading.Thread(target=self._loop, name="engine", daemon=True)
        self._table: Table | None = None
        self._last: Batch | None = None
        self._running = False
        self._mirrored: list[Any] | None = None
        self._beat: Callable[[], object] | None = None
        self._beat_every = 1.0
        self._beat_at = 0.0
        self.devices.on_change = self._devices_changed

    # ------------------------------------------------------------------ life cycle

    def start(self) -> "Runtime":
        self._replay(at_start=True)
        self._mirror_alerts()
        self.publisher.start()
        self._running = True
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._running:
            self._running = False
            try:  # behind everything already queued: all of it is journaled first
                self.queue.put(_Work("stop", None, "runtime"), timeout=10)
            except queue.Full:
                log.error("engine queue still full at stop: the engine thread is stuck")
            self._thread.join(timeout=10)
        self.publisher.stop()
        self.journal.close()

    # ------------------------------------------------------------------ inputs

    def submit(self, kind: str, payload: Any, timeout: float = 5.0) -> Any:
        """Queue web work and wait for its result; raises the refusal (InputError, RuleViolation)."""
        work = _Work(kind, payload, "web", threading.Event())
        try:
            self.queue.put(work, timeout=timeout)
        except queue.Full:
            raise Busy(f"the engine queue stayed full for {timeout:g} s; nothing was recorded") from None
        assert work.done is not None
        if not work.done.wait(ANSWER_S):
            # Only a hung engine gets here (the systemd watchdog restarts it); free the caller.
            raise Busy(f"the engine did not answer within {ANSWER_S:g} s: check the table before entering it again")
        if work.error is not None:
            raise work.error
        return work.result

    def put(self, obs: Observation) -> None:
        """A device observation (shoe, buttons): waits for room, never dropped."""
        self.queue.put(_Work("observation", obs, "device"))

    def offer(self, obs: Observation) -> bool:
        """A camera observation: dropped (False) when the queue is half full."""
        if self.queue.qsize() >= self.queue_size // 2:
            self.dropped_camera += 1
            return False
        try:
            self.queue.put_nowait(_Work("observation", obs, "camera"))
        except queue.Full:
            self.dropped_camera += 1
            return False
        return True

    # ------------------------------------------------------------------ reading

    def state(self, view: str) -> dict[str, Any]:
        batch = self.publisher.public_batch if view == "public" else self._last
        return self._state(view, batch)

    def clock_view(self) -> dict[str, Any]:
        now = self.now_ms()
        return dict(self.clock.view(now), pending=self._level_change(now) is not None)

    def _level_change(self, now: int) -> dict[str, Any] | None:
        """The clock's level when its forced bets differ from the table's (they apply at the next hand)."""
        level = self.clock.current_level(now)
        if self._table is None or level is None or level["break"]:
            return None
        setup = self._table.setup
        if (level["small_blind"], level["big_blind"], level["ante"]) == (*setup.blinds, setup.ante):
            return None
        return level

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    # ------------------------------------------------------------------ views

    def _state(self, view: str, batch: Batch | None) -> dict[str, Any]:
        now = self.now_ms()
        devices = self.devices.view()
        devices["queue"] = {"depth": self.queue.qsize(), "capacity": self.queue_size, "dropped_frames": self.dropped_camera}
        if batch is None:  # the public view before anything is older than the delay
            return {
                "view": view, "last_event_id": 0, "as_of_ms": now - int(self.stream_delay_s * 1000), "seq": 0,
                "delay_s": int(self.stream_delay_s), "table": None, "hole_cards": None,
                "clock": self.clock_view(), "devices": devices, "notices": [], "setup": None,
            }
        return {
            "view": view,
            "last_event_id": batch.last_event_id,
            "as_of_ms": batch.ts_ms,
            "seq": batch.seq,
            "delay_s": int(self.stream_delay_s) if view == "public" else 0,
            "table": redact_state(batch.table, view),
            "hole_cards": None if view == "dealer" else batch.hole_cards,
            "clock": self.clock_view(),
            "devices": devices,
            "notices": [] if view == "public" else list(self.notices),
            "setup": batch.setup,
        }

    def _render(self, view: str, batch: Batch) -> list[tuple[str, int | None, dict[str, Any]]]:
        items: list[tuple[str, int | None, dict[str, Any]]] = [
            ("table", ev["id"], dict(ev, event=redact_event(ev["event"], view))) for ev in batch.events
        ]
        items.append(("state", batch.last_event_id or None, self._state(view, batch)))
        return items

    def _devices_changed(self) -> None:
        if self._running:
            try:
                self.queue.put_nowait(_Work("refresh", None, "runtime"))
            except queue.Full:
                pass  # the next batch carries the device state anyway

    # ------------------------------------------------------------------ the engine thread

    def set_heartbeat(self, beat: Callable[[], object], every_s: float) -> None:
        """Call ``beat`` from the engine thread at least every ``every_s`` seconds (systemd's
        watchdog): a hung engine, not only a dead process, then gets the service restarted."""
        self._beat, self._beat_every = beat, every_s

    def _heartbeat(self) -> None:
        if self._beat is not None and time.monotonic() - self._beat_at >= self._beat_every:
            self._beat_at = time.monotonic()
            self._beat()

    def _loop(self) -> None:
        while True:
            try:
                work = self.queue.get(timeout=self._beat_every if self._beat else None)
            except queue.Empty:
                self._heartbeat()
                continue
            self._heartbeat()
            if work.kind == "stop":
                return
            try:
                work.result = self._apply(work)
            except (InputError, RuleViolation) as exc:
                work.error = exc
                if work.origin != "web":
                    self._notice(work, exc)
            except JournalError as exc:
                log.error("%s; rebuilding the table from the journal", exc)
                work.error = exc
                self._replay()
            except Exception as exc:  # a bug must not kill the table: report it, keep serving
                log.exception("engine thread: %s failed; the table is rebuilt from the journal", work.kind)
                work.error = exc
                try:
                    self._replay()  # whatever the bug left half-changed, the journal is the truth
                except Exception:
                    log.exception("engine thread: rebuilding from the journal failed")
            if work.done is not None:
                work.done.set()

    def _notice(self, work: _Work, exc: Exception) -> None:
        self.report(getattr(work.payload, "source", work.origin), f"refused: {exc}", getattr(exc, "rule", None))

    def _apply(self, work: _Work) -> Any:
        now = self.now_ms()
        if work.kind == "observation":
            obs: Observation = work.payload
            if obs.ts_ms == 0:
                obs = dataclasses.replace(obs, ts_ms=now)
            tagged = self.table.feed(obs)
            level = self._level_change(now)
            started = next((ev for ev, _ in tagged if ev.get("type") == "hand_started"), None)
            if level is not None and started is not None and isinstance(obs, DealerDeclaration) \
                    and obs.declare is Declaration.NEW_HAND:
                return self._relevel(started, level, now)
            result = self._commit("observation", observation_to_dict(obs), now, tagged, self.table.finished)
            self.accepted += 1
            if self.teacher is not None:
                self.teacher.accepted(obs, [ev for ev, _ in tagged], self.table.hole_cards)
            return result
        if work.kind == "setup":
            if self.table.running and not work.payload.get("void_hand"):
                raise RuleViolation(
                    "BET-TABLE-STAKES",
                    "the setup changes only between hands: finish the hand, or void it explicitly (void_hand=1)",
                )
            table = Table(work.payload["setup"], hand_base=self.table.hand or 0)
            body = {"setup": table.setup_dict(), "hand_base": table.hand_base}
            self._table = table
            return self._commit("setup", body, now, table.initial_events, None)
        if work.kind == "clock":
            self.clock.apply(work.payload, now)
            self._commit("clock", work.payload, now, [], None)
            return self.clock.view(now)
        if work.kind == "refresh":
            self.publisher.refresh(live=self._last)
            return None
        raise ValueError(f"unknown work {work.kind!r}")

    def _relevel(self, started: dict[str, Any], level: dict[str, Any], now: int) -> dict[str, Any]:
        """TABLE-LEVELS: the hand the engine just started (its button moved on by the engine's own
        rules) is dealt at the new level's blinds and ante instead: the table is set up again from
        it, and that setup, not the "new hand", is what the journal keeps."""
        try:
            table = Table(self.table.releveled(started, (level["small_blind"], level["big_blind"]), level["ante"]),
                          hand_base=(self.table.hand or 1) - 1)
        except (InputError, RuleViolation):
            self._replay()  # the "new hand" was fed but not journaled: back to the journal's table
            raise
        self._table = table
        body = {"setup": table.setup_dict(), "hand_base": table.hand_base,
                "reason": f"TABLE-LEVELS: level {self.clock.view(now)['level']} from this hand"}
        return self._commit("setup", body, now, table.initial_events, None)

    def _commit(
        self, kind: str, body: dict[str, Any], now: int, tagged: list[tuple[dict[str, Any], int | None]], finished: int | None
    ) -> dict[str, Any]:
        seq, ids = self.journal.append(kind, body, now, tagged, finished_hand=finished)
        events = [{"id": i, "ts_ms": now, "hand": hand, "event": ev} for i, (ev, hand) in zip(ids, tagged)]
        last_id = ids[-1] if ids else (self._last.last_event_id if self._last else 0)
        batch = self._batch(now, seq, last_id, events)
        self._last = batch
        self.publisher.publish(batch)
        self._mirror_alerts()
        return {"seq": seq, "events": events, "last_event_id": last_id}

    def open_alerts(self) -> list[dict[str, Any]]:
        """The open alerts of the live table (JSON form), oldest first."""
        return list((self._last.table.get("alerts") if self._last else None) or [])

    def newest_open_alert(self) -> str | None:
        """What the "confirm" button answers."""
        alerts = self.open_alerts()
        return str(alerts[-1]["alert_id"]) if alerts else None

    def _mirror_alerts(self) -> None:
        if self.on_alerts is None:
            return
        alerts = self.open_alerts()
        key = [a.get("alert_id") for a in alerts]
        if key != self._mirrored:
            self._mirrored = key
            try:
                self.on_alerts(alerts)
            except Exception:  # the light must never stop the table
                log.exception("alert light")

    def report(self, source: str, message: str, rule: str | None = None) -> None:
        """A device problem or a refused device input: shown to dealer and producer, never journaled."""
        notice = {"ts_ms": self.now_ms(), "source": source, "message": message, "rule": rule}
        self.notices.append(notice)
        self.publisher.notice(notice)

    def _batch(self, ts_ms: int, seq: int, last_id: int, events: list[dict[str, Any]]) -> Batch:
        t = self.table
        return Batch(ts_ms, seq, last_id, events, t.snapshot(), t.hole_cards(), t.setup_dict())

    # ------------------------------------------------------------------ replay

    def _replay(self, *, at_start: bool = False) -> None:
        """Rebuild table and clock from the journal; at start, the public delay line too (later,
        after a failed write or a bug, the delay line already holds what it should)."""
        j = self.journal
        self.clock = TableClock()
        for entry in j.clock_entries():
            self.clock.apply(entry.body, entry.ts_ms)
        entries = j.entries_since_last_setup()
        now = self.now_ms()
        if not entries or entries[0].kind != "setup":
            table = Table(self.default_setup, hand_base=j.last_hand())
            self._table = table
            body = {"setup": table.setup_dict(), "hand_base": table.hand_base}
            self._commit_quiet("setup", body, now, table.initial_events)
            entries = []
        stored = j.events_for_entries(entries[0].seq) if entries else {}
        horizon = now - int(self.stream_delay_s * 1000)
        # States are rebuilt from the last entry already older than the delay on: that one is what
        # the public sees now, the later ones are held back until their time comes.
        first_kept = max([i for i, e in enumerate(entries) if e.ts_ms <= horizon] or [0])
        public: Batch | None = None
        held: list[Batch] = []
        last_id = j.last_event_id(before_seq=entries[0].seq) if entries else 0
        for i, entry in enumerate(entries):
            if entry.kind == "setup":
                self._table = Table(entry.body["setup"], hand_base=entry.body.get("hand_base", 0))
                tagged = self._table.initial_events
            elif entry.kind == "observation":
                try:
                    tagged = self.table.feed(observation_from_dict(entry.body, f"journal[{entry.seq}]"))
                except (InputError, RuleViolation) as exc:
                    self.replay_mismatches += 1
                    log.error("journal entry %d refused on replay: %s", entry.seq, exc)
                    continue
            else:
                tagged = []
            got = stored.get(entry.seq, [])
            if [ev for ev, _ in tagged] != [ev.body for ev in got]:
                self.replay_mismatches += 1
                log.error("journal entry %d: replay gave other events than were journaled", entry.seq)
            if got:
                last_id = got[-1].id
            if i >= first_kept:
                batch = self._batch(entry.ts_ms, entry.seq, last_id, [ev.to_dict() for ev in got])
                if entry.ts_ms <= horizon:
                    public = batch
                else:
                    held.append(batch)
                self._last = batch
        if self._last is None:
            self._last = self._batch(now, j.last_seq(), j.last_event_id(), [])
        if at_start:
            self.publisher.prime_public(public)
            for batch in held:
                self.publisher.hold(batch)
        for view in ("dealer", "live"):
            self.publisher.channels[view].publish([("state", self._last.last_event_id or None, self._state(view, self._last))])

    def _commit_quiet(self, kind: str, body: dict[str, Any], now: int, tagged: list[tuple[dict[str, Any], int | None]]) -> None:
        seq, ids = self.journal.append(kind, body, now, tagged)
        events = [{"id": i, "ts_ms": now, "hand": hand, "event": ev} for i, (ev, hand) in zip(ids, tagged)]
        self._last = self._batch(now, seq, ids[-1] if ids else self.journal.last_event_id(), events)
        self.publisher.hold(self._last)
