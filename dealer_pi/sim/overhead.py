"""The simulated table seen from above: what its overhead camera films, frame by frame.

The table has four ArUco markers and zones in table millimetres (:func:`sim_layout`,
the same TOML shape a venue writes for its own table, with a ``shoe`` zone where a card
turned up in the deck shows), so the vision pipeline calibrates from the picture exactly
as at a real table. :class:`OverheadCamera` draws a :class:`~dealer_pi.sim.felt.Felt`:
the felt and markers (drawn once), the cards and chips (drawn again only when they
change), the hands of the dealer and players over them, light flicker and sensor noise
(every frame). Frames are deterministic for a seed.

>>> from dealer_pi.sim.felt import Felt
>>> from dealer_pi.engine.cards import Card
>>> felt = Felt()
>>> _ = felt.place("board", Card.parse("Ah"), face_up=True)
>>> frame = OverheadCamera(seed=1).frame(felt, 0)
>>> frame.shape, frame.dtype.name
((1080, 1920, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.vision.calibration import Layout, layout_from_dict, marker_image
from dealer_pi.vision.faces import CARD_H, CARD_W, FaceStyle, render_back, render_face
from dealer_pi.vision.render import Placement, card_homography, compose, felt as felt_picture

from .felt import Felt, Hand, PhysicalCard

CARD_MM = (63.0, 88.0)
FRAME = (1920, 1080)  # pixels: 1.5 px per millimetre, a card's index about 10 px tall
SEATS = 10
MARKER_MM = 45.0
BOARD_PITCH_MM = 72.0
RAIL = (515.0, 268.0)  # the ellipse the hole cards lie on, mm
RAIL_Y = 25.0
SKIN = (95, 140, 205)  # BGR


def _rect(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> list[list[float]]:
    box = cv2.boxPoints(((cx, cy), (w, h), angle))
    return [[round(float(x), 1), round(float(y), 1)] for x, y in box]


def _seat_angles(seats: int = SEATS) -> list[float]:
    """Angles on the seats' ellipse, evenly spaced by arc length, leaving the dealer's place free."""
    t = np.linspace(math.radians(-90 + 30), math.radians(270 - 30), 2000)
    pts = np.stack([RAIL[0] * np.cos(t), RAIL[1] * np.sin(t)], axis=1)
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))])
    want = (np.arange(seats) + 0.5) / seats * arc[-1]
    return [float(t[int(np.searchsorted(arc, w))]) for w in want]


def seat_place(seat: int) -> tuple[float, float, float]:
    """Seat ``seat``'s card spot (x, y mm) and the angle (degrees) its cards lie at.

    The dealer sits at the top of the picture (y < 0); seat 1 is on the dealer's left
    and the seats go round clockwise.
    """
    a = _SEAT_ANGLES[seat - 1]
    x, y = RAIL[0] * math.cos(a), RAIL_Y + RAIL[1] * math.sin(a)
    facing = math.degrees(math.atan2(-y, -x)) + 90  # the card's top toward the player, its foot toward the centre
    return x, y, facing


_SEAT_ANGLES = _seat_angles()


def layout_dict(seats: int = SEATS, marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)) -> dict[str, Any]:
    """The simulated table's layout in the TOML shape of ``[camera] layout_file``."""
    zones: dict[str, Any] = {
        "shoe": _rect(-190, -290, 130, 90),
        # Room for four burns in a row: a flop dealt again keeps its first burn (001).
        "burn": _rect(-145, -195, 270, 110),
        "muck": _rect(165, -195, 230, 110),
        "board": _rect(0, -20, 7 * BOARD_PITCH_MM + 20, 120),
        "pot": _rect(0, 110, 260, 80),
    }
    for s in range(1, seats + 1):
        x, y, facing = seat_place(s)
        zones[f"seat:{s}"] = _rect(x, y, 165, 140, facing)
    corners = [(-575, -300), (575, -300), (575, 305), (-575, 305)]
    markers = {str(i): [x, y] for i, (x, y) in zip(marker_ids, corners)}
    return {"dictionary": "DICT_4X4_50", "marker_mm": MARKER_MM, "markers": markers, "zones": zones}


def layout_toml(seats: int = SEATS, marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)) -> str:
    """:func:`layout_dict` written as a layout file."""
    d = layout_dict(seats, marker_ids)
    lines = [f'dictionary = "{d["dictionary"]}"', f"marker_mm = {d['marker_mm']}", "[markers]"]
    lines += [f"{k} = [{v[0]}, {v[1]}]" for k, v in d["markers"].items()]
    lines.append("[zones]")
    lines += [f'"{k}" = {v}' for k, v in d["zones"].items()]
    return "\n".join(lines) + "\n"


