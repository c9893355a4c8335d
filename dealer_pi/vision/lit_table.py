"""The simulated table that the checks of light film: a shadow over a card, a dim room, a lamp's
colour (``models/eval_shadow.py``, ``models/eval_dim.py`` and their tests).

A 1280x720 frame of a board of five, a seat's face-up pair, a seat's face-down pair and the burn,
filmed through the camera's pipeline as the runtime builds it (zones round the default places,
tracker, change gate), with a camera's sensor noise in every frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import CardSeen

from .change import ChangeGate
from .detect import CardFound
from .pipeline import PixelZones, VisionPipeline, camera_detector
from .render import default_zone_centres, sensor_noise

LIT_TABLE: dict[str, list[Card | None]] = {
    "board": [Card.parse(c) for c in ("Ah", "Kd", "Tc", "7s", "2h")],
    "seat:1": [Card.parse("Qs"), Card.parse("Jh")],
    "seat:5": [None, None],
    "burn": [None],
}
FRAME_MS = 66  # 15 frames a second


def filmed(stretches: Sequence[tuple[np.ndarray, int]], seed: int,
           pipe: VisionPipeline | None = None) -> list[tuple[list[CardSeen], list[CardFound]]]:
    """The camera's pipeline over each ``(frame, times)`` stretch in turn, sensor noise in every
    frame (seeded by ``seed``): for each stretch, the cards the tracker reported during it, and the
    cards its last frame found. ``pipe``: the pipeline filming (default: the runtime's, with zones
    round the default places), for a caller that asks it more afterwards."""
    pipe = pipe if pipe is not None else table_pipeline()
    rng = np.random.default_rng(seed)
    ts = 0
    out: list[tuple[list[CardSeen], list[CardFound]]] = []
    for frame, times in stretches:
        seen: list[CardSeen] = []
        for _ in range(times):
            seen += [o for o in pipe.process(ts, sensor_noise(frame, rng)) if isinstance(o, CardSeen)]
            ts += FRAME_MS
        out.append((seen, list(pipe.last_cards)))
    return out


def table_pipeline(gate: ChangeGate | None = None) -> VisionPipeline:
    """The camera's pipeline as the runtime builds it, zones round the default places of a
    1280x720 frame (``gate``: which frames it reads in full, default as the runtime's)."""
    return VisionPipeline(camera_detector(), PixelZones(default_zone_centres(1280, 720), 200, 110), gate=gate)


def lit(frame: np.ndarray, light: float, tint: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """``frame`` with ``light`` of its light, each of blue, green and red scaled by ``tint``."""
    out: np.ndarray = np.clip(frame.astype(np.float32) * light * np.asarray(tint, np.float32), 0, 255).astype(np.uint8)
    return out
