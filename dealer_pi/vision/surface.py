"""Where the playing surface is: cards count there and nowhere else.

With the table's markers in view the surface is the area they enclose (they sit near the rail).
In a still without markers it is the table as the picture shows it: the stretch of the colour
in the middle of the picture (the cloth or the wood; the table is what the camera looks at),
with its holes filled, since the cards lying on it are holes of another colour. The floor
around a table, a chair, a player's lap are outside it. No card is ever placed outside the
picture either: one cut by its edge is reported as the part in view (see
:meth:`~.detect.Detector.detect`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import cv2
import numpy as np

from .calibration import Calibration
from .detect import CardFound, felt_colour, is_paper_colour, middle, not_felt

# The table is the picture's subject: its colour is the one in the middle of the picture, and it
# must be a good part of the picture. Where the picture is nearly all table, nothing is left out.
MIN_TABLE_SHARE = 0.2
ALL_TABLE_SHARE = 0.97
MARGIN_MM = 40.0  # a card at the rail may overhang the markers' line a little


def table_mask(bgr: np.ndarray, card_px: float = 0.0) -> np.ndarray | None:
    """255 on the table, at the picture's size; None where no table stands out from the rest.

    ``card_px``: a card's length, when known. Cards at the table's edge cut notches into the
    cloth's outline; notches up to that size are closed (and holes of any size are filled).
    """
    h, w = bgr.shape[:2]
    colour = felt_colour(middle(bgr))
    if is_paper_colour(colour):
        return None  # white card stock in the middle: a close-up of cards, not a table
    cloth = cv2.bitwise_not(not_felt(bgr, colour))
    sh, sw = max(1, h // 4), max(1, w // 4)
    small = cv2.resize(cloth, (sw, sh), interpolation=cv2.INTER_NEAREST)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(small, connectivity=8)
    counts = np.bincount(middle(labels).ravel(), minlength=n)
    counts[0] = 0
    pick = int(np.argmax(counts))
    if pick == 0 or stats[pick, cv2.CC_STAT_AREA] < MIN_TABLE_SHARE * small.size:
        return None
    region = (labels == pick).astype(np.uint8) * 255
    k = max(3, int(round((card_px or 0.12 * min(h, w)) / 4)) | 1)
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    outlines, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    table = np.zeros_like(region)
    cv2.drawContours(table, outlines, -1, 255, -1)  # the cards lying on the cloth are its holes
    if cv2.countNonZero(table) >= ALL_TABLE_SHARE * table.size:
        return None
    return cv2.resize(table, (w, h), interpolation=cv2.INTER_NEAREST)


def card_length(cards: Sequence[CardFound]) -> float:
    """The median card's longer side in pixels (0 when there is no card)."""
    sides = [max(np.hypot(*np.subtract(c.corners[i], c.corners[(i + 1) % 4])) for i in range(4))
             for c in cards if len(c.corners) == 4]
    return float(np.median(sides)) if sides else 0.0


def on_table(cards: Sequence[CardFound], mask: np.ndarray | None) -> list[CardFound]:
    """The cards on the table; all of them when the "table" would hold only half of them or
    fewer: then what was found in the middle of the picture is not a table but a close-up's
    card, a hand or a desk, and leaving cards out would be a guess."""
    if mask is None:
        return list(cards)
    kept = [c for c in cards if mask[int(c.centre[1]), int(c.centre[0])]]
    return kept if 2 * len(kept) > len(cards) else list(cards)


def within_markers(cards: Sequence[CardFound], cal: Calibration) -> list[CardFound]:
    """The cards inside the markers' outline (with a margin), each given its zone."""
    corners = np.vstack([cal.layout.marker_corners(m) for m in cal.layout.markers]).astype(np.float32)
    hull = cv2.convexHull(corners)
    out = []
    for c in cards:
        x, y = cal.to_table(c.centre)
        if cv2.pointPolygonTest(hull, (float(x), float(y)), True) >= -MARGIN_MM:
            out.append(dataclasses.replace(c, zone=cal.layout.zone_at((x, y))))
    return out


def still_cards(cards: Sequence[CardFound], bgr: np.ndarray, cal: Calibration | None) -> list[CardFound]:
    """A still picture's cards that lie on the table: by its markers when it has them, else by
    the table the picture shows."""
    if cal is not None:
        return within_markers(cards, cal)
    return on_table(cards, table_mask(bgr, card_length(cards)))