def sim_layout(seats: int = SEATS, marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)) -> Layout:
    return layout_from_dict(layout_dict(seats, marker_ids), "simulated table")


def px_per_mm(size: tuple[int, int]) -> float:
    """The simulated camera's scale: its frame always shows the same 1.24 m x 0.68 m of the table."""
    return min(size[0] / 1280, size[1] / 720)


def camera_homography(size: tuple[int, int] = FRAME) -> np.ndarray:
    """Table millimetres -> frame pixels: the camera a little off the vertical, as mounted over a real table."""
    s = px_per_mm(size)
    src = np.float32([[-620, -340], [620, -340], [620, 340], [-620, 340]])
    dst = np.float32([[22, 14], [1262, 6], [1274, 714], [8, 706]]) * s
    return cv2.getPerspectiveTransform(src, dst)


def card_spot(card: PhysicalCard) -> tuple[float, float, float]:
    """Where a card on the felt lies: (x, y mm, angle degrees), from its zone and slot."""
    zone, k = card.zone, card.slot
    jitter = card.jitter
    if zone.startswith("seat:"):
        x, y, facing = seat_place(int(zone[5:]))
        t = math.radians(facing)
        off = (k - 0.5) * (70.0 if card.face_up else 30.0)  # shown cards are spread, dealt ones overlap
        return x + off * math.cos(t), y + off * math.sin(t), facing + (k - 0.5) * 12 + jitter[2]
    if zone == "board":
        return (k - 2) * BOARD_PITCH_MM + jitter[0], -20 + jitter[1], jitter[2]
    if zone == "burn":
        return -237 + 72 * k + jitter[0], -195 + jitter[1], 4 * ((k % 3) - 1) + jitter[2]  # in a row, to be counted
    if zone == "muck":
        return 140 + 12 * (k % 5) + jitter[0], -195 + 6 * (k % 3) + jitter[1], 37 * k + jitter[2]
    if zone == "shoe":
        return -190 + jitter[0], -290 + jitter[1], 90 + jitter[2]
    raise ValueError(f"no place for a card in zone {zone!r}")


@dataclass(frozen=True)
class ChipStyle:
    colour: tuple[int, int, int]
    edge: tuple[int, int, int]


CHIPS = (ChipStyle((40, 40, 200), (240, 240, 240)), ChipStyle((40, 40, 40), (240, 240, 240)),
         ChipStyle((190, 110, 30), (240, 240, 240)), ChipStyle((50, 160, 40), (240, 240, 240)))


def bet_spot(seat: int) -> tuple[float, float]:
    """Where a seat's bet lies: between its cards and the pot, clear of both."""
    x, y, _ = seat_place(seat)
    return 0.64 * x, 25 + 0.5 * (y - 25)


