"""Pictures the vision tests share, and the scripts of ``models/`` they load."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import CardSeen
from dealer_pi.vision.closer import LOOKS_PER_FRAME
from dealer_pi.vision.detect import Detector
from dealer_pi.vision.faces import FaceStyle, render_back, render_face
from dealer_pi.vision.glyphs import GlyphParams
from dealer_pi.vision.lit_table import filmed
from dealer_pi.vision.recogniser import Recogniser
from dealer_pi.vision.render import Placement, card_homography, compose, felt

# A camera frame's ink as the tests' older frames were read when they were taken: the median over
# the grey at every glyph size. It made the misreads several checks are for (a 3 read as an 8, a
# small club as a spade); read as shipped, without it at a camera's glyph size, the frame names
# most of those cards right itself (test_closer.py), and the checks would have nothing to catch.
MEDIAN_EVERYWHERE = GlyphParams(smooth_from_px=0.0)

MODELS = Path(__file__).resolve().parents[2] / "models"


def models_script(name: str) -> ModuleType:
    """A script of ``models/`` (``decks``, ``eval_heldout``), imported with ``models/`` on the path
    for that import only: its scripts import one another by their bare names."""
    sys.path.insert(0, str(MODELS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(MODELS))


def camera_detector(glyph_px: float, median: bool = False, recogniser: Recogniser | None = None,
                    closer_looks: int = LOOKS_PER_FRAME) -> Detector:
    """The camera's detector as it stands mid-hand: card size from the config (132 px), glyph size
    followed (``glyph_px``: what it had settled on when the frame was filmed). ``median``: the
    frame's ink as it was read when the picture was taken (``MEDIAN_EVERYWHERE``), for a check of a
    misread the frame no longer makes; ``recogniser`` replaces the reader outright."""
    assert not (median and recogniser), "a recogniser brings its own params"
    reader = recogniser or (Recogniser(params=MEDIAN_EVERYWHERE) if median else None)
    det = Detector(reader, card_height_px=132.0, follow_scale=True, closer_looks=closer_looks)
    det.glyph_px = glyph_px
    return det

# Blue, red and black cloth (BGR), as models/eval_dim.py lays them; slate, a blue grey of too
# little colour to be coloured cloth and too much to be grey.
BLUE_CLOTH = (140, 70, 25)
RED_CLOTH = (35, 30, 150)
BLACK_CLOTH = (30, 30, 30)
SLATE_CLOTH = (110, 100, 85)

# A venue deck the networks never learnt (Hershey triplex, thick strokes, a small suit), and the
# eight of its cards shown to the camera to enrol it.
ENROLLED_STYLE = FaceStyle(font=cv2.FONT_HERSHEY_TRIPLEX, thickness=3, index_height=44, suit_ratio=0.6, gap=0.3, squeeze=0.8)
ENROLLED_CARDS = [Card.parse(c) for c in ("Ah", "Kd", "Qc", "Js", "Th", "9d", "8c", "7s")]


def enrolment_pictures(folder) -> None:
    """One picture per card of :data:`ENROLLED_CARDS` in ``folder``, named after it: the card
    alone on felt, turned a little, both corners in view, as a venue films it to enrol."""
    from dealer_pi.vision.render import render_table_scene

    rng = np.random.default_rng(0)
    for card in ENROLLED_CARDS:
        scene = render_table_scene({"board": [card]}, seed=int(rng.integers(1000)), style=ENROLLED_STYLE,
                                   card_height=300, size=(640, 480))
        cv2.imwrite(str(folder / f"{card}.png"), scene.frame)


ON_TABLE = {"7h": (520, 400, 10), "Ks": (660, 420, -8), "4d": (800, 390, 4)}
ON_FLOOR = {"9c": (110, 700, 30)}
FACE_DOWN = [(330, 330, 35), (370, 350, 45), (930, 520, -20)]  # a pair at a seat, and a lone card


# A picture's floor or cloth, ``w`` by ``h`` pixels, from ``rng``.
Maker = Callable[[np.random.Generator, int, int], np.ndarray]


def wooden_floor(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Light brown planks, ``w`` by ``h`` pixels."""
    floor = np.empty((h, w, 3), np.uint8)
    grain = (np.sin(np.arange(h) / 7.0) * 12).astype(np.int16)[:, None]
    for c, base in enumerate((70, 120, 170)):
        floor[..., c] = np.clip(base + grain + rng.integers(-8, 9, (h, w)), 0, 255)
    return floor


def table_on_a_floor(seed: int = 3, face_down: bool = False, floor_of: Maker | None = None, cloth_of: Maker | None = None,
                     light: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """An oval table (``cloth_of``; green felt unless said), a floor round it (``floor_of``; wooden
    planks unless said), cards on both (and, if asked, :data:`FACE_DOWN` cards on the table), their
    faces in a light of this colour (B, G and R shares of white: a warm, dim room's below 1)."""
    rng = np.random.default_rng(seed)
    w, h = 1280, 860
    floor = (floor_of or wooden_floor)(rng, w, h)
    cloth = cloth_of(rng, w, h) if cloth_of else felt(w, h, rng)
    oval = np.zeros((h, w), np.uint8)
    cv2.ellipse(oval, (660, 400), (520, 330), 0, 0, 360, 255, -1)
    picture = np.where(oval[..., None] > 0, cloth, floor)
    style = FaceStyle()
    placements = []
    for name, (x, y, angle) in {**ON_TABLE, **ON_FLOOR}.items():
        card = Card.parse(name)
        face, _ = render_face(card, style)
        placements.append(Placement((face * np.array(light)).astype(np.uint8), card_homography((x, y), angle, 150), card, True))
    back = render_back((40, 40, 170), seed)
    for x, y, angle in FACE_DOWN if face_down else []:
        placements.append(Placement(back, card_homography((x, y), angle, 150), None, False))
    return compose(picture, placements).frame


def filmed_still(frame: np.ndarray, seed: int) -> list[CardSeen]:
    """What the camera's tracker reports of ``frame`` filmed 8 times (:func:`.lit_table.filmed`)."""
    [(seen, _)] = filmed([(frame, 8)], seed)
    return seen


def face_down_zones(seen: list[CardSeen]) -> list[str]:
    """The zones of the face-down cards among ``seen``, sorted."""
    return sorted(str(o.zone) for o in seen if not o.face_up)
