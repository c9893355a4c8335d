"""Face-up cards on the simulated table's overhead camera, named by the live detector.

    PYTHONPATH=. python models/eval_live_faces.py [--scenes 200] [--start 100] [--frames 2] [--black] [--no-second-look]
        [--no-closer-look] [--deck knoll [--enrol]]

Each scene lays 25 cards of the drawn deck face up on the simulated table (five on the board, two
at each of ten seats, spread as shown cards are), films them with ``OverheadCamera(seed=scene)``
(1920x1080, the deck as the camera loop draws it, sensor noise and flicker) and reads each frame
with the pipeline the camera loop builds from its config (markers, card size, the glyph size
followed). Every face-up card found within 45 px of where a card lies is scored against that
card: named right, named wrong, or not named (the four markers, read as unnamed cards, are
counted apart). ``--black``: clubs and spades only, where a small index's suit is hardest.
``--no-second-look``: the reader without its second look at unsure black suits.
``--no-closer-look``: the detector without its closer look at unnamed cards and doubted names
(``Detector(closer_looks=0)``). Each frame is read twice, through the pipeline and again for its
cards, so it gets up to twice a frame's closer looks. ``--deck``: a printed design of
``../shared/card-assets`` in place of the drawn deck; ``--enrol``: that deck enrolled first, from
the camera's picture of each card lying alone on the table.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from dealer_pi.threads import one_blas_thread  # noqa: E402

one_blas_thread()

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dealer_pi.engine.cards import FULL_DECK  # noqa: E402
from dealer_pi.sim.camera_table import CameraTable  # noqa: E402
from dealer_pi.sim.felt import Felt  # noqa: E402
from dealer_pi.sim.overhead import OverheadCamera, card_spot  # noqa: E402
from dealer_pi.vision.recogniser import Recogniser  # noqa: E402

sys.path.insert(0, str(HERE))
from decks import faces_by_card  # noqa: E402

NEAR_PX = 45.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--start", type=int, default=100, help="the first scene's seed")
    ap.add_argument("--frames", type=int, default=2, help="frames filmed of each scene (noise differs)")
    ap.add_argument("--black", action="store_true", help="clubs and spades only")
    ap.add_argument("--no-second-look", action="store_true")
    ap.add_argument("--no-closer-look", action="store_true")
    ap.add_argument("--deck", default="", help="a printed design of --assets instead of the drawn deck, e.g. knoll")
    ap.add_argument("--assets", type=Path, default=HERE.parent.parent / "shared" / "card-assets")
    ap.add_argument("--enrol", action="store_true", help="with --deck: enrol it first from the camera's picture of each card")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.enrol and not args.deck:
        ap.error("--enrol needs --deck")
    faces = faces_by_card(args.assets, args.deck) if args.deck else None
    pipe = CameraTable(seed=0, faces=faces, enrol=args.enrol).pipeline
    if args.no_second_look:
        old = pipe.detector.recogniser
        pipe.detector.recogniser = Recogniser(old.model, old.enrolment, min_confidence=old.min_confidence, second_look=False)
    if args.no_closer_look:
        pipe.detector.closer = None
    pool = [c for c in FULL_DECK if c.suit in "cs"] if args.black else list(FULL_DECK)
    count: collections.Counter[str] = collections.Counter()
    wrong: list[str] = []
    t0 = time.time()
    for scene in range(args.start, args.start + args.scenes):
        cards = random.Random(scene).sample(pool, 25)
        felt = Felt(seed=scene)
        for c in cards[:5]:
            felt.place("board", c, face_up=True)
        for i, c in enumerate(cards[5:]):
            felt.place(f"seat:{i // 2 + 1}", c, face_up=True)
        cam = OverheadCamera(seed=scene, faces=faces)
        truth = [(pc.card, cam.to_image(*card_spot(pc)[:2])) for pc in felt.cards]
        for n in range(args.frames):
            frame = cam.frame(felt, n)
            pipe.process(n * 66, frame)  # calibrates from the markers, follows the glyph size
            for f in pipe.cards(frame):
                if not f.face_up:
                    continue
                d = [float(np.hypot(f.centre[0] - x, f.centre[1] - y)) for _, (x, y) in truth]
                k = int(np.argmin(d))
                card = truth[k][0]
                if d[k] > NEAR_PX:
                    count["not where a card lies (markers)"] += 1
                elif f.card is None:
                    count[f"not named ({card.suit})"] += 1
                elif f.card == card:
                    count[f"named right ({card.suit})"] += 1
                else:
                    count["named wrong"] += 1
                    wrong.append(f"scene {scene} frame {n}: {card} named {f.card} at {f.confidence:.3f}")
    deck = f"printed deck {args.deck}{', enrolled' if args.enrol else ''}" if args.deck else "drawn deck"
    print(f"{args.scenes} scenes from seed {args.start}, {args.frames} frames each, {deck}, {'clubs and spades' if args.black else 'the whole deck'}, "
          f"second look {'off' if args.no_second_look else 'on'}, closer look {'off' if args.no_closer_look else 'on'}; {time.time() - t0:.0f} s")
    for key in sorted(count):
        print(f"  {key}: {count[key]}")
    right = sum(v for k, v in count.items() if k.startswith("named right"))
    unnamed = sum(v for k, v in count.items() if k.startswith("not named"))
    print(f"  named right {right}, named wrong {count['named wrong']}, not named {unnamed}")
    for w in wrong:
        print("  wrong:", w)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
