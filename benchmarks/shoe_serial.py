"""Smart-shoe reading speed over a real pseudo-terminal, against a plain readline loop.

Measures, for dealer-pi's reader (checksums, resync, sequencing, observations)
and for a reference that only does ``readline()`` and ``split(b",")``:

* throughput: frames per second when a burst of DRAW frames is written at once;
* latency: from the moment the last byte of a frame is written to the moment
  its observation is on the queue (median and p99), frames sent one by one.

Two references, measured in the same run: pyserial's ``readline()`` (what a
first attempt looks like; it reads byte by byte) and a buffered read with
``split(b"\\n")``; neither checks anything, so the second ratio is the price of
the checking.
Run: ``python benchmarks/shoe_serial.py [--frames N] [--samples N]``.
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import serial  # noqa: E402

from dealer_pi.engine.cards import FULL_DECK  # noqa: E402
from dealer_pi.hardware.serial_shoe import LinkState, SerialShoe  # noqa: E402
from dealer_pi.hardware.virtual_shoe import VirtualShoe  # noqa: E402

Timed = tuple[Any, float]


class DealerPiReader:
    name = "dealer-pi SerialShoe"

    def __init__(self, path: str, q: "queue.Queue[Timed]") -> None:
        connected = threading.Event()
        self.shoe = SerialShoe(path, on_observation=lambda o: q.put((o, time.perf_counter())),
                               on_state=lambda s, why: connected.set() if s is LinkState.CONNECTED else None,
                               heartbeat_timeout_ms=600_000)
        self.shoe.start()
        if not connected.wait(10):
            raise RuntimeError("the shoe did not connect")

    def close(self) -> None:
        self.shoe.stop()


class ReadlineReader:
    """The reference: what a first attempt at reading the shoe would look like."""

    name = "readline + split"

    def __init__(self, path: str, q: "queue.Queue[Timed]") -> None:
        self.port = serial.Serial(path, 115200, timeout=0.05)
        self.stop = threading.Event()

        def run() -> None:
            while not self.stop.is_set():
                line = self.port.readline()
                if line.startswith(b"$"):
                    parts = line[1:line.rfind(b"*")].split(b",")
                    if len(parts) >= 2 and parts[1] == b"DRAW":
                        q.put((parts, time.perf_counter()))

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        self.port.close()


class BufferedSplitReader(ReadlineReader):
    """A stronger reference: read what is waiting, split lines, no checks at all."""

    name = "buffered read + split"

    def __init__(self, path: str, q: "queue.Queue[Timed]") -> None:
        self.port = serial.Serial(path, 115200, timeout=0.05)
        self.stop = threading.Event()

        def run() -> None:
            pending = b""
            while not self.stop.is_set():
                pending += self.port.read(max(1, self.port.in_waiting))
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    parts = line[1:line.rfind(b"*")].split(b",")
                    if len(parts) >= 2 and parts[1] == b"DRAW":
                        q.put((parts, time.perf_counter()))

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()


def drain(q: "queue.Queue[Timed]") -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return


def measure(make: Callable[[str, "queue.Queue[Timed]"], Any], frames: int, samples: int) -> dict[str, float]:
    q: "queue.Queue[Timed]" = queue.Queue()
    with VirtualShoe(heartbeat_s=0) as shoe:
        shoe.write_timeout_s = 60
        reader = make(shoe.path, q)
        try:
            time.sleep(0.2)
            drain(q)
            cards = [str(c) for c in FULL_DECK]
            burst = b"".join(shoe.prepare("DRAW", str(i), cards[i % 52]) for i in range(frames))
            t0 = time.perf_counter()
            shoe.send_raw(burst)
            last = t0
            for _ in range(frames):
                _, last = q.get(timeout=60)
            rate = frames / (last - t0)
            delays = []
            for i in range(samples):
                raw = shoe.prepare("DRAW", str(frames + i), cards[i % 52])  # the shoe's clock goes on
                shoe.send_raw(raw)
                written = time.perf_counter()  # the last byte has been handed to the tty
                _, seen = q.get(timeout=10)
                delays.append((seen - written) * 1000)
                time.sleep(0.002)
        finally:
            reader.close()
    delays.sort()
    return {"rate": rate, "median_ms": statistics.median(delays), "p99_ms": delays[int(len(delays) * 0.99) - 1]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--samples", type=int, default=400)
    args = ap.parse_args()
    print(f"pseudo-terminal, {args.frames} frames in one burst, {args.samples} single frames for latency; "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cpu")
    ours = measure(DealerPiReader, args.frames, args.samples)
    refs = [(cls.name, measure(cls, args.frames, args.samples)) for cls in (ReadlineReader, BufferedSplitReader)]
    for name, r in [(DealerPiReader.name, ours)] + refs:
        print(f"{name:<22} {r['rate']:>10,.0f} frames/s   latency median {r['median_ms']:.3f} ms   "
              f"p99 {r['p99_ms']:.3f} ms")
    for name, ref in refs:
        print(f"ratio dealer-pi / {name}: throughput {ours['rate'] / ref['rate']:.2f}x, median latency "
              f"{ours['median_ms'] / ref['median_ms']:.2f}x, p99 latency {ours['p99_ms'] / ref['p99_ms']:.2f}x")
    print(f"a fast dealer draws 3 cards/s: dealer-pi keeps up with {ours['rate'] / 3:,.0f} such dealers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
