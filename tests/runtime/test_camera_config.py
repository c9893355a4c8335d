"""Every [camera] setting reaches the running pipeline: serve, the demo and the replay build it through
one function (pipeline_from_config), here driven through serve's own wiring and through that function."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import live_helpers as H
from live_helpers import wait_for
from dealer_pi.config import config_from_dict
from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import CardSeen
from dealer_pi.runtime.wiring import Assistant
from dealer_pi.sim.felt import Felt
from dealer_pi.sim.overhead import OverheadCamera, layout_toml, sim_layout
from dealer_pi.vision.pipeline import pipeline_from_config

IDS = (5, 6, 7, 8)  # marker ids the built-in layout does not use
AH = Card.parse("Ah")


def table_frames(folder: Path, n: int = 5, ah: bool = True) -> Path:
    """Frames of a table with markers 5-8, the Ah on the board (if ``ah``) and a face-down card at seat 3."""
    felt = Felt()
    if ah:
        felt.place("board", AH, face_up=True)
    felt.place("seat:3", None, face_up=False)
    camera = OverheadCamera(seed=2, layout=sim_layout(marker_ids=IDS))
    folder.mkdir()
    for k in range(n):
        cv2.imwrite(str(folder / f"f{k:02d}.png"), camera.frame(felt, k))
    return folder


def serve(tmp: Path, camera: dict[str, Any]) -> Assistant:
    config = config_from_dict({
        "camera": dict({"source": "file", "device": "frames", "fps": 2}, **camera),  # stills played 2 a second
        "web": {"dealer_token": H.DEALER, "producer_token": H.PRODUCER, "port": 0},
        "journal": {"path": "journal.sqlite3"},
    })
    return Assistant.from_config(config, base_dir=tmp, setup=H.SETUP)


def camera_reports(assistant: Assistant) -> list[dict[str, Any]]:
    return [e.body for e in assistant.runtime.journal.entries_after(0) if e.body.get("source") == "camera"]


def test_serve_takes_layout_card_height_and_min_confidence_from_the_camera_section(tmp_path: Path) -> None:
    table_frames(tmp_path / "frames", n=10)
    (tmp_path / "table.toml").write_text(layout_toml(marker_ids=IDS))
    # Relative file names are found beside the config file, like the journal's.
    assistant = serve(tmp_path, {"layout_file": "table.toml", "card_height_px": 132.0, "min_confidence": 1.01})
    try:
        cam = wait_for(lambda: (c := assistant.runtime.state("dealer")["devices"]["camera"]).get("calibration") == "ok" and c)
        assert cam["source"] == "file" and cam["card_height_px"] == 132.0  # the config's, not the markers'
        seen = wait_for(lambda: len(r := camera_reports(assistant)) >= 2 and r, timeout=60)
        by_zone = {o["zone"]: o for o in seen}
        # layout_file: the markers 5-8 calibrated the table and the zones are the file's.
        assert set(by_zone) == {"board", "seat:3"} and by_zone["seat:3"]["face_up"] is False
        # min_confidence 1.01: no read can reach it, so the Ah is reported but never named.
        assert by_zone["board"]["face_up"] is True and by_zone["board"]["card"] is None
    finally:
        assistant.stop()


def test_serve_without_the_layout_file_waits_for_the_built_in_markers_and_reports_nothing(tmp_path: Path) -> None:
    table_frames(tmp_path / "frames", n=4)
    assistant = serve(tmp_path, {})
    try:
        cam = wait_for(lambda: (c := assistant.runtime.state("dealer")["devices"]["camera"]).get("calibration", "").startswith("not calibrated") and c)
        assert "missing ids [0, 1, 2, 3]" in cam["calibration"]
        assert camera_reports(assistant) == []
    finally:
        assistant.stop()


def run_frames(tmp: Path, frames: Path, **camera: Any) -> list[tuple[str, bool, Card | None]]:
    """The frames, twice over, through the pipeline the one function builds from these settings."""
    section = config_from_dict({"camera": dict({"layout_file": "table.toml"}, **camera)}).camera
    pipeline, _ = pipeline_from_config(section, base_dir=tmp)
    paths = sorted(frames.iterdir()) * 2
    made = [o for n, p in enumerate(paths) for o in pipeline.process(n * 66, cv2.imread(str(p)))]
    return [(str(o.zone), o.face_up, o.card) for o in made if isinstance(o, CardSeen)]


def test_card_height_sizes_face_down_cards_and_min_confidence_names_cards(tmp_path: Path) -> None:
    (tmp_path / "table.toml").write_text(layout_toml(marker_ids=IDS))
    down = table_frames(tmp_path / "down", n=4, ah=False)
    # A face-down card is counted by its area: the right card height gives one card; half of it makes
    # the card four small cards' area, or five with its border (the count rounds up), held steady.
    assert run_frames(tmp_path, down, card_height_px=132.0) == [("seat:3", False, None)]
    small = run_frames(tmp_path, down, card_height_px=66.0)
    assert set(small) == {("seat:3", False, None)} and 4 <= len(small) <= 5, small
    # None given (the default): the table's markers give it, and the card is one card again.
    assert run_frames(tmp_path, down) == [("seat:3", False, None)]
    # The default confidence names the Ah that min_confidence 1.01 left unnamed above.
    both = table_frames(tmp_path / "both", n=4)
    assert ("board", True, AH) in run_frames(tmp_path, both)


def failed_camera(tmp: Path, camera: dict[str, Any]) -> str:
    """Serve with these [camera] settings: the camera must show as failed; its reason."""
    table_frames(tmp / "frames", n=1)
    assistant = serve(tmp, camera)
    try:
        cam = assistant.runtime.state("dealer")["devices"]["camera"]
        assert cam["state"] == "failed"
        return str(cam["detail"])
    finally:
        assistant.stop()


@pytest.mark.parametrize("content", [None, b"\x00not an enrolment"])
def test_serve_reads_the_enrolment_file_and_names_it_when_it_is_bad(tmp_path: Path, content: bytes | None) -> None:
    if content is not None:
        (tmp_path / "deck.npz").write_bytes(content)
    assert "deck.npz" in failed_camera(tmp_path, {"enrolment_file": "deck.npz"})


def test_queue_size_sets_how_many_frames_wait_for_the_vision_thread_and_a_bad_one_fails_the_camera(tmp_path: Path) -> None:
    frame = np.zeros((64, 64, 3), np.uint8)
    for size, kept in ((1, [20]), (2, [10, 20])):
        _, stage = pipeline_from_config(config_from_dict({"camera": {"queue_size": size}}).camera)
        for t in (0, 10, 20):
            stage.put(t, frame)
        got = []
        while (item := stage.get(timeout=0)) is not None:
            got.append(item[0])
        assert got == kept and stage.dropped == 3 - len(kept)
    assert "1 or 2" in failed_camera(tmp_path, {"queue_size": 3})


def test_a_written_layout_is_read_back_the_same(tmp_path: Path) -> None:
    from dealer_pi.vision.calibration import load_layout

    (tmp_path / "t.toml").write_text(layout_toml(marker_ids=IDS))
    back, want = load_layout(tmp_path / "t.toml"), sim_layout(marker_ids=IDS)
    assert back.markers == want.markers and json.dumps(sorted(back.zones)) == json.dumps(sorted(want.zones))
