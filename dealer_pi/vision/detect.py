"""Cards in one frame: where each lies, face up or down, and what it is.

Two views are combined:

* corner indices read anywhere in the picture (:mod:`.recogniser`), each
  giving a card's identity, its orientation and so an estimate of its outline;
* "not felt" regions, which show every card, face up or down, even when no
  index is readable; a region with more area than its read cards explain holds
  more cards (a covered hole card, a face-down card).

On a table that is not felt-coloured (the photo set's white desks) only the
index reads are used, so ``detect`` still works on any photo.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import cv2
import numpy as np

from dealer_pi.engine.cards import Card, misread_as

from . import chips, racks
from .card_shape import CARD_H_U, CARD_W_U, RANK_X_U, RANK_Y_U, filled_polygon, outline
from .change import card_points, kept, read_again, touches
from .closer import LOOKS_PER_FRAME, CloserLook
from .colour import hsv_colour, lab_colour
from .exposure import exposed, white_level
from .glare import felt_in_glare, grey_in_glare, is_grey, without_glare
from .glyphs import at_edge, felt_band, frame_brightness, is_paper, quarter, region_boxes, touching
from .recogniser import VOUCHED_SUIT, IndexRead, Recogniser, largest_around, passes_dispute
from .regions import (LOBE, RegionClassifier, card_width, face_down_count, face_up_count, lobes, within_one_card,
                      without_knobs)
from .shadow import lift_shadows


T = TypeVar("T")

# A corner read this sure may vote for its card together with the card's other corner.
CANDIDATE = 0.5
# Two corners that disagree are one card's only when the cards they imply lie this close (card heights).
TORN_APART = 0.3
# In a camera stream every index is printed at about the glyph size followed (the camera does not
# zoom, and a deck prints one size of index): a read whose glyph is this many times that size may be
# a card's pips read as an index. Too unsure to lean to a name, it is no card and leans to none:
# two clubs of a printed 7 of clubs on the board read 6c at 0.35 with 23-pixel glyphs, 13 followed,
# an unnamed face-up card beside the seven that the monitor took for a turn dealt without a burn.
# Named, it does not move the size followed (see Detector._follow), and it names its card only up
# to the largest glyph a frame that follows a size looks for: the printed deck's tens, and a 5d and
# a Kd, were read right at 1.42 to 1.62 times the size followed.
INDEX_SIZE_AT_MOST = 1.4
# Where the camera knows a card's height (or, at a slant, the longest a card lies in the frame), a
# read whose index implies a card more than this many times as tall is no index, whatever the size
# followed: before a size is followed (a fresh camera, one moved) every size is read, and a back of
# pink stripes without a margin, turned 20 degrees, read as a 4h at 1.00 from two halves of its
# pattern, a card three times too tall.
# Named reads implied 0.69 to 1.28 of the card's height on the held-out printed design (178 reads,
# 1920x1080 stills) and 0.88 to 1.17 on the drawn deck (303, cards 70 to 200 pixels tall).
INDEX_CARD_AT_MOST = 2.0
# Where no card's height is known (a still without markers), the middle of the named reads' gives
# it, from SIZE_FROM_READS named reads. A blue lattice back read as a 4h at 1.00 with 57-pixel
# glyphs, among nine named reads of 13 to 15 (held-out still 2300/4, a seed never tuned on): a
# card 2.6 times as tall as theirs.
SIZE_FROM_READS = 3
# Cloth this dark (HSV value) under a camera is a table whatever its colour: black and grey speed
# cloth. On the simulated table's camera frames, grey cloth of 110 and black of 30 hid every
# face-down card while coloured cloth was the only kind looked at for them (models/eval_dim.py
# --cloth). Not in a still, whose table colour is a guess from the picture: the odd WIN_* photos'
# light grey desk, under 130 in the dimmer ones, lost 12 of 327 names read so.
DARK_CLOTH = 130
# ... and lighter cloth where card stock is far off its colour: its Lab lightness this far under the
# frame's white (grey of about 185 under white of 250; card stock is felt within FELT_NEAR). A
# camera's automatic exposure lifts grey cloth towards middle grey: at 1.15 times the light the
# simulator's grey of 110 lost 6 of 30 face-down cards to the bar of 130 alone, at 1.3 times 27.
UNDER_WHITE = 60.0
# What lies beside a chip rack in pieces smaller than this share of a card does not widen a card's
# box: the corner of the next card, the rack's own blurred end (in the camera's detector run on a
# held-out still, a piece of about 0.06 of a card widened a burn's box beside a rack to 1.09 of a
# card's width), the sliver of a face-up card the reads leave beside a rack lying across it (0.16
# in held-out still 2500/5, where the burn and the rack were counted two face-down cards; at 0.2,
# two scenes of the 1,000 are counted right that were not, and nothing else changes).
BAR_SPECK = 0.2
# Skin-coloured patches smaller than this share of a card are part of a card's picture, not a hand.
HAND_AREA = 0.15
# ... unless it is a card's rectangle: this many cards' area, filling this much of the smallest
# rectangle round it, at most this many times as long as wide (a card is 1.4, two side by side 1.4).
SKIN_BACK_CARDS = (0.5, 3.0)
SKIN_BACK_FILL = 0.85
SKIN_BACK_LONG = 2.2
# A skin-coloured patch with this share of its inside on print's sharp edges (a Laplacian of
# SKIN_PRINT_EDGE or more; see _printed) is a brown back, not a hand: a pair's lower card shows a
# strip of it that fills no rectangle, and a pair fanned close fills none either. Held-out stills:
# a lattice's strips 0.80-0.90 (1700/15), a pair of doodled backs 0.30 (300/7); a wooden table's
# stretches 0, and a wooden floor's grain (tests/vision/test_surface.py's rail) 0: its edges are
# soft, under 60.
SKIN_PRINT = 0.15
SKIN_PRINT_EDGE = 96
MIDDLE = (0.3, 0.7)  # the middle of a picture, as a share of its width and height
# A region filling this much of its enclosing circle is round (chips fill about 0.97). Two cards
# crossed at an angle fill up to about 0.78 of theirs, and more once the opening has rounded
# their corners (0.75 to 0.85 measured), so the bar sits above that.
ROUND = 0.88
# Plain card stock: white in stretches at least this share of a card's width across. A face is
# mostly plain white; a back's light pattern is white too, but in lines and dots that are not.
PLAIN_GRAIN = 0.03
# A part this much plain card stock is a face-up card. On 20 scenes of a deck never trained on,
# faces showed 0.38 and more, backs of every pattern 0.20 at most (models/REPORT.md).
PLAIN_FACE_UP = 0.3
# ... unless, below what any face showed, it shows two or more framed stretches of back: a big
# pile (the muck) at many angles shows so much of its margins that it passes 0.3 (0.31 measured).
PLAIN_FACE_UP_SURE = 0.38
# ... and only where a tenth of that plain stock or more lies in one piece. A face's stock is one
# piece round its print: 0.35 and more of it in 143 unnamed face-up parts of 200 held-out scenes
# (eval_heldout.py, seeds 100 to 1000). A back of white checks passed for a face (0.33 to 0.36
# plain), its stock in 236 and 552 pieces, 0.01 of it in the largest (models/REPORT.md).
PLAIN_WHOLE = 0.1
# ... and only where little of its plain stock is stepped: a step of FLAT_STEP grey levels across
# the 3x3 pixels round it, in the lightly blurred picture. A face's plain stock is flat but beside
# its print; a pale back's fine lattice or plaid passes for plain stock all over and is mostly
# steps. Measured as a share of the plain stock, not of the part: a back whose pattern is faint
# (white lines on a ground 25 grey levels darker, under the scene's light) or pale in patches
# (a blue-grey dotted one showing 0.31 plain) stepped 0.10 of its part at a step of 20, or was
# never asked, and two such pairs and a lone one were unread faces (held-out stills 4400/9 and
# 3900/17). Of the plain stock, at a step of 12: backs 0.70 and more in the held-out parts plain
# enough to be asked, unread faces 0.53 at most in 98; on the camera's frames of 100 scenes, faces
# of the printed deck 0.58 at most, of the drawn deck 0.46 (models/REPORT.md). The bar lies between.
STEPPED = 0.64
FLAT_STEP = 12
# A named card lies on the cards: at least this share of its outline on the region of not-felt
# (with what that region encloses). A blue back's fine stripes, between the burn and a seat's
# pair, read as a 4h whose outline lay 0.30 on the region, the rest on the felt (held-out still
# 4000/12); named cards that were there covered 0.75 or more (six stills), and no right name was
# lost on 1,000 held-out stills or the real photos (models/REPORT.md).
NAMED_ON_CARDS = 0.5
# A stretch of card back counts as a card of its own from this share of a card's area; the
# strip a card shows under the next in a pile is 0.08 to 0.45 of a card, stray pixels 0.02 at most.
BACK_AREA = 0.06
# ... and only when it fills this much of its hull: a ring of a back's pattern fills far less.
BACK_SOLID = 0.6
# ... and only when white card stock makes up this much of what borders it (a ring as wide as the
# opening): the card's margin ...
BACK_FRAMED = 0.5
# ... or this much of what lies within MARGIN_REACH of a card's side of it (2 pixels at least). A
# margin is as thin as that at a camera's scale: on the held-out scenes (eval_heldout.py, seeds 100
# to 500) the first two pixels round backs framed by a thin one were 0.82 to 1.0 card stock where the
# wide ring found 0.35 to 0.49 (felt beyond the margin), and a pile of three such cards counted two.
# Round a chip rack or a back cut by chips the near ring found 0.65 card stock at most. The wide
# ring stays for a back that a player's arm crosses: what borders it there is skin (0.61 near, 0.53 wide).
BACK_FRAMED_NEAR = 0.75
MARGIN_REACH = 0.016
# A face-down part with no framed back this many times longer than wide is not cards: three
# burns side by side are 2.4 times as long as wide, a rail's piece or a chip rack 3 and more.
ELONGATED = 2.7
# ... or that fills less than this of its smallest box: cards crossed at any angle fill 0.7 and
# more, a piece of the rail's arc far less.
HOLLOW = 0.5
FELT_NEAR = 45.0  # a colour this near the felt's (see felt_distance) is felt, as not_felt says
# A piece of a face-up part split into cards is a face-down card when this little of it is plain
# card stock: backs of every pattern showed 0.20 at most, whole (PLAIN_FACE_UP). The back of a
# card lying on a turned-up 5 of spades showed 0.14, the five 0.74 (models/REPORT.md).
PIECE_BACK_PLAIN = 0.2
# ... and up to this much where its part is face up: the straight cut between pieces leaves a
# sliver of the face beside it in the back's piece (held-out 1100/18, a burn framed in white
# against an unnamed face-up pair: 0.205 in the burn's piece, the pair's 0.73). Not the line for
# a face beside a back in a face-down part (below): pieces of face-down piles with white margins
# showed up to 0.37 (held-out seed 2200, scene 15).
PIECE_BACK_BESIDE_FACE = 0.25
# Such a piece is no card where a chip rack (racks.bar_of) covers this share of it: a rack lying
# against a face-up pair is one part with it, and its piece was a face-down card (held-out 1100/5).
RACK_PIECE = 0.5
# ... and of a face-down part split into two cards, a piece is a face-up card whose index is hidden
# (under the card beside it) where it shows more plain stock than PLAIN_FACE_UP while the other
# shows no more than PIECE_BACK_PLAIN: a back with a face beside it, not two backs. Only in a part
# without two framed backs (those count it) and with this much plain stock at least, of the faces'
# colour: a pale back of another colour has none, however pale its pieces. In a part split in
# three, two such pieces are asked: the margins of backs piled on each other gather in one piece
# (held-out 200/17; in 2200/15, three purple backs with white margins, 0.20, 0.29 and 0.37), and
# an unnamed face-up pair beside the burn shows two (800/4, 0.33 and 0.44 beside 0.004). Not in a
# pile of four or more. On 400 held-out scenes (eval_heldout.py, seeds 100 to 2000), face-down
# pairs that pass these gates showed 0.21 at most in either piece (a later seed's, 0.28: 2200/15);
# a back beside a face-up card whose index was hidden, 0.38 to 0.52 in the face (models/REPORT.md).
BESIDE_FACE_PLAIN = 0.1
# ... and of a part split into two, the face's piece shows more than the back's by this much.
# Overexposed, a pair of blue lattice backs lightens into pieces alike pale: up to 0.33 in one,
# and 0.14 more than the other (models/eval_dim.py, green, blue, red and black cloth at 1.5 to 2.5
# times the light); one of a seat's two backs was reported face up, a hole card exposed to the
# monitor. A face beside a back showed 0.35 to 0.54, and 0.21 to 0.54 more than the back (held-out
# stills, 12 seeds of eval_heldout.py).
PAIR_FACE_OVER = 0.17
# A part's card stock is of the colour of the named faces' stock in the same frame: pixels this far
# from it (Lab's a and b together) are no card stock, however pale. A light lilac back lay 20 from
# the faces, a pale pink one 8 (its white margin 0); on the real photos each face's stock lies
# within 9 of the photo's, and of a face's pale pixels 13 in 100 at most lie further than 8 in nine
# faces of ten.
STOCK_NEAR = 8.0
# ... nor is a part's pale ground whose middle lightness is this much below it (Lab's L, 0 to 255).
# A pale blue-grey back with green loops lay 44 below the faces, its colour 6 from theirs (a held-out
# scene: five face-down cards reported as unread faces, models/REPORT.md); the plain stock of 95
# unread faces in 120 held-out scenes lay from 17 below the named faces' to 14 above.
STOCK_DARKER = 30.0
STOCK_PIXELS = 20  # pale pixels of a named card that say what its stock's colour is
STOCK_CARDS = 5  # named cards that say it
# Face-down piles whose split a detector remembers (a table holds a dozen at most), and parts whose
# chip test it remembers (two cards a seat, the board, the burns, the muck, the markers).
SPLITS_KEPT = 32
PARTS_KEPT = 64
SPLIT_SAMPLE = 1000  # pixels of a pile that k-means places its centres by (see _split)

Stock = tuple[float, float, float]  # a frame's card stock's colour: Lab's L, a and b


@dataclass(frozen=True)
class CardFound:
    """One card in a frame; ``card`` is None when face down or not read with confidence."""

    card: Card | None
    face_up: bool
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    confidence: float
    zone: str | None = None
    guess: Card | None = None  # unnamed and face up: the name its reads lean to (at CANDIDATE or more)
    # Unnamed, its corners read as names a misread links (:func:`_torn_cards`): each name with its
    # corner's confidence. Across frames each stands against the other (the tracker's leanings).
    torn: tuple[tuple[Card, float], ...] = ()

    @property
    def extent(self) -> float:
        """How big it looks: the diagonal of the upright box round its outline, in pixels."""
        pts = np.asarray(self.corners, np.float32)
        return float(np.linalg.norm(pts.max(axis=0) - pts.min(axis=0)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": str(self.card) if self.card else None,
            "face_up": self.face_up,
            "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
            "zone": self.zone,
        }


@dataclass(frozen=True)
class Part:
    """A stretch of card-coloured pixels that no read explains: one card or more, face up or
    down, or something else (a hand, chips, a sliver of a card already found)."""

    mask: np.ndarray  # 255 on the part, in its own box
    x: int  # the box's top-left corner in the frame
    y: int
    area: float  # of its outline, in pixels
    card_area: float  # one card's area at this frame's scale
    paper: float  # share of white card stock (see paper_shares)
    bright: float  # the frame's brightness that share was measured against (glyphs.frame_brightness)
    backs: int = 0  # stretches of card back that white card stock parts (see visible_backs)
    plain: float = 0.0  # share of plain card stock (see paper_shares)
    off_felt: float = 1.0  # share of its area off the felt's colour, measured for face-up parts (see off_felt)
    apart: int = 0  # cards the felt parts it into along its length, measured for face-up parts (see off_felt)
    whole: float = 1.0  # share of its plain card stock in one piece, measured for face-up parts (see plain_whole)
    stepped: float = 0.0  # share of its plain card stock that is not flat, where it may be face up (see stepped_share)
    rack_cut: bool = False  # what lies beside a chip rack, the rack cut off (see Detector._part)

    @functools.cached_property
    def knobless(self) -> np.ndarray:
        """The mask without what sticks out of it as a knob (:func:`.regions.without_knobs`),
        worked out once: both the width that counts a pile and a lone card's outline ask it."""
        return without_knobs(self.mask, card_width(self.card_area))


