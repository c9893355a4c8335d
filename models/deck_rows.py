"""Glyph-pair rows cut from the printed deck designs of ``card-assets``: ``models/deck_rows.npz``.

    PYTHONPATH=. python models/deck_rows.py [--assets ../shared/card-assets] [--scenes 6000] [--seed 9]

Every design of ``decks.DESIGNS`` except the held-out one (``decks.HELD_OUT``,
which ``eval_heldout.py`` scores as a deck never seen) is rendered from its SVG
files. Each scene lays one to four cards of one design, a few of them face down
(the designs' own backs, or patterns of any colour), on felt, wood, cloth, a
desk or a dark table, at any angle, with rank glyphs 9 to 70 pixels tall; then
the camera and photo faults of the generated Hershey scenes
(``make_index_model.photographed``). Two designs print their indices as SVG
text in Arial; the shipped rows draw it as DejaVu Sans (``--fonts bare``, as a
machine without Arial's metric twin did), and ``--fonts both`` makes every
scene twice, once so and once as the designs ask (Liberation Sans): a reader
built on both was tried and not kept (``REPORT.md``, "The designs' fonts"). The real index finder runs on each
picture and each pair it proposes is labelled from the face's located index
(``decks.find_index``); on a face whose index could not be located (glyphs
that touch) the proposals are left out rather than called "not an index".

The rows are shipped, so the reader's build (``make_index_cnn.py``) does not
need the SVG decks; this script makes them again. Same seed, same rows.
Attribution of the designs: ``models/NOTICE.md``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from dealer_pi.vision.faces import IndexBoxes  # noqa: E402
from dealer_pi.vision.glyphs import FEATURES, GlyphParams  # noqa: E402
from dealer_pi.vision.recogniser import NOT_INDEX  # noqa: E402
from dealer_pi.vision.render import Placement, card_homography, compose  # noqa: E402

import heldout_scenes  # noqa: E402
from decks import BARE, DESIGNS, FAITHFUL, HELD_OUT, Face, Fonts, render_backs, render_design  # noqa: E402
from make_index_model import label_scene, next_centre, photographed, run_chunks, sampled, save_rows  # noqa: E402

OUT = HERE / "deck_rows.npz"
TRAINING = tuple(name for name in DESIGNS if name != HELD_OUT)
# What the designs' text is drawn in (see decks.BARE); ``--fonts both`` draws every scene in each.
RENDERINGS = {"bare": BARE, "faithful": FAITHFUL}


@lru_cache(maxsize=2)
def training_decks(assets: str, fonts: str) -> tuple[list[list[Face]], list[np.ndarray]]:
    """Each training design's faces, and the designs' backs, drawn in ``RENDERINGS[fonts]``
    (rendered once per process)."""
    drawn: Fonts = RENDERINGS[fonts]
    faces = [render_design(Path(assets), DESIGNS[name], drawn) for name in TRAINING]
    return faces, render_backs(Path(assets), drawn)


def deck_scene(rng: np.random.Generator, faces: list[Face], backs: list[np.ndarray], size: int = 400):
    """One to four cards of one design, as ``make_index_model.make_scene`` lays the drawn ones."""
    located = [f for f in faces if f.index]
    rank_h = float(np.median([r[3] - r[1] for f in located for r, _ in f.index[:1]]))
    glyph = float(np.exp(rng.uniform(math.log(9), math.log(70))))
    height = glyph * faces[0].image.shape[0] / rank_h
    placements: list[Placement] = []
    boxes: list[list[IndexBoxes] | None] = []
    for ci in rng.choice(len(faces), size=int(rng.integers(1, 5)), replace=False).tolist():
        face = faces[ci]
        down = rng.random() < 0.15
        img = heldout_scenes.random_back(rng, backs) if down else face.image
        centre = next_centre(rng, placements, height, size)
        hm = card_homography(centre, float(rng.uniform(0, 360)), height, (img.shape[1], img.shape[0]), tilt=float(rng.normal(0, 0.05)))
        placements.append(Placement(img, hm, None if down else face.card, not down))
        boxes.append([] if down else ([IndexBoxes(r, s) for r, s in face.index] or None))
    scene = compose(heldout_scenes.background(rng, size, size), placements)
    frame, placements, top = photographed(scene.frame, placements, scene.top, rng, size)
    return frame, placements, boxes, top


def _chunk(args: tuple[int, int, int, str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Rows from ``n`` scenes, each of a design drawn at random; seeded per chunk, so the number of
    workers does not change the rows, and each rendering of a chunk lays the same scenes."""
    seed, chunk, n, assets, fonts = args
    faces, backs = training_decks(assets, fonts)
    rng = np.random.default_rng([seed, chunk])
    params = GlyphParams()
    xs, ys = [np.zeros((0, FEATURES), np.float32)], [np.zeros(0, np.int64)]
    for _ in range(n):
        design = faces[int(rng.integers(len(faces)))]
        frame, placements, boxes, top = deck_scene(rng, design, backs)
        x, y = sampled(*label_scene(frame, placements, boxes, top, params), rng)
        xs.append(x)
        ys.append(y)
    return np.vstack(xs), np.concatenate(ys)


def deck_dataset(assets: Path, n_scenes: int, seed: int, workers: int = 2,
                 renderings: tuple[str, ...] = ("bare",)) -> tuple[np.ndarray, np.ndarray]:
    if not (assets / DESIGNS[TRAINING[0]].folder).is_dir():
        raise SystemExit(f"{assets}: not the card-assets folder (no {DESIGNS[TRAINING[0]].folder}); give --assets")
    for fonts in renderings:
        training_decks(str(assets), fonts)  # render the faces once before the workers read them from the cache
    # The renderings of a chunk side by side: the reader's build holds back the last tenth of the
    # rows, the last scenes in every rendering.
    return run_chunks(_chunk, [(seed, c, min(100, n_scenes - c * 100), str(assets), fonts)
                               for c in range((n_scenes + 99) // 100) for fonts in renderings], workers)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--assets", type=Path, default=HERE.parent.parent / "shared" / "card-assets")
    ap.add_argument("--scenes", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--fonts", choices=(*RENDERINGS, "both"), default="bare",
                    help="what the designs' Arial text is drawn in (default bare, as the shipped rows)")
    args = ap.parse_args()
    renderings = tuple(RENDERINGS) if args.fonts == "both" else (args.fonts,)
    t0 = time.time()
    x, y = deck_dataset(args.assets, args.scenes, args.seed, args.workers, renderings)
    save_rows(args.out, x, y)
    print(f"{len(y)} rows ({int((y != NOT_INDEX).sum())} indices) from {args.scenes} scenes of {', '.join(TRAINING)}, "
          f"drawn {' and '.join(renderings)}; "
          f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
