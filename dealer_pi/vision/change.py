"""Whether a camera frame shows anything new, so a still table is not read again and again.

An overhead camera films a table that stands still most of the time: between two deals, while
players think, while chips are counted. Reading every card again in each of those frames costs
the Pi its whole CPU and tells the tracker nothing new. :class:`ChangeGate` compares each frame,
shrunk to cells of ``CELL`` x ``CELL`` pixels, with the first frame of the current scene:

* a cell whose mean moved by more than ``CELL_STEP`` grey levels in any colour is a change (a
  card landing, turned, slid by a pixel, a hand over the felt). Sensor noise averages out over a
  cell; an index redrawn or a card's edge moved by one pixel does not. The whole picture
  brightening or dimming by a few per cent (mains flicker, auto exposure) is no change;
* after a change, the next ``fresh`` frames are read all the same, where it changed: the tracker
  decides on a new card within its first ``2 * confirm_frames`` frames, from the share of those
  frames' votes, and each of them must be a read of its own (read again, a noisy frame may
  disagree; a reading reused would only repeat a vote). :attr:`ChangeGate.changed` says which
  cells changed in the changes whose fresh frames are being read; the rest of the table is as it
  was when last read, and its reading is kept (:meth:`.detect.Detector.detect`);
* a frame is read in full (``changed`` None) when it is a new scene's first, and at least every
  ``refresh`` frames: a still scene whatever the cells say, a busy one whatever its changes.

The comparison is with the scene's first frame, not the previous one, so a slow drift (the
light, a card pushed a little at a time) adds up to a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from .recogniser import IndexRead

CELL = 8  # pixels per side of a compared cell
CELL_STEP = 8.0  # grey levels a cell's mean may move by and still be the same scene
FRESH = 6  # frames read after each change: the tracker's window, 2 x its confirm_frames
REFRESH = 15  # a still scene is read again at least this often (one second at 15 frames a second)
# A change touching more than this share of the table's pieces (a hand over the table) is read
# again in full: a look at most of it saves little, and the rest's reading is not kept.
MOST = 0.6


class ChangeGate:
    def __init__(self, fresh: int = FRESH, refresh: int = REFRESH, step: float = CELL_STEP, in_part: bool = True) -> None:
        """``in_part``: say which cells changed (:attr:`changed`), so that a frame read after a
        change may be read only there; False: every frame read is read in full (to measure what
        reading in part saves, and that it changes nothing)."""
        self.fresh = fresh
        self.refresh = refresh
        self.step = step
        self.in_part = in_part
        self.reused = 0  # frames not read again, for the dashboard's camera status
        self._scene: np.ndarray | None = None
        self._since_read = 0
        # Each change whose fresh frames are being read: its cells (None: all), and frames left.
        self._changes: list[tuple[np.ndarray | None, int]] = []
        self._since_full = 0  # frames since the last read in full
        self.changed: np.ndarray | None = None  # for the frame to read: 255 on cells that changed; None: all

    def reset(self) -> None:
        """The next frame is read in full (the zones or the camera changed)."""
        self._scene = None
        self._changes = []

    def must_read(self, frame: np.ndarray) -> bool:
        """True when ``frame`` is to be read (in full, or where :attr:`changed` says); False when
        the last reading still holds."""
        h, w = frame.shape[:2]
        self._since_full += 1
        cells = cv2.resize(frame, (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)
        cells = cells.astype(np.float32)
        moved = None if self._scene is None or self._scene.shape != cells.shape else self._moved(cells)
        if moved is None or moved.any():
            self._scene = cells
            self._changes.append((moved if self.in_part else None, self.fresh))
        if self._changes:
            self.changed = self._changed_cells()
            if self._since_full > self.refresh:
                # A table where cards land every second is never still for a refresh: what no change
                # touched is read in full as often all the same, so no drift too slow to be a
                # change between two frames outlasts a second.
                self.changed = None
        elif self._since_read + 1 < self.refresh:
            self._since_read += 1
            self.reused += 1
            return False
        else:
            self.changed = None  # a still scene's refresh reads it all
        self._since_read = 0
        if self.changed is None:
            self._since_full = 0
        return True

    def _changed_cells(self) -> np.ndarray | None:
        """The cells of every change still in its fresh frames (this frame counted), and forget the
        changes whose last fresh frame this is."""
        masks = [m for m, _ in self._changes]
        self._changes = [(m, left - 1) for m, left in self._changes if left > 1]
        out: np.ndarray | None = None
        for m in masks:
            if m is None:
                return None
            out = m if out is None else out | m
        return None if out is None else out.astype(np.uint8) * 255

    def _moved(self, cells: np.ndarray) -> np.ndarray:
        """True on each cell of ``cells`` that moved from the scene's."""
        assert self._scene is not None
        # The whole picture brightening or dimming (mains flicker, the camera's auto exposure) is
        # no change: the scene is scaled to the frame's mean brightness before the cells compare.
        gain = float(np.mean(cells)) / max(1.0, float(np.mean(self._scene)))
        diff = np.abs(cells - self._scene * gain)
        moved: np.ndarray = (diff.max(axis=2) if diff.ndim == 3 else diff) > self.step
        return moved


