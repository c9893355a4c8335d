"""A camera frame taken too dark, or under a coloured lamp, made white and bright before it is read.

The rules that tell felt, card stock, backs and hands apart measure colours on a picture exposed
as a camera's automatic exposure leaves it: cloth is felt from a brightness of 40, a hand from
70. A camera set to a fixed exposure in a dim card room leaves the whole table under those
bars. On the simulated table at a third of the light the felt was no
felt, no part of the table was looked at for backs, and every face-down card was lost
(``models/eval_dim.py``). A picture whose brightest pixels are under :data:`DIM` is scaled so
that they reach :data:`TARGET`; every other picture is read as it is. The brightest pixels are
card stock wherever a card lies face up or a back's margin shows, and a well-lit empty table has
none so bright, so its felt is only brightened where the light is far too low for anything to be
read.

A warm lamp colours the whole table the same way: under a tungsten bulb's light (blue at 0.55 of
red, green at 0.8) a face's stock is peach, no card stock to the rules, and an exposed pair at a
seat whose index lay under the other card was reported face down (3 false face-down cards in 20
simulated tables). Where the brightest pixels' weakest channel is under :data:`CAST` of their
strongest, and they do not lean from grey the way the whole frame does (the felt's highlights, on
a table with no white on it), each channel is scaled to make them white.
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
# The brightest pixels' weakest channel under this share of their strongest: a coloured light. In
# the simulator's frames, full light to a third of it, the share is 0.93 or more.
CAST = 0.8
# ... unless they are the cloth's own highlights, on a table with nothing white on it: they lean
# from grey the way the whole frame does (the cosine of the two leanings, as shares of blue, green
# and red, at least SAME_HUE) and are barely brighter than the frame's middle (under BRIGHTER
# times). The simulator's empty tables: cosines 0.93 to 0.99, 1.0 to 1.2 times as bright. Card
# stock under a filament bulb: on green felt a cosine of 0.2; on grey cloth 1.0, but twice as
# bright as the cloth, and more.
SAME_HUE = 0.9
BRIGHTER = 1.5
# A lamp's light is no deeper a colour than this (the weakest channel's share of the strongest: a
# filament bulb 0.55): brightest pixels of a deeper colour are a coloured thing, a red back (0.01
# on a held-out still's wooden table), a rack and its dotted line (0.36), not card stock.
DEEPEST_LAMP = 0.45
# And card stock under a lamp is a stretch of one colour, not a few bright specks: at least this
# share of the quarter-size frame lies within STOCK_NEAR (summed shares of blue, green and red) of
# the brightest pixels' colour, at STOCK_BRIGHT of their level or more. The simulated table's seven
# face-up cards are about 5 % of the frame; a rack's dotted line, 0.15 %.
STOCK_SHARE = 0.005
STOCK_NEAR = 0.05
STOCK_BRIGHT = 0.8


def exposed(bgr: np.ndarray, quartered: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``bgr`` white-balanced where a coloured light tints its white (:func:`balance`), then
    brightened where it is too dark (:func:`brighten`), the same array where neither is needed; and
    its :func:`.glyphs.quarter`. ``quartered``: that of ``bgr``, where the caller has it already."""
    quartered = quarter(bgr) if quartered is None else quartered
    brightest = _brightest_channel(quartered)
    top, middle = _levels(brightest)
    balanced = _balanced(bgr, quartered, brightest, top, middle)
    if balanced is not bgr:
        bgr, quartered = balanced, quarter(balanced)
        top = white_level(quartered)
    brightened = _brightened(bgr, top)
    return (bgr, quartered) if brightened is bgr else (brightened, quarter(brightened))


def balance(bgr: np.ndarray, quartered: np.ndarray | None = None) -> np.ndarray:
    """``bgr`` with each channel scaled so that its brightest pixels are white, where a lamp's
    colour tints them (:data:`CAST`, :data:`DEEPEST_LAMP`, :data:`STOCK_SHARE`) and they are not
    the cloth's own highlights (:data:`SAME_HUE`, :data:`BRIGHTER`); otherwise the same array."""
    quartered = quarter(bgr) if quartered is None else quartered
    brightest = _brightest_channel(quartered)
    return _balanced(bgr, quartered, brightest, *_levels(brightest))


def brighten(bgr: np.ndarray, quartered: np.ndarray | None = None) -> np.ndarray:
    """``bgr`` scaled so that its brightest pixels reach :data:`TARGET` where they are under
    :data:`DIM` (by :data:`MOST_GAIN` at most); otherwise the same array. ``quartered``:
    :func:`.glyphs.quarter` of ``bgr``, where the caller has it already."""
    quartered = quarter(bgr) if quartered is None else quartered
    return _brightened(bgr, white_level(quartered))


def white_level(quartered: np.ndarray) -> float:
    """The level of the picture's brightest pixels (:data:`BRIGHTEST` percentile of each pixel's
    brightest channel), from its :func:`.glyphs.quarter`: card stock's white where any shows."""
    return _levels(_brightest_channel(quartered))[0]


def _balanced(bgr: np.ndarray, quartered: np.ndarray, brightest: np.ndarray, top: float, middle: float) -> np.ndarray:
    """:func:`balance`, given the quarter-size copy's brightest channel and its :func:`_levels`."""
    if bgr.ndim != 3:
        return bgr
    white = np.asarray(cv2.mean(quartered, mask=(brightest >= top).astype(np.uint8))[:3], np.float64)
    if not DEEPEST_LAMP * white.max() <= white.min() < CAST * white.max():
        return bgr
    shares = quartered.astype(np.float32) / (quartered.sum(axis=2, keepdims=True, dtype=np.float32) + 1.0)
    stock = (np.abs(shares - (white / white.sum()).astype(np.float32)).sum(axis=2) <= STOCK_NEAR) & (brightest >= STOCK_BRIGHT * top)
    if np.count_nonzero(stock) < STOCK_SHARE * stock.size:
        return bgr
    whole = np.asarray(cv2.mean(quartered)[:3], np.float64)
    lean, whole_lean = white / white.sum() - 1.0 / 3.0, whole / max(whole.sum(), 1.0) - 1.0 / 3.0
    if top < BRIGHTER * middle and float(lean @ whole_lean) >= SAME_HUE * float(np.linalg.norm(lean) * np.linalg.norm(whole_lean)):
        return bgr
    balanced: np.ndarray = cv2.transform(bgr, np.diag(white.max() / np.maximum(white, 1.0)))  # saturates at 255
    return balanced


def _brightened(bgr: np.ndarray, top: float) -> np.ndarray:
    """:func:`brighten`, given the level of the picture's brightest pixels."""
    if top >= DIM:
        return bgr
    scaled: np.ndarray = cv2.convertScaleAbs(bgr, alpha=min(MOST_GAIN, TARGET / max(top, 1.0)))  # saturates at 255
    return scaled


def _brightest_channel(picture: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel (the picture itself where it is grey)."""
    if picture.ndim != 3:
        return picture
    b, g, r = cv2.split(picture)
    out: np.ndarray = cv2.max(cv2.max(b, g), r)
    return out


def _levels(grey: np.ndarray) -> tuple[float, float]:
    """The :data:`BRIGHTEST` percentile of ``grey`` (8 bits) and its middle (median), by a
    histogram: a frame's sort would cost more than the rest of this look."""
    counts = cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel()
    above = np.cumsum(counts[::-1])  # pixels at each level or brighter, from 255 down
    top, middle = np.searchsorted(above, [(1.0 - BRIGHTEST / 100.0) * grey.size, 0.5 * grey.size], side="right")
    return float(255 - int(top)), float(255 - int(middle))
