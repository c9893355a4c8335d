"""One colour held against a whole picture: the felt's colour in Lab and HSV, as the rules see it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_pi.vision.colour import hsv_colour, lab_colour
from dealer_pi.vision.render import FELT_GREEN
from vision_helpers import BLACK_CLOTH, BLUE_CLOTH, RED_CLOTH, SLATE_CLOTH

CLOTHS = [FELT_GREEN, BLUE_CLOTH, RED_CLOTH, BLACK_CLOTH, SLATE_CLOTH, (205, 170, 120)]


@pytest.mark.parametrize("cloth", CLOTHS)
def test_one_colour_is_the_same_numbers_as_a_picture_of_it(cloth):
    # The rules compare a picture converted whole with the felt's colour converted alone: the two
    # must be on the same scale (8-bit Lab and HSV), or an even cloth would differ from itself.
    picture = np.full((4, 4, 3), cloth, np.uint8)
    assert lab_colour(np.asarray(cloth, np.float32)).tolist() == cv2.cvtColor(picture, cv2.COLOR_BGR2Lab)[0, 0].tolist()
    assert hsv_colour(np.asarray(cloth, np.float32)).tolist() == cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)[0, 0].tolist()

