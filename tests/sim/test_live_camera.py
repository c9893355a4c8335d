"""The demo's camera: the simulated felt filmed in real time, through attach_camera's pipeline onto the
engine queue; the simulator's card observations only check what it reports."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runtime"))

import live_helpers as H  # noqa: E402

from dealer_pi.config import config_from_dict  # noqa: E402
from dealer_pi.engine.cards import FULL_DECK  # noqa: E402
from dealer_pi.engine.observations import ShoeDraw, observation_from_dict  # noqa: E402
from dealer_pi.runtime.attach import attach_camera  # noqa: E402
from dealer_pi.sim.camera_table import camera_settings  # noqa: E402
from dealer_pi.sim.live_camera import LiveCamera  # noqa: E402


def test_the_demo_camera_reports_the_cards_dealt_in_front_of_it(tmp_path: Path) -> None:
    runtime = H.runtime(tmp_path)
    config = config_from_dict({"camera": camera_settings(tmp_path, fps=4)})
    camera = LiveCamera(fps=4)
    close = attach_camera(runtime, config, tmp_path, source=camera, label="simulated table", on_observation=camera.saw)
    stop = threading.Event()
    try:
        deal = [observation_from_dict(o) for o in H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1])[:6]]
        problems = []
        for i, obs in enumerate(deal):  # three cards: the shoe's draw, then where the camera sees it land
            problems += camera.play(obs, i, stop)
            if isinstance(obs, ShoeDraw):
                runtime.put(obs)
        assert problems == [] and camera.disagreements == 0
        journal = H.wait_for(lambda: len(j := [e.body for e in runtime.journal.entries_after(0) if e.kind == "observation"]) == 6 and j)
        assert [(o["type"], o.get("zone"), o["source"]) for o in journal] == [
            ("shoe_draw", None, "shoe"), ("card_seen", "seat:2", "camera"), ("shoe_draw", None, "shoe"),
            ("card_seen", "seat:3", "camera"), ("shoe_draw", None, "shoe"), ("card_seen", "seat:1", "camera")]
        assert runtime.open_alerts() == []
        cam = H.wait_for(lambda: (c := runtime.state("dealer")["devices"]["camera"]).get("vision_fps") and c)
        assert cam["calibration"] == "ok" and cam["source"] == "simulated table"
    finally:
        stop.set()
        camera.close()
        close()
        runtime.stop()
