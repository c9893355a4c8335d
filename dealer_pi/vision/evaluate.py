"""Accuracy on the real photo set (``../shared/datasets/real-cards-cc-by``).

    PYTHONPATH=. python -m dealer_pi.vision.evaluate [--limit N] [--enrol-half] [--model FILE]

The labels box each card's corner index (YOLO rows ``class cx cy w h``). Each
photo goes through the same :class:`~.detect.Detector` as ``vision detect``. Per photo:

* card-level recall: labelled face-up cards that a found card is named as, where the card lies
  (one of the card's labelled indices is within 0.6 of the found card's size from its centre);
* card-level precision: named cards that are right in that sense (a second name for one card
  is not);
* wrong: every other name: a card not in the photo, or named where another card lies (the
  number that must stay near zero: an unknown is fine, a wrong card is not);
* named twice: a card named right more than once (one card reported as two).

Each figure is given twice: against the labels as they are, and against the labels with the
few that the photos show to be wrong corrected (:data:`LABEL_FIXES`).

Only the odd-numbered photos (sorted by name) are scored: the shipped model
learnt from the even-numbered ones. ``--enrol-half`` also enrols the deck from
the even-numbered photos (using their labels) and scores the odd ones again.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dealer_pi.engine.cards import Card

from .detect import CardFound, Detector
from .enrol import Box, enrol_picture
from .recogniser import Enrolment, IndexModel, Recogniser, still_recogniser
from .sources import read_image
from .surface import still_cards, still_detector_with

DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "real-cards-cc-by"


def class_names(root: Path = DATASET) -> list[str]:
    text = (root / "data.yaml").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("names:"))
    return [s.strip().strip("'\"") for s in line.split("[", 1)[1].rsplit("]", 1)[0].split(",")]


def card_of(name: str) -> Card | None:
    """``10C`` -> Tc, ``AS`` -> As; backs and jokers -> None."""
    if name in ("BACK",) or "JOKER" in name:
        return None
    return Card.parse(name[:-1] + name[-1].lower())


@dataclass(frozen=True)
class Corner:
    card: Card | None
    name: str
    box: Box  # x0, y0, x1, y1 in pixels


# Labels of the shared photo set that the photo shows to be wrong, found by looking at every
# "wrong" name of the odd-numbered photos (models/REPORT.md): the photo's name, the label's class
# ("" where a face-up card has no label at all), the card the photo shows, and the middle of the
# index in pixels. Scores are given both ways: as labelled, and with these checked labels.
LABEL_FIXES: tuple[tuple[str, str, str, tuple[float, float]], ...] = (
    ("WIN_20240627_17_01_16_Pro_jpg", "4S", "3S", (406, 112)),  # a 3 of spades in a fanned row
    ("WIN_20240627_12_04_16_Pro_jpg", "4S", "3S", (119, 499)),  # a 3 of spades on a blanket: "3", three pips on its middle line
    ("WIN_20240627_17_15_49_Pro_jpg", "QS", "QC", (127, 20)),  # a queen of clubs, clubs in her picture too
    ("IMG_7794_JPG", "6S", "7S", (188, 170)),  # seven spade pips, "7" in both corners
    ("IMG_7794_JPG", "6S", "7S", (467, 425)),
    ("IMG_7768_JPG", "QC", "AC", (207, 201)),  # one club pip, "A" in both corners
    ("IMG_7768_JPG", "QC", "AC", (530, 488)),
    ("IMG_20220921_200231_jpg", "", "2S", (588, 38)),  # a 2 of spades at the edge, unlabelled
    ("IMG_20220921_194723_jpg", "", "9H", (232, 88)),  # a 9 of hearts at the top, its index upside down, unlabelled
    ("IMG_20220921_200020_jpg", "", "6H", (385, 62)),  # the 6 of hearts of IMG_20220921_200013 at the top edge, unlabelled
    ("IMG_20220921_200013_jpg", "", "6H", (391, 590)),  # its other index, upside down at the bottom, unlabelled
    ("IMG_20220921_201314_jpg", "JS", "JC", (362, 306)),  # a jack of clubs: clubs in both corners and his picture
    ("IMG_20220921_201314_jpg", "JS", "JC", (241, 462)),
    ("IMG_20220921_195926_jpg", "", "KC", (590, 95)),  # a king of clubs at the right edge beside the 7 of hearts, unlabelled
    ("IMG_20220921_201530_jpg", "3S", "3H", (456, 201)),  # a 3 of hearts in a grey picture: three heart pips, none with a spade's stem
    ("IMG_20220921_201530_jpg", "3S", "3H", (192, 414)),
    ("IMG_20220921_194653_jpg", "", "8D", (627, 18)),  # an 8 of diamonds at the top right corner, cut by the edge, unlabelled
)
_FIX_REACH = 20.0  # pixels from a fix's point to the middle of the label it corrects
_FIX_HALF = 24.0  # half the side of the box a missing label is given


def checked(stem: str, labelled: list[Corner]) -> list[Corner]:
    """``labelled`` (the corners of photo ``stem``) with :data:`LABEL_FIXES` applied. A fix that
    finds no label to correct is an error: the fixes must match the photos they name."""
    out = list(labelled)
    for photo, was, shows, (x, y) in LABEL_FIXES:
        if photo != stem:
            continue
        if not was:
            out.append(Corner(card_of(shows), shows, (x - _FIX_HALF, y - _FIX_HALF, x + _FIX_HALF, y + _FIX_HALF)))
            continue
        at = [n for n, c in enumerate(out) if c.name == was and math.dist(((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2), (x, y)) <= _FIX_REACH]
        if len(at) != 1:
            raise ValueError(f"{stem}: no single {was} label near ({x}, {y}) to correct")
        out[at[0]] = Corner(card_of(shows), shows, out[at[0]].box)
    return out


def corners(label_file: Path, names: list[str], width: int, height: int, as_labelled: bool = False) -> list[Corner]:
    """The labelled corner indices of one photo, checked (see :data:`LABEL_FIXES`) unless ``as_labelled``."""
    out = []
    for line in label_file.read_text(encoding="utf-8").split("\n"):
        parts = line.split()
        if len(parts) < 5:
            continue
        cls = int(parts[0])
        vals = [float(v) for v in parts[1:]]
        if len(vals) == 4:
            cx, cy, w, h = vals
            x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
        else:  # polygon rows
            xs, ys = vals[0::2], vals[1::2]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        out.append(Corner(card_of(names[cls]), names[cls], (x0 * width, y0 * height, x1 * width, y1 * height)))
    return out if as_labelled else checked(label_file.stem, out)


@dataclass
class Tally:
    photos: int = 0
    cards: int = 0
    found: int = 0
    named: int = 0
    right: int = 0
    twice: int = 0  # right names given a second time (one card reported as two)
    wrong: list[str] = field(default_factory=list)
    unknown_reads: int = 0
    seconds: float = 0.0

    def line(self, title: str) -> str:
        rec = self.found / self.cards if self.cards else 0.0
        prec = self.right / self.named if self.named else 0.0
        return (
            f"{title}: {self.photos} photos, {self.cards} face-up cards; recall {rec:.3f} ({self.found}/{self.cards}), "
            f"precision {prec:.3f} ({self.right}/{self.named}), wrong-confident {len(self.wrong)}, named twice {self.twice}, "
            f"unknown reads {self.unknown_reads}, {1000 * self.seconds / max(1, self.photos):.0f} ms/photo"
        )


def photos(root: Path = DATASET, prefix: str = "") -> list[Path]:
    return sorted(p for p in (root / "images").iterdir() if p.name.startswith(prefix))


def label_path(image: Path) -> Path:
    return image.parent.parent / "labels" / (image.stem + ".txt")


def score(recogniser: Recogniser, images: Iterable[Path], names: list[str], table_only: bool = True) -> Tally:
    """Against the checked labels (see :data:`LABEL_FIXES`); ``table_only``: as ``vision detect``
    reports a still, only the cards on the table it shows."""
    return score_both(recogniser, images, names, table_only)[1]


def score_both(recogniser: Recogniser, images: Iterable[Path], names: list[str], table_only: bool = True) -> tuple[Tally, Tally]:
    """The same reading scored against the labels as they are, and as checked."""
    raw, fixed = Tally(), Tally()
    detector = still_detector_with(recogniser)
    for path in images:
        img = read_image(path)
        labels = corners(label_path(path), names, img.shape[1], img.shape[0], as_labelled=True)
        t0 = time.perf_counter()
        found = detector.detect(img)
        if table_only:
            found = still_cards(found, img, None)
        seconds = time.perf_counter() - t0
        for t, labelled in ((raw, labels), (fixed, checked(label_path(path).stem, labels))):
            t.seconds += seconds
            _tally(t, path.name, found, [c for c in labelled if c.card is not None])
    return raw, fixed


def _tally(t: Tally, photo: str, found: list[CardFound], labelled: list[Corner]) -> None:
    named = [f for f in found if f.card is not None]
    right = [f for f in named if any(c.card == f.card and _holds(f, c.box) for c in labelled)]
    t.unknown_reads += sum(1 for f in found if f.card is None and f.face_up)
    t.photos += 1
    t.cards += len({c.card for c in labelled})
    t.found += len({f.card for f in right})
    t.named += len(named)
    t.right += len({f.card for f in right})
    t.twice += len(right) - len({f.card for f in right})
    t.wrong.extend(f"{photo}:{f.card}" for f in named if f not in right)


def _holds(found: CardFound, box: Box, reach: float = 0.6) -> bool:
    """Whether a labelled index can be the found card's own: its middle within ``reach`` of the
    card's size from the card's centre (an index lies about half a diagonal from it; an outline
    guessed from one corner may be a little off). A name counts as right only where that card lies."""
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return math.dist(found.centre, middle) <= reach * found.extent


Labelled = list[tuple[Card, Box]]


def labelled_boxes(path: Path, names: list[str], image: np.ndarray, pad: float = 0.1) -> Labelled:
    """Each face-up labelled corner with its box, grown by ``pad`` of its size (labels are drawn tight)."""
    out: Labelled = []
    for c in corners(label_path(path), names, image.shape[1], image.shape[0]):
        if c.card is None:
            continue
        x0, y0, x1, y1 = c.box
        p = pad * max(x1 - x0, y1 - y0)
        out.append((c.card, (x0 - p, y0 - p, x1 + p, y1 + p)))
    return out


def enrol_from(recogniser: Recogniser, images: Iterable[Path], names: list[str], seed: int = 0) -> Enrolment:
    """Enrol from labelled photos (each labelled corner is a known card at a known place), then fine-tune."""
    enrolment = Enrolment()
    rng = np.random.default_rng(seed)
    for path in images:
        img = read_image(path)
        cards: list[tuple[Card, Box | None]] = list(labelled_boxes(path, names, img))
        if cards:
            enrol_picture(recogniser, enrolment, img, cards, rng, per_card=1, negatives_per_card=6)
    enrolment.fit(recogniser.model, seed)
    return enrolment


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=DATASET)
    ap.add_argument("--limit", type=int, default=0, help="score only every n-th photo of each kind (0: all)")
    ap.add_argument("--enrol-half", action="store_true")
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--model", type=Path, help="index model to score (default: the shipped one)")
    ap.add_argument("--min-confidence", type=float, default=0.9, help="below this a card is unknown (default 0.9, as the camera)")
    ap.add_argument("--dark-only", action="store_true", help="skip the light-print pass (black decks), as the live camera does")
    ap.add_argument("--whole-picture", action="store_true", help="score every card found, on the table or not")
    args = ap.parse_args(argv)
    names = class_names(args.root)
    both = not args.dark_only
    model = IndexModel.load(args.model) if args.model else None
    base = still_recogniser(model, None, args.min_confidence, both)
    for prefix in ("WIN_", "IMG_"):
        # The shipped model learnt from the even-numbered photos (models/make_index_model.py):
        # only the odd-numbered ones are fair to score, and enrolment comes from the even ones.
        every = photos(args.root, prefix)
        enrol_set, items = every[0::2], every[1::2]
        if args.limit:
            items = items[:: args.limit]
        _report(f"{prefix}* un-enrolled", score_both(base, items, names, not args.whole_picture), args.show_wrong)
        if args.enrol_half:
            enrolment = enrol_from(base, enrol_set, names)
            tuned = still_recogniser(None, enrolment, args.min_confidence, both)
            _report(f"{prefix}* enrolled from {len(enrol_set)} other photos ({len(enrolment)} rows)",
                    score_both(tuned, items, names, not args.whole_picture), args.show_wrong)
    return 0


def _report(title: str, tallies: tuple[Tally, Tally], show_wrong: bool) -> None:
    for how, t in zip(("as labelled", "labels checked"), tallies):
        print(t.line(f"{title}, {how}"))
        if show_wrong:
            print("  wrong:", " ".join(t.wrong))


if __name__ == "__main__":
    raise SystemExit(main())


# Where a corner index's middle lies on its card, in the card's width and height from its corner
# (poker-size decks print it 6-7 mm in and 11-12 mm down on a 63 x 88 mm card).
INDEX_INSET = (0.10, 0.13)


def card_crops(images: Iterable[Path], names: list[str]) -> list[tuple[Card, np.ndarray]]:
    """Each card that shows both its labelled corner indices, cut out along its own outline.

    The two indices sit at opposite corners of the card (top left and bottom right as printed),
    a known distance in: their two middles give the card's size, its turn and so its four
    corners. A card with another card's labelled index on it is left out: it lies under that card,
    and its cut-out would show the other card's face (read right, but scored as a wrong name).
    """
    import cv2

    from .faces import CARD_H, CARD_W

    out: list[tuple[Card, np.ndarray]] = []
    for path in images:
        img = read_image(path)
        labelled = [c for c in corners(label_path(path), names, img.shape[1], img.shape[0]) if c.card is not None]
        by_card: dict[Card, list[Corner]] = {}
        for c in labelled:
            assert c.card is not None
            by_card.setdefault(c.card, []).append(c)
        for card, cs in by_card.items():
            if len(cs) != 2:
                continue
            outline = _card_outline(_middle(cs[0].box), _middle(cs[1].box), CARD_H / CARD_W)
            if outline is None or not _within_picture(outline, img.shape[1], img.shape[0]):
                continue
            if any(cv2.pointPolygonTest(outline, _middle(c.box), False) >= 0 for c in labelled if c.card != card):
                continue
            m = cv2.getAffineTransform(outline[:3], np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H]], np.float32))
            out.append((card, cv2.warpAffine(img, m, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)))
    return out


def _middle(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _within_picture(outline: np.ndarray, width: int, height: int, slack: float = 0.03) -> bool:
    """Whether the card lies in the photo (a sliver of its margin past the edge is allowed)."""
    room = slack * float(np.hypot(*(outline[1] - outline[0])))
    return bool((outline[:, 0] >= -room).all() and (outline[:, 0] <= width + room).all()
                and (outline[:, 1] >= -room).all() and (outline[:, 1] <= height + room).all())


def _card_outline(a: tuple[float, float], b: tuple[float, float], aspect: float) -> np.ndarray | None:
    """The four corners (top left, top right, bottom right, bottom left, as printed) of the card
    whose opposite corner indices have their middles at ``a`` and ``b``; None for a card under 40
    pixels wide, too small to cut out."""
    fx, fy = INDEX_INSET
    d = np.subtract(b, a)
    across, down = 1 - 2 * fx, (1 - 2 * fy) * aspect  # from index to index, in card widths
    width = float(np.hypot(*d)) / math.hypot(across, down)
    if width < 40:
        return None
    turn = math.atan2(d[1], d[0]) - math.atan2(down, across)
    u = width * np.array([math.cos(turn), math.sin(turn)])
    v = aspect * width * np.array([-math.sin(turn), math.cos(turn)])
    top_left = np.asarray(a) - fx * u - fy * v
    return np.array([top_left, top_left + u, top_left + u + v, top_left + v], np.float32)


def compose_real_frame(
    crops: list[tuple[Card, np.ndarray]], rng: np.random.Generator, n_cards: int = 8, card_height: float = 160.0
) -> tuple[np.ndarray, list[tuple[Card | None, tuple[float, float]]]]:
    """A 1280x720 overhead frame of real card crops on felt: singles, overlapping pairs, face-down cards.

    Returns the frame and the truth: each card (None when face down) with its centre.
    """
    from .faces import render_back
    from .render import Placement, camera_faults, card_homography, compose, felt

    placements: list[Placement] = []
    truth: list[tuple[Card | None, tuple[float, float]]] = []
    slots = [(x, y) for y in (190.0, 520.0) for x in (170.0, 480.0, 790.0, 1100.0)]
    rng.shuffle(slots)
    picks = rng.choice(len(crops), size=min(n_cards, len(crops)), replace=False)
    k = 0
    seen: set[Card] = set()
    for slot in slots:
        if k >= len(picks):
            break
        pair = rng.random() < 0.4
        for j in range(2 if pair else 1):
            if k >= len(picks):
                break
            card, img = crops[int(picks[k])]
            k += 1
            if card in seen:
                continue
            seen.add(card)
            down = rng.random() < 0.15
            if j == 0:
                angle = float(rng.uniform(0, 360))
            else:
                angle += float(rng.uniform(10, 25))  # a fanned, overlapping pair
            off = (0.0, 0.0) if j == 0 else (float(rng.uniform(25, 40)), float(rng.uniform(-10, 10)))
            centre = (slot[0] + off[0], slot[1] + off[1])
            image = render_back() if down else img
            hm = card_homography(centre, angle, card_height, tilt=float(rng.normal(0, 0.02)))
            placements.append(Placement(image, hm, None if down else card, not down))
            truth.append((None if down else card, centre))
    scene = compose(felt(1280, 720, rng), placements)
    return camera_faults(scene.frame, rng, 0.5), truth


@dataclass
class FramesTally:
    """What the camera's detector made of composed real frames (see :func:`score_real_frames`)."""

    layouts: int = 0
    frames: int = 0
    face_up: int = 0
    named_first: int = 0  # named right in a layout's first frame
    named: int = 0  # named right in its last frame
    wrong: int = 0  # wrong names, counted once a layout, in any of its frames
    taken_down: int = 0  # face-down reports on a face-up card (last frame): an exposed card missed
    downs: int = 0
    downs_found: int = 0
    downs_reported: int = 0
    seconds: float = 0.0


