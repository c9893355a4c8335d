"""The dealer's buttons, alert light and buzzer on GPIO.

Buttons become observations: "new hand" and "misdeal" are
:class:`~dealer_pi.engine.observations.DealerDeclaration`, "confirm" is an
:class:`~dealer_pi.engine.observations.AlertDecision` on the newest open alert
(the runtime tells us which one through ``open_alert``). Misdeal must be held
for a moment (``misdeal_hold_ms``) because a misdeal called by a brushed
sleeve stops the table (DEAL-MISDEAL-REMEDY).

The light and buzzer show one :class:`Pattern` at a time; each is distinct by
colour, rhythm and sound so a dealer knows without looking at the tablet:

========================  ==========================  ==========================
pattern                   light                       buzzer
========================  ==========================  ==========================
ok                        steady dim green            silent
uncertain, please confirm amber, slow blink (1 Hz)    one short chirp
irregularity              red, fast blink (3 Hz)      three short beeps
misdeal                   red and blue alternating    two long tones
off                       dark                        silent
========================  ==========================  ==========================
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Any, Callable

from gpiozero import LED, RGBLED, Button, Buzzer

from dealer_pi.engine.observations import AlertDecision, DealerDeclaration, Decision, Declaration

from .problems import ObservationSink, Problem, ProblemSink, Reason, deliver, ignore, log
from .serial_shoe import monotonic_ms

Color = tuple[float, float, float]


class Pattern(enum.Enum):
    OFF = "off"
    OK = "ok"
    UNCERTAIN = "uncertain"
    IRREGULARITY = "irregularity"
    MISDEAL = "misdeal"


@dataclass(frozen=True)
class Signal:
    """How one pattern looks and sounds. ``blink`` None is a steady light."""

    color: Color
    off_color: Color = (0.0, 0.0, 0.0)
    blink: tuple[float, float] | None = None  # (on seconds, off seconds)
    beeps: tuple[float, float, int] = (0.0, 0.0, 0)  # (on seconds, off seconds, how many)
    single_led: tuple[float, float] | None | bool = False  # one-colour LED: (on, off) blink, True steady, False dark


SIGNALS: dict[Pattern, Signal] = {
    Pattern.OFF: Signal((0, 0, 0)),
    Pattern.OK: Signal((0, 0.25, 0)),
    Pattern.UNCERTAIN: Signal((1, 0.45, 0), blink=(0.5, 0.5), beeps=(0.08, 0.1, 1), single_led=(0.5, 0.5)),
    Pattern.IRREGULARITY: Signal((1, 0, 0), blink=(0.15, 0.15), beeps=(0.12, 0.12, 3), single_led=(0.15, 0.15)),
    Pattern.MISDEAL: Signal((1, 0, 0), off_color=(0, 0, 1), blink=(0.3, 0.3), beeps=(0.8, 0.3, 2), single_led=True),
}

LED_KINDS = ("rgb", "single", "none")
BUZZER_KINDS = ("active", "none")


class AlertSignals:
    """The alert light (an RGB LED or a single LED) and an active buzzer; ``show(pattern)``."""

    def __init__(
        self,
        *,
        red: int,
        green: int = 0,
        blue: int = 0,
        buzzer: int = 0,
        led_kind: str = "rgb",
        buzzer_kind: str = "active",
        pin_factory: Any = None,
    ) -> None:
        if led_kind not in LED_KINDS:
            raise ValueError(f"led_kind must be one of {', '.join(LED_KINDS)}, got {led_kind!r}")
        if buzzer_kind not in BUZZER_KINDS:
            raise ValueError(f"buzzer_kind must be one of {', '.join(BUZZER_KINDS)}, got {buzzer_kind!r}")
        self.rgb = RGBLED(red, green, blue, pin_factory=pin_factory) if led_kind == "rgb" else None
        self.led = LED(red, pin_factory=pin_factory) if led_kind == "single" else None
        self.buzzer = Buzzer(buzzer, pin_factory=pin_factory) if buzzer_kind == "active" else None
        self.pattern = Pattern.OFF
        self._lock = threading.Lock()

    def show(self, pattern: Pattern | str) -> None:
        """Switch to ``pattern``; showing the pattern already shown changes nothing (no second beep)."""
        p = pattern if isinstance(pattern, Pattern) else Pattern(pattern)
        with self._lock:
            if p is self.pattern:
                return
            self.pattern = p
            sig = SIGNALS[p]
            if self.rgb is not None:
                if sig.blink is None:
                    self.rgb.color = sig.color
                else:
                    on, off = sig.blink
                    self.rgb.blink(on_time=on, off_time=off, on_color=sig.color, off_color=sig.off_color)
            if self.led is not None:
                if isinstance(sig.single_led, tuple):
                    self.led.blink(on_time=sig.single_led[0], off_time=sig.single_led[1])
                elif sig.single_led:
                    self.led.on()
                else:
                    self.led.off()
            if self.buzzer is not None:
                on, off, n = sig.beeps
                if n:
                    self.buzzer.beep(on_time=on, off_time=off, n=n)
                else:
                    self.buzzer.off()

    def close(self) -> None:
        for dev in (self.rgb, self.led, self.buzzer):
            if dev is not None:
                dev.close()


class DealerButtons:
    """Three buttons to ground (internal pull-ups): new hand, misdeal (held), confirm."""

    def __init__(
        self,
        *,
        new_hand: int,
        misdeal: int,
        confirm: int,
        pin_factory: Any = None,
        on_observation: ObservationSink = ignore,
        on_problem: ProblemSink = ignore,
        open_alert: Callable[[], str | None] = lambda: None,
        clock_ms: Callable[[], int] = monotonic_ms,
        debounce_ms: int = 50,
        misdeal_hold_ms: int = 1000,
        source: str = "button",
    ) -> None:
        self.on_observation, self.on_problem = on_observation, on_problem
        self.open_alert = open_alert
        self.clock_ms = clock_ms
        self.debounce_ms = debounce_ms
        self.source = source
        self._last: dict[str, int] = {}
        self._lock = threading.Lock()
        self.new_hand = Button(new_hand, pull_up=True, pin_factory=pin_factory)
        self.misdeal = Button(misdeal, pull_up=True, pin_factory=pin_factory,
                              hold_time=max(misdeal_hold_ms, 1) / 1000)
        self.confirm = Button(confirm, pull_up=True, pin_factory=pin_factory)
        self.new_hand.when_pressed = lambda: self._press("new hand", self._new_hand)
        if misdeal_hold_ms > 0:
            self.misdeal.when_held = lambda: self._press("misdeal", self._misdeal)
        else:
            self.misdeal.when_pressed = lambda: self._press("misdeal", self._misdeal)
        self.confirm.when_pressed = lambda: self._press("confirm", self._confirm)

    def _press(self, name: str, action: Callable[[int], None]) -> None:
        now = self.clock_ms()
        with self._lock:
            last = self._last.get(name)
            # Contacts chatter for a few ms; one press, one observation.
            if last is not None and now - last < self.debounce_ms:
                return
            self._last[name] = now
        action(now)

    def _new_hand(self, now: int) -> None:
        deliver(self.on_observation, DealerDeclaration(Declaration.NEW_HAND, self.source, now), self.source)

    def _misdeal(self, now: int) -> None:
        deliver(self.on_observation, DealerDeclaration(Declaration.MISDEAL, self.source, now), self.source)

    def _confirm(self, now: int) -> None:
        try:
            alert_id = self.open_alert()
        except Exception:
            log.exception("%s: asking for the newest open alert failed", self.source)
            alert_id = None
        if not alert_id:
            deliver(self.on_problem, Problem(Reason.NOTHING_TO_CONFIRM, "confirm pressed with no open alert",
                                             self.source, now), self.source)
            return
        deliver(self.on_observation, AlertDecision(alert_id, Decision.CONFIRM, self.source, now), self.source)

    def close(self) -> None:
        for b in (self.new_hand, self.misdeal, self.confirm):
            b.close()
