"""A table filmed with too little light (a fixed exposure in a dim room), through the camera's pipeline."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_pi.vision.exposure import brighten, exposed
from dealer_pi.vision.lit_table import LIT_TABLE, lit
from dealer_pi.vision.render import FELT_GREEN, render_table_scene
from vision_helpers import face_down_zones, filmed_still


def test_a_picture_lit_as_a_camera_leaves_it_is_read_as_it_is():
    # Cards on the table, or none (the empty felt is the darkest a well-lit table gets), and at
    # half the light, which the rules read as in full light.
    for seed in range(4):
        for table, light in ((LIT_TABLE, 1.0), ({}, 1.0), (LIT_TABLE, 0.5)):
            frame = lit(render_table_scene(table, seed=seed).frame, light)
            assert brighten(frame) is frame, (seed, table, light)


def test_a_dim_picture_is_brightened_to_a_cards_white_and_a_black_one_only_so_far():
    frame = lit(render_table_scene(LIT_TABLE, seed=3).frame, 0.3)
    lifted = brighten(frame)
    assert 180 <= np.percentile(lifted.max(axis=2), 99.9) <= 230
    black = np.full((720, 1280, 3), 4, np.uint8)  # a covered lens: noise, not a table
    assert int(brighten(black).max()) <= 4 * 6


@pytest.mark.parametrize("light", [0.3, 0.2])
def test_DEAL_HOLE_COUNT_DEAL_BURN_a_table_filmed_dim_shows_its_face_down_cards_and_names_its_face_up_ones(light):
    # At a third of the light the felt was no felt: no part of the table was looked at for backs,
    # and the seat's face-down pair and the burn were never reported.
    truth = {c for cards in LIT_TABLE.values() for c in cards if c is not None}
    for seed in (1, 2):
        frame = render_table_scene(LIT_TABLE, seed=seed).frame
        full, dim = filmed_still(frame, seed), filmed_still(lit(frame, light), seed)
        downs = face_down_zones(dim)
        assert downs == face_down_zones(full), (light, seed, downs)
        assert len(downs) == 3, (light, seed, downs)
        names = {o.card for o in dim if o.card is not None}
        assert names <= truth, (light, seed, names - truth)
        assert len(names) >= len({o.card for o in full if o.card is not None}) - 1, (light, seed, names)


@pytest.mark.parametrize("cloth", [FELT_GREEN, (110, 110, 110)])
def test_DEAL_HOLE_EXPOSED_DEAL_FLOP_EXTRA_a_table_under_a_filament_bulb_shows_no_face_down_card_that_is_face_up(cloth):
    # Under a filament bulb's light (blue at 0.55 of red, green at 0.8) a face's stock is peach:
    # an exposed pair at a seat was reported face down (seed 7), and a board card once (seed 0).
    # On grey cloth the whole frame leans as the cards' white does, and the white is far brighter.
    for seed in (0, 7):
        frame = render_table_scene(LIT_TABLE, seed=seed, cloth=cloth).frame
        lamp = lit(frame, 1.0, (0.55, 0.8, 1.0))
        downs = face_down_zones(filmed_still(lamp, seed))
        assert downs == ["burn", "seat:5", "seat:5"], (cloth, seed, downs)


def test_a_tinted_table_with_no_white_on_it_keeps_its_colour():
    # The empty felt's brightest pixels are the felt's own highlights: no lamp's colour to take off.
    for seed in range(3):
        frame = render_table_scene({}, seed=seed).frame
        assert exposed(frame)[0] is frame