def outline_from_read(r: IndexRead, card_h: float = 0.0) -> tuple[tuple[float, float], np.ndarray]:
    """Card centre and corners implied by a corner index's position, direction and size (and the
    card's height in pixels, ``card_h``, where it is known)."""
    return outline(r.rank_xy, r.suit_xy, card_h)


# The offset from one corner index to the opposite one, in index units, on the decks the card
# shape above was measured on; other decks print their index larger or smaller than these.
DIAGONAL_U = (CARD_W_U - 2 * RANK_X_U, CARD_H_U - 2 * RANK_Y_U)
# A card's two corner indices lie inside it: never further apart than this share of its diagonal
# (a tenth for a card a little nearer the camera than the calibration's plane). By glyph size
# alone two corners may lie twice as far apart as a deck's usual index implies, and in a camera
# frame a printed 8 of diamonds' upper index and its neighbour's lower one, a 3 read as an 8, 216
# pixels apart where the card's diagonal is 163, made one 8 between the two (a turn never seen
# landing, a false DEAL-BURN; vision_loop.py --deck knoll --seed 243, roberts table 8).
CORNERS_APART = 1.1
# Two corner indices of one card point along its length within this cosine (45 degrees).
IN_LINE = 0.7
# A name read this many more times within a card, once across itself, is a pattern (see _crossed).
# One read across it is not: four right names of the 772 on the real photos had one (a
# neighbour's print, 0.54 to 0.77) and no other; a lattice back read as a king had four more.
CROSSED = 2


def opposite_corners(a: IndexRead, b: IndexRead, any_shape: bool = False) -> bool:
    """Whether ``b`` can be the index in the corner opposite ``a`` on one card: turned half a
    turn, below and to the right of ``a`` as ``a`` reads, at a card's aspect (unless
    ``any_shape``), and no more than twice as far as ``a``'s size implies (decks print their
    index at different sizes)."""
    (dx, dy), (ex, ey) = a.down, b.down
    if dx * ex + dy * ey > -0.8:
        return False
    vx, vy = b.rank_xy[0] - a.rank_xy[0], b.rank_xy[1] - a.rank_xy[1]
    along = vx * dx + vy * dy  # towards a's bottom edge
    across = vx * dy - vy * dx  # towards a's right edge
    if along <= 0 or across <= 0:
        return False
    expected = math.hypot(*DIAGONAL_U) * _unit(a)
    aspect = DIAGONAL_U[1] / DIAGONAL_U[0]
    return (any_shape or 0.6 * aspect < along / across < 1.6 * aspect) and 0.6 * expected < math.hypot(vx, vy) < 2 * expected


