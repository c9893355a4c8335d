"""Finding corner-index candidates: ink blobs paired as (rank above suit).

A card's corner index is a rank glyph with a suit glyph just below it. The
line from the rank to the suit points to the card's bottom edge, so a pair of
nearby blobs gives both the glyphs and the card's orientation without seeing
the card's outline; that is why a card half covered by another still reads.
Every plausible pair becomes a :class:`Hypothesis`; the recogniser decides
which pairs really are indices (most are pips, picture fragments or clutter).

Ink is dark or red on light paper: the per-pixel minimum of B, G, R is low
for both black and red print, so one adaptive threshold finds both colours.

>>> import numpy as np
>>> img = np.full((60, 60, 3), 240, np.uint8)
>>> img[10:30, 20:30] = 20; img[34:44, 20:30] = 20
>>> hyps = find_hypotheses(img, GlyphParams(min_px=6))
>>> [(h.rank_ids, h.suit_id) for h in hyps]  # the small blob is no rank over a suit twice its size
[((1,), 2)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

GRID = 20  # each glyph is resampled onto a GRID x GRID square
GEOM = 6
FEATURES = 2 * GRID * GRID + GEOM
# A suit up to this many times its rank's height is measured as printed: the drawn decks the reader
# learnt from print theirs 0.45 to 1.0 times (models/make_index_model.py, suit_ratio).
TALL_SUIT = 1.0


# Glyphs under this size (pixels) are read without the median (GlyphParams.smooth). A design with
# thin print draws its strokes about a tenth of its rank's height: at a camera's scale, under two
# pixels wide, and the median took out a 4's slant, a 3's open side, a 6's hook. The design never
# trained on (12-13 px glyphs in the live frames) was named in 553 of 2,000 face-up cards with it
# and in 961 without, none wrong either way (the drawn deck: 1,974 and 1,982), and five misreads
# the closer look was built for are read right by the frame itself. A still's glyphs are larger
# and its JPEG noisier: read without the median everywhere, the first nine seeds of its
# development stills named 629 cards where they had named 714. At double size (the closer and
# second looks) a 12-px index is 24 px, and the median stays.
SMOOTH_FROM_PX = 20.0


@dataclass(frozen=True)
class GlyphParams:
    """Sizes in pixels of the rank glyph the reader looks for."""

    min_px: int = 9
    max_px: int = 110
    block: int = 25  # adaptive-threshold window (odd)
    offset: int = 12  # how much darker than its neighbourhood ink must be
    light_print: bool = False  # light print on dark cards (black "luxury" decks)
    felt: tuple[int, int, int] | None = None  # the table's colour (BGR), where known: ink that colour is felt
    # A 3x3 median over the grey before the threshold. It takes out a JPEG's blocks and a
    # sensor's specks, and with them every stroke under two pixels wide.
    smooth: bool = True
    # Where a glyph size is known (a camera stream), glyphs under this size are read without it.
    smooth_from_px: float = SMOOTH_FROM_PX


@dataclass(frozen=True)
class Hypothesis:
    """Components ``rank_ids`` (one, or two for "10") above component ``suit_id``."""

    rank_ids: tuple[int, ...]
    suit_id: int
    rank_xy: tuple[float, float]
    suit_xy: tuple[float, float]
    size: float  # rank blob's larger bounding-box side


@dataclass
class Blobs:
    """Connected ink components of one picture."""

    labels: np.ndarray
    stats: np.ndarray
    centroids: np.ndarray
    keep: np.ndarray  # ids of components sized like index glyphs
    # A blob cut in two where a rank runs into its suit (see :func:`_split_stacked`) keeps its id;
    # each side gets an id of its own with no pixels in ``labels``: its mask over its stats box is
    # in ``own``, and ``whole`` names the blob it was cut from (every other id, itself).
    own: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    whole: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)

    def whole_of(self, k: int) -> int:
        return int(self.whole[k]) if k < len(self.whole) else k
    # Each blob (or "10" pair) cut out once for every feature row of the picture: the pips' check
    # puts the index's blobs and the pips again, which the reading has already cut out.
    shapes: dict[tuple[int, ...], _Shape] = field(default_factory=dict, repr=False)


def ink_mask(bgr: np.ndarray, params: GlyphParams) -> np.ndarray:
    """255 where print is darker than the paper around it."""
    if bgr.ndim == 3:
        # Split once: OpenCV copies each strided channel view anyway, three times slower.
        b, g, r = cv2.split(bgr)
    if params.light_print:
        # Light print: the brightest channel, turned over, makes it dark print again.
        grey = 255 - (cv2.max(cv2.max(b, g), r) if bgr.ndim == 3 else bgr)
    else:
        grey = cv2.min(cv2.min(b, g), r) if bgr.ndim == 3 else bgr
    grey = np.ascontiguousarray(grey)
    if params.smooth:
        grey = cv2.medianBlur(grey, 3)
    block = params.block | 1
    ink = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, params.offset)
    if params.felt is not None and bgr.ndim == 3 and not params.light_print:
        _drop_felt(ink, bgr, params.felt)
    return ink


# Beside white card stock, felt is darker than its neighbourhood: the threshold takes a band of
# felt round every card for ink. An index printed a millimetre from the card's edge (a tight
# design at a camera's scale) joins that band into a blob no glyph is the size of, and the card
# is never named. The opening that cuts thin lines from a blob cannot help: the band is thicker
# than the index's own strokes.
FELT_INK_NEAR = 25  # ink within this of the felt's colour in each of B, G and R is felt


def _drop_felt(ink: np.ndarray, bgr: np.ndarray, felt: tuple[int, int, int]) -> None:
    """Clears the ink of the felt's own colour that reaches the picture's edge through that colour,
    in place: the band round a card is a rim of the felt round it. Red print on red cloth that a
    camera's exposure lifts to the print's red lies inside white stock, and stays (every red index
    went with the felt). A box read alone has felt at its edge: it is cut round cards with room."""
    coloured = felt_coloured(bgr, felt)
    n, labels = cv2.connectedComponentsWithAlgorithm(coloured, 8, cv2.CV_32S, cv2.CCL_GRANA)
    inside = ~at_edge(labels, n)
    inside[0] = False
    inked = cv2.bitwise_and(ink, coloured) if inside.any() else None
    cv2.bitwise_and(ink, cv2.bitwise_not(coloured), dst=ink)
    if inked is not None:
        cv2.bitwise_or(ink, cv2.bitwise_and(inked, (inside[labels] * 255).astype(np.uint8)), dst=ink)


def at_edge(labels: np.ndarray, n: int) -> np.ndarray:
    """Which of the ``n`` components ``labels`` holds reach the picture's edge."""
    edge = np.zeros(n, bool)
    for side in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        edge[side] = True
    return edge


