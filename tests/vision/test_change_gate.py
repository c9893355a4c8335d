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
from dealer_pi.vision.change import FRESH, REFRESH, ChangeGate
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


def camera_reports(pipeline: VisionPipeline, felt: Felt, turn_at: int, frames: int) -> Iterator[tuple[int, str]]:
    camera = OverheadCamera(seed=3)
    for n in range(frames):
        if n == turn_at:  # the seat's first card is turned face up where it lies: exposed
            felt.cards[3] = dataclasses.replace(felt.cards[3], card=Card.parse("Qs"), face_up=True)
            felt.place("board", Card.parse("2h"), True)
        for obs in pipeline.process(n * 66, camera.frame(felt, n)):
            yield n, f"{type(obs).__name__} {obs.zone} {getattr(obs, 'card', None)} {getattr(obs, 'face_up', None)}"


def test_the_gate_changes_nothing_the_tracker_reports_on_a_still_table_then_a_turned_card(tmp_path: object) -> None:
    gated, _ = pipeline_from_config(sim_camera_section(str(tmp_path)), SEATS)
    every, _ = pipeline_from_config(sim_camera_section(str(tmp_path)), SEATS)
    every.gate = ChangeGate(refresh=1)  # reads every frame in full
    with_gate = list(camera_reports(gated, table(), turn_at=40, frames=60))
    without = list(camera_reports(every, table(), turn_at=40, frames=60))
    assert with_gate == without
    assert any(what.startswith("CardSeen seat:2") and what.endswith("True") for _, what in with_gate)  # exposed
    assert any("CardSeen board 2h True" in what for _, what in with_gate)
    assert every.gate.reused == 0 and gated.gate.reused >= 40
    assert gated.gate.fresh == 2 * gated.tracker.confirm_frames  # every frame the tracker decides on is read
