"""Recording a simulated table as a real one would be recorded, for ``dealer-pi replay-session``.

:class:`SessionRecorder` is a :class:`~dealer_pi.sim.camera_table.CameraTable` recorder: the
overhead frames go into a video file (``cv2.VideoWriter``), each draw becomes the smart
shoe's own DPS/1 line (``$SEQ,DRAW,<ms>,<card>*XX``, with a ``HELLO`` first and a heartbeat
every second), the dealer's entries become JSON lines and the table's setup a JSON file.
Every time is on the video's clock, so the shoe's offset is 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dealer_pi.engine.observations import Observation, ShoeDraw, observation_to_dict
from dealer_pi.hardware import dps1

VIDEO = "table.avi"
SHOE_LOG = "shoe.log"
INPUTS = "inputs.jsonl"
SETUP = "setup.json"


class SessionRecorder:
    """Writes ``table.avi``, ``shoe.log``, ``inputs.jsonl`` and ``setup.json`` into ``folder``."""

    def __init__(self, folder: str | Path, setup: dict[str, Any], fps: float, size: tuple[int, int],
                 codec: str = "MJPG") -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / SETUP).write_text(json.dumps(setup, indent=1), encoding="utf-8")
        self.video = cv2.VideoWriter(str(self.folder / VIDEO), cv2.VideoWriter_fourcc(*codec), fps, size)
        if not self.video.isOpened():
            raise OSError(f"OpenCV cannot write {codec} video to {self.folder / VIDEO}")
        self.shoe = (self.folder / SHOE_LOG).open("wb")
        self.inputs = (self.folder / INPUTS).open("w", encoding="utf-8")
        self.seq = 0
        self.next_beat = 1000
        self._line(0, "HELLO", "1", "sim-1", "SIM-SHOE")

    def _line(self, ms: int, kind: str, *fields: str) -> None:
        if kind == "HELLO":
            self.shoe.write(dps1.encode_frame(self.seq, kind, *fields))
        else:
            self.shoe.write(dps1.encode_frame(self.seq, kind, str(ms), *fields))
        self.seq += 1

    def frame(self, ts_ms: int, frame: np.ndarray) -> None:
        while ts_ms >= self.next_beat:  # the shoe's heartbeat, as a live shoe sends it
            self._line(self.next_beat, "HB")
            self.next_beat += 1000
        self.video.write(frame)

    def input(self, ts_ms: int, obs: Observation) -> None:
        if isinstance(obs, ShoeDraw):
            self._line(ts_ms, "DRAW", str(obs.card) if obs.card is not None else "?")
        else:
            self.inputs.write(json.dumps(observation_to_dict(obs)) + "\n")

    def close(self) -> None:
        self.video.release()
        self.shoe.close()
        self.inputs.close()