def touching(labels: np.ndarray, n: int, where: np.ndarray) -> np.ndarray:
    """Which of the ``n`` components ``labels`` holds have a pixel where ``where`` is True (never
    the background, 0)."""
    out: np.ndarray = np.bincount(labels[where], minlength=n) > 0
    out[0] = False
    return out


def felt_coloured(bgr: np.ndarray, felt: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    """255 where ``bgr`` is within :data:`FELT_INK_NEAR` of the felt's colour in each channel. A
    box round the colour, not the Lab distance the detector's felt mask uses: converting a
    frame's colours cost a tenth of its reading."""
    lo = np.array([max(0, v - FELT_INK_NEAR) for v in felt], np.float64)
    hi = np.array([min(255, v + FELT_INK_NEAR) for v in felt], np.float64)
    return cv2.inRange(bgr, lo, hi)


def felt_band(bgr: np.ndarray, felt: tuple[int, int, int] | np.ndarray, region: np.ndarray) -> np.ndarray:
    """255 on felt that reaches, through the felt's own colour, the felt outside ``region``: the
    band round each card that the threshold takes for dark ink, where the region takes it in. A
    still only guesses its felt, so ink of that colour is not dropped everywhere
    (:func:`_drop_felt`): a king's gold or a red 2 can be of it, but lies on the card inside its
    white margin, apart from the table."""
    coloured = felt_coloured(bgr, felt)
    n, labels = cv2.connectedComponents(coloured, connectivity=4)
    outside = touching(labels, n, region == 0)
    # And the card's edge beside it: a dark line a pixel wide that joins an index printed at the edge.
    return cv2.dilate((outside[labels] * 255).astype(np.uint8), np.ones((3, 3), np.uint8))


def label_ink(bgr: np.ndarray, params: GlyphParams, region: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ink's connected components (labels, stats, centroids), inside ``region`` if given."""
    if region is not None:
        return _label_in_boxes(bgr, params, region)
    ink = ink_mask(bgr, params)
    # Grana's block-based labelling: same labels as the default here, three times faster single-threaded.
    _, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return labels, stats, centroids


def find_blobs(bgr: np.ndarray, params: GlyphParams, region: np.ndarray | None = None) -> Blobs:
    labels, stats, centroids = _cut_thin_lines(*label_ink(bgr, params, region), params)
    stats, centroids, own, whole = _split_stacked(labels, stats, centroids, params)
    return Blobs(labels, stats, centroids, np.nonzero(_glyph_sized(stats, params))[0], own=own, whole=whole)


def blob_mask(blobs: Blobs, ids: tuple[int, ...] | list[int], x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """Where the blobs ``ids`` are (bool) in the box from (x0, y0) to (x1, y1), which holds them."""
    lab = blobs.labels[y0:y1, x0:x1]
    mask = np.zeros(lab.shape, bool)
    for k in ids:
        side = blobs.own.get(k)
        if side is None:
            mask |= lab == k
            continue
        x, y, w, h = (int(v) for v in blobs.stats[k, :4])
        mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] |= side
    return mask


def _glyph_sized(stats: np.ndarray, params: GlyphParams) -> np.ndarray:
    w = stats[:, cv2.CC_STAT_WIDTH]
    h = stats[:, cv2.CC_STAT_HEIGHT]
    area = stats[:, cv2.CC_STAT_AREA]
    big = np.maximum(w, h)
    fill = area / np.maximum(1, w * h)
    ok = (big >= params.min_px * 0.45) & (big <= params.max_px) & (fill > 0.1) & (area >= 12)
    ok[0] = False
    return ok


# A court's index can be printed a millimetre from its picture's frame: a pixel of blur joins
# the two into one large, sparse blob, and the card is never named. Lines this thin (in pixels)
# are opened away from such a blob; the glyph-sized parts left become blobs of their own.
THIN_LINE_PX = 3
SPARSE_FILL = 0.3  # a glyph joined to lines fills little of their box; a solid dark patch is no such case
# A court's frame gives up to six glyph-sized parts (its index, its sign, the frame's corners); a
# back's lattice or a picture's hatching gives a dozen to thirty, none of them an index, each read
# by the networks for nothing (the live frame's time went up by two thirds with them).
CUT_PARTS_AT_MOST = 8
# An index lies at a corner of the joined blob (the card's corner, beside the frame); a part
# cut from the middle of a picture is its art, which the index reader can misread as a card.
CORNER_REACH = 2.5  # in the part's own larger side: a rank glyph, and the suit beneath it
INDEX_OF_BLOB_AT_MOST = 0.3  # a part's larger side, in the blob's shorter side: an index is small beside a picture
# ... unless it is nearly all that is left of the blob once its thin lines are opened away: a
# court card's index touching its picture's frame where only an L of the frame is in view (the
# lower card of a face-up pair, the upper card over its picture), its Q the blob's one part, and
# the L's corner too narrow a box for the Q to be small beside it.
ALONE_ON_LINES = 0.8


def _cut_thin_lines(labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray,
                    params: GlyphParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    big = np.maximum(w, h)
    joined = (big > params.max_px) | (area / np.maximum(1, w * h) <= 0.1)
    joined &= (big >= params.min_px) & (big <= 8 * params.max_px) & (area <= SPARSE_FILL * w * h)
    joined[0] = False
    if not joined.any():
        return labels, stats, centroids
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (THIN_LINE_PX, THIN_LINE_PX))
    stats, centroids = stats.copy(), centroids.copy()
    more_stats: list[list[int]] = []
    more_centres: list[tuple[float, float]] = []
    for c in np.nonzero(joined)[0].tolist():
        x, y, bw, bh = (int(v) for v in stats[c, :4])
        box = labels[y : y + bh, x : x + bw]
        mine = (box == c).view(np.uint8)
        n, parts, pst, pcentres = cv2.connectedComponentsWithStats(cv2.morphologyEx(mine, cv2.MORPH_OPEN, kernel), connectivity=8)
        side = pst[:, 2:4].max(axis=1)
        sized = [j for j in range(1, n) if params.min_px * 0.45 <= side[j] <= params.max_px]
        if not sized or len(sized) > CUT_PARTS_AT_MOST:
            continue
        rect = cv2.minAreaRect(cv2.findNonZero(mine))
        corners = cv2.boxPoints(rect)
        opened = float(pst[1:, cv2.CC_STAT_AREA].sum())
        sized = [j for j in sized if (side[j] <= INDEX_OF_BLOB_AT_MOST * min(rect[1])
                                      or pst[j, cv2.CC_STAT_AREA] >= ALONE_ON_LINES * opened)
                 and np.hypot(*(corners - pcentres[j]).T).min() <= CORNER_REACH * side[j]]
        cut = False
        for j in sized:
            # The part as printed: the opening's rounding given back, a stub of the line with it
            # (pixels already given to a part beside it stay that part's).
            part = cv2.dilate((parts == j).view(np.uint8), kernel) & (box == c).view(np.uint8)
            ys, xs = np.nonzero(part)
            box[ys, xs] = len(stats) + len(more_stats)
            more_stats.append(_box_of(x, y, xs, ys))
            more_centres.append((x + float(xs.mean()), y + float(ys.mean())))
            cut = True
        if cut:  # what is left of the blob (the lines) keeps its id, with its own box and size
            ys, xs = np.nonzero(box == c)
            stats[c] = _box_of(x, y, xs, ys) if len(xs) else [x, y, 0, 0, 0]
            if len(xs):
                centroids[c] = (x + float(xs.mean()), y + float(ys.mean()))
    return (labels, *_appended(stats, centroids, more_stats, more_centres))


# A design can print its rank so near its suit that a stroke runs into it: Liberation Sans's Q (the
# held-out design's Arial, through its metric twin) swings its tail into the suit's top, and rank
# and suit are one blob of which no pair is made (not one of 60 held-out queens was named). Such a
# blob is long for its width and narrow across its middle: it is cut there, each side becomes a
# blob of its own, and the whole stays too (a glyph narrow in its middle, such as a J, still reads
# whole). The reader decides, as for any pair, whether the two sides are an index.
STACKED_ASPECT = 1.8  # the blob's length along its main axis, in its width across it, at least
STACKED_BAND = (0.3, 0.7)  # where along that length the cut may be
# The waist is measured against the wider side: the suit's solid body. A Q's ring is two strokes
# across, no wider than the tail that joins it to the suit: against the ring, the held-out design's
# queens read at double size had a waist of 0.6 and were not cut (7 of 83 more named with this).
WAIST_AT_MOST = 0.5  # the pixels across the cut, in the median across the wider side, at most
STACKED_AT_MOST = 1.6  # the blob's larger side, in the largest glyph sought (max_px), at most
SUIT_BODY = (0.3, 0.2)  # openings that a suit's body outlasts and a rank's strokes do not, in the blob's width
SUIT_SOLID = 0.75  # the share of a suit that outlasts it, at least
RANK_STROKES = 0.3  # the share of a rank that outlasts it, at most
SIDE_AT_LEAST = 0.25  # each side's pixels, in the other's, at least


def _split_stacked(labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray, params: GlyphParams
                   ) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray], np.ndarray]:
    """The blobs' stats and centroids with a row for each side of every blob cut where a rank runs
    into its suit; each side's mask over its box; each id's whole blob (see :class:`Blobs`)."""
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    big = np.maximum(w, h)
    maybe = (big >= 2 * params.min_px) & (big <= STACKED_AT_MOST * params.max_px) & (area >= 24)
    maybe &= area > 0.1 * w * h
    maybe[0] = False
    whole = np.arange(len(stats), dtype=np.int32)
    own: dict[int, np.ndarray] = {}
    more_stats: list[list[int]] = []
    more_centres: list[tuple[float, float]] = []
    cut_from: list[int] = []
    candidates: list[tuple[int, np.ndarray, np.ndarray]] = []
    for c in np.nonzero(maybe)[0].tolist():
        x, y, bw, bh = (int(v) for v in stats[c, :4])
        mine = labels[y : y + bh, x : x + bw] == c
        ys, xs = np.nonzero(mine)
        if len(xs) < 24:
            continue
        pts = np.stack([xs, ys], axis=1).astype(np.float64)
        pts -= pts.mean(axis=0)
        candidates.append((c, mine, pts))
    # Each blob's main axes, all in one call: a call per 2x2 matrix cost more than the arithmetic.
    every_axes = np.linalg.eigh(np.stack([pts.T @ pts for _, _, pts in candidates]))[1] if candidates else None
    for (c, mine, pts), axes in zip(candidates, every_axes if every_axes is not None else ()):
        x, y = int(stats[c, 0]), int(stats[c, 1])
        t = pts @ axes[:, 1]
        across = np.ptp(pts @ axes[:, 0]) + 1
        length = np.ptp(t) + 1
        if length < STACKED_ASPECT * across:
            continue
        step = (t - t.min()).astype(np.intp)
        profile = np.bincount(step)
        lo, hi = int(STACKED_BAND[0] * len(profile)), int(math.ceil(STACKED_BAND[1] * len(profile)))
        if hi <= lo:
            continue
        # The lowest count in the band; of equal ones, the nearest the middle.
        mid = (len(profile) - 1) / 2
        cut = min(range(lo, hi), key=lambda k: (profile[k], abs(k - mid)))
        if profile[cut] > WAIST_AT_MOST * max(np.median(profile[:cut]), np.median(profile[cut + 1 :])):
            continue
        for side in (side for sides in _rank_and_suit(mine, across) for side in sides):
            sy, sx = np.nonzero(side)
            box = _box_of(x, y, sx, sy)
            own[len(stats) + len(more_stats)] = side[box[1] - y : box[1] - y + box[3], box[0] - x : box[0] - x + box[2]]
            more_stats.append(box)
            more_centres.append((x + float(sx.mean()), y + float(sy.mean())))
            cut_from.append(c)
    return (*_appended(stats, centroids, more_stats, more_centres), own, np.concatenate([whole, np.array(cut_from, np.int32)]))


