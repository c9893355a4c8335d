"""Fan-out of journaled events to the live views, and the delayed copy for the public.

Each view has a :class:`Channel`: a bounded log of ready-to-send messages and
a condition that wakes every waiting stream at once. A stream remembers the
sequence number of the last message it took; if it falls so far behind that
the log no longer holds its next message, it is told to resynchronise from
the journal (nothing is lost, the journal has every event).

The public view is a delayed copy: a batch is held back until ``delay_s`` has
passed since it was journaled, and only then is it formatted and published,
together with the state of that moment. Before that, the public view simply
does not have it. With ``hole_cards_after_hand`` (a delay too short to be safe
on its own) the released copy shows no hole card until its hand is over.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Deque

from .views import VIEWS, redact_event, redact_notice


def sse(kind: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    r"""One server-sent-event message (``id`` only when there is one).

    >>> sse("table", {"id": 3}, 3)
    b'id: 3\nevent: table\ndata: {"id":3}\n\n'
    """
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


@dataclass(frozen=True)
class Message:
    seq: int  # channel order
    kind: str  # "table" (one event), "state", "notice"
    event_id: int | None
    data: dict[str, Any]
    raw: bytes  # encoded once, sent to every stream of the channel


class Channel:
    def __init__(self, capacity: int = 4096) -> None:
        self._log: Deque[Message] = collections.deque(maxlen=capacity)
        self._cond = threading.Condition()
        self._seq = 0
        self.state: dict[str, Any] | None = None
        self.last_event_id = 0
        self.closed = False

    @property
    def seq(self) -> int:
        with self._cond:
            return self._seq

    def publish(self, items: list[tuple[str, int | None, dict[str, Any]]]) -> None:
        with self._cond:
            for kind, event_id, data in items:
                self._seq += 1
                self._log.append(Message(self._seq, kind, event_id, data, sse(kind, data, event_id)))
                if kind == "state":
                    self.state = data
                if event_id is not None:  # a state message carries the id of the last event in it
                    self.last_event_id = max(self.last_event_id, event_id)
            self._cond.notify_all()

    def cursor(self) -> tuple[int, dict[str, Any] | None, int]:
        """(seq, state, last_event_id) taken together, to start a stream without a gap."""
        with self._cond:
            return self._seq, self.state, self.last_event_id

    def wait(self, after: int, timeout: float) -> list[Message] | None:
        """Messages after ``after``; [] on timeout; None when the log lost some (resync)."""
        with self._cond:
            if self._seq == after and not self.closed:
                self._cond.wait(timeout)
            if self._seq == after:
                return []
            if not self._log or self._log[0].seq > after + 1:
                return None
            start = after + 1 - self._log[0].seq
            return [self._log[i] for i in range(start, len(self._log))]

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()


@dataclass
class Batch:
    """What one journal entry produced: its events (journal form) and the state after it."""

    ts_ms: int
    seq: int  # journal entry
    last_event_id: int
    events: list[dict[str, Any]]  # {"id", "ts_ms", "hand", "event"}
    table: dict[str, Any]  # snapshot(secrets=False) after the entry
    hole_cards: dict[str, Any]  # the secrets after the entry
    setup: dict[str, Any]
    extras: dict[str, Any] = field(default_factory=dict)  # the stream's ticker and equity question


@dataclass
class _Held:
    due_ms: int
    batch: Batch


@dataclass
class Publisher:
    """Formats batches for each view and releases the public copy after the delay.

    ``render(view, batch)`` turns a batch into the channel items of a view (the
    runtime supplies it, since the state message also carries the clock and
    devices). ``now_ms`` is the wall clock (injected for tests).
    """

    delay_s: float
    render: Callable[[str, Batch], list[tuple[str, int | None, dict[str, Any]]]]
    now_ms: Callable[[], int] = field(default=lambda: int(time.time() * 1000))
    secure: bool = False  # web.secure_delay: the producer's live view waits for the delay too
    channels: dict[str, Channel] = field(default_factory=lambda: {v: Channel() for v in VIEWS})
    public_batch: Batch | None = None
    hole_cards_after_hand: bool = False  # the public copy shows hole cards only once the hand is over

    def __post_init__(self) -> None:
        self._held: Deque[_Held] = collections.deque()
        self._cond = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._release_loop, name="public-delay", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        for ch in self.channels.values():
            ch.close()

    def poke(self) -> None:
        """Re-check the held batches now (the clock was moved, in tests)."""
        with self._cond:
            self._cond.notify_all()

    @property
    def delayed_views(self) -> tuple[str, ...]:
        return ("live", "public") if self.secure else ("public",)

    def publish(self, batch: Batch) -> None:
        """Called by the engine thread once the batch is durable in the journal."""
        for view in ("dealer", "live"):
            if view not in self.delayed_views:
                self.channels[view].publish(self.render(view, batch))
        self.hold(batch)

    def hold(self, batch: Batch) -> None:
        due = batch.ts_ms + int(self.delay_s * 1000)
        with self._cond:
            self._held.append(_Held(due, batch))
            self._cond.notify_all()

    def prime_public(self, batch: Batch | None) -> None:
        """The public state at start-up: the last batch already older than the delay."""
        if batch is not None:
            self.public_batch = batch
            for view in self.delayed_views:
                self.channels[view].publish(self.render(view, batch))

    def for_public(self, batch: Batch) -> Batch:
        """The batch as the public view shows it once its delay has passed (``render`` and the
        snapshot ask for it): with ``hole_cards_after_hand``, no hole card while its hand runs."""
        if not self.hole_cards_after_hand:
            return batch
        over = (batch.table.get("hand") or {}).get("phase") == "complete"
        events = [dict(ev, event=redact_event(ev["event"], "dealer")) for ev in batch.events]
        if over:
            return dataclasses.replace(batch, events=events)
        # Equities are as secret as the hole cards they come from: none while the hand runs either.
        extras = dict(batch.extras, equity_question=None) if batch.extras else batch.extras
        return dataclasses.replace(batch, events=events, hole_cards={}, extras=extras)

    def refresh(self, views: tuple[str, ...] = VIEWS, live: Batch | None = None) -> None:
        """Re-send the state (clock or devices changed): the live views from ``live``, the public
        view from the last released batch."""
        for view in views:
            batch = self.public_batch if view in self.delayed_views else live
            if batch is None:
                continue
            items = [it for it in self.render(view, dataclasses.replace(batch, events=[])) if it[0] == "state"]
            self.channels[view].publish(items)

    def notice(self, data: dict[str, Any]) -> None:
        """A rejected device input: told at once to the dealer and producer (never journaled), each
        as its view may see it (the dealer's copy names no card)."""
        for view in ("dealer", "live"):
            shown = redact_notice(data, view)
            if shown is not None:
                self.channels[view].publish([("notice", None, shown)])

    def _release_loop(self) -> None:
        while True:
            with self._cond:
                if self._stop:
                    return
                now = self.now_ms()
                due: list[Batch] = []
                while self._held and self._held[0].due_ms <= now:
                    due.append(self._held.popleft().batch)
                if not due:
                    wait = (self._held[0].due_ms - now) / 1000 if self._held else 1.0
                    self._cond.wait(min(max(wait, 0.001), 1.0))
                    continue
            for batch in due:
                # Rendered first, so that the snapshot endpoint never runs ahead of the stream.
                items = {view: self.render(view, batch) for view in self.delayed_views}
                self.public_batch = batch
                for view, rendered in items.items():
                    self.channels[view].publish(rendered)
