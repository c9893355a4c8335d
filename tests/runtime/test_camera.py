"""The camera wired to the runtime: rendered frames through the real vision pipeline onto the queue."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np

import live_helpers as H
from live_helpers import wait_for
from dealer_pi.config import config_from_dict
from dealer_pi.engine.cards import Card
from dealer_pi.runtime.attach import attach_camera, attach_devices
from dealer_pi.vision.pipeline import PixelZones
from dealer_pi.vision.lit_table import LIT_TABLE, lit
from dealer_pi.vision.render import default_zone_centres, render_table_frame, render_table_scene

BOARD = [Card.parse(c) for c in ("Ah", "7c", "Td")]


class PacedFrames:
    """A camera that keeps showing one picture at 20 frames a second."""

    def __init__(self, frame: np.ndarray, count: int = 40) -> None:
        self.frame, self.count = frame, count

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        for n in range(self.count):
            time.sleep(0.05)
            yield n * 50, self.frame

    def close(self) -> None:
        pass


def test_camera_cards_reach_the_journal_and_the_dashboard_shows_the_frame_rate(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    frame = render_table_frame({"board": BOARD}, seed=1)
    zones = PixelZones(default_zone_centres(1280, 720), 120, 90)
    close = attach_camera(rt, config_from_dict({}), source=PacedFrames(frame), zones=zones, label="test")
    try:
        def seen() -> list[dict[str, Any]]:
            return [e.body for e in rt.journal.entries_after(0) if e.body.get("type") == "card_seen"]
        got = wait_for(lambda: len(seen()) >= 3 and seen(), timeout=30)
        assert all(o["zone"] == "board" and o["face_up"] and o["source"] == "camera" for o in got)
        assert {o["card"] for o in got} <= {str(c) for c in BOARD} | {None}
        assert sum(o["card"] is not None for o in got) >= 2
        cam = wait_for(lambda: rt.state("dealer")["devices"]["camera"].get("vision_fps") and rt.state("dealer")["devices"]["camera"], timeout=30)
        assert cam["source"] == "test" and cam["fps"] > 0 and cam["calibration"] == "fixed zones"
        assert (cam["picture"], cam["picture_detail"]) == ("ok", "")
    finally:
        close()
        rt.stop()


def test_DEAL_HOLE_COUNT_the_dashboard_says_when_the_camera_is_too_light_to_count_face_down_cards(tmp_path: Path) -> None:
    # Taupe cloth at one and a half times the light: the camera cannot tell the cloth from the
    # cards' white and finds no face-down card; the dealer is told, once the frames it read say so.
    rt = H.runtime(tmp_path)
    scene = render_table_scene(LIT_TABLE, seed=0, cloth=(125, 135, 145))
    zones = PixelZones(default_zone_centres(1280, 720), 200, 110)
    close = attach_camera(rt, config_from_dict({}), source=PacedFrames(lit(scene.frame, 1.5), count=400), zones=zones, label="test")
    try:
        cam = wait_for(lambda: rt.state("dealer")["devices"]["camera"].get("picture") == "too light"
                       and rt.state("dealer")["devices"]["camera"], timeout=60)
        assert "face-down cards are not counted" in cam["picture_detail"]
        assert not [e for e in rt.journal.entries_after(0) if e.body.get("type") == "card_seen" and not e.body["face_up"]]
    finally:
        close()
        rt.stop()


def test_a_camera_that_sees_no_markers_says_so_and_reports_nothing(tmp_path: Path) -> None:
    frame = render_table_frame({"board": BOARD}, seed=2)
    path = tmp_path / "frames"
    path.mkdir()
    import cv2
    for i in range(3):
        cv2.imwrite(str(path / f"f{i}.png"), frame)
    rt = H.runtime(tmp_path)
    config = config_from_dict({"camera": {"source": "file", "device": str(path)}})
    closers = attach_devices(rt, config, tmp_path)
    try:
        cam = wait_for(lambda: rt.state("dealer")["devices"]["camera"]["calibration"].startswith("not calibrated")
                       and rt.state("dealer")["devices"]["camera"])
        assert "markers" in cam["calibration"]
        assert not [e for e in rt.journal.entries_after(0) if e.body.get("source") == "camera"]
    finally:
        for c in closers:
            c()
        rt.stop()
