"""A card's outline from one of its corner indices.

The unit is the index's rank-to-suit distance (about one glyph height), so the outline scales
with whatever size the camera sees the card at. The figures were measured on common casino
decks and the drawn deck; other decks print their index a little larger or smaller.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CARD_W_U = 6.3
CARD_H_U = 8.8
RANK_X_U = 0.65  # from the card's long edge to the rank glyph's middle
RANK_Y_U = 0.85  # from the card's short edge to the rank glyph's middle

Point = tuple[float, float]


def outline(rank_xy: Point, suit_xy: Point, card_h: float = 0.0) -> tuple[Point, np.ndarray]:
    """Centre and corners of the card whose corner index has its rank glyph at ``rank_xy`` and
    its suit glyph at ``suit_xy``; the card's interior lies to the index's right as it reads.
    ``card_h``: the card's height in pixels where the camera knows it (else it is guessed from
    the index: a deck that prints a small index would have its cards drawn too small)."""
    dx, dy = suit_xy[0] - rank_xy[0], suit_xy[1] - rank_xy[1]
    u = math.hypot(dx, dy)
    dx, dy = (dx / u, dy / u) if u else (0.0, 1.0)
    rx, ry = dy, -dx
    ox = rank_xy[0] - rx * RANK_X_U * u - dx * RANK_Y_U * u  # the card's corner next to this index
    oy = rank_xy[1] - ry * RANK_X_U * u - dy * RANK_Y_U * u
    h = card_h if card_h > 0 else CARD_H_U * u
    w = h * CARD_W_U / CARD_H_U
    pts = np.array(
        [[ox, oy], [ox + rx * w, oy + ry * w], [ox + rx * w + dx * h, oy + ry * w + dy * h], [ox + dx * h, oy + dy * h]],
        np.float32,
    )
    c = pts.mean(axis=0)
    return (float(c[0]), float(c[1])), pts


def filled_polygon(points: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, int, int]:
    """The polygon ``points`` filled in, in its own box clipped to a picture of ``shape`` (a
    whole picture's mask per card cost more than the rest of a frame's search); also the box's
    top-left corner in the picture."""
    pts = np.round(np.asarray(points, np.float32).reshape(-1, 2)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(pts)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(shape[1], x + w), min(shape[0], y + h)
    mask = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
    if mask.size:
        cv2.drawContours(mask, [pts], -1, 255, -1, offset=(-x0, -y0))
    return mask, x0, y0
