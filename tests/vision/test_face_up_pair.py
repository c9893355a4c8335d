"""A seat's face-up pair, one card over the other, through the camera's pipeline."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.vision.glyphs import GlyphParams, find_blobs
from dealer_pi.vision.lit_table import LIT_TABLE
from dealer_pi.vision.render import render_table_scene
from vision_helpers import filmed_still


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_DEAL_HOLE_EXPOSED_SHOW_BOTH_both_cards_of_a_seats_face_up_pair_are_named(seed):
    # The lit table's seat 1: the jack of hearts lies over the queen of spades, whose lower index
    # shows beside the jack's edge. The queen's Q touches the line of her picture's frame, of which
    # only a thin L is left in view, and was never cut from it; and once it was, her card was taken
    # for the jack read again (their centres a sixth of a card's box apart) and dropped.
    seen = filmed_still(render_table_scene(LIT_TABLE, seed=seed).frame, seed)
    at_seat = {o.card for o in seen if str(o.zone) == "seat:1" and o.face_up}
    assert at_seat == {Card.parse("Qs"), Card.parse("Jh")}, (seed, at_seat)


def _glyph_on_a_line(line_px: int = 1) -> np.ndarray:
    """White card stock with a thin L of a court's frame and a solid glyph touching its corner."""
    img = np.full((120, 120, 3), 255, np.uint8)
    cv2.line(img, (20, 10), (20, 80), (0, 0, 0), line_px)
    cv2.line(img, (20, 80), (60, 80), (0, 0, 0), line_px)
    cv2.rectangle(img, (60, 80), (72, 96), (0, 0, 0), -1)
    return img


def test_a_glyph_touching_a_thin_line_that_is_all_else_its_blob_holds_becomes_a_blob_of_its_own():
    blobs = find_blobs(_glyph_on_a_line(), GlyphParams(min_px=9, max_px=26, smooth=False))
    boxes = [tuple(int(v) for v in blobs.stats[k, :4]) for k in blobs.keep]
    assert any(abs(x - 60) <= 2 and abs(y - 80) <= 2 and 12 <= w <= 16 and 16 <= h <= 19 for x, y, w, h in boxes), boxes
