"""Rows cut from labelled photos for training: right cards, boxes that follow the picture, no worker dependence."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from dealer_pi.vision import evaluate as ev
from dealer_pi.vision.glyphs import FEATURES
from dealer_pi.vision.photo_samples import photo_rows, variants
from dealer_pi.vision.recogniser import NOT_INDEX, IndexModel


@pytest.fixture(scope="module")
def data(photo_root, photo_subsets):
    return ev.class_names(photo_root), photo_subsets["samples"]


def test_rows_name_only_cards_labelled_in_their_photo(data):
    names, photos = data
    model = IndexModel.load()
    x, y = photo_rows(photos, names, model, n_variants=1, seed=3, workers=1)
    assert x.shape == (len(y), FEATURES)
    labelled = set()
    for p in photos:
        img = ev.read_image(p)
        labelled |= {c.index for c, _ in ev.labelled_boxes(p, names, img)}
    cards = set(y[y != NOT_INDEX].tolist())
    assert cards and cards <= labelled
    assert (y == NOT_INDEX).sum() > 0  # pips and clutter away from the corners


def test_rows_do_not_depend_on_the_worker_count(data):
    names, photos = data
    model = IndexModel.load()
    a = photo_rows(photos[:2], names, model, n_variants=1, seed=4, workers=1)
    b = photo_rows(photos[:2], names, model, n_variants=1, seed=4, workers=2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_altered_copies_carry_their_boxes_along():
    img = np.full((200, 300, 3), 230, np.uint8)
    cv2.rectangle(img, (40, 50), (60, 80), (0, 0, 0), -1)  # a dark mark inside the box
    from dealer_pi.engine.cards import Card

    box = (35.0, 45.0, 65.0, 85.0)
    out = variants(img, [(Card.parse("Ah"), box)], np.random.default_rng(1), 5)
    assert len(out) == 6 and out[0][1][0][1] == box
    for im, [(card, (x0, y0, x1, y1))] in out[1:]:
        assert card == Card.parse("Ah")
        grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
        ys, xs = np.nonzero(grey < 100)
        cx, cy = float(xs.mean()), float(ys.mean())
        # The mark's centre is still inside its (moved, grown) box.
        assert x0 <= cx <= x1 and y0 <= cy <= y1, (cx, cy, (x0, y0, x1, y1))
        assert math.isfinite(x0 + y0 + x1 + y1)
