"""Rendered frames through the real pipeline: one card, one CardSeen; hands and flicker, nothing."""

from __future__ import annotations

import cv2
import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import CardLeft, CardSeen, Zone
from dealer_pi.vision.detect import Detector
from dealer_pi.vision.pipeline import PixelZones, VisionPipeline
from dealer_pi.vision.recogniser import Recogniser
from dealer_pi.vision.render import render_table_frame
from dealer_pi.vision.tracker import CardTracker

CENTRES = {"board": (420.0, 300.0), "seat:1": (820.0, 300.0), "seat:2": (620.0, 560.0), "seat:3": (220.0, 560.0)}
AH, KD = Card.parse("Ah"), Card.parse("Kd")


def frame(cards: dict, n: int) -> np.ndarray:
    # A new seed every frame: fresh sensor noise, light and a little jitter, as a real camera gives.
    return render_table_frame(cards, seed=1000 + n, zone_centres=CENTRES, card_height=150)


def with_hand(img: np.ndarray, centre: tuple[float, float]) -> np.ndarray:
    out = img.copy()
    cv2.ellipse(out, (int(centre[0]) + 30, int(centre[1])), (110, 70), 20, 0, 360, (90, 130, 200), -1)
    return out


def run(pipe: VisionPipeline, frames: list[np.ndarray]) -> list:
    out = []
    for n, f in enumerate(frames):
        out.extend(pipe.process(n * 66, f))
    return out


def make_pipeline(min_confidence: float = 0.8) -> VisionPipeline:
    return VisionPipeline(Detector(follow_scale=True), PixelZones(CENTRES, 120, 120), CardTracker(confirm_frames=3, leave_frames=4, min_confidence=min_confidence))


def test_one_card_one_observation_and_hands_make_no_events():
    pipe = make_pipeline()
    both = {"board": [AH], "seat:1": [KD]}
    seq = [frame({}, 0), frame({}, 1)]
    seq += [frame(both, n) for n in range(2, 8)]
    seq += [with_hand(frame(both, n), CENTRES["board"]) for n in range(8, 13)]  # a hand over the Ah
    seq += [frame(both, n) for n in range(13, 16)]
    events = run(pipe, seq)
    seen = [e for e in events if isinstance(e, CardSeen)]
    assert sorted((str(e.zone), str(e.card)) for e in seen) == [("board", "Ah"), ("seat:1", "Kd")]
    assert all(e.face_up and e.source == "camera" and e.confidence >= 0.8 for e in seen)
    assert not [e for e in events if isinstance(e, CardLeft)]


def test_card_leaving_reported_once_and_flicker_ignored():
    pipe = make_pipeline()
    both = {"board": [AH], "seat:1": [KD]}
    seq = [frame(both, n) for n in range(4)]
    seq += [frame({"board": [AH], "seat:1": [KD], "seat:2": [Card.parse("5c")]}, 4)]  # one frame only
    seq += [frame({"board": [AH]}, n) for n in range(5, 12)]
    events = run(pipe, seq)
    left = [e for e in events if isinstance(e, CardLeft)]
    assert [(str(e.zone), str(e.card)) for e in left] == [("seat:1", "Kd")]
    assert not [e for e in events if isinstance(e, CardSeen) and e.zone == Zone.parse("seat:2")]
    assert len([e for e in events if isinstance(e, CardSeen)]) == 2


def test_face_down_card_and_low_confidence_gives_unknown():
    pipe = make_pipeline()
    events = run(pipe, [frame({"seat:3": [None]}, n) for n in range(4)])
    assert [(str(e.zone), e.face_up, e.card) for e in events] == [("seat:3", False, None)]
    # With a confidence bar no read can reach, the card is reported but not named.
    strict = VisionPipeline(
        Detector(Recogniser(min_confidence=1.01)),
        PixelZones(CENTRES, 120, 120),
        CardTracker(confirm_frames=3, min_confidence=1.01),
    )
    # It waits a few frames for a confident name, then reports the card unnamed, once.
    events = run(strict, [frame({"board": [AH]}, n) for n in range(8)])
    assert [(str(e.zone), e.face_up, e.card) for e in events] == [("board", True, None)]
    assert events[0].guess == AH  # what its reads leaned to, for the monitor to weigh against the shoe


