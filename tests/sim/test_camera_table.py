"""The simulated table through its overhead camera and the real vision pipeline: the camera's
observations, not the simulator's, reach the table; the simulator's only check them."""

from __future__ import annotations

import dataclasses

import pytest

from dealer_pi.engine.table_session import TableSession
from dealer_pi.runtime.session_replay import events_of, hand_summaries
from dealer_pi.sim import Fault, Simulator
from dealer_pi.sim.camera_table import CameraTable, score_run
from dealer_pi.sim.check import play
from dealer_pi.sim.table import SimTable


def twin(table: SimTable) -> SimTable:
    return dataclasses.replace(table, injections=[], unseen={}, played=0)


def test_a_clean_hand_through_the_camera_ends_as_the_simulators_own_record_says() -> None:
    table = Simulator(seed=3, players=(3, 3), hands_per_table=1).table()
    truth = TableSession(table.setup)
    for obs in twin(table).observations():
        truth.feed(obs)
    camera = TableSession(table.setup)
    run = CameraTable(seed=1).play(table, camera)
    # Cards landing face down in the seats, burns, the board, hands turned up at showdown: all seen
    # (a board card the reader leaves unnamed is named by the shoe).
    assert [d for d in run.disagreements if not d.what.endswith("was not named")] == []
    assert run.alerts == [] and run.refused == []
    hands = hand_summaries(events_of(camera))
    assert hands == hand_summaries(events_of(truth)) and len(hands) == 1 and len(hands[0]["board"]) == 5
    assert run.frames > 30  # the camera confirms each card over several frames


def table_with(fault: Fault) -> tuple[SimTable, int]:
    """The first small table whose first hand gets ``fault``, and the observation that shows it
    (the misdeal lock needs three players or more)."""
    for players in ((2, 3), (3, 4)):
        for seed in range(200):
            table = Simulator(seed=seed, players=players, hands_per_table=1, faults=[fault], rate=1.0).table()
            probe = twin(table)
            play(probe)
            if probe.injections:
                return table, probe.injections[0].at
    raise AssertionError(f"no table made {fault.value}")


@pytest.mark.parametrize("fault, rule", [
    (Fault.HOLE_EXPOSED, "DEAL-HOLE-EXPOSED"),  # a hole card lands face up: read at its seat
    (Fault.MISSING_CARD, "DEAL-MISSING-CARD"),  # a card slips out by the shoe and off the table
    (Fault.MISSED_LANDING, "DEAL-ORDER"),  # a hole card lands under a player's hand: never seen
    (Fault.EXTRA_HOLE, "DEAL-HOLE-COUNT"),  # a third card dropped on a face-down pair: counted by its backs
    (Fault.MISDEAL_LOCK, "DEAL-HOLE-COUNT"),  # the same after a fold, whose cards reach the muck late
])
def test_a_dealing_fault_made_in_front_of_the_camera_is_caught_with_its_rule(fault: Fault, rule: str) -> None:
    table, at = table_with(fault)
    run = CameraTable(seed=1).play(table, until=at + 3)
    score = score_run(run)
    caught = [(j.fault, j.rule, frames) for j, frames in score.caught]
    assert [(f, r) for f, r, _ in caught] == [(fault, rule)], (score.missed, score.false_alarms, run.disagreements)
    assert score.false_alarms == []
    assert 0 <= caught[0][2] <= 12  # frames from the fault to its alert


def test_POT_CARDS_SPEAK_a_showdown_card_the_camera_missed_is_paid_as_the_dealer_names_the_winners() -> None:
    from dealer_pi.engine.observations import CardSeen, DealerDeclaration, Declaration
    from dealer_pi.engine.state import Phase
    from dealer_pi.sim.camera_table import winners_unread

    for seed in range(40):  # the first table whose first hand is settled by cards shown at seats
        table = Simulator(seed=seed, profile="standard", players=(3, 4), hands_per_table=2).table()
        obs = list(table.observations())
        end = next(i for i, o in enumerate(obs) if isinstance(o, DealerDeclaration) and o.declare is Declaration.NEW_HAND)
        shown = [i for i, o in enumerate(obs[:end]) if isinstance(o, CardSeen) and o.face_up and o.zone.kind == "seat"]
        if shown:
            break
    else:
        pytest.fail("no simulated hand went to a showdown")
    truth, camera = TableSession(table.setup), TableSession(table.setup)
    for i, o in enumerate(obs[:end]):
        truth.feed(o)
        if i != shown[-1]:  # the camera never read the last card tabled
            camera.feed(o)
    assert camera.hand.phase is Phase.SHOWDOWN and truth.hand.is_complete
    named = winners_unread(camera, truth)
    assert named and [w.pot for w in named] == sorted({a.pot for a in truth.hand.awards})
    for w in named:
        camera.feed(w)
    assert camera.hand.is_complete
    assert camera.hand.final_stacks() == truth.hand.final_stacks()  # paid as the cards would have paid it
    assert winners_unread(camera, truth) == []  # nothing more to name
    camera.feed(obs[end])  # and the next hand can start


