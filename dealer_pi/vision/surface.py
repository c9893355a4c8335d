"""Where the playing surface is: cards count there and nowhere else.

With the table's markers in view the surface is the area they enclose (they sit near the rail).
In a still without markers it is the table as the picture shows it: the stretch of the colour
in the middle of the picture (the cloth or the wood; the table is what the camera looks at),
with its holes filled, since the cards lying on it are holes of another colour. The floor
around a table, a chair, a player's lap are outside it. No card is ever placed outside the
picture either: one cut by its edge is reported as the part in view (see
:meth:`~.detect.Detector.detect`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import cv2
import numpy as np

from .calibration import Calibration
from .closer import STILL_LOOKS
from .colour import hsv_colour
from .detect import FELT_NEAR, STOCK_VALUE, CardFound, Detector, felt_distance, middle, middle_colour, not_felt
from .glyphs import quarter, stock_coloured
from .recogniser import SMALL_PICTURE_PX, Enrolment, IndexModel, Recogniser, still_recogniser
from .regions import RegionClassifier

# The table is the picture's subject: its colour is the one in the middle of the picture, and it
# must be a good part of the picture. Where the picture is nearly all table, nothing is left out.
MIN_TABLE_SHARE = 0.2
ALL_TABLE_SHARE = 0.97
FLOOR_CARDS = 2.5  # what reaches the picture's edge and is bigger than this many cards is floor
TABLE_CARDS = 4.0  # a table is bigger than this many cards
CARD_ASPECT = 63 / 88
GUESSED_CARD = 0.12  # a card's length, where no card has been found yet, as a share of the picture's shorter side
# Floor round a still's table of card stock's colour (a light carpet), reaching all four edges of the
# picture in a stretch bigger than this share of it, is no card. A card's size is no measure here: it
# is only guessed before any card is read, and in crops of held-out stills a seat's pair against the
# rail, or cards in a row cut by the picture's edges, are larger than the guess, a fifth of the
# picture and nine tenths of its height, and off the table's mask.
PALE_FLOOR_SHARE = 0.1
WEAVE_CLOSE = 5  # quarter-size pixels: a carpet's dark knots inside its pale stretch are of it
MARGIN_MM = 40.0  # a card at the rail may overhang the markers' line a little


def table_mask(bgr: np.ndarray, card_px: float = 0.0, cards_bgr: np.ndarray | None = None) -> np.ndarray | None:
    """255 on the table, at the picture's size; None where no table stands out from the rest.

    ``card_px``: a card's length, when known (else a guess from the picture's size). The table
    is the cloth with everything it encloses (the cards lying on it), with what the picture's
    edge cuts off too when that is no bigger than a few cards (a card at the edge of the picture),
    and with the notches that cards against the rail cut into its outline; what is bigger and
    reaches the edge is the floor. ``cards_bgr``: the named cards' own colour (see
    :func:`cards_colour`), when known.
    """
    h, w = bgr.shape[:2]
    colour = middle_colour(bgr)
    if colour is None:
        return None  # white card stock in the middle: a close-up of cards, not a table
    if cards_bgr is not None and hsv_colour(cards_bgr)[2] <= STOCK_VALUE and _colour_distance(cards_bgr, colour) <= FELT_NEAR:
        # The named cards' own colour, and no white stock: a close-up of a black-faced deck, not a
        # table. White cards in a photo's warm light come that near a light wood table (real
        # cut-outs on one: every card on the floor was kept); a close-up of them has white stock
        # in its middle, and no table already.
        return None
    cloth = cv2.bitwise_not(not_felt(bgr, colour))
    sh, sw = max(1, h // 4), max(1, w // 4)
    small = cv2.resize(cloth, (sw, sh), interpolation=cv2.INTER_NEAREST)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(small, connectivity=8)
    counts = np.bincount(middle(labels).ravel(), minlength=n)
    counts[0] = 0
    pick = int(np.argmax(counts))
    if pick == 0 or stats[pick, cv2.CC_STAT_AREA] < MIN_TABLE_SHARE * small.size:
        return None
    card = (card_px or GUESSED_CARD * min(h, w)) / 4  # at the quarter size worked in here
    card_area = card * card * CARD_ASPECT
    rest = (labels != pick).astype(np.uint8)
    m, parts, pstats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    table = np.full(small.shape, 255, np.uint8)
    for i in range(1, m):
        x, y, pw, ph, area = pstats[i]
        at_edge = x == 0 or y == 0 or x + pw == sw or y + ph == sh
        if at_edge and area > FLOOR_CARDS * card_area:
            table[parts == i] = 0
    # A card lying against the rail joins the rail, and so the floor: the notch it cuts into the
    # table's outline is closed.
    table = close_round(table, int(1.2 * card) + 0.5)
    share = cv2.countNonZero(table) / table.size
    if share >= ALL_TABLE_SHARE or cv2.countNonZero(table) < TABLE_CARDS * card_area:
        return None  # all table; or a "table" a few cards big: a close-up's card, not a table
    return cv2.resize(table, (w, h), interpolation=cv2.INTER_NEAREST)


def reading_area(bgr: np.ndarray) -> np.ndarray | None:
    """Where a still's light print is read (:func:`still_areas`, but a pale floor): its table
    (:func:`table_mask`, before any card is found, so with a card's length guessed from the
    picture's size) and half a card's length round it, where the index of a card whose middle
    lies on the table may reach (:func:`still_cards` keeps a card by its middle); None where no
    table stands out (a close-up: read all of it)."""
    table = table_mask(bgr)
    return None if table is None else _round_table(table)


def _round_table(table: np.ndarray) -> np.ndarray:
    """The table (:func:`table_mask`) and half a guessed card's length round it."""
    reach = 2 * round(GUESSED_CARD * min(table.shape[:2]) / 2) + 1
    return cv2.dilate(table, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))


