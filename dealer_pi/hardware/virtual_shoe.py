"""A DPS/1 shoe on a pseudo-terminal, for the simulator, the demo, the tests and the benchmarks.

The host opens :attr:`VirtualShoe.path` with pyserial exactly as it would open
``/dev/ttyACM0``. The virtual shoe sends ``HELLO`` when plugged in, a heartbeat,
``DRAW`` frames on command, answers ``HELLO?`` and ``RESEND`` from its last 64
frames, and misbehaves on purpose: a wrong checksum, garbage bytes, frames that
never leave (recoverable by RESEND, or lost for good), silence, unplug and replug.

``link`` is a symlink kept pointing at the current pseudo-terminal, the way udev
keeps ``/dev/serial/by-id/...``: a replugged shoe gets a new ``/dev/pts/N`` but
the host finds it at the same path.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from collections import deque
from pathlib import Path

from dealer_pi.engine.cards import Card

from . import dps1


class VirtualShoe:
    def __init__(
        self,
        *,
        link: str | Path | None = None,
        shoe_id: str = "VIRTUAL-1",
        firmware: str = "virtual-1.0",
        heartbeat_s: float = 0.5,
        start_seq: int = 0,
        answer_resend: bool = True,
    ) -> None:
        self.link = Path(link) if link else None
        self.shoe_id, self.firmware = shoe_id, firmware
        self.heartbeat_s = heartbeat_s
        self.answer_resend = answer_resend
        self.commands: list[dps1.Command] = []
        self.silent = False
        self.dropped_bytes = 0
        self.write_timeout_s = 0.5
        self._seq = start_seq % dps1.SEQ_MOD
        self._history: deque[tuple[int, bytes]] = deque(maxlen=dps1.HISTORY)
        self._corrupt = 0
        self._skip = 0
        self._drop = 0
        self._lock = threading.RLock()
        self._master = -1
        self._slave = -1
        self._tty = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = time.monotonic()

    # ---- plugging ------------------------------------------------------------------------
    @property
    def path(self) -> str:
        """Where the host should open the shoe: the link if there is one, else the tty."""
        return str(self.link) if self.link else self._tty

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    def start(self) -> "VirtualShoe":
        self.replug(restart=False)
        return self

    def replug(self, restart: bool = True) -> None:
        """Plug in (again). ``restart`` is a power cycle: numbering from 0 and an empty history."""
        self.unplug()
        with self._lock:
            master, slave = os.openpty()
            # Raw, so the line discipline neither echoes our frames back nor eats bytes.
            tty.setraw(slave)
            tty.setraw(master)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._tty = os.ttyname(slave)
            if self.link:
                tmp = self.link.with_name(self.link.name + ".new")
                tmp.unlink(missing_ok=True)
                tmp.symlink_to(self._tty)
                os.replace(tmp, self.link)
            if restart:
                self._seq = 0
                self._history.clear()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="virtual-shoe", daemon=True)
        self._thread.start()
        self.hello()

    def unplug(self) -> None:
        """Pull the cable: the host's port fails on its next read."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2)
        self._thread = None
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1
            if self.link:
                self.link.unlink(missing_ok=True)

    stop = unplug

    def __enter__(self) -> "VirtualShoe":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    # ---- what the shoe says ------------------------------------------------------------------
    def ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def prepare(self, kind: str, *fields: str) -> bytes:
        """Number and remember a frame without sending it (the caller sends it, perhaps in pieces)."""
        with self._lock:
            raw = dps1.encode_frame(self._seq, kind, *fields)
            self._history.append((self._seq, raw))
            self._seq = (self._seq + 1) % dps1.SEQ_MOD
            return raw

    def frame(self, kind: str, *fields: str) -> int:
        """Number, remember and send one frame (subject to the injected faults); returns its number."""
        with self._lock:
            seq = self._seq
            self._seq = (seq + 1) % dps1.SEQ_MOD
            raw = dps1.encode_frame(seq, kind, *fields)
            if self._drop:
                self._drop -= 1  # never sent, never kept: lost for good
                return seq
            self._history.append((seq, raw))
            if self._skip:
                self._skip -= 1  # kept, so RESEND recovers it
                return seq
            if self._corrupt:
                self._corrupt -= 1
                good = raw[-3:-1]
                bad = b"%02X" % (int(good, 16) ^ 0x5A)
                raw = raw[:-3] + bad + b"\n"
            self._send(raw)
            return seq

    def hello(self) -> int:
        return self.frame("HELLO", dps1.PROTOCOL_VERSION, self.firmware, self.shoe_id)

    def draw(self, card: str | Card | None = None) -> int:
        """A card leaves the shoe: ``"Ah"``, a tag ``"U:04A1B2C3"``, or None for unread."""
        token = "?" if card is None else dps1.check_card_token(str(card))
        return self.frame("DRAW", str(self.ms()), token)

    def heartbeat(self) -> int:
        return self.frame("HB", str(self.ms()))

    def fault(self, code: str, *extra: str) -> int:
        return self.frame("FAULT", str(self.ms()), code, *extra)

    def send_raw(self, data: bytes) -> None:
        """Bytes straight onto the line (garbage, split or joined frames)."""
        with self._lock:
            self._send(data)

    # ---- faults on purpose -------------------------------------------------------------------
    def garbage(self, n: int = 32, seed: int = 0) -> bytes:
        """``n`` random bytes on the line (line noise, a loose connector); returns them."""
        data = random.Random(seed).randbytes(n)
        self.send_raw(data)
        return data

    def corrupt_next(self, n: int = 1) -> None:
        """The next ``n`` frames go out with a wrong checksum (the history keeps them right)."""
        with self._lock:
            self._corrupt += n

    def skip_next(self, n: int = 1) -> None:
        """The next ``n`` frames are kept but not sent: a gap RESEND can fill."""
        with self._lock:
            self._skip += n

    def drop_next(self, n: int = 1) -> None:
        """The next ``n`` frames are neither sent nor kept: lost for good."""
        with self._lock:
            self._drop += n

    # ---- internals -------------------------------------------------------------------------
    def _send(self, data: bytes) -> None:
        if self._master < 0 or self.silent:
            return
        view = memoryview(data)
        deadline = time.monotonic() + self.write_timeout_s
        while view:
            try:
                n = os.write(self._master, view)
                view = view[n:]
            except BlockingIOError:
                # Nobody is reading: a UART would drop the bytes too, after a short wait.
                if time.monotonic() > deadline:
                    self.dropped_bytes += len(view)
                    return
                time.sleep(0.001)
            except OSError:
                return

    def _resend(self, from_seq: int) -> None:
        with self._lock:
            kept = list(self._history)
            if not kept:
                return
            newest = kept[-1][0]
            # Ask for a number within (or just before) what is kept: send from there; older is gone.
            back = dps1.seq_after(from_seq, newest)
            if back < 0:
                return
            for seq, raw in kept:
                if dps1.seq_after(from_seq, seq) >= 0:
                    self._send(raw)

    def _handle(self, cmd: dps1.Command) -> None:
        self.commands.append(cmd)
        if cmd.kind == "HELLO?":
            self.hello()
        elif cmd.kind == "RESEND" and self.answer_resend and len(cmd.fields) == 1 and cmd.fields[0].isdigit():
            self._resend(int(cmd.fields[0]) % dps1.SEQ_MOD)

    def _run(self) -> None:
        decoder = dps1.Decoder(sequenced=False)
        next_hb = time.monotonic() + self.heartbeat_s
        master = self._master
        while not self._stop.is_set():
            timeout = max(0.0, min(0.05, next_hb - time.monotonic()))
            try:
                ready, _, _ = select.select([master], [], [], timeout)
                data = os.read(master, 4096) if ready else b""
            except (OSError, ValueError):
                return
            for item in decoder.feed(data):
                if isinstance(item, dps1.Command):
                    self._handle(item)
            if self.heartbeat_s > 0 and time.monotonic() >= next_hb:
                next_hb = time.monotonic() + self.heartbeat_s
                if not self.silent:
                    self.heartbeat()
