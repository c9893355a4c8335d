"""The break-beam shoe: an IR beam (or slotted photo-interrupter) across the shoe's mouth on one GPIO pin.

Each interruption of the beam is one card. The beam's edges arrive through
gpiozero (any pin factory: lgpio on a Pi, ``MockFactory`` in tests and the
simulator) and are judged by their timing:

* shorter than ``min_card_ms``: noise or contact bounce, ignored;
* longer than ``max_card_ms``: one draw, reported as a possible double draw
  (two cards stuck together keep the beam dark longer);
* starting less than ``min_gap_ms`` after the previous card cleared: one draw,
  reported as a possible double draw (no dealer draws that fast);
* dark for ``stuck_ms``: a sensor fault (a jammed card, a dirty or misaligned
  sensor); draws are not counted until the beam clears again.

Timestamps come from ``clock_ms`` (injectable, so tests can be exact); the
stuck-beam watch runs on a timer, or on :meth:`GpioShoe.check` when the caller
drives time itself.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from gpiozero import DigitalInputDevice

from dealer_pi.config import GpioSection
from dealer_pi.engine.observations import ShoeDraw

from .problems import ObservationSink, Problem, ProblemSink, Reason, deliver, ignore
from .serial_shoe import monotonic_ms


@dataclass(frozen=True)
class BeamTiming:
    """Thresholds in milliseconds; the defaults are those of ``[gpio]`` in the config."""

    min_card_ms: int = GpioSection.min_card_ms
    max_card_ms: int = GpioSection.max_card_ms
    min_gap_ms: int = GpioSection.min_gap_ms
    stuck_ms: int = GpioSection.stuck_ms

    def __post_init__(self) -> None:
        if not 0 < self.min_card_ms < self.max_card_ms < self.stuck_ms:
            raise ValueError("beam timing must satisfy 0 < min_card_ms < max_card_ms < stuck_ms, got "
                             f"{self.min_card_ms}, {self.max_card_ms}, {self.stuck_ms}")
        if self.min_gap_ms < 0:
            raise ValueError(f"min_gap_ms must not be negative, got {self.min_gap_ms}")


class GpioShoe:
    """Counts cards through a beam on ``pin`` (BCM numbering)."""

    def __init__(
        self,
        pin: int,
        *,
        pin_factory: Any = None,
        timing: BeamTiming = BeamTiming(),
        blocked_low: bool = True,
        on_observation: ObservationSink = ignore,
        on_problem: ProblemSink = ignore,
        clock_ms: Callable[[], int] = monotonic_ms,
        watch_stuck: bool = True,
        source: str = "shoe:gpio",
    ) -> None:
        self.timing = timing
        self.on_observation, self.on_problem = on_observation, on_problem
        self.clock_ms = clock_ms
        self.watch_stuck = watch_stuck
        self.source = source
        self.draws = 0
        self.noise = 0
        self.doubles = 0
        self._lock = threading.Lock()
        self._blocked_at: int | None = None
        self._last_clear: int | None = None
        self._faulted = False
        self._timer: threading.Timer | None = None
        # Common receivers (Adafruit 3 mm/5 mm break-beam, most slotted modules) pull the line
        # low while the beam is broken; with the internal pull-up "active" then means "blocked".
        self.sensor = DigitalInputDevice(pin, pull_up=blocked_low, pin_factory=pin_factory)
        self.sensor.when_activated = self._on_blocked
        self.sensor.when_deactivated = self._on_cleared
        if self.sensor.is_active:
            self._blocked(self.clock_ms())

    def close(self) -> None:
        self._cancel_timer()
        self.sensor.close()

    def __enter__(self) -> "GpioShoe":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # gpiozero calls these from its own thread (lgpio) or the caller's (mock pins).
    def _on_blocked(self) -> None:
        self._blocked(self.clock_ms())

    def _on_cleared(self) -> None:
        self._cleared(self.clock_ms())

    def _blocked(self, now: int) -> None:
        with self._lock:
            if self._blocked_at is not None:
                return
            self._blocked_at = now
            if self.watch_stuck:
                self._cancel_timer()
                self._timer = threading.Timer(self.timing.stuck_ms / 1000 + 0.01, self.check)
                self._timer.daemon = True
                self._timer.start()

    def _cleared(self, now: int) -> None:
        out: list[ShoeDraw | Problem] = []
        with self._lock:
            start = self._blocked_at
            if start is None:
                return
            self._blocked_at = None
            self._cancel_timer()
            dark = now - start
            t = self.timing
            if self._faulted:
                self._faulted = False
                self._last_clear = now
                out.append(self._problem(Reason.SENSOR_RECOVERED, f"the beam is clear again after {dark} ms dark; "
                                         "cards drawn meanwhile were not counted", now))
            elif dark < t.min_card_ms:
                self.noise += 1
            else:
                gap = None if self._last_clear is None else start - self._last_clear
                self._last_clear = now
                self.draws += 1
                out.append(ShoeDraw(None, self.source, start))
                if gap is not None and gap < t.min_gap_ms:
                    self.doubles += 1
                    out.append(self._problem(Reason.DOUBLE_DRAW, f"a card {gap} ms after the previous one "
                                             f"(a draw needs at least {t.min_gap_ms} ms)", now))
                elif dark > t.max_card_ms:
                    self.doubles += 1
                    out.append(self._problem(Reason.DOUBLE_DRAW, f"the beam was dark {dark} ms "
                                             f"(one card takes at most {t.max_card_ms} ms)", now))
        self._emit(out)

    def check(self, now: int | None = None) -> None:
        """Report a beam dark for ``stuck_ms`` or longer (once per fault)."""
        now = self.clock_ms() if now is None else now
        out: list[ShoeDraw | Problem] = []
        with self._lock:
            start = self._blocked_at
            if start is not None and not self._faulted and now - start >= self.timing.stuck_ms:
                self._faulted = True
                out.append(self._problem(Reason.SENSOR_FAULT, f"the beam has been dark for {now - start} ms: a card "
                                         "jammed in the shoe's mouth, or a dirty or misaligned sensor", now))
        self._emit(out)

    def _problem(self, reason: Reason, detail: str, now: int) -> Problem:
        return Problem(reason, detail, self.source, now)

    def _emit(self, out: list[ShoeDraw | Problem]) -> None:
        # Outside the lock: a sink may be slow or call back into us.
        for item in out:
            if isinstance(item, Problem):
                deliver(self.on_problem, item, self.source)
            else:
                deliver(self.on_observation, item, self.source)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class MockBeam:
    """A card hand for the simulator and tests: drives a gpiozero mock pin the way a card breaks the beam.

    ``pin`` is a pin from ``MockFactory().pin(n)``; timings are real (``time.sleep``),
    so the shoe's timers and gpiozero's threads see what they would see at a table.
    """

    def __init__(self, pin: Any, blocked_low: bool = True, rnd: random.Random | None = None) -> None:
        self.pin = pin
        self.blocked_low = blocked_low
        self.rnd = rnd or random.Random(0)
        self.passes: list[tuple[float, float]] = []  # (blocked, cleared), time.monotonic() seconds

    def block(self) -> None:
        if self.blocked_low:
            self.pin.drive_low()
        else:
            self.pin.drive_high()

    def clear(self) -> None:
        if self.blocked_low:
            self.pin.drive_high()
        else:
            self.pin.drive_low()

    def card(self, dark_s: float | None = None) -> None:
        """One card through the mouth: 30-150 ms in the beam unless ``dark_s`` says otherwise."""
        t0 = time.monotonic()
        self.block()
        time.sleep(self.rnd.uniform(0.030, 0.150) if dark_s is None else dark_s)
        t1 = time.monotonic()
        self.clear()
        self.passes.append((t0, t1))

    def deal(self, n: int, cards_per_s: tuple[float, float] = (2.0, 3.0)) -> None:
        """``n`` cards at a dealer's pace (2-3 a second by default), ending with the beam clear."""
        for _ in range(n):
            start = time.monotonic()
            self.card()
            period = 1 / self.rnd.uniform(*cards_per_s)
            time.sleep(max(0.0, period - (time.monotonic() - start)))