def found(card, face_up=True, conf=0.97, zone="seat:2", centre=(300.0, 300.0)):
    from dealer_pi.vision.detect import CardFound

    x, y = centre
    return CardFound(card, face_up, centre, ((x - 45, y - 65), (x + 45, y - 65), (x + 45, y + 65), (x - 45, y + 65)), conf, zone)


def test_card_turned_face_up_in_place_is_news_and_votes_decide_identity():
    t = CardTracker(confirm_frames=3, leave_frames=3)
    events = []
    for n in range(3):
        events += t.update(n * 66, [found(None, face_up=False)])
    for n in range(3, 10):
        # Shown at showdown; one frame misreads it, the votes keep the right card.
        card = Card.parse("9h") if n == 4 else AH
        events += t.update(n * 66, [found(card)])
    kinds = [(type(e).__name__, e.face_up, str(e.card)) for e in events]
    assert kinds == [("CardSeen", False, "None"), ("CardSeen", True, "Ah")]


def test_pot_and_unzoned_cards_make_no_events_and_chips_over_a_card_hold_it():
    t = CardTracker(confirm_frames=2, leave_frames=2)
    assert t.update(0, [found(AH, zone="pot"), found(KD, zone=None)]) == []
    assert t.update(66, [found(AH, zone="pot"), found(KD, zone=None)]) == []
    events = t.update(132, [found(AH)]) + t.update(198, [found(AH)])
    assert len(events) == 1
    # Something covers the card's place for many frames: held, not left.
    for n in range(10):
        assert t.update(264 + n * 66, [], covered=lambda c, s: True) == []
    left = t.update(1000, []) + t.update(1066, [])
    assert [type(e).__name__ for e in left] == ["CardLeft"] and str(left[0].card) == "Ah"


def test_DEAL_MISSING_CARD_a_card_lost_at_the_shoe_is_reported_leaving():
    t = CardTracker(confirm_frames=2, leave_frames=2)
    lost = [found(None, face_up=False, zone="shoe")]
    events = t.update(0, lost) + t.update(66, lost) + t.update(132, []) + t.update(198, [])
    assert [(type(e).__name__, str(e.zone)) for e in events] == [("CardSeen", "shoe"), ("CardLeft", "shoe")]


def test_DEAL_FACEUP_IN_DECK_a_card_shown_at_the_shoe_goes_back_to_the_deck_without_a_loss():
    t = CardTracker(confirm_frames=2, leave_frames=2)
    shown = [found(AH, zone="shoe")]
    events = t.update(0, shown) + t.update(66, shown) + t.update(132, []) + t.update(198, []) + t.update(264, [])
    assert [(type(e).__name__, str(e.zone), e.face_up) for e in events] == [("CardSeen", "shoe", True)]


def test_a_card_not_yet_reported_must_show_itself_even_where_something_covers_the_felt():
    """A face-down pair split two ways frame by frame (one split in three frames) over a place that is
    not bare felt: the odd split is dropped, not held and reported as a third card."""
    t = CardTracker(confirm_frames=3, leave_frames=3)
    pair = [found(None, False, centre=(300.0, 300.0)), found(None, False, centre=(300.0, 360.0))]
    odd = [found(None, False, centre=(330.0, 330.0)), found(None, False, centre=(262.0, 328.0))]
    events = []
    for n in range(12):
        events += t.update(n * 66, odd if n % 3 == 1 else pair, covered=lambda c, s: True)
    assert [(type(e).__name__, str(e.zone)) for e in events] == [("CardSeen", "seat:2")] * 2


def test_a_card_first_seen_half_hidden_keeps_its_track_when_seen_whole():
    from dealer_pi.vision.detect import CardFound

    t = CardTracker(confirm_frames=2, leave_frames=3)
    half = CardFound(None, False, (300.0, 300.0), ((270, 285), (330, 285), (330, 315), (270, 315)), 0.8, "seat:2")
    events = t.update(0, [half]) + t.update(66, [half])  # reported while the dealer's hand still covers half
    for n in range(2, 8):  # the hand has gone: the whole card
        events += t.update(n * 66, [found(None, False)])
    for n in range(8, 14):  # a second card lands over it: the pair is split a little off the first card's centre
        events += t.update(n * 66, [found(None, False, centre=(300.0, 332.0)), found(None, False, centre=(300.0, 268.0))],
                           covered=lambda c, s: True)
    assert [(type(e).__name__, e.face_up) for e in events] == [("CardSeen", False)] * 2


