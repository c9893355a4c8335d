"""A closer look at a camera frame's face-up cards that it could not name, or named doubtfully.

A deck whose index is printed small and thin loses strokes in a frame's ink at a camera's scale:
the design never trained on prints serif ranks whose strokes are a pixel wide there, and the
threshold breaks a queen's ring and a ten's zero, or joins them to the suit below; no
rank-over-suit pair is left to read, and half of that deck's face-up cards went unnamed. Read
again at double size, in a box round the card alone, most of those indices come out whole.
Reading the whole frame so would cost four times the reading; the unnamed cards are few.

The same look checks the names a small index is misread as (:data:`DOUBTED_RANKS`): a small 3
whose open side closes reads as an 8, surely, on both corners, an 8 as a 6, a 6 as a ten, a thin
serif 9 as a jack, and a king's small spade beside its picture's frame as a club.

Each look costs a few milliseconds, so a frame takes at most ``looks_per_frame`` of them, and a
card lying still keeps what its look found (a name, or none) for as long as a card that looks
the same is found at its place in every frame. A card that goes, is covered for a frame, or is
swapped for another is forgotten; an unnamed card whose look named nothing is looked at again
after :data:`RELOOK_FRAMES`.

A still is read at several sizes already, but a small index there can be misread the same way,
from one corner only: a design's king of spades beside its picture's frame was named the king of
clubs at 0.91 in a held-out still, its other corner unread. A still takes its own looks
(:data:`STILL_LOOKS`, at the middle size of the indices it names, in both print polarities as
it is read), with nothing remembered from one picture to the next.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from dealer_pi.engine.cards import Card

if TYPE_CHECKING:
    from .detect import CardFound

LOOKS_PER_FRAME = 3
# A still's looks: enough for every unnamed or doubted card of a table's picture (one to three in
# the held-out stills, eight cards at most in the real table shots'); it is looked at once.
STILL_LOOKS = 8
RELOOK_FRAMES = 8
# A card found this near a looked-at card's centre (a share of its size on the frame) is that card.
SAME_PLACE = 0.1
# A name the closer look reads counts for the card only this near its centre (a share of its size):
# the box round a fanned card holds its neighbour's index too.
OWN_INDEX = 0.25
MARGIN = 0.05  # round the card's box, a share of its larger side
# A name of these ranks is looked at again too: at a camera's size the open side of a small 3
# closes, and a 6's or a 9's gap fills, into an 8. On the design never trained on, the frame named
# a 3 as an 8 at 0.91-0.99 in three scenes of forty; the closer look read each as its 3, and it
# read none of the 254 right names of 3s, 6s, 8s and 9s as another card (nor 306 of the drawn
# deck's). So the 8 is checked; the 3 and 9 are not: the looks cost time, and no wrong name of
# theirs was seen (the 6 is, since: below). The jack is checked too: the design's serif 9 of
# clubs was read as its jack (0.90-0.97 in every frame), the one false notice of 200 clean hands,
# and enrolled, a 9 of hearts as its jack; the look at double size reads the 9. So is a black
# king: that design's king of spades was read as the king of clubs on the board of three tables
# in 200 fresh clean hands (its small spade against the picture's frame, read 0.92-0.99 a club,
# the picture's own spades touching the frame and never read as pips); the look read two of the
# three Ks. A red king is not doubted: the misread is of one black suit for the other, and every
# look taken for a name is one not taken for an unnamed card. A doubted name the look cannot read
# keeps it, unless the look's reads at its index, too unsure to name a card, lean to another card
# only. The ten is checked since 1,000 clean hands of that design gave one false notice, a 6 of
# hearts alone on the board read as its ten (0.90-0.94 in every frame); the look reads the 6. A
# doubted ten the look confirms costs one look while it lies still, and no right ten of 80 live
# scenes of either deck lost its name to the look.
# The 6 is checked since the next 1,000 clean hands gave one notice: a printed 8 of hearts on the
# board named its 6 (0.94, five frames); the look reads the 8, and the card is left unnamed. Of
# 160 right 6s in 40 live scenes of that design, the look unnamed 3.
DOUBTED_RANKS = frozenset({6, 8, 10, 11})
DOUBTED_BLACK_RANKS = frozenset({13})
# Nor does a black king the frame names less surely than this, where the look reads nothing at
# all there, as it often does at that design's court index at double size: at its king of spades
# named Kc at 0.93 (seed 230, a false notice), its ten of clubs named Kc at 0.96, and right black
# kings named at 0.91 to 0.99 (of 6,034 right names in 200 live scenes, 15 under this bar).
BLANK_LOOK_KING_SURE = 0.97


# A card at a looked-at place is the card looked at only if its picture, shrunk to THUMB cells a
# side, differs from the one looked at by at most this many grey levels on average: a card put
# down where another lay, with no frame between, is no longer named as the other.
THUMB = 16
THUMB_SAME = 12.0


@dataclass(eq=False)
class _Look:
    centre: tuple[float, float]
    thumb: np.ndarray
    names: tuple[tuple[Card, float], ...]  # the cards the look named near the card's centre (how sure), nearest first
    frame: int
    leans: tuple[Card, ...] = ()  # the cards its reads there too unsure to name lean to


def _box(f: CardFound, frame_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The box (x, y, width, height) round a card's outline, with a margin, inside the frame."""
    pts = np.array(f.corners, np.float64)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    m = MARGIN * max(x1 - x0, y1 - y0)
    h, w = frame_shape[:2]
    bx0, by0 = max(0, int(x0 - m)), max(0, int(y0 - m))
    bx1, by1 = min(w, int(math.ceil(x1 + m))), min(h, int(math.ceil(y1 + m)))
    return bx0, by0, max(0, bx1 - bx0), max(0, by1 - by0)


