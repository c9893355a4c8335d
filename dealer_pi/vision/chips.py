"""Chips lying side by side: a part of the frame that is a few round things of one size.

A lone chip or stack is told from a card by its outline, which fills its enclosing circle
(:data:`.detect.ROUND`). Stacks pushed together into the pot, or a bet of several stacks, touch
one another; their outline is no circle, and the not-felt mask that finds cards, worked out at
quarter size, closes the felt between them into one blocky part the size of half a card, and
the chips' white edges pass for a face's plain card stock: five stacks beside the board were taken
for an unread face-up card dealt before the burn, and the monitor called the flop a misdeal
(models/REPORT.md, "Chips side by side").

Looked at closer, the part shows what it is: the largest disks that fit in it (from the distance to its
edge) are of one size, far smaller than a card is wide, they lie a chip's width apart, and
together they cover the whole part. A card, or what a hand leaves of one, fits one large disk,
or a row of disks along its middle that lie closer than their size and leave its corners out.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Disks are taken largest first, down to this share of the largest: a chip's own disk, not the
# small ones that fit where neighbouring chips' edges meet.
OF_ONE_SIZE = 0.75
# The disks of the chips cover this much of the part: five drawn stacks covered all of theirs; a
# card's strip left beside a hand, fitted with a row of disks, 0.87 at most.
COVERED = 0.9
# A chip's radius is at most this share of a card's width: a casino chip is 39 mm across and a
# card 63 mm wide (0.31); a card's own disk is half its width, and a card under a hand fits disks
# of 0.27 to 0.36 of it (a row of them, lying closer than CHIP_APART).
RADIUS_AT_MOST = 0.4
# Neighbouring chips' disks lie this many radii apart at least (two for chips that touch); a row of
# disks fitted along a strip of card lies about one radius apart.
CHIP_APART = 1.5
# ... and are most of the part: the drawn stacks filled 0.9 of the part's blocky quarter-size
# mask. A back printed with dots on the felt's own colour is found by its print
# (:func:`.detect.patterned`); its dots are round things of one size too, but a small share of it.
FILLED = 0.6
# A part whose outline fills this much of its smallest box is a card's rectangle. Chips side by
# side fill a quarter of a circle's corners less: a row or a block of touching chips 0.79 (with
# the felt they ring, two by two, 0.84), the five drawn stacks in two rows 0.75; a lone card's
# outline fills all of its box.
BOXED = 0.88
# Stacks at most: 48 casino chips lie in about 10 cards' area, near the largest part looked at.
MOST_DISKS = 48
# Stacks lying on a face-down pile at most (a bet pushed onto a player's cards, a card protector).
STACKS_ON_A_PILE = 4
# ... whose disks are taken down to this share of the largest: a stack half under another shows
# a smaller disk than its own.
ON_A_PILE_SIZE = 0.3


def disks(solid: np.ndarray, least: float = OF_ONE_SIZE) -> list[tuple[int, int, float]]:
    """The largest disks that fit in ``solid`` (255 on the part), each where the last ones do not
    reach, largest first: (x, y, radius), down to ``least`` of the first."""
    inside = cv2.distanceTransform(solid, cv2.DIST_L2, 5)
    left = inside.copy()
    out: list[tuple[int, int, float]] = []
    for _ in range(MOST_DISKS + 1):
        y, x = np.unravel_index(int(np.argmax(left)), left.shape)
        r = float(inside[y, x])
        if r <= 0 or (out and r < least * out[0][2]):
            break
        out.append((int(x), int(y), r))
        cv2.circle(left, (int(x), int(y)), round(r), 0, -1)
    return out


def side_by_side(solid: np.ndarray, part_area: float, card_width: float) -> bool:
    """Whether ``solid`` (255 off the felt's colour, round a part of ``part_area`` pixels) is
    chips side by side: most of the part, and two to :data:`MOST_DISKS` disks of one
    size, smaller than a chip's share of ``card_width`` (pixels), a chip's width apart, covering
    all but a sliver of it."""
    solid = cv2.morphologyEx(solid, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    if cv2.countNonZero(solid) < FILLED * part_area or _boxed(solid):
        return False
    found = disks(solid)
    if not 2 <= len(found) <= MOST_DISKS or found[0][2] > RADIUS_AT_MOST * card_width:
        return False
    nearest = min(math.dist(a[:2], b[:2]) for i, a in enumerate(found) for b in found[i + 1 :])
    if nearest < CHIP_APART * found[0][2]:
        return False
    return _covered(solid, found)


def on_a_pile(patch: np.ndarray, card_width: float) -> bool:
    """Whether ``patch`` (255 on a patch of a face-down pile's plain stock, its margins opened
    away) is chips lying on the pile: one to :data:`STACKS_ON_A_PILE` disks, smaller
    than a chip's share of ``card_width``, covering all but a sliver of it. Stacks on a pile
    overlap one another, so no distance apart is asked; a face's plain stock fills a card's
    corners, which disks leave out."""
    if _boxed(patch):
        return False
    found = disks(patch, ON_A_PILE_SIZE)
    if not 1 <= len(found) <= STACKS_ON_A_PILE or found[0][2] > RADIUS_AT_MOST * card_width:
        return False
    return _covered(patch, found)


def _covered(solid: np.ndarray, found: list[tuple[int, int, float]]) -> bool:
    """Whether the disks ``found`` cover :data:`COVERED` of ``solid``."""
    cover = np.zeros_like(solid)
    for x, y, r in found:
        cv2.circle(cover, (x, y), round(r) + 1, 255, -1)
    return cv2.countNonZero(cv2.bitwise_and(cover, solid)) >= COVERED * cv2.countNonZero(solid)


def _boxed(solid: np.ndarray) -> bool:
    """Whether the outline of ``solid`` (its holes filled) fills its smallest box as a card's
    does: a card's picture may print the felt's colour, and its holes split the card into a grid
    of disks of one size."""
    outlines, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not outlines:
        return False
    filled = np.zeros_like(solid)
    cv2.drawContours(filled, outlines, -1, 255, -1)
    (_, _), (w, h), _ = cv2.minAreaRect(np.vstack(outlines))
    return cv2.countNonZero(filled) > BOXED * w * h