def test_a_card_reported_unnamed_is_not_reported_again_when_named_later():
    """A second report of one card would be taken for the landing of the next card the shoe deals."""
    t = CardTracker(confirm_frames=2, leave_frames=2)
    events = []
    for n in range(4):
        events += t.update(n * 66, [found(None)])  # no confident name: reported unnamed after 4 frames
    for n in range(4, 16):
        events += t.update(n * 66, [found(AH)])  # the votes come to name it
    events += t.update(1100, []) + t.update(1166, [])
    assert [(type(e).__name__, str(e.card)) for e in events] == [("CardSeen", "None"), ("CardLeft", "Ah")]


def test_DEAL_HOLE_COUNT_a_face_down_pair_cut_two_ways_in_turn_stays_two_cards():
    # Measured on the simulated camera: one pair at a seat, split into two cards along one axis in
    # one frame and along the other in the next. Each cut must not become a card of its own.
    t = CardTracker(confirm_frames=3, leave_frames=5)
    cuts = [((1712.0, 434.0), (1718.0, 511.0)), ((1678.0, 475.0), (1750.0, 469.0))]
    events = []
    for n in range(24):
        a, b = cuts[0] if n < 6 else cuts[n % 2]
        events += t.update(n * 500, [found(None, False, zone="seat:2", centre=a), found(None, False, zone="seat:2", centre=b)])
    assert [(type(e).__name__, e.face_up) for e in events] == [("CardSeen", False), ("CardSeen", False)]


def test_DEAL_HOLE_COUNT_a_second_card_landing_beside_the_first_is_still_a_card_more():
    t = CardTracker(confirm_frames=3, leave_frames=5)
    first = found(None, False, zone="seat:2", centre=(300.0, 300.0))
    second = found(None, False, zone="seat:2", centre=(340.0, 310.0))
    events = []
    for n in range(5):
        events += t.update(n * 500, [first])
    for n in range(5, 12):
        events += t.update(n * 500, [first, second])
    assert [(type(e).__name__, e.face_up) for e in events] == [("CardSeen", False), ("CardSeen", False)]


def test_DEAL_DECK_a_name_another_card_on_the_table_already_carries_is_withheld():
    # A king of clubs shown at a seat, read as the king of spades that lies on the board: reported
    # as a Ks it raised "the deck may be foul" on a clean hand and the engine refused the card.
    t = CardTracker(confirm_frames=2, leave_frames=2)
    ks, kc = Card.parse("Ks"), Card.parse("Kc")
    board = found(ks, zone="board", centre=(300.0, 100.0))
    events = []
    for n in range(3):
        events += t.update(n * 66, [board])
    for n in range(3, 12):
        events += t.update(n * 66, [board, found(ks, zone="seat:2", centre=(300.0, 400.0))])
    assert [(type(e).__name__, str(e.zone), str(e.card)) for e in events] == [
        ("CardSeen", "board", "Ks"), ("CardSeen", "seat:2", "None")]
    # Once the board card has gone, a name is free again (the next hand's cards).
    for n in range(12, 16):
        events += t.update(n * 66, [])
    for n in range(16, 20):
        events += t.update(n * 66, [found(kc, zone="seat:3", centre=(600.0, 400.0)), found(ks, zone="board", centre=(300.0, 100.0))])
    assert [(str(e.zone), str(e.card)) for e in events[-2:]] == [("seat:3", "Kc"), ("board", "Ks")]


def guessed(card, guess, face_up=True, zone="seat:2", centre=(300.0, 300.0)):
    import dataclasses

    return dataclasses.replace(found(card, face_up=face_up, conf=0.87, zone=zone, centre=centre), guess=guess)


