"""The monitor against the simulated table: no false alarm on clean hands, every fault caught."""

from __future__ import annotations

import pytest

from dealer_pi.engine.events import HandShown
from dealer_pi.engine.monitor.alerts import AlertRaised, ProcedureCompleted, Verdict
from dealer_pi.engine.observations import DealerDeclaration, Declaration
from dealer_pi.engine.table_session import TableSession
from dealer_pi.sim import Fault, Simulator
from dealer_pi.sim.check import play, play_all

PROFILES = ("standard", "roberts", "house-pig", "online")


@pytest.mark.parametrize("profile", PROFILES)
def test_DEAL_clean_hands_raise_no_alert(profile: str) -> None:
    score = play_all(Simulator(seed=11, profile=profile).tables(75))
    assert score.hands >= 75
    assert score.false_alarms == []
    assert score.injected() == 0


@pytest.mark.parametrize("fault", list(Fault), ids=[f.value for f in Fault])
def test_DEAL_every_fault_class_is_detected_with_its_rule_and_verdict(fault: Fault) -> None:
    """30 injections per fault class, spread over the four profiles."""
    total = 0
    for i, profile in enumerate(PROFILES):
        sim = Simulator(seed=100 + i, profile=profile, faults=[fault], rate=1.0, players=(3, 9))
        while True:
            score = play(sim.table())
            assert score.missed == [], score.missed[:3]
            assert score.false_alarms == [], score.false_alarms[:3]
            total += score.injected()
            if total >= 30 * (i + 1) // len(PROFILES):
                break
    assert total >= 30


def test_DEAL_simulator_is_deterministic() -> None:
    a = next(Simulator(seed=4, faults=list(Fault), rate=1.0, players=(4, 9)).tables(30))
    b = next(Simulator(seed=4, faults=list(Fault), rate=1.0, players=(4, 9)).tables(30))
    assert list(a.observations()) == list(b.observations())
    assert a.injections == b.injections and a.injections


def test_DEAL_simulator_without_a_reading_shoe_still_plays_clean() -> None:
    score = play_all(Simulator(seed=5, shoe_reads=False).tables(40))
    assert score.false_alarms == [] and score.hands >= 40


PROCEDURES = [
    (Fault.HOLE_EXPOSED, "roberts"), (Fault.EXTRA_HOLE, "roberts"), (Fault.FLOP_EXTRA, "standard"),
    (Fault.FLOP_NO_BURN, "house-pig"), (Fault.BOARD_EXTRA, "online"), (Fault.BOARD_NO_BURN, "standard"),
    (Fault.TURN_EARLY, "roberts"), (Fault.RIVER_EARLY, "roberts"),
]


@pytest.mark.parametrize("fault, profile", PROCEDURES, ids=[f"{f.value}-{p}" for f, p in PROCEDURES])
def test_DEAL_correction_is_tracked_to_its_end(fault: Fault, profile: str) -> None:
    """Each correction the simulated dealer carries out ends in ProcedureCompleted before the
    showdown; hands that end by a fold first may leave it unfinished (nothing left to deal)."""
    completed = 0
    for table in Simulator(seed=31, profile=profile, faults=[fault], rate=1.0, players=(3, 9)).tables(40):
        session = TableSession(table.setup)
        open_procedures: set[str] = set()
        for obs in table.observations():
            for e in session.feed(obs):
                if isinstance(e, AlertRaised) and e.verdict is Verdict.IRREGULARITY:
                    open_procedures.add(e.alert_id)
                elif isinstance(e, ProcedureCompleted):
                    open_procedures.discard(e.alert_id)
                    completed += 1
                elif isinstance(e, HandShown):
                    assert not open_procedures, "a correction was left unfinished at the showdown"
            if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND:
                open_procedures.clear()
    assert completed >= 3


@pytest.mark.parametrize("structure", ["limit", "pot-limit"])
def test_DEAL_monitor_is_the_same_under_every_betting_structure(structure: str) -> None:
    clean = play_all(Simulator(seed=3, structure=structure).tables(60))
    assert clean.hands >= 60 and clean.false_alarms == []
    faulty = play_all(Simulator(seed=4, structure=structure, faults=list(Fault), rate=0.5).tables(60))
    assert faulty.injected() >= 15 and faulty.missed == [] and faulty.false_alarms == []
