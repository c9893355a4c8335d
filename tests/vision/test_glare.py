"""A lamp's glare on the cloth of an overexposed table, through the camera's pipeline."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_pi.vision.detect import felt_colour, not_felt, table_print
from dealer_pi.vision.exposure import exposed
from dealer_pi.vision.glare import felt_in_glare, without_glare
from dealer_pi.vision.lit_table import LIT_TABLE, lit
from dealer_pi.vision.render import FELT_GREEN, render_table_scene
from vision_helpers import BLACK_CLOTH, BLUE_CLOTH, RED_CLOTH, SLATE_CLOTH, face_down_zones, filmed_still


@pytest.mark.parametrize(("seed", "light", "cloth"), [(7, 2.0, FELT_GREEN), (16, 1.5, FELT_GREEN), (16, 2.0, FELT_GREEN),
                                                     (7, 2.0, BLUE_CLOTH), (14, 2.5, BLUE_CLOTH),
                                                     (38, 2.5, BLUE_CLOTH), (39, 2.5, BLUE_CLOTH), (16, 2.5, RED_CLOTH),
                                                     (7, 1.5, SLATE_CLOTH), (16, 1.5, SLATE_CLOTH), (7, 1.8, SLATE_CLOTH),
                                                     (16, 1.8, SLATE_CLOTH)])
def test_DEAL_HOLE_COUNT_DEAL_BURN_an_overexposed_tables_glare_is_no_face_down_card(seed, light, cloth):
    # Overexposed, the lamp's spot on the cloth turns pale, far from the felt's colour: it was
    # reported as one to three face-down cards beside the seat's pair and the burn. On blue cloth
    # the camera clips the blue channel at the felt already, and the spot's hue turns towards cyan:
    # four to seven more face-down cards, or a ring of six where the spot fades into the felt, or
    # one where its middle clips the green too and the difference it keeps shows less. On red
    # cloth the spot's pale middle, where it runs off the frame, was one more. Slate cloth is
    # neither coloured nor grey, and no glare rule was asked there: one more; at 1.8 times the light
    # the spot's middle clips the blue the felt does not, and its hue turns: two or three more.
    frame = lit(render_table_scene(LIT_TABLE, seed=seed, cloth=cloth).frame, light)
    assert face_down_zones(filmed_still(frame, seed)) == ["burn", "seat:5", "seat:5"]


@pytest.mark.parametrize("cloth", [BLUE_CLOTH, RED_CLOTH])
def test_DEAL_HOLE_COUNT_DEAL_BURN_backs_of_the_cloths_hue_are_no_glare(cloth):
    # The simulated backs are a blue lattice on white: on blue cloth their pale blue is the
    # cloth's hue, lighter, as a glare's is, and only their print tells them from one.
    for seed in (0, 1):
        frame = render_table_scene(LIT_TABLE, seed=seed, cloth=cloth).frame
        assert face_down_zones(filmed_still(frame, seed)) == ["burn", "seat:5", "seat:5"], seed


@pytest.mark.parametrize("seed", [2, 6])
def test_DEAL_HOLE_COUNT_DEAL_BURN_an_overexposed_back_of_the_cloths_hue_is_found_whole(seed):
    # At 1.5 times the light a blue back on blue cloth is felt in patches, each enclosed by the
    # back's white margin; the camera took the pair (or the burn) for felt and holes, and lost it.
    frame = lit(render_table_scene(LIT_TABLE, seed=seed, cloth=BLUE_CLOTH).frame, 1.5)
    assert face_down_zones(filmed_still(frame, seed)) == ["burn", "seat:5", "seat:5"]


@pytest.mark.parametrize(("seed", "light"), [(7, 2.0), (16, 2.0), (7, 2.5), (12, 2.5)])
def test_DEAL_HOLE_COUNT_DEAL_BURN_a_grey_glare_on_overexposed_black_cloth_is_no_card_and_hides_none(seed, light):
    # On black cloth the lamp's spot is grey: no hue to know it by. It was reported as one to
    # seven face-down cards. It is grey light on the felt, darker than the cards' stock, and the
    # face-up cards lying in it keep their names.
    truth = {c for cards in LIT_TABLE.values() for c in cards if c is not None}
    seen = filmed_still(lit(render_table_scene(LIT_TABLE, seed=seed, cloth=BLACK_CLOTH).frame, light), seed)
    assert face_down_zones(seen) == ["burn", "seat:5", "seat:5"]
    names = {o.card for o in seen if o.card is not None}
    assert names <= truth and len(names) >= len(truth) - 1, names


def test_DEAL_HOLE_EXPOSED_DEAL_HOLE_COUNT_an_overexposed_pair_of_lattice_backs_is_no_face_up_card():
    # At twice the light a seat's pair of blue lattice backs on green cloth is one part: the
    # lattice lightens into white stock, no stretch of back is left to count, and the piece of the
    # lower card showed just over the share of plain stock a face shows (0.305). It was a face-up
    # card beside a back, a hole card exposed to the monitor.
    frame = lit(render_table_scene(LIT_TABLE, seed=3, cloth=FELT_GREEN).frame, 2.0)
    seen = filmed_still(frame, 3)
    assert face_down_zones(seen) == ["burn", "seat:5", "seat:5"]
    assert not [o for o in seen if o.face_up and o.zone == "seat:5"]


def test_the_glare_taken_off_is_off_the_cards():
    # Every pixel of a card stays in the region, and most of the spot leaves it.
    for seed in (7, 16):
        scene = render_table_scene(LIT_TABLE, seed=seed)
        frame, quartered = exposed(lit(scene.frame, 2.0))
        felt = felt_colour(frame)
        region = not_felt(frame, felt, quartered=quartered)
        glare = felt_in_glare(quartered, cv2.cvtColor(quartered, cv2.COLOR_BGR2Lab), felt)
        kept = without_glare(region, glare, lambda: table_print(frame, region))
        assert scene.top is not None
        # The region is worked out at quarter size: a card's outline is within 4 pixels of it.
        cards = cv2.erode((scene.top >= 0).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
        assert np.all(kept[cards & (region > 0)] > 0), seed
        off_cards = (region > 0) & ~cv2.dilate((scene.top >= 0).astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
        assert np.count_nonzero(kept[off_cards]) < 0.2 * np.count_nonzero(off_cards), seed
        assert np.count_nonzero(off_cards) > 0.1 * np.count_nonzero(cards), seed  # a spot of a card or more to take off


def test_a_table_lit_as_a_camera_leaves_it_loses_nothing_to_glare():
    for seed in range(3):
        frame, quartered = exposed(render_table_scene(LIT_TABLE, seed=seed).frame)
        felt = felt_colour(frame)
        region = not_felt(frame, felt, quartered=quartered)
        lab = cv2.cvtColor(quartered, cv2.COLOR_BGR2Lab)
        assert np.array_equal(without_glare(region, felt_in_glare(quartered, lab, felt), lambda: table_print(frame, region)), region), seed
