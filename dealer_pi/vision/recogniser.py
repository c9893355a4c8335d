"""Naming corner indices: a small convolutional network, plus what a venue enrolled.

The shipped reader (``models/index_cnn.onnx`` and ``models/index_cnn.npz``,
made by ``models/make_index_cnn.py``) looks at one
:class:`~dealer_pi.vision.glyphs.Hypothesis`: each glyph, turned upright, goes
through its own small convolutional branch (ONNX, run by onnxruntime on one
thread); on top, the rank head names the upper glyph (2..A, or "not a rank"),
the suit head the lower one (c, d, h, s, or "not a suit"), each one hidden
layer in numpy on [embedding, geometry]; the card's confidence is the product.
Its temperature was fitted on held-back examples, so a read's confidence is
how often such a read is right. The older two-layer reader
(``models/index_mlp.npz``, no branches: the heads look at the glyph cells
themselves) still loads, as the reference the benchmarks compare against.

Enrolment (:class:`Enrolment`) keeps glyph pairs of the venue's own deck with
their cards (and pairs that are not indices) and fine-tunes both heads on
them, which adapts the reader to a deck whose font it never saw; the branches
stay as shipped, so this runs in numpy on the Pi.

A read below ``min_confidence`` is reported with ``card=None``: unknown is
safer than a guess.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dealer_pi.engine.cards import Card, misread_as
from dealer_pi.resources import shipped

from .card_shape import filled_polygon, outline
from .glyphs import (
    FEATURES,
    GRID,
    Blobs,
    GlyphParams,
    Hypothesis,
    PairRows,
    blob_mask,
    find_blobs,
    glyph_colour,
    hypotheses_from_blobs,
    near_card_stock,
)
from .pips import COURT_RANKS, NUMBER_RANKS, Seen
from .pips import verdicts as pip_verdicts

RANKS = 13  # rank classes 0..12 are 2..A; 13 is "not a rank"
SUITS = 4  # suit classes in Card order c, d, h, s; 4 is "not a suit"
# Green, blue or teal print (its red channel this far, of 255, below the brighter of green and
# blue) is no heart and no spade: a two-colour deck prints neither so, and a four-colour deck
# prints its clubs green and its diamonds blue, its hearts red and its spades black. A back's teal
# lattice's light ground, read as light print, named a king of hearts on a pair of backs (a Kh at
# 0.86 and 0.65 at two "corners"). Light print is gold or white, never teal.
COOL_PRINT = 0.25
NOT_COOL_SUITS = [2, 3]  # hearts, spades
# Light print is gold or white: never greener than red by this share of 255. On the odd real photos
# the light print read at 0.5 or more (849 reads, the black deck's gold and white indices) was at
# most 0.084 greener than red, and at most 0.05 where it read at 0.85 or more. The yellow-green
# squares of a green lattice back, read as light print, were 0.18 greener: a Kh at 0.91 on a pair
# of backs (real cut-outs on a still's table, models/REPORT.md).
GREEN_LIGHT = 0.12
MODEL_DIR = shipped("models")
DEFAULT_MODEL = MODEL_DIR / "index_cnn.npz"
REFERENCE_MODEL = MODEL_DIR / "index_mlp.npz"  # the two-layer reader the benchmarks compare against
_G = GRID * GRID


def rank_part(feats: np.ndarray) -> np.ndarray:
    """The rank glyph and the pair's geometry."""
    return np.hstack([feats[:, :_G], feats[:, 2 * _G :]])


def suit_part(feats: np.ndarray) -> np.ndarray:
    return feats[:, _G:]


class ModelError(ValueError):
    """The model or enrolment file is missing or malformed."""


@dataclass(frozen=True)
class IndexRead:
    """One corner index seen in a picture."""

    card: Card | None
    confidence: float
    rank_xy: tuple[float, float]
    suit_xy: tuple[float, float]
    size: float  # rank glyph size in pixels
    best: Card | None = None  # the top guess even when below the confidence bar
    suit: float = 1.0  # how sure of its suit alone (VOUCHED_SUIT where the pips vouch for it)
    # A name, and how sure, that another pass of a still read here and a misread links to ``best``
    # (:func:`settled`): the corner may be either, and so may its card.
    rival: tuple[Card, float] | None = None
    # How many of a still's passes read ``best`` here at AGREED_EACH or more (:func:`settled`; 0: not counted).
    agreeing: int = 0

    @property
    def down(self) -> tuple[float, float]:
        """Unit vector towards the card's bottom edge (rank to suit)."""
        dx = self.suit_xy[0] - self.rank_xy[0]
        dy = self.suit_xy[1] - self.rank_xy[1]
        n = math.hypot(dx, dy) or 1.0
        return dx / n, dy / n


