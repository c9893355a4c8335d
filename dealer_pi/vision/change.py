"""Whether a camera frame shows anything new, so a still table is not read again and again.

An overhead camera films a table that stands still most of the time: between two deals, while
players think, while chips are counted. Reading every card again in each of those frames costs
the Pi its whole CPU and tells the tracker nothing new. :class:`ChangeGate` compares each frame,
shrunk to cells of ``CELL`` x ``CELL`` pixels, with the first frame of the current scene:

* a cell whose mean moved by more than ``CELL_STEP`` grey levels in any colour is a change (a
  card landing, turned, slid by a pixel, a hand over the felt). Sensor noise averages out over a
  cell; an index redrawn or a card's edge moved by one pixel does not. The whole picture
  brightening or dimming by a few per cent (mains flicker, auto exposure) is no change;
* after a change, the next ``fresh`` frames are read in full all the same: the tracker decides
  on a new card within its first ``2 * confirm_frames`` frames, from the share of those frames'
  votes, and each of them must be a read of its own (read again, a noisy frame may disagree;
  a reading reused would only repeat a vote);
* a still scene is read again every ``refresh`` frames whatever the cells say.

The comparison is with the scene's first frame, not the previous one, so a slow drift (the
light, a card pushed a little at a time) adds up to a change.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL = 8  # pixels per side of a compared cell
CELL_STEP = 8.0  # grey levels a cell's mean may move by and still be the same scene
FRESH = 6  # frames read in full after each change: the tracker's window, 2 x its confirm_frames
REFRESH = 15  # a still scene is read again at least this often (one second at 15 frames a second)


class ChangeGate:
    def __init__(self, fresh: int = FRESH, refresh: int = REFRESH, step: float = CELL_STEP) -> None:
        self.fresh = fresh
        self.refresh = refresh
        self.step = step
        self.reused = 0  # frames not read again, for the dashboard's camera status
        self._scene: np.ndarray | None = None
        self._fresh_left = 0
        self._since_read = 0

    def reset(self) -> None:
        """The next frame is read in full (the zones or the camera changed)."""
        self._scene = None

    def must_read(self, frame: np.ndarray) -> bool:
        """True when ``frame`` is to be read in full; False when the last reading still holds."""
        h, w = frame.shape[:2]
        cells = cv2.resize(frame, (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)
        cells = cells.astype(np.float32)
        if self._scene is None or self._scene.shape != cells.shape or self._moved(cells):
            self._scene = cells
            self._fresh_left = self.fresh
        if self._fresh_left > 0:
            self._fresh_left -= 1
        elif self._since_read + 1 < self.refresh:
            self._since_read += 1
            self.reused += 1
            return False
        self._since_read = 0
        return True

    def _moved(self, cells: np.ndarray) -> bool:
        assert self._scene is not None
        # The whole picture brightening or dimming (mains flicker, the camera's auto exposure) is
        # no change: the scene is scaled to the frame's mean brightness before the cells compare.
        gain = float(np.mean(cells)) / max(1.0, float(np.mean(self._scene)))
        return bool(np.abs(cells - self._scene * gain).max() > self.step)
