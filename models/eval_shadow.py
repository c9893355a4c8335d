"""A shadow over one face-up card: what the camera makes of it.

    PYTHONPATH=. python models/eval_shadow.py [--scenes 10] [--light 1.0 0.85 0.7 0.6 0.5 0.4]

An arm or a rack held over the table darkens a card while the camera films it. Each scene is the
simulated table (1280x720: a board of five, a seat's face-up pair, a seat's pair and the burn face
down), with one board card, a different one each scene, under a round shadow with a soft edge
(``--light``: the share of the light left under it). The camera's pipeline
(:func:`~dealer_pi.vision.pipeline.camera_detector`, zones, tracker, change gate) films 12 frames of
the table in full light, 20 with the shadow and 12 without it again, sensor noise in each.
Scored per light:

* the shaded card in the shadow's last frame: named right, face up and unnamed, reported face
  down, or not found;
* face-down cards the tracker reports that are not there: newly seen while the shadow lies
  (every real face-down card was seen before it came).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from dealer_pi.threads import one_blas_thread  # noqa: E402

one_blas_thread()

import cv2  # noqa: E402

from dealer_pi.vision.lit_table import LIT_TABLE, filmed  # noqa: E402
from dealer_pi.vision.render import render_table_scene, shadow  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=10)
    ap.add_argument("--light", type=float, nargs="+", default=[1.0, 0.85, 0.7, 0.6, 0.5, 0.4])
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for light in args.light:
        named = unnamed = down = missing = phantoms = 0
        for scene in range(args.scenes):
            sc = render_table_scene(LIT_TABLE, seed=scene)
            board = [p for p in sc.placements if p.card is not None and p.zone == "board"]
            target = board[scene % len(board)]
            cx, cy = target.corners.mean(axis=0)
            centre = (float(cx), float(cy))
            _, (seen, under), _ = filmed([(sc.frame, 12), (shadow(sc.frame, centre, light), 20), (sc.frame, 12)], scene)
            phantoms += sum(not o.face_up for o in seen)
            near = [f for f in under if math.dist(f.centre, centre) < 55]
            if any(not f.face_up for f in near):
                down += 1
            elif any(f.card == target.card for f in near):
                named += 1
            elif near:
                unnamed += 1
            else:
                missing += 1
        print(f"light {light:.2f} under the shadow: the shaded card named {named}, face up unnamed {unnamed}, "
              f"face down {down}, not found {missing} (of {args.scenes}); face-down cards reported while the "
              f"shadow lay: {phantoms}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