def score_real_frames(detector: Detector, crops: list[tuple[Card, np.ndarray]], rng: np.random.Generator,
                      layouts: int, frames_each: int, card_height: float = 160.0, noise_seed: int = 0) -> FramesTally:
    """Composed real frames (:func:`compose_real_frame`) through a camera's ``detector``, each
    layout lying still for ``frames_each`` frames with fresh sensor noise in each, as a camera
    films a table between two changes: its change gate reads that many frames in full (the
    tracker's window), and a camera's detector takes a few closer looks a frame, remembered while
    a card lies still. One detector for all layouts, as one camera over one table. The layouts
    come from ``rng`` alone (the same as one frame a layout gives), the noise from ``noise_seed``."""
    from .render import sensor_noise

    t = FramesTally()
    noise_rng = np.random.default_rng(noise_seed)
    for _ in range(layouts):
        frame, truth = compose_real_frame(crops, rng, card_height=card_height)
        cards = {c for c, _ in truth if c is not None}
        wrong: set[Card] = set()
        found: list[CardFound] = []
        for k in range(frames_each):
            noisy = sensor_noise(frame, noise_rng)
            t0 = time.perf_counter()
            found = detector.detect(noisy)
            t.seconds += time.perf_counter() - t0
            got = {f.card for f in found if f.card is not None}
            wrong |= got - cards
            if k == 0:
                t.named_first += len(cards & got)
        t.layouts += 1
        t.frames += frames_each
        t.face_up += len(cards)
        t.named += len(cards & {f.card for f in found if f.card is not None})
        t.wrong += len(wrong)
        reported_down = [f.centre for f in found if not f.face_up]
        t.downs_reported += len(reported_down)
        for card, centre in truth:
            if card is None:
                t.downs += 1
                t.downs_found += any(math.dist(centre, d) < 100 for d in reported_down)
        # A face-down report whose nearest card lies face up, within half a card: that card is missed.
        for d in reported_down:
            card, centre = min(truth, key=lambda tc: math.dist(tc[1], d))
            t.taken_down += card is not None and math.dist(centre, d) < 0.5 * card_height
    return t
