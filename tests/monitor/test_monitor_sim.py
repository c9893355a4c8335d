"""The monitor against the simulated table: no false alarm on clean hands, every fault caught."""

from __future__ import annotations

import pytest

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
