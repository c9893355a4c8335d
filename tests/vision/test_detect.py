"""Detection on rendered overhead frames: singles, overlapping hole cards, face-down cards."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings

from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_pi.cli import main
from dealer_pi.config import config_from_dict
from dealer_pi.engine.cards import FULL_DECK, Card, misread_as
from dealer_pi.engine.observations import CardSeen
from dealer_pi.vision import chips, racks
from dealer_pi.vision.calibration import marker_image
from dealer_pi.vision.detect import STEPPED, CardFound, Detector, _grown_under, _stock_masks, _stock_round, lone_card_area, stepped_share
from dealer_pi.vision.faces import CARD_H, CARD_W, FaceStyle, render_face
from dealer_pi.vision.pipeline import pipeline_from_config
from dealer_pi.vision.recogniser import STILL_SCALES, Recogniser, still_recogniser
from dealer_pi.vision.regions import lobes
from dealer_pi.vision.render import Placement, card_homography, compose, felt, render_table_frame, render_table_scene
from dealer_pi.vision.surface import still_cards, still_detector
from vision_helpers import MEDIAN_EVERYWHERE, camera_detector


def random_table(rng: np.random.Generator) -> dict:
    deck = list(rng.permutation(52))
    table: dict = {"board": [FULL_DECK[deck.pop()] for _ in range(int(rng.integers(3, 6)))], "burn": [None]}
    for seat in rng.choice(np.arange(1, 10), size=2, replace=False).tolist():
        table[f"seat:{seat}"] = [FULL_DECK[deck.pop()], FULL_DECK[deck.pop()]]
    table[f"seat:{int(rng.choice([s for s in range(1, 10) if f'seat:{s}' not in table]))}"] = [None, None]
    return table


def test_rendered_tables_read_right_and_seldom_wrong_with_confidence():
    det = Detector()
    rng = np.random.default_rng(11)
    face_up = named = wrong = 0
    down_truth = down_found = 0
    for n in range(30):
        scene = render_table_scene(random_table(rng), seed=n)
        found = det.detect(scene.frame)
        truth = {p.card for p in scene.placements if p.card is not None}
        face_up += len(truth)
        got = {f.card for f in found if f.card is not None}
        named += len(truth & got)
        wrong += len(got - truth)
        downs = [p for p in scene.placements if not p.face_up]
        down_truth += len(downs)
        for p in downs:
            near = [f for f in found if not f.face_up and math.dist(f.centre, p.centre) < 90]
            down_found += bool(near)
    # 30 frames, 235 face-up cards: the convolutional reader that also learnt the printed decks names
    # 208 with none wrong (the one before it 209 with 1 wrong, the two-layer reader 211 with 2 wrong);
    # all 90 face-down cards are found, and counted exactly in 28 frames of 30 (29 with the region
    # classifier, which is not the default: see models/REPORT.md).
    # The camera's tracker votes over frames on top of this, which a single picture cannot.
    assert wrong <= 1, wrong
    assert named / face_up >= 0.85, (named, face_up)
    assert down_found / down_truth >= 0.8, (down_found, down_truth)


def test_renderer_is_deterministic_for_a_seed():
    table = {"board": list(FULL_DECK[:3]), "seat:2": [None, None]}
    a = render_table_frame(table, seed=7)
    b = render_table_frame(table, seed=7)
    c = render_table_frame(table, seed=8)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


SIM_FRAMES = Path(__file__).resolve().parents[1] / "data" / "sim-frames"


def read_still(name: str) -> list[CardFound]:
    """What ``vision detect`` reports of a saved still: its reading of a whole photo."""
    still = cv2.imread(str(SIM_FRAMES / name))
    return still_cards(still_detector().detect(still), still, None)


def face_up_in_a_row(found: list[CardFound]) -> list[CardFound]:
    """The face-up cards found, left to right: a board's row as the dealer laid it."""
    return sorted((f for f in found if f.face_up), key=lambda f: f.centre[0])


def named_in_a_row(frame_name: str, glyph_px: float, frames: int = 2) -> list[list[str]]:
    """What the camera's detector (``glyph_px`` followed) names face up in a saved frame, left to
    right, each of ``frames`` times it reads it ("None" for a card it leaves unnamed): a closer
    look the first time, remembered the next."""
    det, img = camera_detector(glyph_px), cv2.imread(str(SIM_FRAMES / frame_name))
    return [[str(f.card) for f in face_up_in_a_row(det.detect(img))] for _ in range(frames)]


def test_DEAL_BURN_a_court_card_on_the_board_is_found_though_its_picture_has_skin_colours():
    # Missing it made the monitor take the card the shoe gave for a burn (DEAL-BURN, uncertain),
    # and then the real burn for a second one (DEAL-BURN, irregularity).
    found = camera_detector(15.0).detect(cv2.imread(str(SIM_FRAMES / "board-court-card.png")))
    up = face_up_in_a_row(found)
    assert len(up) == 2, [(f.card, f.centre) for f in found]
    assert up[0].card == Card.parse("As")
    assert up[1].card in (None, Card.parse("Kd"))  # unnamed is allowed, a wrong name is not
    assert math.dist(up[1].centre, (181, 104)) < 25


def test_DEAL_DECK_a_court_whose_index_is_unsure_of_its_suit_and_whose_other_corner_reads_another_is_not_named():
    # The camera loop at seed 16: a queen of clubs on the board, her upper index read as Qs at 0.97
    # in every frame (her picture's club lies on a stripe, her lower "Q" on the frame, so neither
    # is read); her lower index's club, read surely, is the only sign. Named Qs, the shoe's Qc was
    # "seen as Qs" (DEAL-DECK, uncertain) on a clean hand.
    found = camera_detector(15.0).detect(cv2.imread(str(SIM_FRAMES / "board-queen-of-clubs.png")))
    up = face_up_in_a_row(found)
    assert len(up) == 2, [(f.card, f.centre) for f in found]
    assert up[0].card == Card.parse("Th")
    assert up[1].card in (None, Card.parse("Qc")) and math.dist(up[1].centre, (125, 107)) < 25


def test_DEAL_DECK_two_corners_that_lean_to_the_same_wrong_suit_do_not_add_up_to_a_name():
    # A clean camera-loop run (seed 41): a queen of clubs on the board, each corner's small club
    # read as a spade (0.78 and 0.57 of the suit), the queen sure at both. Counted as independent,
    # the two corners made Qs at 0.91 for 16 frames; a suit misread repeats on the other corner.
    # Left unnamed, the queen is read again at double size (the closer look), and is a club there.
    # Read without the median, the frame reads the clubs right and names the queen itself.
    frame = cv2.imread(str(SIM_FRAMES / "board-queen-of-clubs-small-suits.png"))
    plain = camera_detector(15.0, median=True)
    plain.closer = None
    for det, queen in ((plain, "None"), (camera_detector(15.0, median=True), "Qc"), (camera_detector(15.0), "Qc")):
        found = det.detect(frame)
        up = face_up_in_a_row(found)
        assert [str(f.card) for f in up] == ["Td", queen], [(f.card, f.centre, f.confidence) for f in found]
        assert math.dist(up[1].centre, (127, 123)) < 25


def test_DEAL_DECK_a_small_club_read_as_a_spade_is_looked_at_again_and_names_no_spade():
    # Seat 9's ten of clubs on a simulated table (1920x1080): its upper corner's small club read as
    # a spade, 0.94 sure, and the lower corner is under the next card. Read again at double size
    # the club is a club, so the live frame names no ten of spades; the nine of spades beside it,
    # its suit sure, keeps its name.
    # (The frame read with the median, as when the picture was taken: without it, the club is read right.)
    frame = cv2.imread(str(SIM_FRAMES / "seat-ten-of-clubs-small-suits.png"))
    det = camera_detector(15.0, median=True)
    det.closer = None  # the second look alone
    found = det.detect(frame)
    assert {str(f.card) for f in found} == {"9s", "None"}, [(f.card, f.centre, f.confidence) for f in found]
    ten = [f for f in found if f.card is None]
    assert len(ten) == 1 and math.dist(ten[0].centre, (131, 130)) < 20 and ten[0].guess != Card.parse("Ts")
    once = camera_detector(15.0, recogniser=Recogniser(second_look=False, params=MEDIAN_EVERYWHERE), closer_looks=0)
    # Without the second look the frame reads Ts at 0.94 at the upper corner, and Tc at 0.48 at the
    # lower one: too unsure to lean to the Tc, but enough to dispute a suit read 0.94 sure. The ten
    # is torn between the two, not named the Ts (it was, before that dispute).
    torn = [f for f in once.detect(frame) if f.card is None]
    assert len(torn) == 1 and sorted(str(c) for c, _ in torn[0].torn) == ["Tc", "Ts"], [(f.card, f.torn) for f in torn]
    # Left unnamed, the ten gets a closer look at the whole card, which reads it as the ten of clubs.
    assert {str(f.card) for f in camera_detector(15.0, median=True).detect(frame)} == {"9s", "Tc"}
    assert {str(f.card) for f in camera_detector(15.0).detect(frame)} == {"9s", "Tc"}


def test_DEAL_DECK_two_corners_add_up_for_the_rank_but_not_for_the_suit():
    import dataclasses

    def card(suit_a: float, suit_b: float) -> CardFound:
        # each corner 0.8 sure in all: its rank times its suit
        a, b = _both_corners("Qs")
        a, b = dataclasses.replace(a, card=None, suit=suit_a), dataclasses.replace(b, card=None, suit=suit_b)
        [found] = Detector()._group_reads([a, b])
        return found

    sure_suit = card(0.99, 0.98)  # unsure of the rank at each corner: two corners settle it
    assert sure_suit.card == Card.parse("Qs") and sure_suit.confidence == pytest.approx(0.96)
    unsure_suit = card(0.8, 0.85)  # sure of the rank, not of the suit, at both
    assert unsure_suit.card is None and unsure_suit.guess == Card.parse("Qs") and unsure_suit.confidence == pytest.approx(0.85)


def test_DEAL_HOLE_COUNT_a_face_down_pair_crossed_at_an_angle_is_two_cards_not_chips():
    found = camera_detector(15.0).detect(cv2.imread(str(SIM_FRAMES / "seat-face-down-pair.png")))
    down = [f for f in found if not f.face_up]
    assert len(down) == 2 and len(found) == 2, [(f.face_up, f.centre) for f in found]


def test_DEAL_BURN_three_burns_lying_edge_to_edge_are_three_cards_not_four():
    # The simulated camera's burn row as it lay in a clean hand: the three cards touch, and their
    # part is 3.25 cards' area (the margins' shading, the felt between them), which the area alone
    # counted as four. The fourth "card" was taken for the river's landing, so the river became a
    # second burn (DEAL-BURN) and a card the shoe never counted (DEAL-DECK). Each card shows its
    # own stretch of back, framed by its margin, and is counted by it.
    from dealer_pi.sim.felt import Felt, PhysicalCard
    from dealer_pi.sim.overhead import OverheadCamera, card_spot

    jitter = [(0.97, -2.19, 0.84), (-1.16, -1.42, -1.19), (-2.02, -1.21, -0.17)]  # mm, mm, degrees
    felt = Felt(cards=[PhysicalCard("burn", None, False, slot, j) for slot, j in enumerate(jitter)])
    camera = OverheadCamera(seed=8)
    spots = [camera.to_image(*card_spot(c)[:2]) for c in felt.cards]
    for n in range(3):
        found = camera_detector(15.0).detect(camera.frame(felt, n))
        row = [f for f in found if any(math.dist(f.centre, s) < 150 for s in spots)]
        assert len(row) == 3 and not any(f.face_up for f in row), [(f.face_up, f.centre) for f in found]
        # One card where each card lies.
        assert all(any(math.dist(f.centre, s) < 20 for f in row) for s in spots), ([f.centre for f in row], spots)


def test_DEAL_BOARD_EXTRA_three_unnamed_board_cards_lying_edge_to_edge_are_three_not_four():
    # A clean camera-loop hand on the printed design never trained on (seed 211, standard table 5):
    # a flop of Qc, Th and Tc, none named, the three one part of 3.27 cards' area with the shadow
    # round them. Counted by area that was four face-up cards, and at the turn a fourth board card
    # without a burn before it (DEAL-BOARD-EXTRA, then DEAL-BURN). A row one card tall is counted
    # by its length.
    frame = cv2.imread(str(SIM_FRAMES / "board-three-unnamed-knoll.png"))
    plain = camera_detector(15.0, median=True)
    plain.closer = None  # as the loop had it: none of the three named (the frame's ink with the median)
    for det in (plain, camera_detector(15.0)):
        found = sorted(det.detect(frame), key=lambda f: f.centre[0])
        up = [f.centre[0] for f in found if f.face_up]
        assert len(up) == 3 and all(abs(x - at) < 8 for x, at in zip(up, (100, 206, 310))), [(f.card, f.centre) for f in found]
        # (The ten of clubs, placed from its index as shipped, lies 13 pixels above the row's middle.)
        assert all(abs(f.centre[1] - 105) < 15 for f in found), [(f.card, f.centre) for f in found]
        assert all(f.card in (None, Card.parse(c)) for f, c in zip(found, ("Qc", "Th", "Tc"))), found
    assert all(f.card is None for f in plain.detect(frame))


def test_DEAL_PLAYER_EXPOSED_a_card_turned_up_on_its_face_down_neighbour_leaves_the_neighbour_face_down():
    # A player turned up one hole card (a 5 of spades of the printed design never trained on); the
    # other, face down, lies half on it. Both are one part of the picture, face up by the five's
    # white stock, and split into two cards: both were reported face up. At the next draw the
    # camera saw a new face-up card at the seat, the shoe's card seemed to land there, and the
    # monitor called a third hole card (DEAL-HOLE-COUNT, a misdeal). Each piece shows its own face.
    frame = cv2.imread(str(SIM_FRAMES / "seat-knoll-turned-up-on-a-back.png"))
    plain = camera_detector(15.0)
    plain.closer = None  # the five unnamed, as in most of the loop's frames
    for det in (plain, camera_detector(15.0)):
        found = sorted(det.detect(frame), key=lambda f: f.centre[1])
        assert [f.face_up for f in found] == [False, True], [(f.card, f.face_up, f.centre) for f in found]
        assert math.dist(found[0].centre, (170, 104)) < 15 and math.dist(found[1].centre, (147, 196)) < 15
        assert found[0].card is None and found[1].card in (None, Card.parse("5s"))


