"""Table calibration: ArUco markers at known places give the camera-to-table homography.

Table coordinates are millimetres on the felt, origin at the table's centre,
x to the right of the dealer's view, y away from the dealer. A layout (markers
and zones) is a small TOML file checked as strictly as the main config:

.. code-block:: toml

    dictionary = "DICT_4X4_50"
    marker_mm = 60
    [markers]            # marker id = [x, y] of its centre, in mm
    0 = [-700, -380]
    [zones]              # zone name = polygon, in mm
    board = [[-260, -70], [260, -70], [260, 70], [-260, 70]]
    "seat:1" = [[...], ...]

Zone names are those of the observation vocabulary (``seat:N``, ``board``,
``burn``, ``muck``) plus ``pot``, where chips go. :class:`CameraWatch` notices
a camera that has moved since calibration.

>>> layout = default_layout(seats=6)
>>> sorted(layout.zones)[:3], len(layout.markers)
(['board', 'burn', 'muck'], 4)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dealer_pi.config import ConfigError, read_toml
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.observations import Zone
from dealer_pi.engine.validate import is_number

# A playing card's length on the felt: poker and bridge cards alike are 88-89 mm long.
CARD_MM = 88.0
CARD_W_MM = 63.0
# Where a card's length in the frame differs more than this across the table's zones (largest
# over smallest), the camera looks at the table at a slant and no one length serves the whole
# frame; the detector then measures it from the cards. A camera straight over the table sees
# every zone at one scale; the simulated camera, mounted a little off the vertical, at 1.04.
SCALE_SPREAD = 1.1


@dataclass(frozen=True)
class Layout:
    """Where the markers are and what the zones are, in table millimetres."""

    markers: dict[int, tuple[float, float]]
    zones: dict[str, np.ndarray]
    marker_mm: float = 60.0
    dictionary: str = "DICT_4X4_50"

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The marker's four corners in table mm, in ArUco's order (top-left, clockwise)."""
        x, y = self.markers[marker_id]
        h = self.marker_mm / 2
        return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]], np.float32)

    def zone_at(self, table_xy: tuple[float, float]) -> str | None:
        for name, poly in self.zones.items():
            if cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (float(table_xy[0]), float(table_xy[1])), False) >= 0:
                return name
        return None


def _rect(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> np.ndarray:
    box = cv2.boxPoints(((cx, cy), (w, h), angle))
    return np.asarray(box, np.float32)


def default_layout(seats: int = 9) -> Layout:
    """A 1.8 m x 1.0 m oval table: markers near the rail corners, seats around the edge."""
    markers = {0: (-820.0, -420.0), 1: (820.0, -420.0), 2: (820.0, 420.0), 3: (-820.0, 420.0)}
    zones: dict[str, np.ndarray] = {
        "board": _rect(0, -60, 520, 140),
        "burn": _rect(-380, -60, 150, 140),
        "muck": _rect(380, -60, 150, 140),
        "pot": _rect(0, 110, 360, 140),
    }
    for s in range(1, seats + 1):
        a = math.pi / 2 + 2 * math.pi * (s - 0.5) / seats
        cx, cy = 700 * math.cos(a), 360 * math.sin(a)
        zones[f"seat:{s}"] = _rect(cx, cy, 200, 170, math.degrees(a) + 90)
    return Layout(markers, zones)


def _point(value: Any, where: str) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value)):
        raise InputError(where, f"must be [x, y] in millimetres, got {value!r}")
    return float(value[0]), float(value[1])


def layout_from_dict(data: Mapping[str, Any], source: str = "layout") -> Layout:
    """Check a layout table; every problem names its key."""
    problems: list[tuple[str, str]] = []
    known = {"dictionary", "marker_mm", "markers", "zones"}
    for key in data:
        if key not in known:
            problems.append((key, f"unknown key (known here: {', '.join(sorted(known))})"))
    dictionary = data.get("dictionary", "DICT_4X4_50")
    if not isinstance(dictionary, str) or not hasattr(cv2.aruco, dictionary):
        problems.append(("dictionary", f"not an ArUco dictionary: {dictionary!r}"))
    marker_mm = data.get("marker_mm", 60.0)
    if not is_number(marker_mm) or marker_mm <= 0:
        problems.append(("marker_mm", f"must be a positive number, got {marker_mm!r}"))
    markers: dict[int, tuple[float, float]] = {}
    raw_markers = data.get("markers", {})
    if not isinstance(raw_markers, Mapping) or len(raw_markers) < 2:
        problems.append(("markers", "needs at least two markers: id = [x, y]"))
    else:
        for k, v in raw_markers.items():
            try:
                if not str(k).isdigit():
                    raise InputError(f"markers.{k}", "marker ids are whole numbers")
                markers[int(k)] = _point(v, f"markers.{k}")
            except InputError as exc:
                problems.append((exc.where, exc.message))
    zones: dict[str, np.ndarray] = {}
    raw_zones = data.get("zones", {})
    if not isinstance(raw_zones, Mapping) or not raw_zones:
        problems.append(("zones", "needs at least one zone: name = [[x, y], ...]"))
    else:
        for name, poly in raw_zones.items():
            where = f"zones.{name}"
            try:
                if name != "pot":
                    Zone.parse(name, where)
                if not isinstance(poly, list) or len(poly) < 3:
                    raise InputError(where, "a zone is a polygon of at least three [x, y] points")
                zones[name] = np.array([_point(p, f"{where}[{i}]") for i, p in enumerate(poly)], np.float32)
            except InputError as exc:
                problems.append((exc.where, exc.message))
    if problems:
        raise ConfigError(problems, source)
    return Layout(markers, zones, float(marker_mm), str(dictionary))


