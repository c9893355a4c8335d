"""The dealing monitor on simulated hands: false alarms, detection, cost per observation.

1. 10,000 clean simulated hands (the four profiles in turn): the number of alerts (want 0).
2. Every fault class injected 1,000 times at random moments: detected with the right
   rule ID and verdict (want all), and any other alert raised (want none).
3. Cost per observation of ``TableSession.feed`` (betting engine + monitor), median and
   p99 in microseconds, against two references measured in the same run on the same
   hands: the bare betting engine applying the same hands' entries, and a plain loop
   that only counts cards per zone in a dict. Ratios printed.

Run: ``PYTHONPATH=. python benchmarks/monitor_sim.py [--hands 10000] [--faults 1000]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_pi.engine.cards import Card
from dealer_pi.engine.events import ActionTaken, BoardDealt, HandShown
from dealer_pi.engine.hand import apply, start_hand
from dealer_pi.engine.monitor.alerts import AlertRaised
from dealer_pi.engine.observations import (
    CardSeen,
    DealerDeclaration,
    Declaration,
    Observation,
    PlayerAction,
    ShoeDraw,
)
from dealer_pi.engine.state import Phase
from dealer_pi.engine.table import finish_hand, new_table, next_hand
from dealer_pi.engine.table_session import TableSession, TableSetup
from dealer_pi.sim import Fault, Simulator
from dealer_pi.sim.check import Score, play

PROFILES = ("standard", "roberts", "house-pig", "online")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def clean(hands: int) -> tuple[Score, list[float], list[float], list[float]]:
    """Clean hands; returns the score and per-observation / per-entry timings (ns)."""
    total = Score()
    feed_ns: list[float] = []
    engine_ns: list[float] = []
    dict_ns: list[float] = []
    per_profile = hands // len(PROFILES)
    for i, profile in enumerate(PROFILES):
        for table in Simulator(seed=1000 + i, profile=profile).tables(per_profile):
            obs: list[Observation] = list(table.observations())
            session = TableSession(table.setup)
            alerts: list[AlertRaised] = []
            clock = time.perf_counter_ns
            for o in obs:
                t0 = clock()
                events = session.feed(o)
                feed_ns.append(clock() - t0)
                alerts.extend(e for e in events if isinstance(e, AlertRaised))
            total.hands += table.played
            total.observations += len(obs)
            total.false_alarms += alerts
            engine_ns += time_engine(table.setup, obs)
            dict_ns += time_dict(obs)
    return total, feed_ns, engine_ns, dict_ns


def time_engine(table_setup: TableSetup, obs: list[Observation]) -> list[float]:
    """The bare betting engine on the same observations of clean hands: actions applied,
    board cards grouped into streets, no monitor. Time per observation (ns)."""
    out: list[float] = []
    clock = time.perf_counter_ns
    sb, bb = table_setup.blinds
    table = new_table(table_setup.seats, sb, bb, button=table_setup.button, ante=table_setup.ante,
                      structure=table_setup.structure, profile=table_setup.rule_profile())
    nh = next_hand(table)
    state = start_hand(nh.started.setup, nh.started.profile)
    board: list[Card] = []
    shown: dict[int, list[Card]] = {}
    for o in obs:
        t0 = clock()
        if isinstance(o, PlayerAction):
            state = apply(state, ActionTaken(o.seat, o.action, o.amount))
        elif isinstance(o, CardSeen) and o.zone.kind == "board" and o.card is not None:
            board.append(o.card)
            if len(board) == (3 if state.street == 0 else 1):
                state = apply(state, BoardDealt(tuple(board)))
                board = []
        elif isinstance(o, CardSeen) and o.zone.seat is not None and o.face_up and o.card is not None:
            shown.setdefault(o.zone.seat, []).append(o.card)
            if len(shown[o.zone.seat]) == 2 and state.phase is Phase.SHOWDOWN:
                state = apply(state, HandShown(o.zone.seat, tuple(shown[o.zone.seat])))
        elif isinstance(o, DealerDeclaration) and o.declare is Declaration.NEW_HAND:
            shown = {}
            table = finish_hand(table, nh, state)
            nh = next_hand(table)
            state = start_hand(nh.started.setup, nh.started.profile)
        out.append(clock() - t0)
    return out


def time_dict(obs: list[Observation]) -> list[float]:
    """A plain loop that only counts cards per zone: the floor of any per-observation work."""
    out: list[float] = []
    counts: dict[str, int] = {}
    clock = time.perf_counter_ns
    for o in obs:
        t0 = clock()
        if isinstance(o, CardSeen):
            z = str(o.zone)
            counts[z] = counts.get(z, 0) + 1
        elif isinstance(o, ShoeDraw):
            counts["shoe"] = counts.get("shoe", 0) + 1
        out.append(clock() - t0)
    return out


def faults(n: int) -> dict[Fault, Score]:
    result: dict[Fault, Score] = {}
    for k, fault in enumerate(Fault):
        total = Score()
        i = 0
        while total.injected() < n:
            profile = PROFILES[i % len(PROFILES)]  # the profiles in turn, one table each
            sim = Simulator(seed=50_000 + 997 * k + i, profile=profile, faults=[fault], rate=1.0, players=(3, 9),
                            hands_per_table=10)
            i += 1
            total.add(play(sim.table()))
        result[fault] = total
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--faults", type=int, default=1_000)
    args = ap.parse_args()

    t0 = time.perf_counter()
    score, feed_ns, engine_ns, dict_ns = clean(args.hands)
    print(f"clean hands: {score.hands} hands, {score.observations} observations, "
          f"{len(score.false_alarms)} alerts (want 0)  [{time.perf_counter() - t0:.1f} s]")
    for a in score.false_alarms[:5]:
        print("   false alarm:", a)

    t0 = time.perf_counter()
    ok = len(score.false_alarms) == 0
    print(f"faults: each class injected {args.faults} times at random moments, profiles in turn")
    for fault, s in faults(args.faults).items():
        rules = sorted({(j.rule, j.verdict) for j in s.detected + s.missed})
        print(f"  {fault.value:16} injected {s.injected():5}  detected {len(s.detected):5}  missed {len(s.missed):3}"
              f"  other alerts {len(s.false_alarms):3}  as {', '.join(f'{r}/{v}' for r, v in rules)}")
        ok = ok and not s.missed and not s.false_alarms
    print(f"  [{time.perf_counter() - t0:.1f} s]")

    def us(ns: list[float], p: float | None = None) -> float:
        return (statistics.median(ns) if p is None else pct(ns, p)) / 1000

    print("cost per observation (us):")
    print(f"  TableSession.feed      median {us(feed_ns):7.2f}  p99 {us(feed_ns, 0.99):7.2f}  ({len(feed_ns)} observations)")
    print(f"  bare betting engine    median {us(engine_ns):7.2f}  p99 {us(engine_ns, 0.99):7.2f}  ({len(engine_ns)} observations)")
    print(f"  dict-update loop       median {us(dict_ns):7.2f}  p99 {us(dict_ns, 0.99):7.2f}")
    print(f"  ratio feed / bare engine: median {us(feed_ns) / us(engine_ns):.1f}x  p99 "
          f"{us(feed_ns, 0.99) / us(engine_ns, 0.99):.1f}x")
    print(f"  ratio feed / dict loop:   median {us(feed_ns) / us(dict_ns):.1f}x  p99 "
          f"{us(feed_ns, 0.99) / us(dict_ns, 0.99):.1f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
