"""Labelled card pictures collected at the table, and adapting the reader to them.

While the table plays, every card whose name becomes certain by other means (the smart
shoe named it, it was shown at showdown, the dealer confirmed or corrected the camera's
read on the tablet) leaves the camera's picture of it in an :class:`ExampleStore`: a
folder of JPEG files named ``<card>-<time>-<n>-<how>.jpg``, at most ``limit`` of them (the
oldest go first). ``dealer-pi vision enrol --from-journal`` then holds back every fourth
example, adapts the reader to the rest with the deck-enrolment API
(:func:`~dealer_pi.vision.enrol.enrol_picture`, :meth:`Enrolment.fit`) and reads the held-back
pictures before and after (:func:`read_score`).

>>> import tempfile
>>> store = ExampleStore(tempfile.mkdtemp(), limit=2)
>>> for n in range(3):
...     _ = store.add(np.full((60, 40, 3), 200, np.uint8), Card.parse("Ah"), "shoe")
>>> [(str(e.card), e.how) for e in store.examples()]
[('Ah', 'shoe'), ('Ah', 'shoe')]
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError

from .detect import Detector
from .recogniser import Enrolment, Recogniser
from .sources import read_image

MAX_EXAMPLES = 1000  # about 15 KB each: a few MB on the Pi's card
HOW = ("shoe", "showdown", "dealer")
_NAME = re.compile(r"\A([2-9TJQKA][cdhs])-(\d+)-(\d+)-(shoe|showdown|dealer)\.jpg\Z")


def examples_dir(journal_path: str | Path) -> Path:
    """Where a table keeps its labelled card pictures: ``camera-examples`` beside its journal."""
    return Path(journal_path).expanduser().resolve().parent / "camera-examples"


@dataclass(frozen=True)
class Example:
    path: Path
    card: Card
    how: str  # shoe, showdown or dealer: what made the name certain

    def image(self) -> np.ndarray:
        return read_image(self.path)


class ExampleStore:
    """A bounded folder of labelled card pictures; safe to add to from any thread."""

    def __init__(self, folder: str | Path, limit: int = MAX_EXAMPLES) -> None:
        self.folder = Path(folder)
        self.limit = limit
        self._lock = threading.Lock()
        self._n = 0

    def add(self, image: np.ndarray, card: Card, how: str) -> Path:
        if how not in HOW:
            raise ValueError(f"how must be one of {', '.join(HOW)}")
        h, w = image.shape[:2]
        if min(h, w) < 64:  # a far camera's card: enlarged so every picture tool takes it
            f = 64 / min(h, w)
            image = cv2.resize(image, (max(64, round(w * f)), max(64, round(h * f))), interpolation=cv2.INTER_CUBIC)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        if not ok:
            raise InputError("example", "the picture could not be encoded")
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._n += 1
            path = self.folder / f"{card}-{time.time_ns() // 1_000_000:013d}-{self._n:04d}-{how}.jpg"
            path.write_bytes(data.tobytes())
            kept = self.examples()
            for old in kept[: max(0, len(kept) - self.limit)]:
                old.path.unlink(missing_ok=True)
        return path

    def examples(self) -> list[Example]:
        """Every example in the folder, oldest first; files with other names are left alone."""
        return load_examples(self.folder)


def load_examples(folder: str | Path) -> list[Example]:
    p = Path(folder)
    if not p.is_dir():
        return []
    out = []
    for f in p.iterdir():
        m = _NAME.match(f.name)
        if m:
            out.append((int(m.group(2)), int(m.group(3)), Example(f, Card.parse(m.group(1)), m.group(4))))
    return [e for _, _, e in sorted(out, key=lambda t: (t[0], t[1]))]


def split(examples: Sequence[Example], every: int = 4) -> tuple[list[Example], list[Example]]:
    """(to learn from, held back): every ``every``-th example is held back, so both see every stretch of play."""
    held = [e for n, e in enumerate(examples) if n % every == every - 1]
    return [e for n, e in enumerate(examples) if n % every != every - 1], held


def enrol_examples(examples: Sequence[Example], seed: int = 0) -> tuple[Enrolment, list[str]]:
    """The reader adapted to these pictures (the deck-enrolment API); problems name the file."""
    from .enrol import enrol_picture

    recogniser = Recogniser()
    enrolment = Enrolment()
    rng = np.random.default_rng(seed)
    problems: list[str] = []
    for e in examples:
        try:
            # The table's own crops, read as the camera stream reads them (see enrol_folder).
            if not enrol_picture(recogniser, enrolment, e.image(), [(e.card, None)], rng, thin_strokes=True):
                problems.append(f"{e.path.name}: no corner index found")
        except InputError as exc:
            problems.append(str(exc))
    if len(enrolment):
        enrolment.fit(recogniser.model, seed)
    return enrolment, problems


@dataclass
class ReadScore:
    right: int = 0
    wrong: int = 0
    unread: int = 0

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.unread

    def __str__(self) -> str:
        n = max(1, self.total)
        return (f"{self.right}/{self.total} named right ({100 * self.right / n:.0f} %), {self.wrong} named wrong, "
                f"{self.unread} not named")


def read_score(examples: Sequence[Example], enrolment: Enrolment | None = None) -> ReadScore:
    """How the reader (adapted by ``enrolment``, if given) names each example's card."""
    detector = Detector(Recogniser(enrolment=enrolment))
    score = ReadScore()
    for e in examples:
        named = [c for c in detector.detect(e.image()) if c.card is not None]
        if not named:
            score.unread += 1
        elif max(named, key=lambda c: c.confidence).card == e.card:
            score.right += 1
        else:
            score.wrong += 1
    return score