def read_again(where: np.ndarray, changed: np.ndarray) -> np.ndarray | None:
    """Where a frame is to be looked at again: the cells that changed (``changed``:
    :attr:`ChangeGate.changed`) and their neighbours, and the pieces of ``where`` (255 on the
    cards, and whatever else lies on the table) that they touch, whole. A card one changed cell
    touches is looked at again whole; one taken away leaves changed cells where it lay; a card
    nothing changed touches is as it was. None where that is most of ``where`` (:data:`MOST`): a
    hand over the table, a new deal's first frames; the frame is looked at again in full.

    >>> where = np.zeros((64, 128), np.uint8); where[8:56, 8:40] = 255; where[8:56, 80:112] = 255
    >>> changed = np.zeros((8, 16), np.uint8); changed[7, 15] = 255  # a cell beside the right-hand card
    >>> again = read_again(where, changed)
    >>> int(again[20, 20]), int(again[20, 100]), int(again[20, 60]), int(again[60, 120])
    (0, 255, 0, 255)
    """
    h, w = where.shape[:2]
    # A cell's neighbours too: a change at its edge reaches them.
    near = cv2.dilate(changed, np.ones((3, 3), np.uint8))
    # Pieces found at quarter size, where two pieces a few pixels apart may be one: both are
    # looked at again, never neither.
    small = cv2.resize(where, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.dilate((small > 0).astype(np.uint8), np.ones((3, 3), np.uint8))
    cells = cv2.resize(near, small.shape[::-1], interpolation=cv2.INTER_NEAREST)
    count, labels = cv2.connectedComponents(small)
    hit = np.zeros(count, np.uint8)
    hit[np.unique(labels[(cells > 0) & (small > 0)])] = 255
    hit[0] = 0  # the felt between the pieces
    pieces = cv2.bitwise_and(cv2.resize(hit[labels], (w, h), interpolation=cv2.INTER_NEAREST), where)
    if cv2.countNonZero(pieces) > MOST * max(1, cv2.countNonZero(where)):
        return None
    again: np.ndarray = cv2.bitwise_or(pieces, cv2.resize(near, (w, h), interpolation=cv2.INTER_NEAREST))
    return again


def touches(again: np.ndarray, points: Sequence[tuple[float, float]]) -> bool:
    """Whether any of ``points`` lies on ``again`` (:func:`read_again`)."""
    h, w = again.shape[:2]
    return any(again[min(h - 1, max(0, int(y))), min(w - 1, max(0, int(x)))] for x, y in points)


def kept(reads: Sequence[IndexRead], again: np.ndarray) -> list[IndexRead]:
    """The reads of ``reads`` whose glyphs lie off ``again`` (:func:`read_again`)."""
    return [r for r in reads if not touches(again, (r.rank_xy, r.suit_xy))]


def card_points(corners: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """A card's outline's middle, and its corners a fifth of the way in, where they lie on the card."""
    cx = sum(x for x, _ in corners) / len(corners)
    cy = sum(y for _, y in corners) / len(corners)
    return [(cx, cy)] + [(x + 0.2 * (cx - x), y + 0.2 * (cy - y)) for x, y in corners]
