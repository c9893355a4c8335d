"""Card faces and backs rendered from the SVG decks in ``card-assets`` (build time only).

Each design is rendered once with ``rsvg-convert`` (Debian's librsvg2-bin) or,
when that is missing, the ``cairosvg`` package, into a cache folder. The fonts the
designs name are pinned (``fonts.conf``: Arial as Liberation Sans, Bitstream Vera
Sans as DejaVu Sans; Debian's fonts-liberation and fonts-dejavu-core) and checked
before anything is drawn, and the cache is drawn again when they change. The
corner index of every face is then found on the upright face itself (the
top-most ink near the top-left corner is the rank, the next ink below it the
suit), so scenes made from the face can label what the reader proposes.

Licences: see each deck folder's NOTICE.md; everything the build ships keeps
their attribution in ``models/NOTICE.md``.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer_pi.engine.cards import FULL_DECK, Card

HERE = Path(__file__).resolve().parent
FACE_H = 352  # faces are rendered this tall; widths follow each design's aspect
FACES_CACHE = HERE.parent / "build" / "models" / "faces"  # rendered once, kept here
FONTS_STAMP = "fonts.txt"  # in the cache: the fonts its faces were drawn in


@dataclass(frozen=True)
class Fonts:
    """What the font names in the designs' SVG text are drawn in: a fontconfig file, what it must
    resolve each name to, and the cache folder for faces drawn so."""

    conf: Path
    pinned: tuple[tuple[str, str], ...]
    cache: Path


# Each design's index is SVG text in a font it names. Left to the machine, "Arial" was DejaVu Sans
# on one and Liberation Sans on another, and the held-out deck's named cards moved by a fifth.
# As the designs ask: Arial as its metric twin.
FAITHFUL = Fonts(HERE / "fonts.conf", (("Arial", "Liberation Sans"), ("Bitstream Vera Sans", "DejaVu Sans")), FACES_CACHE)
# As a machine without Arial's twin draws it: the shipped printed rows were drawn so (deck_rows.py).
BARE = Fonts(HERE / "fonts-bare.conf", (("Arial", "DejaVu Sans"), ("Bitstream Vera Sans", "DejaVu Sans")),
             FACES_CACHE.with_name("faces-bare"))

_SAUL_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
_SAUL_RANK = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


def _knoll(card: Card) -> str:
    return f"{'10' if card.rank == 10 else str(card)[0]}{card.suit.upper()}.svg"


def _kennard(card: Card) -> str:
    return f"{str(card)[0]}{card.suit.upper()}.svg"


def _saul(card: Card) -> str:
    return f"{_SAUL_SUIT[card.suit]}{_SAUL_RANK.get(card.rank, str(card.rank))}.svg"


@dataclass(frozen=True)
class Design:
    """One deck design: where its SVGs are and how each card's file is named."""

    name: str
    folder: str  # relative to the card-assets root
    file_of: object  # Card -> file name
    backs: tuple[str, ...] = ()


DESIGNS = {
    "knoll": Design("knoll", "deck-byron-knoll-public-domain/svg", _knoll),
    "kennard-2color": Design("kennard-2color", "deck-revk-kennard-cc0/2color", _kennard, ("../back.svg",)),
    "kennard-2color-bf": Design("kennard-2color-bf", "deck-revk-kennard-cc0/2color-bf", _kennard),
    "kennard-4color": Design("kennard-4color", "deck-revk-kennard-cc0/4color", _kennard),
    "kennard-4color-bf": Design("kennard-4color-bf", "deck-revk-kennard-cc0/4color-bf", _kennard),
    "saulspatz-2color": Design("saulspatz-2color", "deck-saulspatz-jumbo-public-domain/Vertical2", _saul, ("blueBack.svg", "redBack.svg")),
    "saulspatz-4color": Design("saulspatz-4color", "deck-saulspatz-jumbo-public-domain/Vertical4", _saul),
}
# Never rendered into training data: the reader is scored on it as a deck it has never seen.
HELD_OUT = "knoll"


@dataclass(frozen=True)
class Face:
    """A rendered face (BGR on white) and its two corner indices as (rank box, suit box), x0 y0 x1 y1."""

    card: Card
    image: np.ndarray
    alpha: np.ndarray  # 0..255, the card's shape (rounded corners)
    index: tuple[tuple[tuple[int, int, int, int], tuple[int, int, int, int]], ...]


def pinned_fonts(fonts: Fonts = FAITHFUL) -> str:
    """The designs' font names as ``fonts.conf`` (for ``fonts``, its file) resolves them, one line; raises where one is not
    the pinned font (the font missing: fontconfig falls back to another)."""
    if not shutil.which("fc-match"):
        raise RuntimeError("rendering the decks needs fontconfig's fc-match (Debian: fontconfig)")
    env = {**os.environ, "FONTCONFIG_FILE": str(fonts.conf)}
    got = {name: subprocess.run(["fc-match", "-f", "%{family[0]}", name], env=env, check=True, capture_output=True,
                                text=True).stdout.strip() for name, _ in fonts.pinned}
    wrong = [f"{name} resolves to {got[name]!r}, not {want!r}" for name, want in fonts.pinned if got[name] != want]
    if wrong:
        raise RuntimeError(f"{fonts.conf}: {'; '.join(wrong)}; install Debian's fonts-liberation and fonts-dejavu-core")
    return "; ".join(f"{name} as {got[name]}" for name, _ in fonts.pinned)