def test_the_overhead_camera_films_a_printed_deck_in_place_of_the_drawn_one() -> None:
    """A printed design's faces (``faces``, as ``benchmarks/vision_loop.py --deck`` gives them) are
    what the camera films where those cards lie face up; a card face down still shows the back."""
    import numpy as np

    from dealer_pi.engine.cards import Card
    from dealer_pi.sim.felt import Felt
    from dealer_pi.sim.overhead import OverheadCamera, card_spot

    ace = Card.parse("Ah")
    blue = np.zeros((90, 64, 3), np.uint8)
    blue[:] = (200, 40, 20)  # BGR: a face printed all blue, at its own size
    felt = Felt(seed=2)
    up = felt.place("board", ace, face_up=True)
    down = felt.place("seat:3", Card.parse("Kd"), face_up=False)
    printed = OverheadCamera(seed=1, faces={ace: blue})
    drawn = OverheadCamera(seed=1)

    def colour_at(camera: OverheadCamera, card: object) -> np.ndarray:
        x, y, _ = card_spot(card)  # type: ignore[arg-type]
        u, v = (int(round(p)) for p in camera.to_image(x, y))
        return camera.frame(felt, 0)[v - 5 : v + 6, u - 5 : u + 6].reshape(-1, 3).mean(axis=0)

    b, g, r = colour_at(printed, up)
    assert b > 150 and g < 90 and r < 70
    b, g, r = colour_at(drawn, up)
    assert r > 150 and b < 90  # the drawn ace's big red pip
    assert np.abs(colour_at(printed, down) - colour_at(drawn, down)).max() < 12  # the same back


def test_a_simulated_venue_enrols_its_deck_from_the_cameras_picture_of_each_card(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``enrolled_camera_section``: each card filmed alone (its own picture, not the first card's
    again), enrolled as ``dealer-pi vision enrol`` does, and the camera settings point at the file."""
    import numpy as np

    from dealer_pi.engine.cards import Card
    from dealer_pi.sim.camera_table import enrolled_camera_section
    from dealer_pi.vision.faces import FaceStyle, render_face
    from dealer_pi.vision.recogniser import Enrolment
    from dealer_pi.vision.sources import read_image

    cards = [Card.parse(c) for c in ("2c", "9h", "Kd")]
    faces = {c: render_face(c, FaceStyle(pip=50))[0] for c in cards}
    section, problems = enrolled_camera_section(faces, tmp_path)
    assert problems == []
    pictures = [read_image(tmp_path / "pictures" / f"{c}.png") for c in cards]
    # Each picture its own card: hundreds of pixels where one card's print is and the other's is not.
    assert all((np.abs(a.astype(int) - b).max(axis=2) > 60).sum() > 300 for a, b in zip(pictures, pictures[1:]))
    enrolment = Enrolment.load(section.enrolment_file)
    assert {c.index for c in cards} <= set(enrolment.labels.tolist())
    assert CameraTable(section, seed=0).pipeline.detector.recogniser.enrolled
    # The same, asked of the camera table itself (the camera-loop benchmark's --enrol).
    table = CameraTable(seed=0, faces=faces, enrol=True)
    assert table.pipeline.detector.recogniser.enrolled and table.enrol_problems == []
    with pytest.raises(ValueError, match="faces"):
        CameraTable(seed=0, enrol=True)


def test_the_tables_markers_are_no_cards_and_take_none_of_the_closer_looks() -> None:
    from dealer_pi.engine.cards import Card
    from dealer_pi.sim.felt import Felt
    from dealer_pi.vision.closer import RELOOK_FRAMES
    from dealer_pi.vision.detect import Detector

    # A marker's white square with its print reads as an unnamed face-up card: the four of them
    # took a closer look each on the first frames, and again every few frames, from the looks a
    # frame can take for the cards that land.
    table = CameraTable(seed=0)
    felt = Felt(seed=0)
    felt.place("board", Card.parse("Kd"), face_up=True)
    frames = [table.camera.frame(felt, n) for n in range(RELOOK_FRAMES + 2)]
    unaware = Detector(card_height_px=table.pipeline.detector.card_height_px, follow_scale=True)
    assert sum(f.face_up and f.card is None for f in unaware.detect(frames[0])) == 4
    for n, frame in enumerate(frames):
        table.pipeline.process(n * 500, frame)  # the first frame calibrates from the markers
        assert [str(f.card) for f in table.pipeline.last_cards] == ["Kd"], table.pipeline.last_cards
    closer = table.pipeline.detector.closer
    assert closer is not None and closer.looked == 0
    table.close()
