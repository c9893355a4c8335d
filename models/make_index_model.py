"""Build ``models/index_mlp.npz``, the corner-index network, from generated pictures only.

    PYTHONPATH=. python models/make_index_model.py [--scenes 7000] [--seed 5]

Each training picture is made here: decks drawn with OpenCV's Hershey fonts
and drawn suit shapes (random font, stroke weight, index size, colours), laid
on felt, wood, white or dark tables at any angle and scale (rank glyphs 9 to
70 pixels), overlapping, partly covered by a "hand", with uneven light, glare,
blur, noise, JPEG loss and stretched aspect (as in photos resized to a
square). The real index reader runs on each picture; every pair it proposes
is labelled from the known card positions (a card, or "not an index"), and a
two-layer network (numpy, Adam) learns those labels. Same seed, same model.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.vision.faces import CARD_H, FONTS, FaceStyle, render_back, render_face
from dealer_pi.vision.glyphs import (
    FEATURES,
    GlyphParams,
    features,
    find_blobs,
    hypotheses_from_blobs,
)
from dealer_pi.vision.recogniser import RANKS, SUITS, IndexModel, rank_part, suit_part

NONE_CLASS = 52
from dealer_pi.vision.render import (
    Placement,
    camera_faults,
    card_homography,
    compose,
    felt,
)
from dealer_pi.vision.training import train

OUT = Path(__file__).resolve().parent / "index_mlp.npz"


def random_style(rng: np.random.Generator) -> FaceStyle:
    ink = int(rng.integers(0, 60))
    return FaceStyle(
        font=int(FONTS[rng.integers(len(FONTS))]) | (cv2.FONT_ITALIC if rng.random() < 0.1 else 0),
        thickness=int(rng.integers(2, 7)),
        index_height=int(rng.integers(30, 50)),
        suit_variant=int(rng.integers(0, 4)),
        paper=tuple(int(v) for v in rng.integers(215, 256, 3)),  # type: ignore[arg-type]
        red=(int(rng.integers(0, 70)), int(rng.integers(0, 60)), int(rng.integers(150, 235))),
        black=(ink, ink, ink),
        squeeze=float(rng.uniform(0.7, 1.3)),
        suit_ratio=float(rng.uniform(0.45, 1.0)),
        gap=float(rng.uniform(0.04, 0.45)),
    )


def background(rng: np.random.Generator, size: int) -> np.ndarray:
    kind = rng.integers(5)
    if kind == 0:
        colour = (int(rng.integers(20, 80)), int(rng.integers(80, 150)), int(rng.integers(10, 60)))
    elif kind == 1:
        colour = (int(rng.integers(100, 160)), int(rng.integers(40, 90)), int(rng.integers(10, 40)))
    elif kind == 2:
        v = int(rng.integers(170, 230))
        colour = (v, v, v)
    elif kind == 3:
        colour = (int(rng.integers(60, 110)), int(rng.integers(110, 160)), int(rng.integers(150, 210)))
    else:
        v = int(rng.integers(10, 60))
        colour = (v, v, v)
    img = felt(size, size, rng, colour)
    for _ in range(int(rng.integers(0, 6))):  # clutter: strokes and letters
        p = tuple(int(v) for v in rng.integers(0, size, 2))
        cv2.putText(img, chr(int(rng.integers(65, 91))), p, int(FONTS[rng.integers(len(FONTS))]), float(rng.uniform(0.4, 1.5)), (int(rng.integers(0, 255)),) * 3, int(rng.integers(1, 4)))
    return img


def make_scene(rng: np.random.Generator, size: int = 400):
    style = random_style(rng)
    cards = rng.choice(len(FULL_DECK), size=int(rng.integers(1, 5)), replace=False)
    glyph = float(np.exp(rng.uniform(math.log(9), math.log(70))))
    height = glyph * CARD_H / style.index_height
    placements: list[Placement] = []
    boxes = []
    for k, ci in enumerate(cards.tolist()):
        card = FULL_DECK[ci]
        down = rng.random() < 0.12
        if down:
            img = render_back(tuple(int(v) for v in rng.integers(20, 200, 3)))  # type: ignore[arg-type]
            bx = []
        else:
            img, bx = render_face(card, style)
        if k == 0:
            centre = tuple(rng.uniform(0.2, 0.8, 2) * size)
        else:
            prev = placements[-1].centre
            off = rng.normal(0, 0.35 * height, 2)
            centre = (prev[0] + off[0], prev[1] + off[1])
        hm = card_homography(centre, float(rng.uniform(0, 360)), height, tilt=float(rng.normal(0, 0.05)))
        placements.append(Placement(img, hm, None if down else card, not down))
        boxes.append(bx)
    scene = compose(background(rng, size), placements)
    frame = scene.frame
    if rng.random() < 0.3:  # a hand or a chip over part of the table
        c = tuple(int(v) for v in rng.integers(0, size, 2))
        ax = (int(rng.integers(20, 90)), int(rng.integers(15, 60)))
        skin = (int(rng.integers(60, 140)), int(rng.integers(90, 170)), int(rng.integers(140, 230)))
        cv2.ellipse(frame, c, ax, float(rng.uniform(0, 180)), 0, 360, skin, -1)
        scene.top[cv2.ellipse(np.zeros_like(scene.top, np.uint8), c, ax, 0, 0, 360, 1, -1) > 0] = -1
    frame = camera_faults(frame, rng, float(rng.uniform(0.3, 1.2)))
    if rng.random() < 0.6:  # photos squeezed to a square (16:9 webcam frames: 0.56)
        f = float(np.exp(rng.uniform(math.log(0.5), math.log(1.7))))
        frame = cv2.resize(frame, (size, int(size * f)))
        scene.top = cv2.resize(scene.top, (size, int(size * f)), interpolation=cv2.INTER_NEAREST)
        stretch = np.diag([1.0, f, 1.0])
        placements = [Placement(p.image, stretch @ p.h, p.card, p.face_up) for p in placements]
    if rng.random() < 0.15:
        frame = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        frame = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    if rng.random() < 0.3:  # salt and pepper, as in the photo set's augmentation
        m = rng.random(frame.shape[:2])
        frame[m < 0.003] = 0
        frame[m > 0.997] = 255
    return frame, placements, boxes, scene.top


def label_scene(frame, placements, boxes, top, params: GlyphParams):
    blobs = find_blobs(frame, params)
    hyps = hypotheses_from_blobs(blobs, params)
    if not hyps:
        return np.zeros((0, FEATURES), np.float32), np.zeros(0, np.int64)
    labels = np.full(len(hyps), NONE_CLASS, np.int64)
    inv = [np.linalg.inv(p.h) for p in placements]
    fh, fw = frame.shape[:2]
    for n, hy in enumerate(hyps):
        x, y = int(hy.rank_xy[0]), int(hy.rank_xy[1])
        if not (0 <= x < fw and 0 <= y < fh):
            continue
        k = int(top[y, x])
        if k < 0 or placements[k].card is None:
            continue
        pts = np.array([[hy.rank_xy], [hy.suit_xy]], np.float64)
        (rx, ry), (sx, sy) = cv2.perspectiveTransform(pts, inv[k]).reshape(2, 2)
        for b in boxes[k]:
            h = b.rank[3] - b.rank[1]
            rc = ((b.rank[0] + b.rank[2]) / 2, (b.rank[1] + b.rank[3]) / 2)
            sc = ((b.suit[0] + b.suit[2]) / 2, (b.suit[1] + b.suit[3]) / 2)
            if math.hypot(rx - rc[0], ry - rc[1]) < 0.2 * h and math.hypot(sx - sc[0], sy - sc[1]) < 0.3 * h:
                labels[n] = placements[k].card.index  # type: ignore[union-attr]
    return features(blobs, hyps), labels


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Samples from ``n`` scenes; each chunk has its own seed, so workers do not change the result."""
    seed, chunk, n = args
    rng = np.random.default_rng([seed, chunk])
    params = GlyphParams()
    xs, ys = [np.zeros((0, FEATURES), np.float32)], [np.zeros(0, np.int64)]
    for _ in range(n):
        frame, placements, boxes, top = make_scene(rng)
        x, y = label_scene(frame, placements, boxes, top, params)
        pos = y != NONE_CLASS
        neg = np.nonzero(~pos)[0]
        keep_neg = rng.choice(neg, size=min(len(neg), max(4, 2 * int(pos.sum()))), replace=False) if len(neg) else neg
        keep = np.concatenate([np.nonzero(pos)[0], keep_neg])
        xs.append(x[keep])
        ys.append(y[keep])
    return np.vstack(xs), np.concatenate(ys)


