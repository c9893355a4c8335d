"""The break-beam shoe on gpiozero's own MockFactory pins, pulsed like a real card passing."""

from __future__ import annotations

import random
import time
from typing import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from dealer_pi.engine.observations import ShoeDraw
from dealer_pi.hardware.gpio_shoe import BeamTiming, GpioShoe, MockBeam
from dealer_pi.hardware.problems import Problem, Reason

PIN = 17


class Clock:
    def __init__(self) -> None:
        self.ms = 10_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def make(factory: MockFactory, clock: Clock | None = None, **kw: object) -> tuple[GpioShoe, list[object]]:
    got: list[object] = []
    shoe = GpioShoe(PIN, pin_factory=factory, on_observation=got.append, on_problem=got.append,
                    clock_ms=clock or (lambda: int(time.monotonic() * 1000)), **kw)  # type: ignore[arg-type]
    return shoe, got


def card(factory: MockFactory, clock: Clock, dark_ms: int, then_clear_ms: int) -> None:
    pin = factory.pin(PIN)
    pin.drive_low()  # beam broken
    clock.ms += dark_ms
    pin.drive_high()
    clock.ms += then_clear_ms


def draws(got: list[object]) -> list[ShoeDraw]:
    return [g for g in got if isinstance(g, ShoeDraw)]


def problems(got: list[object], reason: Reason) -> list[Problem]:
    return [g for g in got if isinstance(g, Problem) and g.reason is reason]


def test_each_interruption_is_one_draw_with_its_time(factory: MockFactory) -> None:
    clock = Clock()
    shoe, got = make(factory, clock, watch_stuck=False)
    starts = []
    for dark in (30, 80, 150, 60):
        starts.append(clock.ms)
        card(factory, clock, dark, 300)
    assert [d.ts_ms for d in draws(got)] == starts
    assert all(d.card is None and d.source == "shoe:gpio" for d in draws(got))
    assert len(got) == 4 and shoe.draws == 4


def test_contact_bounce_and_glitches_are_debounced(factory: MockFactory) -> None:
    clock = Clock()
    shoe, got = make(factory, clock, watch_stuck=False)
    pin = factory.pin(PIN)
    # leading bounce: 2 ms dark, 1 ms light, then the card
    card(factory, clock, 2, 1)
    card(factory, clock, 70, 1)
    # trailing bounce after the card, then a stray 5 ms glitch much later
    card(factory, clock, 3, 400)
    card(factory, clock, 5, 400)
    assert len(draws(got)) == 1 and shoe.noise == 3
    assert got == draws(got)  # no double-draw complaint from the bounce
    assert pin.state is True


def test_DEAL_DECK_second_card_too_soon_is_a_possible_double_draw(factory: MockFactory) -> None:
    clock = Clock()
    shoe, got = make(factory, clock, watch_stuck=False)
    card(factory, clock, 60, 40)  # 40 ms gap < min_gap_ms 120
    card(factory, clock, 60, 500)
    assert len(draws(got)) == 2
    (p,) = problems(got, Reason.DOUBLE_DRAW)
    assert "40 ms after the previous one" in p.detail


def test_DEAL_DECK_beam_dark_too_long_is_a_possible_double_draw(factory: MockFactory) -> None:
    clock = Clock()
    shoe, got = make(factory, clock, watch_stuck=False)
    card(factory, clock, 650, 500)
    assert len(draws(got)) == 1
    (p,) = problems(got, Reason.DOUBLE_DRAW)
    assert "650 ms" in p.detail


def test_beam_that_never_clears_is_a_sensor_fault_reported_once(factory: MockFactory) -> None:
    clock = Clock()
    shoe, got = make(factory, clock, watch_stuck=False)
    factory.pin(PIN).drive_low()
    clock.ms += 1999
    shoe.check()
    assert got == []
    clock.ms += 1
    shoe.check()
    shoe.check()
    (fault,) = problems(got, Reason.SENSOR_FAULT)
    assert "2000 ms" in fault.detail
    clock.ms += 5000
    factory.pin(PIN).drive_high()
    assert draws(got) == []  # the dark spell is not a card
    assert problems(got, Reason.SENSOR_RECOVERED)
    clock.ms += 500
    card(factory, clock, 60, 300)
    assert len(draws(got)) == 1


def test_thresholds_come_from_the_timing(factory: MockFactory) -> None:
    clock = Clock()
    shoe, got = make(factory, clock, watch_stuck=False,
                     timing=BeamTiming(min_card_ms=50, max_card_ms=100, min_gap_ms=10, stuck_ms=500))
    card(factory, clock, 40, 20)  # noise now
    card(factory, clock, 90, 20)  # a card, gap 20 + 40 ms fine at min_gap 10
    card(factory, clock, 120, 20)  # too long at max 100
    assert len(draws(got)) == 2 and len(problems(got, Reason.DOUBLE_DRAW)) == 1
    with pytest.raises(ValueError, match="min_card_ms < max_card_ms"):
        BeamTiming(min_card_ms=200, max_card_ms=100)


def test_sensor_wired_active_high(factory: MockFactory) -> None:
    shoe, got = make(factory, blocked_low=False)
    beam = MockBeam(factory.pin(PIN), blocked_low=False)
    assert factory.pin(PIN).state is False  # pulled down: beam clear
    beam.card(0.05)
    assert len(draws(got)) == 1


def test_fast_dealer_real_time_pulses_count_every_card(factory: MockFactory) -> None:
    """Real sleeps: 2-3 cards a second, each 30-150 ms in the beam, the stuck-beam timer live."""
    shoe, got = make(factory)
    n = 12
    beam = MockBeam(factory.pin(PIN), rnd=random.Random(7))
    beam.deal(n)
    assert len(draws(got)) == n
    # A loaded machine may stretch a sleep past a threshold; only then may the shoe complain.
    dark = [b - a for a, b in beam.passes]
    light = [b[0] - a[1] for a, b in zip(beam.passes, beam.passes[1:])]
    stretched = any(d > 0.395 for d in dark) or any(g < 0.125 for g in light)
    doubles = problems(got, Reason.DOUBLE_DRAW)
    assert [g for g in got if isinstance(g, Problem) and g.reason is not Reason.DOUBLE_DRAW] == []
    if not stretched:
        assert doubles == [], (dark, light, doubles)
    gaps = [b.ts_ms - a.ts_ms for a, b in zip(draws(got), draws(got)[1:])]
    assert all(330 <= g < 1000 for g in gaps), gaps  # sleeps overrun under load, never underrun
    shoe.close()


def test_stuck_beam_timer_fires_in_real_time(factory: MockFactory) -> None:
    shoe, got = make(factory, timing=BeamTiming(min_card_ms=20, max_card_ms=150, min_gap_ms=50, stuck_ms=300))
    factory.pin(PIN).drive_low()
    deadline = time.monotonic() + 3
    while not problems(got, Reason.SENSOR_FAULT) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert problems(got, Reason.SENSOR_FAULT)
    shoe.close()


def test_a_failing_receiver_does_not_stop_the_count(factory: MockFactory) -> None:
    clock = Clock()
    got: list[object] = []

    def flaky(obs: object) -> None:
        if not got:
            got.append("boom")
            raise RuntimeError("queue full")
        got.append(obs)

    shoe = GpioShoe(PIN, pin_factory=factory, on_observation=flaky, clock_ms=clock, watch_stuck=False)
    card(factory, clock, 60, 400)
    card(factory, clock, 60, 400)
    assert len(draws(got)) == 1 and shoe.draws == 2
