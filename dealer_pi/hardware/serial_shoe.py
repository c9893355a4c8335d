"""The smart shoe on a serial port: a reader thread around the pure DPS/1 decoder and sequencer.

It opens the port (from the config, or the first USB device with the
configured VID/PID), asks ``HELLO?``, decodes every byte, puts the frames in
order, turns draws into :class:`~dealer_pi.engine.observations.ShoeDraw` and
reports everything else as a :class:`~dealer_pi.hardware.problems.Problem`.
Three seconds without a frame is "disconnected"; a port that goes away is
reopened with growing pauses. The link state changes in :meth:`SerialShoe._set_state`
and nowhere else.
"""

from __future__ import annotations

import enum
import threading
import time
from typing import Callable

import serial
from serial.tools import list_ports

from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import ShoeDraw

from . import dps1
from .deck import DeckRegistration
from .problems import ObservationSink, Problem, ProblemSink, Reason, deliver, ignore, log
from .sequencer import Sequencer, Step


class LinkState(enum.Enum):
    STOPPED = "stopped"
    SEARCHING = "searching"  # no port to open (not plugged in, or not found by VID/PID)
    CONNECTING = "connecting"  # port open, no frame yet
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"  # port open but no heartbeat for the timeout
    RECONNECTING = "reconnecting"  # the port failed; trying again after a pause


StateSink = Callable[[LinkState, str], None]
MessageSink = Callable[[dps1.Message], None]

# Shoe FAULT codes with a meaning of their own; any other code is a plain shoe fault.
_FAULT_REASONS = {"DOUBLE": Reason.DOUBLE_DRAW, "SENSOR": Reason.SENSOR_FAULT}


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


def find_port(vid: int, pid: int) -> str | None:
    """The first serial device with this USB vendor and product id (``/dev/ttyACM0``...)."""
    matches = sorted(p.device for p in list_ports.comports() if p.vid == vid and p.pid == pid)
    return matches[0] if matches else None


