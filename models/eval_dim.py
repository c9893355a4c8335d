"""A dim, overexposed, tinted or dark-clothed table: what the camera makes of a whole frame taken
with too little light or too much, under a coloured lamp, or of a table covered in other cloth.

    PYTHONPATH=. python models/eval_dim.py [--scenes 10] [--light 2.0 1.5 1.0 0.5 0.45 0.4 0.35 0.25 0.15]
        [--tint none warm tungsten cool green] [--cloth green blue red grey black] [--cloth-light 1.0]

A camera set to a fixed exposure in a dim card room films every frame darker than the rules were
measured on; one set for a darker room, or brightening a dark table towards grey, films it
brighter, its lamp's glare on the cloth clipped pale. Each scene is the simulated table (1280x720:
a board of five, a seat's face-up pair, a seat's pair and the burn face down), every pixel at
``--light`` of its light, clipped at white. The camera's
pipeline (:func:`~dealer_pi.vision.pipeline.camera_detector`, zones, tracker, change gate) films
12 frames of it, sensor noise in each. Then, in full light, each ``--tint``: blue, green and red
scaled as a lamp of that colour would (:data:`TINTS`); then, at ``--cloth-light``, the table covered in
each ``--cloth`` (:data:`CLOTHS`). Scored per light, tint and cloth, over what the tracker reported:

* face-up cards named right (of 7 a scene), and names of cards that are not on the table;
* face-down cards reported (of 3 a scene);
* what the last frame found: face-down cards, of 3 a scene.
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

from dealer_pi.vision.lit_table import LIT_TABLE, filmed, lit  # noqa: E402
from dealer_pi.vision.render import FELT_GREEN, render_table_scene  # noqa: E402

FACE_UP = [c for cards in LIT_TABLE.values() for c in cards if c is not None]
FACE_DOWN = sum(c is None for cards in LIT_TABLE.values() for c in cards)
FRAMES = 12
# Blue, green and red, as shares of the light a white lamp gives.
TINTS = {
    "none": (1.0, 1.0, 1.0),
    "warm": (0.7, 0.88, 1.0),  # a warm-white lamp
    "tungsten": (0.55, 0.8, 1.0),  # a filament bulb
    "cool": (1.0, 0.95, 0.8),  # a cold-white tube
    "green": (0.85, 1.0, 0.85),  # light off green cloth and walls
}


# The table's cloth (BGR): the simulator's green felt, and others a card room or a home game lays.
CLOTHS = {
    "green": FELT_GREEN,
    "blue": (140, 70, 25),
    "red": (35, 30, 150),
    "grey": (110, 110, 110),  # grey speed cloth
    "black": (30, 30, 30),  # black speed cloth, a black table mat
}


def scored(light: float, tint: tuple[float, float, float], scenes: int,
           cloth: tuple[int, int, int] = FELT_GREEN) -> str:
    """What the tracker reported of ``scenes`` tables at ``light`` and ``tint``, on ``cloth``, against the truth."""
    named = wrong = down = down_last = 0
    for scene in range(scenes):
        [(seen, last)] = filmed([(lit(render_table_scene(LIT_TABLE, seed=scene, cloth=cloth).frame, light, tint), FRAMES)], scene)
        names = {o.card for o in seen if o.face_up and o.card is not None}
        named += len(names & set(FACE_UP))
        wrong += len(names - set(FACE_UP))
        down += sum(not o.face_up for o in seen)
        down_last += sum(not f.face_up for f in last)
    return (f"face up named {named} of {len(FACE_UP) * scenes}, {wrong} names of cards not there; face down reported "
            f"{down} of {FACE_DOWN * scenes}, found in the last frame {down_last}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=10)
    ap.add_argument("--light", type=float, nargs="*", default=[2.0, 1.5, 1.0, 0.5, 0.45, 0.4, 0.35, 0.25, 0.15])
    ap.add_argument("--tint", nargs="*", choices=sorted(TINTS), default=list(TINTS))
    ap.add_argument("--cloth", nargs="*", choices=sorted(CLOTHS), default=list(CLOTHS))
    ap.add_argument("--cloth-light", type=float, default=1.0, help="the light of the cloth's scenes")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for light in args.light:
        print(f"light {light:.2f}: {scored(light, TINTS['none'], args.scenes)}", flush=True)
    for tint in args.tint:
        print(f"tint {tint} {TINTS[tint]}: {scored(1.0, TINTS[tint], args.scenes)}", flush=True)
    for cloth in args.cloth:
        print(f"cloth {cloth} {CLOTHS[cloth]} at light {args.cloth_light:.2f}: "
              f"{scored(args.cloth_light, TINTS['none'], args.scenes, CLOTHS[cloth])}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
