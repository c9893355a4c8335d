"""Latency from an observation entering the engine queue to its event arriving at SSE clients.

A real waitress server on 127.0.0.1 with the real runtime (journal on disk,
WAL, synchronous=FULL), 50 connected producer (live view) clients reading the stream, so hole cards and
equities are in it.
For each observation that causes events, the time from just before it is put
on the queue to the moment each client has read its first event is recorded.

References measured in the same run: the same path with a single client, and
a bare hand-off through a ``queue.Queue`` between two threads (the floor that
any threaded design pays). Prints median and p99 of each and the ratios.

    python benchmarks/sse_latency.py [--clients 50] [--hands 12]
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_pi.config import config_from_dict  # noqa: E402
from dealer_pi.engine.cards import FULL_DECK  # noqa: E402
from dealer_pi.engine.observations import observation_from_dict  # noqa: E402
from dealer_pi.runtime.engine_thread import Runtime  # noqa: E402
from dealer_pi.web.app import create_app  # noqa: E402
from dealer_pi.web.auth import AuditLog  # noqa: E402
from dealer_pi.web.server import Server  # noqa: E402

TOKEN = "bench-producer"  # the producer's live view: hole cards and equities in the stream
SETUP = {"blinds": [5, 10], "seats": {"1": 1000, "2": 1000, "3": 1000}, "button": 1}


def one_hand() -> list[dict[str, Any]]:
    """A hand up to the river's betting: deal, call, check it down (every action causes events)."""
    deck = [str(c) for c in FULL_DECK]
    out: list[dict[str, Any]] = []
    for _ in range(2):
        for seat in (2, 3, 1):
            out += [{"type": "shoe_draw", "card": deck.pop(0)},
                    {"type": "card_seen", "zone": f"seat:{seat}", "face_up": False, "card": None}]
    out += [{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
            {"type": "action", "seat": 3, "action": "check"}]
    for n in (3, 1, 1):
        out += [{"type": "shoe_draw", "card": deck.pop(0)}, {"type": "card_seen", "zone": "burn", "face_up": False, "card": None}]
        for _ in range(n):
            c = deck.pop(0)
            out += [{"type": "shoe_draw", "card": c}, {"type": "card_seen", "zone": "board", "face_up": True, "card": c}]
        out += [{"type": "action", "seat": s, "action": "check"} for s in (2, 3, 1)]
    return out


def client_process(port: int, n: int, conn: Any) -> None:
    """``n`` SSE clients in one process (like browsers: not sharing the server's interpreter lock).

    One selector thread reads every socket; arrival times use ``time.perf_counter``,
    the system-wide monotonic clock, so they compare with the server process's.
    """
    socks = []
    sel = selectors.DefaultSelector()
    request = (f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode()
    for i in range(n):
        # One loopback address each, like the tablets and screens they stand for (the server lets one
        # address hold only so many connections).
        s = socket.create_connection(("127.0.0.1", port), source_address=(f"127.0.{3 + i // 250}.{i % 250 + 1}", 0))
        s.sendall(request)
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, i)
        socks.append(s)
    buf = [b""] * n
    arrivals: list[dict[int, float]] = [{} for _ in range(n)]
    ready = [False] * n
    while True:
        if conn.poll():
            msg = conn.recv()
            if msg == "stop":
                break
        for key, _ in sel.select(timeout=0.05):
            i = key.data
            try:
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            now = time.perf_counter()
            buf[i] += data
            while b"\n\n" in buf[i]:
                block, buf[i] = buf[i].split(b"\n\n", 1)
                ident, event = None, ""
                for line in block.split(b"\n"):
                    if line.startswith(b"id: "):
                        ident = int(line[4:])
                    elif line.startswith(b"event: "):
                        event = line[7:].decode()
                if event == "state" and not ready[i]:
                    ready[i] = True
                    if all(ready):
                        conn.send("ready")
                if event == "table" and ident is not None:
                    arrivals[i].setdefault(ident, now)
    conn.send(arrivals)
    for s in socks:
        s.close()


def run_path(n_clients: int, hands: int, tmp: Path) -> list[float]:
    rt = Runtime(tmp / f"journal-{n_clients}.sqlite3", SETUP, stream_delay_s=300).start()
    config = config_from_dict({"web": {"dealer_token": "bench-dealer", "producer_token": TOKEN,
                                       "audit_log": str(tmp / "audit.log")}})
    server = Server(create_app(config, rt, audit=AuditLog(tmp / "audit.log")), port=0, threads=n_clients + 16).start()
    here, there = multiprocessing.Pipe()
    proc = multiprocessing.get_context("fork").Process(target=client_process, args=(server.port, n_clients, there))
    proc.start()
    assert here.poll(60) and here.recv() == "ready", "the clients never got their first state"
    sent: dict[int, float] = {}
    for h in range(hands):
        if h:
            rt.submit("setup", {"setup": SETUP, "void_hand": True})
        for body in one_hand():
            obs = observation_from_dict(body)
            t0 = time.perf_counter()
            result = rt.submit("observation", obs)
            for ev in result["events"]:
                sent[ev["id"]] = t0
            time.sleep(0.004)  # a table's pace is far slower; this only keeps batches apart
    time.sleep(2)
    here.send("stop")
    arrivals: list[dict[int, float]] = here.recv()
    proc.join(10)
    latencies = []
    for got in arrivals:
        missing = set(sent) - set(got)
        assert not missing, f"a client missed events {sorted(missing)[:5]} of {len(sent)}"
        # an observation's latency is until its first event arrived
        first: dict[float, float] = {}
        for ident, t0 in sent.items():
            first[t0] = min(first.get(t0, float("inf")), got[ident])
        latencies += [(arr - t0) * 1000 for t0, arr in first.items()]
    rt.stop()
    server.close()
    return latencies


def bare_handoff(n: int) -> list[float]:
    q: queue.Queue[float] = queue.Queue()
    out: list[float] = []
    done = threading.Event()

    def consumer() -> None:
        for _ in range(n):
            t0 = q.get()
            out.append((time.perf_counter() - t0) * 1000)
        done.set()

    threading.Thread(target=consumer, daemon=True).start()
    for _ in range(n):
        q.put(time.perf_counter())
        time.sleep(0.002)
    done.wait(30)
    return out


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--hands", type=int, default=6)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        one = run_path(1, args.hands, tmp)
        many = run_path(args.clients, args.hands, tmp)
    bare = bare_handoff(500)
    rows = [("bare queue hand-off", bare), ("queue -> journal -> SSE, 1 client", one),
            (f"queue -> journal -> SSE, {args.clients} clients", many)]
    print(f"{'path':<40} {'n':>6} {'median ms':>10} {'p99 ms':>10}")
    for name, v in rows:
        print(f"{name:<40} {len(v):>6} {statistics.median(v):>10.3f} {pct(v, 99):>10.3f}")
    print(f"ratio {args.clients} clients / 1 client: median {statistics.median(many) / statistics.median(one):.2f}x, "
          f"p99 {pct(many, 99) / pct(one, 99):.2f}x")
    print(f"ratio {args.clients} clients / bare hand-off: median {statistics.median(many) / statistics.median(bare):.0f}x")
    print(f"aim: p99 under 50 ms with {args.clients} clients: {'met' if pct(many, 99) < 50 else 'NOT met'} ({pct(many, 99):.1f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