class SerialShoe:
    """A DPS/1 shoe. ``start()`` runs the reader thread, ``stop()`` ends it.

    Callbacks run on the reader thread and must not block for long: the runtime
    passes its queue's ``put`` as ``on_observation``.
    """

    def __init__(
        self,
        port: str = "",
        *,
        usb_vid: int = 0,
        usb_pid: int = 0,
        baud: int = dps1.BAUD,
        registration: DeckRegistration | None = None,
        on_observation: ObservationSink = ignore,
        on_problem: ProblemSink = ignore,
        on_state: StateSink = lambda s, why: None,
        on_message: MessageSink = ignore,
        clock_ms: Callable[[], int] = monotonic_ms,
        heartbeat_timeout_ms: int = 3000,
        resend_timeout_ms: int = 500,
        backoff_s: tuple[float, float] = (0.2, 5.0),
        read_timeout_s: float = 0.05,
        source: str = "shoe:serial",
    ) -> None:
        if not port and not (usb_vid and usb_pid):
            raise ValueError("give a port path or a USB vendor and product id")
        self.port = port
        self.usb_vid, self.usb_pid = usb_vid, usb_pid
        self.baud = baud
        self.registration = registration
        self.on_observation, self.on_problem = on_observation, on_problem
        self.on_state, self.on_message = on_state, on_message
        self.clock_ms = clock_ms
        self.heartbeat_timeout_ms = heartbeat_timeout_ms
        self.backoff_s = backoff_s
        self.read_timeout_s = read_timeout_s
        self.source = source
        self.sequencer = Sequencer(resend_timeout_ms)
        self.shoe_id = ""
        self.firmware = ""
        self.frames = 0
        self._offset: int | None = None  # our clock minus the shoe's, from the last frame on time
        self._state = LinkState.STOPPED
        self._state_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: serial.Serial | None = None

    # ---- life cycle ----------------------------------------------------------------------
    @property
    def state(self) -> LinkState:
        return self._state

    def start(self) -> "SerialShoe":
        if self._thread is not None:
            raise RuntimeError("the shoe reader is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="serial-shoe", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._set_state(LinkState.STOPPED, "stopped")

    def __enter__(self) -> "SerialShoe":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _set_state(self, new: LinkState, why: str) -> None:
        """The only place the link state changes; listeners hear every change once."""
        with self._state_lock:
            if new is self._state:
                return
            self._state = new
        deliver(lambda s: self.on_state(s, why), new, self.source)

    # ---- the reader thread -----------------------------------------------------------------
    def _resolve(self) -> str | None:
        if self.port:
            return self.port
        return find_port(self.usb_vid, self.usb_pid)

    def _run(self) -> None:
        pause = self.backoff_s[0]
        while not self._stop.is_set():
            path = self._resolve()
            if path is None:
                self._set_state(LinkState.SEARCHING, f"no USB serial device {self.usb_vid:04x}:{self.usb_pid:04x}")
                self._stop.wait(pause)
                pause = min(pause * 2, self.backoff_s[1])
                continue
            try:
                # exclusive: a second reader (a stray `shoe listen`) would steal half the frames.
                port = serial.Serial(path, self.baud, timeout=self.read_timeout_s, write_timeout=0.5, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._set_state(LinkState.RECONNECTING if self._state is not LinkState.STOPPED
                                else LinkState.SEARCHING, f"cannot open {path}: {exc}; retrying in {pause:.1f} s")
                self._stop.wait(pause)
                pause = min(pause * 2, self.backoff_s[1])
                continue
            self._port = port
            self._set_state(LinkState.CONNECTING, f"opened {path}")
            try:
                if self._serve(port, path):
                    pause = self.backoff_s[0]
            except Exception as exc:  # a bug here must cost a reconnect, not the shoe
                log.exception("serial shoe reader")
                self._problem(Reason.SHOE_FAULT, "reader error, reopening the port", secret=repr(exc))
            finally:
                self._port = None
                try:
                    port.close()
                except (serial.SerialException, OSError):
                    pass
            if not self._stop.is_set():
                self._set_state(LinkState.RECONNECTING, f"{path} went away; retrying in {pause:.1f} s")
                self._stop.wait(pause)
                pause = min(pause * 2, self.backoff_s[1])

    def _serve(self, port: serial.Serial, path: str) -> bool:
        """Read until the port fails or we are stopped; True if the shoe spoke at all."""
        decoder = dps1.Decoder()
        spoke = False
        self._write(port, dps1.encode_command("HELLO?"))
        last_frame = last_poke = self.clock_ms()
        while not self._stop.is_set():
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError) as exc:
                self._problem(Reason.DISCONNECT, f"{path}: {exc}")
                return spoke
            now = self.clock_ms()
            if data:
                for item in decoder.feed(data):
                    if isinstance(item, dps1.Frame):
                        last_frame = now
                        spoke = True
                        self.frames += 1
                        self._apply(port, self.sequencer.accept(item, now), now)
                    elif isinstance(item, dps1.Issue):
                        self._problem(item.reason, item.detail, item.seq, item.secret)
            self._apply(port, self.sequencer.tick(now), now)
            silent = now - last_frame
            if silent >= self.heartbeat_timeout_ms:
                if self._state is not LinkState.DISCONNECTED:
                    self._problem(Reason.DISCONNECT, f"no heartbeat from the shoe for {silent / 1000:.1f} s")
                    self._set_state(LinkState.DISCONNECTED, f"no heartbeat for {silent / 1000:.1f} s")
                if now - last_poke >= 1000:
                    last_poke = now
                    if not self._write(port, dps1.encode_command("HELLO?")):
                        return spoke
        return spoke

    def _write(self, port: serial.Serial, data: bytes) -> bool:
        try:
            port.write(data)
            return True
        except (serial.SerialException, OSError) as exc:
            self._problem(Reason.DISCONNECT, f"cannot write to the shoe: {exc}")
            return False

    def _apply(self, port: serial.Serial, step: Step, now: int) -> None:
        for issue in step.issues:
            if issue.reason is Reason.SHOE_RESTARTED:
                self._offset = None  # the shoe's clock started over too
            self._problem(issue.reason, issue.detail, issue.seq, issue.secret)
        for command in step.send:
            self._write(port, command)
        for frame in step.deliver:
            self._deliver(frame, self._when(frame, frame is step.on_time, now))

    def _when(self, frame: dps1.Frame, on_time: bool, now: int) -> int:
        """Our clock's time for a frame: now if it just arrived; if it was held back or resent,
        its own ``<ms>`` moved onto our clock by the offset seen on the last frame that came on time."""
        ms = frame.fields[0] if frame.kind in ("DRAW", "HB", "FAULT") and frame.fields else ""
        if not ms.isdigit():
            return now
        if on_time:
            self._offset = now - int(ms)
            return now
        return now if self._offset is None else min(now, int(ms) + self._offset)

    def _deliver(self, frame: dps1.Frame, ts_ms: int) -> None:
        try:
            msg = dps1.interpret(frame)
        except dps1.FrameError as exc:
            self._problem(exc.reason, str(exc), frame.seq, exc.secret)
            return
        if isinstance(msg, dps1.Hello):
            self.shoe_id, self.firmware = msg.shoe_id, msg.firmware
        if self._state is not LinkState.CONNECTED:
            self._set_state(LinkState.CONNECTED, "the shoe is speaking")
        deliver(self.on_message, msg, self.source)
        if isinstance(msg, dps1.Draw):
            card = self.card_of(msg)
            if card is None and msg.card.startswith("U:"):
                why = "no deck is registered" if self.registration is None else "not in the deck registration"
                self._problem(Reason.UNREGISTERED_TAG, f"DRAW frame {msg.seq}: a tag, but {why}; counted as an unread card",
                              msg.seq, f"tag {msg.card}")
            deliver(self.on_observation, ShoeDraw(card, self.source, ts_ms), self.source)
        elif isinstance(msg, dps1.Fault):
            self._fault(msg)

    def card_of(self, draw: dps1.Draw) -> Card | None:
        """The card of a draw: printed, looked up by tag, or None (unread or unknown tag)."""
        token = draw.card
        if token == "?":
            return None
        if token.startswith("U:"):
            return self.registration.card_for(token) if self.registration else None
        return Card.parse(token)

    def _fault(self, msg: dps1.Fault) -> None:
        reason = _FAULT_REASONS.get(msg.code, Reason.SHOE_FAULT)
        # The code is free text from the shoe: shown only when it cannot be read as a card.
        code = "a code" if dps1.may_name_a_card(msg.code) else msg.code
        extra = f" ({len(msg.extra)} detail field(s) in the producer view)" if msg.extra else ""
        secret = ",".join((msg.code, *msg.extra)) if msg.extra or code != msg.code else ""
        self._problem(reason, f"FAULT frame {msg.seq}: the shoe reports {code} at {msg.ms} ms{extra}", msg.seq, secret)

    def _problem(self, reason: Reason, detail: str, seq: int | None = None, secret: str = "") -> None:
        deliver(self.on_problem, Problem(reason, detail, self.source, self.clock_ms(), seq, secret), self.source)
