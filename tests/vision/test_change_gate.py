"""A still table is not read again in every frame, and nothing the camera reports changes for it.

Frames come from the simulated overhead camera (sensor noise, mains flicker) through the real
pipeline that ``pipeline_from_config`` builds, markers and all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.sim.camera_table import SEATS, sim_camera_section
from dealer_pi.sim.felt import Felt
from dealer_pi.sim.overhead import OverheadCamera
from dealer_pi.vision.change import FRESH, REFRESH, ChangeGate, touches
from dealer_pi.vision.pipeline import VisionPipeline, pipeline_from_config


def table() -> Felt:
    felt = Felt(seed=3)
    for code in ("Ah", "Kd", "7c"):
        felt.place("board", Card.parse(code), True)
    felt.place("seat:2", None, False)
    felt.place("seat:2", None, False)
    return felt


def test_a_still_table_is_read_after_each_change_and_once_a_refresh_while_it_stays_still() -> None:
    camera, felt, gate = OverheadCamera(seed=3), table(), ChangeGate()
    read = [gate.must_read(camera.frame(felt, n)) for n in range(2 * REFRESH + FRESH)]
    # the first frames of the scene in full, then one in every REFRESH frames
    assert read[:FRESH] == [True] * FRESH
    assert read[FRESH:] == ([False] * (REFRESH - 1) + [True]) * 2
    assert gate.reused == 2 * (REFRESH - 1)


def test_a_card_slid_by_half_a_millimetre_is_a_change() -> None:
    felt, gate = table(), ChangeGate()
    for n in range(FRESH + 1):
        gate.must_read(OverheadCamera(seed=3).frame(felt, n))
    assert gate.reused == 1
    moved = dataclasses.replace(felt.cards[0], jitter=(felt.cards[0].jitter[0] + 0.5, *felt.cards[0].jitter[1:]))
    felt.cards[0] = moved
    assert gate.must_read(OverheadCamera(seed=3).frame(felt, FRESH + 1)) is True  # about half a pixel


def test_the_whole_picture_brighter_by_four_per_cent_is_no_change() -> None:
    camera, felt, gate = OverheadCamera(seed=3), table(), ChangeGate()
    frame = camera.frame(felt, 0)
    for _ in range(FRESH):
        gate.must_read(frame)
    brighter = np.clip(frame.astype(np.float32) * 1.04, 0, 255).astype(np.uint8)
    assert gate.must_read(brighter) is False


def camera_reports(pipeline: VisionPipeline, felt: Felt, turn_at: int, land_at: int, frames: int) -> Iterator[tuple[int, str]]:
    camera = OverheadCamera(seed=3)
    for n in range(frames):
        if n == turn_at:  # the seat's first card is turned face up where it lies: exposed
            felt.turn("seat:2", Card.parse("Qs"))
        if n == land_at:
            felt.place("board", Card.parse("2h"), True)
        for obs in pipeline.process(n * 66, camera.frame(felt, n)):
            yield n, f"{type(obs).__name__} {obs.zone} {getattr(obs, 'card', None)} {getattr(obs, 'face_up', None)}"


def test_the_gate_changes_nothing_the_tracker_reports_on_a_still_table_then_a_turned_card_and_a_landed_one(tmp_path: object) -> None:
    gated, _ = pipeline_from_config(sim_camera_section(str(tmp_path)), SEATS)
    every, _ = pipeline_from_config(sim_camera_section(str(tmp_path)), SEATS)
    every.gate = ChangeGate(refresh=1, in_part=False)  # reads every frame in full
    with_gate = list(camera_reports(gated, table(), turn_at=40, land_at=55, frames=75))
    without = list(camera_reports(every, table(), turn_at=40, land_at=55, frames=75))
    assert with_gate == without
    assert any(what.startswith("CardSeen seat:2") and what.endswith("True") for _, what in with_gate)  # exposed
    assert any("CardSeen board 2h True" in what for _, what in with_gate)
    assert every.gate.reused == 0 and gated.gate.reused >= 40
    # the turned card's fresh frames were read only round the seat's pair
    assert every.part_frames == 0 and gated.part_frames >= FRESH
    assert gated.gate.fresh == 2 * gated.tracker.confirm_frames  # every frame the tracker decides on is read


def test_the_gate_says_which_cells_changed_while_their_fresh_frames_are_read() -> None:
    camera, felt, gate = OverheadCamera(seed=3), table(), ChangeGate()
    assert gate.must_read(camera.frame(felt, 0)) and gate.changed is None  # a new scene: read it all
    n = 1
    for n in range(1, FRESH + REFRESH):
        gate.must_read(camera.frame(felt, n))
    assert gate.changed is None  # the still scene's refresh reads it all too
    felt.place("board", Card.parse("2h"), True)
    assert gate.must_read(camera.frame(felt, n + 1))
    first = gate.changed
    assert first is not None and 0 < np.count_nonzero(first) < 0.05 * first.size
    felt.place("seat:5", None, False)
    assert gate.must_read(camera.frame(felt, n + 2))
    both = gate.changed
    assert both is not None and np.all(both[first > 0] > 0) and np.count_nonzero(both) > np.count_nonzero(first)
    for k in range(n + 3, n + 2 + FRESH):
        assert gate.must_read(camera.frame(felt, k))
    # the first change's fresh frames are over; the second's last one is read for its cells alone
    last = gate.changed
    assert last is not None and 0 < np.count_nonzero(last) < np.count_nonzero(both)
    assert np.all(both[last > 0] > 0) and not np.any(last[first > 0])
    assert gate.must_read(camera.frame(felt, n + 2 + FRESH)) is False


def test_a_frame_read_after_a_card_lands_looks_again_only_where_it_landed(tmp_path: object) -> None:
    pipe, _ = pipeline_from_config(sim_camera_section(str(tmp_path)), SEATS)
    camera, felt = OverheadCamera(seed=3), table()
    for n in range(FRESH + 2):
        pipe.process(n * 66, camera.frame(felt, n))
    before = list(pipe.last_cards)
    backs = [c for c in before if c.zone == "seat:2"]
    assert len(backs) == 2 and pipe.detector.looked_again is None
    felt.place("board", Card.parse("2h"), True)
    pipe.process((FRESH + 2) * 66, camera.frame(felt, FRESH + 2))
    again = pipe.detector.looked_again
    assert again is not None and pipe.part_frames == 1
    landed = [c for c in pipe.last_cards if all(np.hypot(c.centre[0] - b.centre[0], c.centre[1] - b.centre[1]) > 20 for b in before)]
    assert len(landed) == 1 and landed[0].zone == "board"
    assert touches(again, [landed[0].centre])
    assert not any(touches(again, [b.centre]) for b in backs)  # the seat's backs were not looked at again ...
    assert [c for c in pipe.last_cards if c.zone == "seat:2"] == backs  # ... and are as they were
    assert np.count_nonzero(again) < 0.1 * again.size


def test_a_table_where_cards_land_every_few_frames_is_still_read_in_full_once_a_refresh() -> None:
    # Never still for a refresh: without a full read as often, what no change touched would keep
    # its first reading for the whole deal, however it drifted.
    camera, felt, gate = OverheadCamera(seed=3), table(), ChangeGate()
    full, part = [], 0
    for n in range(64):
        if n % 8 == 4:
            felt.place(f"seat:{3 + n // 8}", None, False)
        if gate.must_read(camera.frame(felt, n)):
            if gate.changed is None:
                full.append(n)
            else:
                part += 1
    assert gate.reused > 0 and part > 30
    assert full[0] == 0 and len(full) >= 4
    assert max(b - a for a, b in zip(full, full[1:] + [64])) <= REFRESH + 1