def _named_card_height(reads: list[IndexRead]) -> float:
    """The card height the named ``reads``' indices imply, the middle one of theirs (one table's
    cards are of one size); 0 where fewer than :data:`SIZE_FROM_READS` are named."""
    units = sorted(_unit(r) for r in reads if r.card is not None)
    return CARD_H_U * units[len(units) // 2] if len(units) >= SIZE_FROM_READS else 0.0


def in_line(a: IndexRead, b: IndexRead) -> bool:
    """Whether two reads lie along one card's length, each way up (opposite corners) or the same
    way (a deck printing all four corners), within :data:`IN_LINE` of it, whatever a slant does.
    A back's lattice read twice at right angles as a Kh, 0.70 and 0.72, made a Kh at 0.92."""
    (dx, dy), (ex, ey) = a.down, b.down
    return abs(dx * ex + dy * ey) >= IN_LINE


def _crossed(a: IndexRead, reads: list[IndexRead]) -> bool:
    """Whether ``a``'s name is a pattern's, read here and there: :data:`CROSSED` or more other
    reads of ``reads`` (leaning to that name; not the same glyphs read again) lie within a card's
    height of ``a``, one of them at right angles to it, which no index of ``a``'s card can be. A
    green lattice back on green felt read as Kh seven times within a card, upright and turned a
    quarter, at 0.65 to 0.93 (a held-out still, eval_heldout.py --seed 1200, scene 2): two kings."""
    reach = CARD_H_U * _unit(a)
    near = [r for r in reads if r is not a and 2 * a.size < math.dist(a.rank_xy, r.rank_xy) < reach]
    return len(near) >= CROSSED and any(not in_line(a, r) for r in near)


def one_card(a: IndexRead, b: IndexRead, card_h: float = 0.0) -> bool:
    """Whether two reads of one name can be one card's opposite corners, whichever was read
    first. The card's shape is not asked: a photo taken at a slant squeezes it, and two cards of
    one name lying corner to corner are a foul deck, not a likely table. ``card_h``: a card's
    height in pixels where the camera knows it; two indices further apart than its diagonal
    (:data:`CORNERS_APART`) are two cards' corners, whatever size their glyphs imply."""
    if card_h > 0 and math.dist(a.rank_xy, b.rank_xy) > CORNERS_APART * card_h * math.hypot(CARD_W_U, CARD_H_U) / CARD_H_U:
        return False
    return opposite_corners(a, b, any_shape=True) or opposite_corners(b, a, any_shape=True)


def _torn_cards(reads: list[IndexRead], card_h: float = 0.0) -> tuple[list[CardFound], set[int]]:
    """Cards whose two opposite corners are read as two names a misread makes (``misread_as``).

    Two cards lying corner to opposite corner, each implying the same card's outline, are much
    rarer than one card misread in one corner, so such a pair is one card, and it stays
    unnamed: nothing says which corner is right. That holds where a corner's read is too
    unsure to name a card but leans to a name (at ``CANDIDATE`` or more): a 10 of clubs read
    Ts at 0.96 at one corner and Tc at 0.6 at the other is not sure to be the Ts; where both
    only lean, they are still one card, not two unnamed ones. A corner too unsure even to lean
    still disputes a named corner unsure of its suit (:func:`_suit_disputed`). Two names no
    misread links are two cards, however close (a king across the foot of a nine lay 0.13 of a
    card apart on a real photo, a 3 and a 9 of spades under 0.3 on a rendered table). Without
    this it would be two cards, or one, named wrong (a false duplicate-card or exposed-card
    alarm). A read whose own opposite corner reads the same name is a card of its own (cards
    laid out by rank overlap that way). Returns those cards and the reads they take up (the
    pair, and the same names read again at the same places). ``card_h``: as for :func:`one_card`.
    """
    named = [r for r in reads if r.card is not None]
    leaning = named + [r for r in reads if r.card is None and r.best is not None and r.confidence >= CANDIDATE]
    doubting = [r for r in reads if r.card is None and r.best is not None and r.confidence < CANDIDATE]

    def name(r: IndexRead) -> Card | None:
        return r.card or r.best

    def confirmed(a: IndexRead, b: IndexRead) -> bool:  # another opposite corner than b reads the same: a card of its own
        return any(r is not b and r.card == name(a) and one_card(a, r, card_h) for r in named)

    def same_place(a: IndexRead, b: IndexRead) -> bool:  # the card each implies is the same one
        return math.dist(outline_from_read(a)[0], outline_from_read(b)[0]) < TORN_APART * CARD_H_U * _unit(a)

    cards: list[CardFound] = []
    taken: list[IndexRead] = []
    for a in leaning:
        for b in leaning + doubting:
            if a is b or any(r is a or r is b for r in taken):
                continue
            na, nb = name(a), name(b)
            assert na is not None and nb is not None
            if b.confidence < CANDIDATE and not _suit_disputed(a, na, nb):
                continue
            two = _two_ways(a, b, na, nb)
            if two and opposite_corners(a, b) and same_place(a, b) and not confirmed(a, b) and not confirmed(b, a):
                centre, pts = outline_from_corners(a, b)
                cards.append(CardFound(None, True, centre, _pts(pts), max(a.confidence, b.confidence), torn=two))
                taken += [a, b]
    torn = {id(r) for r in taken}
    for r in leaning:
        if any(name(r) == name(t) and math.dist(r.rank_xy, t.rank_xy) < 2 * t.size for t in taken):
            torn.add(id(r))
    return cards, torn


def _two_ways(a: IndexRead, b: IndexRead, na: Card, nb: Card) -> tuple[tuple[Card, float], ...]:
    """The two names a misread links that corners ``a`` and ``b`` (named ``na`` and ``nb``) read
    their card as, each with how sure; empty if they read no such two.

    In a still, corners that read one name read two where one of them has a rival (another pass
    read it as a misread of that name, :func:`.recogniser.rival`) and only one pass read the other
    one at all: a 10 of clubs with 6-pixel indices, read Ts at 0.93 at one corner by the triple
    size alone, Ts at 0.89 and Tc at 0.79 at the other. Where two passes or more read the naming
    corner alike, it stands: the odd real table shots lost 13 cards named right, and no wrong one,
    when any rival tore its card."""
    if misread_as(na, nb):
        return ((na, a.confidence), (nb, b.confidence))
    if na == nb:
        for named, other in ((a, b), (b, a)):
            if other.rival is not None and passes_dispute(na, other.rival[0]) and named.agreeing == 1:
                return ((na, named.confidence), other.rival)
    return ()


def _suit_disputed(a: IndexRead, na: Card, nb: Card) -> bool:
    """Whether a corner too unsure to lean to ``nb`` still disputes ``a``'s name ``na``: ``a``
    names its card, unsure of its suit (no pips vouched), and ``nb`` is that rank in the other
    suit of its colour. A small club and spade differ by a few pixels: one corner can read the
    wrong one fairly surely while the other reads the right one too weakly to lean to it. The
    printed design never trained on read a king of spades Kc at 0.92 (0.93 of the suit) at one
    corner and Ks at 0.36-0.47 at the other, frame after frame. A weak read of another rank is
    not taken as a dispute: no such misread was seen, and the rule is kept to the one that was."""
    return a.card is not None and a.suit < VOUCHED_SUIT and na.rank == nb.rank and na.suit != nb.suit


def _inside_one_another(cards: list[tuple[int, CardFound]]) -> list[CardFound]:
    """Cards of one name of which one lies on the middle of another are one card (a third read,
    of the card's picture, say, gave it an outline of its own): the one seen by more corners,
    else the surer, stays."""
    kept: list[CardFound] = []
    for _, f in sorted(cards, key=lambda nf: (-nf[0], -nf[1].confidence)):
        if not any(_holds_point(k, f.centre) or _holds_point(f, k.centre) for k in kept):
            kept.append(f)
    return kept


def _holds_point(f: CardFound, xy: tuple[float, float]) -> bool:
    outline = np.asarray(f.corners, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(outline, (float(xy[0]), float(xy[1])), False) >= 0


def outline_from_corners(a: IndexRead, b: IndexRead) -> tuple[tuple[float, float], np.ndarray]:
    """The card both opposite indices belong to: its centre midway between them (a card is the
    same turned half a turn), its size from their distance, whatever size the deck prints them."""
    cx, cy = (a.rank_xy[0] + b.rank_xy[0]) / 2, (a.rank_xy[1] + b.rank_xy[1]) / 2
    _, pts = outline_from_read(a)
    own = pts.mean(axis=0)
    scale = math.dist(a.rank_xy, b.rank_xy) / (math.hypot(*DIAGONAL_U) * _unit(a))
    return (cx, cy), ((pts - own) * scale + np.array([cx, cy], np.float32)).astype(np.float32)


def felt_colour(bgr: np.ndarray) -> np.ndarray:
    """The commonest colour of ``bgr``: its median."""
    small = bgr[::8, ::8].reshape(-1, 3)
    return np.median(small, axis=0).astype(np.float32)


def middle(bgr: np.ndarray) -> np.ndarray:
    """The middle of the picture, where the camera's subject is."""
    h, w = bgr.shape[:2]
    a, b = MIDDLE
    return bgr[int(h * a) : int(h * b), int(w * a) : int(w * b)]


def middle_colour(bgr: np.ndarray) -> np.ndarray | None:
    """The commonest colour in the middle of the picture; None where it is white card stock (the
    middle of a close-up of cards is a card, not a table)."""
    colour = felt_colour(middle(bgr))
    hsv = hsv_colour(colour)
    return None if hsv[1] < 40 and hsv[2] > STOCK_VALUE else colour


# White card stock is brighter than this (HSV value), in a photo's light too.
STOCK_VALUE = 150


def table_colour(bgr: np.ndarray) -> np.ndarray:
    """The table's colour: the commonest in the middle of the picture, where the table is even
    when the floor round it fills the corners. The whole picture's where the middle is not mostly
    one colour, or is white card stock: a close-up of cards, not a table."""
    colour = middle_colour(bgr)
    centre = middle(bgr)
    if colour is None or cv2.countNonZero(not_felt(centre, colour)) > 0.5 * centre.shape[0] * centre.shape[1]:
        return felt_colour(bgr)
    return colour


def not_felt(bgr: np.ndarray, felt: np.ndarray, threshold: float = FELT_NEAR, quartered: np.ndarray | None = None,
             lab: np.ndarray | None = None) -> np.ndarray:
    """255 where the frame is not felt-coloured; worked out at quarter size, which is plenty for
    cards (``quartered``: :func:`.glyphs.quarter` of ``bgr``, and ``lab``: that in Lab, if already made)."""
    h, w = bgr.shape[:2]
    if lab is None:
        lab = cv2.cvtColor(quarter(bgr) if quartered is None else quartered, cv2.COLOR_BGR2Lab)
    mask = ((lab_distance(lab, felt) > threshold) * 255).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST)


# A back in nearly the felt's colour (a dark red deck on red felt) is far from the felt's colour
# only at its print; the rest of it is a little off the felt's hue (a and b of Lab, this far in all),
# where the felt's light and shade are not.
FELT_HUE_NEAR = 6.0
# ... and only where its outline holds print: at least this share of it on edges of print. Felt the
# scene's light darkens drifts off its own hue too, and a plain patch of it against the rail was
# two face-down cards (held-out still 3800/2: 0.004 of it on edges). In 100 held-out scenes (seeds
# 100, 200, 300, 2300, 3800) the backs the hue found held 0.15 to 0.95, patches where no card lay
# 0.05 at most, most of them under 0.02; a dark red back with a few sparse loops on red felt, cut by
# its loops into pieces, 0.043 in its smallest (tests/vision/test_surface.py).
HUE_PRINT = 0.02
# A back whose ground is the felt's own hue and only lighter (pink rings on a ground of the red
# felt's red, 16-20 Lab lightness above it: held-out still 2300/14) is a ragged net of its rings to
# colour and hue, too thin to count; its ground is this much lighter than the felt round it. Only
# lighter: felt the rail shades is darker than the felt round it by as much (4500/15, -10 to -20),
# and joined to the pair beside it, the pair was no longer two cards.
FELT_LIGHTER = 10.0
# A back printed in the felt's own colour (a red deck on red felt) is not told from the felt by
# colour; its print is: a dense pattern of edges where felt has a few (its weave, its noise).
PATTERN_EDGE = 24  # a Laplacian this strong at least is an edge ...
PATTERN_OVER_GRAIN = 3.0  # ... and this many times the felt's middle one
PATTERN_DENSE = 0.3  # share of a 5x5 window (quarter size) on edges: one card edge gives 0.1
PATTERN_NEW = 0.5  # a patterned patch counts only where colour saw under half of it


def table_print(bgr: np.ndarray, not_felt_mask: np.ndarray) -> np.ndarray:
    """Where a still has edges of print (:func:`print_edges`, against the grain of what colour
    left as felt): the ink :func:`patterned` and :func:`off_the_felts_hue` look for."""
    return print_edges(bgr, not_felt_mask == 0, PATTERN_EDGE, step=4)


def patterned(bgr: np.ndarray, not_felt_mask: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """255 on patches of dense print (``ink``: :func:`table_print`) that colour left as felt
    (``not_felt_mask``, at the picture's size): card backs in the felt's colour. A patch colour
    already saw half of is left to colour: its outline (a pair's margins, the face-down count)
    comes from colour, and the print's blur round it would only widen it."""
    h, w = bgr.shape[:2]
    edges = (ink * 255).astype(np.uint8)
    small = cv2.resize(edges, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    dense = ((cv2.boxFilter(small, -1, (5, 5)) > PATTERN_DENSE * 255) * 255).astype(np.uint8)
    # Opened: the band along one strong edge (a card's, the rail's) is narrower than this.
    dense = cv2.morphologyEx(dense, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dense, connectivity=8)
    seen = cv2.resize(not_felt_mask, dense.shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
    new = np.bincount(labels[seen], minlength=n) < PATTERN_NEW * stats[:, cv2.CC_STAT_AREA]
    new[0] = False
    return cv2.resize((new[labels] * 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)


# Felt that the region encloses (see enclosed) is card where it is at most this share of the picture
# (a card is a 130th of a 1920x1080 still's).
ENCLOSED_MOST = 0.02
# A camera's enclosed patch is a back's pale print only this much lighter than the felt (Lab L): a
# blue back's patches on overexposed blue cloth were 25-35 lighter; the felt a shadow's soft edge
# encloses, lifted with the shadow, 15 darker (at 0.4 of the light; 45-57 darker unlifted).
ENCLOSED_LIGHTER = 5


def print_edges(bgr: np.ndarray, table: np.ndarray | None, least: float, step: int = 1) -> np.ndarray:
    """True where ``bgr`` has an edge of print: a Laplacian of ``least`` or more, and of
    :data:`PATTERN_OVER_GRAIN` times the table's own grain (its middle Laplacian where ``table``
    is True, sampled every ``step`` pixels), so that a noisy camera's grain is no print."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr
    lap = cv2.convertScaleAbs(cv2.Laplacian(grey, cv2.CV_16S, ksize=3))
    sample = table[::step, ::step] if table is not None else None
    grain = float(np.median(lap[::step, ::step][sample])) if sample is not None and sample.any() else 0.0
    edges: np.ndarray = lap > max(least, PATTERN_OVER_GRAIN * grain)
    return edges


def enclosed(mask: np.ndarray, lightness: np.ndarray | None = None, least: float = 0.0) -> np.ndarray | None:
    """255 on the felt that ``mask`` encloses wholly, in patches no larger than :data:`ENCLOSED_MOST`
    of the picture: a back of the felt's colour inside its margin; None where there is none. With
    ``lightness`` (Lab L at quarter size), only patches of ``least`` or more on average: a shadow's
    soft edge encloses the shaded felt round a card, darker than the felt, and is no card."""
    small = mask[::4, ::4]
    n, felt_ids, stats, _ = cv2.connectedComponentsWithStats((small == 0).astype(np.uint8), connectivity=4)
    h, w = small.shape
    holes = (stats[:, cv2.CC_STAT_AREA] <= ENCLOSED_MOST * h * w) & ~at_edge(felt_ids, n)
    holes[0] = False  # the mask itself
    if holes.any() and lightness is not None:
        light = cv2.resize(lightness, (w, h), interpolation=cv2.INTER_NEAREST) if lightness.shape != small.shape else lightness
        holes &= np.bincount(felt_ids.ravel(), light.ravel().astype(np.float64), n) >= least * stats[:, cv2.CC_STAT_AREA]
    if not holes.any():
        return None  # most of a camera's frames: a full-size mask of nothing costs a millisecond
    out: np.ndarray = cv2.resize(holes[felt_ids].astype(np.uint8) * 255, mask.shape[1::-1], interpolation=cv2.INTER_NEAREST)
    return out


def off_the_felts_hue(bgr: np.ndarray, felt: np.ndarray, not_felt_mask: np.ndarray, ink: np.ndarray,
                      lab: np.ndarray | None = None) -> np.ndarray:
    """255 on patches a little off the felt's hue, or lighter than the felt round them, that touch
    ``not_felt_mask`` (at the picture's size), are more than a thin band along it and hold print
    (``ink``: :func:`table_print`; see :data:`HUE_PRINT`): the rest of a back in nearly the felt's
    colour, of which only the print is far from the felt's colour (see :data:`FELT_HUE_NEAR` and
    :data:`FELT_LIGHTER`). ``lab``: :func:`.glyphs.quarter` of ``bgr`` in Lab, if already made."""
    h, w = bgr.shape[:2]
    lab = cv2.cvtColor(quarter(bgr), cv2.COLOR_BGR2Lab) if lab is None else lab
    far = cv2.resize(not_felt_mask, lab.shape[1::-1], interpolation=cv2.INTER_NEAREST) > 0
    off_hue = cv2.transform(_lab_differences(lab, felt), np.array([[0, 1, 1]], np.float32)) > FELT_HUE_NEAR
    joined = far | off_hue | _off_the_felts_light(lab[:, :, 0], ~(far | off_hue))
    n, labels = cv2.connectedComponents(joined.astype(np.uint8), connectivity=8)
    seeded = touching(labels, n, far)
    # Opened: a card's edge, blurred into the felt, is a thin band off the felt's hue too, and
    # would join two piles lying close (a face-down count is of a pile's margins and area).
    body = cv2.morphologyEx((seeded[labels] & ~far).astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.resize(_holding_print(body, ink), (w, h), interpolation=cv2.INTER_NEAREST)


def _off_the_felts_light(lightness: np.ndarray, felt_here: np.ndarray) -> np.ndarray:
    """True where ``lightness`` (a still's Lab L, at quarter size) is lighter than the felt round
    it by :data:`FELT_LIGHTER`: than the mean of ``felt_here`` (what colour and hue left as felt)
    in a window an eighth of the picture wide, so that a light's fall across the table is felt."""
    light = lightness.astype(np.float32)
    k = max(3, max(light.shape) // 8)
    here_at_first = felt_here.astype(np.float32)
    off = np.zeros(light.shape, bool)
    for _ in range(2):
        # Twice: a pile of backs in the felt's hue is felt to the hue, and pulls the felt's light
        # round it towards its own; the second pass leaves out what the first found off it.
        here = here_at_first * ~cv2.dilate(off.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        weight = cv2.boxFilter(here, -1, (k, k))
        local = cv2.boxFilter(light * here, -1, (k, k)) / np.maximum(weight, 1e-3)
        off = (light - local > FELT_LIGHTER) & (weight > 0.05)
    return off


def _holding_print(patches: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The ``patches`` (255, at quarter size) whose outline holds :data:`HUE_PRINT` of edges of
    ``ink`` (at the picture's size) or more."""
    density = cv2.resize(ink.astype(np.float32), patches.shape[1::-1], interpolation=cv2.INTER_AREA)
    outlines, _ = cv2.findContours(patches, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    kept = np.zeros_like(patches)
    for outline in outlines:
        x, y, w, h = cv2.boundingRect(outline)
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [outline], -1, 255, cv2.FILLED, offset=(-x, -y))
        if float(density[y : y + h, x : x + w][inside > 0].mean()) >= HUE_PRINT:
            kept[y : y + h, x : x + w] |= patches[y : y + h, x : x + w] & inside
    return kept


def felt_distance(bgr: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """How far each pixel's colour is from the felt's: the sum of their Lab differences."""
    return lab_distance(cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab), felt)


def lab_distance(lab: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """:func:`felt_distance` of a picture already in Lab (``lab``)."""
    distance: np.ndarray = cv2.transform(_lab_differences(lab, felt), np.ones((1, 3), np.float32))
    return distance


def _lab_differences(lab: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """Each pixel's difference from the felt's colour (BGR) in Lab (``lab``: the picture in Lab),
    channel by channel."""
    f = lab_colour(felt)
    diff: np.ndarray = cv2.absdiff(lab, (float(f[0]), float(f[1]), float(f[2]), 0.0))
    return diff


def is_felt_like(felt: np.ndarray, white: float | None = None) -> bool:
    """Coloured cloth (green, blue, red felt) as opposed to a white or grey desk, where card stock
    is the table's own colour; for a camera, whose frame's white is ``white`` (its
    :func:`.exposure.white_level`), grey or black cloth too: as dark as :data:`DARK_CLOTH`, or as
    far below that white as :data:`UNDER_WHITE`."""
    if is_coloured_cloth(felt):
        return True
    if white is None:
        return False
    under = white_lightness(white) - float(lab_colour(felt)[0])
    return bool(hsv_colour(felt)[2] <= DARK_CLOTH) or under >= UNDER_WHITE


def white_lightness(white: float) -> float:
    """The Lab lightness (0 to 255) of grey at a frame's white level (:func:`.exposure.white_level`)."""
    return float(lab_colour(np.full(3, min(white, 255.0)))[0])


def is_coloured_cloth(felt: np.ndarray) -> bool:
    """Cloth of a colour no print is (green, blue, red felt): ink of its colour is the cloth's
    weave, not print. Black cloth is the colour of the print."""
    hsv = hsv_colour(felt)
    return bool(hsv[1] > 70 and hsv[2] > 40)


def skin(bgr: np.ndarray, card_area: float = 0.0, within: np.ndarray | None = None) -> np.ndarray:
    """Hand-coloured pixels: warm hue, moderate saturation (card backs are far more saturated).

    ``card_area``: a card's area in pixels; only solid patches of at least :data:`HAND_AREA` of
    it count (0: every pixel, whatever its patch), and none that fills a card's rectangle. A hand
    is one large solid patch; the warm colours of a court card's picture (faces, robes, its
    frame) are small ones, and the light lattice of a red back is a net of thin lines. Taking
    those away would leave too little of the card to find. ``within``: only these pixels (what is not the table): a wooden table is
    skin-coloured too, and one patch with the backs lying on it.
    """
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, (0, 35, 70), (25, 165, 255))
    if within is not None:
        mask &= within
    min_area = HAND_AREA * card_area
    if min_area <= 0 or not mask.any():
        return mask
    k = max(3, int(math.sqrt(min_area) / 4))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    small = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] < min_area)
    # A brown or tan back is skin-coloured, but it is a card's rectangle; a hand is a palm,
    # fingers and an arm, which fill far less of the rectangle round them.
    square = [i for i in range(1, n) if SKIN_BACK_CARDS[0] * card_area <= stats[i, cv2.CC_STAT_AREA] <= SKIN_BACK_CARDS[1] * card_area
              and _fills_rectangle(labels, stats, i)]
    printed = _printed(bgr, labels, stats, min_area, None if within is None else within == 0)
    small = np.concatenate([small[small > 0], np.array(square, np.intp), printed])
    if len(small):
        mask[np.isin(labels, small)] = 0
    return mask


def _printed(bgr: np.ndarray, labels: np.ndarray, stats: np.ndarray, min_area: float,
             table: np.ndarray | None) -> np.ndarray:
    """The components of ``labels`` of at least ``min_area`` pixels whose inside (their rim, a
    blurred edge, left out) is much on the sharp edges of print (:data:`SKIN_PRINT`): a brown
    back's, not a hand, whose skin is smooth. ``table``: True where the picture shows the table,
    whose grain an edge must stand out of (:func:`print_edges`)."""
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= min_area)
    big = big[big > 0]
    if not len(big):
        return big
    edges = print_edges(bgr, table, SKIN_PRINT_EDGE)
    inside = cv2.erode((labels > 0).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    inner = np.bincount(labels[inside], minlength=len(stats))[big]
    on_edges = np.bincount(labels[inside & edges], minlength=len(stats))[big]
    return big[(inner > 0) & (on_edges >= SKIN_PRINT * inner)]


def _fills_rectangle(labels: np.ndarray, stats: np.ndarray, i: int) -> bool:
    """Whether component ``i`` fills the smallest rectangle round it as a card (or two) does."""
    x, y, w, h = stats[i, :4]
    pts = cv2.findNonZero((labels[y : y + h, x : x + w] == i).astype(np.uint8))
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
    return bool(rw * rh > 0 and stats[i, cv2.CC_STAT_AREA] >= SKIN_BACK_FILL * rw * rh and max(rw, rh) <= SKIN_BACK_LONG * min(rw, rh))


def visible_backs(bgr: np.ndarray, mask: np.ndarray, card_area: float, bright: float, felt: np.ndarray) -> int:
    """How many cards of a face-down pile show some of their back.

    A card back is printed inside a white margin, so in a pile each card that shows any of its
    back shows it as a stretch of its own, cut off from the next card's by that card's margin.
    The area of a pile undercounts a pile whose cards mostly cover each other (a third card
    dropped on a pair is hardly more area than the pair); the stretches do not. Only solid
    stretches of at least ``BACK_AREA`` of a card count: lines and rings of a back's own pattern
    are opened away or too hollow, and a back without a margin is one stretch, which leaves the
    count to the area.
    """
    paper = is_paper(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV), bright)
    # The felt between two cards lying close is part of the part (its mask is a coarse one).
    cloth = felt_distance(bgr, felt) <= FELT_NEAR
    back = ((mask > 0) & ~paper & ~cloth).astype(np.uint8) * 255
    k = max(3, int(math.sqrt(card_area) * 0.04))
    back = cv2.morphologyEx(back, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(back, connectivity=4)
    count = 0
    ring = np.ones((2 * k + 1, 2 * k + 1), np.uint8)
    reach = max(2, round(MARGIN_REACH * math.sqrt(card_area)))
    margin = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < BACK_AREA * card_area:
            continue
        # In the stretch's own box, grown by the ring's reach: the same border as in the whole part.
        x, y, w, h = stats[i, :4]
        x0, y0, x1, y1 = _box_round(x, y, w, h, k, labels.shape)
        stretch = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        pts = cv2.findNonZero(stretch)
        if area < BACK_SOLID * cv2.contourArea(cv2.convexHull(_row_ends(pts.reshape(-1, 2)))):
            continue
        _, radius = cv2.minEnclosingCircle(pts)
        if area >= ROUND * math.pi * radius * radius:
            # A chip on a pale rack is framed by the rack as a back by its margin. A back shows
            # a stretch of straight edges, filling 2/pi of the circle round it at most (a square).
            continue
        # A back is framed by its margin: most of what borders it is white card stock. A dark
        # rail or a chip rack borders on felt and floor.
        stock = paper[y0:y1, x0:x1]
        if _stock_round(stretch, stock, margin) >= BACK_FRAMED_NEAR or _stock_round(stretch, stock, ring) >= BACK_FRAMED:
            count += 1
    return count


def _stock_round(stretch: np.ndarray, stock: np.ndarray, reach: np.ndarray) -> float:
    """The share of card stock (``stock``) in what lies within ``reach`` (a kernel) round ``stretch``."""
    border = (cv2.dilate(stretch, reach) > 0) & (stretch == 0)
    # A stretch filling its whole box has nothing round it in view: no margin seen.
    return float(stock[border].mean()) if border.any() else 0.0


def paper_shares(bgr: np.ndarray, mask: np.ndarray, bright: float, grain: int,
                 stock: Stock | None = None) -> tuple[float, float]:
    """Shares of the masked pixels that look like white card stock (``bright``: see
    :func:`frame_brightness`): all of it, and the plain stock alone, in stretches at least
    ``grain`` pixels across. ``stock``: the colour of the frame's card stock (see
    :func:`stock_colour`); only pixels within :data:`STOCK_NEAR` of it count."""
    if not mask.any():
        return 0.0, 0.0
    return _shares(_stock_masks(bgr, mask, bright, grain, stock))


def plain_whole(bgr: np.ndarray, mask: np.ndarray, bright: float, grain: int,
                stock: Stock | None = None) -> float:
    """The share of the masked pixels' plain card stock (see :func:`paper_shares`) that lies in
    its largest piece, side by side (1 where there is none). A face's stock is one piece round
    its print; a back's white checks or dots are hundreds of pieces (see :data:`PLAIN_WHOLE`)."""
    if not mask.any():
        return 1.0
    return _whole(_stock_masks(bgr, mask, bright, grain, stock))


StockMasks = tuple[np.ndarray, np.ndarray, np.ndarray]


def _shares(masks: StockMasks) -> tuple[float, float]:
    """:func:`paper_shares` from the part's masks (see :func:`_stock_masks`)."""
    paper, plain, inside = masks
    return float(paper[inside].mean()), float(plain[inside].mean())


def _whole(masks: StockMasks) -> float:
    """:func:`plain_whole` from the part's masks (see :func:`_stock_masks`)."""
    _, plain, inside = masks
    _, _, stats, _ = cv2.connectedComponentsWithStats((plain & inside).astype(np.uint8), connectivity=4)
    pieces = stats[1:, cv2.CC_STAT_AREA]
    return float(pieces.max() / pieces.sum()) if len(pieces) else 1.0


def stepped_share(bgr: np.ndarray, mask: np.ndarray, masks: StockMasks) -> float:
    """The share of the part ``mask``'s plain card stock (``masks``: see :func:`_stock_masks`)
    with a step of :data:`FLAT_STEP` grey levels across the 3x3 pixels round it, after a blur that
    takes out a camera's sensor noise (0 where it has none)."""
    _, plain, inside = masks
    stock = plain & inside
    x, y, w, h = cv2.boundingRect(mask)
    grey = cv2.GaussianBlur(cv2.cvtColor(bgr[y : y + h, x : x + w], cv2.COLOR_BGR2GRAY), (3, 3), 0)
    square = np.ones((3, 3), np.uint8)
    step = cv2.subtract(cv2.dilate(grey, square), cv2.erode(grey, square))
    return int(np.count_nonzero(stock & (step >= FLAT_STEP))) / max(1, int(np.count_nonzero(stock)))


def _stepped(bgr: np.ndarray, mask: np.ndarray, masks: StockMasks, plain: float) -> float:
    """:func:`stepped_share` where the part may be face up by its plain stock (``plain``: its
    share of it, at least :data:`PLAIN_FACE_UP`), else 0."""
    return stepped_share(bgr, mask, masks) if plain >= PLAIN_FACE_UP else 0.0


def _stock_masks(bgr: np.ndarray, mask: np.ndarray, bright: float, grain: int,
                 stock: Stock | None) -> StockMasks:
    """Card stock, plain card stock and the part itself, in the box round ``mask`` (not empty;
    see :func:`paper_shares`): worked out once for both shares and :func:`plain_whole`."""
    x, y, w, h = cv2.boundingRect(mask)
    inside = mask[y : y + h, x : x + w] > 0
    paper = is_paper(cv2.cvtColor(bgr[y : y + h, x : x + w], cv2.COLOR_BGR2HSV), bright)
    if stock is not None:
        paper = _of_stock(bgr[y : y + h, x : x + w], paper, inside, stock)
    plain = paper
    if grain > 1:
        plain = cv2.morphologyEx(paper.astype(np.uint8), cv2.MORPH_OPEN, np.ones((grain, grain), np.uint8)) > 0
    return paper, plain, inside


def off_felt(bgr: np.ndarray, mask: np.ndarray, felt: np.ndarray) -> tuple[float, int]:
    """How much of the masked part lies off the felt's colour at full size, as the share of its
    pixels (see :func:`off_felt_share`) and as cards lying apart along its length (see
    :func:`cards_apart`). The mask is worked out at quarter size, which closes the felt between
    cards lying a few pixels apart: an unnamed card beside the board's other cards takes in the
    felt round it and slivers of them, and a row of unnamed cards the felt between them."""
    inside = mask > 0
    solid = ((felt_distance(bgr, felt) > FELT_NEAR) & inside).astype(np.uint8)
    outlines, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(solid, outlines, -1, 1, cv2.FILLED)
    return off_felt_share(solid, inside), cards_apart(solid, inside)


def off_felt_share(solid: np.ndarray, inside: np.ndarray) -> float:
    """The share of the part's pixels (``inside``) that lie off the felt's colour (``solid``,
    with what they enclose: a court's print of the felt's colour is a hole in its card, not felt)
    or within :data:`QUARTER_REACH` of them (the mask's edge, from quarter size)."""
    grown = cv2.dilate(solid, np.ones((2 * QUARTER_REACH + 1,) * 2, np.uint8)) > 0
    return int(np.count_nonzero(grown & inside)) / max(1, int(np.count_nonzero(inside)))


def cards_apart(solid: np.ndarray, inside: np.ndarray) -> int:
    """How many stretches of the part, each at least :data:`APART_LENGTH` of its width long,
    the felt cuts it into along its length (the long side of its smallest box): the cards of a
    row lying a few pixels apart. A stretch is the positions along the length where the pixels
    off the felt's colour (``solid``) fill :data:`APART_FILL` of the part's width or more."""
    (_, _), (w, h), angle = cv2.minAreaRect(cv2.findNonZero(inside.astype(np.uint8)))
    across = min(w, h)
    theta = math.radians(angle if w >= h else angle + 90.0)
    ys, xs = np.nonzero(solid)
    if not len(xs) or across < 1:
        return 0
    along = xs * math.cos(theta) + ys * math.sin(theta)
    filled = np.bincount((along - along.min()).astype(np.intp)) >= APART_FILL * across
    edges = np.flatnonzero(np.diff(np.concatenate(([0], filled.astype(np.int8), [0]))))
    lengths = edges[1::2] - edges[0::2]
    return int(np.count_nonzero(lengths >= APART_LENGTH * across))


def stock_colour(bgr: np.ndarray, cards: list[CardFound], bright: float) -> Stock | None:
    """The colour of this frame's card stock, as Lab's L, a and b: the middle colour of the pale
    pixels of the first :data:`STOCK_CARDS` named face-up cards in ``cards`` (one pixel in four
    each way is enough); None where no card is named."""
    colours = []
    for f in [f for f in cards if f.card is not None and f.face_up][:STOCK_CARDS]:
        mask, x, y = filled_polygon(np.array(f.corners, np.float32), bgr.shape)
        crop = bgr[y : y + mask.shape[0] : 4, x : x + mask.shape[1] : 4]
        pale = is_paper(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV), bright) & (mask[::4, ::4] > 0)
        if np.count_nonzero(pale) >= STOCK_PIXELS:
            colours.append(np.median(cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)[pale], axis=0))
    if not colours:
        return None
    lightness, a, b = (float(v) for v in np.median(colours, axis=0))
    return lightness, a, b


def _of_stock(bgr: np.ndarray, pale: np.ndarray, inside: np.ndarray, stock: Stock) -> np.ndarray:
    """Which of the ``pale`` pixels of a part (``inside``) are of the colour of the frame's card
    stock ``stock``: within :data:`STOCK_NEAR` of it in Lab's a and b; none where those pixels are,
    in the middle, more than :data:`STOCK_DARKER` darker than it."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
    a, b = lab[..., 1].astype(np.float32), lab[..., 2].astype(np.float32)
    near: np.ndarray = pale & (np.hypot(a - stock[1], b - stock[2]) <= STOCK_NEAR)
    seen = near & inside
    if seen.any() and float(np.median(lab[..., 0][seen])) < stock[0] - STOCK_DARKER:
        near[:] = False
    return near


def _piece_mask(part: Part, piece: np.ndarray) -> np.ndarray:
    """255 on one piece of a split part (``piece``: its pixels, frame x and y), in the part's box."""
    mask = np.zeros_like(part.mask)
    at = piece.astype(np.intp)
    mask[at[:, 1] - part.y, at[:, 0] - part.x] = 255
    return mask


def _piece_shares(bgr: np.ndarray, part: Part, piece: np.ndarray, chips_on: np.ndarray | None = None) -> tuple[float, float]:
    """:func:`paper_shares` of one piece of a split part (``piece``: its pixels, frame x and y),
    leaving out ``chips_on`` (255 on chips lying on the part, in its box; see :func:`_chips_on`)."""
    mask = _piece_mask(part, piece)
    if chips_on is not None:
        mask = cv2.subtract(mask, chips_on)
    h, w = mask.shape
    return paper_shares(bgr[part.y : part.y + h, part.x : part.x + w], mask, part.bright, plain_grain(part.card_area))


# A patch of a part's plain stock is chips lying on it where it is at most this share of a card
# (and :func:`.chips.on_a_pile`).
CHIP_PATCH_AT_MOST = 0.25
# The plain stock is first opened by a disk this share of a card's width across: a chip is 0.34
# (drawn) to 0.62 (a casino's) of it across, a back's margin a few pixels.
CHIP_OPENING = 0.2


def _chips_on(bgr: np.ndarray, part: Part) -> np.ndarray | None:
    """255 on the patches of a face-down part's plain stock that are chips lying on it, in the
    part's box (None where there are none). A stack's pale top is as plain as a face's stock,
    and where it lay on one card of a seat's pair, that card's piece was an unnamed face beside
    a back (held-out stills 2300/13 and 2300/16)."""
    h, w = part.mask.shape
    _, plain, inside = _stock_masks(bgr[part.y : part.y + h, part.x : part.x + w], part.mask, part.bright,
                                    plain_grain(part.card_area), None)
    bx, by, _, _ = cv2.boundingRect(part.mask)
    card_w = card_width(part.card_area)
    # Opened: a pile's white margins join the chips on it into one patch, and are far thinner.
    k = max(3, int(CHIP_OPENING * card_w))
    solid = cv2.morphologyEx((plain & inside).astype(np.uint8), cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    out = np.zeros_like(part.mask)
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        if area > CHIP_PATCH_AT_MOST * part.card_area:
            continue
        patch = ((labels == i) * 255).astype(np.uint8)
        if chips.on_a_pile(patch, card_w):
            ph, pw = patch.shape
            out[by : by + ph, bx : bx + pw] |= patch
    return out if cv2.countNonZero(out) else None


def _piece_a_rack(bgr: np.ndarray, part: Part, piece: np.ndarray) -> bool:
    """Whether most of one piece of a split part is a chip rack (:func:`.racks.bar_of`)."""
    mask = _piece_mask(part, piece)
    h, w = mask.shape
    bar = racks.bar_of(bgr[part.y : part.y + h, part.x : part.x + w], mask)
    return bar is not None and cv2.countNonZero(bar) >= RACK_PIECE * len(piece)


def plain_grain(card_area: float) -> int:
    """:data:`PLAIN_GRAIN` of a card's width, in pixels, for cards of ``card_area`` pixels."""
    return int(round(PLAIN_GRAIN * card_width(card_area)))


class Detector:
    """Finds every card in a frame. Reuse one per camera: loading the model takes a moment."""

    def __init__(
        self,
        recogniser: Recogniser | None = None,
        felt_bgr: tuple[int, int, int] | None = None,
        card_height_px: float = 0.0,
        follow_scale: bool = False,
        table_in_middle: bool = False,
        regions: RegionClassifier | None = None,
        find_patterned_backs: bool = False,
        closer_looks: int = LOOKS_PER_FRAME,
        still_looks: int = 0,
        shadows: bool = True,
        still_areas: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray | None, np.ndarray | None]] | None = None,
    ) -> None:
        """``follow_scale``: for a camera stream, look for print of the glyph size last read (much faster),
        and take no print of the felt's own colour for ink (:func:`.glyphs.ink_mask`). A still's
        table colour is a guess from its middle, near enough to a court's gold or a grey photo's
        red for whole glyphs of them to be taken for felt: a still reads all its ink.
        ``table_in_middle``: for a still, whose corners may show the floor round the table, take
        the table's colour from the middle of the picture (:func:`table_colour`); a camera over
        the table sees mostly table, and a frame's middle may be a close-up card.
        ``regions``: a learned classifier of the unread parts of a frame (:mod:`.regions`); None
        (the default) keeps the colour-and-shape rules, which the camera loop measures better.
        ``find_patterned_backs``: also look for backs in the felt's colour by their print
        (:func:`patterned`), and for the rest of backs a shade off it by their hue
        (:func:`off_the_felts_hue`); a still's detector does, the camera loop has not been measured with it.
        ``closer_looks``: in a camera stream, how many face-up cards a frame reads again at double
        size, unnamed ones and the names a small index is misread as (:mod:`.closer`); 0 only to
        measure what that costs. ``still_looks``: the same for a still (not ``follow_scale``), at
        the middle size of the indices it names: how many of its cards it reads again (0: none).
        ``shadows``: in a camera stream, lift a shadow on the table before reading the frame
        (:mod:`.shadow`); False only to measure what that costs. ``still_areas``: for a still whose
        floor is no place for cards, where its light print is read (255 there; None: wherever the
        region reaches) and where its dark print is not (None: nowhere left out), from the
        picture and its quarter-size copy (:func:`.surface.still_areas`; see :meth:`_areas`)."""
        self.recogniser = recogniser or Recogniser()
        self.felt = None if felt_bgr is None else np.array(felt_bgr, np.float32)
        self.card_height_px = card_height_px
        # Where no one length serves the frame (a camera at a slant), the longest a card lies in it,
        # from the table's markers: only the index guard (INDEX_CARD_AT_MOST) asks it.
        self.longest_card_px = 0.0
        self.last_region: np.ndarray | None = None  # the last frame's not-felt mask
        self.follow_scale = follow_scale
        self.table_in_middle = table_in_middle
        self.glyph_px = 0.0
        # While no size is followed, the size of the one card a frame names (for its closer look).
        self.lone_px = 0.0
        # A camera stream's card area, as its last frame that could measure one measured it.
        self.card_area_seen = 0.0
        # A still's: the middle size of the indices it names (for its closer looks).
        self.still_px = 0.0
        self.still_looks = still_looks
        self.regions = regions
        self.find_patterned_backs = find_patterned_backs
        self._splits: collections.OrderedDict[bytes, list[np.ndarray]] = collections.OrderedDict()
        self._chip_parts: collections.OrderedDict[bytes, bool] = collections.OrderedDict()
        self._bars: collections.OrderedDict[bytes, np.ndarray | None] = collections.OrderedDict()
        # A camera stream's last reads, kept where the next frame did not change (see detect),
        # and what they were read as (:meth:`_reading_as`).
        self._reads: list[IndexRead] = []
        self._reads_as: tuple[tuple[int, int], float, bool] | None = None
        # ... and its cards (before the closer looks), kept there too.
        self._found: list[CardFound] = []
        # Where the last frame was looked at again (:func:`.change.read_again`); None: everywhere.
        self.looked_again: np.ndarray | None = None
        # A camera stream's unnamed face-up cards, and its doubted names, are read again at double size.
        self.closer = CloserLook(closer_looks) if follow_scale and closer_looks > 0 else None
        self.shadows = follow_scale and shadows
        self.still_areas = still_areas
        # The last frame's table colour where its ink is the cloth's weave, not print: coloured cloth
        # found in the frame (see is_coloured_cloth); else None.
        self.last_weave: np.ndarray | None = None
        # Where the frame shows what is no card (the table's calibration markers, white squares
        # of print like an unnamed face): image outlines, set by the camera's calibration.
        self.not_cards: list[np.ndarray] = []

    def forget_scale(self) -> None:
        """The camera was moved nearer or further: the glyph size and the card's area are searched for again."""
        self.glyph_px = 0.0
        self.lone_px = 0.0
        self.card_area_seen = 0.0
        self._reads_as = None

    def detect(self, bgr: np.ndarray, changed: np.ndarray | None = None) -> list[CardFound]:
        """The cards in ``bgr``. ``changed``: in a camera stream, 255 on the cells of the frame
        that changed since the last frame this detector read (:attr:`.change.ChangeGate.changed`;
        None: anywhere). The table's pieces no changed cell touches are not looked at again: the
        last frame's reads and cards there are kept (:func:`.change.read_again`)."""
        quartered = quarter(bgr)
        if self.follow_scale:
            # A camera left at a fixed exposure films a dim room dark, and a warm lamp tints it;
            # a still's light is as the photo was taken, and brightened, a close-up's black cloth
            # and its specks of noise were read as a field of backs.
            bgr, quartered = exposed(bgr, quartered)
        felt = self._felt(bgr)
        if self.shadows:
            # A camera films an arm's shadow over the table; a still's light is as the photo was taken.
            lifted = lift_shadows(bgr, felt, quartered)
            if lifted is not bgr:
                bgr, quartered, felt = lifted, quarter(lifted), self._felt(lifted)
        cards, parts = self.survey(bgr, quartered, felt, changed)
        cards = [c for c in cards + self._cards_of(bgr, parts) if not self._not_a_card(c)]
        again = self.looked_again
        if again is not None:
            # What lies on a piece no change touched is as the last frame found it.
            cards = ([c for c in cards if touches(again, card_points(c.corners))]
                     + [c for c in self._found if not touches(again, card_points(c.corners))])
        self._found = cards
        look_px = self.glyph_px or self.lone_px or self.still_px
        # A still has no frames before it: its looks are its own.
        closer = self.closer if self.follow_scale else CloserLook(self.still_looks) if self.still_looks > 0 else None
        if closer is not None and look_px > 0:
            weave = self.last_weave
            cards = closer.name(bgr, cards, lambda box: self._looked_at(bgr, box, weave, look_px))
        h, w = bgr.shape[:2]
        return [_in_view(c, w, h) for c in cards]

    def _not_a_card(self, f: CardFound) -> bool:
        """Whether ``f`` lies on a marker (see ``not_cards``): none of the closer looks a frame takes
        goes to it, and it is reported nowhere."""
        return any(cv2.pointPolygonTest(outline, f.centre, False) >= 0 for outline in self.not_cards)

    def _looked_at(self, bgr: np.ndarray, box: tuple[int, int, int, int], felt: np.ndarray | None,
                   glyph_px: float) -> list[CardFound]:
        """A closer look at ``box`` of a camera frame, for glyphs of about ``glyph_px``: the cards
        its reads find, and what its reads too unsure to name a card lean to, however weakly
        (:meth:`_leanings`; for :mod:`.closer` only: elsewhere a guess leans at ``CANDIDATE`` or more)."""
        reads = self.recogniser.read_box(bgr, box, glyph_px, felt)
        return self._group_reads(reads) + self._leanings(reads)

    def _leanings(self, reads: list[IndexRead]) -> list[CardFound]:
        """Each read too unsure to name a card, as an unnamed card guessing the card it leans to;
        not a card's pips read as an index (see :meth:`_index_sized`), which lean to no card."""
        leans: list[CardFound] = []
        for r in reads:
            if r.card is None and r.best is not None and self._index_sized(r):
                centre, pts = outline_from_read(r, self.card_height_px)
                leans.append(CardFound(None, True, centre, _pts(pts), r.confidence, guess=r.best))
        return leans

    def _index_sized(self, r: IndexRead) -> bool:
        """Whether a read's glyphs are of a size the deck prints its index at: in a camera stream,
        under :data:`INDEX_SIZE_AT_MOST` times the size followed; in a still, any size."""
        return not (self.follow_scale and self.glyph_px > 0 and r.size > INDEX_SIZE_AT_MOST * self.glyph_px)

    def _felt(self, bgr: np.ndarray) -> np.ndarray:
        """The table's colour: the one configured, else as the picture shows it."""
        if self.felt is not None:
            return self.felt
        return table_colour(bgr) if self.table_in_middle else felt_colour(bgr)

    def survey(self, bgr: np.ndarray, quartered: np.ndarray | None = None, felt: np.ndarray | None = None,
               changed: np.ndarray | None = None) -> tuple[list[CardFound], list[Part]]:
        """The cards the index reads find, and the parts of the region that they do not explain
        (``quartered``: :func:`.glyphs.quarter` of ``bgr``, ``felt``: :meth:`_felt` of it, where
        the caller has them already; ``changed``: as for :meth:`detect`)."""
        felt = self._felt(bgr) if felt is None else felt
        quartered = quarter(bgr) if quartered is None else quartered
        region: np.ndarray | None = None
        backs_within = None
        white = white_level(quartered) if self.follow_scale else None
        if is_felt_like(felt, white):
            # The quarter-size copy in Lab: the felt's colour, its glare and its hue are measured there.
            lab = cv2.cvtColor(quartered, cv2.COLOR_BGR2Lab)
            region = not_felt(bgr, felt, lab=lab)
            # The print on the region's table, for the first step that asks.
            print_of = functools.cache(functools.partial(table_print, bgr, region))
            felt_lab = lab_colour(felt)
            if white is not None and is_grey(felt_lab) and not is_coloured_cloth(felt):
                region = without_glare(region, grey_in_glare(lab, felt_lab, white_lightness(white)), print_of)
            elif white is not None:
                # A camera overexposes a lamp's spot on the cloth; a still's light is as the photo was
                # taken. Cloth of too little colour to be coloured cloth and too much to be grey
                # (slate) keeps its hue in a glare as coloured cloth does.
                region = without_glare(region, felt_in_glare(quartered, lab, felt), print_of)
            # A back of the felt's colour inside its margin: the margin encloses it. Enclosed by the
            # print and the hue's patches too, the specks a patch of glare leaves out would count.
            # It is where cards lie, not where print is read: a court's picture of the felt's colour
            # is enclosed too, and read there, its print made a king's index no king. A camera's too:
            # a blue back on blue cloth, overexposed, is felt in patches its margin encloses, lighter
            # than the felt; a shadow's soft edge encloses felt too, but shaded (see ENCLOSED_LIGHTER).
            if self.find_patterned_backs:
                backs_within = enclosed(region)
                ink = print_of()
                region = region | patterned(bgr, region, ink) | off_the_felts_hue(bgr, felt, region, ink, lab)
            elif self.follow_scale:
                backs_within = enclosed(region, lab[:, :, 0], float(felt_lab[0]) + ENCLOSED_LIGHTER)
        self.last_region = region
        self.last_weave = felt if region is not None and is_coloured_cloth(felt) else None
        # A camera drops its felt's ink (``felt`` below); a still, only the band round its cards.
        band = felt_band(bgr, felt, region) if region is not None and not self.follow_scale else None
        where = cv2.dilate(region, np.ones((5, 5), np.uint8)) if region is not None else None
        whole = region if backs_within is None or region is None else region | backs_within
        self.looked_again = again = self._read_again(where, backs_within, changed)
        light, pale = self._areas(bgr, quartered, where)
        reads = self.recogniser.read(bgr, where if again is None or where is None else cv2.bitwise_and(where, again), self.glyph_px,
                                     quartered=quartered, felt=self.last_weave if self.follow_scale else None,
                                     not_dark_print=pale if band is None else band if pale is None else band | pale,
                                     light_within=light)
        if again is not None:
            reads += kept(self._reads, again)
        self._reads, self._reads_as = reads, self._reading_as(bgr)
        # A camera stream follows a glyph size instead (see _follow).
        longest = self.card_height_px or self.longest_card_px or (0.0 if self.follow_scale else _named_card_height(reads))
        if longest:
            reads = [r for r in reads if CARD_H_U * _unit(r) <= INDEX_CARD_AT_MOST * longest]
        if self.follow_scale:
            self._follow(reads)
        elif self.still_looks > 0:
            named = [r.size for r in reads if r.card is not None]
            self.still_px = float(np.median(named)) if named else 0.0
        cards = self._group_reads(reads)
        if whole is None:
            return cards, []
        return self.unread_parts(bgr, whole, cards, reads, felt, only=again)

    def _areas(self, bgr: np.ndarray, quartered: np.ndarray, where: np.ndarray | None) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Where light print is read (None: wherever ``where`` reaches) and where dark print is
        not (None: nowhere left out): for a still, light print only round its table, and dark print
        nowhere on a pale floor (``still_areas``). A patterned carpet round the table breaks into
        glyph-sized blobs by the thousand, and read in light print at double size they took
        seconds; no card there counts. Dark print is read on the rest of the floor: the faces
        named there tell what the deck's card stock looks like in the picture, and its cards read
        there too counted face-up cards on the table worse (models/REPORT.md)."""
        return self.still_areas(bgr, quartered) if self.still_areas is not None and where is not None else (None, None)

    def _reading_as(self, bgr: np.ndarray) -> tuple[tuple[int, int], float, bool]:
        """What a frame's reads depend on beside its pixels: its size, the glyph size followed,
        whether the cloth's weave is left out."""
        return (bgr.shape[0], bgr.shape[1]), self.glyph_px, self.last_weave is None

    def _read_again(self, where: np.ndarray | None, backs_within: np.ndarray | None,
                    changed: np.ndarray | None) -> np.ndarray | None:
        """Where a camera frame is looked at again (:func:`.change.read_again`), the last frame's
        reads and cards kept elsewhere; None: all of it. All where nothing says what changed, or
        the last frame was read another way: another size, glyphs of other sizes looked for (the
        size followed moved), the weave's colour found or lost."""
        if changed is None or where is None or not self.follow_scale or self._reads_as is None:
            return None
        shape, px, no_weave = self._reads_as
        if shape != where.shape[:2] or no_weave != (self.last_weave is None):
            return None
        if not self.recogniser.same_search(self.glyph_px, px):
            return None
        # The backs a margin encloses (``backs_within``) are of its piece.
        return read_again(where if backs_within is None else where | backs_within, changed)

    def _follow(self, reads: list[IndexRead]) -> None:
        """The glyph size a camera stream's later frames look for, from this frame's named reads.

        The camera does not zoom: once cards are read, later frames look for glyphs of that size,
        also while no card lies face up (a new hand's deal): otherwise those frames read every size
        of print on the whole table, most of it the backs' patterns. Pips read as an index
        (:meth:`_index_sized`) do not move it, unless no named read is of the size followed. While
        no size is followed (the camera just placed, or found moved), the lower of two middle sizes: an index
        is a card's smallest print, its pips read as one larger. A 9 of diamonds' pips read 4h at
        28 pixels beside an ace's 13 in a frame read at every size: the size followed became their
        middle, 20.5, at which the pips read as an index in every frame after."""
        named = [r.size for r in reads if r.card is not None]
        sizes = [r.size for r in reads if r.card is not None and self._index_sized(r)] or named
        if len(sizes) >= 2:
            self.glyph_px = float(np.median(sizes)) if self.glyph_px > 0 else float(sorted(sizes)[(len(sizes) - 1) // 2])
        # One named read is no size to follow (it may be pips), but a closer look at it is taken
        # at its size: a fresh camera's first card, a 6 of hearts alone on the board, was named as
        # its ten for four frames before a second card gave a size, and no look checked it.
        self.lone_px = sizes[0] if len(sizes) == 1 else 0.0

    def _group_reads(self, reads: list[IndexRead]) -> list[CardFound]:
        """One card per identity (a card's corners agree); unknown reads far from named cards stay.

        A card is named when its corners together are sure enough: two corners
        read at 0.8 each are as sure of the rank as one at 0.96, because a wrong rank
        rarely repeats on the other corner; of the suit, no surer than the surer corner.
        Reads below ``CANDIDATE`` never vote. In a camera stream, a read too unsure to vote that
        is not of the index's size (:meth:`_index_sized`) is no card, and no read larger than a
        frame that follows the size looks for (:func:`.recogniser.largest_around`) is a card at all.
        """
        bar = self.recogniser.min_confidence
        if self.follow_scale and self.glyph_px > 0:
            # As a frame that follows the size reads: the frame a size is found in reads every size.
            reads = [r for r in reads if r.size <= largest_around(self.glyph_px)]
        out, torn = _torn_cards(reads, self.card_height_px)
        by_card: dict[Card, list[IndexRead]] = {}
        unknown: list[IndexRead] = []
        for r in reads:
            if id(r) in torn:
                continue
            if r.best is not None and (r.card is not None or r.confidence >= CANDIDATE):
                by_card.setdefault(r.best, []).append(r)
            else:
                unknown.append(r)
        for card, rs in by_card.items():
            rs.sort(key=lambda r: -r.confidence)
            groups: list[list[IndexRead]] = []
            for r in rs:
                c, _ = outline_from_read(r)
                for g in groups:
                    gc, _ = outline_from_read(g[0])
                    if math.dist(c, gc) < 0.5 * CARD_H_U * _unit(g[0]) or one_card(g[0], r, self.card_height_px):
                        g.append(r)
                        break
                else:
                    groups.append([r])
            named: list[tuple[int, CardFound]] = []
            for g in groups:
                centre, pts = outline_from_read(g[0], self.card_height_px)
                corners = [g[0]]
                for r in g[1:]:
                    # Only another corner is fresh evidence, not the same glyphs read twice, nor a
                    # read at right angles to it, which no corner of the same card can be.
                    if all(math.dist(r.rank_xy, o.rank_xy) > 2 * o.size for o in corners) and in_line(corners[0], r):
                        corners.append(r)
                if len(corners) > 1 and one_card(corners[0], corners[1], self.card_height_px):
                    centre, pts = outline_from_corners(corners[0], corners[1])
                elif len(corners) > 1:
                    # Two corners: the card's centre is midway between their estimates.
                    c2, _ = outline_from_read(corners[1], self.card_height_px)
                    shift = ((c2[0] - centre[0]) / 2, (c2[1] - centre[1]) / 2)
                    centre = (centre[0] + shift[0], centre[1] + shift[1])
                    pts = pts + np.array(shift, np.float32)
                # A second corner is fresh evidence of the rank, but a suit misread (a drawn club of
                # 12 pixels read as a spade) repeats on it: two corners are no surer of the suit
                # than the surer one of them.
                conf = min(1 - math.prod(1 - r.confidence for r in corners[:2]), max(r.suit for r in corners[:2]))
                if _crossed(g[0], rs):
                    # A pattern: a back's lattice, read as this name here and there, every way round.
                    named.append((len(corners), CardFound(None, True, centre, _pts(pts), conf)))
                    continue
                named.append((len(corners), CardFound(card if conf >= bar else None, True, centre, _pts(pts), conf,
                                                      guess=None if conf >= bar else card)))
            out += _inside_one_another(named)
        for r in sorted(unknown, key=lambda r: -r.confidence):
            if not self._index_sized(r):
                continue
            c, pts = outline_from_read(r, self.card_height_px)
            h = self.card_height_px or CARD_H_U * _unit(r)
            # Another corner of a card already found (same best guess, or the same place); else a
            # card of its own, such as the lower card of an overlapping pair.
            if any(math.dist(c, f.centre) < (0.45 if f.card == r.best else 0.2) * h for f in out):
                continue
            out.append(CardFound(None, True, c, _pts(pts), r.confidence))
        return out

    def _cards_of(self, bgr: np.ndarray, parts: list[Part]) -> list[CardFound]:
        """Parts of the region that the reads do not explain become more cards, face down or unread."""
        out: list[CardFound] = []
        kinds = self.regions.classify(bgr, parts) if self.regions is not None and parts else [None] * len(parts)
        for part, kind in zip(parts, kinds):
            if kind is None:  # no region classifier: the colour-and-shape rules alone
                face_up = (part.plain > PLAIN_FACE_UP and part.whole >= PLAIN_WHOLE and part.stepped < STEPPED
                           and not (part.plain <= PLAIN_FACE_UP_SURE and part.backs >= 2))
                if not face_up and not part.backs and _not_card_shaped(part.mask, hollow=not part.rack_cut):
                    # No card's margin, and long and thin or hollow: a rail, a chip rack. What lies
                    # beside a rack was a card's worth, and a rack across its middle leaves it hollow.
                    continue
                k = face_up_count(part) if face_up else face_down_count(part)
            elif kind.cards == 0:
                continue  # not a card: a hand, chips, a rack, a sliver of a card already found
            else:
                face_up, k = kind.face_up, kind.cards
            conf = kind.confidence if kind is not None else part.paper if face_up else 1 - part.paper
            if k == 1:
                # The smallest box around the pixels is the one around their hull, which the outlines
                # hold; a face-down card's without the chips on its edge (where a rack was cut off,
                # what is left of the card beyond it may be as narrow as a knob, and is the card's).
                mask = part.mask if face_up or part.rack_cut else part.knobless
                outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(part.x, part.y))
                pieces = [np.vstack(outlines).reshape(-1, 2).astype(np.float32)]
            else:
                ys, xs = np.nonzero(part.mask)
                pieces = self._split(np.column_stack([xs + part.x, ys + part.y]).astype(np.float32), k)
            each = kind is None and (face_up and k > 1 or k in (2, 3) and part.backs < 2 and part.plain >= BESIDE_FACE_PLAIN)
            chips_on = _chips_on(bgr, part) if each and not face_up else None
            shares = [_piece_shares(bgr, part, piece, chips_on) for piece in pieces] if each else []
            # A face-up card on a face-down one (a player's card turned up on the other) is one part,
            # face up by its white stock, or face down by its backs where the face's index is hidden
            # under the card beside it; each card's piece shows its own face. In a pile of three,
            # the margins of piled backs gather in one piece at most: two faces are asked there.
            faces = sum(plain > PLAIN_FACE_UP for _, plain in shares)
            backmost = min((plain for _, plain in shares), default=1.0)
            a_back = backmost <= PIECE_BACK_PLAIN and faces >= k - 1
            for i, piece in enumerate(pieces):
                box = cv2.boxPoints(cv2.minAreaRect(cv2.convexHull(piece if k == 1 else _row_ends(piece))))
                c = box.mean(axis=0)
                up, sure = face_up, conf
                if shares:
                    paper, plain = shares[i]
                    if face_up and plain <= PIECE_BACK_BESIDE_FACE:
                        if _piece_a_rack(bgr, part, piece):
                            continue  # a chip rack beside face-up cards, no card
                        up, sure = False, 1.0 - paper
                    elif not face_up and a_back and plain > PLAIN_FACE_UP and (k != 2 or plain - backmost > PAIR_FACE_OVER):
                        up, sure = True, paper
                out.append(CardFound(None, up, (float(c[0]), float(c[1])), _pts(box), float(sure)))
        return out

    def _split(self, pts: np.ndarray, k: int) -> list[np.ndarray]:
        """:func:`_split`, remembered: a pile of face-down cards lies still for most of a hand, and
        the felt mask it comes from is worked out at quarter size, so frame after frame gives
        the very same pixels (nine splits in ten in the camera loop), and the same split."""
        key = hashlib.blake2b(pts.tobytes(), digest_size=16, salt=k.to_bytes(16, "little")).digest()
        return _remembered(self._splits, key, lambda: _split(pts, k))

    def _bar(self, key: bytes, bgr: np.ndarray, mask: np.ndarray, x: int, y: int,
             taken: np.ndarray | None) -> np.ndarray | None:
        """:func:`.racks.bar_of` of the part ``mask`` (its box's top-left corner at ``x``, ``y``),
        remembered by the part's key (:func:`_part_key`), as :meth:`_chips_side_by_side` is; where
        it finds none, :func:`_bar_under`, remembered by that key and what the read cards'
        outlines took beside the part (``taken``, see :func:`_taken_beside`)."""
        h, w = mask.shape
        bar = _remembered(self._bars, key, lambda: racks.bar_of(bgr[y : y + h, x : x + w], mask), PARTS_KEPT)
        if bar is not None:
            return bar
        beside = _taken_beside(mask, x, y, taken, h + w)
        if beside is None:
            return None
        box, near = beside
        key = hashlib.blake2b(near.tobytes(), digest_size=16, key=key).digest()
        return _remembered(self._bars, key, lambda: _bar_under(bgr, mask, x, y, box, near), PARTS_KEPT)

    def _chips_side_by_side(self, key: bytes, bgr: np.ndarray, mask: np.ndarray, x: int, y: int, felt: np.ndarray,
                            card_area: float) -> bool:
        """:func:`_chips_side_by_side`, remembered by the part's key (:func:`_part_key`): its place
        and quarter-size mask stay the same frame after frame while it lies still, as the splits'
        pixels do."""
        return _remembered(self._chip_parts, key, lambda: _chips_side_by_side(bgr, mask, x, y, felt, card_area), PARTS_KEPT)

    def unread_parts(self, bgr: np.ndarray, region: np.ndarray, cards: list[CardFound], reads: list[IndexRead],
                     felt: np.ndarray, only: np.ndarray | None = None) -> tuple[list[CardFound], list[Part]]:
        """The read cards (outlines fitted to their regions, unread ones off white stock dropped)
        and what the reads do not explain: card-sized parts of the region that are not round
        (``only``: parts only there; the card's size is measured on the whole region all the same)."""
        contours = _outer_contours(region)
        if self.card_height_px:
            card_area = self.card_height_px**2 * CARD_W_U / CARD_H_U
        else:
            card_area = _paired_card_area(reads)
            if not card_area:
                units = [_unit(r) for r in reads if r.card is not None]
                u = float(np.median(units)) if units else 0.0
                card_area = lone_card_area([cv2.contourArea(c) for c in contours if _card_shaped(c)], CARD_W_U * CARD_H_U * u * u)
            if self.follow_scale:
                # The camera does not zoom: a frame with nothing to measure a card by (every seat's
                # pair of backs dealt, no card face up, no burn yet) takes the last frame's. A
                # camera without markers lost every hole card so, for all of a hand's first round.
                card_area = card_area or self.card_area_seen
                self.card_area_seen = card_area
            if not card_area:
                return cards, []
        # A pattern on a card back can look a little like an index: an unread "face-up card" that
        # is not on plain white card stock (or on pale stock that is mostly steps: a pale plaid) is
        # dropped here, and its region is found again as face down.
        bright = frame_brightness(bgr)
        # The colour of the frame's card stock, for the first card or part that asks.
        stock = functools.cache(functools.partial(stock_colour, bgr, cards, bright))
        # A named card off the cards is a pattern's print read beside them (NAMED_ON_CARDS).
        cards = [f for f in cards if (_share_on(region, f) >= NAMED_ON_CARDS if f.card is not None
                                      else _on_paper(bgr, f, bright, plain_grain(card_area), stock()))]
        out = list(cards)
        explained = np.zeros(region.shape, np.uint8)
        for f in cards:
            cv2.fillPoly(explained, [np.array(f.corners, np.int32)], 255)
        for cnt in contours:
            # A lone read card: its outline is better than the estimate from the index.
            area = cv2.contourArea(cnt)
            if 0.7 * card_area < area < 1.3 * card_area and _card_shaped(cnt):
                blob, x, y = filled_polygon(cnt, region.shape)
                inside = [f for f in out if _inside(blob, (f.centre[0] - x, f.centre[1] - y))]
                if len(inside) == 1:
                    f = inside[0]
                    box = cv2.boxPoints(cv2.minAreaRect(cnt))
                    c = box.mean(axis=0)
                    out[out.index(f)] = replace(f, centre=(float(c[0]), float(c[1])), corners=_pts(box))
        # What the read cards do not cover: more cards, face down or unread.
        side = opening_side(card_area)
        taken = region & cv2.dilate(explained, np.ones((5, 5), np.uint8))
        rest = region & ~taken
        if only is not None:
            rest &= only
        # Skin and the opening only matter near what is left: worked out in boxes around it, with
        # room for the opening's reach, which gives the same pixels as the whole frame would.
        for x0, y0, x1, y1 in region_boxes(rest, side + 1):
            box = rest[y0:y1, x0:x1]
            box &= ~skin(bgr[y0:y1, x0:x1], card_area, box)
            box[:] = cv2.morphologyEx(box, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
        parts = []
        outlines = _outer_contours(rest)
        while outlines:
            cnt = outlines.pop()
            area = cv2.contourArea(cnt)
            if area < 0.45 * card_area:
                if area >= UNDER_A_FACE * card_area:
                    outlines.extend(_grown_under(bgr, cnt, rest, taken, card_area, bright))
                continue
            whole = None
            if area > RING_CARDS * card_area:
                whole, x0, y0 = _within(cnt, rest)
                joined = _joined(cnt, whole, x0, y0)
                if self.table_in_middle and area > PILE_CARDS * card_area and _at_edge(cnt, bgr.shape):
                    # A still's floor round the table is no felt either, and the rail, with what
                    # lies against it, is joined to it: the floor's colour is taken off, then the
                    # rail's from what is left (a piece of the rail is no ring).
                    for piece in _off_the_rail(bgr, joined, x0, y0, card_area):
                        on, px, py = _within(piece, rest)
                        outlines.extend(_off_the_rail(bgr, _joined(piece, on, px, py), px, py, card_area))
                    continue
                if _ring(cnt, joined):
                    outlines.extend(_off_the_rail(bgr, joined, x0, y0, card_area))
                    continue
            if area > PILE_CARDS * card_area:
                continue
            _, radius = cv2.minEnclosingCircle(cnt)
            if area > ROUND * math.pi * radius * radius:
                continue  # round: a chip or a stack of chips, not a card
            if whole is None:
                whole, x0, y0 = _within(cnt, rest)
            stretches = lobes(whole, card_area)
            if len(stretches) == 1:
                parts.extend(self._part(bgr, whole, x0, y0, float(area), float(card_area), bright, felt, stock, taken=taken))
                continue
            per_pixel = area / cv2.countNonZero(whole)
            for stretch in stretches:
                # Its own part, in its own box, with its share of the outline's area.
                bx, by, w, h = cv2.boundingRect(stretch)
                mask = stretch[by : by + h, bx : bx + w]
                parts.extend(self._part(bgr, mask, x0 + bx, y0 + by, float(per_pixel * cv2.countNonZero(mask)),
                                        float(card_area), bright, felt, stock, taken=taken))
        return out, parts

    def _part(self, bgr: np.ndarray, mask: np.ndarray, x: int, y: int, area: float, card_area: float, bright: float,
              felt: np.ndarray, stock: Callable[[], Stock | None], rack_cut: bool = False,
              taken: np.ndarray | None = None) -> list[Part]:
        """What the rules measure of one part (none where it is chips side by side or a chip rack;
        only what lies beside a rack where a card may lie there: ``rack_cut``, the rack cut off).
        ``taken``: 255 on what the read cards' outlines took, in the frame, where a rack may lie
        under them (see :func:`_bar_under`)."""
        key = _part_key(mask, x, y)
        if self._chips_side_by_side(key, bgr, mask, x, y, felt, card_area):
            return []
        h, w = mask.shape
        crop = bgr[y : y + h, x : x + w]
        grain = plain_grain(card_area)
        masks = _stock_masks(crop, mask, bright, grain, None)
        paper, plain = _shares(masks)
        tint = stock() if plain > PIECE_BACK_PLAIN else None
        if tint is not None:
            # Pale enough for card stock: of the card stock's colour too, where a face says it.
            masks = _stock_masks(crop, mask, bright, grain, tint)
            paper, plain = _shares(masks)
        backs = visible_backs(crop, mask, card_area, bright, felt) if plain <= PLAIN_FACE_UP_SURE else 0
        bar = self._bar(key, bgr, mask, x, y, taken) if plain <= PLAIN_FACE_UP and not rack_cut else None
        beside = None if bar is None else cv2.subtract(mask, bar)
        if beside is not None and cv2.countNonZero(beside) < LOBE * card_area:
            if not backs:
                return []  # a chip rack, and what lies on it
            # A framed back is no rack: a hole card under a hand shows its back as a bar with only
            # its margin beside it. Racks lying across a face-up pair are framed by its stock as a
            # back is (held-out still 1500/10), and what lies beside them is a card's worth.
            beside = None
        if beside is not None:
            # The bar's blurred edge is left beside it as a thin outline: the region's own opening
            # takes it off. Specks left beside the bar do not widen the card's box.
            side = opening_side(card_area)
            beside = cv2.morphologyEx(beside, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
            left = cv2.countNonZero(beside)
            if left >= LOBE * card_area and (within_one_card(without_specks(beside, BAR_SPECK * card_area), card_area)
                                             or _not_card_shaped(mask)):
                # A card beside a rack, or under its end, is counted without the rack's length
                # (one burn and a rack across it made two face-down cards), and so are cards
                # beside a rack whose part, rack and all, is too long or hollow to be cards (a
                # pair touching a rack's end was dropped with it). What a rack covers of more
                # cards is not seen: their part is counted with the rack, as before.
                return self._part(bgr, beside, x, y, area * left / cv2.countNonZero(mask), card_area, bright, felt, stock, True)
        off, apart = off_felt(crop, mask, felt) if plain > PLAIN_FACE_UP else (1.0, 0)
        whole = _whole(masks) if plain > PLAIN_FACE_UP else 1.0
        stepped = _stepped(crop, mask, masks, plain)
        return [Part(mask, x, y, area, card_area, paper, bright, backs, plain, off, apart, whole, stepped, rack_cut)]


# A part of more than RING_CARDS cards' area whose pixels fill less than RING_HOLLOW of its hull is
# a ring: a table's rail, with the cards that lie against it. Such cards were left out with the
# rail, a part bigger than any pile (held-out still, seed 1900, scene 4: a seat's pair and the burn),
# or counted with it. The rail's own colour is taken off, and what is left is counted.
RING_CARDS = 4.0
RING_HOLLOW = 0.5
# A part of more than this many cards' area is bigger than any pile: the floor round a still's
# table (see :meth:`Detector.unread_parts`), or a camera's rail and what lies beyond it.
PILE_CARDS = 12.0
# A back's print of the rail's own colour (dark checks on a back against a dark rail) is no rail:
# with it taken off, what is left of the back was opened away (held-out still 4900/13: the burn
# card, with a rack across it touching the rail). The rail is a band far wider than this share of
# a card's width, and a back's print comes in patches narrower.
RAIL_PRINT = 0.15
# The part's mask, worked out at quarter size, may stop short of its edge by up to this many pixels.
QUARTER_REACH = 4
# Along a row of cards (see cards_apart), a card fills at least half the row's width at each
# place along it (a card lying up the row fills all of it), the felt between two cards next to
# none of it; a card is at least 0.4 of the row's width long (one lying up a row of cards on
# their side, 0.72), a sliver of the next card a few pixels.
APART_FILL = 0.5
APART_LENGTH = 0.4
# Cards this wide (pixels) or more are looked at for chips at half size, which costs a third as
# much: a drawn chip's radius (0.17 of a card's width; a casino chip's is 0.31) is 7 pixels there.
CHIPS_AT_HALF = 80.0


def _chips_side_by_side(bgr: np.ndarray, mask: np.ndarray, x: int, y: int, felt: np.ndarray, card_area: float) -> bool:
    """Whether the part ``mask`` (its box's top-left corner at ``x``, ``y``) is chips side by
    side (:func:`.chips.side_by_side`), judged on the pixels off the felt's colour, at full size
    or, for cards of :data:`CHIPS_AT_HALF` or more, at half size."""
    card_w = card_width(card_area)
    step = 2 if card_w >= CHIPS_AT_HALF else 1
    r = QUARTER_REACH
    x0, y0, x1, y1 = box = _box_round(x, y, mask.shape[1], mask.shape[0], r, bgr.shape)
    crop = bgr[y0:y1:step, x0:x1:step]
    placed = _placed(mask, x, y, box)
    reach = 2 * r // step + 1
    near = cv2.dilate(np.ascontiguousarray(placed[::step, ::step]), np.ones((reach, reach), np.uint8))
    solid = cv2.bitwise_and(((felt_distance(crop, felt) > FELT_NEAR) * 255).astype(np.uint8), near)
    return chips.side_by_side(solid, cv2.countNonZero(mask) / step**2, card_w / step)


def _taken_beside(mask: np.ndarray, x: int, y: int, taken: np.ndarray | None,
                  reach: int) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """The box (x0, y0, x1, y1, in the frame) ``reach`` pixels round the part ``mask`` (its box's
    top-left corner at ``x``, ``y``), and ``taken`` (255 on what the read cards' outlines took) in
    it; None where none of that touches the part."""
    h, w = mask.shape
    if taken is None:
        return None
    touch = cv2.dilate(mask, np.ones((TAKEN_TOUCH, TAKEN_TOUCH), np.uint8))
    if not cv2.countNonZero(touch & taken[y : y + h, x : x + w]):
        return None
    box = _box_round(x, y, w, h, reach, taken.shape)
    return box, taken[box[1] : box[3], box[0] : box[2]]


# A rack lying across a face-up card whose index is read: the card's outline, worked out from its
# index, takes the rack's end, and what is left of the rack is too short, or a triangle, to lie as
# a bar (held-out stills: seed 2000, scene 11, a rack across a seat's pair and a sliver of the
# pair beside it counted as a face-down card). The rack's colour is looked for under the outlines
# that touch the part (within TAKEN_TOUCH pixels), to tell its bar; the bar is the part's only.
TAKEN_TOUCH = 7


def _bar_under(bgr: np.ndarray, mask: np.ndarray, x: int, y: int, box: tuple[int, int, int, int],
               near: np.ndarray) -> np.ndarray | None:
    """:func:`.racks.bar_of` of the part ``mask`` (its box's top-left corner at ``x``, ``y``) of
    the frame ``bgr`` with what the read cards' outlines took beside it (``near``, 255 on that
    within ``box``, see :func:`_taken_beside`) of the part's commonest colour, cut back to the part."""
    h, w = mask.shape
    x0, y0, x1, y1 = box
    crop = bgr[y0:y1, x0:x1]
    own = _placed(mask, x, y, box)
    grown = own | _taken_of_its_colour(crop, near, own > 0).astype(np.uint8) * 255
    under = racks.bar_of(crop, grown)
    if under is None:
        return None
    mine: np.ndarray = under[y - y0 : y - y0 + h, x - x0 : x - x0 + w] & mask
    return mine if cv2.countNonZero(mine) else None


def _box_round(x: int, y: int, w: int, h: int, reach: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) ``reach`` pixels round the box at ``x``, ``y``, ``w`` by ``h``,
    within a picture of ``shape``."""
    return max(0, x - reach), max(0, y - reach), min(shape[1], x + w + reach), min(shape[0], y + h + reach)


def _placed(mask: np.ndarray, x: int, y: int, box: tuple[int, int, int, int]) -> np.ndarray:
    """``mask`` (its top-left corner at ``x``, ``y``) in the larger ``box`` (x0, y0, x1, y1) round it."""
    x0, y0, x1, y1 = box
    out = np.zeros((y1 - y0, x1 - x0), np.uint8)
    out[y - y0 : y - y0 + mask.shape[0], x - x0 : x - x0 + mask.shape[1]] = mask
    return out


def _taken_of_its_colour(crop: np.ndarray, taken: np.ndarray, on: np.ndarray) -> np.ndarray:
    """True where ``taken`` (255 on what the read cards' outlines took, ``crop``'s size) is of the
    commonest colour of ``crop``'s pixels ``on`` (:func:`.racks.near_commonest`): what a piece they
    cut into (a back, a rack) gets back of itself."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    got: np.ndarray = (taken > 0) & racks.near_commonest(lab, on)
    return got


def _part_key(mask: np.ndarray, x: int, y: int) -> bytes:
    """What a part's remembered answers are kept by: its mask and its box's place in the frame."""
    return hashlib.blake2b(mask.tobytes(), digest_size=16, salt=struct.pack("<qq", x, y)).digest()


def _remembered(store: collections.OrderedDict[bytes, T], key: bytes, make: Callable[[], T], most: int = SPLITS_KEPT) -> T:
    """``store[key]``, made by ``make`` when it is not there yet; the ``most`` used last are kept."""
    if key in store:
        store.move_to_end(key)
        return store[key]
    made = store[key] = make()
    while len(store) > most:
        store.popitem(last=False)
    return made


# How far a card-shaped region's area may lie from the indices' guess at a card's and still be
# a card (see lone_card_area): on the held-out design the indices put a card's side at 0.73 to
# 1.4 times its own, its area at 0.54 to 1.96; this allows twice that either way.
LONE_CARD_FROM_INDEX = (0.25, 4.0)


def lone_card_area(shaped: list[float], from_index: float) -> float:
    """A card's area in pixels, where no card was read at two opposite corners: measured on the
    cards lying alone (``shaped``: the areas of the card-shaped regions) where there are any,
    else ``from_index`` (the corner indices' size times a card's size in index units; 0 if none
    was read). Two cards lying edge to edge look like one card twice as big, so the smaller
    middle value is taken, and a single lone card far from the indices' guess is not trusted.
    Regions that no deck's indices allow (beyond :data:`LONE_CARD_FROM_INDEX` of their guess) are
    no cards at all: two card-shaped slivers of 165 and 298 pixels and the lone burn's 16,144, with
    the indices' guess 12,018, made a card 298 pixels (held-out still 4800/1, a tan felt): the
    burn and a seat's pair of backs went uncounted, and fourteen specks (a blue chip stack's
    among them) counted as backs."""
    if from_index:
        low, high = LONE_CARD_FROM_INDEX
        shaped = [a for a in shaped if low * from_index < a < high * from_index]
    if shaped:
        middle = sorted(shaped)[(len(shaped) - 1) // 2]
        if len(shaped) >= 2 or not from_index or 0.5 < middle / from_index < 2:
            return float(middle)
    return from_index


def _paired_card_area(reads: list[IndexRead]) -> float:
    """A card's area from the cards read at two opposite corners: their distance is the card's own
    diagonal, whatever size the deck prints its index (see :func:`outline_from_corners`). 0 where
    no card was read at both.

    How big a card is against its index differs between decks by a quarter and more: on the
    held-out design the indices' size put its 150-pixel cards at 110 to 210 pixels, scene by
    scene, and the corner pairs at 153 to 155. A face-down pile is counted by its area against
    a card's, so the indices' guess miscounted it."""
    by_card: dict[Card, list[IndexRead]] = {}
    for r in reads:
        if r.card is not None:
            by_card.setdefault(r.card, []).append(r)
    areas = []
    for rs in by_card.values():
        for n, a in enumerate(rs):
            for b in rs[n + 1 :]:
                if opposite_corners(a, b):
                    diagonal_u = math.dist(a.rank_xy, b.rank_xy) / math.hypot(*DIAGONAL_U)
                    areas.append(CARD_W_U * CARD_H_U * diagonal_u * diagonal_u)
    return float(np.median(areas)) if areas else 0.0


def _in_view(c: CardFound, w: int, h: int) -> CardFound:
    """A card cut by the picture's edge, as much of it as is in view. Its outline is drawn from
    the index, which is in view, and may reach out of the picture; nothing is reported where the
    camera cannot see, so the outline is cut at the edge and the centre is the cut outline's."""
    if all(0 <= x < w and 0 <= y < h for x, y in c.corners) and 0 <= c.centre[0] < w and 0 <= c.centre[1] < h:
        return c
    pts = np.clip(np.array(c.corners, np.float64), 0, [w - 1, h - 1])
    centre = pts.mean(axis=0)
    return replace(c, centre=(float(centre[0]), float(centre[1])), corners=_pts(pts))


def _on_paper(bgr: np.ndarray, f: CardFound, bright: float, grain: int, stock: Stock | None = None) -> bool:
    mask, x, y = filled_polygon(np.array(f.corners, np.float32), bgr.shape)
    h, w = mask.shape
    if not mask.any():
        return False
    crop = bgr[y : y + h, x : x + w]
    masks = _stock_masks(crop, mask, bright, grain, stock)
    plain = _shares(masks)[1]
    return plain >= PLAIN_FACE_UP and _whole(masks) >= PLAIN_WHOLE and _stepped(crop, mask, masks, plain) < STEPPED


def _share_on(region: np.ndarray, f: CardFound) -> float:
    """The share of ``f``'s outline, within the picture, that ``region`` covers (1 where none of
    it is within)."""
    whole, x0, y0 = filled_polygon(np.array(f.corners, np.float32), region.shape)
    h, w = whole.shape
    n = cv2.countNonZero(whole)
    return cv2.countNonZero(whole & region[y0 : y0 + h, x0 : x0 + w]) / n if n else 1.0


def _within(outline: np.ndarray, rest: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The pixels of ``rest`` (255 on what the reads leave) within ``outline``, in its box, and
    the box's top-left corner."""
    whole, x0, y0 = filled_polygon(outline, rest.shape)
    h, w = whole.shape
    whole &= rest[y0 : y0 + h, x0 : x0 + w]
    return whole, x0, y0


def _joined(outline: np.ndarray, whole: np.ndarray, x0: int, y0: int) -> np.ndarray:
    """The pixels of ``whole`` (:func:`_within` ``outline``, its box's top-left corner at ``x0``,
    ``y0``) joined to ``outline`` itself, 255 on them: not the cards lying in its holes."""
    _, labels = cv2.connectedComponents(whole)
    px, py = outline[0].reshape(2)
    own: np.ndarray = (labels == labels[py - y0, px - x0]).astype(np.uint8) * 255
    return own


def _ring(outline: np.ndarray, joined: np.ndarray) -> bool:
    """Whether the pixels ``joined`` to ``outline`` (:func:`_joined`) are a ring with what lies
    against it: :data:`RING_HOLLOW` of their hull at most."""
    return cv2.countNonZero(joined) < RING_HOLLOW * cv2.contourArea(cv2.convexHull(outline))


def _off_the_rail(bgr: np.ndarray, joined: np.ndarray, x: int, y: int, card_area: float) -> list[np.ndarray]:
    """The outlines (in the frame; ``joined``, 255 on a rail and what lies against it, has its box's
    top-left corner at ``x``, ``y``) of what lies against a table's rail, the rail taken off: the
    rail is one flat colour, the commonest of the pixels (:func:`.racks.near_commonest`), and an
    opening takes off its blurred edge. What then reaches the picture's edge is the floor beyond
    the rail, not a card on the table. Given a still's floor with the rail joined to it, the
    floor's colour is the commonest: what is left of the floor reaches the edge."""
    h, w = joined.shape
    on = joined > 0
    rail = racks.near_commonest(cv2.cvtColor(bgr[y : y + h, x : x + w], cv2.COLOR_BGR2LAB).astype(np.float32), on)
    # The rail is a band; patches of its colour narrower than RAIL_PRINT of a card are a back's print.
    band = max(3, int(RAIL_PRINT * card_width(card_area)))
    rail = cv2.morphologyEx(rail.astype(np.uint8), cv2.MORPH_OPEN, np.ones((band, band), np.uint8)) > 0
    side = opening_side(card_area)
    left = cv2.morphologyEx((on & ~rail).astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    outlines = [c + np.array([x, y], np.int32) for c in _outer_contours(left)]
    return [c for c in outlines if not _at_edge(c, bgr.shape)]


# A back lying over a face-up card whose index is not read (held-out still, seed 800, scene 10:
# the burn across a seat's pair): the face's outline, estimated from its index, takes in most of
# the back, and what it leaves is less than a card. Such a piece, at least this share of a card's
# area, is grown back into what the outlines took, where that is of the piece's own colour.
UNDER_A_FACE = 0.25
# ... unless this share of the piece is plain white card stock: a face's (seed 1700, scene 0: the
# part of a court card that the card over it leaves shows 0.36), where a back's pale pattern shows
# none (seed 1100, scene 8: 0.41 of the piece pale, 0.00 of it plain), ...
UNDER_A_FACE_STOCK = 0.2
# ... and it is a back where it grows by at least this share of a card's area, to a card at most.
TAKEN_BACK = 0.2
ONE_BACK = 1.3


def _grown_under(bgr: np.ndarray, cnt: np.ndarray, rest: np.ndarray, taken: np.ndarray, card_area: float,
                 bright: float) -> list[np.ndarray]:
    """The outline of a back that a face-up card's outline mostly took (``cnt``: what it left,
    see :data:`UNDER_A_FACE`), with ``rest`` (255 on what the reads leave) set on the pixels it
    gets back from ``taken`` (255 on what they took); none where it is no such back."""
    x, y, w, h = cv2.boundingRect(cnt)
    x0, y0, x1, y1 = _box_round(x, y, w, h, int(math.sqrt(card_area)), rest.shape)
    crop = bgr[y0:y1, x0:x1]
    piece = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(piece, [cnt - np.array([x0, y0], np.int32)], -1, 255, -1)
    piece &= rest[y0:y1, x0:x1]
    on = piece > 0
    if not on.any() or paper_shares(crop, piece, bright, plain_grain(card_area))[1] > UNDER_A_FACE_STOCK:
        return []
    coloured = on & ~is_paper(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV), bright)
    if not coloured.any():
        return []  # all pale, and none of it plain: no colour of its own to grow by
    got = _taken_of_its_colour(crop, taken[y0:y1, x0:x1], coloured)
    side = opening_side(card_area)
    closed = cv2.morphologyEx(piece | got.astype(np.uint8) * 255, cv2.MORPH_CLOSE, np.ones((side, side), np.uint8))
    _, labels = cv2.connectedComponents(closed & (piece | taken[y0:y1, x0:x1]))
    grown: np.ndarray = np.isin(labels, labels[on & (labels > 0)]) & (labels > 0)
    size = np.count_nonzero(grown)
    if not (0.45 * card_area <= size <= ONE_BACK * card_area) or size - np.count_nonzero(on) < TAKEN_BACK * card_area:
        return []
    rest[y0:y1, x0:x1][grown] = 255
    return [c + np.array([x0, y0], np.int32) for c in _outer_contours(grown.astype(np.uint8) * 255)]


def _at_edge(outline: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether ``outline`` reaches the edge of a picture of ``shape``."""
    x, y, w, h = cv2.boundingRect(outline)
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]


def _outer_contours(mask: np.ndarray) -> list[np.ndarray]:
    """Outlines of every region, including those lying in a hole of another region
    (a card on felt that is ringed by the rail, the floor or the frame's border)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [c for c, h in zip(contours, hierarchy[0]) if h[3] < 0]


def _unit(r: IndexRead) -> float:
    return math.hypot(r.suit_xy[0] - r.rank_xy[0], r.suit_xy[1] - r.rank_xy[1])


def _pts(a: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(a).reshape(-1, 2))


def _inside(mask: np.ndarray, p: tuple[float, float]) -> bool:
    x, y = int(round(p[0])), int(round(p[1]))
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])


def _card_shaped(cnt: np.ndarray) -> bool:
    (_, _), (w, h), _ = cv2.minAreaRect(cnt)
    if min(w, h) < 8:
        return False
    ratio = max(w, h) / min(w, h)
    return 1.2 < ratio < 1.6 and cv2.contourArea(cnt) > 0.85 * w * h


def without_specks(mask: np.ndarray, least: float) -> np.ndarray:
    """``mask`` without its pieces of fewer than ``least`` pixels."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    small = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] < least]
    if not small:
        return mask
    out = mask.copy()
    out[np.isin(labels, small)] = 0
    return out


def opening_side(card_area: float) -> int:
    """The side of the square that opens what the read cards leave of the region: slivers of a
    card already found, and a hand's fingers, are thinner."""
    return max(3, int(math.sqrt(card_area) * 0.2))


def _not_card_shaped(mask: np.ndarray, hollow: bool = True) -> bool:
    """Longer than ``ELONGATED`` times its width, or (with ``hollow``) filling less than ``HOLLOW``
    of its smallest box (an arc, a ring): no card, pair or short row of cards is."""
    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(mask))
    return max(w, h) > ELONGATED * max(1.0, min(w, h)) or hollow and cv2.countNonZero(mask) < HOLLOW * w * h


def _row_ends(pts: np.ndarray) -> np.ndarray:
    """The first and last point of each row of ``pts`` (x, y; in row order, as ``np.nonzero``
    gives pixels): every other point lies between them, so they have the same hull.

    >>> _row_ends(np.array([[2, 0], [3, 0], [4, 0], [1, 1], [5, 1], [6, 1], [9, 2]], np.float32)).tolist()
    [[2.0, 0.0], [4.0, 0.0], [1.0, 1.0], [6.0, 1.0], [9.0, 2.0]]
    """
    rows = pts[:, 1]
    first = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    last = np.r_[first[1:] - 1, len(pts) - 1]
    ends = np.column_stack([first, last]).ravel()  # in order already; a row of one point gives it twice
    return pts[ends[np.r_[True, ends[1:] != ends[:-1]]]]


def _split(pts: np.ndarray, k: int, sample: int = SPLIT_SAMPLE) -> list[np.ndarray]:
    """Split a region's pixels into ``k`` card-sized parts (k-means on position).

    The centres are found on a grid of the pixels, about ``sample`` of them (all of them where
    there are no more), and every pixel then goes to its nearest centre. A pile's mask comes from quarter-size colours, so a
    block of four by four pixels says little more than one of them; k-means on all of a pile's
    tens of thousands took over a third of a mid-hand frame."""
    if k <= 1 or len(pts) < 2 * k:
        return [pts]
    step = max(1, round(math.sqrt(len(pts) / sample)))
    grid = pts
    if step > 1:
        on_grid = (pts[:, 0].astype(np.int64) % step == 0) & (pts[:, 1].astype(np.int64) % step == 0)
        if on_grid.sum() >= 2 * k:
            grid = np.ascontiguousarray(pts[on_grid])
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # the same frame must split the same way every time
    _, labels, centres = cv2.kmeans(grid, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    if grid is not pts:  # the nearest centre: |c|^2 - 2 p.c is least
        labels = ((centres * centres).sum(axis=1) - 2 * (pts @ centres.T)).argmin(axis=1)
    labels = labels.ravel()
    pieces = [pts[labels == i] for i in range(k)]
    return [p for p in pieces if len(p) > 3]


def annotate(bgr: np.ndarray, cards: list[CardFound]) -> np.ndarray:
    """The picture with each card's outline and name: green named, yellow unknown, blue face down."""
    out = bgr.copy()
    for f in cards:
        pts = np.array(f.corners, np.int32)
        colour = (80, 200, 80) if f.card else (0, 200, 230) if f.face_up else (230, 120, 40)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        text = (str(f.card) if f.card else "?" if f.face_up else "down") + f" {f.confidence:.2f}"
        if f.zone:
            text += f" {f.zone}"
        org = (int(f.centre[0]) - 30, int(f.centre[1]))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 1, cv2.LINE_AA)
    return out
