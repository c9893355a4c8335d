"""Card faces and backs drawn with OpenCV alone, so training data, simulator
frames and tests need no image files and come out the same on every machine.

A face is ``CARD_W`` x ``CARD_H`` pixels (poker size, 63 x 88 mm) with the
corner index (rank over suit) top-left and, turned half a turn, bottom-right.
:func:`render_face` also returns where each index glyph lies, which the model
builder uses to label what the index reader finds.

>>> img, boxes = render_face(Card.parse("Th"), FaceStyle())
>>> img.shape, len(boxes)
((352, 252, 3), 2)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_pi.engine.cards import Card

CARD_W = 252
CARD_H = 352
RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "1O", 11: "J", 12: "Q", 13: "K", 14: "A"}
RED = (30, 30, 200)
BLACK = (25, 25, 25)
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


@dataclass(frozen=True)
class FaceStyle:
    """How one deck draws its faces; the model builder varies every field."""

    font: int = cv2.FONT_HERSHEY_DUPLEX
    thickness: int = 4
    index_height: int = 40  # rank glyph height in pixels on the 352-pixel face
    suit_variant: int = 0
    paper: tuple[int, int, int] = (245, 245, 242)
    red: tuple[int, int, int] = RED
    black: tuple[int, int, int] = BLACK
    squeeze: float = 1.0  # rank glyph width factor (condensed or wide fonts)
    suit_ratio: float = 0.8  # suit symbol size over rank height
    gap: float = 0.125  # space between rank and suit, over rank height
    pip: int = 40  # pip size in pixels; printed decks have pips larger than the index


@dataclass(frozen=True)
class IndexBoxes:
    """Where one corner index's glyphs lie on the face, as (x0, y0, x1, y1)."""

    rank: tuple[int, int, int, int]
    suit: tuple[int, int, int, int]


def suit_mask(suit: str, size: int, variant: int = 0) -> np.ndarray:
    """A filled suit symbol in a ``size`` x ``size`` uint8 mask (255 inside).

    Drawn at four times the size and shrunk so the edges are smooth.
    """
    s = size * 4
    m = np.zeros((s, s), np.uint8)
    c = s // 2
    lobe = int(s * (0.25 if variant % 2 == 0 else 0.23))
    if suit == "d":
        waist = 0.36 if variant % 2 == 0 else 0.30
        pts = np.array([[c, 0], [int(c + s * waist), c], [c, s - 1], [int(c - s * waist), c]], np.int32)
        cv2.fillPoly(m, [pts], 255)
    elif suit == "h":
        cv2.circle(m, (int(c - s * 0.22), int(s * 0.32)), lobe, 255, -1)
        cv2.circle(m, (int(c + s * 0.22), int(s * 0.32)), lobe, 255, -1)
        pts = np.array([[int(c - s * 0.46), int(s * 0.40)], [int(c + s * 0.46), int(s * 0.40)], [c, s - 1]], np.int32)
        cv2.fillPoly(m, [pts], 255)
    elif suit == "s":
        cv2.circle(m, (int(c - s * 0.22), int(s * 0.56)), lobe, 255, -1)
        cv2.circle(m, (int(c + s * 0.22), int(s * 0.56)), lobe, 255, -1)
        pts = np.array([[int(c - s * 0.46), int(s * 0.50)], [int(c + s * 0.46), int(s * 0.50)], [c, 0]], np.int32)
        cv2.fillPoly(m, [pts], 255)
        stem = np.array([[c, int(s * 0.6)], [int(c + s * 0.16), s - 1], [int(c - s * 0.16), s - 1]], np.int32)
        cv2.fillPoly(m, [stem], 255)
    elif suit == "c":
        r = int(s * (0.20 if variant % 2 == 0 else 0.19))
        cv2.circle(m, (c, int(s * 0.24)), r, 255, -1)
        cv2.circle(m, (int(c - s * 0.25), int(s * 0.56)), r, 255, -1)
        cv2.circle(m, (int(c + s * 0.25), int(s * 0.56)), r, 255, -1)
        cv2.circle(m, (c, int(s * 0.48)), int(r * 0.6), 255, -1)
        stem = np.array([[c, int(s * 0.5)], [int(c + s * 0.16), s - 1], [int(c - s * 0.16), s - 1]], np.int32)
        cv2.fillPoly(m, [stem], 255)
    else:
        raise ValueError(f"unknown suit {suit!r}")
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def _paint(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    h, w = mask.shape
    roi = img[y : y + h, x : x + w]
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi[:] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _rank_mask(text: str, style: FaceStyle) -> np.ndarray:
    """The rank text scaled to ``style.index_height`` pixels high, tightly cropped."""
    scale = 3.0
    (tw, th), base = cv2.getTextSize(text, style.font, scale, style.thickness * 3)
    canvas = np.zeros((th + base + 20, tw + 20), np.uint8)
    cv2.putText(canvas, text, (10, th + 10), style.font, scale, 255, style.thickness * 3, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 64)
    crop = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h = style.index_height
    w = max(4, int(round(crop.shape[1] * h / crop.shape[0] * style.squeeze)))
    if text == "1O":
        w = int(w * 0.85)  # decks squeeze "10" to the width of the other ranks
    return cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)