@dataclass
class Mlp:
    """One hidden ReLU layer and a softmax, on standardised inputs."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    mean: np.ndarray
    scale: np.ndarray

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {
            f"{prefix}w1": self.w1.astype(np.float16),
            f"{prefix}b1": self.b1,
            f"{prefix}w2": self.w2.astype(np.float16),
            f"{prefix}b2": self.b2,
            f"{prefix}mean": self.mean,
            f"{prefix}scale": self.scale,
        }

    @staticmethod
    def from_arrays(z: Any, prefix: str) -> Mlp:
        return Mlp(*(np.asarray(z[prefix + k], np.float32) for k in ("w1", "b1", "w2", "b2", "mean", "scale")))

    def hidden(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(0.0, ((x - self.mean) / self.scale) @ self.w1 + self.b1)

    def probs(self, x: np.ndarray) -> np.ndarray:
        return softmax(self.hidden(x) @ self.w2 + self.b2)


def softmax(z: np.ndarray) -> np.ndarray:
    """Each row of logits ``z`` as probabilities."""
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


_sessions: dict[tuple[str, str], Any] = {}
_sessions_lock = threading.Lock()


def shared_session(key: tuple[str, str], load: Callable[[], Any]) -> Any:
    """One onnxruntime session per model file (its path and SHA-256) for the whole process:
    ``load`` makes it the first time."""
    with _sessions_lock:
        if key not in _sessions:
            _sessions[key] = load()
        return _sessions[key]


def onnx_session(data: bytes, where: Path) -> Any:
    """An onnxruntime session for the model ``data`` (read from ``where``), on one thread."""
    import onnxruntime as ort  # only where a learned model is loaded

    opts = ort.SessionOptions()
    # One thread: the camera loop owns a core, and small batches gain nothing from more.
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(data, opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own error types for a bad file
        raise ModelError(f"{where}: not a readable ONNX model ({exc})") from exc


@dataclass(frozen=True)
class Trunk:
    """The convolutional glyph branches: an ONNX file, named with its SHA-256 so that heads
    trained on other branches are refused. Pickles as its path (for worker processes)."""

    path: Path
    sha256: str

    def session(self) -> Any:
        return shared_session((str(self.path), self.sha256), self._load)

    def _load(self) -> Any:
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise ModelError(f"{self.path}: cannot read the reader's branches ({exc})") from exc
        if hashlib.sha256(data).hexdigest() != self.sha256:
            raise ModelError(f"{self.path}: these branches are not the ones the heads were trained on")
        return onnx_session(data, self.path)

    def embed(self, rank_rows: np.ndarray, suit_rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rank glyph embeddings of ``rank_rows`` and suit glyph embeddings of ``suit_rows``
        (feature rows; by default the same ones). Each branch runs only on its own rows."""
        if suit_rows is None:
            suit_rows = rank_rows
        rank, suit = self.session().run(
            None,
            {"rank_glyphs": glyph_batch(rank_rows, 0), "suit_glyphs": glyph_batch(suit_rows, 1)},
        )
        return rank, suit


def glyph_batch(rows: np.ndarray, which: int) -> np.ndarray:
    """Glyph ``which`` (0 rank, 1 suit) of each feature row, as the branches' Nx1x20x20 input."""
    cells = rows[:, which * _G : (which + 1) * _G]
    return np.ascontiguousarray(cells.reshape(-1, 1, GRID, GRID), np.float32)


