"""Dealer buttons, alert light and buzzer on gpiozero's MockFactory (PWM mock pins for the RGB LED)."""

from __future__ import annotations

import time
from typing import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dealer_pi.engine.observations import AlertDecision, DealerDeclaration, Decision, Declaration
from dealer_pi.hardware.controls import SIGNALS, AlertSignals, DealerButtons, Pattern
from dealer_pi.hardware.problems import Problem, Reason

R, G, B, BUZ = 22, 23, 24, 18
NEW, MIS, CONF = 5, 6, 13
def about(dur: float, expected: float) -> bool:
    """gpiozero's blink threads wait on timers: late under load, never early."""
    return expected - 0.03 <= dur <= expected + 0.25


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


def signals(factory: MockFactory, **kw: str) -> AlertSignals:
    return AlertSignals(red=R, green=G, blue=B, buzzer=BUZ, pin_factory=factory, **kw)


def run(factory: MockFactory, sig: AlertSignals, pattern: Pattern, seconds: float) -> None:
    for pin in (R, G, B, BUZ):
        factory.pin(pin).clear_states()
    sig.show(pattern)
    time.sleep(seconds)


def levels(factory: MockFactory, pin: int) -> list[float]:
    return [float(s.state) for s in factory.pin(pin).states]


def durations(factory: MockFactory, pin: int) -> list[tuple[float, float]]:
    """(level, how long it lasted) for each completed level after the first change."""
    st = factory.pin(pin).states
    return [(float(a.state), b.timestamp) for a, b in zip(st[1:], st[2:])]


def test_every_pattern_is_distinct_in_light_and_sound() -> None:
    looks = {(s.color, s.off_color, s.blink) for s in SIGNALS.values()}
    sounds = {s.beeps for s in SIGNALS.values() if s.beeps[2]}
    assert len(looks) == len(Pattern)
    assert len(sounds) == 3  # uncertain, irregularity, misdeal each sound different; ok and off are silent
    singles = {repr(s.single_led) for p, s in SIGNALS.items() if p is not Pattern.OK}
    assert len(singles) == 4


def test_irregularity_fast_red_blink_and_three_beeps(factory: MockFactory) -> None:
    sig = signals(factory)
    run(factory, sig, Pattern.IRREGULARITY, 1.2)
    red = durations(factory, R)
    assert len(red) >= 4
    for level, dur in red[:4]:
        assert level in (0.0, 1.0) and about(dur, 0.15), red
    assert set(levels(factory, G)) == {0.0} and set(levels(factory, B)) == {0.0}
    assert levels(factory, BUZ) == [0, 1, 0, 1, 0, 1, 0]
    for _, dur in durations(factory, BUZ):
        assert about(dur, 0.12)
    sig.close()


def test_misdeal_red_blue_alternating_and_two_long_tones(factory: MockFactory) -> None:
    sig = signals(factory)
    run(factory, sig, Pattern.MISDEAL, 2.4)
    red, blue = levels(factory, R), levels(factory, B)
    assert red[:4] == [0.0, 1.0, 0.0, 1.0] and blue[:4] == [0.0, 1.0, 0.0, 1.0]
    # when red is lit blue is dark and the other way round
    assert abs(factory.pin(R).state - (1 - factory.pin(B).state)) < 1e-9
    assert set(levels(factory, G)) == {0.0}
    assert levels(factory, BUZ) == [0, 1, 0, 1, 0]
    (on1, d1), (off1, d2), (on2, d3) = durations(factory, BUZ)
    assert (on1, off1, on2) == (1.0, 0.0, 1.0)
    assert about(d1, 0.8) and about(d2, 0.3) and about(d3, 0.8)
    sig.close()


def test_uncertain_slow_amber_blink_and_one_chirp(factory: MockFactory) -> None:
    sig = signals(factory)
    run(factory, sig, Pattern.UNCERTAIN, 1.2)
    assert levels(factory, R)[:3] == [0.0, 1.0, 0.0]
    assert levels(factory, G)[:3] == [0.0, 0.45, 0.0]
    assert set(levels(factory, B)) == {0.0}
    (level, dur) = durations(factory, R)[0]
    assert level == 1.0 and about(dur, 0.5)
    assert levels(factory, BUZ) == [0, 1, 0]
    sig.close()