def test_DEAL_PLAYER_EXPOSED_a_card_turned_up_that_no_frame_names_carries_the_guess_its_frames_agree_on():
    # Seed 13 of the camera loop: a jack of spades turned up at a seat, read Js at 0.87-0.88 in
    # every frame, under the bar. It is reported unnamed, with Js as its guess for the monitor.
    js, jc = Card.parse("Js"), Card.parse("Jc")

    def turned(faces: list) -> list:
        t = CardTracker(confirm_frames=3, leave_frames=3)
        events = []
        for n, f in enumerate([found(None, face_up=False)] * 3 + faces):
            events += t.update(n * 66, [f])
        return [(e.face_up, e.card, e.guess) for e in events if isinstance(e, CardSeen)]

    assert turned([guessed(None, js)] * 7) == [(False, None, None), (True, None, js)]
    # Frames that lean two ways, or mostly nowhere, give no guess.
    assert turned([guessed(None, js if n % 2 else jc) for n in range(7)]) == [(False, None, None), (True, None, None)]
    assert turned([guessed(None, js)] * 2 + [guessed(None, None)] * 5) == [(False, None, None), (True, None, None)]
    # A guess another card on the table already carries is no guess.
    t = CardTracker(confirm_frames=3, leave_frames=3)
    board = found(js, zone="board", centre=(300.0, 100.0))
    events = []
    for n in range(10):
        events += t.update(n * 66, [board, guessed(None, js, centre=(300.0, 400.0))])
    assert [(str(e.zone), e.card, e.guess) for e in events] == [("board", js, None), ("seat:2", None, None)]


def test_DEAL_DECK_a_card_turned_up_counts_the_frames_that_could_not_name_it_against_a_name_one_frame_gave():
    # Seed 29 of the camera loop, frames 3378-3380: a jack of clubs turned up at a seat, half
    # under the next card, leaned to Js in two frames and was named Js at 0.97 in the one between.
    # The frames seen while it turned over counted for the name but not against it, and it was
    # reported Js at 1.0: at a table whose shoe names every card, a false alarm.
    js = Card.parse("Js")
    t = CardTracker(confirm_frames=3, leave_frames=3)
    faces = [found(None, face_up=False)] * 3 + [guessed(None, js), found(js, conf=0.97), guessed(None, js)] + [found(None, conf=0.968)] * 4
    events = []
    for n, f in enumerate(faces):
        events += t.update(n * 66, [f])
    assert [(e.face_up, e.card) for e in events if isinstance(e, CardSeen)] == [(False, None), (True, None)]
    # The same frames with the card named in two of the three: named, as before.
    t = CardTracker(confirm_frames=3, leave_frames=3)
    events = []
    for n, f in enumerate([found(None, face_up=False)] * 3 + [found(js), found(js), guessed(None, js)] + [found(js)] * 4):
        events += t.update(n * 66, [f])
    assert [(e.face_up, e.card) for e in events if isinstance(e, CardSeen)] == [(False, None), (True, js)]


def test_DEAL_DECK_a_name_some_frames_read_in_the_other_suit_of_its_colour_is_not_reported():
    # Seed 15 of the camera loop: a queen of clubs on the board read Qs at 0.953 in two frames
    # of three and leaning to Qc at 0.815 in the third. Reported Qs at its fifth frame, she raised
    # "the shoe read Qc but the camera saw Qs" on a clean hand.
    import dataclasses

    qs, qc = Card.parse("Qs"), Card.parse("Qc")

    def seen(third) -> list:
        t = CardTracker(confirm_frames=3, leave_frames=3, min_confidence=0.8)
        events = []
        for n in range(9):
            f = found(qs, conf=0.953, zone="board") if n % 3 != 2 else dataclasses.replace(found(None, conf=0.815, zone="board"), guess=third)
            events += t.update(n * 66, [f])
        return [(e.card, e.guess) for e in events if isinstance(e, CardSeen)]

    assert seen(qc) == [(None, qc)]  # the disputed name waits its six frames, and is not sure enough
    assert seen(None) == [(qs, None)]  # frames that lean nowhere: named, as before
    assert seen(Card.parse("4d")) == [(qs, None)]  # a name no misread of the Qs makes does not dispute it


