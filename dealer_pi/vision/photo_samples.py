"""Training rows from labelled photos: each labelled corner index is an example of its card.

``models/make_index_model.py`` learns from these beside its generated
pictures, because drawn fonts alone do not look like the print of real decks.
The labels only box each corner (no orientation, no glyph outlines), so a
*teacher* network picks, inside each box, the glyph pair most like the labelled
card (:func:`~dealer_pi.vision.enrol.enrol_picture`); pairs well away from
every box are "not an index". Each photo is also seen turned, shrunk or
enlarged (0.35x to 2.2x: the overhead camera sees glyphs of 10 to 30 pixels),
blurred and JPEG-compressed, so the rows cover what the camera sees.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from .enrol import enrol_picture
from .evaluate import Labelled, labelled_boxes
from .recogniser import Enrolment, IndexModel, Recogniser
from .sources import read_image


def variants(image: np.ndarray, boxes: Labelled, rng: np.random.Generator, n: int) -> list[tuple[np.ndarray, Labelled]]:
    """The photo itself and ``n`` altered copies, with the boxes moved along."""
    out = [(image, boxes)]
    h, w = image.shape[:2]
    for _ in range(n):
        angle = float(rng.uniform(0, 360))
        scale = float(np.exp(rng.uniform(math.log(0.35), math.log(2.2))))
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
        cos, sin = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
        m[0, 2] += nw / 2 - w / 2
        m[1, 2] += nh / 2 - h / 2
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        im = cv2.warpAffine(image, m, (nw, nh), flags=interp, borderMode=cv2.BORDER_REPLICATE)  # a reflection would copy glyphs outside their boxes
        if rng.random() < 0.4:
            k = int(rng.choice([3, 5]))
            im = cv2.GaussianBlur(im, (k, k), 0)
        if rng.random() < 0.5:
            _, enc = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
            im = cv2.imdecode(enc, cv2.IMREAD_COLOR)
        moved: Labelled = []
        for card, (x0, y0, x1, y1) in boxes:
            pts = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]], np.float64) @ m.T
            moved.append((card, (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))))
        out.append((im, moved))
    return out


_teacher: Recogniser | None = None


def _init(model: IndexModel) -> None:
    global _teacher
    cv2.setNumThreads(1)
    _teacher = Recogniser(model=model, both_polarities=True)


def _photo(job: tuple[str, list[str], int, int]) -> tuple[np.ndarray, np.ndarray]:
    path, names, seed, n = job
    assert _teacher is not None
    rng = np.random.default_rng(seed)
    enrolment = Enrolment()
    image = read_image(path)
    boxes = labelled_boxes(Path(path), names, image)
    if boxes:
        for im, bx in variants(image, boxes, rng, n):
            enrol_picture(_teacher, enrolment, im, bx, rng, per_card=1, negatives_per_card=3)
    return enrolment.rows, enrolment.labels


def photo_rows(
    photos: Sequence[Path], names: list[str], teacher: IndexModel, n_variants: int = 6, seed: int = 0, workers: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels (card index, or ``NOT_INDEX``) from labelled photos.

    Each photo has its own seed, so the worker count does not change the rows.
    """
    jobs = [(str(p), names, seed * 100_003 + k, n_variants) for k, p in enumerate(photos)]
    if workers > 1:
        with multiprocessing.Pool(workers, initializer=_init, initargs=(teacher,)) as pool:
            parts = pool.map(_photo, jobs, chunksize=4)
    else:
        _init(teacher)
        parts = [_photo(j) for j in jobs]
    return np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