class OverheadCamera:
    """Frames of a :class:`Felt` as the overhead camera films it."""

    def __init__(self, seed: int = 0, size: tuple[int, int] = FRAME, style: FaceStyle | None = None,
                 back_colour: tuple[int, int, int] = (150, 40, 30), noise: float = 3.0, layout: Layout | None = None,
                 faces: Mapping[Card, np.ndarray] | None = None) -> None:
        """``faces``: a printed deck's face of each card (any size; drawn at a card's), in place of
        the drawn deck of ``style``."""
        self.size = size
        self.h = camera_homography(size)
        self.scale = px_per_mm(size)
        self.style = style or FaceStyle(pip=50)
        self.rng = np.random.default_rng(seed)
        self.layout = layout or sim_layout()
        self._back = render_back(back_colour)
        self._faces: dict[Card, np.ndarray] = {
            card: cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA) for card, face in (faces or {}).items()}
        self._background = self._draw_background()
        # Sensor noise as two non-negative fields (added, then taken away): uint8 arithmetic is cheap.
        self._noise = [(self._field(noise), self._field(noise)) for _ in range(3)]
        self._layer_key: tuple[Any, ...] | None = None
        self._layer = self._background

    def _field(self, sigma: float) -> np.ndarray:
        w, h = self.size
        return np.clip(np.abs(self.rng.normal(0, sigma, (h, w, 3))), 0, 255).astype(np.uint8)

    # ------------------------------------------------------------ drawing

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        p = self.h @ np.array([x, y, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def _mm_homography(self, centre: tuple[float, float], angle: float, height_mm: float, size: tuple[int, int]) -> np.ndarray:
        return self.h @ card_homography(centre, angle, height_mm, size)

    def _draw_background(self) -> np.ndarray:
        w, h = self.size
        img = felt_picture(w, h, self.rng)
        # A soft light from one side, as a lamp over a table gives.
        ramp = np.linspace(1.06, 0.92, w, dtype=np.float32)[None, :, None]
        img = np.clip(img.astype(np.float32) * ramp, 0, 255).astype(np.uint8)
        marks = []
        s = int(self.layout.marker_mm * 1.2)
        for i, (x, y) in self.layout.markers.items():
            m = cv2.cvtColor(marker_image(i, s, self.layout.dictionary), cv2.COLOR_GRAY2BGR)
            m = cv2.copyMakeBorder(m, s // 5, s // 5, s // 5, s // 5, cv2.BORDER_CONSTANT, value=(255, 255, 255))
            side = self.layout.marker_mm * 1.4
            marks.append(Placement(m, self._mm_homography((x, y), 0.0, side, (m.shape[1], m.shape[0])), None, False))
        return compose(img, marks).frame

    def _face(self, card: Card | None) -> np.ndarray:
        if card is None:
            return self._back
        if card not in self._faces:
            self._faces[card] = render_face(card, self.style)[0]
        return self._faces[card]

    def _cards_and_chips(self, felt: Felt) -> np.ndarray:
        key = felt.still_key()
        if key != self._layer_key:
            placements = []
            for c in felt.cards:
                x, y, angle = card_spot(c)
                image = self._face(c.card) if c.face_up else self._back
                placements.append(Placement(image, self._mm_homography((x, y), angle, CARD_MM[1], (CARD_W, CARD_H)), c.card, c.face_up, c.zone))
            layer = compose(self._background, placements).frame
            for where, amount in felt.chips.items():
                self._draw_chips(layer, where, amount)
            self._layer, self._layer_key = layer, key
        return self._layer

    def _draw_chips(self, img: np.ndarray, where: str, amount: int) -> None:
        x, y = (0.0, 110.0) if where == "pot" else bet_spot(int(where))
        stacks = min(6, 1 + int(math.log10(max(1, amount))))
        for k in range(stacks):
            cx, cy = self.to_image(x + 24 * (k % 3) - 24, y + 24 * (k // 3) - 12)
            st = CHIPS[(k + len(where)) % len(CHIPS)]
            r = int(11 * self.scale)
            cv2.circle(img, (int(cx), int(cy)), r, st.colour, -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), r, st.edge, max(1, int(2 * self.scale)), cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), r // 2, st.edge, 1, cv2.LINE_AA)

    def _draw_hand(self, img: np.ndarray, hand: Hand) -> None:
        cx, cy = self.to_image(*hand.at)
        a, k = hand.angle, self.scale
        cv2.ellipse(img, (int(cx), int(cy)), (int(46 * k), int(34 * k)), a, 0, 360, SKIN, -1, cv2.LINE_AA)
        t = math.radians(a)
        for f in range(4):  # fingers
            off = (f - 1.5) * 16 * k
            fx = cx + 52 * k * math.cos(t) - off * math.sin(t)
            fy = cy + 52 * k * math.sin(t) + off * math.cos(t)
            cv2.ellipse(img, (int(fx), int(fy)), (int(24 * k), int(8 * k)), a, 0, 360, SKIN, -1, cv2.LINE_AA)
        # The arm, back to where the hand came from (the dealer's place, a player's seat).
        ex, ey = self.to_image(*hand.origin)
        cv2.line(img, (int(cx), int(cy)), (int(ex), int(ey)), SKIN, int(44 * k), cv2.LINE_AA)

    def frame(self, felt: Felt, n: int) -> np.ndarray:
        """Frame number ``n`` of the felt as it is now."""
        img = self._cards_and_chips(felt).copy()
        for hand in [*felt.resting.values(), *felt.hands]:
            self._draw_hand(img, hand)
        up, down = self._noise[n % len(self._noise)]
        cv2.add(img, up, dst=img)
        cv2.subtract(img, down, dst=img)
        gain = 1.0 + 0.02 * math.sin(n * 0.7)  # mains flicker, auto exposure
        return cv2.convertScaleAbs(img, alpha=gain)

    def frames(self, felt: Felt, start: int, count: int) -> Iterator[np.ndarray]:
        for n in range(start, start + count):
            yield self.frame(felt, n)