@functools.cache
def _fresh(fonts: Fonts) -> None:
    """Faces drawn in other fonts (or before the fonts were pinned) are drawn again."""
    cache = fonts.cache
    drawn_in = pinned_fonts(fonts)
    stamp = cache / FONTS_STAMP
    if stamp.exists() and stamp.read_text() == drawn_in:
        return
    for old in cache.glob("*.png"):
        old.unlink()
    cache.mkdir(parents=True, exist_ok=True)
    stamp.write_text(drawn_in)


def _svg_to_png(svg: Path, png: Path, height: int, fonts: Fonts = FAITHFUL) -> None:
    png.parent.mkdir(parents=True, exist_ok=True)
    # Rendered beside the cache's file and moved into place whole: two runs started together share
    # the cache, and one read a face the other had only half written ("rendering gave no picture").
    part = png.with_name(f"{png.stem}.{os.getpid()}.part.png")
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-h", str(height), "-o", str(part), str(svg)], check=True, capture_output=True,
                       env={**os.environ, "FONTCONFIG_FILE": str(fonts.conf)})
    else:
        # Cairo reads fontconfig's setup once: in a process without rsvg-convert, one setup only.
        os.environ["FONTCONFIG_FILE"] = str(fonts.conf)
        import cairosvg  # type: ignore[import-not-found]

        cairosvg.svg2png(url=str(svg), write_to=str(part), output_height=height)
    os.replace(part, png)


def _load(svg: Path, fonts: Fonts) -> tuple[np.ndarray, np.ndarray]:
    _fresh(fonts)
    png = fonts.cache / (svg.parent.name + "-" + svg.stem + ".png")
    if not png.exists():
        _svg_to_png(svg, png, FACE_H, fonts)
    img = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3:
        raise ValueError(f"{svg}: rendering gave no picture")
    if img.shape[2] == 3:
        return img, np.full(img.shape[:2], 255, np.uint8)
    a = img[..., 3:].astype(np.float32) / 255.0
    bgr = (img[..., :3].astype(np.float32) * a + 255.0 * (1 - a)).astype(np.uint8)
    return bgr, img[..., 3].copy()


def find_index(face: np.ndarray) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The top-left corner index of an upright face: (rank box, suit box).

    The rank is the top-most ink near the top-left corner (with a glyph beside it
    at the same height for "10"), the suit the next ink below it.
    """
    h, w = face.shape[:2]
    grey = face.min(axis=2)
    ink = (grey < 170).astype(np.uint8)
    ink[:4] = 0  # the card's printed outline would join glyphs that touch it
    ink[:, :4] = 0
    n, _, st, _ = cv2.connectedComponentsWithStats(ink, 8)
    comps = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in st[i])
        if area < 20 or bh < 8 or bw > 0.3 * w or bh > 0.3 * h or x > 0.3 * w or y > 0.4 * h:
            continue
        comps.append((y, x, x + bw, y + bh))
    if not comps:
        raise ValueError("no index ink near the top-left corner")
    comps.sort()
    top = comps[0]
    th = top[3] - top[0]
    # "10" is two glyphs side by side, of about the same height.
    rank = [c for c in comps if abs(c[0] - top[0]) < 0.3 * th and 0.7 * th < c[3] - c[0] < 1.4 * th and c[1] < top[2] + 0.4 * th]
    rx0, ry0 = min(c[1] for c in rank), min(c[0] for c in rank)
    rx1, ry1 = max(c[2] for c in rank), max(c[3] for c in rank)
    below = [c for c in comps if c[0] >= ry0 + 0.6 * (ry1 - ry0) and c[1] < rx1 and c[2] > rx0 and c not in rank]
    if not below:
        raise ValueError("no suit under the rank")
    s = min(below)
    return (rx0, ry0, rx1, ry1), (s[1], s[0], s[2], s[3])


def turned(box: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int, int, int]:
    """A box on the face turned half a turn (the bottom-right index)."""
    return (w - box[2], h - box[3], w - box[0], h - box[1])


def render_design(root: Path, design: Design, fonts: Fonts = FAITHFUL) -> list[Face]:
    """All 52 faces of ``design``; each with both corner indices."""
    out = []
    for card in FULL_DECK:
        img, alpha = _load(root / design.folder / design.file_of(card), fonts)  # type: ignore[operator]
        h, w = img.shape[:2]
        try:
            rank, suit = find_index(img)
        except ValueError:
            # Glyphs that touch (a court card's rank and suit in one ink blob): the face is still
            # drawn into scenes, but what the reader proposes on it is not used for training.
            out.append(Face(card, img, alpha, ()))
            continue
        out.append(Face(card, img, alpha, ((rank, suit), (turned(rank, w, h), turned(suit, w, h)))))
    return out


def faces_by_card(root: Path, design: str) -> dict[Card, np.ndarray]:
    """Each card's face in ``design`` (a name of :data:`DESIGNS`), for the simulated camera to film."""
    return {f.card: f.image for f in render_design(root, DESIGNS[design])}


def render_backs(root: Path, fonts: Fonts = FAITHFUL) -> list[np.ndarray]:
    """The designs' own back pictures (BGR)."""
    out = []
    for design in DESIGNS.values():
        if design.name == HELD_OUT:
            continue
        for b in design.backs:
            out.append(_load((root / design.folder / b).resolve(), fonts)[0])
    return out