def test_DEAL_DECK_a_frame_torn_between_two_suits_stands_against_the_name_the_frames_round_it_give():
    # Seed 28 of the camera loop (400 clean hands, frames 20816-20819): a drawn 10 of clubs on the
    # board, its lower club read as a spade at 0.983. Named Ts where the upper corner leaned Ts too,
    # unnamed (torn between Ts and Tc at 0.899) where it leaned Tc. The torn frames counted only as
    # unnamed, and the card was reported Ts at 0.855: "the shoe read Tc but the camera saw Ts".
    import dataclasses

    ts, tc = Card.parse("Ts"), Card.parse("Tc")
    torn = dataclasses.replace(found(None, conf=0.983, zone="board"), torn=((ts, 0.983), (tc, 0.899)))

    def seen(frames: list) -> list:
        t = CardTracker(confirm_frames=3, leave_frames=3, min_confidence=0.8)
        events = []
        for n, f in enumerate(frames):
            events += t.update(n * 500, [f])
        return [(e.card, e.guess) for e in events if isinstance(e, CardSeen)]

    named = found(ts, conf=0.983, zone="board")
    assert seen([named, named, torn, named, named, torn, named, named, torn]) == [(None, None)]
    # Torn in its first frame only: the eight named frames settle it, once it has waited its six.
    assert seen([torn] + [named] * 8) == [(ts, None)]
    # Frames torn with no frame naming either: unnamed, and no guess between the two names.
    assert seen([torn] * 7) == [(None, None)]


def test_DEAL_BURN_a_pile_of_four_cut_three_ways_in_turn_is_four_cards():
    """Measured on the simulated camera (seed 19): two folded hands in the muck, the four backs cut
    three ways in turn from frame to frame. One cut put a card where no track of the others was, and
    that track was reported as a fifth muck card, which the monitor took for a second burn."""
    from dealer_pi.vision.detect import CardFound

    def cut(*quads: tuple[tuple[int, int], ...]) -> list[CardFound]:
        return [CardFound(None, False, (sum(x for x, _ in q) / 4, sum(y for _, y in q) / 4),
                          tuple((float(x), float(y)) for x, y in q), 0.9, "muck") for q in quads]

    folded = cut(((1216, 332), (1098, 307), (1115, 229), (1232, 254)), ((1244, 253), (1117, 253), (1117, 165), (1244, 165)))
    a = cut(((1220, 242), (1117, 242), (1117, 165), (1220, 165)), ((1281, 278), (1194, 231), (1225, 174), (1312, 221)),
            ((1188, 320), (1109, 320), (1109, 231), (1188, 231)), ((1189, 312), (1186, 230), (1278, 226), (1281, 308)))
    b = cut(((1265, 319), (1192, 289), (1234, 187), (1307, 217)), ((1120, 335), (1102, 254), (1202, 232), (1220, 313)),
            ((1221, 265), (1146, 218), (1189, 149), (1264, 196)), ((1178, 250), (1117, 250), (1117, 165), (1178, 165)))
    c = cut(((1186, 245), (1117, 245), (1117, 165), (1186, 165)), ((1296, 300), (1206, 300), (1206, 205), (1296, 205)),
            ((1116, 330), (1104, 248), (1205, 234), (1217, 316)), ((1219, 268), (1149, 212), (1201, 147), (1271, 204)))
    t = CardTracker(confirm_frames=3, leave_frames=5)
    frames = [folded] * 4 + [a, b, a, a, b, c, c, b, c, a, b, a, a, b, c, c, b, c] * 3
    events = []
    for n, dets in enumerate(frames):
        events += t.update(n * 66, dets, covered=lambda c, s: True)  # the pile lies under every track
    assert [(type(e).__name__, str(e.zone)) for e in events] == [("CardSeen", "muck")] * 4


def test_DEAL_BURN_a_card_more_on_a_pile_cut_anew_is_one_card_more():
    """The count still grows when a card joins the pile, however the pile is cut."""
    t = CardTracker(confirm_frames=3, leave_frames=5)
    two = [found(None, False, zone="burn", centre=(300.0, 300.0)), found(None, False, zone="burn", centre=(330.0, 310.0))]
    three = [found(None, False, zone="burn", centre=(290.0, 290.0)), found(None, False, zone="burn", centre=(420.0, 300.0)),
             found(None, False, zone="burn", centre=(350.0, 330.0))]
    events = []
    for n in range(6):
        events += t.update(n * 66, two, covered=lambda c, s: True)
    for n in range(6, 16):
        events += t.update(n * 66, three, covered=lambda c, s: True)
    assert [(type(e).__name__, str(e.zone)) for e in events] == [("CardSeen", "burn")] * 3