def test_DEAL_BURN_a_big_muck_pile_is_face_down_though_its_margins_show_at_every_angle():
    # The muck late in a hand: a dozen cards and more, each turned its own way, show so much of
    # their white margins that the pile passed for plain card stock, a face-up card. The drawn
    # river then seemed to land in the muck: a second burn (DEAL-BURN) and, when the river was
    # seen on the board, a card already in the muck (DEAL-DECK). Its framed stretches of back
    # say it is face down.
    import random

    from dealer_pi.sim.felt import Felt, PhysicalCard
    from dealer_pi.sim.overhead import OverheadCamera, card_spot

    rng = random.Random(3)
    for n, seed in ((13, 1), (14, 1), (14, 13), (15, 1)):
        jitter = [(rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(n)]
        felt = Felt(cards=[PhysicalCard("muck", None, False, k, j) for k, j in enumerate(jitter)])
        camera = OverheadCamera(seed=seed)
        spot = camera.to_image(*card_spot(felt.cards[0])[:2])
        pile = [f for f in camera_detector(15.0).detect(camera.frame(felt, n)) if math.dist(f.centre, spot) < 200]
        assert pile and not any(f.face_up for f in pile), (n, seed, [(f.face_up, f.centre) for f in pile])


def test_DEAL_HOLE_COUNT_brown_backs_on_a_wooden_table_are_face_down_cards_and_a_hand_is_not():
    # A wooden table is skin-coloured, and so is a brown back: the table and the backs on it were
    # one "hand" and taken away, and no face-down card was found. Skin counts only off the table,
    # and a skin-coloured patch that fills a card's rectangle is a back; a hand (palm, fingers,
    # an arm to the table's edge) is still no card.
    back = np.empty((CARD_H, CARD_W, 3), np.uint8)
    back[:] = (60, 90, 130)
    rng = np.random.default_rng(1)
    for _ in range(25):
        centre = tuple(int(v) for v in rng.integers(20, 330, 2))
        axes = (int(rng.integers(8, 30)), int(rng.integers(5, 20)))
        cv2.ellipse(back, centre, axes, float(rng.uniform(0, 180)), 0, 360, (140, 140, 230), 2, cv2.LINE_AA)
    wood = felt(1280, 720, np.random.default_rng(4), (104, 148, 179))
    frame = compose(wood, [Placement(back, card_homography((300, 250), 20.0, 150.0), None, False),
                           Placement(back, card_homography((700, 240), -10.0, 150.0), None, False),
                           Placement(render_face(Card.parse("7h"), FaceStyle())[0], card_homography((640, 500), 0.0, 150.0),
                                     Card.parse("7h"), True)]).frame
    skin = (95, 140, 205)  # the simulated table's hand
    cv2.ellipse(frame, (1000, 420), (46, 34), -90.0, 0, 360, skin, -1, cv2.LINE_AA)
    for f in range(4):
        cv2.ellipse(frame, (int(1000 + (f - 1.5) * 16), 368), (24, 8), -90.0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.line(frame, (1000, 420), (1080, 720), skin, 44, cv2.LINE_AA)
    found = Detector(card_height_px=150.0).detect(frame)
    down = sorted((round(f.centre[0]), round(f.centre[1])) for f in found if not f.face_up)
    assert len(down) == 2 and math.dist(down[0], (300, 250)) < 20 and math.dist(down[1], (700, 240)) < 20, down
    assert [str(f.card) for f in found if f.face_up] == ["7h"], [(f.card, f.centre) for f in found]


def _lattice_back() -> np.ndarray:
    """A back of a fine light lattice on a tan-brown ground inside a white margin: on a wooden
    table, the ground and the lattice together are of the table's colour and skin-coloured."""
    back = np.empty((CARD_H, CARD_W, 3), np.uint8)
    back[:] = (225, 228, 230)
    m = CARD_W // 14
    inner = np.empty((CARD_H - 2 * m, CARD_W - 2 * m, 3), np.uint8)
    inner[:] = (70, 100, 140)
    h, w = inner.shape[:2]
    for k in range(-h, w + h, 9):
        cv2.line(inner, (k, 0), (k + h, h), (150, 170, 200), 2, cv2.LINE_AA)
        cv2.line(inner, (k, 0), (k - h, h), (150, 170, 200), 2, cv2.LINE_AA)
    back[m : m + h, m : m + w] = inner
    return back


def test_DEAL_HOLE_COUNT_a_lattice_back_in_the_tables_colour_is_no_hand_and_a_pair_of_them_is_two_cards():
    # Held-out still 1700/15: four seats' pairs of brown lattice backs on a wooden table, each
    # counted as one card. The strip of the lower card that the upper one leaves in view is a
    # skin-coloured patch that fills no rectangle, so it was taken away as a hand, and what was
    # left of the pair was one card's area. A lattice is sharp edges all over; skin is smooth.
    back = _lattice_back()
    wood = felt(1280, 720, np.random.default_rng(4), (104, 148, 179))
    frame = compose(wood, [Placement(back, card_homography((400, 330), 25.0, 150.0), None, False),
                           Placement(back, card_homography((430, 370), 25.0, 150.0), None, False),
                           Placement(back, card_homography((850, 330), -10.0, 150.0), None, False)]).frame
    skin = (95, 140, 205)  # the simulated table's hand
    cv2.ellipse(frame, (1000, 560), (46, 34), -90.0, 0, 360, skin, -1, cv2.LINE_AA)
    for f in range(4):
        cv2.ellipse(frame, (int(1000 + (f - 1.5) * 16), 508), (24, 8), -90.0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.line(frame, (1000, 560), (1080, 720), skin, 44, cv2.LINE_AA)
    found = Detector(card_height_px=150.0, find_patterned_backs=True).detect(frame)
    assert all(not f.face_up for f in found), [(f.face_up, f.centre) for f in found]
    pair = [f for f in found if math.dist(f.centre, (415, 350)) < 90]
    lone = [f for f in found if math.dist(f.centre, (850, 330)) < 30]
    assert len(pair) == 2 and len(lone) == 1 and len(found) == 3, [f.centre for f in found]


def _read(card: str, rank_xy: tuple[float, float], down: tuple[float, float], unit: float = 20.0):
    from dealer_pi.vision.recogniser import IndexRead

    c = Card.parse(card)
    suit_xy = (rank_xy[0] + down[0] * unit, rank_xy[1] + down[1] * unit)
    return IndexRead(c, 0.8, rank_xy, suit_xy, 15.0, c)


def _both_corners(card: str, unit: float = 20.0, scale: float = 1.0):
    """Reads of ``card``'s two opposite corners: the top one upright at (100, 100), the bottom one
    upside down where it lies on a card ``scale`` times as big as its index implies."""
    from dealer_pi.vision.detect import CARD_H_U, CARD_W_U, RANK_X_U, RANK_Y_U

    far = (100.0 + (CARD_W_U - 2 * RANK_X_U) * unit * scale, 100.0 + (CARD_H_U - 2 * RANK_Y_U) * unit * scale)
    return _read(card, (100.0, 100.0), (0.0, 1.0), unit), _read(card, far, (0.0, -1.0), unit)


def _between(a, b) -> tuple[float, float]:
    """Midway between two reads' rank glyphs: the middle of the card whose opposite corners they are."""
    return ((a.rank_xy[0] + b.rank_xy[0]) / 2, (a.rank_xy[1] + b.rank_xy[1]) / 2)


def test_DEAL_DECK_both_corners_of_a_card_whose_index_is_printed_small_are_one_card():
    # A deck whose card is 1.8 times as big as its index implies on the decks the shape was
    # measured on: the two corners' own estimates of the card do not meet, but they are
    # each other's opposite corner, so they are one card (two would be a duplicate-card alarm).
    a, b = _both_corners("7h", scale=1.8)
    found = Detector()._group_reads([a, b])
    assert len(found) == 1, [(f.card, f.centre) for f in found]
    card = found[0]
    assert card.card == Card.parse("7h") and card.confidence > 0.95  # two corners vote
    assert math.dist(card.centre, _between(a, b)) < 1.0


def test_DEAL_DECK_a_third_read_of_a_name_in_the_middle_of_its_card_is_the_same_card():
    # A card's picture read as its own index (a pip and a glyph-like line) gave a second card of
    # the same name on top of the first: a false duplicate-card alarm.
    import dataclasses

    a, b = _both_corners("8s")
    # Read upright like the top corner, but lower and to the right: the card it implies is more
    # than half a card from the real one, whose outline still holds its middle.
    middle = dataclasses.replace(_read("8s", (155.0, 175.0), (0.0, 1.0)), confidence=0.95)
    found = Detector()._group_reads([middle, a, b])
    assert [str(f.card) for f in found] == ["8s"], [(f.card, f.centre) for f in found]
    assert math.dist(found[0].centre, _between(a, b)) < 5  # the two corners' card


def test_DEAL_DECK_two_cards_of_one_name_side_by_side_stay_two():
    # The same reads, but the second card lies the same way up beside the first: a real duplicate.
    a = _read("7h", (100.0, 100.0), (0.0, 1.0))
    b = _read("7h", (400.0, 100.0), (0.0, 1.0))
    assert len(Detector()._group_reads([a, b])) == 2


def test_DEAL_DECK_two_reads_of_a_name_at_right_angles_are_not_two_corners_that_add_up():
    # A held-out still's lattice back read twice as the king of hearts, 0.70 and 0.72, 35 pixels
    # apart, one upright and one turned a quarter: together they passed for two corners, a Kh at
    # 0.92, where no king lay (a false duplicate-card or exposed-card alarm at a table).
    from dealer_pi.vision.detect import in_line
    from dealer_pi.vision.recogniser import IndexRead

    kh = Card.parse("Kh")
    upright = IndexRead(None, 0.70, (651.6, 728.7), (649.6, 737.3), 10.5, kh)
    across = IndexRead(None, 0.72, (666.1, 760.1), (657.0, 758.1), 10.5, kh)
    assert not in_line(upright, across)
    found = Detector()._group_reads([upright, across])
    assert all(f.card is None for f in found) and max(f.confidence for f in found) < 0.9, [(f.card, f.confidence) for f in found]
    # Each way up (opposite corners) or the same way (a deck printing all four corners), two
    # reads still add up.
    a, b = (dataclasses.replace(r, card=None, confidence=0.7) for r in _both_corners("Kh"))
    assert in_line(a, b) and in_line(a, a)
    [both] = Detector()._group_reads([a, b])
    assert both.card == kh and both.confidence == pytest.approx(0.91)


def test_DEAL_DECK_a_name_read_again_at_right_angles_within_its_card_is_a_pattern_not_a_card():
    # A back's lattice read as one name here and there, upright and turned a quarter: no card's
    # own index lies across it, and a deck holds one card of the name.
    from dealer_pi.vision.recogniser import IndexRead

    kh = Card.parse("Kh")
    named_read = IndexRead(kh, 0.93, (542.7, 406.0), (534.9, 403.5), 9.0, kh)
    across = IndexRead(None, 0.69, (556.3, 390.6), (558.9, 382.9), 9.5, kh)
    again = IndexRead(None, 0.76, (587.3, 400.6), (589.8, 393.0), 9.5, kh)
    [alone] = Detector()._group_reads([named_read])
    assert alone.card == kh
    found = Detector()._group_reads([named_read, across, again])
    assert all(f.card is None and f.guess is None for f in found), [(f.card, f.guess) for f in found]
    # One read across it is not yet a pattern: a neighbour's print, read as the name (four right
    # names of the real photos had one).
    assert any(f.card == kh for f in Detector()._group_reads([named_read, across]))
    # A read the same way round (another corner of a four-index deck, say) is no pattern.
    beside = dataclasses.replace(across, rank_xy=(556.3, 420.6), suit_xy=(548.5, 418.1))
    assert any(f.card == kh for f in Detector()._group_reads([named_read, beside]))


def test_DEAL_DECK_a_burn_whose_green_lattice_reads_as_kings_is_a_face_down_card():
    # The still those reads come from (eval_heldout.py --seed 1200, scene 2, cut round the burn):
    # a dark green lattice inside a pale margin on green felt, which the light-print pass at
    # double size read as the king of hearts at seven places; two kings were named there.
    # The faces beside it: a Td over a 3s, and an As at the bottom right.
    frame = cv2.imread(str(SIM_FRAMES / "green-lattice-burn-read-as-kings.png"))
    found = still_detector().detect(frame)
    assert {str(f.card) for f in found if f.card is not None} <= {"Td", "3s", "As"}, [(f.card, f.centre) for f in found]
    assert any(not f.face_up and math.dist(f.centre, (220, 205)) < 30 for f in found), [(f.face_up, f.centre) for f in found]


def test_DEAL_DECK_a_pair_of_lattice_backs_is_two_face_down_cards_not_a_king():
    # The still those reads came from (eval_heldout.py --seed 700, scene 8, cut round a seat):
    # a face-down pair with a yellow-green lattice and no margin, below the board's 7s and 3d and
    # a seat's 2c over an 8s, all of the design left out of training.
    frame = cv2.imread(str(SIM_FRAMES / "lattice-backs-read-as-a-king-at-right-angles.png"))
    found = still_detector().detect(frame)
    assert {str(f.card) for f in found if f.card is not None} == {"7s", "3d", "2c", "8s"}, [(f.card, f.centre) for f in found]
    down = [f.centre for f in found if not f.face_up]
    assert len(down) == 2 and all(math.dist(c, (360, 355)) < 60 for c in down), down


def test_DEAL_HOLE_COUNT_a_pair_whose_backs_are_white_checks_is_face_down():
    # A held-out still (eval_heldout.py --seed 600, scene 19, cut round a seat and the board): a
    # face-down pair whose back is teal and white checks, a third of it plain white stock, as
    # much as a face shows. Its white is in hundreds of squares, a face's in one piece round
    # its print: the pair was two face-up cards, one of them from a read of the checks.
    frame = cv2.imread(str(SIM_FRAMES / "white-checked-backs-beside-the-board.png"))
    found = still_detector().detect(frame)
    assert {str(f.card) for f in found if f.card is not None} == {"2s", "7s", "Kc", "6c"}
    pair = [f for f in found if f.centre[1] > 250]
    assert len(pair) == 2 and not any(f.face_up for f in pair), [(f.face_up, f.centre) for f in pair]


def test_DEAL_HOLE_COUNT_a_faces_plain_stock_is_one_piece_and_a_checked_backs_is_not():
    from dealer_pi.vision.detect import PLAIN_WHOLE, plain_whole

    face, _ = render_face(Card.parse("Ts"), FaceStyle())
    mask = np.full(face.shape[:2], 255, np.uint8)
    assert plain_whole(face, mask, 255.0, 3) > 0.9
    checks = np.full_like(face, (150, 140, 30))
    for y in range(0, checks.shape[0], 12):
        for x in range((y // 12) % 2 * 12, checks.shape[1], 24):
            checks[y : y + 12, x : x + 12] = 255
    assert plain_whole(checks, mask, 255.0, 3) < PLAIN_WHOLE


def _corner(card: str, xy: tuple[float, float], down: tuple[float, float], size: float, confidence: float):
    """A corner read of ``card`` (named only from 0.9 up, as the reader names)."""
    from dealer_pi.vision.recogniser import IndexRead

    c = Card.parse(card)
    return IndexRead(c if confidence >= 0.9 else None, confidence, xy, (xy[0] + down[0] * size, xy[1] + down[1] * size), size, c)


def _top_corner(card: str, confidence: float = 0.95):
    return _corner(card, (337.0, 34.0), (-0.35, 0.94), 18.0, confidence)


def _foot_corner(card: str, confidence: float = 0.95):  # opposite _top_corner, 0.13 of a card from its card
    return _corner(card, (428.0, 219.0), (-0.2, -0.98), 22.5, confidence)


def test_DEAL_DECK_two_cards_whose_names_no_misread_links_stay_two_where_their_corners_meet():
    # A real photo's reads (WIN_20240627_12_08_56): a king of hearts lying across the foot of a
    # nine of diamonds, the king's top corner and the nine's bottom one implying cards 0.13 of a
    # card apart. No misread turns a Kh into a 9d, or a 3s into a 9s (two such cards lay that
    # close on a rendered table), so both stay named; a 6h and an 8h, or a Ks and a Kc, read at
    # the same two corners are one card read two ways, and stay unnamed.
    def names(top: str, foot: str) -> list[str]:
        return sorted(str(f.card) for f in Detector()._group_reads([_top_corner(top), _foot_corner(foot)]))

    assert names("Kh", "9d") == ["9d", "Kh"]
    assert names("3s", "9s") == ["3s", "9s"]
    assert names("6h", "8h") == ["None"]
    assert names("Ks", "Kc") == ["None"]



def test_DEAL_DECK_two_corners_that_only_lean_to_names_a_misread_links_are_one_unnamed_card():
    # Neither corner sure enough to name a card (a 9s at 0.89, a 9c at 0.77): still one card with
    # no name where they imply one, not two unnamed cards at the same place.
    found = Detector()._group_reads([_top_corner("9s", 0.89), _foot_corner("9c", 0.77)])
    assert [(f.card, f.face_up) for f in found] == [(None, True)], [(f.card, f.centre) for f in found]


def test_DEAL_DECK_a_card_named_at_one_corner_whose_other_corner_leans_to_a_misread_of_it_is_not_named():
    # The camera loop at seed 15: a 10 of clubs on the board, read Ts at 0.96 at one corner (its
    # pips touch one another, so none can be read to outvote it) and Tc at 0.6 at the other. Named
    # Ts, it raised "the shoe read Tc but the camera saw Ts" on a clean hand.
    def names(foot: str, confidence: float) -> list[str]:
        return [str(f.card) for f in Detector()._group_reads([_top_corner("Ts", 0.96), _foot_corner(foot, confidence)])]

    assert names("Tc", 0.6) == ["None"]
    assert names("Ts", 0.6) == ["Ts"]  # the other corner leans the same way: named
    assert "Ts" in names("Tc", 0.45)  # too unsure to lean anywhere: the Ts keeps its name
    assert "Ts" in names("4d", 0.6)  # no misread links them: the 4d is another card's corner


def test_DEAL_DECK_a_name_unsure_of_its_suit_is_disputed_by_its_other_corner_reading_the_other_black_suit_however_unsure():
    # A corner too unsure to lean to a name (under 0.5) still says something of the suit where the
    # named corner is unsure of it too: a Ts read 0.93 sure of its spade, against a Tc at 0.45.
    unsure = dataclasses.replace(_top_corner("Ts", 0.96), suit=0.93)

    def names(top, foot: str, confidence: float) -> list[str]:
        return [str(f.card) for f in Detector()._group_reads([top, _foot_corner(foot, confidence)])]

    assert names(unsure, "Tc", 0.45) == ["None"]
    assert "Ts" in names(_top_corner("Ts", 0.96), "Tc", 0.45)  # sure of its suit: it keeps its name
    assert "Ts" in names(unsure, "Ts", 0.45)  # the other corner leans the same way
    assert "Ts" in names(unsure, "Th", 0.45)  # a red ten is no misread of a black one's suit
    assert "Ts" in names(unsure, "9c", 0.45)  # another rank: what the rank says is not asked here


def test_DEAL_DECK_a_printed_king_of_spades_whose_index_reads_as_a_club_is_not_named_a_club():
    # The printed design never trained on (Byron Knoll's), a clean camera-loop run: a king of spades
    # on the board, its upper index read Kc at 0.92 (0.93 sure of the club), its lower one leaning
    # to Ks at 0.36-0.47. The picture's spade touches its frame, so it cannot vouch either way. Named
    # Kc for the whole hand, it raised "the shoe read Ks but the camera saw Kc", one of two false
    # notices in 1,000 clean hands of that design.
    det = camera_detector(14.0)  # as the camera had it in that run
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-king-of-spades-read-as-club.png"))
    for _ in range(2):  # the closer look at the unnamed king, and the look remembered
        up = face_up_in_a_row(det.detect(img))
        assert [str(f.card) for f in up] == ["None", "8s"], [(f.card, f.centre, f.confidence) for f in up]
        assert math.dist(up[0].centre, (175, 172)) < 15


def test_DEAL_DECK_a_ten_whose_index_reads_as_a_king_is_not_named_a_king_by_its_pips():
    # The same design, another clean run: a 10 of diamonds on the board, its lower index read Kd at
    # 0.95 (0.985 sure of the diamond), its upper one leaning to Td at 0.5. K and T are no misread
    # of each other, so the two corners made two cards at one place, one named Kd: "the shoe read
    # Td but the camera saw Kd", the other false notice of those 1,000 hands. A king's picture
    # prints two diamonds; five of the ten's pips round the index read as diamonds. The design's
    # diamond stands taller than its rank; read as it is tall (glyphs.TALL_SUIT), an index names the Td.
    det = camera_detector(13.0, median=True)  # as the camera had it in that run
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-ten-read-as-king.png"))
    for _ in range(2):
        up = [f for f in det.detect(img) if f.face_up]
        assert [(str(f.card), str(f.guess)) for f in up] == [("Td", "None")], [(f.card, f.centre, f.confidence) for f in up]
        assert math.dist(up[0].centre, (91, 125)) < 15


def test_DEAL_DECK_a_design_printing_its_suit_taller_than_its_rank_is_named_by_the_frame_itself():
    # The design never trained on prints its index's diamond and spade taller than its rank (1.1 to
    # 1.2 times, as the glyphs are measured). The reader learnt from suits no taller than their
    # rank and called these "not a suit": of 2,000 of that design's live faces 417 diamonds and
    # 361 spades were left unnamed. Measured against the suit's height where that is the taller
    # (glyphs.TALL_SUIT), a pair reads as a design printing the two alike. The frame alone, no
    # closer look; the court cards (Kd, Jc) are left unnamed as before.
    for name, glyph_px, row in (
        ("board-knoll-four-of-diamonds-in-the-felt-between-its-neighbours.png", 12.5, ["3d", "4d", "9s"]),
        ("board-knoll-eight-beside-a-three-read-as-an-eight.png", 13.0, ["5h", "None", "8d", "3d"]),
        ("board-knoll-small-index-other-cards.png", 12.0, ["Qh", "None", "5s", "Ad", "7h"]),
        ("board-knoll-ten-of-diamonds-read-as-king-large-pips.png", 13.0, ["Td"]),
    ):
        det, img = camera_detector(glyph_px, closer_looks=0), cv2.imread(str(SIM_FRAMES / name))
        for _ in range(2):
            assert [str(f.card) for f in face_up_in_a_row(det.detect(img))] == row, name


def test_DEAL_DECK_a_ten_read_as_a_king_sure_of_its_suit_is_not_named_a_king_by_its_pips():
    # A fresh clean run of the same design (seed 218): a 10 of hearts on the board between a 5 of
    # diamonds and a 7 of hearts, its lower index read Kh at 0.97-0.98, sure of the heart (0.99),
    # so its pips were never asked: "the shoe read Th but the camera saw Kh". Every court is asked
    # now whether it is a number card; unnamed, the ten gets the closer look, which reads the ten.
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-ten-of-hearts-read-as-king.png"))
    plain = camera_detector(12.5, median=True)  # as the camera had it in that run
    plain.closer = None
    middle = min(plain.detect(img), key=lambda f: math.dist(f.centre, (187, 131)))
    assert middle.face_up and middle.card is None and math.dist(middle.centre, (187, 131)) < 15
    assert named_in_a_row("board-knoll-ten-of-hearts-read-as-king.png", 12.5) == [["5d", "Th", "7h"]] * 2


def test_DEAL_DECK_a_ten_of_diamonds_read_as_a_king_is_not_named_a_king_by_pips_half_read_as_no_suit():
    # A fresh clean run (seed 220): a 10 of diamonds on the board, its upper index read Kd at
    # 0.98. Its large diamonds read 1.0 a diamond among the four suits but 0.38-0.61 "not a
    # suit", so only two counted as signs, as many as a king's picture prints: "the shoe read Td
    # but the camera saw Kd". Counted as a number card's pips they need not be so sure.
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-ten-of-diamonds-read-as-king-large-pips.png"))
    det = camera_detector(14.0, median=True)  # as the camera had it in that run
    det.closer = None  # the look cannot read this ten: the pips alone decide
    for _ in range(2):
        up = [f for f in det.detect(img) if f.face_up]
        assert Card.parse("Kd") not in {f.card for f in up}
        assert [(f.card, f.guess) for f in up] == [(None, Card.parse("Td"))]


def test_DEAL_DECK_an_eight_of_hearts_read_as_a_three_is_not_named_a_three_by_its_eight_pips():
    # A fresh clean run (seed 227, roberts table 2, frame 323): the printed flop 8c, 4c, 8h. The
    # eight of hearts' upper index read 3h at 0.99, sure of the heart: "the shoe read 8h but the
    # camera saw 3h". More hearts lie round it than a three prints, so the 3h names nothing; the
    # closer look at the card, unnamed now, reads 8h.
    assert named_in_a_row("board-knoll-eight-of-hearts-read-as-three.png", 13.0) == [["8c", "4c", "8h"]] * 2


def test_DEAL_BURN_chips_side_by_side_beside_the_board_are_not_taken_for_a_face_up_card():
    # A fresh clean run (seed 226, house-pig table 5, frame 434): five stacks of chips pushed
    # together beside the board before the flop, one part half a card's size at quarter size, its
    # chips' white edges taken for a face's plain stock. The monitor saw a face-up card on the
    # board before the burn (DEAL-FLOP-EXTRA), then the flop as dealt again without one (DEAL-BURN).
    found = camera_detector(13.0).detect(cv2.imread(str(SIM_FRAMES / "board-knoll-chips-side-by-side.png")))
    assert not [f for f in found if f.face_up], [(f.centre, f.confidence) for f in found if f.face_up]
    # The muck beside them is still found, face down.
    assert len([f for f in found if not f.face_up]) >= 3


def test_DEAL_BOARD_EXTRA_an_unnamed_board_card_is_one_card_though_the_felt_round_it_joins_its_neighbours():
    # A whole clean seed played (seed 228, online table 9, frame 17,765): the flop 3d, 4d, 9s,
    # a few pixels apart. The quarter-size mask closes the felt between them, and the unread 4d's
    # part takes in that felt and slivers of the 3d and the 9s: 1.3 cards' area, split into two
    # unnamed face-up cards. The monitor saw a fourth board card before the burn (DEAL-BOARD-EXTRA),
    # then the real turn as dealt again without one (DEAL-BURN).
    found = camera_detector(12.5).detect(cv2.imread(str(SIM_FRAMES / "board-knoll-four-of-diamonds-in-the-felt-between-its-neighbours.png")))
    up = face_up_in_a_row(found)
    assert len(up) == 3, [(f.card, f.centre) for f in up]
    assert math.dist(up[1].centre, (242, 164)) < 15 and up[2].card == Card.parse("9s")


def test_DEAL_BOARD_EXTRA_a_flop_read_unnamed_a_few_pixels_apart_is_three_cards_not_four():
    # Seed 231, roberts table 6 filmed alone, frame 293: the flop Qc, Qd, 6c and the turn 7d,
    # about 20 pixels apart. Where the flop is unnamed, its row of three is 3.5 cards long, four
    # by its length; where the queen of diamonds is named from an index read a little high, the
    # rest of her and the queen of clubs are two cards by area. Either way one card too many: the
    # monitor saw the river before its burn (DEAL-BOARD-EXTRA), then the river dealt again without
    # one (DEAL-BURN).
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-flop-and-turn-a-few-pixels-apart.png"))
    for glyph_px in (0.0, 13.0):
        up = face_up_in_a_row(camera_detector(glyph_px).detect(img))
        assert len(up) == 4 and all(abs(f.centre[0] - at) < 8 for f, at in zip(up, (120, 226, 340, 450))), [(f.card, f.centre) for f in up]
        assert up[3].card == Card.parse("7d") and all(f.card in (None, Card.parse(c)) for f, c in zip(up, ("Qc", "Qd", "6c")))


def test_DEAL_BOARD_EXTRA_a_face_up_part_counts_the_felt_closed_in_round_it_out_but_not_the_felt_coloured_print_inside():
    from dealer_pi.vision.detect import Part, off_felt
    from dealer_pi.vision.regions import face_up_count

    # As measured in seed 228's flop: an unnamed card, the felt between it and the next card
    # (14 pixels) and a sliver of that card, in a mask that reaches 2 pixels past them.
    green = np.array([40, 120, 30], np.float32)
    img = np.full((200, 300, 3), green, np.uint8)
    w, h = 90, 126
    img[37:163, 60:150] = 245  # a white card...
    img[70:130, 80:130] = green  # ...whose picture prints the felt's colour (a hole in the card)
    img[37:163, 164:170] = 245  # a sliver of the next card, beyond the felt between them
    mask = np.zeros(img.shape[:2], np.uint8)
    mask[35:165, 58:172] = 255
    share, apart = off_felt(img, mask, green)
    area = float(np.count_nonzero(mask))
    part = Part(mask, 0, 0, area, float(w * h), 0.9, 200.0, 0, 0.9, share, apart)
    assert area > 1.25 * w * h > share * area and apart == 1  # the sliver is no card
    assert face_up_count(part) == 1 and face_up_count(dataclasses.replace(part, off_felt=1.0)) == 2
    # The card alone: its felt-coloured picture and the mask's margin round it count as the card.
    alone = np.zeros_like(mask)
    alone[33:167, 56:154] = 255
    assert off_felt(img, alone, green) == (1.0, 1)


def test_DEAL_BOARD_EXTRA_a_row_of_unnamed_face_up_cards_a_few_pixels_apart_is_counted_by_the_felt_between_them():
    from dealer_pi.vision.detect import Part, off_felt
    from dealer_pi.vision.regions import face_up_count

    # As in seed 231's board (Qc, Qd, 6c unnamed, about 20 pixels apart): the row is 3.5 cards long, and
    # by its length alone four cards.
    green = np.array([40, 120, 30], np.float32)
    img = np.full((200, 400, 3), green, np.uint8)
    w, h, gap = 90, 126, 20
    for k in range(3):
        img[37:163, 30 + k * (w + gap) : 30 + k * (w + gap) + w] = 245
    mask = np.zeros(img.shape[:2], np.uint8)
    mask[33:167, 26 : 34 + 3 * w + 2 * gap] = 255
    share, apart = off_felt(img, mask, green)
    part = Part(mask, 0, 0, float(np.count_nonzero(mask)), float(w * h), 0.9, 200.0, 0, 0.9, share, apart)
    assert apart == 3 and face_up_count(part) == 3
    assert face_up_count(dataclasses.replace(part, apart=0)) == 4  # by its length
    # Edge to edge, the row is one stretch, and its length counts it.
    img[37:163, 30 : 30 + 3 * w + 2 * gap] = 245
    share, apart = off_felt(img, mask, green)
    assert apart == 1 and face_up_count(dataclasses.replace(part, off_felt=share, apart=apart)) == 4


def test_DEAL_BURN_a_court_card_whose_picture_prints_the_felts_colour_is_not_taken_for_chips():
    # A held-out still (seed 300, scene 4): the printed jack of hearts on blue felt beside the
    # king. His picture's blue triangles are the felt's colour: holes in the card that left room
    # only for a grid of six disks of one size, and the first chip test dropped him as chips.
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-jack-of-hearts-on-blue-felt.png"))
    for det in (still_detector(), camera_detector(0.0)):
        up = face_up_in_a_row(det.detect(img))
        assert len(up) == 2, [(f.card, f.centre) for f in up]
        assert math.dist(up[0].centre, (142, 139)) < 25 and up[0].card in (None, Card.parse("Jh"))
        assert up[1].card == Card.parse("Kh")


def test_DEAL_BURN_a_card_cut_in_two_by_a_players_arm_is_not_taken_for_chips():
    # The same run, frame 56: a face-down card at a seat, a player's arm across it. What the arm
    # leaves of it fits a row of disks of one size, as chips side by side do; but they lie closer
    # than chips, and leave its corners out.
    found = camera_detector(13.0).detect(cv2.imread(str(SIM_FRAMES / "seat-knoll-card-under-an-arm.png")))
    assert [(f.face_up, f.card) for f in found] == [(False, None)]
    assert math.dist(found[0].centre, (128, 154)) < 20


def test_DEAL_DECK_a_ten_of_spades_at_a_seat_read_as_a_king_is_not_named_a_king_by_its_pips():
    # The live frames' one wrong name (eval_live_faces.py --deck knoll, scene 128): a 10 of spades
    # beside a 6 of spades, its upper index read Ks at 0.96 and 0.97 sure of the spade. Its lower
    # index's weak Ts takes the pips nearer it; of those left, more than a king prints read as
    # spades once a pip need not be surely a suit. Its tall spade read (glyphs.TALL_SUIT), the ten
    # is named.
    img = cv2.imread(str(SIM_FRAMES / "seat-knoll-ten-read-as-king.png"))
    det = camera_detector(13.0)
    det.closer = None
    names = {f.card for f in det.detect(img) if f.card is not None}
    assert names == {Card.parse("6s"), Card.parse("Ts")}, names


def test_DEAL_BOARD_EXTRA_a_pair_of_pips_read_weakly_as_an_index_is_no_card_beside_the_flop():
    # A fresh clean run (seed 225): the printed flop 5h, Qs, 7c. Two of the seven's club pips read
    # as an index, 6c at 0.35, with 23-pixel glyphs where the camera follows 13: an unnamed face-up
    # card reported beside the seven before the turn's burn, which the monitor took for a turn
    # dealt without burning (a false DEAL-BOARD-EXTRA, then DEAL-BURN at the real turn).
    # 13 pixels followed, as the camera had it in that run.
    assert named_in_a_row("board-knoll-seven-of-clubs-pips-read-as-an-index.png", 13.0) == [["5h", "Qs", "7c"]] * 2


def test_DEAL_DECK_pips_read_as_an_index_just_after_the_camera_is_placed_do_not_set_the_size_followed():
    # A fresh clean run (seed 224, standard table 8): the printed board Ac, Kh, 9d, the nine read 4h
    # for 60 frames, "the shoe read 9d but the camera saw 4h", a false notice. A followed size of 15
    # looks for glyphs of 26 pixels at most, so the size had risen. Read at every size (no size
    # followed yet, as when the camera is placed or found moved), the nine's diamond pips read 4h at
    # 0.99 with 28-pixel glyphs, the ace's index 13: their middle, 20.5, became the size followed,
    # at which the pips read 4h every frame. An index is a card's smallest print: the ace's is followed.
    img = cv2.imread(str(SIM_FRAMES / "board-knoll-nine-of-diamonds-pips-read-as-a-four.png"))
    # With the median, as in that run: without it the ace reads 0.88 once a size is followed, unnamed.
    det = camera_detector(0.0, median=True)
    for _ in range(3):
        up = face_up_in_a_row(det.detect(img))
        # The nine's own index names it since its tall diamond is read (glyphs.TALL_SUIT); the king is not named.
        assert [str(f.card) for f in up] == ["Ac", "None", "9d"], [(f.card, f.centre, f.confidence) for f in up]
        assert len(up) == 3, [(f.card, f.centre) for f in up]
        assert 12.0 <= det.glyph_px <= 16.0, det.glyph_px


def test_DEAL_DECK_a_pair_of_pips_read_as_an_index_leans_to_no_card_in_a_closer_look():
    # A closer look takes a doubted name away where its reads name nothing there and lean only to
    # other cards. Pips read weakly as an index at 1.4 times the followed glyph size are no card of
    # their own (above), so they lean to none: only the read of the index's size does. A still
    # follows no size, and every unsure read there leans.
    pips, index = _corner("6c", (200.0, 100.0), (0.0, 1.0), 23.0, 0.35), _corner("7c", (200.0, 100.0), (0.0, 1.0), 14.0, 0.35)
    assert [str(f.guess) for f in camera_detector(13.0)._leanings([pips, index])] == ["7c"]
    assert [str(f.guess) for f in camera_detector(20.0)._leanings([pips, index])] == ["6c", "7c"]
    assert [str(f.guess) for f in Detector()._leanings([pips, index])] == ["6c", "7c"]


def test_DEAL_DECK_a_card_torn_between_two_names_carries_both_for_the_tracker():
    # The camera loop at seed 28, frame 20818: a drawn 10 of clubs on the board, read Ts at 0.983 at
    # one corner and Tc at 0.899 at the other. Unnamed, it says which names it was torn between, so
    # that the frames round it (Ts where the other corner leaned Ts too) do not name it alone.
    found = Detector()._group_reads([_top_corner("Ts", 0.983), _foot_corner("Tc", 0.899)])
    assert [(f.card, sorted((str(c), round(w, 3)) for c, w in f.torn)) for f in found] == [(None, [("Tc", 0.899), ("Ts", 0.983)])]
    named = Detector()._group_reads([_top_corner("Ts", 0.983), _foot_corner("Ts", 0.637)])
    assert [(str(f.card), f.torn) for f in named] == [("Ts", ())]


def _misprinted(top: str, bottom: str) -> np.ndarray:
    """A rendered card whose lower right corner is printed from another card: two corners of one
    card that do not agree, as a reader's misread corner makes them."""
    style = FaceStyle()
    face = render_face(Card.parse(top), style)[0]
    other = render_face(Card.parse(bottom), style)[0]
    face[CARD_H // 2 :, CARD_W // 2 :] = other[CARD_H // 2 :, CARD_W // 2 :]
    return compose(felt(900, 600, np.random.default_rng(1)),
                   [Placement(face, card_homography((450, 300), 12.0, 220.0), Card.parse(top), True)]).frame


def test_DEAL_DECK_a_card_whose_corners_read_two_names_is_one_unnamed_card():
    # Named from either corner it would be two cards, one of them wrong: a false foul-deck alarm.
    # One rank in two suits of a colour, two ranks of one suit (an upside-down 6 read as an 8).
    for top, bottom in (("Ks", "Kc"), ("9h", "9d"), ("6h", "8h")):
        found = Detector().detect(_misprinted(top, bottom))
        assert [(f.card, f.face_up) for f in found] == [(None, True)], (top, bottom, [(f.card, f.centre) for f in found])
        assert math.dist(found[0].centre, (450, 300)) < 10
    found = Detector().detect(_misprinted("Ks", "Ks"))  # the same card printed the same way: named
    assert [f.card for f in found] == [Card.parse("Ks")]


def _index_from(card: str, index: str, grey: bool = False) -> np.ndarray:
    """A rendered ``card`` whose two corner indices are printed from ``index``: a card whose
    corners both read one suit while its pips show another, as a reader's repeated misread of a
    club for a spade makes it."""
    return _unsure_suit(card, index, index, 0.0, grey)


def test_DEAL_DECK_a_number_card_whose_pips_show_another_suit_than_its_index_is_not_named():
    # Named by its corners it would be a card that is not on the table: a false exposed-card or
    # duplicate-card alarm. Its pips outvote its index, so it is a face-up card with no name.
    for card, index, grey in (("7c", "7s", False), ("5d", "5h", False), ("8s", "8h", True)):
        found = Detector().detect(_index_from(card, index, grey))
        assert [(f.card, f.face_up) for f in found] == [(None, True)], (card, index, [(f.card, f.centre) for f in found])
    # Printed as they should be, the same cards keep their names, in colour and in grey.
    for card, grey in (("7c", False), ("7s", False), ("5d", False), ("5h", False), ("8s", True), ("8h", True), ("Tc", False)):
        assert [f.card for f in Detector().detect(_index_from(card, card, grey))] == [Card.parse(card)], (card, grey)


def _unsure_suit(card: str, index: str, rival: str, share: float, grey: bool = False) -> np.ndarray:
    """A rendered ``card`` whose corner indices are printed from ``index``, each suit glyph blended
    with ``rival``'s by ``share`` (0: ``index``'s as printed): an index too small or blurred to
    tell a club from a spade."""
    style = FaceStyle()
    face, boxes = render_face(Card.parse(card), style)
    printed, blend = render_face(Card.parse(index), style)[0], render_face(Card.parse(rival), style)[0]
    for b in boxes:
        x0, y0 = min(b.rank[0], b.suit[0]) - 4, min(b.rank[1], b.suit[1]) - 4
        x1, y1 = max(b.rank[2], b.suit[2]) + 4, max(b.rank[3], b.suit[3]) + 4
        face[y0:y1, x0:x1] = printed[y0:y1, x0:x1]
        x0, y0, x1, y1 = b.suit
        face[y0:y1, x0:x1] = ((1 - share) * face[y0:y1, x0:x1] + share * blend[y0:y1, x0:x1]).astype(np.uint8)
    return _laid(face, card, grey)


def _laid(face: np.ndarray, card: str, grey: bool = False) -> np.ndarray:
    """``face`` (the rendered ``card``) laid alone on felt, 220 px tall; in grey with ``grey``."""
    frame = compose(felt(900, 600, np.random.default_rng(2)),
                    [Placement(face, card_homography((450, 300), -8.0, 220.0), Card.parse(card), True)]).frame
    return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR) if grey else frame


def test_DEAL_DECK_a_number_card_whose_index_suit_is_unsure_is_named_when_its_pips_vouch_for_it(monkeypatch):
    # The index's club is part spade: alone it reads too unsure to name the card. Its pips are
    # clubs, printed larger: they settle the suit, and the card is as sure as its rank.
    from dealer_pi.vision import pips

    for grey in (False, True):
        frame = _unsure_suit("9c", "9c", "9s", 0.4, grey)
        assert [f.card for f in Detector().detect(frame)] == [Card.parse("9c")], grey
        with monkeypatch.context() as m:
            m.setattr(pips, "VOUCHERS", 99)  # no pips' vouching: the same card is left unnamed
            assert [(f.card, f.face_up) for f in Detector().detect(frame)] == [(None, True)], grey


def test_DEAL_DECK_a_number_card_whose_index_reads_the_other_suit_of_its_colour_is_named_by_its_pips(monkeypatch):
    # The index's club is printed as a spade, a little of the club left in it: it reads as a
    # spade, unsure. Its pips, printed larger, read surely as clubs: they outvote the spade, and
    # they vouch for the other suit of its colour, so the card is named as its pips show. A real
    # 8 of clubs (WIN_20240627_12_05_26) read 8s at one corner was left unnamed so.
    from dealer_pi.vision import pips

    for card, index, rival in (("7c", "7s", "7c"), ("8h", "8d", "8h")):
        for grey in (False, True):
            frame = _unsure_suit(card, index, rival, 0.4, grey)
            assert [f.card for f in Detector().detect(frame)] == [Card.parse(card)], (card, grey)
            with monkeypatch.context() as m:
                # Pips that vouch only for the suit the index reads: outvoted, it is left unnamed.
                m.setattr(pips, "SAME_COLOUR", (0, 1, 2, 3))
                assert [(f.card, f.face_up) for f in Detector().detect(frame)] == [(None, True)], (card, grey)
    # Pips of a suit of the other colour name no card: in grey, a 9 of diamonds whose index is
    # printed as a spade is left unnamed, not named a club or a diamond.
    found = Detector().detect(_unsure_suit("9d", "9s", "9d", 0.4, True))
    assert [(f.card, f.face_up) for f in found] == [(None, True)], [(f.card, f.confidence) for f in found]


def test_DEAL_DECK_pips_do_not_vouch_for_a_rank_that_prints_fewer_of_them():
    # A 9 of clubs whose corners read "4" with an unsure club: its nine club pips are not a 4's.
    for grey in (False, True):
        found = Detector().detect(_unsure_suit("9c", "4c", "4s", 0.4, grey))
        assert [(f.card, f.face_up) for f in found] == [(None, True)], (grey, [(f.card, f.centre) for f in found])


def test_DEAL_DECK_club_pips_run_together_into_one_blob_do_not_vouch_for_a_spade(monkeypatch):
    # A camera frame of the drawn deck's 10 of clubs on the board, 130 px tall: its index's club
    # reads unsure, and three of its club pips touch into one blob that the suit head takes for
    # a large spade. Pips run together are no pip: the card is left unnamed, never the 10 of spades.
    from dealer_pi.vision import pips

    def board(*names: str) -> dict[str, list[Card]]:
        return {"board": [Card.parse(c) for c in names]}

    def read(det: Detector) -> list[str]:
        det.detect(render_table_frame(board("Ah", "Kd", "7s"), seed=99))  # the scale it follows
        return sorted(str(f.card) for f in det.detect(render_table_frame(board("Tc", "Kd", "7h"), seed=14)) if f.face_up)

    # The frame's ink with the median, as when this was found: without it the index's club is sure.
    def detector(closer_looks: int, median: bool = True) -> Detector:
        return Detector(Recogniser(params=MEDIAN_EVERYWHERE if median else None), card_height_px=130.0,
                        follow_scale=True, closer_looks=closer_looks)

    assert read(detector(0)) == ["7h", "Kd", "None"]
    with monkeypatch.context() as m:
        m.setattr(pips, "VOUCH_SIZE", (pips.VOUCH_SIZE[0], 99.0))  # any blob may vouch: the spade is named
        assert read(detector(0)) == ["7h", "Kd", "Ts"]
    # Left unnamed, the ten is read again at double size, where its index's club is sure.
    assert read(detector(3)) == ["7h", "Kd", "Tc"]
    assert read(detector(0, median=False)) == ["7h", "Kd", "Tc"]


def test_DEAL_DECK_a_black_card_whose_blurred_index_reads_red_is_not_named_where_its_pips_are_black():
    # The index's spade, blurred, reads as a diamond (its colour, washed out to grey, does not
    # forbid it). Six spade pips outvote it: a suit of the other colour is a rival too.
    style = FaceStyle()
    face, boxes = render_face(Card.parse("6s"), style)
    for b in boxes:
        x0, y0, x1, y1 = b.suit[0] - 3, b.suit[1] - 3, b.suit[2] + 3, b.suit[3] + 3
        face[y0:y1, x0:x1] = cv2.GaussianBlur(face[y0:y1, x0:x1], (0, 0), 3.5)
    found = Detector().detect(_laid(face, "6s"))
    assert [(f.card, f.face_up) for f in found] == [(None, True)], [(f.card, f.confidence) for f in found]


def test_DEAL_DECK_green_blue_or_teal_print_is_no_heart_or_spade_and_a_four_colour_decks_clubs_and_diamonds_keep_their_names():
    # No deck prints a heart or a spade green, blue or teal: a two-colour deck prints them red
    # and black, a four-colour deck too (its clubs green, its diamonds blue). A back's lattice in
    # those colours read as a heart's index named a card that is not there.
    teal, blue, green = (110, 120, 10), (160, 60, 10), (30, 120, 20)
    for card, style in (("Kh", FaceStyle(red=teal)), ("Qh", FaceStyle(red=green)), ("Ks", FaceStyle(black=blue)),
                        ("As", FaceStyle(black=teal))):
        found = Detector().detect(_laid(render_face(Card.parse(card), style)[0], card))
        assert [f.card for f in found if f.face_up] == [None], (card, [(f.card, f.confidence) for f in found])
    for card, style in (("Kc", FaceStyle(black=green)), ("9c", FaceStyle(black=green)), ("Kd", FaceStyle(red=blue)),
                        ("7d", FaceStyle(red=blue)), ("Kh", FaceStyle()), ("Ks", FaceStyle())):
        found = Detector().detect(_laid(render_face(Card.parse(card), style)[0], card))
        assert [str(f.card) for f in found] == [card], (card, [(f.card, f.confidence) for f in found])


def test_DEAL_DECK_a_teal_lattices_light_ground_names_no_king_of_hearts_on_a_pair_of_backs():
    # Held-out still (eval_heldout.py, seed 2200, scene 11, cut 640x480 at (420, 20), as JPEG):
    # a seat's pair of teal lattice backs on green felt. The light-print pass read the lattice's
    # light ground as a Kh (0.86 and 0.65 at two "corners" of one upright card) and named it on
    # the backs. Light print is gold or white: teal print is no heart.
    found = read_still("teal-lattice-backs-read-as-a-king-of-hearts.jpg")
    named = [(str(f.card), f.centre) for f in found if f.card is not None]
    assert not [n for n in named if math.dist(n[1], (330, 270)) < 90], named
    assert [n for n, c in named if math.dist(c, (480, 461)) < 40] == ["6h"], named  # the card beside them keeps its name


def test_DEAL_DECK_a_green_lattices_light_squares_are_no_light_print_and_name_no_card_on_a_pair_of_backs(monkeypatch):
    # Real cut-outs on a held-out still (eval_heldout.py --real IMG_ --seed 200 --size 2304x1536,
    # scene 17, cut 1124x900 at (1180, 430)): a seat's pair of dark green lattice backs on green
    # felt, whose yellow-green squares the light-print pass read at double size as a Kh at 0.91,
    # named on the backs (a false exposed card). Light print is gold or white: not greener than red.
    from dealer_pi.vision import recogniser

    def on_the_backs(found: list[CardFound]) -> list[str]:
        return [str(f.card) for f in found if f.card is not None and math.dist(f.centre, (655, 410)) < 120]

    found = read_still("green-lattice-backs-read-as-light-print-still.jpg")
    assert on_the_backs(found) == [], on_the_backs(found)
    assert [f for f in found if not f.face_up and math.dist(f.centre, (655, 410)) < 80], [(f.face_up, f.centre) for f in found]
    # The board's real cards beside them keep their names.
    assert {"5s", "9d", "Kc"} <= {str(f.card) for f in found}, [str(f.card) for f in found]
    monkeypatch.setattr(recogniser, "GREEN_LIGHT", 10.0)  # light print of any colour: the king is back
    assert on_the_backs(read_still("green-lattice-backs-read-as-light-print-still.jpg")) == ["Kh"]


def _fanned(under: str, over: str, step: float) -> np.ndarray:
    """``under`` with ``over`` laid on it ``step`` pixels to the right: only a strip of ``under``
    shows, its index, and ``over``'s pips lie inside the outline ``under``'s index implies."""
    style = FaceStyle()
    cards = [(under, 400.0), (over, 400.0 + step)]
    return compose(felt(900, 600, np.random.default_rng(3)),
                   [Placement(render_face(Card.parse(c), style)[0], card_homography((x, 300), 0.0, 220.0), Card.parse(c), True)
                    for c, x in cards]).frame


def test_DEAL_DECK_a_card_fanned_under_a_card_of_its_rival_suit_keeps_its_name():
    # The pips over it are the top card's: they lie nearer the top card's index, on its card.
    for under, over in (("3h", "9d"), ("7c", "9s"), ("4s", "Tc")):
        for step in (45.0, 60.0):
            found = Detector().detect(_fanned(under, over, step))
            assert sorted(str(f.card) for f in found) == sorted([under, over]), (under, over, step, [(f.card, f.centre) for f in found])


def test_DEAL_DECK_a_card_both_of_whose_corners_agree_keeps_its_name_beside_a_card_of_its_rank():
    # Cards laid out by rank overlap: the Qd's corner lies where the Qh's other corner is, but
    # the Qh's two corners agree, so the Qd is a card of its own and both stay named.
    import dataclasses

    top, bottom = (dataclasses.replace(r, confidence=0.97) for r in _both_corners("Qh"))
    far = bottom.rank_xy
    other = dataclasses.replace(_read("Qd", (far[0] + 8, far[1] + 45), (0.0, -1.0)), confidence=0.97)
    assert sorted(str(f.card) for f in Detector()._group_reads([top, bottom, other])) == ["Qd", "Qh"]
    # without the Qh's second corner the two reads are one card's torn corners: unnamed
    assert [f.card for f in Detector()._group_reads([top, other])] == [None]


def test_DEAL_DECK_two_cards_of_one_rank_in_suits_of_a_colour_side_by_side_stay_two_named():
    import dataclasses

    a = dataclasses.replace(_read("Ks", (100.0, 100.0), (0.0, 1.0)), confidence=0.97)
    b = dataclasses.replace(_read("Kc", (400.0, 100.0), (0.0, 1.0)), confidence=0.97)
    assert sorted(str(f.card) for f in Detector()._group_reads([a, b])) == ["Kc", "Ks"]


def test_DEAL_HOLE_COUNT_a_third_card_on_a_face_down_pair_is_counted_by_the_backs_it_shows(tmp_path: Path) -> None:
    """The simulator's table seen from above: every seat holds two face-down cards or three (the
    extra one dropped on the pair, as a dealer does), and three burns lie in a row. A third card
    adds hardly any area to a pair, so area alone says two; each card's white margin cuts the
    pile's back into one stretch per card, which says three. The burns are as many as they are."""
    from collections import Counter

    from dealer_pi.sim.camera_table import sim_camera_section
    from dealer_pi.sim.felt import Felt
    from dealer_pi.sim.overhead import SEATS, OverheadCamera
    from dealer_pi.vision.pipeline import pipeline_from_config

    pipeline, _ = pipeline_from_config(sim_camera_section(tmp_path), SEATS)
    for seed in range(4):
        felt = Felt(seed=seed)
        want: Counter[str] = Counter({"burn": 3})
        for seat in range(1, SEATS + 1):
            want[f"seat:{seat}"] = 3 if (seat + seed) % 2 else 2
            for _ in range(want[f"seat:{seat}"]):
                felt.place(f"seat:{seat}", None, face_up=False)
        for _ in range(3):
            felt.place("burn", None, face_up=False)
        frame = OverheadCamera(seed=seed).frame(felt, 0)
        pipeline.process(0, frame)  # calibrates the zones from the table's markers
        got = Counter(str(c.zone) for c in pipeline.cards(frame) if not c.face_up)
        assert got == want, seed


@pytest.mark.parametrize("table", ["felt", "wood"])
def test_DEAL_BURN_a_burn_card_touching_a_face_down_pair_by_a_corner_is_a_third_card(table: str) -> None:
    # Held-out stills (eval_heldout.py --seed 200 scene 10 on green felt, --seed 100 scene 8 on a
    # wooden table), cut round the seat: the burn card lies with its corner on a face-down pair's.
    # The three were one part of 2.06 and 2.10 cards' area, which area counts as two: the burn
    # card went missing (DEAL-BURN) or a seat held one card (DEAL-HOLE-COUNT). Where the part
    # narrows to the corner they share, each side is counted on its own.
    frame = cv2.imread(str(SIM_FRAMES / f"burn-touching-a-face-down-pair-on-{table}.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        down = sorted((f.centre for f in det.detect(frame) if not f.face_up), key=lambda c: c[1])
        assert len(down) == 3, down
        assert down[-1][1] > 200 and down[0][1] < 150, down  # the burn card below, the pair above


def test_DEAL_HOLE_COUNT_three_backs_framed_by_margins_two_pixels_thin_are_three_cards() -> None:
    # A held-out still (eval_heldout.py --seed 400, scene 9), cut round a seat: a face-down pair
    # and a third card against it, lattice backs inside a white margin two or three pixels wide.
    # One part of 2.22 cards' area, which area counts as two; each back is a stretch of its own,
    # but a ring as wide as the opening round each found felt beyond the thin margin (0.40 to
    # 0.44 card stock). Within two pixels of each it is the margin (0.86 to 0.94).
    frame = cv2.imread(str(SIM_FRAMES / "three-backs-with-thin-margins-on-felt.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        down = [f.centre for f in det.detect(frame) if not f.face_up]
        assert len(down) == 3, down
        assert all(x < 320 and y < 380 for x, y in down), down  # the pile, not the cut pair below


def test_DEAL_HOLE_COUNT_a_part_is_cut_only_where_it_narrows_to_less_than_a_cards_width() -> None:
    card_area = 110.0 * 154.0
    lone = np.zeros((200, 160), np.uint8)
    cv2.rectangle(lone, (20, 20), (130, 174), 255, -1)
    assert len(lobes(lone, card_area)) == 1
    # Two cards side by side, touching along a third of their height: a neck of half a card.
    two = np.zeros((270, 240), np.uint8)
    cv2.rectangle(two, (5, 5), (115, 159), 255, -1)
    cv2.rectangle(two, (116, 105), (226, 259), 255, -1)
    cut = lobes(two, card_area)
    assert len(cut) == 2 and sum(cv2.countNonZero(m) for m in cut) == cv2.countNonZero(two)
    assert sorted(cv2.countNonZero(m) for m in cut) == [111 * 155] * 2  # each pixel to its own card
    # The same two touching along most of their height: no neck, one part.
    wide = np.zeros((270, 240), np.uint8)
    cv2.rectangle(wide, (5, 5), (115, 159), 255, -1)
    cv2.rectangle(wide, (116, 35), (226, 189), 255, -1)
    assert len(lobes(wide, card_area)) == 1
    # A chip stack on a card's edge is no card of its own, however narrow the neck.
    chip = lone.copy()
    cv2.circle(chip, (148, 100), 20, 255, -1)
    assert len(lobes(np.hstack([chip, np.zeros((200, 40), np.uint8)]), card_area)) == 1


@pytest.mark.parametrize("frame_name", ["rack-across-a-rack-below-the-board", "rack-with-chips-on-it-below-the-board",
                                        "rack-with-chips-across-it-below-the-board"])
def test_DEAL_BURN_a_chip_rack_with_chips_or_another_rack_on_it_is_no_face_down_card(frame_name: str) -> None:
    # Held-out stills (eval_heldout.py --seed 500, scenes 1 and 17), cut below the board: a chip
    # rack with a second rack across it, and one with two chips on it. Either outline is no long
    # bar, and with no face's plain stock each was a face-down card: a burn or a hole card too many.
    # Seed 200, scene 2: two chips lying across a rack cut its colour in two pieces, neither a long
    # bar (1.6 times as long as wide); their hull is the rack.
    frame = cv2.imread(str(SIM_FRAMES / f"{frame_name}.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(frame)
        assert not [f.centre for f in found if not f.face_up]
        assert sum(1 for f in found if f.card is not None) >= 1  # the board's cards are still read


def beside_bar(crop: np.ndarray, mask: np.ndarray) -> int | None:
    """How many pixels of the part ``mask`` of ``crop`` lie beside its bar (:func:`.racks.bar_of`),
    as the detector counts them before it drops a rack; None where it has no bar."""
    bar = racks.bar_of(crop, mask)
    return None if bar is None else cv2.countNonZero(mask) - cv2.countNonZero(bar)


def test_DEAL_HOLE_COUNT_a_back_of_one_flat_colour_is_no_rack_but_a_bar_of_it_is() -> None:
    rng = np.random.default_rng(3)
    card_room = 0.45 * 110 * 154
    crop = np.zeros((200, 200, 3), np.uint8)
    crop[:] = rng.integers(0, 255, 3)
    # A card-shaped stretch of one colour (a plain back, or a back's ground with its print closed).
    card = np.zeros((200, 200), np.uint8)
    cv2.rectangle(card, (40, 20), (150, 174), 255, -1)
    assert beside_bar(crop, card) is None
    # A bar three times as long as wide, with a chip on it: a rack.
    bar = np.zeros((200, 200), np.uint8)
    cv2.rectangle(bar, (70, 10), (125, 190), 255, -1)
    cv2.circle(crop, (120, 100), 22, (200, 60, 220), -1)
    cv2.circle(bar, (120, 100), 22, 255, -1)
    beside = beside_bar(crop, bar)
    assert beside is not None and beside < card_room
    # The same bar beside a card's worth of something else is no rack: a card may lie there.
    more = bar.copy()
    cv2.rectangle(more, (126, 40), (199, 199), 255, -1)
    crop[40:, 126:] = (250, 250, 250)
    crop[40:, 126:][::4] = (20, 20, 20)
    beside = beside_bar(crop, more)
    assert beside is not None and beside >= card_room


def test_DEAL_BURN_a_rack_cut_short_by_a_card_lying_on_its_end_is_no_face_down_card() -> None:
    # Held-out still (eval_heldout.py --seed 1100, scene 5), cut: a green rack whose end a face-up
    # pair lies on. What is left of the rack is a bar 2.4 times as long as wide, short of the 2.7
    # the rule asked before; with no face's plain stock it was a face-down card.
    cut = cv2.imread(str(SIM_FRAMES / "rack-cut-short-by-a-face-up-pair.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(cut)
        assert not [f.centre for f in found if not f.face_up]
        assert [f for f in found if f.face_up and math.dist(f.centre, (260, 160)) < 40]  # the pair


# Held-out stills (eval_heldout.py), cut: chip racks against or across a seat's face-up pair that
# no read names.
# - seed 1100, scene 5: a green rack against the pair. Rack and pair are one part, face up by the
#   pair's plain stock and counted as two cards; each piece was then weighed alone, and the
#   rack's, with no plain stock, was a face-down card: one card too many at the table.
# - seed 1500, scene 10: two teal racks and a chip across the pair (Ac, Qs). The pair's white
#   stock frames the racks as a back's margin does, so the part had a back and the racks' rule
#   was not asked: a face-down card.
@pytest.mark.parametrize("name, pair, reach", [
    ("rack-against-an-unnamed-face-up-pair.png", (310, 195), 40),
    ("two-racks-across-an-unnamed-face-up-pair.png", (140, 215), 50),
], ids=["a-rack-against", "two-racks-across"])
def test_DEAL_BURN_chip_racks_by_an_unnamed_face_up_pair_are_no_face_down_card(
        name: str, pair: tuple[int, int], reach: float) -> None:
    cut = cv2.imread(str(SIM_FRAMES / name))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(cut)
        assert not [f.centre for f in found if not f.face_up], [(f.face_up, f.centre) for f in found]
        assert [f for f in found if f.face_up and math.dist(f.centre, pair) < reach]  # the pair


def test_DEAL_BURN_a_burn_with_a_chip_rack_across_its_end_is_one_face_down_card() -> None:
    # Held-out still (eval_heldout.py --seed 1600, scene 10), cut: an orange rack lying across the
    # end of a burn whose pink back has no margin, beside the board's 2h. Rack and burn are one part
    # of 1.26 cards' area and wider than a card: two face-down cards, one of them the rack. The
    # camera knows a card's size; a still measures it from the cards it reads, and in this small
    # cut measures it 8 % short, so the burn beside the rack is longer than a card and the part
    # is counted as before (in the whole still, one card).
    cut = cv2.imread(str(SIM_FRAMES / "rack-across-the-burn.png"))
    found = Detector(card_height_px=150.0, follow_scale=True).detect(cut)
    down = [f.centre for f in found if not f.face_up]
    assert len(down) == 1
    assert math.dist(down[0], (150, 205)) < 20  # the burn's middle, not the rack's
    assert any(f.card == Card.parse("2h") for f in found)


def test_DEAL_BURN_a_burn_under_a_rack_beside_a_face_up_cards_sliver_is_one_face_down_card() -> None:
    # Held-out still (eval_heldout.py --seed 2500, scene 5), cut: a grey rack lying across a burn's
    # end and the corner of a seat's face-up pair (Qh under 5h). Beside the rack lie the burn and a
    # sliver of the queen the reads left, 0.16 of a card: together longer than one card, so the
    # part was counted with the rack, two face-down cards. The sliver is no card's worth.
    cut = cv2.imread(str(SIM_FRAMES / "rack-across-a-burn-beside-a-face-up-sliver.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(cut)
        down = [f.centre for f in found if not f.face_up]
        assert len(down) == 1, down
        assert math.dist(down[0], (200, 220)) < 20, down  # the burn's middle, not the rack's
        assert any(f.card == Card.parse("5h") for f in found)


@pytest.mark.parametrize(("frame_name", "back", "faces"), [
    # Held-out still (eval_heldout.py --seed 800, scene 10), cut: a pink burn lying over a seat's
    # pair (Ts, 9s) whose upper index is not read.
    ("burn-over-an-unnamed-face-up-pair.png", (190, 245), [(171, 175)]),
    # Held-out still (--seed 1100, scene 8), cut: a red back with a pale pattern over a pair (2s,
    # Th) with a chip on it; a third of the back is pale, none of it plain stock.
    ("patterned-back-over-a-face-up-pair-and-a-chip.png", (188, 151), [(207, 52), (345, 288)]),
])
def test_DEAL_BURN_a_back_over_a_face_up_pair_is_one_face_down_card(frame_name: str, back: tuple[int, int],
                                                                    faces: list[tuple[int, int]]) -> None:
    # The face-up cards' outlines, estimated from their indices, took in most of the back, and
    # what they left was less than half a card: no card at all, a burn missed. The piece is grown
    # back into what they took, where that is of its own colour.
    cut = cv2.imread(str(SIM_FRAMES / frame_name))
    found = still_detector().detect(cut)
    down = [f.centre for f in found if not f.face_up]
    assert len(down) == 1
    assert math.dist(down[0], back) < 30
    for xy in faces:
        assert [f for f in found if f.face_up and math.dist(f.centre, xy) < 40]


def test_DEAL_BURN_a_piece_all_pale_and_none_of_it_plain_is_not_grown() -> None:
    # What a face's outline leaves may be a lattice of thin white lines: all of it pale, none of it
    # plain stock. It has no colour of its own to grow by; asking for its commonest colour raised.
    bgr = np.full((400, 400, 3), (40, 110, 30), np.uint8)
    rest = np.zeros((400, 400), np.uint8)
    for k in range(100, 300, 8):
        rest[100:300, k : k + 2] = 255
        rest[k : k + 2, 100:300] = 255
    bgr[rest > 0] = 250
    taken = np.zeros_like(rest)
    taken[100:300, 300:380] = 255
    before = rest.copy()
    piece = np.array([[100, 100], [299, 100], [299, 299], [100, 299]], np.int32).reshape(-1, 1, 2)
    assert _grown_under(bgr, piece, rest, taken, 100000.0, 250.0) == []
    assert np.array_equal(rest, before)


def test_DEAL_BURN_a_burn_beside_a_sliver_of_a_court_card_is_one_card() -> None:
    # Held-out still (eval_heldout.py --seed 600, scene 2), cut: a burn with a pale lattice back
    # over a seat's pair (3h, Qd); what shows of the queen beside it is mostly her picture, 0.06 of
    # the part plain stock. With the sliver the part is wider than a card, and was two cards.
    cut = cv2.imread(str(SIM_FRAMES / "burn-over-a-court-cards-sliver.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        down = [f.centre for f in det.detect(cut) if not f.face_up]
        assert len(down) == 1
        assert math.dist(down[0], (190, 190)) < 40


def test_DEAL_BURN_a_rack_across_a_face_up_pair_is_no_face_down_card() -> None:
    # Held-out still (eval_heldout.py --seed 2000, scene 11), cut: a teal chip rack lying across a
    # seat's face-up pair (5d, 9d) and a chip. The outline worked out from the 5d's index takes
    # the rack's upper end; what was left of the rack, with a sliver of the cards, was a triangle,
    # no long bar, and was a face-down card: a third card at the seat.
    cut = cv2.imread(str(SIM_FRAMES / "rack-across-a-face-up-pair.png"))
    found = still_detector().detect(cut)
    assert not [f.centre for f in found if not f.face_up]
    assert [f for f in found if f.face_up and math.dist(f.centre, (183, 106)) < 40]  # the pair


def test_DEAL_HOLE_COUNT_a_rack_is_found_beside_backs_that_cover_more_of_the_part() -> None:
    # A back's stripes cover more of the part than the rack does: the rack is its second colour.
    crop = np.full((260, 300, 3), (200, 120, 235), np.uint8)
    for k in range(-260, 200 + 260, 9):
        cv2.line(crop, (k, 0), (k + 260, 260), (150, 60, 190), 1)
    crop[:, 200:] = (30, 100, 240)
    mask = np.zeros((260, 300), np.uint8)
    mask[20:240, 20:200] = 255  # the back
    mask[5:255, 200:245] = 255  # the rack, 250 long and 45 wide, against its side
    rack = np.zeros_like(mask)
    rack[5:255, 200:245] = 255
    bar = racks.bar_of(crop, mask)
    assert bar is not None
    assert cv2.countNonZero(bar & rack) > 0.95 * cv2.countNonZero(rack)
    assert cv2.countNonZero(bar & ~rack) < 0.02 * cv2.countNonZero(rack)
    assert beside_bar(crop, mask) == cv2.countNonZero(mask) - cv2.countNonZero(bar)


def test_DEAL_BURN_a_rack_on_a_checked_back_of_its_colour_is_found_without_the_back() -> None:
    # Held-out still (eval_heldout.py, seed 1900, scene 1): a yellow rack across the end of a burn
    # whose back is checked in yellow and green. The light squares are the rack's colour and touch
    # at their corners; closed with the rack they made one card-shaped stretch, no bar, and rack and
    # burn were two face-down cards (DEAL-BURN).
    crop = np.full((260, 200, 3), (60, 170, 140), np.uint8)  # the back's green squares
    for y in range(60, 260, 9):
        for x in range(0, 200, 9):
            if (x // 9 + y // 9) % 2:
                crop[y : y + 9, x : x + 9] = (70, 215, 215)  # its yellow ones, 9 pixels wide
    crop[:60] = (60, 210, 210)  # the rack, 200 long and 60 wide, across the back's end
    cv2.line(crop, (0, 30), (199, 30), (200, 245, 245), 1)  # its dotted line, drawn solid
    mask = np.full((260, 200), 255, np.uint8)
    rack = np.zeros_like(mask)
    rack[:60] = 255
    bar = racks.bar_of(crop, mask)
    assert bar is not None
    assert cv2.countNonZero(bar & rack) > 0.95 * cv2.countNonZero(rack)
    assert cv2.countNonZero(bar & ~rack) < 0.05 * cv2.countNonZero(rack)


def test_DEAL_BURN_a_white_card_beside_a_white_framed_back_is_no_rack() -> None:
    # Held-out still (eval_heldout.py, seed 1400, scene 5), cut: a red back framed in white on red
    # felt, and beside it the corner of a face-up pair (4d under Ks). Opened to find a rack's solid
    # colour under a checked back, the frame went and the card's white sliver was left, long and
    # flat as a rack: the pair was cut away and never read as face up.
    cut = cv2.imread(str(SIM_FRAMES / "white-framed-back-beside-a-white-card.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(cut)
        assert [f.centre for f in found if not f.face_up and math.dist(f.centre, (109, 223)) < 30]
        # The 4d named is placed from its index, away from the sliver's middle.
        assert [f for f in found if f.face_up and (math.dist(f.centre, (156, 148)) < 40 or f.card == Card.parse("4d"))], [
            (f.face_up, f.centre) for f in found
        ]


def test_DEAL_BURN_what_lies_beside_a_rack_is_counted_without_the_rack() -> None:
    rng = np.random.default_rng(5)
    back = _striped_back()
    frame = compose(felt(640, 480, rng), [Placement(back, card_homography((300, 270), 35.0, 150.0, (252, 352)), None, False)]).frame
    det = Detector(card_height_px=150.0, follow_scale=True)
    assert len(det.detect(frame.copy())) == 1
    # A rack of one flat colour, a dotted line along it, across the card's end.
    cv2.fillPoly(frame, [cv2.boxPoints(((330, 170), (180, 56), 45.0)).astype(np.int32)], (30, 100, 240), cv2.LINE_AA)
    for k in range(-30, 31):
        cv2.circle(frame, (int(330 + k * 2.07), int(170 + k * 2.07)), 1, (150, 220, 255), -1)
    found = Detector(card_height_px=150.0, follow_scale=True).detect(frame)
    assert [f.face_up for f in found] == [False]
    assert math.dist(found[0].centre, (300, 270)) < 0.1 * 150
    # A second card under the rack's other side: what lies beside the rack is more than one card's
    # box, and the part is counted with the rack, two cards.
    frame = compose(felt(640, 480, rng), [Placement(back, card_homography((300, 270), 35.0, 150.0, (252, 352)), None, False),
                                          Placement(back, card_homography((330, 240), 25.0, 150.0, (252, 352)), None, False)]).frame
    cv2.fillPoly(frame, [cv2.boxPoints(((330, 170), (180, 56), 45.0)).astype(np.int32)], (30, 100, 240), cv2.LINE_AA)
    found = Detector(card_height_px=150.0, follow_scale=True).detect(frame)
    assert [f.face_up for f in found] == [False, False]
    # A pair whose end a long rack touches: the backs, not the rack, are the part's commonest colour,
    # and the part, rack and all, is too long to be cards. It was no card at all; now the pair.
    frame = compose(felt(640, 480, rng), [Placement(back, card_homography((320, 130), 0.0, 150.0, (252, 352)), None, False),
                                          Placement(back, card_homography((352, 138), 8.0, 150.0, (252, 352)), None, False)]).frame
    cv2.fillPoly(frame, [cv2.boxPoints(((330, 355), (45, 300), 0.0)).astype(np.int32)], (30, 100, 240), cv2.LINE_AA)
    found = Detector(card_height_px=150.0, follow_scale=True).detect(frame)
    assert [f.face_up for f in found] == [False, False]
    assert all(math.dist(f.centre, (336, 134)) < 0.5 * 150 for f in found)  # on the pair, none on the rack


def _rack(frame: np.ndarray, centre: tuple[float, float], angle: float, colour: tuple[int, int, int]) -> None:
    """A chip rack 180 by 56 pixels of one flat colour, a dotted line along it, drawn on ``frame``."""
    cv2.fillPoly(frame, [cv2.boxPoints((centre, (180, 56), angle)).astype(np.int32)], colour, cv2.LINE_AA)
    a = math.radians(angle)
    for k in range(-40, 41):
        cv2.circle(frame, (int(centre[0] + 2 * k * math.cos(a)), int(centre[1] + 2 * k * math.sin(a))), 1, (150, 220, 255), -1)


def test_DEAL_BURN_chips_across_a_racks_edge_and_two_racks_side_by_side_are_no_face_down_card() -> None:
    # Held-out stills (eval_heldout.py, seed 1800, scene 16; seed 600, scene 12): a rack with chips
    # lying across its edge, whose colour's stretch the chips bite into (0.66 of its box filled;
    # its hull 0.91), and two racks of two colours side by side, each a bar but the other a card's
    # worth beside it. Each was a face-down card: a burn too many (DEAL-BURN) or a seat's third card.
    seven = Card.parse("7h")
    for seed in range(3):
        face = Placement(render_face(seven, FaceStyle())[0], card_homography((900, 400), 10.0, 150.0), seven, True)
        frame = compose(felt(1280, 720, np.random.default_rng(seed)), [face]).frame
        _rack(frame, (330, 250), 30.0, (160, 60, 120))
        for t in (-30, 10, 50):  # along the rack's lower edge
            centre = (int(316 + 0.866 * t), int(274 + 0.5 * t))
            cv2.circle(frame, centre, 22, (60, 200, 60), -1, cv2.LINE_AA)
            cv2.circle(frame, centre, 15, (240, 240, 240), 2, cv2.LINE_AA)
        _rack(frame, (400, 550), -10.0, (200, 80, 90))
        _rack(frame, (400 + 56 * math.sin(math.radians(10)), 550 + 56 * math.cos(math.radians(10))), -10.0, (60, 40, 140))
        for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
            found = det.detect(frame)
            assert [(str(f.card), f.face_up) for f in found] == [("7h", True)], (seed, [(f.card, f.centre) for f in found])


@pytest.mark.parametrize("across", [((450, 300), 100.0), ((430, 300), 90.0), ((420, 300), 10.0)], ids=["ends", "middle", "side"])
def test_DEAL_HOLE_COUNT_a_face_down_pair_with_a_rack_across_it_is_two_cards(across: tuple[tuple[int, int], float]) -> None:
    # Held-out still (eval_heldout.py, seed 1100, scene 7): a rack lying across a seat's pair. With
    # the rack cut off, what is left is less than a card's area, so area counted one card, and what
    # lies beyond the rack is as narrow as a chip on a card's edge, so the width left out counted
    # it too; where the rack crossed both cards' ends, what it left was hollow, and was no card at
    # all. The seat had one hole card (DEAL-HOLE-COUNT), or none.
    back = _striped_back()
    seven = Card.parse("7h")
    places = [Placement(back, card_homography((400, 300), 20.0, 150.0, (252, 352)), None, False),
              Placement(back, card_homography((440, 315), 34.0, 150.0, (252, 352)), None, False),
              Placement(render_face(seven, FaceStyle())[0], card_homography((900, 400), 10.0, 150.0), seven, True)]
    for seed in range(2):
        frame = compose(felt(1280, 720, np.random.default_rng(seed)), places).frame
        _rack(frame, *across, (160, 60, 120))
        for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
            found = det.detect(frame)
            down = [f.centre for f in found if not f.face_up]
            assert len(down) == 2 and all(math.dist(c, (420, 308)) < 0.6 * 150 for c in down), (seed, down)
            assert [str(f.card) for f in found if f.face_up] == ["7h"], (seed, [(f.card, f.centre) for f in found])


def _striped_back() -> np.ndarray:
    back = np.full((352, 252, 3), (200, 120, 235), np.uint8)  # pink stripes, no margin
    for k in range(-352, 252 + 352, 9):
        cv2.line(back, (k, 0), (k + 352, 352), (150, 60, 190), 2)
    return back


def _chip(img: np.ndarray, centre: tuple[int, int], r: int) -> None:
    cv2.circle(img, centre, r, (200, 60, 40), -1, cv2.LINE_AA)
    for k in range(8):
        t = k * math.pi / 4
        cv2.circle(img, (int(centre[0] + 0.8 * r * math.cos(t)), int(centre[1] + 0.8 * r * math.sin(t))), max(1, r // 7),
                   (255, 255, 255), -1)


def test_DEAL_HOLE_EXPOSED_a_back_read_as_an_index_three_times_too_big_for_the_card_names_no_card() -> None:
    # A back of pink stripes without a margin, turned 20 degrees, on felt: a camera that follows no
    # glyph size yet (a fresh camera, or one moved) reads it at every size, and read two halves of
    # its pattern as a 4h at 1.00, a rank-to-suit distance that implies a card three times taller
    # than the card height it is told. At a table, a hole card exposed that lies face down.
    frame = compose(felt(640, 480, np.random.default_rng(0)),
                    [Placement(_striped_back(), card_homography((300, 250), 20.0, 150.0, (252, 352)), None, False)]).frame
    found = Detector(card_height_px=150.0, follow_scale=True).detect(frame)
    assert [(f.card, f.face_up) for f in found] == [(None, False)]
    # A real card of that size keeps its name.
    face, _ = render_face(Card.parse("4h"), FaceStyle())
    frame = compose(felt(640, 480, np.random.default_rng(0)),
                    [Placement(face, card_homography((300, 250), 20.0, 150.0, (CARD_W, CARD_H)), Card.parse("4h"), True)]).frame
    assert [f.card for f in Detector(card_height_px=150.0, follow_scale=True).detect(frame)] == [Card.parse("4h")]


def _marked_table(folder: Path, back: np.ndarray, slant: int = 0) -> tuple[np.ndarray, Path]:
    """A table with four markers 60 mm across at 150 px per 88 mm card, ``back`` in seat 1 turned
    20 degrees, and its layout file, written into ``folder``. ``slant``: the table's far edge is
    seen this many pixels shorter at each end (the back is drawn 150 px long all the same)."""
    px_mm = 150 / 88
    marks = {0: (-230, -160), 1: (230, -160), 2: (230, 160), 3: (-230, 160)}
    table = felt(1120, 840, np.random.default_rng(0))
    s = int(60 * px_mm)
    for i, (x, y) in marks.items():
        cx, cy = int(560 + x * px_mm), int(420 + y * px_mm)
        table[cy - s // 2 - s // 4 : cy + s // 2 + s // 4 + 1, cx - s // 2 - s // 4 : cx + s // 2 + s // 4 + 1] = 255
        table[cy - s // 2 : cy - s // 2 + s, cx - s // 2 : cx - s // 2 + s] = marker_image(i, s)[..., None]
    if slant:
        seen = np.float32([[slant, 0], [1120 - slant, 0], [1120, 840], [0, 840]])
        turn = cv2.getPerspectiveTransform(np.float32([[0, 0], [1120, 0], [1120, 840], [0, 840]]), seen)
        table = cv2.warpPerspective(table, turn, (1120, 840), borderMode=cv2.BORDER_REPLICATE)
    frame = compose(table, [Placement(back, card_homography((560, 420), 20.0, 150.0, back.shape[1::-1]), None, False)]).frame
    layout = folder / "table.toml"
    layout.write_text("marker_mm = 60\n[markers]\n" + "".join(f"{i} = [{x}, {y}]\n" for i, (x, y) in marks.items())
                      + '[zones]\n"seat:1" = [[-150, -70], [150, -70], [150, 70], [-150, 70]]\n'
                      + '"seat:2" = [[-150, -150], [150, -150], [150, -110], [-150, -110]]\n'
                      + '"seat:3" = [[-150, 110], [150, 110], [150, 150], [-150, 150]]\n')
    return frame, layout


def test_DEAL_HOLE_EXPOSED_a_camera_told_no_card_length_takes_it_from_the_markers_and_reads_no_back_as_a_4h(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The same back in seat 1 of a table with markers, through the pipeline a venue's config builds
    # with no card length set (the default). The camera then followed no size: it reported the
    # back face up as the 4h, an exposed hole card, on every frame. The markers say how long an
    # 88 mm card is here (150 px), and the read that implies a card three times that names nothing.
    frame, layout = _marked_table(tmp_path, _striped_back())
    pipeline, _ = pipeline_from_config(config_from_dict({"camera": {"layout_file": layout.name}}).camera, base_dir=tmp_path)
    seen = [o for n in range(4) for o in pipeline.process(n * 500, frame) if isinstance(o, CardSeen)]
    assert pipeline.calibration == "ok" and pipeline.detector.card_height_px == pytest.approx(150.0, rel=0.02)
    assert [(str(o.zone), o.face_up, o.card) for o in seen] == [("seat:1", False, None)]
    # A length the config gives is kept: the venue knows best.
    told, _ = pipeline_from_config(config_from_dict({"camera": {"layout_file": layout.name, "card_height_px": 140.0}}).camera,
                                   base_dir=tmp_path)
    told.process(0, frame)
    assert told.calibration == "ok" and told.detector.card_height_px == 140.0
    # A camera at a slant: no one length serves the frame, but no card lies longer than the near
    # side's, and a read of a card over twice that is still no index (the 4h, face up, before).
    slanted, _ = _marked_table(tmp_path, _striped_back(), slant=150)
    pipeline, _ = pipeline_from_config(config_from_dict({"camera": {"layout_file": layout.name}}).camera, base_dir=tmp_path)
    seen = [o for n in range(4) for o in pipeline.process(n * 500, slanted) if isinstance(o, CardSeen)]
    assert pipeline.detector.card_height_px == 0.0 and 150 < pipeline.detector.longest_card_px < 170
    assert [(str(o.zone), o.face_up, o.card) for o in seen] == [("seat:1", False, None)]
    # A still with the markers in view (`vision detect`) takes the length from them too (it named
    # the 4h as well), and no marker's white square is a card.
    cv2.imwrite(str(tmp_path / "still.png"), frame)
    assert main(["vision", "detect", str(tmp_path / "still.png"), "--layout", str(layout), "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert [(c["zone"], c["face_up"], c["card"]) for c in cards] == [("seat:1", False, None)]
    # Setting up, `vision calibrate` says the length the markers give.
    assert main(["vision", "calibrate", str(tmp_path / "still.png"), "--layout", str(layout)]) == 0
    assert "a card's length: 150 px" in capsys.readouterr().out


def test_DEAL_HOLE_COUNT_chips_on_a_face_down_cards_corner_are_no_second_card() -> None:
    rng = np.random.default_rng(7)
    back = _striped_back()
    frame = compose(felt(640, 480, rng), [Placement(back, card_homography((300, 250), 0.0, 150.0, (252, 352)), None, False)]).frame
    # Two chips (a protector, a bet pushed against the card) on its top-right corner, one hanging
    # over its edge: the part is wider than one card and has more than a card's area.
    _chip(frame, (360, 180), 22)
    _chip(frame, (385, 165), 22)
    found = Detector(card_height_px=150.0, follow_scale=True).detect(frame)
    assert [f.face_up for f in found] == [False]
    assert math.dist(found[0].centre, (300, 250)) < 0.15 * 150
    # Two backs fanned a third of a card apart stay two: the one beneath sticks out a card long.
    frame = compose(felt(640, 480, rng), [Placement(back, card_homography((300, 250), 0.0, 150.0, (252, 352)), None, False),
                                          Placement(back, card_homography((332, 258), 8.0, 150.0, (252, 352)), None, False)]).frame
    found = Detector(card_height_px=150.0, follow_scale=True).detect(frame)
    assert [f.face_up for f in found] == [False, False]


def test_DEAL_HOLE_COUNT_what_lies_on_a_rack_is_the_racks_and_a_rack_cut_short_is_still_a_bar() -> None:
    crop = np.full((200, 200, 3), (60, 150, 40), np.uint8)
    # A bar 2.4 times as long as wide (a card lies on its end) is a rack's, with nothing beside it.
    bar = np.zeros((200, 200), np.uint8)
    cv2.rectangle(bar, (70, 30), (124, 160), 255, -1)
    assert beside_bar(crop, bar) == 0
    # A chip across most of its width leaves a hole in its colour: the chip lies on the bar.
    cv2.circle(crop, (97, 95), 24, (40, 40, 200), -1)
    assert beside_bar(crop, bar) == 0
    # A card's outline of one colour (1.4 times as long as wide) is no bar.
    card = np.zeros((200, 200), np.uint8)
    cv2.rectangle(card, (40, 20), (150, 174), 255, -1)
    assert beside_bar(np.full((200, 200, 3), (60, 150, 40), np.uint8), card) is None
    # Twice as long as wide, as a back's ground half under another card lies, is no bar either.
    half = np.zeros((200, 200), np.uint8)
    cv2.rectangle(half, (40, 20), (150, 75), 255, -1)
    assert beside_bar(np.full((200, 200, 3), (60, 150, 40), np.uint8), half) is None
    # A back's lattice left as a bar by a hand over the rest of its card is a pattern, not a rack.
    lattice = np.full((200, 200, 3), 235, np.uint8)
    yy, xx = np.mgrid[0:200, 0:200]
    lattice[((xx + yy) % 8 < 3) | ((xx - yy) % 8 < 3)] = (170, 60, 60)
    assert beside_bar(lattice, bar) is None


def test_DEAL_HOLE_COUNT_a_stretch_with_nothing_round_it_in_view_shows_no_margin() -> None:
    ring = np.ones((5, 5), np.uint8)
    stock = np.ones((30, 40), bool)
    whole = np.ones((30, 40), np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not the mean of nothing
        assert _stock_round(whole, stock, ring) == 0.0
    inner = np.zeros((30, 40), np.uint8)
    inner[5:25, 5:35] = 1
    assert _stock_round(inner, stock, ring) == 1.0


def test_DEAL_HOLE_COUNT_pale_plaid_backs_are_face_down_cards_not_faces() -> None:
    # Held-out still (eval_heldout.py --seed 1600, scene 3), cut: a face-down pair whose back is a
    # pale grey plaid of white lines, beside the board's 6c. The plaid is pale enough for plain card
    # stock all over, in one piece: both backs were unread face-up cards.
    cut = cv2.imread(str(SIM_FRAMES / "pale-plaid-backs-beside-the-board.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(cut)
        at_pair = [f for f in found if f.centre[0] > 300]
        assert len(at_pair) == 2 and not [f for f in at_pair if f.face_up]
        assert [f for f in found if f.card == Card.parse("6c")]


def test_DEAL_HOLE_COUNT_a_faces_plain_stock_is_flat_and_a_pale_plaids_is_stepped() -> None:
    card = np.zeros((140, 100), np.uint8)
    cv2.rectangle(card, (5, 5), (94, 134), 255, -1)
    face = np.full((140, 100, 3), 236, np.uint8)
    cv2.putText(face, "7", (12, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 200), 3)
    cv2.circle(face, (50, 70), 14, (30, 30, 200), -1)
    face = np.clip(face.astype(int) + np.random.default_rng(0).normal(0, 3, face.shape), 0, 255).astype(np.uint8)
    # A pale grey ground crossed by white lines five pixels apart: as pale, and mostly steps.
    plaid = np.full((140, 100, 3), 195, np.uint8)
    plaid[:, ::5] = 245
    plaid[::5, :] = 245
    # A plaid as faint as a held-out still's (4400/9): lines of two pixels, 25 grey levels above the ground.
    faint = np.full((140, 100, 3), 225, np.uint8)
    for k in (0, 1):
        faint[:, k::6] = 250
        faint[k::6, :] = 250
    for bgr, stepped in ((face, False), (plaid, True), (faint, True)):
        masks = _stock_masks(bgr, card, 220.0, 3, None)
        assert masks[1][masks[2]].mean() > 0.6  # plain stock, all of them
        assert (stepped_share(bgr, card, masks) >= STEPPED) == stepped


def test_DEAL_HOLE_COUNT_faint_plaid_backs_crossed_on_red_felt_are_face_down() -> None:
    # Held-out still (eval_heldout.py --seed 4400, scene 9), cut: a seat's face-down pair whose back
    # is white lines on a pale grey ground, 25 grey levels apart under the scene's light. Only 0.10
    # of the part was stepped at a step of 20 grey levels: both backs were unread faces.
    cut = cv2.imread(str(SIM_FRAMES / "faint-plaid-backs-crossed-on-red-felt.jpg"))
    found = Detector(card_height_px=150.0, follow_scale=True).detect(cut)
    assert len(found) == 2 and not [f for f in found if f.face_up]


def test_DEAL_HOLE_COUNT_pale_dotted_backs_beside_a_seats_pair_are_face_down() -> None:
    # Held-out still (eval_heldout.py --seed 3900, scene 17), cut: a lone back and a face-down pair,
    # printed with blue-grey dots on a pale ground, beside a seat's 9d and 3s and the board's Jh. The
    # lone back showed 0.31 plain stock, over the faces' bar and too little to be asked whether
    # it was stepped; the pair's stepped share was 0.35 of the part. All three were unread faces.
    cut = cv2.imread(str(SIM_FRAMES / "pale-dotted-backs-beside-a-seats-pair.png"))
    for det in (still_detector(), Detector(card_height_px=150.0, follow_scale=True)):
        found = det.detect(cut)
        backs = [f for f in found if f.centre[0] < 340 and f.centre[1] > 200]
        assert len(backs) == 3 and not [f for f in backs if f.face_up]
        assert {Card.parse("9d"), Card.parse("Jh")} <= {f.card for f in found}


def _light_patterned_back() -> np.ndarray:
    """A back printed as a fine grey lattice on white card stock inside a white margin: nearly as
    much white as a face, but in lines, not in plain stretches."""
    img = np.full((CARD_H, CARD_W, 3), 245, np.uint8)
    inner = img[16:-16, 16:-16]
    yy, xx = np.mgrid[0 : inner.shape[0], 0 : inner.shape[1]]
    inner[((xx + yy) % 10 < 4) | ((xx - yy) % 10 < 4)] = (95, 95, 95)
    return img


def test_DEAL_HOLE_COUNT_a_light_patterned_back_is_face_down_not_an_unread_face() -> None:
    # A face-down pair at a seat and a lone card, on backs whose pattern leaves half the card white:
    # counted by white alone they were three face-up cards nobody could read (none face down).
    back = _light_patterned_back()
    style = FaceStyle(pip=50)
    det = Detector()
    downs = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        places = [Placement(render_face(Card.parse(c), style)[0],
                            card_homography((480 + 110 * k, 360), float(rng.normal(0, 3)), 140), Card.parse(c), True)
                  for k, c in enumerate(("Ah", "7c", "Qd"))]
        turn = float(rng.uniform(-40, 40))
        places += [Placement(back, card_homography((250 + 28 * d, 200 + 10 * d), turn + 12 * d, 140), None, False) for d in (0, 1)]
        places.append(Placement(back, card_homography((1000, 560), float(rng.uniform(0, 90)), 140), None, False))
        found = det.detect(compose(felt(1280, 720, rng), places).frame)
        assert {f.card for f in found if f.card is not None} <= {Card.parse(c) for c in ("Ah", "7c", "Qd")}
        face_down = sum(1 for f in found if not f.face_up)
        assert face_down >= 2, (seed, face_down)
        downs += face_down
    assert downs >= 15, downs  # of 18: the fanned pair is taken for one card at times


def test_DEAL_DECK_a_small_still_is_also_read_at_triple_size_naming_more_and_none_wrongly() -> None:
    # A table sent as a 640x360 picture, cards 48-56 px tall: indices of 5-7 px. Triple size reads
    # them where double size reads fewer, and once took a card for another (a false foul deck).
    table = {"board": [Card.parse(c) for c in ("Ah", "Kd", "Tc", "7s", "3h")], "seat:2": [Card.parse("Qs"), Card.parse("Jh")]}
    with_triple, without = still_recogniser(), Recogniser(both_polarities=True, scales=STILL_SCALES)
    right = {"triple": 0, "double": 0}
    wrong = {"triple": 0, "double": 0}
    for height in (48.0, 56.0):
        for seed in range(5):
            scene = render_table_scene(table, seed=seed, card_height=height, size=(640, 360))
            truth = {p.card for p in scene.placements if p.card is not None}
            for name, reader in (("triple", with_triple), ("double", without)):
                named = {f.card for f in Detector(reader).detect(scene.frame) if f.card is not None}
                right[name] += len(named & truth)
                wrong[name] += len(named - truth)
    assert wrong["triple"] == 0, wrong
    assert right["triple"] >= right["double"] + 4, right


def test_DEAL_HOLE_COUNT_a_pair_fanned_almost_on_top_of_each_other_is_two_on_a_deck_with_a_large_index() -> None:
    """A deck that prints its index large for its cards makes its cards look bigger than they
    are, going by the index (a third bigger here): a face-down pair fanned a fifth of a card apart
    then has less than one such card's area, and counted one. The board's cards, read at both
    opposite corners, measure a card directly. Backs printed to the edge leave no margin between
    the two cards to count them by."""
    from dealer_pi.vision.faces import render_back

    style = FaceStyle(index_height=52, pip=50)
    det = Detector()
    for seed in range(4):
        rng = np.random.default_rng(seed)
        board = [Placement(render_face(Card.parse(c), style)[0],
                           card_homography((480 + 130 * k, 380), float(rng.normal(0, 3)), 150), Card.parse(c), True)
                 for k, c in enumerate(("Ah", "7c", "Qd"))]
        # Printed to the edge, with no white margin: the pile shows one stretch of back, whatever
        # it holds, and counting falls to its size and shape.
        back = cv2.resize(render_back(seed=seed)[14:-14, 14:-14], (CARD_W, CARD_H))
        turn = float(rng.uniform(-30, 30))
        step = (float(rng.uniform(20, 28)), float(rng.uniform(-28, -20)))
        pair = [Placement(back, card_homography((260 + step[0] * d, 220 + step[1] * d), turn + 8 * d, 150), None, False)
                for d in (0, 1)]
        lone = Placement(back, card_homography((1000, 560), float(rng.uniform(0, 90)), 150), None, False)
        found = det.detect(compose(felt(1280, 720, rng), board + pair + [lone]).frame)
        down = [f.centre for f in found if not f.face_up]
        assert len(down) == 3, (seed, down)
        assert {f.card for f in found if f.card is not None} <= {Card.parse(c) for c in ("Ah", "7c", "Qd")}


def test_DEAL_HOLE_COUNT_a_camera_frame_reads_print_only_on_card_stock_and_finds_the_cards_reading_the_backs_finds(monkeypatch) -> None:
    """Mid-hand, most of a frame's ink is the hole cards' backs: a camera stream (its glyph size
    known) reads dark print only on and round white card stock. The backs give no glyph pairs to
    run through the networks, and every card is found as reading them too finds it."""
    import dealer_pi.vision.recogniser as recogniser_module

    table = {"board": [Card.parse(c) for c in ("Ah", "Kd", "Tc", "7s", "2h")],
             **{f"seat:{s}": [None, None] for s in (1, 3, 5, 7)}, "burn": [None]}
    frames = [render_table_frame(table, seed=s) for s in range(3)]
    pairs: list[int] = []
    propose = recogniser_module.hypotheses_from_blobs
    monkeypatch.setattr(recogniser_module, "hypotheses_from_blobs", lambda blobs, params: pairs.append(len(hy := propose(blobs, params))) or hy)

    def found(stock_only: bool) -> tuple[list[list[tuple[str, bool, int, int]]], int]:
        det = Detector(Recogniser(stock_only=stock_only), follow_scale=True)
        det.detect(frames[0])  # the glyph size to follow
        assert det.glyph_px > 0
        pairs.clear()
        cards = [sorted((str(c.card), c.face_up, round(c.centre[0]), round(c.centre[1])) for c in det.detect(f)) for f in frames]
        return cards, sum(pairs)

    on_stock, few = found(True)
    everywhere, many = found(False)
    assert on_stock == everywhere
    assert sum(c[1] is False for c in on_stock[0]) >= 8  # the hole cards and the burn, face down
    assert {c[0] for c in on_stock[0]} >= {"Ah", "Kd", "7s", "2h"}
    assert few * 3 < many


def test_DEAL_HOLE_COUNT_a_new_hands_deal_is_read_at_the_glyph_size_of_the_last_cards_seen_face_up() -> None:
    """The camera does not zoom: while a new hand is dealt face down, the detector keeps looking
    for print of the size it last read (not every size on the whole table), and counts the backs
    as a fresh detector does."""
    board = {"board": [Card.parse(c) for c in ("Ah", "Kd", "7s")]}
    dealt = {f"seat:{s}": [None, None] for s in (1, 3, 5)}
    det = Detector(card_height_px=130.0, follow_scale=True)  # the card size from the config, as the camera's
    det.detect(render_table_frame(board, seed=1))
    size = det.glyph_px
    assert size > 0
    frame = render_table_frame(dealt, seed=2)
    following = det.detect(frame)
    assert det.glyph_px == size
    fresh = Detector(card_height_px=130.0, follow_scale=True).detect(frame)
    assert sum(not f.face_up for f in following) == sum(not f.face_up for f in fresh) == 6
    assert not any(f.face_up for f in following)


def test_DEAL_HOLE_COUNT_a_markerless_cameras_hole_cards_stay_found_once_every_seat_holds_a_pair() -> None:
    """With no card length configured and no markers, a frame measures a card by a card lying
    alone or one named at both corners. Once every seat held its pair (no card face up, no burn
    yet) there was neither, and every hole card went unreported for the rest of the round."""
    steps = [{"seat:1": [None]}, {"seat:1": [None], "seat:5": [None]},
             {"seat:1": [None, None], "seat:5": [None]}, {"seat:1": [None, None], "seat:5": [None, None]}]
    for seed in (0, 1):
        det = Detector(follow_scale=True)
        found = [sum(not f.face_up for f in det.detect(render_table_frame(t, seed=seed))) for t in steps]
        assert found == [1, 2, 3, 4], seed
        assert det.card_area_seen > 0
        det.forget_scale()  # the camera moved: nothing is known of a card's size
        assert det.detect(render_table_frame(steps[-1], seed=seed)) == []


def test_DEAL_HOLE_COUNT_a_pile_lying_still_is_split_once_and_the_same_way_in_every_frame(monkeypatch) -> None:
    import dealer_pi.vision.detect as detect_module

    frame = render_table_frame({"seat:2": [None, None, None], "seat:6": [None, None]}, seed=4)
    splits: list[int] = []
    split = detect_module._split
    monkeypatch.setattr(detect_module, "_split", lambda pts, k: splits.append(k) or split(pts, k))
    det = Detector(card_height_px=130.0, follow_scale=True)
    first = det.detect(frame)
    made = len(splits)
    again = det.detect(frame)
    assert made >= 1 and len(splits) == made  # split in the first frame, remembered in the second
    assert [(f.face_up, f.corners) for f in again] == [(f.face_up, f.corners) for f in first]
    assert sum(not f.face_up for f in first) == 5
    assert [(f.face_up, f.corners) for f in Detector(card_height_px=130.0).detect(frame)] == [(f.face_up, f.corners) for f in first]


def test_DEAL_HOLE_COUNT_a_pile_is_split_by_centres_found_on_a_sample_of_its_pixels_as_well_as_on_all(monkeypatch) -> None:
    """k-means places a pile's centres on a grid of about a thousand of its pixels, and every
    pixel goes to its nearest centre: the pieces cover the pile, and the face-down cards lie as
    near where the cards truly lie as k-means on every pixel puts them."""
    import dealer_pi.vision.detect as detect_module

    sampled = detect_module._split

    def every_pixel(pts: np.ndarray, k: int) -> list[np.ndarray]:
        return sampled(pts, k, sample=len(pts))

    pts = np.argwhere(np.ones((150, 230), bool))[:, ::-1].astype(np.float32)  # two cards' worth of pixels, side by side
    sizes: list[int] = []
    real_kmeans = cv2.kmeans
    monkeypatch.setattr(cv2, "kmeans", lambda data, *a: sizes.append(len(data)) or real_kmeans(data, *a))
    pieces = sampled(pts, 2)
    assert sizes == [int(((pts[:, 0] % 6 == 0) & (pts[:, 1] % 6 == 0)).sum())] and sizes[0] < 2 * detect_module.SPLIT_SAMPLE
    assert len(pieces) == 2 and sum(len(p) for p in pieces) == len(pts)
    assert {tuple(p) for piece in pieces for p in piece.tolist()} == {tuple(p) for p in pts.tolist()}
    assert abs(float(np.mean(pieces[0][:, 0]) - np.mean(pieces[1][:, 0]))) > 100  # cut across the long side

    table = {**{f"seat:{s}": [None, None] for s in (1, 3, 5, 7)}, "seat:9": [None, None, None], "burn": [None]}
    errors: dict[str, list[float]] = {"sampled": [], "every pixel": []}
    # Piles whole, as k-means gets them where no neck cuts them (regions.lobes): the split alone.
    monkeypatch.setattr(detect_module, "lobes", lambda mask, card_area: [mask])
    for seed in range(4):
        scene = render_table_scene(table, seed=seed)
        truth = [p.centre for p in scene.placements]
        for name, split in (("sampled", sampled), ("every pixel", every_pixel)):
            monkeypatch.setattr(detect_module, "_split", split)
            found = [f for f in Detector(card_height_px=130.0).detect(scene.frame) if not f.face_up]
            assert len(found) == 12
            errors[name] += [min(math.dist(f.centre, t) for t in truth) for f in found]
    assert np.mean(errors["sampled"]) <= np.mean(errors["every pixel"]) + 1.0
    assert np.median(errors["sampled"]) <= np.median(errors["every pixel"]) + 1.0


def test_DEAL_DECK_a_still_read_short_of_the_bar_is_named_only_where_three_passes_agree_and_none_reads_another():
    from dealer_pi.vision.recogniser import AGREED_PASSES, agreed

    # The surest of the passes' reads at that corner, short of 0.9 and unsure of its suit.
    top = dataclasses.replace(_top_corner("7s", 0.85), suit=0.87)
    again = [_top_corner("7s", c) for c in (0.85, 0.72, 0.6)]
    elsewhere = _foot_corner("Kd", 0.99)
    assert AGREED_PASSES == 3
    three = [[again[0], elsewhere], [again[1]], [again[2]], []]
    named = agreed(top, three, 0.9)
    assert (str(named.card), named.confidence, named.suit) == ("7s", 0.9, 0.9)
    # Two passes agreeing is not enough; nor three where a fourth reads another name there, or
    # where its pips doubt the name (its read carries none); nor a read under 0.7, nor one whose
    # own pips doubted it.
    assert agreed(top, three[:2] + [[], []], 0.9) is top
    assert agreed(top, three[:3] + [[_top_corner("7c", 0.55)]], 0.9) is top
    assert agreed(top, three[:3] + [[dataclasses.replace(_top_corner("7s", 0.6), best=None)]], 0.9) is top
    weak = _top_corner("7s", 0.65)
    assert agreed(weak, [[weak], [again[1]], [again[2]]], 0.9) is weak
    doubted = dataclasses.replace(top, best=None)
    assert agreed(doubted, three, 0.9) is doubted
    # One pass (a camera frame) never names a read this way, and a named read is left as it is.
    assert agreed(top, [again], 0.9) is top
    sure = _top_corner("7s", 0.95)
    assert agreed(sure, three, 0.9) is sure


def test_DEAL_DECK_a_still_read_that_another_pass_reads_as_a_misread_of_it_names_nothing_alone():
    from dealer_pi.vision.recogniser import GREY_ALONE_SHORT_BY, disputed

    # A drawn 10 of clubs with 6-pixel indices: triple size read Ts at 0.97, double size Tc at 0.81.
    ts = _top_corner("Ts", 0.97)
    passes = [[], [_top_corner("Tc", 0.81)], [ts]]
    held = disputed(ts, passes, 0.9)
    assert held.card is None and str(held.best) == "Ts"
    assert held.confidence == held.suit == 0.9 - GREY_ALONE_SHORT_BY  # with a sure other corner it may still name the card
    # A 6 read as a 9 of its suit is disputed too; a name no misread links to it is another card's
    # business (the agreement's rival rule), a read under AGREED_EACH is no dispute, and one pass
    # (a camera frame) disputes nothing.
    six = _top_corner("6h", 0.95)
    assert disputed(six, [[six], [_top_corner("9h", 0.6)]], 0.9).card is None
    assert disputed(ts, [[ts], [_top_corner("Kd", 0.9)]], 0.9) is ts
    assert disputed(ts, [[ts], [_top_corner("Tc", 0.45)]], 0.9) is ts
    assert disputed(ts, [[ts, _top_corner("Tc", 0.81)]], 0.9) is ts
    # Elsewhere in the picture a Tc is another card, not a dispute.
    assert disputed(ts, [[ts], [_foot_corner("Tc", 0.95)]], 0.9) is ts


def test_DEAL_DECK_a_still_read_as_a_six_that_another_pass_reads_as_the_five_of_its_suit_names_nothing_alone():
    from dealer_pi.vision.recogniser import disputed, passes_dispute

    # A held-out design's 5 of hearts, half covered, one corner in view: one pass read 6h at 0.93,
    # another 5h at 0.83, and the card was named the 6h (a false exposed-card alarm).
    six = _top_corner("6h", 0.93)
    held = disputed(six, [[six], [_top_corner("5h", 0.83)]], 0.9)
    assert held.card is None and str(held.best) == "6h"
    # Either way round, one suit only; a 5 and a 6 are no misread the camera's frames weigh.
    five = _top_corner("5s", 0.95)
    assert disputed(five, [[five], [_top_corner("6s", 0.7)]], 0.9).card is None
    assert disputed(six, [[six], [_top_corner("5d", 0.83)]], 0.9) is six
    assert disputed(six, [[six], [_top_corner("4h", 0.83)]], 0.9) is six
    assert passes_dispute(Card.parse("5c"), Card.parse("6c")) and not passes_dispute(Card.parse("5c"), Card.parse("5c"))
    # A real photo's 5h, read alike by three passes (0.96-0.99) and as a 6h by a fourth (0.58),
    # keeps its name; two passes alike against one, or three against two, do not outvote it.
    five_h = _top_corner("5h", 0.99)
    alike = [[five_h], [_top_corner("5h", 0.99)], [_top_corner("5h", 0.96)]]
    assert disputed(five_h, [*alike, [_top_corner("6h", 0.58)]], 0.9) is five_h
    assert disputed(five_h, [*alike[:2], [_top_corner("6h", 0.58)]], 0.9).card is None
    assert disputed(five_h, [*alike, [_top_corner("6h", 0.58)], [_top_corner("6h", 0.6)]], 0.9).card is None
    assert not misread_as(Card.parse("5h"), Card.parse("6h"))


def test_DEAL_DECK_a_half_covered_five_one_pass_reads_as_a_six_is_not_named_the_six() -> None:
    # Held-out still (eval_heldout.py, seed 2700, scene 18), the 600x650 at (100, 250), as JPEG: a
    # seat's face-up pair, a 2d over a 5h whose upper corner is covered. The passes read its lower
    # corner 6h at 0.93 and 5h at 0.83, and it was named the 6h: a card not in the hand.
    found = read_still("five-of-hearts-read-as-a-six-by-one-pass-still.jpg")
    assert Card.parse("6h") not in {f.card for f in found}
    five = [f for f in found if math.dist(f.centre, (279, 308)) < 40]
    assert [(f.face_up, f.card) for f in five] == [(True, None)], found  # found, face up, unnamed
    assert Card.parse("2d") in {f.card for f in found if math.dist(f.centre, (284, 267)) < 40}


def test_DEAL_DECK_a_dispute_at_one_corner_keeps_the_card_unnamed_though_its_other_corner_reads_it_alone():
    from dealer_pi.vision.recogniser import settled

    # A drawn 10 of clubs with 6-pixel indices in a 640x360 still (the triple-size check below, with
    # a reader built since): its top corner read Tc at 0.79 at double size and Ts at 0.89 at triple
    # size, and its foot Ts at 0.93 at triple size only. The merge kept the top's Ts; the foot alone
    # named the Ts (a false foul deck on the board), though a pass read the top as its misread.
    top_tc, top_ts, foot_ts = _top_corner("Tc", 0.79), _top_corner("Ts", 0.89), _foot_corner("Ts", 0.93)
    top_ts = dataclasses.replace(top_ts, card=None)
    reads = settled([top_ts, foot_ts], [[top_tc], [top_ts, foot_ts]], 0.9)
    (torn,) = Detector()._group_reads(reads)
    assert torn.card is None and torn.face_up
    assert {str(c) for c, _ in torn.torn} == {"Ts", "Tc"}
    assert [r.rival for r in reads] == [(Card.parse("Tc"), 0.79), None]  # the foot's own passes read no rival
    assert [r.agreeing for r in reads] == [1, 1]
    # Without a pass reading the misread, or with one too unsure to lean (under AGREED_EACH), or
    # with one pass alone (a camera frame), or where a second pass reads the foot alike, the foot
    # names its card.
    for passes in ([[top_ts, foot_ts]], [[dataclasses.replace(top_tc, confidence=0.45)], [top_ts, foot_ts]],
                   [[top_tc, top_ts, foot_ts]], [[top_tc, foot_ts], [top_ts, foot_ts]]):
        assert "Ts" in [str(f.card) for f in Detector()._group_reads(settled([top_ts, foot_ts], passes, 0.9))]


def test_DEAL_DECK_an_index_printed_a_millimetre_from_the_edge_is_read_on_felt() -> None:
    """Beside a white card the felt is darker than its neighbourhood, and the threshold takes a band
    of it round the card for ink. A tight design's index touches that band and was never read (the
    held-out printed deck lost most of its courts and a third of its numbers so). Ink of the felt's
    own colour is felt, in a camera stream (a still's table colour is only a guess): the index
    stands alone again."""
    rng = np.random.default_rng(3)
    cards = [Card.parse(c) for c in ("7c", "Qs", "4d", "9h", "Jc", "Ah")]
    placements = []
    for k, card in enumerate(cards):
        face, _ = render_face(card, FaceStyle())
        tight = np.ascontiguousarray(face[13:-13, 9:-9])  # the index a pixel or two from the edge
        hm = card_homography((120 + 200 * k, 200), 8.0 * k - 20, 150, (tight.shape[1], tight.shape[0]))
        placements.append(Placement(tight, hm, card, True))
    frame = compose(felt(1280, 400, rng), placements).frame
    camera = Detector(follow_scale=True)
    found = camera.detect(frame)
    assert len(found) == len(cards)
    assert {f.card for f in found} == set(cards)
    assert {f.card for f in camera.detect(frame)} == set(cards)  # and at the glyph size it then follows


def test_DEAL_BOARD_EXTRA_a_card_named_from_one_corner_of_a_small_index_is_drawn_at_the_cameras_card_height() -> None:
    """A card's outline from one corner is scaled by its index; a deck printing a smaller index had
    its cards drawn too small, and on a board of touching cards the strip each left over was taken
    for another face-up card (a false board card, a false "no burn" at the turn). The camera knows
    its cards' height: the outline is drawn at it, and the board is three cards where they lie."""
    height = 132.0
    cards = [Card.parse(c) for c in ("Kh", "7c", "Qs")]
    centres = [(300.0 + 92 * k, 200.0) for k in range(3)]  # edge to edge, as a dealt board lies
    placements = [Placement(render_face(c, FaceStyle(index_height=26))[0], card_homography(xy, 0.0, height), c, True)
                  for c, xy in zip(cards, centres)]
    frame = compose(felt(800, 400, np.random.default_rng(4)), placements).frame
    found = Detector(card_height_px=height, follow_scale=True).detect(frame)
    assert len(found) == 3, found
    assert all(any(math.dist(f.centre, xy) < 0.1 * height for f in found) for xy in centres)
    assert Card.parse("Kh") in {f.card for f in found}


def test_DEAL_BURN_an_eight_and_a_three_beside_it_read_as_an_eight_are_not_one_card_between_them() -> None:
    # A fresh clean run (vision_loop.py --deck knoll --seed 243, roberts table 8, frame 378): the
    # printed flop 5h, Kd, 8d and the turn 3d 15 pixels to the right of the 8d, whose lower index
    # the frame reads as an 8. The 8d's upper index and the 3d's lower one, 216 pixels apart, read
    # the same name, and by glyph size alone two corners may lie that far apart: one 8d between
    # the two cards. The turn was never seen landing (a false DEAL-BURN). The card's diagonal is
    # 163 pixels here: no card's corners lie that far apart.
    frame = cv2.imread(str(SIM_FRAMES / "board-knoll-eight-beside-a-three-read-as-an-eight.png"))
    # The frame's ink with the median, as in that run: without it the 3's index reads as a 3.
    found = sorted((f for f in camera_detector(13.0, median=True).detect(frame) if f.face_up), key=lambda f: f.centre[0])
    assert [str(f.card) for f in found] == ["5h", "Kd", "8d", "None"], found
    eight, three = found[2], found[3]
    assert abs(eight.centre[0] - 291) < 10 and abs(three.centre[0] - 402) < 10
    assert three.guess == Card.parse("3d")  # the closer look reads the 3


def test_DEAL_DECK_a_queen_whose_tail_runs_into_its_suit_is_named_in_a_still() -> None:
    # Held-out still (eval_heldout.py --seed 400, scene 0), cut: the held-out design's Qh, 6c and Qs
    # on the board, its Arial index drawn in Liberation Sans, whose Q swings its tail into the suit
    # below it. Rank and suit were one blob, and not one of 60 held-out queens was named. The Qh's
    # tail runs into the heart's lobe: only the wider opening gives it back to the ring.
    cut = cv2.imread(str(SIM_FRAMES / "still-knoll-queen-tail-into-spade.png"))
    named = {str(f.card): f.centre for f in still_detector().detect(cut) if f.face_up and f.card is not None}
    assert set(named) == {"Qh", "6c", "Qs"}, named  # and nothing named wrong
    assert math.dist(named["Qs"], (307, 120)) < 40 and math.dist(named["Qh"], (73, 121)) < 40


def test_DEAL_DECK_a_cut_queen_read_surest_as_a_queen_is_named_in_a_still() -> None:
    # Held-out still (eval_heldout.py --seed 100, scene 19; whole, as JPEG): the held-out design's
    # Qs on the board beside Th, Kc and 2c. Her tail runs into her spade, so her index is read from
    # the blob cut in two, where only a jack, a queen or no index may be read; the reader's surest
    # rank is the queen, but the share it gave the other ranks was taken away, not given back, and
    # she was left short of the bar.
    found = read_still("board-queen-read-surest-as-a-queen-still.jpg")
    named = {str(f.card): f.centre for f in found if f.card is not None}
    assert set(named) == {"Th", "Kc", "2c", "Qs", "3d", "4s", "5h"}, named  # and nothing named wrong
    assert math.dist(named["Qs"], (1125, 526)) < 40


def test_DEAL_DECK_a_queen_whose_waist_is_as_wide_as_her_ring_is_cut_and_named_in_a_still() -> None:
    # Held-out still (eval_heldout.py --seed 100, scene 2; whole, as JPEG): the held-out design's Qs
    # on the board, between 6s and the table's edge. Read at double size, her tail meets her spade
    # in a waist 0.6 of the ring's width across (two thin strokes), so the blob was not cut and she
    # was left unnamed; against the spade's solid body the waist is narrow.
    found = read_still("board-queen-cut-against-her-suit-still.jpg")
    named = {str(f.card): f.centre for f in found if f.card is not None}
    assert set(named) == {"Qh", "6d", "As", "6s", "Qs", "3c", "3d", "Kc", "9c", "Th", "8d"}, named  # nothing named wrong
    assert math.dist(named["Qs"], (1194, 540)) < 40


def test_DEAL_DECK_a_queen_printed_at_the_cards_edge_is_read_apart_from_the_felt_round_the_card() -> None:
    # Held-out still (eval_heldout.py --seed 200, scene 14; whole, as JPEG): the held-out design's
    # Qh on the board of a light wooden table. The design prints its index a pixel from the card's
    # edge; beside white stock the threshold inks a band of the table round the card, and the queen
    # joined it (with the card's edge) into a blob no glyph is the size of, so she was unnamed.
    found = read_still("board-queen-at-the-cards-edge-on-wood-still.jpg")
    named = {str(f.card): f.centre for f in found if f.card is not None}
    assert set(named) == {"Qh", "9c", "8s", "Kd", "9h", "4c", "8c", "Jc"}, named  # nothing named wrong
    assert math.dist(named["Qh"], (726, 540)) < 40


def test_DEAL_BURN_a_chip_on_a_pale_rack_is_no_face_down_card() -> None:
    # Held-out still (eval_heldout.py, seed 1200, scene 19; whole, as JPEG): a grey rack lying alone
    # with a red chip on its middle. The chip, framed by the pale rack as a back is by its margin,
    # was a stretch of back, and a part with a back is no rack: a face-down card, a burn too many
    # (DEAL-BURN). A stretch of back has straight edges; a chip is round.
    found = read_still("chip-on-a-pale-rack-still.jpg")
    down = [f.centre for f in found if not f.face_up]
    assert not [c for c in down if math.dist(c, (725, 325)) < 75], down  # the rack
    assert len(down) == 5  # the burn and two seats' pairs


def test_DEAL_HOLE_COUNT_felt_the_light_darkens_against_the_rail_is_no_face_down_card() -> None:
    # Held-out still (eval_heldout.py, seed 3800, scene 2; whole, as JPEG): blue felt, lit in the
    # middle and darker towards the rail, with one face-down card, a lone back left of the board.
    # The darker felt drifts off the middle's hue as a back in nearly the felt's colour does, and
    # a bare patch of it against the rail was a face-down card (DEAL-HOLE-COUNT: a hand too many).
    # Such a back holds print; the bare felt holds none.
    found = read_still("felt-darkened-by-the-light-against-the-rail-still.jpg")
    down = [f.centre for f in found if not f.face_up]
    assert len(down) == 1 and math.dist(down[0], (570, 405)) < 40, down


def test_DEAL_HOLE_COUNT_backs_of_the_felts_own_red_a_shade_lighter_are_face_down() -> None:
    # Held-out still (eval_heldout.py, seed 2300, scene 14; whole, as JPEG): pink rings on a ground
    # of the red felt's own hue, 16-20 Lab lightness above it: two seats' face-down pairs and the
    # burn card beside a face-up pair. Neither colour nor hue told the ground from the felt, and
    # the sparse rings are no dense print: one back of five was found (DEAL-HOLE-COUNT).
    found = read_still("pink-ring-backs-on-red-felt-still.jpg")
    down = [f.centre for f in found if not f.face_up]
    assert len(down) == 5, down
    assert sum(1 for c in down if math.dist(c, (390, 510)) < 80) == 2, down  # the left seat's pair
    assert sum(1 for c in down if math.dist(c, (1197, 260)) < 80) == 2, down  # the top right seat's
    assert sum(1 for c in down if math.dist(c, (567, 409)) < 40) == 1, down  # the burn
    assert {"3h", "5d", "6s", "9d", "As"} <= {str(f.card) for f in found if f.face_up}


def test_DEAL_HOLE_COUNT_chips_on_a_seats_pair_of_backs_are_no_face_up_card() -> None:
    # Held-out still (eval_heldout.py, seed 2300, scene 13; whole, as JPEG): a stack of two pale
    # grey chips on one card of a seat's face-down pair, on tan felt. Split in two, the pair's
    # piece under the chips showed their pale tops as a face's plain stock beside the other's
    # back: an unnamed face-up card (DEAL-HOLE-COUNT: a hand a card short, and an exposure).
    found = read_still("chips-on-a-seats-pair-of-backs-on-tan-felt-still.jpg")
    down = [f.centre for f in found if not f.face_up]
    assert sum(1 for c in down if math.dist(c, (735, 262)) < 80) == 2, down
    assert len(down) == 5, down
    assert not [f for f in found if f.face_up and math.dist(f.centre, (735, 262)) < 120]


def test_DEAL_HOLE_COUNT_white_chips_overlapping_on_a_seats_pair_are_no_face_up_card() -> None:
    # Held-out still (eval_heldout.py, seed 2300, scene 16), cut: two white chips, one half under
    # the other, on a seat's pair of grey backs. Their tops are no chips side by side (they
    # overlap), and the piece under them was an unnamed face beside a back.
    cut = cv2.imread(str(SIM_FRAMES / "white-chips-on-a-seats-pair-of-grey-backs.png"))
    found = Detector(card_height_px=150.0, follow_scale=True).detect(cut)
    assert len(found) == 2 and not [f for f in found if f.face_up], [(f.face_up, f.centre) for f in found]


def test_chips_on_a_pile_are_disks_and_a_faces_stock_is_not() -> None:
    one = np.zeros((120, 120), np.uint8)
    cv2.circle(one, (60, 60), 20, 255, -1)
    half_under = one.copy()
    cv2.circle(half_under, (84, 64), 20, 255, -1)
    corner = np.zeros((120, 120), np.uint8)
    cv2.rectangle(corner, (20, 20), (90, 70), 255, -1)  # a face's stock, a card's corner in it
    ell = corner.copy()
    ell[45:71, 55:91] = 0  # the stock left round a face's print, an L
    big = np.zeros((200, 200), np.uint8)
    cv2.circle(big, (100, 100), 60, 255, -1)  # wider than any chip beside a card 100 px wide
    assert chips.on_a_pile(one, 100.0) and chips.on_a_pile(half_under, 100.0)
    assert not chips.on_a_pile(corner, 100.0) and not chips.on_a_pile(ell, 100.0)
    assert not chips.on_a_pile(big, 100.0)


def test_DEAL_HOLE_COUNT_a_pair_piled_on_the_burn_with_two_margins_showing_is_three_cards() -> None:
    # Held-out still (eval_heldout.py, seed 2400, scene 2; whole, as JPEG): a seat's face-down pair
    # of checked backs lies on the burn card, a grey rack across the pair. Two stretches of back
    # framed by margin show, and they were the count, though the part has the area and the filled
    # hull of three piled cards: a card short (DEAL-HOLE-COUNT).
    found = read_still("rack-across-a-pair-piled-on-the-burn-still.jpg")
    down = [f.centre for f in found if not f.face_up]
    assert sum(1 for c in down if math.dist(c, (580, 340)) < 110) == 3, down  # the pair and the burn
    assert len(down) == 7, down


@pytest.mark.parametrize("name, down", [("dark-checked-burn-against-the-rail-still.jpg", 9),
                                         ("dark-dotted-burn-against-the-rail-still.jpg", 1)])
def test_DEAL_HOLE_COUNT_a_back_printed_in_the_rails_colour_against_the_rail_is_a_card(name: str, down: int) -> None:
    # Held-out stills (eval_heldout.py, seeds 4900 and 2300, scenes 13 and 15; whole, as JPEG): the
    # burn card, a chip rack across it touching the table's dark rail, so that the burn lies in the
    # rail's part. Its back is printed with checks or dots of nearly the rail's colour: taken off
    # with the rail, they left too little of the back to be a card (DEAL-HOLE-COUNT).
    found = read_still(name)
    at = [f.centre for f in found if not f.face_up]
    assert sum(1 for c in at if math.dist(c, (570, 405)) < 40) == 1, at  # the burn
    assert len(at) == down, at


def test_DEAL_BURN_a_burn_beside_a_rack_against_the_rail_on_a_dark_floor_is_a_card() -> None:
    # Held-out still (eval_heldout.py, seed 4500, scene 11; whole, as JPEG): the table in the
    # middle of a black floor, a chip rack from the rail to the burn card, which it touches. The
    # floor, the rail, the rack and the burn were one part, far bigger than any pile and no ring
    # (the floor fills it), left out whole: the burn went missing (DEAL-BURN).
    found = read_still("burn-by-a-rack-against-the-rail-on-a-dark-floor-still.jpg")
    at = [f.centre for f in found if not f.face_up]
    assert sum(1 for c in at if math.dist(c, (570, 405)) < 40) == 1, at  # the burn
    assert len(at) == 3, at  # and a seat's pair


def test_DEAL_HOLE_COUNT_an_unnamed_court_pair_beside_the_burn_is_two_faces_and_a_back() -> None:
    # Held-out still (eval_heldout.py, seed 800, scene 4), cut: a seat's face-up pair of court
    # cards (Jd under Kc) that no read names, with the blue burn card against it, on a wooden
    # table. Their pictures leave the part too little plain stock to be face up, so it was three
    # backs: an exposed pair the camera would not see. Split in three, two pieces show a face's
    # plain stock and one none, which the margins of three piled backs never do.
    cut = cv2.imread(str(SIM_FRAMES / "court-pair-beside-the-burn.png"))
    found = Detector(card_height_px=150.0, follow_scale=True).detect(cut)
    down = [f.centre for f in found if not f.face_up]
    up = [f.centre for f in found if f.face_up]
    assert len(down) == 1 and math.dist(down[0], (100, 215)) < 40, [(f.face_up, f.centre) for f in found]
    assert len(up) == 2 and all(math.dist(c, (140, 95)) < 60 for c in up), [(f.face_up, f.centre) for f in found]


def test_DEAL_BURN_a_framed_burn_against_an_unnamed_face_up_pair_is_face_down() -> None:
    # Held-out still (eval_heldout.py, seed 1100, scene 18; its top-left 1280x720, as JPEG): the
    # burn, a grey checked back framed in white, against a seat's face-up pair (Ks, 4s) that no
    # read names: one part, face up, split in two. The straight cut between the pieces left a
    # sliver of the king in the burn's piece, 0.205 of it plain stock, and the burn was a face-up
    # card: an exposed card where none lay, and the burn missing (DEAL-BURN).
    found = read_still("framed-burn-against-an-unnamed-face-up-pair.jpg")
    near = [f for f in found if math.dist(f.centre, (570, 405)) < 40]
    assert len(near) == 1 and not near[0].face_up, [(f.face_up, f.centre) for f in found]
    assert [f for f in found if f.face_up and math.dist(f.centre, (620, 290)) < 50]  # the pair


def test_DEAL_DECK_a_lattice_read_at_a_giants_size_names_no_card() -> None:
    # A later held-out still (eval_heldout.py, seed 2300, scene 4; whole, as JPEG at quality 85):
    # a seat's face-down pair of blue lattice backs read as a 4h at 1.00 with glyphs several times
    # the size of every named index in the picture: a second 4h beside the board's (a false
    # DEAL-DECK duplicate) and a face-down pair missing. A still knows no card's height, but its
    # named reads agree on one.
    found = read_still("lattice-backs-read-at-a-giants-size-still.jpg")
    fours = [f.centre for f in found if f.card == Card.parse("4h")]
    assert len(fours) == 1 and math.dist(fours[0], (843, 540)) < 20, fours  # the board's
    assert len([f for f in found if not f.face_up]) == 5  # the burn and two seats' pairs


def test_DEAL_DECK_a_name_read_off_the_cards_is_no_second_four() -> None:
    # Held-out still 4000/12, cut to 600x420 at (300, 300): the fine stripes of a blue back, between
    # the burn and a seat's pair, read as a 4h whose outline lay mostly on the felt: a second
    # 4h beside the board's (a foul deck, DEAL-DECK), and the pair one back short.
    found = read_still("striped-backs-read-as-a-four-beside-them.png")
    fours = [f.centre for f in found if f.card == Card.parse("4h")]
    assert len(fours) == 1 and math.dist(fours[0], (485, 240)) < 20, fours  # the board's
    assert len([f for f in found if not f.face_up]) == 3  # the burn and the seat's pair


def test_DEAL_HOLE_COUNT_slivers_no_decks_index_allows_do_not_set_a_cards_area() -> None:
    # Held-out still 4800/1 (a tan felt, no card read at both corners): the card-shaped regions
    # were two slivers of 165 and 298 pixels and the lone burn, 16,144; the indices said 12,018.
    # Their middle, a sliver, became a card's area: the burn and a seat's pair of backs went
    # uncounted and fourteen specks counted as backs (DEAL-HOLE-COUNT).
    assert lone_card_area([165.0, 298.0, 16144.0], 12018.0) == 16144.0
    # Cards the indices allow still set it, the smaller middle of them (two cards edge to edge
    # look like one twice as big), and a lone card far from the guess is not trusted.
    assert lone_card_area([15000.0, 16000.0, 31000.0, 200.0], 12018.0) == 16000.0
    assert lone_card_area([30000.0], 12018.0) == 12018.0
    assert lone_card_area([165.0, 298.0], 0.0) == 165.0  # no guess to weigh them by