def test_ok_is_steady_dim_green_and_silent_and_off_is_dark(factory: MockFactory) -> None:
    sig = signals(factory)
    run(factory, sig, Pattern.IRREGULARITY, 0.1)
    run(factory, sig, Pattern.OK, 0.5)
    assert (factory.pin(R).state, factory.pin(G).state, factory.pin(B).state) == (0.0, 0.25, 0.0)
    assert len(factory.pin(G).states) <= 2  # set once, no blinking
    assert factory.pin(BUZ).state == 0
    sig.show("off")
    assert (factory.pin(R).state, factory.pin(G).state, factory.pin(B).state) == (0.0, 0.0, 0.0)
    sig.close()


def test_showing_the_same_pattern_again_does_not_beep_again(factory: MockFactory) -> None:
    sig = signals(factory)
    run(factory, sig, Pattern.UNCERTAIN, 0.3)
    sig.show(Pattern.UNCERTAIN)
    time.sleep(0.3)
    assert levels(factory, BUZ) == [0, 1, 0]
    sig.close()


def test_single_colour_led_patterns(factory: MockFactory) -> None:
    sig = signals(factory, led_kind="single", buzzer_kind="none")
    run(factory, sig, Pattern.MISDEAL, 0.4)
    assert levels(factory, R) == [0, 1]
    run(factory, sig, Pattern.IRREGULARITY, 0.7)
    assert len(levels(factory, R)) >= 4
    run(factory, sig, Pattern.OK, 0.1)
    assert factory.pin(R).state == 0
    with pytest.raises(ValueError, match="led_kind"):
        AlertSignals(red=R, led_kind="disco", pin_factory=factory)
    sig.close()


# ---- buttons ------------------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.ms = 1000

    def __call__(self) -> int:
        return self.ms


def buttons(factory: MockFactory, **kw: object) -> tuple[DealerButtons, list[object], Clock]:
    got: list[object] = []
    clock = Clock()
    b = DealerButtons(new_hand=NEW, misdeal=MIS, confirm=CONF, pin_factory=factory, on_observation=got.append,
                      on_problem=got.append, clock_ms=clock, **kw)  # type: ignore[arg-type]
    return b, got, clock


def press(factory: MockFactory, pin: int, hold_s: float = 0.0) -> None:
    factory.pin(pin).drive_low()
    if hold_s:
        time.sleep(hold_s)
    factory.pin(pin).drive_high()


def test_new_hand_button_declares_a_new_hand_once_despite_contact_bounce(factory: MockFactory) -> None:
    b, got, clock = buttons(factory)
    for _ in range(4):  # chatter within a few ms
        press(factory, NEW)
        clock.ms += 3
    assert got == [DealerDeclaration(Declaration.NEW_HAND, "button", 1000)]
    clock.ms += 500
    press(factory, NEW)
    assert len(got) == 2 and got[1].ts_ms == 1512  # type: ignore[attr-defined]
    b.close()


def test_DEAL_MISDEAL_REMEDY_misdeal_needs_a_hold_not_a_brush(factory: MockFactory) -> None:
    b, got, _ = buttons(factory, misdeal_hold_ms=400)
    press(factory, MIS, hold_s=0.03)
    time.sleep(0.5)
    assert got == []
    press(factory, MIS, hold_s=0.8)
    assert got == [DealerDeclaration(Declaration.MISDEAL, "button", 1000)]
    b.close()


def test_confirm_applies_to_the_newest_open_alert(factory: MockFactory) -> None:
    open_alerts: list[str] = []
    b, got, clock = buttons(factory, open_alert=lambda: open_alerts[-1] if open_alerts else None)
    press(factory, CONF)
    (p,) = got
    assert isinstance(p, Problem) and p.reason is Reason.NOTHING_TO_CONFIRM
    open_alerts += ["a-1", "a-2"]
    clock.ms += 400
    press(factory, CONF)
    assert got[1] == AlertDecision("a-2", Decision.CONFIRM, "button", 1400)
    b.close()