@dataclass
class IndexModel:
    """The rank head (14 classes) and the suit head (5 classes), on the convolutional
    branches' embeddings when there is a ``trunk``, else on the glyph cells themselves."""

    rank: Mlp
    suit: Mlp
    trunk: Trunk | None = None

    @staticmethod
    def load(path: str | Path = DEFAULT_MODEL) -> IndexModel:
        p = Path(path)
        try:
            with np.load(p) as z:
                model = IndexModel.from_arrays(z, p)
        except (OSError, KeyError, ValueError) as exc:
            raise ModelError(f"{p}: cannot load the index model ({exc})") from exc
        if model.rank.w2.shape[1] != RANKS + 1 or model.suit.w2.shape[1] != SUITS + 1:
            raise ModelError(f"{p}: the index model has the wrong number of classes")
        if model.trunk is not None:
            model.trunk.session()  # a missing or altered ONNX file is found now, not at the first frame
        return model

    @staticmethod
    def from_arrays(z: Any, where: Path) -> IndexModel:
        """Heads, and the branches they were trained on: an ONNX file beside ``where``, or the shipped one."""
        trunk = None
        if "trunk_sha256" in z:
            name = Path(str(z["trunk_file"])).name  # a file name, never a path out of the model folders
            local = where.parent / name
            trunk = Trunk(local if local.exists() else MODEL_DIR / name, str(z["trunk_sha256"]))
        return IndexModel(Mlp.from_arrays(z, "rank_"), Mlp.from_arrays(z, "suit_"), trunk)

    def arrays(self) -> dict[str, np.ndarray]:
        out = {**self.rank.arrays("rank_"), **self.suit.arrays("suit_")}
        if self.trunk is not None:
            out["trunk_file"] = np.array(self.trunk.path.name)
            out["trunk_sha256"] = np.array(self.trunk.sha256)
        return out

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, **self.arrays())

    def parts(self, feats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What the rank head and the suit head look at."""
        if self.trunk is None:
            return rank_part(feats), suit_part(feats)
        rank, suit = self.trunk.embed(feats)
        geom = feats[:, 2 * _G :]
        return np.hstack([rank, geom]), np.hstack([suit, geom])

    def probs(self, feats: np.ndarray, rank_floor: float = 0.0,
              with_suits: Callable[[np.ndarray], np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities per pair.

        With ``rank_floor``, a pair whose likeliest rank is under it gets no suit reading (its
        suit is "not a suit"). A read needs P(rank) x P(suit) of at least :data:`READ_FLOOR`, so
        with that floor no read is lost, and the suit branch runs only on the few pairs that
        look like an index: most proposed pairs are pips and picture fragments.
        ``with_suits`` (:meth:`.glyphs.PairRows.with_suits`): ``feats`` still lack their suit
        glyphs, and this puts them in for the rows it is given (a mask).
        """
        if self.trunk is None or rank_floor <= 0.0:
            if with_suits is not None:
                feats = with_suits(np.ones(len(feats), bool))
            rank_in, suit_in = self.parts(feats)
            return self.rank.probs(rank_in), self.suit.probs(suit_in)
        geom = feats[:, 2 * _G :]
        rank_emb, _ = self.trunk.embed(feats, feats[:0])
        pr = self.rank.probs(np.hstack([rank_emb, geom]))
        keep = pr[:, :RANKS].max(axis=1) >= rank_floor
        ps = np.zeros((len(feats), SUITS + 1), np.float32)
        ps[:, SUITS] = 1.0
        if keep.any():
            if with_suits is not None:
                feats = with_suits(keep)
            _, suit_emb = self.trunk.embed(feats[:0], feats[keep])
            ps[keep] = self.suit.probs(np.hstack([suit_emb, geom[keep]]))
        return pr, ps

    def suit_probs(self, feats: np.ndarray) -> np.ndarray:
        """The suit head's probabilities alone (the rank branch does not run)."""
        if self.trunk is None:
            return self.suit.probs(suit_part(feats))
        _, suit_emb = self.trunk.embed(feats[:0], feats)
        return self.suit.probs(np.hstack([suit_emb, feats[:, 2 * _G :]]))


# Still pictures (no size known, no time to vote over frames): also read at half and double size, where
# big and tiny glyphs come out as cleanly as the camera's usual ones.
STILL_SCALES = (1.0, 0.5, 2.0)
# A small still (a phone's photo sent at 640 px) is also read at triple size: its indices can be
# 6-9 px. On a large one that would enlarge the card stock past what a still may take.
SMALL_STILL_SCALES = (3.0,)
SMALL_PICTURE_PX = 1000  # the longer side of a small picture, at most
# Enlarged by area, a picture's pixels become blocks with hard steps between them; at triple size a
# step is as wide as a small index's stroke, and small 3s, 10s and 2s of tight fans went unnamed in
# the blocks. A picture enlarged this much or more is interpolated instead. At double size the blocks
# read better on the design never trained on (models/REPORT.md, "A smooth triple size"), so they stay.
SMOOTH_FROM = 3.0

READ_FLOOR = 0.3  # a pair read below this is no read at all (not even an unknown card)
# A read this sure may name its card, alone or with the card's other corner (detect.CANDIDATE).
VOUCHED_FROM = 0.5
VOUCHED_SUIT = 0.99  # a suit the pips vouch for (pips.vouch) is taken as this sure; only a suit read less sure is asked
# In a picture without colour nothing checks a suit read unsure (under VOUCHED_SUIT) that no pips vouch
# for: a diamond cut by a shadow's edge read 0.93 as a spade. Nor in light print, gold or white on black
# cards, whatever the picture's colour: a gold 4 of hearts of 10 pixels read 0.97 as an ace. Such a read
# falls this short of the bar, so it names its card only together with the card's other corner.
GREY_ALONE_SHORT_BY = 0.01
# Light print is gold or white on a black card: a quarter of the card its read implies is darker than
# this share of the print's brightness. A pale back's ground between dark loops read as light print
# (an ace at 0.89, face up, on a face-down pair: a held-out scene, models/REPORT.md); its card was
# 0.79 to 1.01. Light print the odd real photos name lay on cards of 0.64 at most.
LIGHT_ON_DARK = 0.72
# A still is read in several passes (sizes, print polarities), each resampling the glyphs afresh.
# A read short of the bar names its card where at least AGREED_PASSES passes read that name at its
# place at AGREED_EACH or more and none reads another name there that sure: on the odd real photos,
# reads of 0.7-0.9 with three such passes were right 29 times in 29, against about 4 in 10 alone.
# The shipped reader only: with an enrolled one, three passes read a half-covered 8h as a 3h.
AGREED_FROM = 0.7
AGREED_EACH = 0.5
AGREED_PASSES = 3
NOT_INDEX = 52  # label of a pair that is not a corner index (pips, pictures); cards are 0..51
# A live frame's small club index reads as a spade now and then, and the other corner often alike
# (the same print, the same blur). Read again at double size in a box round it, such an index came
# out right: a black read unsure of its suit, that no pips vouch for, is looked at again so, and
# where the second look leans to the other black suit the read is no surer of its own than that
# look leaves room for (see ``models/REPORT.md``, "A second look at a black suit").
SECOND_LOOK_SCALE = 2.0


def rank_suit_labels(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Card labels (``Card.index`` or ``NOT_INDEX``) as the rank and suit networks' classes."""
    return np.where(y == NOT_INDEX, RANKS, y // 4), np.where(y == NOT_INDEX, SUITS, y % 4)


@dataclass
class Enrolment:
    """Glyph pairs of one venue's deck: each with its card's index, or NOT_INDEX.

    :meth:`fit` fine-tunes the shipped networks on them; the adapted networks
    are saved with the rows, so loading an enrolment costs nothing at start.
    """

    rows: np.ndarray = field(default_factory=lambda: np.zeros((0, FEATURES), np.float32))
    labels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    model: IndexModel | None = None

    def __len__(self) -> int:
        return int((self.labels != NOT_INDEX).sum())

    def add(self, rows: np.ndarray, card: Card | None) -> None:
        """Rows showing ``card``'s index, or (``card=None``) rows that are not an index."""
        rows = np.asarray(rows, np.float32).reshape(-1, FEATURES)
        self.rows = np.vstack([self.rows, rows])
        label = NOT_INDEX if card is None else card.index
        self.labels = np.concatenate([self.labels, np.full(len(rows), label, np.int64)])

    def fit(self, base: IndexModel, seed: int = 0, epochs: int = 40) -> IndexModel:
        """Fine-tune ``base`` on the enrolled rows (deterministic for a seed)."""
        from .training import fit_index_model

        rng = np.random.default_rng(seed)
        # Repeat the few enrolled indices so each epoch sees them as often as the negatives.
        pos = np.nonzero(self.labels != NOT_INDEX)[0]
        neg = np.nonzero(self.labels == NOT_INDEX)[0]
        reps = max(1, len(neg) // max(1, len(pos)))
        order = np.concatenate([np.tile(pos, reps), neg])
        self.model = fit_index_model(self.rows[order], self.labels[order], rng, epochs=epochs, start=base, lr=1e-3)
        return self.model

    def save(self, path: str | Path) -> None:
        extra = self.model.arrays() if self.model else {}
        np.savez_compressed(path, rows=self.rows.astype(np.float16), labels=self.labels, **extra)

    @staticmethod
    def load(path: str | Path) -> Enrolment:
        p = Path(path)
        try:
            with np.load(p) as z:
                rows, labels = np.asarray(z["rows"], np.float32), np.asarray(z["labels"], np.int64)
                model = IndexModel.from_arrays(z, p) if "rank_w1" in z else None
        except (OSError, KeyError, ValueError) as exc:
            raise ModelError(f"{p}: cannot load the enrolment ({exc})") from exc
        if rows.ndim != 2 or rows.shape[1] != FEATURES or len(rows) != len(labels) or (len(labels) and (labels.min() < 0 or labels.max() > NOT_INDEX)):
            raise ModelError(f"{p}: not an enrolment file of this version (rows and labels do not match)")
        return Enrolment(rows, labels, model)


class Recogniser:
    """Finds and names corner indices in a picture."""

    def __init__(
        self,
        model: IndexModel | None = None,
        enrolment: Enrolment | None = None,
        params: GlyphParams | None = None,
        min_confidence: float = 0.9,
        both_polarities: bool = False,
        scales: tuple[float, ...] = (1.0,),
        small_scales: tuple[float, ...] = (),
        pips: bool = True,
        stock_only: bool = True,
        second_look: bool = True,
    ) -> None:
        """``scales`` other than 1 read the picture again resized (stills: see ``STILL_SCALES``);
        ``small_scales`` too, for pictures no longer than ``SMALL_PICTURE_PX``. ``pips``: a
        number card's pips are asked before its index names it (see :mod:`.pips`); off only
        to measure what that costs. ``stock_only``: a camera frame's dark print is read only on
        and round white card stock (see :meth:`read`); off only to measure what that saves.
        ``second_look``: a camera frame's black reads unsure of their suit are read again at
        double size (:data:`SECOND_LOOK_SCALE`); off only to measure what it changes."""
        self.second_look = second_look
        self.both_polarities = both_polarities
        self.pips = pips
        self.stock_only = stock_only
        self.scales = scales
        self.small_scales = small_scales
        base = model or IndexModel.load()
        # An enrolled deck brings its own fine-tuned networks.
        self.model = enrolment.model if enrolment is not None and enrolment.model is not None else base
        self.enrolled = self.model is not base
        self.enrolment = enrolment
        self.params = params or GlyphParams()
        self.min_confidence = min_confidence

    def class_probs(self, pairs: PairRows) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities per pair; pairs that cannot make a read get no suit reading
        (nor their suit glyph warped)."""
        return self.model.probs(pairs.rows, rank_floor=READ_FLOOR, with_suits=pairs.with_suits)

    def read(self, bgr: np.ndarray, region: np.ndarray | None = None, glyph_px: float = 0.0,
             quartered: np.ndarray | None = None, felt: np.ndarray | None = None,
             not_dark_print: np.ndarray | None = None, light_within: np.ndarray | None = None) -> list[IndexRead]:
        """Every corner index in ``bgr`` (only inside ``region`` if given; ``quartered``: the picture at
        quarter size, :func:`.glyphs.quarter`, where the caller has it already; ``felt``: the
        table's colour, where it is cloth, whose ink is no print; ``not_dark_print``: 255 where
        dark ink is no print, such as the band of felt round a still's cards, :func:`.glyphs.felt_band`;
        ``light_within``: 255 where light print is read, such as a still's table and round it).

        ``glyph_px``, when known (the size of rank glyphs in recent frames),
        narrows the search to glyphs of about that size: pips and picture
        fragments of other sizes are not even considered, which saves most of the work. Its dark
        print is then read only on and round white card stock, as an enlarged picture's is: the
        hole cards' backs are left out (a colourless picture, or one without stock, is read whole).
        """
        reads: list[IndexRead] = []
        passes: list[list[IndexRead]] = []
        # Whether the picture has colour at all is the whole picture's, not a resized box's.
        colourful = bgr.ndim == 3 and _colourful(bgr)
        small = max(bgr.shape[:2]) <= SMALL_PICTURE_PX
        scales = self.scales + (self.small_scales if small else ())
        # Dark print that is an index lies on white card stock. Enlarged, a back's pattern breaks
        # into glyph-sized blobs by the thousand: an enlarged picture's dark print is read only there.
        # So is a camera frame's (its glyph size known): the hole cards' backs gave most of its
        # glyph pairs, every one of them run through the networks to read as no index.
        live = glyph_px > 0 and self.stock_only
        dark = region if not_dark_print is None else _within(region, cv2.bitwise_not(not_dark_print))
        on_stock = _within(dark, near_card_stock(bgr, quartered)) if live or any(scale > 1.0 for scale in scales) else dark
        lit = _within(region, light_within)
        base = self._with_felt(felt)
        for scale in scales:
            params = _around(base, glyph_px * scale) if glyph_px > 0 else base
            for light in self.polarities:
                where = lit if light else on_stock if scale > 1.0 or live else dark
                resized = (bgr, where, (0, 0)) if scale == 1.0 else _resized(bgr, where, scale, params)
                if resized is None:
                    continue
                view, view_region, offset = resized
                more = self._read(view, view_region, dataclasses.replace(params, light_print=light), colourful)
                if scale != 1.0:
                    more = [_scaled_back(r, scale, offset) for r in more]
                passes.append(more)
                reads = _merge(reads, more)
        if glyph_px > 0 and self.second_look and scales == (1.0,):
            again = _around(base, glyph_px * SECOND_LOOK_SCALE)
            reads = [self._looked_again(bgr, r, again, colourful) for r in reads]
        if not colourful or self.enrolled:
            # Nothing checks a grey picture's suit; passes that agree on it do not either. An
            # enrolled reader is surer than the shipped one, and its passes agreed on a wrong name.
            return reads
        return settled(reads, passes, self.min_confidence)

    def _looked_again(self, bgr: np.ndarray, r: IndexRead, params: GlyphParams, colourful: bool) -> IndexRead:
        """``r`` after a second look at double size (:data:`SECOND_LOOK_SCALE`, with ``params``
        for glyphs of that size), where it is a black read that may name or lean to its card,
        unsure of its suit, with no pips vouching."""
        b = r.best
        if b is None or b.suit not in "cs" or r.confidence < VOUCHED_FROM or r.suit >= VOUCHED_SUIT:
            return r
        m = 2.0 * r.size
        xs, ys = (r.rank_xy[0], r.suit_xy[0]), (r.rank_xy[1], r.suit_xy[1])
        x0, y0 = max(0, int(min(xs) - m)), max(0, int(min(ys) - m))
        x1, y1 = min(bgr.shape[1], int(max(xs) + m) + 1), min(bgr.shape[0], int(max(ys) + m) + 1)
        other = "s" if b.suit == "c" else "c"
        for q in self._read_box(bgr, (x0, y0, x1 - x0, y1 - y0), params, colourful):
            if (_same_place(q, r) and q.best is not None and q.best.rank == b.rank and q.best.suit == other
                    and q.confidence >= VOUCHED_FROM):
                suit = min(r.suit, 1.0 - q.suit)
                c = r.confidence / r.suit * suit
                return dataclasses.replace(r, card=r.card if c >= self.min_confidence else None, confidence=c, suit=suit)
        return r

    def read_box(self, bgr: np.ndarray, box: tuple[int, int, int, int], glyph_px: float,
                 felt: np.ndarray | None = None) -> list[IndexRead]:
        """Every corner index in ``box`` (x, y, width, height) of a camera frame or a still, read at
        :data:`SECOND_LOOK_SCALE` times its size for glyphs of about ``glyph_px`` (the frame's
        size), in the print polarities the picture is read in; in the frame's pixels. ``felt``: as
        for :meth:`read`."""
        colourful = bgr.ndim == 3 and _colourful(bgr)
        params = _around(self._with_felt(felt), glyph_px * SECOND_LOOK_SCALE)
        reads: list[IndexRead] = []
        for light in self.polarities:
            reads = _merge(reads, self._read_box(bgr, box, dataclasses.replace(params, light_print=light), colourful, margin_too=True))
        return reads

    def same_search(self, px: float, other: float) -> bool:
        """Whether a camera frame read for glyphs of about ``px`` pixels (:meth:`read`, and its
        second look) looks for glyphs of the very sizes one read for ``other`` does.

        >>> reader = Recogniser()
        >>> reader.same_search(15.0, 15.2), reader.same_search(15.0, 16.0)
        (True, False)
        """
        scales = (*self.scales, SECOND_LOOK_SCALE)
        return all(_around(self.params, px * s) == _around(self.params, other * s) for s in scales)

    @property
    def polarities(self) -> tuple[bool, ...]:
        """The print read: dark, and light too (gold or white on black cards) where both are asked."""
        return (False, True) if self.both_polarities else (False,)

    def _with_felt(self, felt: np.ndarray | None) -> GlyphParams:
        """The reader's glyph parameters, with the table's colour where it is cloth (see :meth:`read`)."""
        return self.params if felt is None else dataclasses.replace(self.params, felt=(int(felt[0]), int(felt[1]), int(felt[2])))

    def _read_box(self, bgr: np.ndarray, box: tuple[int, int, int, int], params: GlyphParams, colourful: bool,
                  margin_too: bool = False) -> list[IndexRead]:
        """The reads of ``box`` at :data:`SECOND_LOOK_SCALE`; ``margin_too``: also of the margin
        :func:`_resized` leaves round it for the threshold window (labelled whole, without the
        bookkeeping that gives a region's ink the ids of the whole picture's)."""
        resized = _resized(bgr, None, SECOND_LOOK_SCALE, params, box)
        if resized is None:
            return []
        view, view_region, offset = resized
        reads = self._read(view, None if margin_too else view_region, params, colourful)
        return [_scaled_back(q, SECOND_LOOK_SCALE, offset) for q in reads]

    def _read(self, bgr: np.ndarray, region: np.ndarray | None, params: GlyphParams, colourful: bool) -> list[IndexRead]:
        blobs = find_blobs(bgr, params, region)
        hyps = hypotheses_from_blobs(blobs, params)
        if not hyps:
            return []
        pairs = PairRows(blobs, hyps)
        pr, ps = self.class_probs(pairs)
        pr = only_descending(pr, blobs, hyps)
        # Every pair that may make a read has its suit glyph in its row by now.
        return self._decide(bgr, blobs, hyps, pairs.rows, pr, ps, use_colour=not params.light_print, colourful=colourful)

    def _decide(
        self, bgr: np.ndarray, blobs: Blobs, hyps: list[Hypothesis], rows: np.ndarray, pr: np.ndarray, ps: np.ndarray,
        use_colour: bool, colourful: bool,
    ) -> list[IndexRead]:
        ps = ps.copy()
        colours: dict[int, tuple[float, float]] = {}
        cool: list[int] = []
        no_print: list[int] = []
        for n, hy in enumerate(hyps):
            if pr[n, :RANKS].max() < READ_FLOOR or not (use_colour or colourful):
                continue  # cannot reach the bar whatever its colour, or no colour to see; skip the cost
            if hy.suit_id not in colours:
                colours[hy.suit_id] = glyph_colour(bgr, blobs, hy.suit_id)
            red, greener = colours[hy.suit_id]
            if red < -COOL_PRINT and colourful:
                cool.append(n)  # dark print or light: no deck prints a heart or a spade so
            if not use_colour:
                if greener > GREEN_LIGHT:
                    no_print.append(n)  # light, and neither gold nor white: a back's pattern
                continue  # gold or white print on black cards says nothing of red or black suits
            if red > 0.12:
                ps[n, [0, 3]] *= 0.05  # clearly red print is no club or spade
            elif red < 0.02 and colourful:
                ps[n, [1, 2]] *= 0.2
        # Gold or white print counts as a grey picture does: its colour names no suit.
        colour_checks_suit = use_colour and colourful
        ps /= ps.sum(axis=1, keepdims=True)
        # After the sum is taken, not before: a network sure of a heart stays sure of it however
        # its other suits are weighed, and the print's colour is to take the heart away, not to
        # hand the name to a suit the network hardly thought of.
        ps[np.ix_(cool, NOT_COOL_SUITS)] *= 0.05
        r = pr[:, :RANKS].argmax(axis=1)
        s = ps[:, :SUITS].argmax(axis=1)
        idx = np.arange(len(hyps))
        conf = pr[idx, r] * ps[idx, s]
        conf[no_print] = 0.0
        order = np.argsort(-conf)
        used: set[int] = set()
        chosen: list[int] = []
        for n in order.tolist():
            hy = hyps[n]
            if conf[n] < READ_FLOOR:
                break
            # The sides of a blob cut in two are its pixels too: a pair of either takes the whole.
            comps = {blobs.whole_of(k) for k in (*hy.rank_ids, hy.suit_id)}
            if comps & used:
                continue
            used |= comps
            chosen.append(n)
        # A number card's pips are asked before its index may name it, alone or with its other corner.
        cards = (r[chosen] * 4 + s[chosen]).tolist()
        # A court is asked too, however sure of its suit, whether pips round it make it a number
        # card (pips.verdicts); its picture has no pips to outvote a sure suit.
        asked = [k for k, n in enumerate(chosen) if self.pips and conf[n] >= VOUCHED_FROM
                 and (r[n] in NUMBER_RANKS or r[n] in COURT_RANKS)]
        # A heart or spade in cool print is no card's: pips must not vouch for it.
        barred = {k for k, n in enumerate(chosen) if n in cool and s[n] in NOT_COOL_SUITS}
        unsure = {k for k in asked if ps[chosen[k], s[chosen[k]]] < VOUCHED_SUIT and k not in barred}
        doubted, vouched = pip_verdicts(blobs, Seen.of([hyps[n] for n in chosen], cards, rows[chosen]), asked,
                                        self.model.suit_probs, unsure) if asked else (set(), {})
        reads: list[IndexRead] = []
        for k, n in enumerate(chosen):
            hy = hyps[n]
            if not use_colour and not on_dark_card(bgr, blobs, hy):
                continue
            # Pips that vouch for the suit (only asked of reads under VOUCHED_SUIT) leave the read as
            # sure as its rank; where they vouch for the other suit of its colour, it is of that suit.
            suit_p = VOUCHED_SUIT if k in vouched else ps[n, s[n]]
            c, suit = float(pr[n, r[n]] * suit_p), float(suit_p)
            if not colour_checks_suit and suit < VOUCHED_SUIT:
                c = min(c, self.min_confidence - GREY_ALONE_SHORT_BY)
            card = None if k in doubted else Card.from_index(cards[k] - cards[k] % 4 + vouched.get(k, cards[k] % 4))
            reads.append(IndexRead(card if c >= self.min_confidence else None, c, hy.rank_xy, hy.suit_xy, hy.size, card, suit))
        return reads


# A rank runs into the suit below it only where its glyph reaches below the line: the Q's tail, and
# the J's hook in some fonts (see glyphs._split_stacked). So a pair with a side of a cut blob may
# read only as a jack or a queen: its other ranks' probabilities are taken out. On the held-out
# design, with them left in, two cut queens were named 6h and 2d. Their share is put back over the
# three classes left (jack, queen, no index) only where the network's surest rank is already the
# jack or the queen: a 9 of clubs run into its club, cut, reads as a 9, and with the share put back
# read as a queen at 0.54, which disputed the nine its other corner named; a cut queen the network
# reads as a queen but gives a share to other ranks stays short of the bar without it.
DESCENDING_RANKS = (9, 10)  # rank classes of the jack and the queen


def only_descending(pr: np.ndarray, blobs: Blobs, hyps: list[Hypothesis]) -> np.ndarray:
    """The rank probabilities ``pr`` with every rank but :data:`DESCENDING_RANKS` taken from the
    pairs that have a side of a cut blob in them; where such a pair's surest rank is one of those,
    the share taken is given back to the classes left, in their proportions."""
    cut = [n for n, hy in enumerate(hyps) if any(blobs.whole_of(k) != k for k in (*hy.rank_ids, hy.suit_id))]
    if not cut:
        return pr
    pr = pr.copy()
    others = [k for k in range(RANKS) if k not in DESCENDING_RANKS]
    theirs = [n for n in cut if int(pr[n, :RANKS].argmax()) in DESCENDING_RANKS]
    taken = pr[theirs][:, others].sum(axis=1)
    pr[np.ix_(cut, others)] = 0.0
    if theirs:
        left = pr[theirs].sum(axis=1)
        pr[theirs] *= ((left + taken) / np.maximum(left, 1e-9))[:, None]
    return pr


def on_dark_card(bgr: np.ndarray, blobs: Blobs, hy: Hypothesis) -> bool:
    """Whether a light-print index ``hy`` lies on a dark card: the card its glyphs imply has a
    quarter of its pixels at :data:`LIGHT_ON_DARK` of the glyphs' brightness or darker (brightness:
    the brightest channel). A card wholly out of the picture says nothing: it stands."""
    ids = [*hy.rank_ids, hy.suit_id]
    x0, y0 = (int(v) for v in blobs.stats[ids, :2].min(axis=0))
    x1, y1 = (int(v) for v in (blobs.stats[ids, :2] + blobs.stats[ids, 2:4]).max(axis=0))
    box = bgr[y0:y1, x0:x1]
    brightest = box.max(axis=2) if box.ndim == 3 else box
    print_px = brightest[blob_mask(blobs, ids, x0, y0, x1, y1)]
    _, pts = outline(hy.rank_xy, hy.suit_xy)
    card, cx, cy = filled_polygon(pts, bgr.shape)
    if not print_px.size or not card.any():
        return True
    crop = bgr[cy : cy + card.shape[0], cx : cx + card.shape[1]]
    ground = (crop.max(axis=2) if crop.ndim == 3 else crop)[card > 0]
    return float(np.percentile(ground, 25)) <= LIGHT_ON_DARK * float(print_px.mean())


def still_recogniser(model: IndexModel | None = None, enrolment: Enrolment | None = None, min_confidence: float = 0.9,
                     both_polarities: bool = True) -> Recogniser:
    """The reader for a still picture: no glyph size known, so three sizes (and triple size for
    a small picture), and the second pass for light print on black cards."""
    return Recogniser(model, enrolment, min_confidence=min_confidence, both_polarities=both_polarities,
                      scales=STILL_SCALES, small_scales=SMALL_STILL_SCALES)


def _around(params: GlyphParams, px: float) -> GlyphParams:
    """``params`` narrowed to glyphs of about ``px`` pixels (a glyph size known from recent frames)."""
    return dataclasses.replace(params, min_px=max(params.min_px, int(0.6 * px)), max_px=min(params.max_px, largest_around(px)),
                               smooth=px >= params.smooth_from_px)


def largest_around(px: float) -> int:
    """The largest glyph, in pixels, that a read for glyphs of about ``px`` pixels looks for."""
    return int(1.7 * px) + 1


def _within(region: np.ndarray | None, other: np.ndarray | None) -> np.ndarray | None:
    """Where both masks are set (None: everywhere)."""
    if other is None:
        return region
    return other if region is None else cv2.bitwise_and(region, other)


def _resized(
    bgr: np.ndarray, region: np.ndarray | None, scale: float, params: GlyphParams,
    box: tuple[int, int, int, int] | None = None,
) -> tuple[np.ndarray, np.ndarray | None, tuple[int, int]] | None:
    """``bgr`` (and ``region``) resized by ``scale``; with a region, only the box round it, with
    room for the threshold window, so the ink inside the region is as in the whole picture
    resized. Or, instead of a region, that ``box`` (x, y, width, height) alone. Also the box's
    top-left corner in ``bgr``. None for an empty region."""
    x0 = y0 = 0
    if region is not None or box is not None:
        if box is None:
            pts = cv2.findNonZero(region)
            if pts is None:
                return None
            box = cv2.boundingRect(pts)
        x, y, w, h = box
        m = int(math.ceil(((params.block | 1) // 2 + 3) / scale))
        # Even corners: a halved box then averages the same 2x2 blocks as the halved picture.
        x0, y0 = max(0, x - m) & ~1, max(0, y - m) & ~1
        x1, y1 = min(bgr.shape[1], x + w + m), min(bgr.shape[0], y + h + m)
        if region is None:
            region = np.zeros((y1 - y0, x1 - x0), np.uint8)
            region[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = 255
        else:
            region = region[y0:y1, x0:x1]
        bgr = bgr[y0:y1, x0:x1]
    size = (max(1, round(bgr.shape[1] * scale)), max(1, round(bgr.shape[0] * scale)))
    view = cv2.resize(bgr, size, interpolation=cv2.INTER_LINEAR if scale >= SMOOTH_FROM else cv2.INTER_AREA)
    view_region = None if region is None else cv2.resize(region, size, interpolation=cv2.INTER_NEAREST)
    return view, view_region, (x0, y0)


def _scaled_back(r: IndexRead, scale: float, offset: tuple[int, int]) -> IndexRead:
    """A read of a resized box (see :func:`_resized`) in the whole picture's pixels."""
    back = 1.0 / scale
    return dataclasses.replace(
        r,
        rank_xy=(r.rank_xy[0] * back + offset[0], r.rank_xy[1] * back + offset[1]),
        suit_xy=(r.suit_xy[0] * back + offset[0], r.suit_xy[1] * back + offset[1]),
        size=r.size * back,
    )


def _merge(reads: list[IndexRead], more: list[IndexRead]) -> list[IndexRead]:
    """Reads of another pass (other print polarity, other scale): where two passes read the
    same place, the surer read stays."""
    out = list(reads)
    for r in more:
        near = [o for o in out if _same_place(r, o)]
        if all(o.confidence < r.confidence for o in near):
            out = [o for o in out if o not in near] + [r]
    return out


def settled(reads: list[IndexRead], passes: list[list[IndexRead]], bar: float) -> list[IndexRead]:
    """A still's ``reads`` (its ``passes`` merged) as the passes settle them: each read
    :func:`disputed` or :func:`agreed`, carrying the :func:`rival` that disputes it and how many
    passes read its name there."""
    out = []
    for r in reads:
        other = rival(r, passes)
        agreeing = _agreeing(r, passes)
        out.append(dataclasses.replace(agreed(disputed(r, passes, bar), passes, bar), agreeing=agreeing,
                                       rival=None if other is None or other.best is None else (other.best, other.confidence)))
    return out


def _agreeing(r: IndexRead, passes: list[list[IndexRead]]) -> int:
    """How many of a still's passes read ``r``'s name at its place at :data:`AGREED_EACH` or more."""
    return sum(any(o.best == r.best and o.confidence >= AGREED_EACH and _same_place(r, o) for o in more) for more in passes)


# Passes of a still also dispute a 5 and a 6 of one suit: resampled, a small 5's open bowl closes
# into a 6's loop. A held-out design's 5 of hearts, half covered, read 6h at 0.93 in one pass and
# 5h at 0.83 in another, and was named the 6h (a false exposed-card alarm). Kept to the passes
# of one still, where both names are read at one place: not a misread the camera's frames or the
# monitor weigh.
PASSES_LOOKALIKE_RANKS = frozenset({5, 6})


def passes_dispute(a: Card, b: Card) -> bool:
    """Whether two passes of a still reading ``a`` and ``b`` at one place dispute its name:
    ``misread_as``, or a 5 and a 6 of one suit (:data:`PASSES_LOOKALIKE_RANKS`)."""
    return misread_as(a, b) or (a.suit == b.suit and a.rank != b.rank
                                and {a.rank, b.rank} <= PASSES_LOOKALIKE_RANKS)


def disputed(r: IndexRead, passes: list[list[IndexRead]], bar: float) -> IndexRead:
    """``r`` short of the bar where another pass of the picture reads, at its place and at
    :data:`AGREED_EACH` or more, a name that disputes its own (:func:`passes_dispute`: one rank
    in two suits of a colour, or 6, 8 and 9 in a suit, or 5 and 6); else ``r`` as it is. The passes cannot
    tell which of the two it is, as the camera's frames cannot when they dispute a name
    (:meth:`.tracker.Track.contested`). Its card's other corner may still name the card, unless
    one pass alone reads it, and reads the same name (:func:`.detect._two_ways`).

    A name :data:`AGREED_PASSES` passes or more read alike is not disputed by a rival one pass
    alone reads: a real photo's 5 of hearts, read 5h at 0.96-0.99 by three passes, was read 6h at
    0.58 by a fourth."""
    if r.card is None or r.best is None or len(passes) < 2:
        return r
    other = rival(r, passes)
    if other is not None and not (_agreeing(r, passes) >= AGREED_PASSES and _agreeing(other, passes) == 1):
        short = bar - GREY_ALONE_SHORT_BY
        return dataclasses.replace(r, card=None, confidence=min(r.confidence, short), suit=min(r.suit, short))
    return r


def rival(r: IndexRead, passes: list[list[IndexRead]]) -> IndexRead | None:
    """The surest read of another pass, at ``r``'s place and at :data:`AGREED_EACH` or more, of a
    name a misread links to ``r``'s (``r`` leaning to its name, named or not); None if there is
    none. The merge of the passes kept ``r`` over it, but the dispute is the card's, not the
    corner's: a 10 of clubs with 6-pixel indices was read Tc at 0.79 at double size and Ts at 0.89
    at triple size at one corner, and Ts at 0.93 at triple size at the other, where double size
    read nothing, and the other corner alone named the Ts. With the rival carried, the card's
    corners read two names a misread links, and it stays unnamed (:func:`.detect._two_ways`)."""
    if r.best is None or r.confidence < AGREED_EACH or len(passes) < 2:
        return None
    found = [o for more in passes for o in more
             if o.best is not None and o.confidence >= AGREED_EACH and passes_dispute(r.best, o.best) and _same_place(r, o)]
    return max(found, key=lambda o: o.confidence, default=None)


def agreed(r: IndexRead, passes: list[list[IndexRead]], bar: float) -> IndexRead:
    """``r`` named at the bar where passes of the picture agree on its name (see :data:`AGREED_PASSES`);
    else ``r`` as it is. A camera frame is read in one pass: this never names a live read."""
    if r.card is not None or r.best is None or r.confidence < AGREED_FROM or len(passes) < AGREED_PASSES:
        return r
    agreeing = 0
    for more in passes:
        near = [o for o in more if o.confidence >= AGREED_EACH and _same_place(r, o)]
        if any(o.best != r.best for o in near):
            return r  # a pass that reads another name there (or whose pips doubt the name) rules it out
        agreeing += bool(near)
    if agreeing < AGREED_PASSES:
        return r
    return dataclasses.replace(r, card=r.best, confidence=bar, suit=max(r.suit, bar))


def _same_place(a: IndexRead, b: IndexRead) -> bool:
    return math.dist(a.rank_xy, b.rank_xy) <= 0.5 * max(a.size, b.size)


def _colourful(bgr: np.ndarray) -> bool:
    """False for grey-scale pictures, where colour says nothing about the suit."""
    small = bgr[::16, ::16].astype(np.int16)
    return bool(np.abs(small[..., 2] - small[..., 1]).mean() + np.abs(small[..., 1] - small[..., 0]).mean() > 6)
