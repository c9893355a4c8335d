"""The dealer's action latency while the server is under attack, against the same with no attack.

A real waitress server on 127.0.0.1 with the real runtime (journal on disk, WAL,
synchronous=FULL); the dealer's tablet holds its event stream open and enters a
simulated table's hands one observation at a time (POST /api/observations, a
new connection each, as a tablet on Wi-Fi does). Each POST's time is recorded.

The attack, all on loopback (source addresses from 127.0.0.0/8 to look like many
machines): 150 connections that each send a request line and one header and
never finish, and 120 public event streams asked for (the server grants its
share and turns the rest away).

The reference, in the same run: the same POSTs with no attack, measured before
and after the attacked phase (half each), so drift of the machine hits both.
Prints median, p99 and worst of each phase and the ratio of the p99s.

    python benchmarks/load.py [--actions 400] [--half-open 150] [--streams 120]
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "api"))  # the attacking clients, shared with the tests

import attack as A  # noqa: E402

from dealer_pi.config import config_from_dict  # noqa: E402
from dealer_pi.engine.observations import observation_to_dict  # noqa: E402
from dealer_pi.runtime.engine_thread import Runtime  # noqa: E402
from dealer_pi.sim import Simulator  # noqa: E402
from dealer_pi.web.app import create_app  # noqa: E402
from dealer_pi.web.auth import AuditLog  # noqa: E402
from dealer_pi.web.server import Server  # noqa: E402

DEALER, PRODUCER = "bench-dealer-token", "bench-producer-token"
AIM_MS = 250.0


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def actions(n: int, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A simulated table's setup and at least ``n`` of its observations, as the tablet posts them."""
    hands = 4
    while True:
        table = Simulator(seed, hands_per_table=hands).table()
        obs = [observation_to_dict(o) for o in table.observations()]
        if len(obs) >= n:
            return table.setup.to_dict(), obs[:n]
        hands *= 2


def run(port: int, todo: list[dict[str, Any]]) -> list[float]:
    """Post each observation; the milliseconds each took (a refusal by the rules still counts: answered)."""
    times = []
    for body in todo:
        status, seconds = A.post(port, DEALER, body, timeout=30)
        assert status in (200, 400, 409), status
        times.append(seconds * 1000)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=400, help="dealer POSTs in each of the two phases (default 400)")
    ap.add_argument("--half-open", type=int, default=150, help="connections left half-sent (default 150)")
    ap.add_argument("--streams", type=int, default=120, help="public event streams asked for (default 120)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    setup, todo = actions(2 * args.actions, args.seed)
    with tempfile.TemporaryDirectory(prefix="dealer-pi-load-") as tmp, ExitStack() as stack:
        base = Path(tmp)
        config = config_from_dict({"web": {"dealer_token": DEALER, "producer_token": PRODUCER,
                                           "audit_log": str(base / "audit.log")}})
        rt = Runtime(base / "journal.sqlite3", setup, stream_delay_s=300).start()
        stack.callback(rt.stop)
        # The attack must outlast the measurement: a long timeout for half-sent requests here only.
        server = Server(create_app(config, rt, audit=AuditLog(base / "audit.log")), port=0,
                        request_timeout_s=3600).start()
        stack.callback(server.close)
        tablet = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        tablet.request("GET", "/api/events", headers={"Authorization": f"Bearer {DEALER}"})
        assert tablet.getresponse().status == 200
        stack.callback(tablet.close)

        half = args.actions // 2
        quiet = run(server.port, todo[:half])
        with ExitStack() as attack:
            t0 = time.perf_counter()
            hanging = A.half_open(server.port, args.half_open, addresses=10, stack=attack)
            statuses = A.open_streams(server.port, args.streams, per_address=4, stack=attack)
            opened = time.perf_counter() - t0
            attacked = run(server.port, todo[half:half + args.actions])
            still = sum(A.still_open(s) for s in hanging)
        quiet += run(server.port, todo[half + args.actions:])

    print(f"attack: {args.half_open} half-sent requests ({still} still open at the end), {args.streams} public "
          f"streams asked for ({statuses.count(200)} granted, {len(statuses) - statuses.count(200)} turned away), "
          f"opened in {opened:.1f} s")
    print(f"{'dealer POST /api/observations':<34} {'n':>5} {'median ms':>10} {'p99 ms':>8} {'worst ms':>9}")
    for name, v in (("no attack (before and after)", quiet), ("under attack", attacked)):
        print(f"{name:<34} {len(v):>5} {statistics.median(v):>10.1f} {pct(v, 99):>8.1f} {max(v):>9.1f}")
    p99 = pct(attacked, 99)
    print(f"ratio under attack / no attack: median {statistics.median(attacked) / statistics.median(quiet):.2f}x, "
          f"p99 {p99 / pct(quiet, 99):.2f}x")
    print(f"aim: p99 under {AIM_MS:.0f} ms under attack: {'met' if p99 < AIM_MS else 'NOT met'} ({p99:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
