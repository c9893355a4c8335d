"""Deck enrolment: the venue shows each card of its own deck once.

For a picture of a known card, the index pairs that the network finds most
like that card are kept as feature rows; at play time the recogniser lets
close enrolled rows vote (see :class:`~dealer_pi.vision.recogniser.Enrolment`).
Enrolling a folder needs one picture per card, named by the card (``Ah.png``,
``Td.jpg``); the card may lie anywhere in the picture, at any angle.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError

from .glyphs import FEATURES, features, find_blobs, hypotheses_from_blobs
from .recogniser import Enrolment, Recogniser
from .sources import read_image


def rows_for_card(
    recogniser: Recogniser,
    bgr: np.ndarray,
    card: Card,
    box: tuple[float, float, float, float] | None = None,
    max_rows: int = 2,
) -> np.ndarray:
    """Feature rows of the index pairs most like ``card`` (inside ``box`` = x0, y0, x1, y1 if given)."""
    variants = [recogniser.params]
    if recogniser.both_polarities:
        variants.append(dataclasses.replace(recogniser.params, light_print=True))
    best: list[tuple[float, np.ndarray]] = []
    for params in variants:
        blobs = find_blobs(bgr, params)
        hyps = hypotheses_from_blobs(blobs, params)
        if box is not None:
            x0, y0, x1, y1 = box
            hyps = [h for h in hyps if x0 <= h.rank_xy[0] <= x1 and y0 <= h.rank_xy[1] <= y1]
        if not hyps:
            continue
        feats = features(blobs, hyps)
        pr, ps = recogniser.model.probs(feats)
        score = pr[:, card.index // 4] * ps[:, card.index % 4]
        used: set[int] = set()
        for n in np.argsort(-score).tolist():
            comps = set(hyps[n].rank_ids) | {hyps[n].suit_id}
            if comps & used:
                continue
            used |= comps
            best.append((float(score[n]), feats[n]))
    best.sort(key=lambda t: -t[0])
    return np.array([f for _, f in best[:max_rows]], np.float32).reshape(-1, FEATURES)


def enrol_folder(recogniser: Recogniser, folder: str | Path) -> tuple[Enrolment, list[str]]:
    """Enrol every ``<card>.<ext>`` picture in ``folder``; returns the enrolment and problems found."""
    enrolment = Enrolment()
    problems: list[str] = []
    files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp"))
    if not files:
        raise InputError(str(folder), "no .png/.jpg pictures to enrol (name each after its card, e.g. Ah.png)")
    for path in files:
        try:
            card = Card.parse(path.stem, where=str(path))
            rows = rows_for_card(recogniser, read_image(path), card)
        except (InputError, ValueError) as exc:
            problems.append(str(exc))
            continue
        if len(rows) == 0:
            problems.append(f"{path}: no corner index found")
            continue
        enrolment.add(rows, card)
    return enrolment, problems
