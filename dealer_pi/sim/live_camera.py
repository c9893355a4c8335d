"""The simulated table's overhead camera for a live runtime (``dealer-pi demo``).

:class:`LiveCamera` is a frame source (``frames()``/``close()``, like a USB camera) that
films the simulated felt at a steady rate for the real vision pipeline, which the runtime
runs on its own thread (``attach_camera``) and whose observations go onto the engine queue
like a real camera's. The demo's driver plays the simulator's observations into it
(:meth:`LiveCamera.play`): the felt moves, the driver waits until the camera has reported
the card (or until a dealer would have given up waiting), and whatever the camera got
wrong against the simulator's truth is logged; the truth never reaches the engine.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Mapping

import numpy as np

from dealer_pi.engine.observations import CardLeft, CardSeen, Observation, Zone

from .camera_table import FPS, compare, tick_off
from .felt import Felt
from .overhead import OverheadCamera
from .stagehand import Expect, Stagehand

log = logging.getLogger("dealer_pi.sim.camera")


class LiveCamera:
    """Films the simulated felt ``fps`` times a second; thread-safe between driver and camera."""

    def __init__(self, fps: float = FPS, seed: int = 0) -> None:
        self.interval = 1.0 / fps
        self.felt = Felt(seed=seed)
        self.stagehand = Stagehand(self.felt)
        self.camera = OverheadCamera(seed=seed)
        self._lock = threading.Lock()  # the felt: moved by the driver, filmed by the camera thread
        self._cond = threading.Condition()
        self._got: list[Observation] = []
        self._frames = 0
        self.closed = threading.Event()
        self.disagreements = 0

    # ------------------------------------------------------------ the camera's side

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        while not self.closed.is_set():
            t0 = time.monotonic()
            with self._lock:
                frame = self.camera.frame(self.felt, self._frames)
                self.felt.hands = []  # a hand passes in one frame
            with self._cond:
                self._frames += 1
                self._cond.notify_all()
            yield int(time.time() * 1000), frame
            self.closed.wait(max(0.0, self.interval - (time.monotonic() - t0)))

    def close(self) -> None:
        self.closed.set()

    def saw(self, obs: Observation) -> None:
        """Every observation the vision pipeline makes (``attach_camera(on_observation=...)``)."""
        with self._cond:
            self._got.append(obs)
            self._cond.notify_all()

    # ------------------------------------------------------------ the driver's side

    def new_table(self, unseen: Mapping[int, Zone] | None, stop: threading.Event) -> None:
        """A new simulated table: the felt is cleared (and seen bare) and the stagehand starts over."""
        with self._lock:
            expect = self.stagehand.collect()
            self.stagehand = Stagehand(self.felt, unseen)
        self._wait(expect, stop)

    def play(self, obs: Observation, index: int, stop: threading.Event) -> list[str]:
        """Move the felt for the simulator's observation ``index``; for a card, wait for the
        camera's report. Returns (and logs) what the camera got wrong."""
        with self._lock:
            expect = self.stagehand.apply(obs, index)
        problems: list[str] = []
        while expect is not None and not stop.is_set():
            got = self._wait(expect, stop)
            if isinstance(obs, (CardSeen, CardLeft)):
                problems += compare(expect, got, self.felt)
            with self._lock:
                expect = self.stagehand.finish(expect)
        for p in problems:
            log.warning("camera and simulator disagree: %s", p)
        self.disagreements += len(problems)
        return problems

    def _wait(self, expect: Expect, stop: threading.Event) -> list[Observation]:
        want, leave = list(expect.seen), list(expect.left)
        seen: list[Observation] = []
        with self._cond:
            self._got = []
            start = self._frames
            # A vision thread behind the camera drops frames: give it time as well as frames.
            deadline = time.monotonic() + 3 * (expect.max_frames + 1) * self.interval + 3.0
            while not stop.is_set() and not self.closed.is_set():
                new, self._got = self._got, []
                seen += new
                for o in new:
                    tick_off(o, want, leave)
                filmed = self._frames - start
                if filmed >= expect.min_frames and not want and not leave:
                    break
                if filmed >= expect.max_frames + 2 and time.monotonic() > deadline:
                    break
                self._cond.wait(0.2)
        return seen
