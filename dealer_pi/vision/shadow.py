"""A shadow on the table, lifted before a camera frame is read.

An arm, a hand or a chip rack held over a table lit from above darkens what lies under it. The
rules that tell felt, card stock and backs apart measure brightness against the whole frame, so a
face-up card under a shadow that takes 40 % of the light was read as face-down cards, and the
shadowed felt round it with it (``models/eval_shadow.py``). A shadow darkens the felt round a card
as much as the card, and keeps the felt's colour: the light falling on each part of the table is
measured on the felt there (pixels of the felt's colour, at any brightness from :data:`DARKEST`
to :data:`BRIGHTEST` of it), spread over the cards between by a blur a card wide, and the frame is
divided by it. A frame whose light nowhere falls under :data:`SHADOW` of the felt's is returned
as it is: light falling off across a table, a glare, are left to the rules, which were measured on
them.
"""

from __future__ import annotations

import cv2
import numpy as np

from .glyphs import quarter

# A pixel is of the felt's colour when its share of each of blue, green and red lies within this
# much of the felt's (summed): a shadow changes how bright the felt is, not those shares.
CHROMA_NEAR = 0.06
DARKEST = 0.3  # a shadow leaves at least this share of the felt's light ...
BRIGHTEST = 1.3  # ... and felt brighter than this (a glare) says nothing of shadows
SHADOW = 0.75  # light under this share of the felt's somewhere: a shadow to lift
FELT_SHARE = 0.3  # the frame's felt-coloured share at least, for the felt to measure light by
REACH = 0.12  # the blur's size, as a share of the frame's shorter side (a card's width or so)


def lift_shadows(bgr: np.ndarray, felt: np.ndarray, quartered: np.ndarray | None = None) -> np.ndarray:
    """``bgr`` with the shadows on its table lifted (the same array where there are none);
    ``felt``: the table's colour (BGR); ``quartered``: :func:`.glyphs.quarter` of ``bgr``, where
    the caller has it already. The light is measured at an eighth of the frame's size: it changes
    over a hand's width, not a pixel's."""
    if bgr.ndim != 3:
        return bgr  # a grey picture: no felt's colour to find the felt by
    h, w = bgr.shape[:2]
    quartered = quarter(bgr) if quartered is None else quartered
    qh, qw = quartered.shape[:2]
    small = cv2.resize(quartered, (max(1, qw // 2), max(1, qh // 2)), interpolation=cv2.INTER_AREA).astype(np.float32)
    f = np.asarray(felt, np.float32).reshape(3)
    share = f / (float(f.sum()) + 1.0)
    total = cv2.transform(small, np.ones((1, 3), np.float32)) + 1.0
    # How far each pixel's shares of blue, green and red lie from the felt's, times its total.
    off = cv2.transform(small, np.eye(3, dtype=np.float32) - share[:, None] * np.ones((1, 3), np.float32))
    light = total / (float(f.sum()) + 1.0)
    felty = (cv2.transform(np.abs(off), np.ones((1, 3), np.float32)) <= CHROMA_NEAR * total) & (light >= DARKEST) & (light <= BRIGHTEST)
    if np.count_nonzero(felty) < FELT_SHARE * felty.size:
        return bgr
    side = max(3, int(REACH * min(small.shape[:2])) | 1)
    weight = cv2.blur(felty.astype(np.float32), (side, side))
    spread = cv2.blur(np.where(felty, light, 0.0).astype(np.float32), (side, side))
    field = np.where(weight > 0.05, spread / np.maximum(weight, 1e-6), 1.0)
    if float(field.min()) >= SHADOW:
        return bgr
    gain = cv2.resize((1.0 / np.clip(field, DARKEST, 1.0)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    lifted: np.ndarray = cv2.multiply(bgr, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)  # saturates at 255
    return lifted
