"""The region classifier: what an unread stretch of card-coloured pixels is (models/region_cnn.onnx).

Scenes are drawn here (felt, the drawn deck's backs and faces, a chip rack, a hand) and go
through the real detector twice: with the shipped classifier, and with the colour-and-shape
rules alone (``regions=None``, still the detector's default: see models/REPORT.md), so each test
shows what the network changes.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_pi.vision.detect import Detector
from dealer_pi.vision.faces import render_back
from dealer_pi.vision.recogniser import ModelError
from dealer_pi.vision.regions import KINDS, RegionClassifier, part_inputs
from dealer_pi.vision.render import Placement, camera_faults, card_homography, compose, felt

CARD_H = 110.0
BACKS = [(150, 40, 30), (30, 30, 160), (40, 120, 40), (20, 20, 20), (120, 40, 120)]


def fanned(rng: np.random.Generator, cards: int, spread: float, turn: float, back: tuple[int, int, int]) -> np.ndarray:
    """``cards`` face-down cards at one seat of a felt table, each ``spread`` card heights from
    the last and turned ``turn`` degrees more; the frame is 640x480."""
    image = render_back(back)
    base = float(rng.uniform(0, 360))
    r = math.radians(base)
    placements = []
    for k in range(cards):
        off = (k - (cards - 1) / 2) * spread * CARD_H
        centre = (320 + off * math.cos(r) + rng.normal(0, 2), 240 + off * math.sin(r) + rng.normal(0, 2))
        hm = card_homography(centre, base + 90 + (k - (cards - 1) / 2) * turn, CARD_H, (image.shape[1], image.shape[0]))
        placements.append(Placement(image, hm, None, False))
    frame = compose(felt(640, 480, rng, (40, 110, 30)), placements).frame
    return camera_faults(frame, rng, 0.3)


def face_down_count(det: Detector, frame: np.ndarray) -> int:
    return sum(1 for f in det.detect(frame) if not f.face_up)


def counts(cards: int, spread: float, turn: float, seeds: range) -> tuple[list[int], list[int]]:
    learned = Detector(card_height_px=CARD_H, regions=RegionClassifier())
    rules = Detector(card_height_px=CARD_H, regions=None)
    a, b = [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        frame = fanned(rng, cards, spread, turn, BACKS[seed % len(BACKS)])
        a.append(face_down_count(learned, frame))
        b.append(face_down_count(rules, frame))
    return a, b


def rack(rng: np.random.Generator, centre: tuple[float, float], angle: float) -> np.ndarray:
    """A chip rack on the felt: a long box of chip edges, about a card long and a third as wide."""
    frame = felt(640, 480, rng, (40, 110, 30))
    colour = tuple(int(v) for v in rng.integers(0, 255, 3))
    box = cv2.boxPoints((centre, (CARD_H * 1.3, CARD_H * 0.42), angle)).astype(np.int32)
    cv2.fillPoly(frame, [box], colour)
    a = math.radians(angle)
    for k in range(-12, 13):
        d = k * CARD_H * 0.05
        for side in (-1, 1):
            p = (int(centre[0] + d * math.cos(a) - side * 0.1 * CARD_H * math.sin(a)), int(centre[1] + d * math.sin(a) + side * 0.1 * CARD_H * math.cos(a)))
            cv2.circle(frame, p, 3, tuple(min(255, c + 110) for c in colour), -1)
    return camera_faults(frame, rng, 0.3)


def test_DEAL_HOLE_COUNT_a_single_face_down_card_is_one_card():
    learned, _ = counts(1, 0.0, 0.0, range(8))
    assert learned == [1] * 8, learned


def test_DEAL_HOLE_COUNT_a_face_down_pair_overlapping_closely_is_two_cards():
    # Fanned by an eighth of a card and turned a little: the pair is one part of the picture, hardly
    # bigger than one card, which the rules count by its area as one; the strip of back the lower
    # card shows is mostly too thin for the rules' count of backs.
    # Measured: the classifier counts 2 in 6 of these 10 (twice 1, twice 3), the rules in 2.
    learned, rules = counts(2, 0.12, 8.0, range(10))
    assert sum(n == 2 for n in learned) >= 5, learned
    assert sum(n == 2 for n in learned) > sum(n == 2 for n in rules), (learned, rules)


def test_DEAL_HOLE_COUNT_a_third_card_on_a_face_down_pair_counts_three():
    # The extra hole card lands on the pair (a misdeal, or the burn: DEAL-HOLE-COUNT): the seat
    # must not still count two.
    # Measured: three in all 10 with the classifier; the rules in 2 (their count of backs; the
    # strips of a pile this close are at the edge of what it takes for a card). On the simulator's
    # own table the rules count three exactly (test_detect.py).
    learned, rules = counts(3, 0.16, 10.0, range(10))
    assert sum(n >= 3 for n in learned) >= 8, learned
    assert sum(n >= 3 for n in rules) < sum(n >= 3 for n in learned), rules


def test_a_chip_rack_is_not_a_face_down_card():
    learned = Detector(card_height_px=CARD_H, regions=RegionClassifier())
    rules = Detector(card_height_px=CARD_H, regions=None)
    said_learned = said_rules = 0
    for seed in range(8):
        frame = rack(np.random.default_rng(seed), (320, 240), 30.0 * seed)
        said_learned += face_down_count(learned, frame)
        said_rules += face_down_count(rules, frame)
    # Measured: none with the classifier. The rules took the rack for a face-down card 7 times in
    # 8 until they dropped parts with no card's margin that are three times as long as wide: now 1.
    assert said_learned <= 1, said_learned
    assert said_rules <= 1, said_rules


def test_region_classes_do_not_depend_on_the_batch():
    det = Detector(card_height_px=CARD_H, regions=RegionClassifier())
    rng = np.random.default_rng(3)
    frame = fanned(rng, 2, 0.3, 12.0, BACKS[0])
    _, parts = det.survey(frame)
    assert parts
    together = det.regions.classify(frame, parts + parts)
    alone = [det.regions.classify(frame, [p])[0] for p in parts]
    assert [k.cards for k in together[: len(parts)]] == [k.cards for k in alone]
    assert np.allclose([k.confidence for k in together[: len(parts)]], [k.confidence for k in alone], atol=1e-5)
    patch, scalars = part_inputs(frame, parts[0])
    assert patch.shape == (4, 48, 48) and 0.0 <= float(patch.min()) and float(patch.max()) <= 1.0
    assert np.isfinite(scalars).all()
    assert len(KINDS) == det.regions.probs(patch[None], scalars[None]).shape[1]


def test_a_damaged_region_model_is_refused_with_its_name(tmp_path):
    bad = tmp_path / "region_cnn.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="region_cnn.onnx"):
        RegionClassifier(bad)
    with pytest.raises(ModelError, match="cannot read"):
        RegionClassifier(tmp_path / "missing.onnx")


def test_the_shipped_region_model_is_small():
    from dealer_pi.vision.regions import DEFAULT_REGION_MODEL

    assert DEFAULT_REGION_MODEL.stat().st_size < 500_000
    assert Path(DEFAULT_REGION_MODEL).suffix == ".onnx"


def _part_of(*boxes: tuple[tuple[float, float], tuple[float, float], float], card_area: float):
    """A part whose mask is the union of the given rotated boxes ((centre), (w, h), degrees)."""
    from dealer_pi.vision.detect import Part

    mask = np.zeros((400, 400), np.uint8)
    for box in boxes:
        cv2.fillPoly(mask, [cv2.boxPoints(box).astype(np.int32)], 255)
    area = float(cv2.countNonZero(mask))
    return Part(mask, 0, 0, area, card_area, 0.0, 128.0, 0, 0.0)


def test_DEAL_HOLE_COUNT_a_pair_fanned_almost_on_top_is_two_by_its_width_though_its_area_says_one():
    from dealer_pi.vision.regions import by_area, two_across

    w, h = 107.0, 150.0
    card = w * h
    pair = _part_of(((200, 200), (w, h), -9.0), ((212, 194), (w, h), 9.0), card_area=card)
    assert by_area(pair) == 1  # a card and a bit: one card by area alone
    assert two_across(pair)
    assert not two_across(_part_of(((200, 200), (w, h), 30.0), card_area=card))
    # a lone card with a sliver of the next card the opening left at its end: longer, not wider
    sliver = _part_of(((200, 200), (w, h), 0.0), ((200, 290), (w * 0.8, 30), 0.0), card_area=card)
    assert by_area(sliver) == 1 and not two_across(sliver)


def test_DEAL_BOARD_EXTRA_face_up_cards_in_a_row_count_by_length_and_a_fanned_pair_by_area():
    from dealer_pi.vision.regions import by_area, face_up_count

    w, h = 70.0, 98.0
    card = w * h
    # three cards edge to edge and the band of shadow round them: 3.5 cards' area, three long
    row = _part_of(((200, 200), (3 * w + 10, h + 10), 0.0), card_area=card)
    assert by_area(row) == 4 and face_up_count(row) == 3
    assert face_up_count(_part_of(((200, 200), (2 * w + 10, h + 10), 90.0), card_area=card)) == 2  # across the picture
    assert face_up_count(_part_of(((200, 200), (w + 8, h + 8), 20.0), card_area=card)) == 1
    # a pair fanned face up (shown down) fills its box too little to be a row; its area counts it
    pair = _part_of(((190, 200), (w, h), -12.0), ((225, 196), (w, h), 12.0), card_area=card)
    assert face_up_count(pair) == by_area(pair) == 2
    # a row but two cards tall is no row of one-card-tall cards
    block = _part_of(((200, 200), (2 * w, 2 * h), 0.0), card_area=card)
    assert face_up_count(block) == by_area(block) == 4


def test_DEAL_HOLE_COUNT_a_back_with_a_sliver_of_a_face_beside_it_is_one_card_though_as_wide_as_a_pair():
    import dataclasses

    from dealer_pi.vision.regions import SLIVER_AREA, SLIVER_PLAIN, face_down_count, two_across

    w, h = 107.0, 150.0
    card = w * h
    # A back lying against a face-up card: the opening left a strip of the face along its side.
    part = _part_of(((200, 200), (w, h), 0.0), ((200 + w / 2 + 12, 200), (25, h / 2), 0.0), card_area=card)
    assert part.area < SLIVER_AREA * card
    assert two_across(part)  # no face's stock in it: as wide as a pair fanned almost on top
    with_face = dataclasses.replace(part, plain=SLIVER_PLAIN + 0.05)
    assert not two_across(with_face) and face_down_count(with_face) == 1
    # A pair fanned a little wider still shows a face's stock where it lies on one: two cards.
    pair = _part_of(((200, 200), (w, h), -9.0), ((215, 192), (w, h), 9.0), card_area=card)
    assert pair.area >= SLIVER_AREA * card
    assert face_down_count(dataclasses.replace(pair, plain=SLIVER_PLAIN + 0.05)) == 2


def test_DEAL_HOLE_COUNT_two_stretches_of_back_within_one_cards_box_are_one_card():
    import dataclasses

    from dealer_pi.vision.regions import face_down_count

    w, h = 107.0, 150.0
    card = w * h
    # A lone back whose pale rings cut it into two stretches framed as margins frame backs.
    lone = dataclasses.replace(_part_of(((200, 200), (w - 6, h - 6), 30.0), card_area=card), backs=2)
    assert face_down_count(lone) == 1
    # A fanned pair shows two stretches and is wider and longer than a card: the stretches count.
    pair = dataclasses.replace(_part_of(((190, 200), (w, h), -7.0), ((220, 196), (w, h), 7.0), card_area=card), backs=2)
    assert face_down_count(pair) == 2
    # Half of that pair hidden (under a hand) is less than a card's area, and still no one card.
    hidden = _part_of(((190, 200), (w, h), -7.0), ((220, 196), (w, h), 7.0), card_area=card)
    hidden.mask[:200] = 0
    half = dataclasses.replace(hidden, area=float(cv2.countNonZero(hidden.mask)), backs=2)
    assert half.area < card and face_down_count(half) == 2


def test_DEAL_HOLE_COUNT_two_margins_on_a_pile_of_two_cards_area_are_three_backs_but_not_beside_a_face():
    import dataclasses

    from dealer_pi.vision.regions import PILE_PLAIN, by_area, face_down_count, piled

    w, h = 107.0, 150.0
    card = w * h
    # A seat's pair lying on the burn card: two cards' area that fills its hull as a pile does.
    pile = _part_of(((200, 200), (w, h), 0.0), ((240, 240), (w, h), 25.0), ((200, 270), (w, h), -10.0), card_area=card)
    assert by_area(pile) == 2 and piled(pile)
    # Two stretches framed by margin show (the burn's margin hidden): still three cards.
    assert face_down_count(dataclasses.replace(pile, backs=2, plain=PILE_PLAIN / 2)) == 3
    assert face_down_count(dataclasses.replace(pile, backs=0)) == 3
    # A face's plain stock in it: a back beside an unnamed face, its two stretches the count.
    assert face_down_count(dataclasses.replace(pile, backs=2, plain=0.3)) == 2
    # Three stretches are three cards whatever the area says.
    assert face_down_count(dataclasses.replace(pile, backs=3, plain=0.3)) == 3