def _appended(stats: np.ndarray, centroids: np.ndarray, more_stats: list[list[int]],
              more_centres: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """``stats`` and ``centroids`` with the rows of blobs made from others after them."""
    if not more_stats:
        return stats, centroids
    return np.vstack([stats, np.array(more_stats, np.int32)]).astype(np.int32), np.vstack([centroids, np.array(more_centres)])


def _rank_and_suit(mine: np.ndarray, across: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """A stacked blob (``mine``, over its box) as masks of its rank and its suit, once for each
    opening of :data:`SUIT_BODY` that makes them (see :func:`_sides`); none where it has no solid
    suit beside a rank of strokes."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for share in SUIT_BODY:
        sides = _sides(mine, max(3, int(round(share * across))))
        if sides is not None and not any(np.array_equal(sides[0], rank) for rank, _ in out):
            out.append(sides)
    return out


def _sides(mine: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``mine`` as its rank and its suit, by an opening ``k`` pixels wide; None where the suit
    does not outlast it or the rank does.

    A straight cut across the waist leaves the end of a Q's tail with the suit, and the ring alone
    reads as a 6. A suit is solid where a rank is strokes: the suit's body is what outlasts an
    opening; the rank, the largest piece of what is left (the Q's ring with its tail); slivers
    the opening took from the suit's edges and points are the suit's again. Where a tail runs
    into a heart's lobe the two are thick enough together to outlast a narrow opening, and the
    tail is the heart's; a wider one, which a heart outlasts and a club's lobes do not, cuts a
    spade's tip and point from it. So the blob is cut both ways where both can, and the reader
    takes the surer.
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    def opened(m: np.ndarray) -> np.ndarray:
        # Nothing beyond the blob's box: OpenCV's default border would keep a stroke along its edge.
        return cv2.morphologyEx(m.view(np.uint8), cv2.MORPH_OPEN, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0).view(bool)

    n, lab, st, _ = cv2.connectedComponentsWithStats(opened(mine).view(np.uint8), connectivity=8)
    if n < 2:
        return None
    body = lab == 1 + int(st[1:, cv2.CC_STAT_AREA].argmax())
    n, lab, st, _ = cv2.connectedComponentsWithStats((mine & ~body).view(np.uint8), connectivity=8)
    if n < 2:
        return None
    rank = lab == 1 + int(st[1:, cv2.CC_STAT_AREA].argmax())
    suit = mine & ~rank
    r, s = int(rank.sum()), int(suit.sum())
    if body.sum() < SUIT_SOLID * s or opened(rank).sum() > RANK_STROKES * r or r < SIDE_AT_LEAST * s or s < SIDE_AT_LEAST * r:
        return None
    return rank, suit


def _box_of(x: int, y: int, xs: np.ndarray, ys: np.ndarray) -> list[int]:
    """A component's stats row (left, top, width, height, area) from its pixels in a box at (x, y)."""
    return [x + int(xs.min()), y + int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1, len(xs)]


def region_boxes(region: np.ndarray, margin: int) -> list[tuple[int, int, int, int]]:
    """Disjoint boxes (x0, y0, x1, y1) covering every set pixel of ``region`` with ``margin`` around it.

    Each box starts on an even row and column, so a block-based labelling sees
    the same 2x2 blocks in the box as in the whole picture.
    """
    h, w = region.shape[:2]
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        boxes.append([max(0, x - margin) & ~1, max(0, y - margin) & ~1, min(w, x + bw + margin), min(h, y + bh + margin)])
    merged = True
    while merged:  # a few boxes: merging pairwise until none overlap is cheap
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in boxes]


def _label_in_boxes(bgr: np.ndarray, params: GlyphParams, region: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink components inside ``region``, as labelling the whole picture would give them, ids included.

    On a felt table the cards cover a small part of the frame: the threshold and
    the labelling run only on boxes around the region. The margin covers the
    median's and the threshold window's reach, so every ink pixel in the region
    is the same as in the whole picture; ids are then put in the order Grana
    gives in the whole picture (by each component's first 2x2 block, row by row).
    """
    h, w = region.shape[:2]
    parts = []
    for x0, y0, x1, y1 in region_boxes(region, (params.block | 1) // 2 + 2):
        ink = ink_mask(bgr[y0:y1, x0:x1], params) & region[y0:y1, x0:x1]
        n, lab, st, cen = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
        if n < 2:
            continue
        # Each component's first 2x2 block: its top row pair (boxes start on even rows),
        # and the leftmost column it has in those two rows.
        r0 = st[1:, 1] & ~1
        first = _first_columns(lab, r0)
        key = ((y0 + r0) // 2).astype(np.int64) * w + (x0 + first) // 2
        st = st.copy()
        st[:, 0] += x0
        st[:, 1] += y0
        parts.append(((x0, y0, x1, y1), lab, st[1:], cen[1:] + (x0, y0), key))
    labels = np.zeros((h, w), np.int32)
    if not parts:
        return labels, np.array([[0, 0, w, h, h * w]], np.int32), np.array([[(w - 1) / 2, (h - 1) / 2]])
    keys = np.concatenate([p[4] for p in parts])
    order = np.argsort(keys, kind="stable")
    new_id = np.empty(len(keys), np.int32)
    new_id[order] = np.arange(1, len(keys) + 1, dtype=np.int32)
    start = 0
    for (x0, y0, x1, y1), lab, st, _, key in parts:
        lut = np.concatenate([[0], new_id[start : start + len(key)]]).astype(np.int32)
        # A box whose ids are already the picture's (one box, most often: a still's) is copied,
        # not looked up pixel by pixel.
        labels[y0:y1, x0:x1] = lab if (lut == np.arange(len(lut))).all() else lut[lab]
        start += len(key)
    st_all = np.vstack([p[2] for p in parts])[order]
    cen_all = np.vstack([p[3] for p in parts])[order]
    # The background row, as whole-picture labelling reports it (never used as a blob).
    bg = np.array([[0, 0, w, h, h * w - int(st_all[:, 4].sum())]], np.int32)
    stats = np.vstack([bg, st_all]).astype(np.int32)
    centroids = np.vstack([np.array([[(w - 1) / 2, (h - 1) / 2]]), cen_all])
    return labels, stats, centroids


def _first_columns(lab: np.ndarray, r0: np.ndarray) -> np.ndarray:
    """The leftmost column of each component of ``lab`` (ids 1..) in its rows ``r0`` and ``r0 + 1``.

    One pass over those rows' pixels: a row compared with every id at once costs ids x width,
    and a still's box round wood grain or a photo's speckle holds thousands of ids."""
    rows = np.unique(np.concatenate([r0, r0 + 1]))
    rows = rows[rows < lab.shape[0]]
    band = lab[rows]
    ri, ci = np.nonzero(band)
    comp = band[ri, ci] - 1
    near = rows[ri] - r0[comp]
    keep = (near == 0) | (near == 1)
    first = np.full(len(r0), lab.shape[1], np.int64)
    np.minimum.at(first, comp[keep], ci[keep])
    return first


def find_hypotheses(bgr: np.ndarray, params: GlyphParams, region: np.ndarray | None = None) -> list[Hypothesis]:
    return hypotheses_from_blobs(find_blobs(bgr, params, region), params)


def hypotheses_from_blobs(blobs: Blobs, params: GlyphParams) -> list[Hypothesis]:
    ids = blobs.keep
    if len(ids) < 2:
        return []
    st = blobs.stats[ids]
    size = np.maximum(st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT]).astype(np.float32)
    c = blobs.centroids[ids].astype(np.float32)
    # Only blobs within reach of each other are compared: a still's patterned carpet holds
    # thousands of glyph-sized blobs, and every blob against every other took seconds.
    ii, jj = _within_reach(c, size, PAIR_REACH)
    d = c[jj] - c[ii]  # d[p] = c[jj[p]] - c[ii[p]]
    dist = np.hypot(d[:, 0], d[:, 1])
    si = size[ii]
    sj = size[jj]
    pair = (dist >= 0.5 * si) & (dist <= PAIR_REACH * si) & (sj >= 0.35 * si) & (sj <= 1.35 * si) & (si >= params.min_px)
    # Partners for "10": a blob of about the same size right beside it (later ids only, so each pair once).
    twin = (jj > ii) & (dist <= 1.25 * si) & (sj >= 0.6 * si) & (sj <= 1.5 * si)
    twins: dict[int, list[tuple[int, np.ndarray]]] = {}
    for p in _in_order(ii, jj, twin).tolist():
        twins.setdefault(int(ii[p]), []).append((int(jj[p]), d[p] / max(dist[p], 1e-6)))
    out: list[Hypothesis] = []
    # Python numbers once for all pairs: indexing numpy arrays item by item cost more than the pairs.
    id_of, xy, big = ids.tolist(), [tuple(p) for p in c.tolist()], size.tolist()
    for p in _in_order(ii, jj, pair).tolist():
        i, j = int(ii[p]), int(jj[p])
        out.append(Hypothesis((id_of[i],), id_of[j], xy[i], xy[j], big[i]))
        if i not in twins:
            continue
        # "10" is two blobs side by side, across the rank-to-suit line.
        u = d[p] / max(dist[p], 1e-6)
        for k, v in twins[i]:
            if k == j:
                continue
            if abs(float(u @ v)) < 0.5:
                mx = (c[i] + c[k]) / 2
                out.append(
                    Hypothesis(
                        (int(ids[i]), int(ids[k])),
                        int(ids[j]),
                        (float(mx[0]), float(mx[1])),
                        (float(c[j, 0]), float(c[j, 1])),
                        float(max(size[i], size[k])),
                    )
                )
    return out


# A suit glyph lies at most this many times its rank's size from the rank's middle.
PAIR_REACH = 1.9


def _within_reach(c: np.ndarray, size: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Each pair of points (i, j), i != j, whose x lie within a little over ``reach`` times
    ``size[i]`` of each other: every pair whose distance is within that, and a few more."""
    order = np.argsort(c[:, 0], kind="stable")
    xs = c[order, 0].astype(np.float64)
    x = c[:, 0].astype(np.float64)
    r = reach * size.astype(np.float64) + 1.0
    lo = np.searchsorted(xs, x - r, side="left")
    hi = np.searchsorted(xs, x + r, side="right")
    counts = hi - lo
    ii = np.repeat(np.arange(len(c)), counts)
    # The k-th neighbour of i in x order sits at lo[i] + k.
    jj = order[np.arange(int(counts.sum())) + np.repeat(lo - (np.cumsum(counts) - counts), counts)]
    other = ii != jj
    return ii[other], jj[other]


def _in_order(ii: np.ndarray, jj: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The positions where ``keep`` holds, in the order of (ii, jj): as every pair of a square table would list them."""
    at = np.flatnonzero(keep)
    return at[np.lexsort((jj[at], ii[at]))]


@dataclass
class _Shape:
    """One blob (or a "10" pair of blobs) cut out once, reused by every pair it is in."""

    mask: np.ndarray  # float32 0/1 over the blobs' bounding box
    hull: np.ndarray  # convex hull vertices, relative to the box centre (x, y)
    area: float


def _shape(blobs: Blobs, comp_ids: tuple[int, ...]) -> _Shape:
    st = blobs.stats
    x0 = min(int(st[k, 0]) for k in comp_ids)
    y0 = min(int(st[k, 1]) for k in comp_ids)
    x1 = max(int(st[k, 0] + st[k, 2]) for k in comp_ids)
    y1 = max(int(st[k, 1] + st[k, 3]) for k in comp_ids)
    mask = blob_mask(blobs, comp_ids, x0, y0, x1, y1)
    # The extremes of a rotated point set lie on its hull: rotate a few vertices, not every pixel.
    # The hull's vertices are corners of the outer outlines, so only those are taken to it.
    outlines, _ = cv2.findContours(mask.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pts = np.concatenate(outlines).reshape(-1, 2)
    hull = (cv2.convexHull(pts).reshape(-1, 2) if len(pts) > 2 else pts).astype(np.float32)
    centre = np.array([(x1 - x0) / 2.0, (y1 - y0) / 2.0], np.float32)
    return _Shape(mask.astype(np.float32), hull - centre, float(cv2.countNonZero(mask.view(np.uint8))))


def _extents(shapes: list[_Shape], which: np.ndarray, ca: np.ndarray, sa: np.ndarray) -> np.ndarray:
    """Bounding box (x0, x1, y0, y1) of each ``shapes[which[n]]`` turned by (``ca[n]``, ``sa[n]``).

    All glyphs of a picture at once: a handful of small numpy calls per glyph
    cost more than the warp itself. Padding repeats a hull's first vertex, which
    moves no extreme; float32 as the hull, so the boxes match one glyph at a time.
    """
    longest = max(len(sh.hull) for sh in shapes)
    hulls = np.empty((len(shapes), longest, 2), np.float32)
    for k, sh in enumerate(shapes):
        hulls[k, : len(sh.hull)] = sh.hull
        hulls[k, len(sh.hull) :] = sh.hull[0]
    h = hulls[which]
    c = ca.astype(np.float32)[:, None]
    s = sa.astype(np.float32)[:, None]
    rx = c * h[..., 0] + s * h[..., 1]
    ry = -s * h[..., 0] + c * h[..., 1]
    return np.stack([rx.min(axis=1), rx.max(axis=1), ry.min(axis=1), ry.max(axis=1)], axis=1).astype(np.float64)


def features(blobs: Blobs, hyps: list[Hypothesis], suit_only: bool = False) -> np.ndarray:
    """One row of FEATURES floats per hypothesis (both glyphs upright, then geometry); with
    ``suit_only`` the rank glyph's cells stay empty (for a reader that looks at the suit alone).

    Each glyph is its blobs turned so that rank-to-suit points down, scaled so
    the turned bounding box's longer side spans GRID - 2 cells, and centred.
    """
    return PairRows(blobs, hyps, ranks=not suit_only).every_suit()


class PairRows:
    """:func:`features` of a picture's pairs, the suit glyphs warped only for the rows asked.

    Most pairs a frame proposes are pips and picture fragments whose rank reads as no index, and
    their suit is then never read: half the warps were of glyphs nobody looked at. The arithmetic
    runs on all glyphs of the picture at once (per-glyph numpy calls cost more than the warps);
    only the warps go one by one, each straight into its row.
    """

    def __init__(self, blobs: Blobs, hyps: list[Hypothesis], ranks: bool = True) -> None:
        self.rows = np.zeros((len(hyps), FEATURES), np.float32)  # a glyph not warped is zeros
        self._suits_done = np.zeros(len(hyps), bool)
        if not hyps:
            return
        # Each blob (or "10" pair) is cut out once and reused by every pair it is in.
        index: dict[tuple[int, ...], int] = {}
        shapes: list[_Shape] = []
        which = np.empty(2 * len(hyps), np.intp)  # rank glyph of hypothesis n at 2n, its suit glyph at 2n+1
        ca = np.empty(2 * len(hyps))
        sa = np.empty(2 * len(hyps))
        dist = np.empty(len(hyps))
        cut = blobs.shapes
        for n, hy in enumerate(hyps):
            for k, ids in ((2 * n, hy.rank_ids), (2 * n + 1, (hy.suit_id,))):
                if ids not in index:
                    index[ids] = len(shapes)
                    if ids not in cut:
                        cut[ids] = _shape(blobs, ids)
                    shapes.append(cut[ids])
                which[k] = index[ids]
            dx = hy.suit_xy[0] - hy.rank_xy[0]
            dy = hy.suit_xy[1] - hy.rank_xy[1]
            a = math.radians(math.degrees(math.atan2(dy, dx)) - 90.0)
            ca[2 * n : 2 * n + 2] = math.cos(a)
            sa[2 * n : 2 * n + 2] = math.sin(a)
            dist[n] = math.hypot(dx, dy)
        rx0, rx1, ry0, ry1 = _extents(shapes, which, ca, sa).T
        w = rx1 - rx0 + 1
        h = ry1 - ry0 + 1
        scale = (GRID - 2) / np.maximum(w, h)
        mid_x = (rx1 + rx0) / 2
        mid_y = (ry1 + ry0) / 2
        # Half the mask's width and height: the turn is about the mask's centre.
        cx = np.array([sh.mask.shape[1] / 2.0 for sh in shapes])[which]
        cy = np.array([sh.mask.shape[0] / 2.0 for sh in shapes])[which]
        # cv2.getRotationMatrix2D(centre, angle, 1), scaled, and shifted to put the box's centre at the grid's.
        m = np.empty((len(which), 2, 3))
        m[:, 0, 0] = ca * scale
        m[:, 0, 1] = sa * scale
        m[:, 0, 2] = GRID / 2 - scale * (ca * cx + sa * cy + mid_x)
        m[:, 1, 0] = -sa * scale
        m[:, 1, 1] = ca * scale
        m[:, 1, 2] = GRID / 2 - scale * (-sa * cx + ca * cy + mid_y)
        self._m32 = m.astype(np.float32)
        self._scale = scale
        self._masks = [shapes[k].mask for k in which.tolist()]
        # Glyph k is hypothesis k // 2's rank (k even) or suit, each a GRID x GRID block of its row.
        self._cells = self.rows[:, : 2 * GRID * GRID].reshape(len(hyps), 2, GRID, GRID)
        if ranks:
            for n in range(len(hyps)):
                self._warp(2 * n)
        area = np.array([sh.area for sh in shapes])[which]
        fill = area / np.maximum(1.0, w * h)
        aspect = w / np.maximum(h, 1.0)
        # A pair is measured against its rank's height, or its suit's over TALL_SUIT where that is
        # taller: a design that prints its suit taller than its rank then reads as one printing
        # them alike, the tallest suit the reader learnt from; measured as printed, such a pair
        # lay outside everything it learnt, and it called the suit "not a suit".
        sh_ = h[1::2]
        rh = np.maximum(h[0::2], sh_ / TALL_SUIT)
        self.rows[:, -GEOM:] = np.stack([dist / rh, sh_ / rh, aspect[0::2], aspect[1::2], fill[0::2], fill[1::2]], axis=1)

    def with_suits(self, keep: np.ndarray) -> np.ndarray:
        """The rows, the suit glyphs of those where ``keep`` warped in (each once)."""
        for n in np.flatnonzero(keep & ~self._suits_done).tolist():
            self._warp(2 * n + 1)
        self._suits_done |= keep
        return self.rows

    def every_suit(self) -> np.ndarray:
        """The rows with every pair's suit glyph in: :func:`features`'s rows."""
        return self.with_suits(np.ones(len(self.rows), bool))

    def _warp(self, k: int) -> None:
        src = self._masks[k]
        mk = self._m32[k]
        scale = float(self._scale[k])
        if scale < 0.5:
            # Shrink first so the warp does not alias thin strokes away.
            f = scale * 2
            sw, shh = max(2, round(src.shape[1] * f)), max(2, round(src.shape[0] * f))
            mk = mk.copy()
            mk[:, 0] *= src.shape[1] / sw
            mk[:, 1] *= src.shape[0] / shh
            src = cv2.resize(src, (sw, shh), interpolation=cv2.INTER_AREA)
        cv2.warpAffine(src, mk, (GRID, GRID), dst=self._cells[k // 2, k % 2], flags=cv2.INTER_LINEAR, borderValue=0.0)


def glyph_colour(bgr: np.ndarray, blobs: Blobs, comp_id: int) -> tuple[float, float]:
    """How red the blob's print is (>0 red, about 0 black or grey, <0 green, blue or teal), and
    how much greener than red (gold and white print are not), each a share of 255."""
    x, y, w, h = (int(v) for v in blobs.stats[comp_id, :4])
    mask = blob_mask(blobs, (comp_id,), x, y, x + w, y + h).view(np.uint8)
    # One call for the three channels' means (an empty blob gives zeros: no colour).
    b, g, r = (np.float32(v) for v in cv2.mean(bgr[y : y + h, x : x + w], mask)[:3])
    return float((r - max(g, b)) / 255.0), float((g - r) / 255.0)


def frame_brightness(bgr: np.ndarray) -> float:
    """The brightest part of the frame, which "white" is relative to: the light may be dim."""
    b, g, r = cv2.split(np.ascontiguousarray(bgr[::8, ::8]))
    # OpenCV's per-pixel maximum of a copy: numpy's over the strided channel axis took 0.7 ms a
    # camera frame, this 0.04.
    return float(np.percentile(cv2.max(cv2.max(b, g), r), 99))


def is_paper(hsv: np.ndarray, bright: float) -> np.ndarray:
    """Which of these HSV pixels (last axis) look like white card stock: pale, and bright for this frame."""
    return (hsv[..., 1] < 60) & (hsv[..., 2] > 0.6 * bright)


# Card stock narrower than this (quarter-size pixels) is a back's lattice, not a card's face.
STOCK_OPEN = 3
# The square card stock is grown by (quarter-size pixels): half of it reaches an index that lies
# beside a court card's coloured picture or at the card's very edge (7 lost indices on real photos).
STOCK_REACH = 15


def quarter(bgr: np.ndarray) -> np.ndarray:
    """The picture at a quarter of its size: where masks that need not follow single pixels (felt,
    card stock) are worked out. Made once a frame and handed to each of them."""
    h, w = bgr.shape[:2]
    return cv2.resize(bgr, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)


def stock_coloured(bgr: np.ndarray) -> np.ndarray:
    """Which pixels of a colour picture (a quarter-size copy, most often) are of white card stock's
    colour for the picture's own light (:func:`is_paper`, :func:`frame_brightness`)."""
    return is_paper(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV), frame_brightness(bgr))


def near_card_stock(bgr: np.ndarray, quartered: np.ndarray | None = None) -> np.ndarray | None:
    """255 on and round white card stock, at the picture's size: where dark print can be a corner
    index. Worked out at quarter size (``quartered``, :func:`quarter` of ``bgr``, if already made).
    None where colour says nothing (a grey picture) or the picture shows no card stock at all."""
    if bgr.ndim != 3:
        return None
    h, w = bgr.shape[:2]
    stock = stock_coloured(quarter(bgr) if quartered is None else quartered).astype(np.uint8) * 255
    stock = cv2.morphologyEx(stock, cv2.MORPH_OPEN, np.ones((STOCK_OPEN, STOCK_OPEN), np.uint8))
    if not stock.any():
        return None
    stock = cv2.dilate(stock, np.ones((STOCK_REACH, STOCK_REACH), np.uint8))
    return cv2.resize(stock, (w, h), interpolation=cv2.INTER_NEAREST)
