"""A glare on the felt, which is no card.

A lamp over the table leaves a bright spot on the cloth. In a frame exposed as a camera's automatic
exposure leaves it, the spot stays near enough the felt's colour to be felt. A camera that
overexposes (its exposure set for a darker room, or brightening a dark green table towards grey)
pushes the spot's strongest channel to its limit: the spot turns pale, far from the felt's colour,
and was taken for a back with no print on it. On the simulated table at 1.5 to 2.5 times the
light, 2 to 4 false face-down cards in 20 tables on green cloth and 3 to 9 on red, each on the
spot (``models/eval_dim.py``).

A glare adds white light to the felt's: its colour keeps the felt's hue (Lab a and b in the felt's
direction, within :data:`SAME_HUE`), keeps some of its chroma (at least :data:`PALEST` of it,
where card stock keeps none), and is lighter than the felt. Where the camera clipped the felt's
strongest channel, the spot's hue turns as the other two rise; added white light raises them alike,
and their difference is what is kept (:data:`CLIPPED`). On grey or black cloth the hue says
nothing: there a glare is of the felt's grey, lighter, and darker than card stock's white
(:data:`NEUTRAL`). Cloth between the two (slate, a blue grey: too little colour to be coloured
cloth, too much to be grey) keeps its hue in a glare as coloured cloth does. A back of the felt's
own hue and lighter is found by its print instead (``detect.patterned``), which a glare has none of.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .colour import lab_colour
from .glyphs import touching

# The cosine of the angle between a pixel's hue and the felt's (their Lab a, b as vectors) at
# least. The simulated table's glare spots at twice the light: 0.99 or more.
SAME_HUE = 0.97
# A glare keeps at least this share of the felt's chroma (the length of its a, b): the simulated
# spots at twice the light keep 0.6 or more; white card stock under a camera's noise, under 0.15.
PALEST = 0.3
# A glare holds no print: under this share of a window BAND wide on edges of print. The simulated
# glare spots overexposed hold 0.03-0.17, one card edge across the window 0.1; a back in the felt's
# hue and lighter (a blue back's pale lattice on blue cloth) 0.38 and more on 99 % of it.
PLAIN = 0.25
# Overexposed, blue cloth has its blue channel clipped at the felt itself, and a lamp's spot, white
# light added, raises only the other two: its hue turns (the simulated blue cloth at twice the
# light: a cosine of 0.81 with the felt's, 3 to 10 false face-down cards a table). Added white light
# keeps the difference between the channels the camera did not clip: within KEPT of the felt's
# (8-bit BGR), or within NOISE where that is more (a sensor's noise on it: 0 to 25 in the
# simulated spot on red cloth), and the felt's darkest channel raised by LIGHTER at least (at 20,
# the faint rim where a spot fades into the felt stayed in the region, a ring taken for six cards
# on blue cloth at two and a half times the light). A channel of CLIPPED or more is clipped, in
# the felt and the spot alike; where the felt has none, the spot's middle may clip the felt's
# strongest channel alone (slate cloth at 1.8 times the light: its blue at 255, the felt's at 207).
# White card stock keeps no difference, and a back's print does not keep the felt's. Where the
# felt's own difference is under SPAN, twice NOISE (red cloth, its green and blue 15 apart at two
# and a half times the light), white stock's, none give or take NOISE, is within NOISE of it: there
# the spot's other channels stay under CLIPPED, where white stock, lighter than the felt in every
# channel, has clipped them with the felt's strongest. At 30 the slate spot's middle, its green at
# 245, was kept in the region (its channels 27 apart).
CLIPPED = 245
KEPT = 0.25
NOISE = 12.0
SPAN = 2 * NOISE
LIGHTER = 8.0
# On grey or black cloth (the felt's Lab a and b within NEUTRAL of grey) a glare is grey light
# added to the felt's: within NEUTRAL of the felt's a and b, lighter than the felt by GREY_LIGHTER
# (Lab L, 0 to 255) at least, and under the frame's white by UNDER_WHITE at least: card stock is
# that white. The simulated black cloth at twice the light has its spot's middle at about 130
# grey, the felt at 64 and the cards' stock at 255 (3 to 9 false face-down cards a table).
NEUTRAL = 10.0
GREY_LIGHTER = 25.0
UNDER_WHITE = 40.0
# Patches of glare narrower than this (pixels of the picture given: a camera frame at quarter size)
# are left as they are.
BAND = 5


def felt_in_glare(bgr: np.ndarray, lab: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """True where the picture (``bgr``; ``lab``, it in OpenCV's 8-bit Lab) is the felt (``felt``,
    its colour, BGR) under a glare: the felt's hue, lighter, and no paler than :data:`PALEST` of
    it; or, where the glare clipped the felt's strongest channel, as :func:`_clipped_glare` says."""
    f = lab_colour(felt).astype(np.float32) - np.array([0.0, 128.0, 128.0], np.float32)
    chroma = float(np.hypot(f[1], f[2]))
    if chroma < 1.0:
        return np.zeros(lab.shape[:2], bool)
    lab32 = lab.astype(np.float32)
    # Along the felt's hue, and across it, in units of the felt's chroma.
    along = cv2.transform(lab32, np.array([[0.0, f[1], f[2], -128.0 * (f[1] + f[2])]], np.float32) / chroma**2)
    across = cv2.transform(lab32, np.array([[0.0, -f[2], f[1], -128.0 * (f[1] - f[2])]], np.float32) / chroma**2)
    # cos >= SAME_HUE: across / along <= tan of that angle.
    tan = float(np.sqrt(1.0 - SAME_HUE**2) / SAME_HUE)
    out: np.ndarray = (along >= PALEST) & (np.abs(across) <= tan * along) & (lab32[:, :, 0] > float(f[0]))
    return out | _clipped_glare(bgr, np.asarray(felt, np.float32).reshape(3))


