"""Play simulated tables through a real :class:`TableSession` and score the monitor.

An injected fault is *detected* when an alert with its rule ID and verdict was
raised at the observation that showed it; any other alert is a false alarm.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dealer_pi.engine.monitor.alerts import AlertRaised
from dealer_pi.engine.table_session import TableSession

from .faults import Fault
from .table import Injection, SimTable


@dataclass
class Score:
    hands: int = 0
    observations: int = 0
    detected: list[Injection] = field(default_factory=list)
    missed: list[Injection] = field(default_factory=list)
    false_alarms: list[AlertRaised] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.hands += other.hands
        self.observations += other.observations
        self.detected += other.detected
        self.missed += other.missed
        self.false_alarms += other.false_alarms

    def injected(self, fault: Fault | None = None) -> int:
        return sum(1 for j in self.detected + self.missed if fault is None or j.fault is fault)


def play(table: SimTable) -> Score:
    """Feed one simulated table to a fresh session; every observation must be accepted."""
    session = TableSession(table.setup)
    alerts: list[AlertRaised] = []
    n = 0
    for obs in table.observations():
        alerts.extend(e for e in session.feed(obs) if isinstance(e, AlertRaised))
        n += 1
    return score(table.injections, alerts, table.played, n)


def score(injections: Iterable[Injection], alerts: Iterable[AlertRaised], hands: int, observations: int) -> Score:
    raised = {(a.at, a.rule, a.verdict.value): a for a in alerts}
    s = Score(hands, observations)
    for j in injections:
        (s.detected if raised.pop((j.at, j.rule, j.verdict), None) else s.missed).append(j)
    s.false_alarms = list(raised.values())
    return s


def play_all(tables: Iterable[SimTable]) -> Score:
    total = Score()
    for t in tables:
        total.add(play(t))
    return total
