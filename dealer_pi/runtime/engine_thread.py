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

from dealer_pi.broadcast.feed import EquityDesk, Ticker, broadcast_view, equity_question
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.observations import (
    DealerDeclaration, Declaration, LevelChanged, Observation, observation_from_dict, observation_to_dict,
)

from .clock import TableClock
from .devices import DeviceBoard
from .journal import Journal, JournalError
from .publisher import Batch, Publisher
from .table import Table
from .views import VIEWS, redact_event, redact_notice, redact_state

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


NO_TABLE = "there is no table yet: enter the setup first (the setup page, or POST /api/setup)"
VOID_HINT = ("To void it, send the same setup again with the query parameter void_hand=1 "
             "(POST /api/setup?void_hand=1), or tick “Void the running hand” on the setup page.")


@dataclass
class Runtime:
    """``default_setup``: the table an empty journal starts with; None waits for the dealer's
    setup (no hand before there is a table). ``proposed_setup`` is what the setup page offers then."""

    journal_path: str | Path
    default_setup: Mapping[str, Any] | None = None
    stream_delay_s: float = 300
    queue_size: int = QUEUE_SIZE
    now_ms: Callable[[], int] = wall_ms
    devices: DeviceBoard = field(default_factory=DeviceBoard)
    on_alerts: Callable[[list[dict[str, Any]]], None] | None = None  # the alert light/buzzer: open alerts
    teacher: Any = None  # learns from the table: sees every journaled observation (runtime/teacher.py)
    secure_delay: bool = False  # web.secure_delay: no view sees a hole card or an equity before the delay
    proposed_setup: Mapping[str, Any] | None = None
    floor: Any = None  # the card room's floor (dealer_pi.floor.table_side.TableFloor); None: the table plays alone
    public_hole_cards_after_hand: bool = False  # web.public_hole_cards = "after-hand"

    def __post_init__(self) -> None:
        self.queue: queue.Queue[_Work] = queue.Queue(maxsize=self.queue_size)
        self.journal = Journal(self.journal_path)
        self.clock = TableClock()
        self.publisher = Publisher(self.stream_delay_s, self._render, self.now_ms, secure=self.secure_delay,
                                   hole_cards_after_hand=self.public_hole_cards_after_hand)
        self.ticker = Ticker()
        self.desk = EquityDesk(ready=self._equity_ready)
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
        # Every snapshot's number: a refresh (devices, clock) adds no journal entry, so ``seq`` alone
        # cannot tell a tablet which of two snapshots of one entry is the newer.
        self._rev = 0
        self._rev_lock = threading.Lock()
        self.devices.on_change = self._devices_changed

    # ------------------------------------------------------------------ life cycle

    def start(self) -> "Runtime":
        self._replay(at_start=True)
        self._mirror_alerts()
        self.desk.start()
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
        self.desk.stop()
        self.journal.close()

    # ------------------------------------------------------------------ inputs

    def submit(self, kind: str, payload: Any, timeout: float = 5.0) -> Any:
        """Queue web work and wait for its result; raises the refusal (InputError, RuleViolation)."""
        if not self._running:
            raise Busy("the table is stopping; nothing was recorded")
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
        batch = self.publisher.public_batch if view in self.publisher.delayed_views else self._last
        return self._state(view, batch)

    def clock_view(self) -> dict[str, Any]:
        now = self.now_ms()
        return dict(self.clock.view(now), pending=self._level_change(now) is not None)

    def _level_change(self, now: int) -> dict[str, Any] | None:
        """The clock's level when its forced bets differ from the table's (they apply at the next hand)."""
        level = self.clock.current_level(now)
        if self._table is None or level is None or level["break"]:
            return None
        if (level["small_blind"], level["big_blind"], level["ante"]) == self._table.next_level():
            return None
        return level

    @property
    def table(self) -> Table:
        """The live table; InputError before the first setup (a fresh journal waits for one)."""
        if self._table is None:
            raise InputError("setup", NO_TABLE)
        return self._table

    @property
    def has_table(self) -> bool:
        return self._table is not None

    def setup_view(self) -> dict[str, Any]:
        """What the setup page starts from: the live table (current stacks, busted seats empty),
        or the proposed setup while there is no table yet."""
        if self._table is None:
            return {"setup": dict(self.proposed_setup or {}), "hand_running": False, "table": False}
        return {"setup": self._table.live_setup_dict(), "hand_running": self._table.running, "table": True}

    def hands_view(self) -> list[dict[str, Any]]:
        """Every hand number ever started: played, voided (by a misdeal or a new setup, with why),
        running, or left unfinished by an older version that replaced the table mid-hand."""
        finished = {h["hand"]: h for h in self.journal.hands()}
        current = self._table.hand if self._table is not None and self._table.running else None
        out = []
        for hand, started, ended, count in self.journal.started_hands():
            h = finished.get(hand)
            if h is not None:
                out.append({k: h[k] for k in ("hand", "started_ms", "ended_ms", "events", "result", "why")})
            else:
                result = "running" if hand == current else "abandoned"
                why = "" if result == "running" else "left unfinished when the table was set up anew"
                out.append({"hand": hand, "started_ms": started, "ended_ms": None if result == "running" else ended,
                            "events": count, "result": result, "why": why})
        return out

    # ------------------------------------------------------------------ views

    def _state(self, view: str, batch: Batch | None) -> dict[str, Any]:
        if view == "public" and batch is not None:
            batch = self.publisher.for_public(batch)
        now = self.now_ms()
        with self._rev_lock:  # numbered in the order the devices were read
            self._rev += 1
            rev = self._rev
            devices = self.devices.view()
        devices["queue"] = {"depth": self.queue.qsize(), "capacity": self.queue_size, "dropped_frames": self.dropped_camera}
        if batch is None:  # the public view before anything is older than the delay, or no table yet
            return {
                "view": view, "last_event_id": 0, "as_of_ms": now - int(self.stream_delay_s * 1000), "seq": 0, "rev": rev,
                "delay_s": int(self.stream_delay_s), "table": None, "hole_cards": None,
                "clock": self.clock_view(), "devices": devices, "notices": [] if view == "public" else list(self.notices),
                "setup": None, "awaiting_setup": self._table is None, "floor": self._floor_view(view),
                "broadcast": {"ticker": []} if view == "dealer" else {"ticker": [], "equity": None},
            }
        delayed = view in self.publisher.delayed_views
        return {
            "view": view,
            "last_event_id": batch.last_event_id,
            "as_of_ms": batch.ts_ms,
            "seq": batch.seq,
            "rev": rev,
            "delay_s": int(self.stream_delay_s) if delayed else 0,
            "table": redact_state(batch.table, view),
            "hole_cards": None if view == "dealer" else batch.hole_cards,
            "clock": self.clock_view(),
            "devices": devices,
            "notices": [n for n in (redact_notice(x, view) for x in self.notices) if n is not None],
            "setup": batch.setup,
            "broadcast": broadcast_view(batch.extras, view, self.desk),
            "awaiting_setup": False,
            "floor": self._floor_view(view),
        }

    def _floor_view(self, view: str) -> dict[str, Any] | None:
        return self.floor.view() if self.floor is not None and view != "public" else None

    def _render(self, view: str, batch: Batch) -> list[tuple[str, int | None, dict[str, Any]]]:
        if view == "public":
            batch = self.publisher.for_public(batch)
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
            new_hand = isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND
            if new_hand and self.floor is not None:
                seated = self.floor.before_new_hand(self, now)  # TABLE-HAND-FOR-HAND may hold the table
                if seated is not None:
                    return seated  # the floor's players seated first: that setup deals the new hand
            if new_hand and not self.table.running:
                self._new_level(now)
            if not new_hand or self.floor is None:
                return self._observe(obs, now)
            return self._new_hand_with_floor(obs, now)
        if work.kind == "setup":
            return self._set_up(work.payload, now)
        if work.kind == "clock":
            self.clock.apply(work.payload, now)
            self._commit("clock", work.payload, now, [], None)
            return self.clock.view(now)
        if work.kind == "refresh":
            if self._last is None:
                self._publish_waiting()
            self.publisher.refresh(work.payload or VIEWS, live=self._last)
            return None
        if work.kind == "floor" and self.floor is not None:
            return self.floor.apply(self, work.payload, now)
        raise ValueError(f"unknown work {work.kind!r}")

    def _observe(self, obs: Observation, now: int) -> dict[str, Any]:
        """Feed one observation to the table and journal it with its events."""
        table = self.table
        tagged = table.feed(obs)
        result = self._commit("observation", observation_to_dict(obs), now, tagged, table.finished,
                              table.finished_how)
        self.accepted += 1
        if self.teacher is not None:
            self.teacher.accepted(obs, [ev for ev, _ in tagged], table.hole_cards)
        return result

    def _new_level(self, now: int) -> None:
        """TABLE-LEVELS: the clock's new level goes to the table between hands, as its own entry,
        so the next hand is dealt at it (the engine keeps the button and blind history)."""
        level = self._level_change(now)
        if level is not None:
            self._observe(LevelChanged(level["small_blind"], level["big_blind"], level["ante"], "clock", now), now)
            if self.floor is not None:
                self.floor.level_changed(now)

    def _set_up(self, payload: Mapping[str, Any], now: int) -> dict[str, Any]:
        """A new table from a setup. A running hand is voided first only when asked (its own
        entry, so the hand is accounted for); otherwise the engine refuses (BET-TABLE-STAKES)."""
        current = self._table
        base = (current.hand or 0) if current is not None else self.journal.last_hand()
        table = Table(payload["setup"], hand_base=base)  # a bad setup is refused before anything changes
        if current is not None and current.running:
            if not payload.get("void_hand"):
                try:
                    current.session.check_new_table()
                except RuleViolation as exc:
                    raise RuleViolation(exc.rule, f"{exc.message}. {VOID_HINT}") from None
            self._observe(DealerDeclaration(Declaration.VOID_HAND, "setup", now), now)
        body = {"setup": table.setup_dict(), "hand_base": table.hand_base}
        self._table = table
        return self._commit("setup", body, now, table.initial_events, None)

    def _new_hand_with_floor(self, obs: Observation, now: int) -> dict[str, Any]:
        """A new hand at a table on the floor: the floor's orders (moves, rebuys, penalties,
        TABLE-MOVE) change who is dealt in with what, as a setup that deals this hand."""
        table = self.table
        tagged = table.feed(obs)
        started = next((ev for ev, _ in tagged if ev.get("type") == "hand_started"), None)
        seating = self.floor.between_hands(self, started, now) if started is not None else None
        if seating is not None and started is not None:
            return self._relevel(started, None, now, seating)
        result = self._commit("observation", observation_to_dict(obs), now, tagged, table.finished, table.finished_how)
        self.accepted += 1
        self.floor.hand_started()
        return result

    def _relevel(self, started: dict[str, Any], level: dict[str, Any] | None, now: int, seating: Any = None,
                 redeal: bool = False, fed: bool = True) -> dict[str, Any]:
        """TABLE-LEVELS: the hand the engine just started (its button moved on by the engine's own
        rules) is dealt at the new level's blinds and ante instead: the table is set up again from
        it, and that setup, not the "new hand", is what the journal keeps. ``seating`` (the
        floor's orders: moves, rebuys, penalties) changes who is dealt in with what."""
        setup = self.table.setup
        blinds = (level["small_blind"], level["big_blind"]) if level else setup.blinds
        new = self.table.releveled(started, blinds, level["ante"] if level else setup.ante)
        reasons = [f"TABLE-LEVELS: level {self.clock.view(now)['level']} from this hand"] if level else []
        extra: dict[str, Any] = {}
        if seating is not None:
            new, extra = seating(new)
            reasons.append(extra.pop("floor_reason"))
        try:
            # ``fed``: the engine has counted the hand ``started`` already (a "new hand" fed, or a redeal).
            table = Table(new, hand_base=(self.table.hand or 1) - 1 if fed else (self.table.hand or 0))
        except (InputError, RuleViolation):
            self._replay()  # the "new hand" was fed but not journaled: back to the journal's table
            raise
        self._table = table
        body = {"setup": table.setup_dict(), "hand_base": table.hand_base, "reason": "; ".join(reasons), **extra}
        if redeal:
            body["redealt"] = True
        if self.floor is not None:
            self.floor.note_setup(body, now)  # before: the state published with the entry shows it
        return self._commit("setup", body, now, table.initial_events, None)

    def reseat(self, started: dict[str, Any], seating: Any, now: int, *, new_hand: bool = False) -> dict[str, Any]:
        """Deal the current hand, in which no card is out yet, again with the floor's seating; or, with
        ``new_hand``, deal the next hand with it (``started`` then describes the table between hands)."""
        level = self._level_change(now) if new_hand else None
        return self._relevel(started, level, now, seating, redeal=not new_hand, fed=not new_hand)

    def commit_entry(self, kind: str, body: dict[str, Any], now: int) -> dict[str, Any]:
        """Journal an entry that causes no table event (the floor's orders), then publish."""
        return self._commit(kind, body, now, [], None)

    def _commit(
        self, kind: str, body: dict[str, Any], now: int, tagged: list[tuple[dict[str, Any], int | None]],
        finished: int | None, how: tuple[str, str] = ("played", ""),
    ) -> dict[str, Any]:
        seq, ids = self.journal.append(kind, body, now, tagged, finished_hand=finished, finished_how=how)
        events = [{"id": i, "ts_ms": now, "hand": hand, "event": ev} for i, (ev, hand) in zip(ids, tagged)]
        last_id = ids[-1] if ids else (self._last.last_event_id if self._last else 0)
        if self._table is None:  # the clock set before the first setup: nothing to draw yet
            self._publish_waiting()
            return {"seq": seq, "events": events, "last_event_id": last_id}
        batch = self._batch(now, seq, last_id, events)
        self._last = batch
        self.desk.ask(batch.extras["equity_question"])  # worked out long before the delay is over
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

    def report(self, source: str, message: str, rule: str | None = None, secret: str = "") -> None:
        """A device problem or a refused device input: shown to dealer and producer, never journaled.
        ``secret`` (what the device sent) reaches the producer's view only."""
        notice: dict[str, Any] = {"ts_ms": self.now_ms(), "source": source, "message": message, "rule": rule}
        if secret:
            notice["secret"] = secret
        log.warning("notice from %s: %s%s", source, message, f" [{secret}]" if secret else "")
        self.notices.append(notice)
        self.publisher.notice(notice)

    def _batch(self, ts_ms: int, seq: int, last_id: int, events: list[dict[str, Any]]) -> Batch:
        t = self.table
        snap, holes = t.snapshot(), t.hole_cards()
        self.ticker.feed([ev["event"] for ev in events], t.hand)
        extras = {"ticker": list(self.ticker.lines), "equity_question": equity_question(snap, holes)}
        return Batch(ts_ms, seq, last_id, events, snap, holes, t.live_setup_dict(), extras)

    def _equity_ready(self, question: Any) -> None:
        """A new equity is in (the desk's thread): send again the views that show its moment."""
        p = self.publisher
        views = tuple(v for v in ("live", "public") if (
            b := p.public_batch if v in p.delayed_views else self._last) is not None
            and b.extras.get("equity_question") == question)
        if self._running and views:
            try:
                self.queue.put_nowait(_Work("refresh", views, "runtime"))
            except queue.Full:
                pass  # the next batch carries it

    # ------------------------------------------------------------------ replay

    def _replay(self, *, at_start: bool = False) -> None:
        """Rebuild table and clock from the journal; at start, the public delay line too (later,
        after a failed write or a bug, the delay line already holds what it should)."""
        j = self.journal
        self.clock = TableClock()
        self.ticker = Ticker()
        for entry in j.clock_entries():
            self.clock.apply(entry.body, entry.ts_ms)
        entries = j.entries_since_last_setup()
        now = self.now_ms()
        if not entries or entries[0].kind != "setup":
            if self.default_setup is None:  # a fresh table waits for its setup: no hand before it
                self._table, self._last = None, None
                self._publish_waiting()
                return
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
        if self.floor is not None:
            self.floor.replay(j)  # the floor's orders and rounds are the journal's too
        for view in ("dealer", "live"):
            self.publisher.channels[view].publish([("state", self._last.last_event_id or None, self._state(view, self._last))])

    def _publish_waiting(self) -> None:
        """The state while there is no table yet (``awaiting_setup``), to the live views."""
        for view in ("dealer", "live"):
            self.publisher.channels[view].publish([("state", None, self._state(view, None))])

    def _commit_quiet(self, kind: str, body: dict[str, Any], now: int, tagged: list[tuple[dict[str, Any], int | None]]) -> None:
        seq, ids = self.journal.append(kind, body, now, tagged)
        events = [{"id": i, "ts_ms": now, "hand": hand, "event": ev} for i, (ev, hand) in zip(ids, tagged)]
        self._last = self._batch(now, seq, ids[-1] if ids else self.journal.last_event_id(), events)
        self.publisher.hold(self._last)