def still_areas(bgr: np.ndarray, quartered: np.ndarray | None = None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Where a still's light print is read (its :func:`reading_area` but a pale floor), and where
    its dark print is not (:func:`pale_floor`); each None where it leaves nothing out.
    ``quartered``: :func:`.glyphs.quarter` of ``bgr``, where the caller has it already."""
    table = table_mask(bgr)
    if table is None:
        return None, None
    reading, pale = _round_table(table), pale_floor(bgr, table, quartered)
    # Neither print lies on the carpet: a black card's gold print lies on its black, no carpet's.
    return (reading if pale is None else cv2.bitwise_and(reading, cv2.bitwise_not(pale))), pale


def pale_floor(bgr: np.ndarray, table: np.ndarray, quartered: np.ndarray | None = None) -> np.ndarray | None:
    """255 on a stretch of card stock's colour that reaches all four edges of the picture, covers
    more than :data:`PALE_FLOOR_SHARE` of it and lies mostly off a still's ``table``
    (:func:`table_mask`), in a picture larger than a small still (:data:`.recogniser.SMALL_PICTURE_PX`):
    a light carpet round it, whose woven knots are glyph-sized blobs by the thousand, read as
    dark print at the picture's size and at double size (its pale colour passes for card stock,
    where an enlarged picture's dark print is read); None where there is none. All of the
    stretch: the table's mask takes in the floor between its rail and the picture's edge where
    that is narrow. A small picture shows no table's floor whose cards it could read: a white
    desk round a close-up's card is of the card's own colour, and the card would go with it.
    ``quartered``: :func:`.glyphs.quarter` of ``bgr``, where the caller has it already."""
    if bgr.ndim != 3 or max(bgr.shape[:2]) <= SMALL_PICTURE_PX:
        return None
    h, w = bgr.shape[:2]
    small = quarter(bgr) if quartered is None else quartered
    sh, sw = small.shape[:2]
    pale = stock_coloured(small).astype(np.uint8)
    # The weave's dark knots are the blobs read as print: they lie in the pale stretch, not out of it.
    paper = cv2.morphologyEx(pale, cv2.MORPH_CLOSE, np.ones((WEAVE_CLOSE, WEAVE_CLOSE), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    off = np.bincount(labels[cv2.resize(table, (sw, sh), interpolation=cv2.INTER_NEAREST) == 0], minlength=n)
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    round_the_picture = (x == 0) & (y == 0) & (x + bw == sw) & (y + bh == sh)
    big = round_the_picture & (area > PALE_FLOOR_SHARE * sh * sw) & (2 * off > area)
    big[0] = False
    if not big.any():
        return None
    floor: np.ndarray = cv2.resize((big[labels] * 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    return floor


def cards_colour(bgr: np.ndarray, cards: Sequence[CardFound]) -> np.ndarray | None:
    """The named face-up cards' own colour: the middle colour of the pixels inside their outlines
    (their stock, which covers most of a card); None where no card is named. A close-up of a
    black-faced deck on a white desk shows the cards' black in its middle, and a named card lying
    apart from the others was left off the "table" of black (the odd real photo IMG_7734's 3 of
    diamonds, read at 0.99)."""
    named = [f for f in cards if f.card is not None and f.face_up and len(f.corners) >= 3]
    if not named:
        return None
    mask = np.zeros(bgr.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.array(f.corners, np.int32) for f in named], 255)
    pixels = bgr[mask > 0]
    return np.median(pixels[:: max(1, len(pixels) // 4096)], axis=0).astype(np.float32) if len(pixels) else None


def _colour_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How far two colours (BGR) lie apart, as :func:`.detect.felt_distance` measures it."""
    return float(felt_distance(a.reshape(1, 1, 3).astype(np.uint8), b)[0, 0])


def close_round(mask: np.ndarray, radius: float) -> np.ndarray:
    """``mask`` closed with a round disc of ``radius`` pixels, from two distance transforms, whose
    cost does not grow with the disc: a closing by a card-sized kernel took most of a still's
    table-finding. From about 45 pixels across, OpenCV's elliptic kernel of side 2 * radius is
    the same disc (smaller ones it draws less round)."""
    grown = cv2.distanceTransform(cv2.bitwise_not(mask), cv2.DIST_L2, cv2.DIST_MASK_PRECISE) <= radius
    kept = cv2.distanceTransform(grown.astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE) > radius
    return kept.astype(np.uint8) * 255


def card_length(cards: Sequence[CardFound]) -> float:
    """The median card's longer side in pixels (0 when there is no card): of the named cards
    when there are some (an unread fragment, a chip, is no measure of a card)."""
    named = [c for c in cards if c.card is not None] or list(cards)
    sides = [max(np.hypot(*np.subtract(c.corners[i], c.corners[(i + 1) % 4])) for i in range(4))
             for c in named if len(c.corners) == 4]
    return float(np.median(sides)) if sides else 0.0


def on_table(cards: Sequence[CardFound], mask: np.ndarray | None) -> list[CardFound]:
    """The cards on the table; all of them when the "table" would hold only half of them or
    fewer: then what was found in the middle of the picture is not a table but a close-up's
    card, a hand or a desk, and leaving cards out would be a guess."""
    if mask is None:
        return list(cards)
    kept = [c for c in cards if mask[int(c.centre[1]), int(c.centre[0])]]
    return kept if 2 * len(kept) > len(cards) else list(cards)


def within_markers(cards: Sequence[CardFound], cal: Calibration) -> list[CardFound]:
    """The cards inside the markers' outline (with a margin), each given its zone."""
    corners = np.vstack([cal.layout.marker_corners(m) for m in cal.layout.markers]).astype(np.float32)
    hull = cv2.convexHull(corners)
    out = []
    for c in cards:
        x, y = cal.to_table(c.centre)
        if cv2.pointPolygonTest(hull, (float(x), float(y)), True) >= -MARGIN_MM:
            out.append(dataclasses.replace(c, zone=cal.layout.zone_at((x, y))))
    return out


def told_by_markers(detector: Detector, cal: Calibration, length: bool = True) -> None:
    """What the table's markers tell ``detector``: their white squares, which read as face-up
    cards, are no cards; and, with ``length`` (where no card length was configured), a card's
    length in the frame (:meth:`.Calibration.card_height_px`, 0 at a slant) and the longest a
    card lies in it (:meth:`.Calibration.longest_card_px`). The live camera and a still alike."""
    detector.not_cards = cal.marker_outlines()
    if length:
        detector.card_height_px, detector.longest_card_px = cal.card_height_px(), cal.longest_card_px()


def still_cards(cards: Sequence[CardFound], bgr: np.ndarray, cal: Calibration | None) -> list[CardFound]:
    """A still picture's cards that lie on the table: by its markers when it has them, else by
    the table the picture shows."""
    if cal is not None:
        return within_markers(cards, cal)
    return on_table(cards, table_mask(bgr, card_length(cards), cards_colour(bgr, cards)))


def still_detector(enrolment: Enrolment | None = None, min_confidence: float = 0.9, model: IndexModel | None = None,
                   regions: RegionClassifier | None = None) -> Detector:
    """The detector for a still picture (``vision detect``, the held-out evaluation): no glyph
    size is known, so the picture is read at three sizes (four if small), and it can afford the second pass for
    light print on black cards; the table's colour is the middle's, since the corners may show
    the floor; backs in the felt's colour are found by their print; its unnamed cards and doubted
    names are looked at again at double size (:data:`.closer.STILL_LOOKS`). ``model``,
    ``regions``: another reader, the region classifier (see :class:`Detector`)."""
    return still_detector_with(still_recogniser(model, enrolment, min_confidence), regions)


def still_detector_with(recogniser: Recogniser, regions: RegionClassifier | None = None) -> Detector:
    """A still's detector (see :func:`still_detector`) around a reader already made."""
    return Detector(recogniser, table_in_middle=True, regions=regions, find_patterned_backs=True, still_looks=STILL_LOOKS,
                    still_areas=still_areas)