def _thumb(bgr: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = box
    small = cv2.resize(bgr[y : y + h, x : x + w], (THUMB, THUMB), interpolation=cv2.INTER_AREA).astype(np.float32)
    return small.mean(axis=2) if small.ndim == 3 else small


def _doubted(card: Card) -> bool:
    return card.rank in DOUBTED_RANKS or (card.rank in DOUBTED_BLACK_RANKS and card.suit in "cs")


class CloserLook:
    """What the closer looks of a camera's recent frames found, card by card."""

    def __init__(self, looks_per_frame: int = LOOKS_PER_FRAME) -> None:
        self.looks_per_frame = looks_per_frame
        self.looks: list[_Look] = []
        self.frame = 0
        self.looked = 0  # looks taken, all frames (for the benchmarks)

    def name(self, bgr: np.ndarray, found: list[CardFound],
             read: Callable[[tuple[int, int, int, int]], list[CardFound]]) -> list[CardFound]:
        """``found`` after a closer look at frame ``bgr``'s unnamed face-up cards (named where the
        look names them) and at its cards named with a rank a small index is misread as (left unnamed
        where the look reads another name there, that name their guess, or names nothing there and
        leans to other cards only, or reads nothing at all at a black king named barely). ``read``:
        the cards a box of the frame (x, y, width, height) shows, read at double size; an unnamed
        one with a guess is what a read there leans to."""
        self.frame += 1
        named = {f.card for f in found if f.card is not None}
        budget = self.looks_per_frame
        kept: list[_Look] = []
        out = list(found)
        # Doubted names first: a wrong name is the worse failure, and the tracker reports a name
        # seen in three frames.
        wanted = sorted((k for k, f in enumerate(found) if f.face_up and (f.card is None or _doubted(f.card))),
                        key=lambda k: found[k].card is None)
        for k in wanted:
            f = found[k]
            box = _box(f, bgr.shape)
            if box[2] < 2 or box[3] < 2:
                continue
            thumb = _thumb(bgr, box)
            size = f.extent
            look = next((lk for lk in self.looks if math.dist(lk.centre, f.centre) <= SAME_PLACE * size
                         and float(np.abs(lk.thumb - thumb).mean()) <= THUMB_SAME), None)
            stale = look is not None and not look.names and f.card is None and self.frame - look.frame >= RELOOK_FRAMES
            if (look is None or stale) and budget > 0:
                budget -= 1
                self.looked += 1
                look = self._look(f.centre, size, box, thumb, read)
            if look is None:
                continue
            if look in self.looks:
                self.looks.remove(look)  # each look serves one card of the frame
            kept.append(look)
            # A fanned card's box holds its neighbour's index too: a name another card of the
            # frame has is the neighbour's, and a name the look also reads confirms the frame's.
            fresh = next(((c, p) for c, p in look.names if c not in named), None)
            if f.card is None and fresh is not None:
                named.add(fresh[0])
                out[k] = replace(f, card=fresh[0], confidence=fresh[1], guess=None, torn=())
            elif f.card is not None and fresh is not None and all(c != f.card for c, _ in look.names):
                out[k] = replace(f, card=None, confidence=fresh[1], guess=fresh[0], torn=())
            elif f.card is not None and not look.names and not look.leans and f.card.rank in DOUBTED_BLACK_RANKS \
                    and f.confidence < BLANK_LOOK_KING_SURE:
                # The look reads nothing at all at a black king the frame names barely.
                out[k] = replace(f, card=None, guess=None, torn=())
            elif f.card is not None and not look.names and look.leans and f.card not in look.leans:
                # Read too weakly to name anything, the index leans away from the doubted name: the
                # frame's ten of spades read as its king at 0.95-0.96, the look's read Ts at 0.38.
                out[k] = replace(f, card=None, guess=None, torn=())
        self.looks = kept
        return out

    def _look(self, centre: tuple[float, float], size: float, box: tuple[int, int, int, int], thumb: np.ndarray,
              read: Callable[[tuple[int, int, int, int]], list[CardFound]]) -> _Look:
        """What a look at ``box`` names within reach of a card's own index (``size``: the card's extent)."""
        seen = [c for c in read(box) if math.dist(c.centre, centre) <= OWN_INDEX * size]
        near = sorted((math.dist(c.centre, centre), c.card, c.confidence) for c in seen if c.card is not None)
        leans = tuple(c.guess for c in seen if c.card is None and c.guess is not None)
        return _Look(centre, thumb, tuple((card, p) for _, card, p in near), self.frame, leans)