def load_layout(path: str | Path) -> Layout:
    return layout_from_dict(read_toml(path), str(path))


def _detector(dictionary: str) -> Any:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.ArucoDetector(d, cv2.aruco.DetectorParameters())


def marker_image(marker_id: int, pixels: int, dictionary: str = "DICT_4X4_50") -> np.ndarray:
    """A printable marker (OpenCV 4.7+ and 5.x spell this generateImageMarker)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.generateImageMarker(d, marker_id, pixels)


def find_markers(bgr: np.ndarray, layout: Layout) -> dict[int, np.ndarray]:
    """Detected markers of the layout: id -> 4x2 image corners."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr
    corners, ids, _ = _detector(layout.dictionary).detectMarkers(grey)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel().tolist()):
        if i in layout.markers:
            out[int(i)] = np.asarray(c, np.float32).reshape(4, 2)
    return out


@dataclass
class Calibration:
    """Image-to-table homography plus the layout it belongs to."""

    layout: Layout
    h: np.ndarray  # image px -> table mm
    markers_px: dict[int, np.ndarray] = field(default_factory=dict)
    error_mm: float = 0.0

    def to_table(self, xy: tuple[float, float]) -> tuple[float, float]:
        p = cv2.perspectiveTransform(np.array([[xy]], np.float64), self.h)[0, 0]
        return float(p[0]), float(p[1])

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(pts_mm.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(self.h)).reshape(-1, 2)

    def zone_of(self, image_xy: tuple[float, float]) -> str | None:
        return self.layout.zone_at(self.to_table(image_xy))

    def marker_outlines(self) -> list[np.ndarray]:
        """Every marker of the layout, seen or not, as an outline in the image: a marker's white
        square reads as a face-up card (see ``Detector.not_cards``)."""
        return [self.to_image(self.layout.marker_corners(i)).astype(np.float32) for i in sorted(self.layout.markers)]

    def card_height_px(self) -> float:
        """A card's length in the frame, from the markers: the middle one of a card laid at each
        zone's middle, or 0 where those spread wider than :data:`SCALE_SPREAD` (see there)."""
        at_zones = self._card_lengths(poly.mean(axis=0) for poly in self.layout.zones.values())
        if not at_zones or max(at_zones) > SCALE_SPREAD * min(at_zones):
            return 0.0
        return float(np.median(at_zones))

    def longest_card_px(self) -> float:
        """The longest a card lies in the frame: of a card at each zone's middle and at each
        marker, which stand at the table's edge. At a slant, where no one length serves the
        frame, no card on the table is much longer than this."""
        places = [poly.mean(axis=0) for poly in self.layout.zones.values()] + list(self.layout.markers.values())
        return max(self._card_lengths(places))

    def _card_lengths(self, places: Iterable[Sequence[float]]) -> list[float]:
        """The length in the frame of a card lying at each of ``places`` (table mm), from its
        area, so a card at any angle gives the same length."""
        return [math.sqrt(abs(cv2.contourArea(self.to_image(_rect(float(x), float(y), CARD_W_MM, CARD_MM)).astype(np.float32)))
                          * CARD_MM / CARD_W_MM) for x, y in places]

    def draw(self, bgr: np.ndarray) -> np.ndarray:
        """The picture with zones and markers drawn on, for the setup page."""
        out = bgr.copy()
        for name, poly in self.layout.zones.items():
            pts = self.to_image(poly).astype(np.int32)
            colour = (0, 215, 255) if name.startswith("seat") else (255, 200, 0) if name == "board" else (200, 120, 255)
            cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
            c = pts.mean(axis=0).astype(int)
            cv2.putText(out, name, (int(c[0]) - 30, int(c[1])), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
        for i, c in self.markers_px.items():
            cv2.polylines(out, [c.astype(np.int32)], True, (0, 0, 255), 2)
            cv2.putText(out, str(i), tuple(int(v) for v in c[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2)
        return out


def calibrate(bgr: np.ndarray, layout: Layout, min_markers: int = 2) -> Calibration:
    """Find the markers and fit the homography; InputError says which markers were missing."""
    found = find_markers(bgr, layout)
    if len(found) < min_markers:
        missing = sorted(set(layout.markers) - set(found))
        raise InputError("calibration", f"saw {len(found)} of the table's markers, need {min_markers}; missing ids {missing}")
    img = np.vstack([found[i] for i in sorted(found)])
    tab = np.vstack([layout.marker_corners(i) for i in sorted(found)])
    h, _ = cv2.findHomography(img, tab, cv2.RANSAC, 8.0)
    if h is None:
        raise InputError("calibration", "markers found but no consistent homography; are the marker positions right?")
    err = cv2.perspectiveTransform(img.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2) - tab
    return Calibration(layout, h, found, float(np.sqrt((err**2).sum(axis=1)).mean()))


@dataclass(frozen=True)
class WatchReport:
    state: str  # "steady", "moved" or "unseen" (markers covered; nothing to say)
    shift_px: float
    markers_seen: int


class CameraWatch:
    """Checks now and then that the markers are still where calibration saw them."""

    def __init__(self, calibration: Calibration, tolerance_px: float = 6.0) -> None:
        self.calibration = calibration
        self.tolerance_px = tolerance_px

    def check(self, bgr: np.ndarray) -> WatchReport:
        found = find_markers(bgr, self.calibration.layout)
        common = [i for i in found if i in self.calibration.markers_px]
        if not common:
            return WatchReport("unseen", 0.0, 0)
        shifts = [float(np.linalg.norm(found[i] - self.calibration.markers_px[i], axis=1).mean()) for i in common]
        # The median, so one marker knocked or half covered does not cry wolf.
        shift = float(np.median(shifts))
        return WatchReport("moved" if shift > self.tolerance_px else "steady", shift, len(common))