def _clipped_glare(bgr: np.ndarray, felt: np.ndarray) -> np.ndarray | bool:
    """True where ``bgr`` is the felt (``felt``, BGR) under a glare that clipped the felt's
    strongest channel, or the channels the camera clipped in the felt already (see :data:`CLIPPED`)."""
    clipped = np.flatnonzero(felt >= CLIPPED)
    if not len(clipped):
        clipped = np.array([int(np.argmax(felt))])
    free = np.setdiff1d(np.arange(3), clipped)
    if len(free) < 2:
        return False
    hi, lo = free[np.argmax(felt[free])], free[np.argmin(felt[free])]
    span = float(felt[hi] - felt[lo])
    channels = cv2.split(bgr)
    difference = cv2.subtract(channels[hi], channels[lo], dtype=cv2.CV_16S)
    window = max(KEPT * span, NOISE)
    out: np.ndarray = np.abs(difference.astype(np.float32) - span) <= window
    # Where the spot clipped the felt's stronger free channel too, the difference shows less than
    # the light kept; white stock has clipped the weaker one as well.
    out |= (channels[hi] >= CLIPPED) & (channels[lo] < CLIPPED) & (difference <= span + window)
    out &= channels[lo] >= felt[lo] + LIGHTER
    for c in clipped:
        out &= channels[c] >= CLIPPED
    if span < SPAN:
        for c in free:
            out &= channels[c] < CLIPPED
    return out


def is_grey(felt_lab: np.ndarray) -> bool:
    """Whether the felt (its colour in 8-bit Lab) is grey or black cloth (see :data:`NEUTRAL`)."""
    f = np.asarray(felt_lab, np.float32).reshape(3)
    return bool(np.hypot(f[1] - 128.0, f[2] - 128.0) < NEUTRAL)


def grey_in_glare(lab: np.ndarray, felt_lab: np.ndarray, white: float) -> np.ndarray:
    """True where ``lab`` is grey or black felt (``felt_lab``) under a glare: of the felt's grey,
    lighter than it and darker than card stock (``white``, the frame's white as Lab L); see
    :data:`NEUTRAL`."""
    f = np.asarray(felt_lab, np.float32).reshape(3)
    ab = lab[:, :, 1:].astype(np.float32) - f[1:]
    lightness = lab[:, :, 0]
    out: np.ndarray = ((ab[:, :, 0] ** 2 + ab[:, :, 1] ** 2 < NEUTRAL**2)
                       & (lightness >= f[0] + GREY_LIGHTER) & (lightness <= white - UNDER_WHITE))
    return out


def without_glare(region: np.ndarray, lit: np.ndarray, ink: Callable[[], np.ndarray]) -> np.ndarray:
    """``region`` (255 off the felt's colour, at the picture's size) less the felt under a glare
    (``lit``: True where the picture at quarter size is the felt lit so, as :func:`felt_in_glare`
    or, on grey or black cloth, :func:`grey_in_glare` says) where it holds no print (``ink()``: True on edges of print, at the picture's size; see :data:`PLAIN`), in
    patches wider than a card's blurred edge (:data:`BAND`). ``ink`` is asked only where such a
    patch of the felt's hue lies in the region: a frame lit as a camera's automatic exposure
    leaves it has its glare within the felt's colour, and costs no look for print."""
    h, w = region.shape
    qh, qw = lit.shape[:2]
    band = np.ones((BAND, BAND), np.uint8)
    off = cv2.resize(region, (qw, qh), interpolation=cv2.INTER_NEAREST) > 0
    hue = (lit & off).astype(np.uint8)
    if not cv2.morphologyEx(hue, cv2.MORPH_OPEN, band).any():
        return region
    density = cv2.boxFilter(cv2.resize(ink().astype(np.float32), (qw, qh), interpolation=cv2.INTER_AREA), -1, (BAND, BAND))
    # A card's edge, blurred into the felt, is a mix of the felt and white too: a thin band, which
    # the opening takes off, where a glare is a wide patch.
    glare = cv2.morphologyEx(hue & (density < PLAIN).astype(np.uint8), cv2.MORPH_OPEN, band)
    # A glare fades into the felt round it. A patch that stock encloses is on a card: red print on
    # red cloth, a court's green on green.
    n, patches = cv2.connectedComponents(glare, connectivity=8)
    felt_beside = cv2.dilate((~off).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    glare = touching(patches, n, (glare > 0) & felt_beside)[patches].astype(np.uint8)
    if not glare.any():
        return region
    out: np.ndarray = cv2.bitwise_and(region, cv2.bitwise_not(cv2.resize(glare * 255, (w, h), interpolation=cv2.INTER_NEAREST)))
    return out
