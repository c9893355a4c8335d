"""Where frames come from, and the stage that keeps only the newest one.

Sources: a USB/V4L2 camera through ``cv2.VideoCapture``, the Pi camera through
Picamera2 when that package is present, a video file, or a list of image
files. Each yields ``(ts_ms, frame)`` with ``frame`` a BGR ``uint8`` array.

:class:`LatestFrameStage` sits between a source and the vision worker: a
bounded queue (size 1 or 2) that drops the oldest frame when the worker is
behind, so the camera never waits and the table state is never built from
stale pictures. Its ``fps`` counters are what the dashboard shows.

>>> import numpy as np
>>> stage = LatestFrameStage(maxsize=1)
>>> for t in range(3):
...     stage.put(t * 10, np.zeros((2, 2, 3), np.uint8))
>>> stage.get(timeout=0)[0], stage.dropped
(20, 2)
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from dealer_pi.engine.errors import InputError

MAX_SIDE = 8192


def check_frame(frame: object, where: str) -> np.ndarray:
    """Refuse anything that is not a sane colour or grey picture; grey becomes BGR."""
    if not isinstance(frame, np.ndarray):
        raise InputError(where, f"not a picture (got {type(frame).__name__})")
    if frame.dtype != np.uint8:
        raise InputError(where, f"picture must be 8-bit, got {frame.dtype}")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise InputError(where, f"picture must have 1, 3 or 4 channels, got shape {frame.shape}")
    h, w = frame.shape[:2]
    if h < 64 or w < 64:
        raise InputError(where, f"picture is {w}x{h}; at least 64x64 is needed to see a card")
    if h > MAX_SIDE or w > MAX_SIDE:
        raise InputError(where, f"picture is {w}x{h}; larger than {MAX_SIDE} pixels a side is refused")
    return frame


def read_image(path: str | Path) -> np.ndarray:
    """Load a picture file as BGR, with a clear error for missing or unreadable files."""
    p = Path(path)
    if not p.is_file():
        raise InputError(str(p), "no such file")
    data = np.fromfile(str(p), np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if len(data) else None
    if img is None:
        raise InputError(str(p), "not a picture OpenCV can read (png, jpg, bmp, ...)")
    if img.dtype == np.uint16:
        img = (img >> 8).astype(np.uint8)
    return check_frame(img, str(p))


class FrameSource(Protocol):
    def frames(self) -> Iterator[tuple[int, np.ndarray]]: ...

    def close(self) -> None: ...


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


class ImageFiles:
    """Still pictures played as frames, ``interval_ms`` apart on a made-up clock."""

    def __init__(self, paths: Sequence[str | Path], interval_ms: int = 66) -> None:
        self.paths = [Path(p) for p in paths]
        self.interval_ms = interval_ms

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        for n, p in enumerate(self.paths):
            yield n * self.interval_ms, read_image(p)

    def close(self) -> None:
        pass


class VideoCaptureSource:
    """A V4L2/USB camera (``device`` is an index like ``"0"`` or a path) or a video file."""

    def __init__(self, device: str, width: int = 1280, height: int = 720, fps: int = 15, is_file: bool = False) -> None:
        self.is_file = is_file
        target: Any = int(device) if device.isdigit() and not is_file else device
        if is_file and not Path(device).is_file():
            raise InputError(device, "no such video file")
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            raise InputError(device, "camera or video cannot be opened")
        if not is_file:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            self.cap.set(cv2.CAP_PROP_FPS, fps)
        self.device = device

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        n = 0
        while True:
            ok, frame = self.cap.read()
            if not ok or frame is None:
                return
            if self.is_file:
                ts = int(self.cap.get(cv2.CAP_PROP_POS_MSEC))
            else:
                ts = _now_ms()
            n += 1
            yield ts, check_frame(frame, f"{self.device} frame {n}")

    def close(self) -> None:
        self.cap.release()


class PiCameraSource:
    """The Raspberry Pi camera through Picamera2 (only on a Pi with the package installed)."""

    def __init__(self, width: int = 1280, height: int = 720) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise InputError("camera.source", "picamera2 is not installed (apt install python3-picamera2)") from exc
        self.cam = Picamera2()
        cfg = self.cam.create_video_configuration(main={"size": (width, height), "format": "BGR888"})
        self.cam.configure(cfg)
        self.cam.start()

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        while True:
            frame = self.cam.capture_array()
            yield _now_ms(), check_frame(np.ascontiguousarray(frame[..., :3]), "picamera2")

    def close(self) -> None:
        self.cam.stop()


class Paced:
    """A recorded source played at its own pace, as a camera delivers frames: each frame is
    handed on when its time (from the first frame's) has come on ``clock``."""

    def __init__(self, source: FrameSource, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.source, self.clock, self.sleep = source, clock, sleep

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        start: tuple[float, int] | None = None
        for ts, frame in self.source.frames():
            now = self.clock()
            if start is None:
                start = (now, ts)
            wait = start[0] + (ts - start[1]) / 1000 - now
            if wait > 0:
                self.sleep(wait)
            yield ts, frame

    def close(self) -> None:
        self.source.close()


def open_source(kind: str, device: str = "0", width: int = 1280, height: int = 720, fps: int = 15) -> FrameSource:
    """The source named by the ``camera`` config section.

    A ``file`` source stands in for a camera, so it is played in real time: a video at its
    own frame rate, still pictures (a folder of them, in name order) ``fps`` a second.
    """
    if kind == "v4l2":
        return VideoCaptureSource(device, width, height, fps)
    if kind == "picamera2":
        return PiCameraSource(width, height)
    if kind == "file":
        p = Path(device)
        interval = int(1000 / max(fps, 1))
        if p.is_dir():
            stills = sorted(q for q in p.iterdir() if q.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp"))
            return Paced(ImageFiles(stills, interval))
        if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp"):
            return Paced(ImageFiles([p], interval))
        return Paced(VideoCaptureSource(device, is_file=True))
    raise InputError("camera.source", f"unknown source {kind!r}: use v4l2, picamera2 or file")


class FpsCounter:
    """Events per second over the last ``window_s`` seconds."""

    def __init__(self, window_s: float = 2.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.window_s = window_s
        self.clock = clock
        self.times: collections.deque[float] = collections.deque()

    def tick(self) -> None:
        now = self.clock()
        self.times.append(now)
        while self.times and now - self.times[0] > self.window_s:
            self.times.popleft()

    @property
    def fps(self) -> float:
        if len(self.times) < 2:
            return 0.0
        span = self.times[-1] - self.times[0]
        return (len(self.times) - 1) / span if span > 0 else 0.0


class LatestFrameStage:
    """A bounded hand-over that never blocks the producer: when full, the oldest frame goes."""

    def __init__(self, maxsize: int = 1) -> None:
        if maxsize not in (1, 2):
            raise ValueError("maxsize must be 1 or 2: more only adds latency")
        self._q: collections.deque[tuple[int, np.ndarray]] = collections.deque()
        self._maxsize = maxsize
        self._cv = threading.Condition()
        self.dropped = 0
        self.received = FpsCounter()
        self.processed = FpsCounter()

    def put(self, ts_ms: int, frame: np.ndarray) -> None:
        with self._cv:
            if len(self._q) >= self._maxsize:
                self._q.popleft()
                self.dropped += 1
            self._q.append((ts_ms, frame))
            self.received.tick()
            self._cv.notify()

    def get(self, timeout: float | None = None) -> tuple[int, np.ndarray] | None:
        """The oldest kept frame, or None after ``timeout`` seconds without one."""
        with self._cv:
            if not self._q and timeout != 0:
                self._cv.wait(timeout)
            if not self._q:
                return None
            return self._q.popleft()

    def done(self) -> None:
        """Call after finishing a frame, so ``processed.fps`` counts real work."""
        self.processed.tick()

    def stats(self) -> dict[str, float]:
        return {"camera_fps": round(self.received.fps, 1), "vision_fps": round(self.processed.fps, 1), "dropped": float(self.dropped)}


def pump(source: FrameSource, stage: LatestFrameStage, stop: threading.Event) -> threading.Thread:
    """Start a daemon thread that copies frames from ``source`` into ``stage`` until ``stop``."""

    def run() -> None:
        try:
            for ts, frame in source.frames():
                if stop.is_set():
                    break
                stage.put(ts, frame)
        finally:
            source.close()

    t = threading.Thread(target=run, name="camera-pump", daemon=True)
    t.start()
    return t