def make_dataset(n_scenes: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    jobs = [(seed, c, min(100, n_scenes - c * 100)) for c in range((n_scenes + 99) // 100)]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.map(_chunk, jobs)
    else:
        parts = [_chunk(j) for j in jobs]
    return np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=7000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--cache", type=Path, help="keep the generated samples here and reuse them")
    args = ap.parse_args()
    cv2.setRNGSeed(args.seed)
    t0 = time.time()
    if args.cache and args.cache.exists():
        with np.load(args.cache) as z:
            x, y = z["x"], z["y"]
    else:
        x, y = make_dataset(args.scenes, args.seed, args.workers)
        if args.cache:
            np.savez(args.cache, x=x, y=y)
    print(f"{len(y)} samples ({int((y != NONE_CLASS).sum())} indices) in {time.time() - t0:.0f}s", flush=True)
    n_val = len(y) // 10
    rng = np.random.default_rng(args.seed + 1)
    order = rng.permutation(len(y))
    val, tr = order[:n_val], order[n_val:]
    yr = np.where(y == NONE_CLASS, RANKS, y // 4)
    ys = np.where(y == NONE_CLASS, SUITS, y % 4)
    print("rank network")
    rank = train(rank_part(x[tr]), yr[tr], RANKS + 1, rng, epochs=args.epochs, log=print)
    print("suit network")
    suit = train(suit_part(x[tr]), ys[tr], SUITS + 1, rng, epochs=args.epochs, log=print)
    model = IndexModel(rank, suit)
    pr, ps = model.probs(x[val])
    print(f"held-out synthetic accuracy: rank {float((pr.argmax(1) == yr[val]).mean()):.4f}, suit {float((ps.argmax(1) == ys[val]).mean()):.4f}")
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
