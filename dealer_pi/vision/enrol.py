"""Deck enrolment: the venue shows each card of its own deck once.

In a picture of known cards, the index pairs that the networks find most like
each card become that card's examples; the other pairs in the picture (pips,
court-card art) become "not an index" examples. :meth:`Enrolment.fit` then
fine-tunes the networks on them. Enrolling a folder needs one picture per
card, named by the card (``Ah.png``, ``Td.jpg``); the card may lie anywhere
in the picture, at any angle.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError

from .glyphs import Hypothesis, features, find_blobs, hypotheses_from_blobs
from .recogniser import Enrolment, Recogniser
from .sources import read_image

Box = tuple[float, float, float, float]


def _inside(h: Hypothesis, box: Box) -> bool:
    x0, y0, x1, y1 = box
    return x0 <= h.rank_xy[0] <= x1 and y0 <= h.rank_xy[1] <= y1


def enrol_picture(
    recogniser: Recogniser,
    enrolment: Enrolment,
    bgr: np.ndarray,
    cards: list[tuple[Card, Box | None]],
    rng: np.random.Generator,
    per_card: int = 2,
    negatives_per_card: int = 6,
    thin_strokes: bool = False,
) -> int:
    """Add examples from one picture; ``cards`` lists each card shown (and where, if known).
    ``thin_strokes``: the picture's ink is read without the median too, as a camera stream reads
    its small glyphs (:data:`.glyphs.SMOOTH_FROM_PX`), so that the examples are the pairs the
    stream will read.

    Returns how many index examples were added.
    """
    variants = [recogniser.params]
    if thin_strokes:
        variants.append(dataclasses.replace(recogniser.params, smooth=False))
    if recogniser.both_polarities:
        variants.append(dataclasses.replace(recogniser.params, light_print=True))
    hyps: list[Hypothesis] = []
    rows = []
    comps: list[set[tuple[int, int]]] = []
    for v, params in enumerate(variants):
        blobs = find_blobs(bgr, params)
        found = hypotheses_from_blobs(blobs, params)
        if found:
            hyps += found
            rows.append(features(blobs, found))
            comps += [{(v, blobs.whole_of(k)) for k in (*h.rank_ids, h.suit_id)} for h in found]
    if not hyps:
        return 0
    feats = np.vstack(rows)
    pr, ps = recogniser.model.probs(feats)
    used: set[tuple[int, int]] = set()
    chosen: list[int] = []
    for card, box in cards:
        score = pr[:, card.index // 4] * ps[:, card.index % 4]
        taken = 0
        for n in np.argsort(-score).tolist():
            if box is not None and not _inside(hyps[n], box):
                continue
            if comps[n] & used:
                continue
            used |= comps[n]
            chosen.append(n)
            enrolment.add(feats[n], card)
            taken += 1
            if taken == per_card:
                break
    # Everything well away from the chosen indices is something that is not an index, unless the
    # networks read it as the rank of a card shown: that is the card's other corner (or the same
    # corner read in another ink variant), and as a "not an index" example it taught the networks to
    # doubt the very card enrolled.
    near = [hyps[n] for n in chosen]
    shown = sorted({card.index // 4 for card, _ in cards})
    theirs = pr[:, shown].max(axis=1) >= 0.5
    others = [
        n
        for n, h in enumerate(hyps)
        if not (comps[n] & used)
        and not theirs[n]
        and all(math.dist(h.rank_xy, c.rank_xy) > 1.5 * c.size for c in near)
        and not any(box is not None and _inside(h, box) for _, box in cards)
    ]
    k = min(len(others), negatives_per_card * max(1, len(cards)))
    if k:
        enrolment.add(feats[rng.choice(others, size=k, replace=False)], None)
    return len(chosen)


def enrol_folder(recogniser: Recogniser, folder: str | Path, seed: int = 0) -> tuple[Enrolment, list[str]]:
    """Enrol every ``<card>.<ext>`` picture in ``folder`` and fine-tune; returns the enrolment and problems.

    The enrolment is the camera's (``[camera] enrolment_file``): each picture's ink is read with
    and without the median (``thin_strokes``). With the median alone, the printed design's thin
    index lost its strokes, its diamonds were enrolled from pairs the camera never reads, and 89
    of 510 face-up diamonds were named in the live frames (1,362 of 2,000 cards); with both, 391
    (1,693), none wrong either way. With no pair the networks read as the card's rank taken as "not
    an index" (:func:`enrol_picture`), 431 (1,767), none wrong."""
    enrolment = Enrolment()
    problems: list[str] = []
    rng = np.random.default_rng(seed)
    files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp"))
    if not files:
        raise InputError(str(folder), "no .png/.jpg pictures to enrol (name each after its card, e.g. Ah.png)")
    for path in files:
        try:
            card = Card.parse(path.stem, where=str(path))
            added = enrol_picture(recogniser, enrolment, read_image(path), [(card, None)], rng, thin_strokes=True)
        except InputError as exc:
            problems.append(str(exc))
            continue
        if not added:
            problems.append(f"{path}: no corner index found")
    if len(enrolment):
        enrolment.fit(recogniser.model, seed)
    return enrolment, problems
