"""Real cards on an overhead frame: the live detector on frames composed from the real photos.

    PYTHONPATH=. python models/eval_real_crops.py [--frames 30] [--frames-each 6] [--card-height 160] [--prefix WIN_|IMG_] [--enrol]

Each card of the odd-numbered photos of ``../shared/datasets/real-cards-cc-by`` (never trained
on) that shows both its corner indices and has no other card's index on it is cut out along its
own outline (``evaluate.card_crops``). Layouts of 1280x720 lay eight of them on felt
(``evaluate.compose_real_frame``): singles and fanned overlapping pairs, some turned face down
(a drawn back), with the simulator's camera faults. Each layout lies still for ``--frames-each``
frames (fresh sensor noise in each; by default the frames the change gate reads in full after a
change), read by the camera's detector as the vision pipeline builds it
(``pipeline.camera_detector``): one size, dark print only, the glyph size followed from frame to frame, a few closer
looks a frame at unnamed cards (``evaluate.score_real_frames``). Scored per layout:

* face up: named right in the layout's last frame (and in its first), named wrong in any of its
  frames (a card not in the layout), or taken for face down in the last frame (a card reported
  face down within half a card of a face-up card's middle: an exposed card missed);
* face down: found (reported face down within 100 px), and how many face-down cards are reported
  in all.

``--enrol``: the reader enrolled first from the even-numbered photos of the same kind.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from dealer_pi.threads import one_blas_thread  # noqa: E402

one_blas_thread()

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dealer_pi.vision import evaluate as ev  # noqa: E402
from dealer_pi.vision.change import FRESH  # noqa: E402
from dealer_pi.vision.pipeline import camera_detector  # noqa: E402
from dealer_pi.vision.recogniser import Recogniser, still_recogniser  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=ev.DATASET)
    ap.add_argument("--frames", type=int, default=30, help="layouts (default 30)")
    ap.add_argument("--frames-each", type=int, default=FRESH, help=f"frames a layout lies still for (default {FRESH})")
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
    det = camera_detector(Recogniser(enrolment=enrolment))
    t = ev.score_real_frames(det, crops, np.random.default_rng(args.seed), args.frames, args.frames_each, args.card_height)
    print(f"{len(crops)} cards cut from {len(every[1::2])} odd-numbered photos{' (' + args.prefix + '*)' if args.prefix else ''}; "
          f"{t.layouts} layouts 1280x720, {args.frames_each} frames each, cards {args.card_height:.0f} px tall"
          f"{', enrolled' if args.enrol else ''}, {1000 * t.seconds / max(1, t.frames):.0f} ms/frame")
    print(f"face up: {t.named}/{t.face_up} named right in a layout's last frame ({t.named / max(1, t.face_up):.3f}; "
          f"{t.named_first} in its first), {t.wrong} named wrong in any frame, {t.taken_down} taken for face down")
    print(f"face down: {t.downs_found}/{t.downs} found; {t.downs_reported} reported face down in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
