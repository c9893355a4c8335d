"""A number card's pips vouch for the suit its corner index reads as.

The reader's likeliest mistake is one suit for the other of its colour: a club for a spade at
8-15 pixels, where the two differ by a few pixels of lobe, or any suit in a grey-scale picture,
where colour cannot tell them apart. Such a misread is confident (0.93-1.0 on the real photos)
and it repeats on the card's other corner, so neither a higher bar nor a second corner stops it.
The middle of a 2-10 shows its suit again, in pips twice the index's size or more: each pip is
put to the suit head as if it were the index's suit glyph, turned the way it is printed (upside
down beyond the card's middle). Where the pips that read surely read as a rival suit outnumber
those that read as the index's, the index is not trusted with a name.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import math

import cv2
import numpy as np

from .card_shape import outline
from .glyphs import GRID, Blobs, Hypothesis, features

# A pip is printed larger than the index's suit glyph (1.5-3 times on the decks measured); the
# other corner's suit glyph, at the same size, reads the same way and counts too.
PIP_SIZE = (0.9, 4.0)
# Pips this near the card's middle (a share of the card's height) may be printed either way up.
MIDDLE_BAND = 0.08
NUMBER_RANKS = range(0, 9)  # rank classes of the 2 to the 10: the cards that have pips
IS_SUIT = 0.5  # a pip read as "not a suit" this surely is no pip (a rank glyph, a picture's fold)
SURE = 0.8  # a pip's suit counts when this sure among the four
# c, d, h, s: the other suit of each one's colour.
SAME_COLOUR_RIVAL = (3, 2, 1, 0)
_GEOMETRY = 2 * GRID * GRID  # where a feature row's geometry starts


@dataclass(frozen=True)
class Seen:
    """An index read in the picture: its glyphs, the card it names (``Card.index``) and the
    outline that card has if the index is one of its corners."""

    hy: Hypothesis
    card: int
    outline: np.ndarray  # the corners as OpenCV's polygon tests take them

    @staticmethod
    def of(hy: Hypothesis, card: int) -> Seen:
        return Seen(hy, card, outline(hy.rank_xy, hy.suit_xy)[1].reshape(-1, 1, 2))


def doubted(blobs: Blobs, seen: Sequence[Seen], asked: Sequence[int], suit_probs: Callable[[np.ndarray], np.ndarray],
            rival_colours: bool) -> set[int]:
    """Which of the reads ``seen[n]``, ``n`` in ``asked``, have pips that outvote their suit.

    ``suit_probs``: the suit head's five probabilities for feature rows. ``rival_colours``: a
    suit of the other colour is a rival too (a grey picture, or print whose colour says nothing)."""
    pairs = [pip_pairs(blobs, seen[n], [o for o in seen if o.card != seen[n].card]) for n in asked]
    if not any(pairs):
        return set()
    rows = features(blobs, [p for ps in pairs for p in ps])
    # Each pip is asked as its index's suit glyph: the pair's geometry stays the index's own.
    own = features(blobs, [seen[n].hy for n in asked])[:, _GEOMETRY:]
    rows[:, _GEOMETRY:] = np.repeat(own, [len(ps) for ps in pairs], axis=0)
    probs = suit_probs(rows)
    out: set[int] = set()
    start = 0
    for n, ps in zip(asked, pairs):
        suit = seen[n].card % 4
        rivals = [k for k in range(4) if k != suit] if rival_colours else [SAME_COLOUR_RIVAL[suit]]
        if outvoted(probs[start : start + len(ps)], suit, rivals):
            out.add(n)
        start += len(ps)
    return out


def pip_pairs(blobs: Blobs, index: Seen, others: Sequence[Seen] = ()) -> list[Hypothesis]:
    """The index with each pip-sized blob on its card in place of its suit glyph, the pair turned
    so that the pip stands as it is printed: upright in the index's half of the card, upside down
    in the other.

    Cards overlap, so a blob inside the card's outline may be printed on another card: a blob
    nearer another index of ``others`` whose card it also lies on is that card's, not this one's."""
    hy = index.hy
    st = blobs.stats
    suit_px = float(max(st[hy.suit_id, 2], st[hy.suit_id, 3]))
    sizes = np.maximum(st[:, 2], st[:, 3]).astype(np.float32)
    lo, hi = PIP_SIZE[0] * suit_px, PIP_SIZE[1] * suit_px
    at = np.array(hy.rank_xy, np.float32)
    step = np.array(hy.suit_xy, np.float32) - at
    down = step / max(float(np.hypot(*step)), 1e-6)
    pts = index.outline.reshape(-1, 2)
    middle = pts.mean(axis=0)
    height = float(np.hypot(*(pts[3] - pts[0])))
    own = set(hy.rank_ids) | {hy.suit_id}
    out: list[Hypothesis] = []
    for k in np.nonzero((sizes >= lo) & (sizes <= hi))[0].tolist():
        if k == 0 or k in own:  # 0: the paper round the print
            continue
        c = blobs.centroids[k]
        xy = (float(c[0]), float(c[1]))
        if cv2.pointPolygonTest(index.outline, xy, False) < 0:
            continue
        mine = float(np.hypot(*(c - at)))
        if any(math.dist(xy, o.hy.rank_xy) < mine and cv2.pointPolygonTest(o.outline, xy, False) >= 0 for o in others):
            continue
        along = float((c - middle) @ down) / height
        if abs(along) < MIDDLE_BAND:
            continue
        # The pair reads from rank to suit: for a pip upside down, the "rank" sits below it.
        sign = 1.0 if along > 0 else -1.0
        out.append(Hypothesis(hy.rank_ids, k, (xy[0] + sign * float(step[0]), xy[1] + sign * float(step[1])), xy, hy.size))
    return out


def outvoted(suit_probs: np.ndarray, suit: int, rivals: Collection[int]) -> bool:
    """Whether the pips read surely as one of ``rivals`` outnumber those read as ``suit``.

    ``suit_probs``: the suit head's five probabilities (c, d, h, s, not a suit) per pip."""
    if not len(suit_probs):
        return False
    suits = suit_probs[:, :4] / np.maximum(suit_probs[:, :4].sum(axis=1, keepdims=True), 1e-9)
    counted = (suit_probs[:, 4] < IS_SUIT) & (suits.max(axis=1) >= SURE)
    said = suits.argmax(axis=1)[counted]
    against = int(np.isin(said, list(rivals)).sum())
    return against >= 2 and against > int((said == suit).sum())