def render_face(card: Card, style: FaceStyle) -> tuple[np.ndarray, list[IndexBoxes]]:
    """Draw ``card``'s face; returns the image and both index positions."""
    img = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    img[:] = style.paper
    colour = style.red if card.suit in "dh" else style.black
    rank = _rank_mask(RANK_TEXT[card.rank], style)
    suit_size = max(6, int(style.index_height * style.suit_ratio))
    suit = suit_mask(card.suit, suit_size, style.suit_variant)
    margin = 10
    rh, rw = rank.shape
    col_w = max(rw, suit_size)
    rx = margin + (col_w - rw) // 2
    ry = margin + 4
    sx = margin + (col_w - suit_size) // 2
    sy = ry + rh + max(2, int(style.index_height * style.gap))
    layer = np.zeros((CARD_H, CARD_W), np.uint8)
    layer[ry : ry + rh, rx : rx + rw] = np.maximum(layer[ry : ry + rh, rx : rx + rw], rank)
    layer[sy : sy + suit_size, sx : sx + suit_size] = np.maximum(layer[sy : sy + suit_size, sx : sx + suit_size], suit)
    both = np.maximum(layer, cv2.rotate(layer, cv2.ROTATE_180))
    _paint(img, both, 0, 0, colour)
    _draw_middle(img, card, style, col_w + margin + 6)
    cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), (200, 200, 200), 1)
    tl = IndexBoxes((rx, ry, rx + rw, ry + rh), (sx, sy, sx + suit_size, sy + suit_size))

    def turn(b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return (CARD_W - b[2], CARD_H - b[3], CARD_W - b[0], CARD_H - b[1])

    return img, [tl, IndexBoxes(turn(tl.rank), turn(tl.suit))]


_PIPS = {
    2: [(0.5, 0.15), (0.5, 0.85)],
    3: [(0.5, 0.15), (0.5, 0.5), (0.5, 0.85)],
    4: [(0.25, 0.15), (0.75, 0.15), (0.25, 0.85), (0.75, 0.85)],
    5: [(0.25, 0.15), (0.75, 0.15), (0.5, 0.5), (0.25, 0.85), (0.75, 0.85)],
    6: [(0.25, 0.15), (0.75, 0.15), (0.25, 0.5), (0.75, 0.5), (0.25, 0.85), (0.75, 0.85)],
    7: [(0.25, 0.15), (0.75, 0.15), (0.5, 0.32), (0.25, 0.5), (0.75, 0.5), (0.25, 0.85), (0.75, 0.85)],
    8: [(0.25, 0.15), (0.75, 0.15), (0.5, 0.32), (0.25, 0.5), (0.75, 0.5), (0.5, 0.68), (0.25, 0.85), (0.75, 0.85)],
    9: [(0.25, 0.15), (0.75, 0.15), (0.25, 0.38), (0.75, 0.38), (0.5, 0.5), (0.25, 0.62), (0.75, 0.62), (0.25, 0.85), (0.75, 0.85)],
    10: [(0.25, 0.15), (0.75, 0.15), (0.5, 0.27), (0.25, 0.38), (0.75, 0.38), (0.25, 0.62), (0.75, 0.62), (0.5, 0.73), (0.25, 0.85), (0.75, 0.85)],
}


def _draw_middle(img: np.ndarray, card: Card, style: FaceStyle, inset: int) -> None:
    """Pips for 2-10, a framed picture for court cards, one big pip for the ace."""
    colour = style.red if card.suit in "dh" else style.black
    x0, y0, x1, y1 = inset, 24, CARD_W - inset, CARD_H - 24
    if card.rank in _PIPS:
        size = style.pip
        for fx, fy in _PIPS[card.rank]:
            cx = int(x0 + fx * (x1 - x0))
            cy = int(y0 + fy * (y1 - y0))
            m = suit_mask(card.suit, size, style.suit_variant)
            if fy > 0.5:
                m = cv2.rotate(m, cv2.ROTATE_180)
            _paint(img, m, cx - size // 2, cy - size // 2, colour)
    elif card.rank == 14:
        size = 100
        m = suit_mask(card.suit, size, style.suit_variant)
        _paint(img, m, CARD_W // 2 - size // 2, CARD_H // 2 - size // 2, colour)
    else:
        # Court cards: a coloured frame with stripes stands in for the portrait.
        cv2.rectangle(img, (x0, y0 + 10), (x1, y1 - 10), (60, 140, 200), 3)
        rng = np.random.default_rng(card.index)
        for k in range(6):
            y = int(y0 + 30 + k * (y1 - y0 - 60) / 6)
            tint = tuple(int(v) for v in rng.integers(40, 220, 3))
            cv2.rectangle(img, (x0 + 12, y), (x1 - 12, y + 18), tint, -1)
        m = suit_mask(card.suit, 36, style.suit_variant)
        _paint(img, m, x0 + 8, y0 + 18, colour)


def render_back(colour: tuple[int, int, int] = (150, 40, 30), seed: int = 0) -> np.ndarray:
    """A card back: white border around a fine lattice, as most casino decks have."""
    img = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    img[:] = (240, 240, 240)
    inner = np.zeros((CARD_H - 28, CARD_W - 28, 3), np.uint8)
    inner[:] = colour
    light = tuple(min(255, int(c) + 90) for c in colour)
    step = 14
    for k in range(-CARD_H, CARD_W + CARD_H, step):
        cv2.line(inner, (k, 0), (k + CARD_H, CARD_H), light, 2)
        cv2.line(inner, (k + CARD_H, 0), (k, CARD_H), light, 2)
    cv2.rectangle(inner, (6, 6), (inner.shape[1] - 7, inner.shape[0] - 7), light, 3)
    img[14:-14, 14:-14] = inner
    cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), (200, 200, 200), 1)
    return img
