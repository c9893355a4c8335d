"""Overhead scenes of the deck design left out of training, through the real detector.

    .venv/bin/python models/eval_heldout.py [--scenes 20] [--design knoll] [--size 1920x1080] [--misses] [--by-rank]

Needs ``../shared/card-assets`` (the SVG decks), ``rsvg-convert`` (Debian's librsvg2-bin) and
the fonts ``fonts.conf`` pins (fonts-liberation, fonts-dejavu-core; ``make fonts``); the faces
are rendered once into ``build/models/faces``.

A table (green, blue or red felt, or light wood) in the middle of a wooden
floor; a board of 3-5 cards in a row, hole-card pairs fanned and overlapping
at the seats, some pairs face down (backs of many colours and patterns), a
burn card, chips; one or two cards lie on the floor, off the table. Camera
faults as the simulator's. Each scene goes through ``vision detect``'s still reading (three
sizes, both print polarities, the table's colour from the picture's middle, only the cards on
the table). Scored per scene:

* face up: named right (where the card lies), named wrong (a card not there, or named where
  another card lies), named twice (one card reported as two);
* face up, counted: every face-up card reported, named or not, against the truth (exact or not);
* face down: reported count against the truth (exact or not);
* off the table: any card reported on the floor.

``--real WIN_|IMG_|ALL``: the face-up cards are real instead: each card of the odd-numbered photos
of ``../shared/datasets/real-cards-cc-by`` (never trained on) that shows both its corner indices,
cut out along its own outline (``evaluate.card_crops``), one cut-out a card drawn afresh for each
scene; the scenes hold only the cards the photos give (``ALL``: both sets, with ``IMG_``'s
black-faced deck). As ``vision detect`` would meet a photo of a real table, with real print.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from dealer_pi.engine.cards import RANKS, Card  # noqa: E402
from dealer_pi.vision.detect import CardFound  # noqa: E402
from dealer_pi.vision.recogniser import IndexModel, Recogniser  # noqa: E402
from dealer_pi.vision.regions import DEFAULT_REGION_MODEL, RegionClassifier  # noqa: E402
from dealer_pi.vision.surface import still_cards, still_detector  # noqa: E402
from dealer_pi.vision.render import Placement, camera_faults, card_homography, compose  # noqa: E402

import heldout_scenes as scenes  # noqa: E402
from decks import DESIGNS, HELD_OUT, Face, render_backs, render_design  # noqa: E402

SHARED = HERE.parent.parent / "shared"


def table_scene(faces: list[Face], backs: list[np.ndarray], rng: np.random.Generator, size: tuple[int, int], card_h: float):
    """The frame, and the truth: (card or None for a back, centre, on the table)."""
    w, h = size
    floor = scenes.background(np.random.default_rng(int(rng.integers(1 << 30))), w, h)
    if rng.random() < 0.8:  # wood floor, whatever the generator drew
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        floor = np.clip(np.array([70, 110, 150])[None, None, :] + 15 * np.sin(xx / 7 + 2 * np.sin(yy / 90))[..., None], 0, 255).astype(np.uint8)
    colour = [(40, 110, 30), (120, 60, 20), (30, 30, 120), (120, 170, 205)][int(rng.integers(4))]
    table = floor.copy()
    cx, cy, ax, ay = w / 2, h / 2, w * 0.40, h * 0.40
    cv2.ellipse(table, (int(cx), int(cy)), (int(ax), int(ay)), 0, 0, 360, colour, -1)
    cv2.ellipse(table, (int(cx), int(cy)), (int(ax), int(ay)), 0, 0, 360, (20, 30, 45), max(4, int(card_h * 0.25)))  # the rail
    deck = list(rng.permutation(len(faces)))
    back = scenes.random_back(rng, backs)
    placements: list[Placement] = []
    truth: list[tuple[object, tuple[float, float], bool]] = []

    def put(card_i: int | None, centre: tuple[float, float], angle: float, on_table: bool = True) -> None:
        image = back if card_i is None else faces[card_i].image
        hm = card_homography(centre, angle, card_h, (image.shape[1], image.shape[0]), tilt=float(rng.normal(0, 0.02)))
        placements.append(Placement(image, hm, None if card_i is None else faces[card_i].card, card_i is not None))
        truth.append((None if card_i is None else faces[card_i].card, centre, on_table))

    n_board = int(rng.integers(3, 6))
    for k in range(n_board):
        put(deck.pop(), (cx + (k - (n_board - 1) / 2) * card_h * 0.78, cy), float(rng.normal(0, 3)))
    for s in range(int(rng.integers(2, 6))):
        a = math.pi / 2 + 2 * math.pi * (s + 0.5) / 6 + rng.normal(0, 0.1)
        sx, sy = cx + 0.75 * ax * math.cos(a), cy + 0.72 * ay * math.sin(a)
        base = math.degrees(math.atan2(cy - sy, cx - sx)) - 90
        down = rng.random() < 0.4
        for k in range(2):
            off = (k - 0.5) * card_h * 0.28
            r = math.radians(base)
            put(None if down else deck.pop(), (sx + off * math.cos(r), sy + off * math.sin(r)), base + 180 + (k - 0.5) * 14 + float(rng.normal(0, 4)))
    put(None, (cx - card_h * 2.6, cy - card_h * 0.9), float(rng.uniform(0, 360)))  # the burn card
    for _ in range(int(rng.integers(1, 3))):  # dropped on the floor
        corner = [(card_h * 0.6, card_h * 0.6), (w - card_h * 0.6, h - card_h * 0.6), (w - card_h * 0.6, card_h * 0.6)][int(rng.integers(3))]
        put(deck.pop(), corner, float(rng.uniform(0, 360)), on_table=False)
    frame = compose(table, placements).frame
    for _ in range(int(rng.integers(1, 4))):
        c = (float(cx + rng.normal(0, ax * 0.4)), float(cy + ay * rng.choice([-0.5, 0.5])))
        frame, _ = scenes.draw_chips(frame, rng, c, card_h * 0.15)
    return camera_faults(frame, rng, 0.5), truth


def real_cut_outs(prefix: str) -> list[tuple[Card, list[np.ndarray]]]:
    """The cards of the odd-numbered real photos whose names start with ``prefix``, each with its
    cut-outs (``evaluate.card_crops``), in the order of the cards' names."""
    from dealer_pi.vision import evaluate as ev

    root = SHARED / "datasets" / "real-cards-cc-by"
    shots: dict[Card, list[np.ndarray]] = {}
    for card, image in ev.card_crops(ev.photos(root, prefix)[1::2], ev.class_names(root)):
        shots.setdefault(card, []).append(image)
    return sorted(shots.items(), key=lambda kv: str(kv[0]))


