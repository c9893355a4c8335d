"""One colour (a felt's, card stock's white) in the colour spaces the rules compare it in.

The rules measure a whole picture in Lab or HSV, and the colour they hold it against (the felt's,
white's) is a single BGR triple: converted here, in one place, as OpenCV scales each space, so
that every module compares a picture with the same numbers.
"""

from __future__ import annotations

import cv2
import numpy as np


def _one(colour: np.ndarray, code: int) -> np.ndarray:
    out: np.ndarray = cv2.cvtColor(np.asarray(colour).reshape(1, 1, 3).astype(np.uint8), code)[0, 0]
    return out


def lab_colour(colour: np.ndarray) -> np.ndarray:
    """One colour (BGR) in OpenCV's 8-bit Lab."""
    return _one(colour, cv2.COLOR_BGR2Lab)


def hsv_colour(colour: np.ndarray) -> np.ndarray:
    """One colour (BGR) as hue, saturation and value, as OpenCV scales them."""
    return _one(colour, cv2.COLOR_BGR2HSV)
