"""Camera-like pictures of cards on felt, for the simulator, tests and training.

:func:`render_table_frame` draws what the overhead camera would see for a
given table (cards by zone, face up or down), deterministic for a seed, so the
simulator can feed rendered frames through the real vision pipeline.
:func:`compose` is the general tool underneath: put any card images (drawn
faces or crops of real photos) at chosen places, then add the camera's faults
(uneven light, glare, blur, noise).

>>> from dealer_pi.engine.cards import Card
>>> f = render_table_frame({"board": [Card.parse("Ah"), Card.parse("Kd")], "seat:1": [None, None]}, seed=3)
>>> f.shape, f.dtype.name
((720, 1280, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from dealer_pi.engine.cards import Card

from .faces import CARD_H, CARD_W, FaceStyle, render_back, render_face

FELT_GREEN = (40, 110, 30)


@dataclass(frozen=True)
class Placement:
    """One card image placed on the frame; ``h`` maps image pixels to frame pixels."""

    image: np.ndarray
    h: np.ndarray
    card: Card | None
    face_up: bool
    zone: str = ""

    @property
    def corners(self) -> np.ndarray:
        ih, iw = self.image.shape[:2]
        pts = np.array([[[0, 0]], [[iw, 0]], [[iw, ih]], [[0, ih]]], np.float32)
        return cv2.perspectiveTransform(pts, self.h.astype(np.float64)).reshape(4, 2)

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass
class Scene:
    frame: np.ndarray
    placements: list[Placement] = field(default_factory=list)
    top: np.ndarray | None = None  # index into placements of the card on top at each pixel, -1 felt


def felt(width: int, height: int, rng: np.random.Generator, colour: tuple[int, int, int] = FELT_GREEN) -> np.ndarray:
    """Felt with a little weave noise."""
    img = np.empty((height, width, 3), np.float32)
    img[:] = colour
    noise = rng.normal(0, 6, (height // 2 + 1, width // 2 + 1, 1)).astype(np.float32)
    img += cv2.resize(noise, (width, height))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def woven_carpet(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A light carpet woven in a fine lattice, as round a card room's tables: every knot a
    glyph-sized blob to a reader of print."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    weave = np.sin(xx / 3.0) * np.sin(yy / 4.6) * 28
    carpet = np.array([150.0, 190.0, 160.0])[None, None, :] + weave[..., None] + rng.normal(0, 3, (height, width, 1))
    out: np.ndarray = np.clip(carpet, 0, 255).astype(np.uint8)
    return out


def card_homography(centre: tuple[float, float], angle_deg: float, height_px: float, size: tuple[int, int] = (CARD_W, CARD_H), tilt: float = 0.0) -> np.ndarray:
    """Image-to-frame homography: a card image of ``size`` standing ``height_px`` tall, turned ``angle_deg``."""
    iw, ih = size
    s = height_px / ih
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    t = np.array([[1, 0, -iw / 2], [0, 1, -ih / 2], [0, 0, 1]], np.float64)
    r = np.array([[s * ca, -s * sa, 0], [s * sa, s * ca, 0], [0, 0, 1]], np.float64)
    p = np.array([[1, 0, 0], [0, 1, 0], [tilt / ih, 0, 1]], np.float64)  # slight perspective
    m = np.array([[1, 0, centre[0]], [0, 1, centre[1]], [0, 0, 1]], np.float64)
    return m @ r @ p @ t


def compose(background: np.ndarray, placements: Sequence[Placement]) -> Scene:
    """Paste card images in order (later ones on top); remember who is on top where."""
    frame = background.copy()
    fh, fw = frame.shape[:2]
    top = np.full((fh, fw), -1, np.int16)
    for n, pl in enumerate(placements):
        ih, iw = pl.image.shape[:2]
        x0, y0 = np.floor(pl.corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pl.corners.max(axis=0)).astype(int)
        x0, y0 = max(0, x0 - 1), max(0, y0 - 1)
        x1, y1 = min(fw, x1 + 1), min(fh, y1 + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        hm = shift @ pl.h
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(pl.image, hm, size, flags=cv2.INTER_AREA if _shrinks(hm) else cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.full((ih, iw), 255, np.uint8), hm, size, flags=cv2.INTER_LINEAR)
        a = (mask.astype(np.float32) / 255.0)[..., None]
        roi = frame[y0:y1, x0:x1]
        roi[:] = (roi * (1 - a) + warped * a).astype(np.uint8)
        top[y0:y1, x0:x1][mask > 127] = n
    return Scene(frame, list(placements), top)


def _shrinks(h: np.ndarray) -> bool:
    return bool(abs(np.linalg.det(h[:2, :2])) < 0.5)


def camera_faults(frame: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Uneven light, a glare spot, blur and sensor noise, scaled by ``strength``."""
    fh, fw = frame.shape[:2]
    img = frame.astype(np.float32)
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    ramp = (np.cos(ang) * xx / fw + np.sin(ang) * yy / fh)
    light = 1.0 + strength * rng.uniform(0.1, 0.35) * (ramp - ramp.mean())
    img *= light[..., None] * rng.uniform(1 - 0.25 * strength, 1 + 0.1 * strength)
    if rng.random() < 0.6 * strength:
        gx, gy = rng.uniform(0, fw), rng.uniform(0, fh)
        rad = rng.uniform(0.05, 0.2) * max(fw, fh)
        glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * rad * rad)) * rng.uniform(30, 90) * strength
        img += glare[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    sigma = rng.uniform(0, 1.0 * strength)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    noise = rng.normal(0, rng.uniform(1, 5) * strength, img.shape).astype(np.float32)
    return np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def sensor_noise(frame: np.ndarray, rng: np.random.Generator, sigma: float = 2.0) -> np.ndarray:
    """``frame`` with a camera sensor's noise of ``sigma`` grey levels, fresh in every frame: a
    camera's frames of a table lying still differ by that much, and no more."""
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def shadow(frame: np.ndarray, centre: tuple[float, float], light: float, radius: float = 95.0, edge: float = 25.0) -> np.ndarray:
    """``frame`` with a round shadow on ``centre`` (an arm or a rack held over the table): ``light``
    of the light left inside ``radius`` pixels, rising to all of it over ``edge`` pixels beyond."""
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    beyond = np.clip((np.hypot(xx - centre[0], yy - centre[1]) - radius) / edge, 0, 1)
    factor = light + (1 - light) * beyond
    return np.clip(frame.astype(np.float32) * factor[..., None], 0, 255).astype(np.uint8)


def default_zone_centres(width: int, height: int, seats: int = 9) -> dict[str, tuple[float, float]]:
    """Where zones sit in a frame when no calibration is given: board in the middle, seats round an ellipse."""
    cx, cy = width / 2, height / 2
    out: dict[str, tuple[float, float]] = {
        "board": (cx, cy),
        "burn": (cx - 0.30 * width, cy - 0.12 * height),
        "muck": (cx + 0.30 * width, cy - 0.12 * height),
    }
    for s in range(1, seats + 1):
        a = math.pi / 2 + 2 * math.pi * (s - 0.5) / seats
        out[f"seat:{s}"] = (cx + 0.42 * width * math.cos(a), cy + 0.38 * height * math.sin(a))
    return out


def render_table_frame(cards_by_zone: Mapping[str, Sequence[Card | None]], **options: Any) -> np.ndarray:
    """A camera frame of the table. ``None`` in a zone's list is a face-down card.

    Board cards lie in a row; hole cards overlap as a pair; burn and muck
    cards lie face down in a loose pile. ``options`` are those of
    :func:`render_table_scene` (``seed``, ``size``, ``card_height``,
    ``zone_centres``, ``style``, ``faults``, ``cloth``: the table's colour, BGR).
    """
    return render_table_scene(cards_by_zone, **options).frame


def render_table_scene(
    cards_by_zone: Mapping[str, Sequence[Card | None]],
    seed: int = 0,
    size: tuple[int, int] = (1280, 720),
    card_height: float = 130.0,
    zone_centres: Mapping[str, tuple[float, float]] | None = None,
    style: FaceStyle | None = None,
    faults: float = 0.5,
    cloth: tuple[int, int, int] = FELT_GREEN,
) -> Scene:
    """Like :func:`render_table_frame`, also returning where every card was put."""
    rng = np.random.default_rng(seed)
    width, height = size
    centres = dict(zone_centres or default_zone_centres(width, height))
    style = style or FaceStyle(pip=50)
    back = render_back()
    placements: list[Placement] = []
    for zone, cards in cards_by_zone.items():
        if zone not in centres:
            raise ValueError(f"zone {zone!r} has no place on this table (known: {', '.join(sorted(centres))})")
        zx, zy = centres[zone]
        n = len(cards)
        for k, card in enumerate(cards):
            if zone == "board":
                gap = card_height * 0.78
                pos = (zx + (k - (n - 1) / 2) * gap, zy)
                angle = rng.normal(0, 3)
            elif zone.startswith("seat:"):
                # Toward the table centre, the pair fanned and overlapping.
                base = math.degrees(math.atan2(height / 2 - zy, width / 2 - zx)) - 90
                off = (k - (n - 1) / 2) * card_height * 0.28
                a = math.radians(base)
                pos = (zx + off * math.cos(a), zy + off * math.sin(a))
                angle = base + 180 + (k - (n - 1) / 2) * 12 + rng.normal(0, 4)
            else:
                pos = (zx + rng.normal(0, card_height * 0.1), zy + rng.normal(0, card_height * 0.1))
                angle = rng.uniform(0, 360)
            image = render_face(card, style)[0] if card is not None else back
            hm = card_homography(pos, angle, card_height, tilt=rng.normal(0, 0.02))
            placements.append(Placement(image, hm, card, card is not None, zone))
    scene = compose(felt(width, height, rng, cloth), placements)
    scene.frame = camera_faults(scene.frame, rng, faults)
    return scene