def enrol_design(faces: list[Face], seed: int, model=None):  # type: ignore[no-untyped-def]
    """Each card of the design shown once to the camera (on felt, turned a little), enrolled as
    ``dealer-pi vision enrol`` does; the scenes scored after it are drawn with other seeds."""
    from dealer_pi.vision.enrol import enrol_picture
    from dealer_pi.vision.recogniser import Enrolment

    rng = np.random.default_rng(seed + 555)
    reader = Recogniser(model)
    enrolment = Enrolment()
    for face in faces:
        hm = card_homography((320, 240), float(rng.normal(0, 8)), 360, (face.image.shape[1], face.image.shape[0]))
        frame = camera_faults(compose(scenes.background(rng, 640, 480), [Placement(face.image, hm, face.card, True)]).frame, rng, 0.3)
        enrol_picture(reader, enrolment, frame, [(face.card, None)], rng)
    enrolment.fit(reader.model, seed)
    return enrolment


def right_names(found: list[CardFound], truth, card_h: float) -> list[CardFound]:
    """The cards named right. A name is right only where that card lies: near its centre (a
    fanned pair's centres are 0.28 of a card apart, so each name must be nearer its own card
    than half a card)."""
    at = {c: p for c, p, on in truth if c is not None and on}
    return [f for f in found if f.card in at and math.dist(f.centre, at[f.card]) < 0.5 * card_h]


