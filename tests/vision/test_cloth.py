"""A table covered in other cloth (black or grey speed cloth, a black mat, red cloth), through the camera's pipeline."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.vision.change import ChangeGate
from dealer_pi.vision.detect import Detector, is_felt_like
from dealer_pi.vision.glyphs import quarter
from dealer_pi.vision.lit_table import LIT_TABLE, filmed, lit, table_pipeline
from dealer_pi.vision.pipeline import PICTURE_BLIND
from dealer_pi.vision.render import FELT_GREEN, render_table_scene
from vision_helpers import BLACK_CLOTH, RED_CLOTH, face_down_zones, filmed_still


@pytest.mark.parametrize("cloth", [(110, 110, 110), BLACK_CLOTH])
def test_DEAL_HOLE_COUNT_DEAL_BURN_face_down_cards_on_grey_and_black_cloth_are_found_and_face_up_ones_named(cloth):
    # Only coloured cloth was looked at for backs: on grey or black cloth the camera never reported
    # a seat's face-down pair or the burn. Black cloth is the print's own colour, and its ink is
    # not dropped as the weave of coloured felt is.
    truth = {c for cards in LIT_TABLE.values() for c in cards if c is not None}
    for seed in (1, 2):
        seen = filmed_still(render_table_scene(LIT_TABLE, seed=seed, cloth=cloth).frame, seed)
        downs = face_down_zones(seen)
        assert downs == ["burn", "seat:5", "seat:5"], (cloth, seed, downs)
        names = {o.card for o in seen if o.card is not None}
        assert names <= truth and len(names) >= len(truth) - 2, (cloth, seed, names)


@pytest.mark.parametrize("light", [1.3, 1.6])
def test_DEAL_HOLE_COUNT_DEAL_BURN_grey_cloth_a_cameras_exposure_lifts_towards_middle_grey_is_still_a_table(light):
    # A camera's automatic exposure lifts grey cloth of 110 to 143 at 1.3 times the light, past the
    # dark cloth's bar of 130: 3 of 30 face-down cards were reported, and at 1.6 times none.
    for seed in (1, 2):
        frame = lit(render_table_scene(LIT_TABLE, seed=seed, cloth=(110, 110, 110)).frame, light)
        assert face_down_zones(filmed_still(frame, seed)) == ["burn", "seat:5", "seat:5"], (light, seed)


def test_a_light_desk_is_no_table_to_a_camera_and_grey_cloth_is_one_as_far_under_the_frames_white():
    desk, grey = np.full(3, 215.0), np.full(3, 150.0)
    assert not is_felt_like(desk, 250.0)
    assert is_felt_like(grey, 250.0)
    # The same grey in a frame whose white is 190: card stock near the cloth's colour.
    assert not is_felt_like(grey, 190.0)
    # A still's table is coloured cloth only.
    assert not is_felt_like(grey)
    assert is_felt_like(np.array([40.0, 110.0, 30.0]))


def test_a_cameras_survey_given_no_quarter_size_copy_makes_its_own():
    frame = render_table_scene(LIT_TABLE, seed=1, cloth=(110, 110, 110)).frame
    assert repr(Detector(follow_scale=True).survey(frame)[0]) == repr(Detector(follow_scale=True).survey(frame, quarter(frame))[0])


@pytest.mark.parametrize(("seed", "light"), [(0, 1.5), (3, 1.5), (0, 2.0)])
def test_DEAL_DECK_red_print_on_red_cloth_a_cameras_exposure_lifts_is_named(seed, light):
    # Lifted, red cloth is the red print's own colour, and the camera dropped the print with the
    # felt's ink: every red card of the board and the seat went unnamed.
    truth = {c for cards in LIT_TABLE.values() for c in cards if c is not None}
    frame = lit(render_table_scene(LIT_TABLE, seed=seed, cloth=RED_CLOTH).frame, light)
    names = {o.card for o in filmed_still(frame, seed) if o.card is not None}
    assert {Card.parse(c) for c in ("Ah", "Kd", "2h")} <= names <= truth, names


def _filmed(cloth: tuple[int, int, int], light: float, seed: int, frames: int) -> tuple[str, str, int]:
    """What a pipeline that reads every frame says of its picture after filming ``cloth`` at
    ``light`` ``frames`` times, and the face-down cards its last frame found."""
    pipe = table_pipeline(ChangeGate(refresh=1, in_part=False))
    [(_, last)] = filmed([(lit(render_table_scene(LIT_TABLE, seed=seed, cloth=cloth).frame, light), frames)], seed, pipe)
    return pipe.picture, pipe.picture_detail, sum(not f.face_up for f in last)


@pytest.mark.parametrize(("cloth", "light"), [((125, 135, 145), 1.5), ((120, 160, 190), 2.0), ((110, 110, 110), 1.8),
                                             ((235, 235, 235), 1.0)])
def test_DEAL_HOLE_COUNT_a_camera_too_light_to_tell_the_cloth_from_card_stock_says_so(cloth, light):
    # Taupe cloth at 1.5 times the light, tan at 2, grey at 1.8: the frames' cloth is too near the
    # cards' white to be told from it, and the seat's pair and the burn went unreported with no word
    # to the dealer that the camera no longer counts them. A white table in full light is the same.
    picture, detail, downs = _filmed(cloth, light, seed=0, frames=PICTURE_BLIND)
    assert (picture, downs) == ("too light", 0), (cloth, light)
    assert "face-down cards are not counted" in detail and "exposure" in detail


@pytest.mark.parametrize(("cloth", "light", "seed"), [(FELT_GREEN, 1.0, 0), ((125, 135, 145), 1.0, 0), ((110, 110, 110), 1.6, 0),
                                                       (BLACK_CLOTH, 2.0, 0), ((110, 110, 110), 1.8, 4)])
def test_DEAL_HOLE_COUNT_a_camera_that_tells_the_cloth_from_card_stock_says_its_picture_is_ok(cloth, light, seed):
    # Grey cloth at 1.8 times the light is told from the cards' white in some tables and not in
    # others; where it is, all three face-down cards are found.
    assert _filmed(cloth, light, seed, frames=2 * PICTURE_BLIND) == ("ok", "", 3)
