"""The camera's whole path: frame -> cards -> zones -> tracked observations.

:class:`VisionPipeline` is what the runtime runs on its vision thread::

    stage = LatestFrameStage(maxsize=1)
    pump(open_source("v4l2", "0"), stage, stop)          # camera thread
    pipeline = VisionPipeline(Detector(), zones=calibration)
    pipeline.run(stage, engine_queue.put, stop)          # vision thread

``run`` never blocks the camera (the stage drops stale frames) and only hands
observations to ``emit``; ``stats()`` gives the frame rates for the dashboard.
Zones come from an ArUco :class:`~dealer_pi.vision.calibration.Calibration`
or, for simulated tables, from :class:`PixelZones` (rectangles in image
pixels). Without zones, cards are found but no observations are made.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from dealer_pi.config import CameraSection
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.observations import CardSeen

from .calibration import CameraWatch, Layout, WatchReport, calibrate, default_layout, load_layout
from .change import ChangeGate
from .detect import CardFound, Detector
from .recogniser import Enrolment, Recogniser
from .sources import LatestFrameStage, check_frame
from .surface import told_by_markers
from .tracker import CardTracker, Observation

KEEP_CROPS = 64
# The camera is too light to count face-down cards when, of the last PICTURE_READS frames read in
# full, at least PICTURE_BLIND could not tell the table from card stock (the detector found no
# cloth, and looked for no backs). Overexposed light cloth on the simulated table (models/eval_dim.py
# with tan and taupe cloth at 1.5 and 1.8 times the light, grey at 1.8) was so in 40 to 100 % of its
# frames, and lost 40 to 100 % of its face-down cards; green, grey and slate cloth at 1.5 times and
# slate at 1.8, which lost none, in none.
PICTURE_READS = 30
PICTURE_BLIND = 10
TOO_LIGHT = ("the camera cannot tell the table from the cards' white, so face-down cards are not "
             "counted: lower the camera's exposure, or lay a cloth darker than the cards")
SAME_CARD = 0.2  # two outlines whose centres are closer than this many card lengths are one card
# ... unless each is named, and by another name: a face-up pair, the lower card's index showing
# beside the upper card's edge (the lit table's seat: the 34 pixels between their centres were 0.15
# to 0.16 of the box round either, and its queen of spades was dropped for the jack of hearts in
# every frame).
SAME_NAMED = 0.1


def one_per_card(found: list[CardFound]) -> list[CardFound]:
    """One detection per face-up card: where two lie almost on one another (a card read once from
    each corner, say), the named or the surer one stays. Face-down cards are left as they are: a
    hole-card pair dealt over each other is only a third of a card apart.

    >>> from dealer_pi.engine.cards import Card
    >>> def at(x, card=None, conf=0.8):
    ...     return CardFound(card, True, (x, 50.0), ((x - 45, 0), (x + 45, 0), (x + 45, 130), (x - 45, 130)), conf)
    >>> [(f.centre[0], str(f.card)) for f in one_per_card([at(100.0, Card.parse("7c"), 1.0), at(111.0), at(145.0)])]
    [(100.0, '7c'), (145.0, 'None')]

    Two names a card's width apart (a face-up pair, one over the other) are two cards; one name twice is one:

    >>> [str(f.card) for f in one_per_card([at(100.0, Card.parse("Jh"), 1.0), at(125.0, Card.parse("Qs"), 0.9)])]
    ['Jh', 'Qs']
    >>> [str(f.card) for f in one_per_card([at(100.0, Card.parse("Jh"), 1.0), at(125.0, Card.parse("Jh"), 0.9)])]
    ['Jh']
    """
    kept: list[CardFound] = []
    for f in sorted(found, key=lambda f: (f.card is None, -f.confidence)):
        if all(np.hypot(f.centre[0] - k.centre[0], f.centre[1] - k.centre[1])
               > (SAME_NAMED if _two_names(f, k) else SAME_CARD) * min(f.extent, k.extent)
               for k in kept if f.face_up and k.face_up):
            kept.append(f)
    return kept


def _two_names(f: CardFound, k: CardFound) -> bool:
    return f.card is not None and k.card is not None and f.card != k.card


def crop_card(frame: np.ndarray, corners: tuple[tuple[float, float], ...], margin: float = 0.15) -> np.ndarray:
    """The upright box around a card's outline, a margin of felt round it, as a new picture.

    >>> crop_card(np.zeros((100, 100, 3), np.uint8), ((40, 40), (60, 40), (60, 70), (40, 70))).shape
    (40, 26, 3)
    """
    pts = np.asarray(corners, np.float32)
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    mx, my = (x1 - x0) * margin, (y1 - y0) * margin
    h, w = frame.shape[:2]
    a, b = max(0, int(x0 - mx)), min(w, int(np.ceil(x1 + mx)))
    c, d = max(0, int(y0 - my)), min(h, int(np.ceil(y1 + my)))
    return frame[c:d, a:b].copy()


class ZoneMap(Protocol):
    def zone_of(self, image_xy: tuple[float, float]) -> str | None: ...


class PixelZones:
    """Zones as axis-aligned boxes around centres in image pixels (the simulator's table)."""

    def __init__(self, centres: Mapping[str, tuple[float, float]], half_w: float, half_h: float) -> None:
        self.centres = dict(centres)
        self.half_w = half_w
        self.half_h = half_h

    def zone_of(self, image_xy: tuple[float, float]) -> str | None:
        best, dist = None, float("inf")
        for name, (cx, cy) in self.centres.items():
            dx, dy = abs(image_xy[0] - cx), abs(image_xy[1] - cy)
            if dx <= self.half_w and dy <= self.half_h and dx + dy < dist:
                best, dist = name, dx + dy
        return best


def camera_detector(recogniser: Recogniser | None = None, card_height_px: float = 0.0) -> Detector:
    """The live camera's detector (``card_height_px``: 0, measured): it follows the glyph size from
    frame to frame, reads print only on card stock, and takes closer looks at unnamed and doubted
    cards, remembered while a card lies still. Every camera path and its evaluations read so."""
    return Detector(recogniser, card_height_px=card_height_px, follow_scale=True)


class VisionPipeline:
    def __init__(
        self,
        detector: Detector | None = None,
        zones: ZoneMap | None = None,
        tracker: CardTracker | None = None,
        watch: CameraWatch | None = None,
        watch_every: int = 30,
        layout: Layout | None = None,
        gate: ChangeGate | None = None,
    ) -> None:
        """``layout``: calibrate from the table's markers by itself (and again when the camera moves).
        ``gate``: which frames are read in full (default: a :class:`ChangeGate` that reads in full
        every frame the tracker decides a new card on, so a still table is not read again and
        again and nothing the tracker reports changes)."""
        self.detector = detector or camera_detector()
        # No card length given: the markers give one, where the camera looks straight down.
        self.height_from_markers = not self.detector.card_height_px
        self.zones = zones
        self.tracker = tracker or CardTracker()
        self.watch = watch
        self.watch_every = watch_every
        self.layout = layout
        self.camera_moves = 0
        self.frames = 0
        self.part_frames = 0  # frames read after a change only where it changed
        self.last_cards: list[CardFound] = []
        self.gate = gate or ChangeGate(fresh=2 * self.tracker.confirm_frames)
        # Whether each of the last frames read in full told the table from card stock.
        self._told: collections.deque[bool] = collections.deque(maxlen=PICTURE_READS)
        self._found: list[CardFound] = []  # the last frame read in full, before zones
        self.last_watch: WatchReport | None = None
        self.stage: LatestFrameStage | None = None
        self.bad_frames = 0
        self.last_error = ""  # the last bad frame
        self.calibration_error = ""  # why the markers gave no calibration yet
        # The picture of each card reported face up lately, for learning from the table (its
        # name may become certain later: the shoe, the showdown, the dealer).
        self.crops: collections.OrderedDict[CardSeen, np.ndarray] = collections.OrderedDict()

    def cards(self, frame: np.ndarray) -> list[CardFound]:
        """Cards in one frame, each with its zone when zones are known."""
        return self._zoned(self._read(frame))

    def _read(self, frame: np.ndarray, changed: np.ndarray | None = None) -> list[CardFound]:
        return one_per_card(self.detector.detect(frame, changed))

    def _zoned(self, found: list[CardFound]) -> list[CardFound]:
        if self.zones is None:
            return found
        return [dataclasses.replace(f, zone=self.zones.zone_of(f.centre)) for f in found]

    def process(self, ts_ms: int, frame: np.ndarray) -> list[Observation]:
        frame = check_frame(frame, f"camera frame at {ts_ms} ms")
        self.frames += 1
        if self.watch is not None and self.frames % self.watch_every == 1:
            self.last_watch = self.watch.check(frame)
            if self.last_watch.state == "moved":
                self.camera_moves += 1
                self._calibrate(frame)  # zones follow the camera when the markers are in view
        elif self.layout is not None and self.zones is None and self.frames % self.watch_every == 1:
            self._calibrate(frame)
        if self.gate.must_read(frame):
            self._found = self._read(frame, self.gate.changed)
            self.part_frames += self.detector.looked_again is not None
            self._told.append(self.detector.last_region is not None)
        self.last_cards = self._zoned(self._found)
        region = self.detector.last_region

        def covered(centre: tuple[float, float], size: float) -> bool:
            # Something not felt-coloured (a hand, chips) lies over the card's place.
            if region is None:
                return False
            x, y, r = int(centre[0]), int(centre[1]), max(2, int(size * 0.25))
            patch = region[max(0, y - r) : y + r, max(0, x - r) : x + r]
            return bool(patch.size) and cv2.countNonZero(patch) > 0.6 * patch.size

        made = self.tracker.update(ts_ms, self.last_cards, covered)
        for obs, track in zip(made, self.tracker.origins):
            if isinstance(obs, CardSeen) and obs.face_up and track.corners:
                self._keep_crop(obs, crop_card(frame, track.corners))
        return made

    def _keep_crop(self, obs: CardSeen, crop: np.ndarray) -> None:
        self.crops[obs] = crop
        while len(self.crops) > KEEP_CROPS:
            self.crops.popitem(last=False)

    def _calibrate(self, frame: np.ndarray) -> None:
        if self.layout is None:
            return
        try:
            cal = calibrate(frame, self.layout)
        except InputError as exc:
            self.calibration_error = exc.message
            return
        self.calibration_error = ""
        self.zones = cal
        self.watch = CameraWatch(cal)
        self.gate.reset()
        self.detector.forget_scale()
        told_by_markers(self.detector, cal, length=self.height_from_markers)

    @property
    def calibration(self) -> str:
        """The dashboard's word for the zones: ok, moved, fixed zones, or why there are none yet."""
        if self.zones is None:
            if self.layout is None:
                return "none"
            return f"not calibrated: {self.calibration_error}" if self.calibration_error else "waiting for the table's markers"
        if self.last_watch is not None and self.last_watch.state == "moved":
            return "moved"
        return "ok" if self.layout is not None else "fixed zones"

    @property
    def picture(self) -> str:
        """The dashboard's word for what the camera's frames let it see: ok, or too light (see
        :data:`PICTURE_BLIND`; :attr:`picture_detail` says why and what to do)."""
        return "too light" if self._told.count(False) >= PICTURE_BLIND else "ok"

    @property
    def picture_detail(self) -> str:
        return TOO_LIGHT if self.picture != "ok" else ""

    def run(self, stage: LatestFrameStage, emit: Callable[[Observation], None], stop: threading.Event) -> None:
        """Take frames from ``stage`` until ``stop``; a bad frame is skipped, not fatal."""
        self.stage = stage
        while not stop.is_set():
            item = stage.get(timeout=0.2)
            if item is None:
                continue
            ts, frame = item
            try:
                for obs in self.process(ts, frame):
                    emit(obs)
            except InputError as exc:
                # A malformed frame is dropped and counted; the camera goes on.
                self.bad_frames += 1
                self.last_error = str(exc)
            finally:
                stage.done()

    def stats(self) -> dict[str, float | str]:
        out: dict[str, float | str] = {"frames": float(self.frames), "bad_frames": float(self.bad_frames),
                                       "still_frames": float(self.gate.reused), "part_frames": float(self.part_frames)}
        if self.stage is not None:
            out.update(self.stage.stats())
        if self.last_watch is not None:
            out["camera"] = self.last_watch.state
        out["camera_moves"] = float(self.camera_moves)
        out["calibrated"] = "yes" if self.zones is not None else "no"
        out["card_height_px"] = round(self.detector.card_height_px, 1)
        return out


def pipeline_from_config(
    camera: CameraSection, seats: int = 9, base_dir: str | Path | None = None, *, zones: ZoneMap | None = None,
) -> tuple[VisionPipeline, LatestFrameStage]:
    """The vision thread's pipeline and its frame stage, as the ``camera`` config section says.

    Every camera path (``serve``, the demo, the recorded-session replay, the tests) builds its
    pipeline here, so each ``[camera]`` setting means the same everywhere: ``layout_file``
    (markers and zones; else the built-in layout for ``seats`` seats), ``enrolment_file``
    (the venue's deck), ``min_confidence`` (reads below it name no card), ``card_height_px``
    (0: measured) and ``queue_size`` (frames waiting for the vision thread). Relative files
    are found from ``base_dir`` (the config file's folder). Zones come from the table's
    markers once they are seen, unless fixed ``zones`` are given (a simulated table without
    markers). Bad layout or enrolment files raise ``ConfigError``/``ModelError`` naming the
    file; a ``queue_size`` other than 1 or 2 raises ``ValueError``.
    """
    base = Path(base_dir) if base_dir is not None else Path.cwd()

    def path(name: str) -> Path:
        p = Path(name).expanduser()
        return p if p.is_absolute() else base / p

    layout = load_layout(path(camera.layout_file)) if camera.layout_file else default_layout(seats)
    enrolment = Enrolment.load(path(camera.enrolment_file)) if camera.enrolment_file else None
    recogniser = Recogniser(enrolment=enrolment, min_confidence=camera.min_confidence)
    detector = camera_detector(recogniser, camera.card_height_px)
    stage = LatestFrameStage(camera.queue_size)
    return VisionPipeline(detector, zones=zones, layout=None if zones is not None else layout), stage