def score(found: list[CardFound], truth, card_h: float, size: tuple[int, int]) -> dict[str, int]:
    cards = [c for c, _, on in truth if c is not None and on]
    off = [p for c, p, on in truth if not on]
    right_found = right_names(found, truth, card_h)
    named = [f.card for f in found if f.card is not None]
    right = {f.card for f in right_found}
    downs_true = sum(1 for c, _, on in truth if c is None and on)
    downs_seen = sum(1 for f in found if not f.face_up)
    by_rank = {f"cards {c.rank}": sum(1 for o in cards if o.rank == c.rank) for c in cards}
    by_rank.update({f"named {c.rank}": sum(1 for o in right if o.rank == c.rank) for c in cards})
    return {
        **by_rank,
        "face_up": len(cards),
        "named_right": len(right),
        "named_wrong": sum(1 for f in found if f.card is not None and f not in right_found),
        "named_twice": len(right_found) - len(right),
        "up_seen": sum(1 for f in found if f.face_up),
        "up_exact": int(sum(1 for f in found if f.face_up) == len(cards)),
        "down_true": downs_true,
        "down_seen": downs_seen,
        "down_exact": int(downs_seen == downs_true),
        "off_table_reported": sum(1 for f in found if any(math.dist(f.centre, p) < 0.6 * card_h for p in off)),
        "outside_picture": sum(1 for f in found for x, y in (f.centre, *f.corners)
                               if not (0 <= x < size[0] and 0 <= y < size[1])),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--assets", type=Path, default=SHARED / "card-assets")
    ap.add_argument("--design", default=HELD_OUT)
    ap.add_argument("--scenes", type=int, default=20)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--card-height", type=float, default=150.0)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--save", type=Path, help="write each scene and the detector's drawing here")
    ap.add_argument("--whole-picture", action="store_true")
    ap.add_argument("--by-rank", action="store_true", help="face-up cards named right, rank by rank")
    ap.add_argument("--misses", action="store_true", help="name each scene whose face-down or face-up count is not exact, and each wrong name")
    ap.add_argument("--enrol", action="store_true", help="first enrol the design (one picture per card, as `vision enrol` does)")
    ap.add_argument("--model", type=Path, help="the index reader (default: the shipped one)")
    ap.add_argument("--real", choices=("WIN_", "IMG_", "ALL"), help="real card cut-outs from the odd-numbered photos of these (see above)")
    ap.add_argument("--regions", nargs="?", const=DEFAULT_REGION_MODEL, type=Path,
                    help="tell the unread parts apart with the region classifier (default file: the shipped one) instead of the rules")
    args = ap.parse_args(argv)
    if args.real and args.enrol:
        ap.error("--enrol enrols the held-out design; with --real there is no design to enrol (the real decks' enrolment is evaluate.py --enrol-half)")
    w, h = (int(v) for v in args.size.split("x"))
    faces = [] if args.real else render_design(args.assets, DESIGNS[args.design])
    backs = render_backs(args.assets)
    regions = RegionClassifier(args.regions) if args.regions else None
    model = IndexModel.load(args.model) if args.model else None
    enrolment = enrol_design(faces, args.seed, model) if args.enrol else None
    det = still_detector(enrolment, model=model, regions=regions)
    rng = np.random.default_rng(args.seed)
    total: dict[str, int] = {}
    t = 0.0
    cut_outs = real_cut_outs("" if args.real == "ALL" else args.real) if args.real else None
    for n in range(args.scenes):
        if cut_outs is not None:
            faces = [Face(card, shots[int(rng.integers(len(shots)))], None, ()) for card, shots in cut_outs]
        frame, truth = table_scene(faces, backs, rng, (w, h), args.card_height)
        t0 = time.perf_counter()
        found = det.detect(frame)
        if not args.whole_picture:
            found = still_cards(found, frame, None)
        t += time.perf_counter() - t0
        s = score(found, truth, args.card_height, (w, h))
        for k, v in s.items():
            total[k] = total.get(k, 0) + v
        if args.misses and not s["down_exact"]:
            print(f"scene {n}: {s['down_seen']} face down reported of {s['down_true']}")
        if args.misses and not s["up_exact"]:
            print(f"scene {n}: {s['up_seen']} face up reported of {s['face_up']}")
        if args.misses and s["named_wrong"]:
            right = right_names(found, truth, args.card_height)
            wrong = [f"{f.card} at ({f.centre[0]:.0f}, {f.centre[1]:.0f})" for f in found if f.card is not None and f not in right]
            print(f"scene {n}: named wrong {', '.join(wrong)}")
        if args.save:
            from dealer_pi.vision.detect import annotate

            args.save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save / f"scene{n:02d}.jpg"), annotate(frame, found))
    rec = total["named_right"] / max(1, total["face_up"])
    cards = f"real cut-outs ({args.real}, never trained on)" if args.real else f"design {args.design} (never trained on{', enrolled' if args.enrol else ''})"
    print(f"{cards}, {args.scenes} scenes {w}x{h}, cards {args.card_height:.0f} px tall, {1000 * t / args.scenes:.0f} ms/scene")
    print(f"face up: {total['named_right']}/{total['face_up']} named right ({rec:.3f}), {total['named_wrong']} named wrong, {total['named_twice']} named twice")
    print(f"face up, counted: {total['up_seen']} reported of {total['face_up']}; count exact in {total['up_exact']}/{args.scenes} scenes")
    print(f"face down: {total['down_seen']} reported of {total['down_true']}; count exact in {total['down_exact']}/{args.scenes} scenes")
    print(f"off the table: {total['off_table_reported']} reported (of cards on the floor); outside the picture: {total['outside_picture']}")
    if args.by_rank:
        ranks = sorted(int(k.split()[1]) for k in total if k.startswith("cards "))
        print("face up named right, by rank: " + ", ".join(
            f"{RANKS[r - 2]} {total.get(f'named {r}', 0)}/{total[f'cards {r}']}" for r in ranks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
