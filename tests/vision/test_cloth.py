"""A table covered in dark cloth (black or grey speed cloth, a black mat), through the camera's pipeline."""

from __future__ import annotations

import pytest

from dealer_pi.vision.lit_table import LIT_TABLE, filmed
from dealer_pi.vision.render import render_table_scene


@pytest.mark.parametrize("cloth", [(110, 110, 110), (30, 30, 30)])
def test_DEAL_HOLE_COUNT_DEAL_BURN_face_down_cards_on_grey_and_black_cloth_are_found_and_face_up_ones_named(cloth):
    # Only coloured cloth was looked at for backs: on grey or black cloth the camera never reported
    # a seat's face-down pair or the burn. Black cloth is the print's own colour, and its ink is
    # not dropped as the weave of coloured felt is.
    truth = {c for cards in LIT_TABLE.values() for c in cards if c is not None}
    for seed in (1, 2):
        [(seen, _)] = filmed([(render_table_scene(LIT_TABLE, seed=seed, cloth=cloth).frame, 8)], seed)
        downs = sorted(str(o.zone) for o in seen if not o.face_up)
        assert downs == ["burn", "seat:5", "seat:5"], (cloth, seed, downs)
        names = {o.card for o in seen if o.card is not None}
        assert names <= truth and len(names) >= len(truth) - 2, (cloth, seed, names)
