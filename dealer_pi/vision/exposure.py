"""A picture taken too dark, brightened before it is read.

The rules that tell felt, card stock, backs and hands apart measure colours on a picture exposed
as a camera's automatic exposure leaves it: cloth is felt from a brightness of 40, a hand from
70. A camera set to a fixed exposure in a dim card room, or a photo taken at dusk, leaves the
whole table under those bars. On the simulated table at a third of the light the felt was no
felt, no part of the table was looked at for backs, and every face-down card was lost
(``models/eval_dim.py``). A picture whose brightest pixels are under :data:`DIM` is scaled so
that they reach :data:`TARGET`; every other picture is read as it is. The brightest pixels are
card stock wherever a card lies face up or a back's margin shows, and a well-lit empty table has
none so bright, so its felt is only brightened where the light is far too low for anything to be
read.
"""

from __future__ import annotations

import cv2
import numpy as np

from .glyphs import quarter

# The brightest pixels (this percentile of each pixel's brightest channel, at quarter size) under
# DIM: a picture taken too dark. The simulated table in full light: 220-255 with cards on it,
# 105-133 empty; at half the light 110-127 with cards, and read as in full light.
BRIGHTEST = 99.9
DIM = 100.0
TARGET = 200.0
MOST_GAIN = 6.0  # no more: a black picture (a covered lens) is noise, not a table


def brighten(bgr: np.ndarray, quartered: np.ndarray | None = None) -> np.ndarray:
    """``bgr`` scaled so that its brightest pixels reach :data:`TARGET` where they are under
    :data:`DIM` (by :data:`MOST_GAIN` at most); otherwise the same array. ``quartered``:
    :func:`.glyphs.quarter` of ``bgr``, where the caller has it already."""
    quartered = quarter(bgr) if quartered is None else quartered
    top = _brightest(quartered)
    if top >= DIM:
        return bgr
    gain = min(MOST_GAIN, TARGET / max(top, 1.0))
    scaled: np.ndarray = cv2.convertScaleAbs(bgr, alpha=gain)  # saturates at 255
    return scaled


def _brightest(picture: np.ndarray) -> float:
    """The :data:`BRIGHTEST` percentile of each pixel's brightest channel (grey levels, 8 bits),
    by a histogram: a frame's sort would cost more than the rest of this look."""
    if picture.ndim == 3:
        b, g, r = cv2.split(picture)
        picture = cv2.max(cv2.max(b, g), r)
    counts = cv2.calcHist([picture], [0], None, [256], [0, 256]).ravel()
    above = np.cumsum(counts[::-1])  # pixels at each level or brighter, from 255 down
    level = 255 - int(np.searchsorted(above, (1.0 - BRIGHTEST / 100.0) * picture.size, side="right"))
    return float(level)
