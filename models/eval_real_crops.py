"""Real cards on an overhead frame: the live detector on frames composed from the real photos.

    PYTHONPATH=. python models/eval_real_crops.py [--frames 30] [--card-height 160] [--prefix WIN_|IMG_] [--enrol]

Each card of the odd-numbered photos of ``../shared/datasets/real-cards-cc-by`` (never trained
on) that shows both its corner indices and has no other card's index on it is cut out along its
own outline (``evaluate.card_crops``). Frames of 1280x720 lay eight of them on felt
(``evaluate.compose_real_frame``): singles and fanned overlapping pairs, some turned face down
(a drawn back), with the simulator's camera faults. Each frame goes through the camera's
:class:`~dealer_pi.vision.detect.Detector` (one size, dark print only; no glyph size known yet).
Scored per frame:

* face up: named right, named wrong (a card not in the frame), or taken for face down (a card
  reported face down within half a card of a face-up card's middle: an exposed card missed);
* face down: found (reported face down within 100 px), and how many face-down cards are reported
  in all.

``--enrol``: the reader enrolled first from the even-numbered photos of the same kind.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from dealer_pi.threads import one_blas_thread  # noqa: E402

one_blas_thread()

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dealer_pi.vision import evaluate as ev  # noqa: E402
from dealer_pi.vision.detect import Detector  # noqa: E402
from dealer_pi.vision.recogniser import Recogniser, still_recogniser  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=ev.DATASET)
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--card-height", type=float, default=160.0)
    ap.add_argument("--prefix", default="", help="only photos whose name starts so (WIN_ or IMG_)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--enrol", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = ev.class_names(args.root)
    every = ev.photos(args.root, args.prefix)
    crops = ev.card_crops(every[1::2], names)
    enrolment = ev.enrol_from(still_recogniser(), every[0::2], names) if args.enrol else None
    det = Detector(Recogniser(enrolment=enrolment))
    rng = np.random.default_rng(args.seed)
    face_up = right = wrong = taken_down = downs = downs_found = downs_reported = 0
    t = 0.0
    for _ in range(args.frames):
        frame, truth = ev.compose_real_frame(crops, rng, card_height=args.card_height)
        t0 = time.perf_counter()
        found = det.detect(frame)
        t += time.perf_counter() - t0
        cards = {c for c, _ in truth if c is not None}
        named = {f.card for f in found if f.card is not None}
        face_up += len(cards)
        right += len(cards & named)
        wrong += len(named - cards)
        reported_down = [f.centre for f in found if not f.face_up]
        downs_reported += len(reported_down)
        for card, centre in truth:
            if card is None:
                downs += 1
                downs_found += any(math.dist(centre, d) < 100 for d in reported_down)
        # A face-down report whose nearest card lies face up, within half a card: that card is missed.
        for d in reported_down:
            card, centre = min(truth, key=lambda tc: math.dist(tc[1], d))
            taken_down += card is not None and math.dist(centre, d) < 0.5 * args.card_height
    print(f"{len(crops)} cards cut from {len(every[1::2])} odd-numbered photos{' (' + args.prefix + '*)' if args.prefix else ''}; "
          f"{args.frames} frames 1280x720, cards {args.card_height:.0f} px tall{', enrolled' if args.enrol else ''}, "
          f"{1000 * t / max(1, args.frames):.0f} ms/frame")
    print(f"face up: {right}/{face_up} named right ({right / max(1, face_up):.3f}), {wrong} named wrong, "
          f"{taken_down} taken for face down")
    print(f"face down: {downs_found}/{downs} found; {downs_reported} reported face down in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
