"""``dealer-pi vision ...``: the overhead camera's tools.

* ``vision detect IMAGE [--json] [--draw OUT.png]``: every card in a still
  picture: its name (``Ah``, ``Tc``; ``?`` when not read with confidence),
  face up or down, centre, corners and confidence; zones too when the table's
  ArUco markers are in the picture. ``--draw`` writes the picture annotated.
* ``vision calibrate IMAGE [--layout FILE] [--draw OUT.png]``: find the
  markers, fit the camera-to-table homography, draw the zones.
* ``vision enrol FOLDER --out FILE``: adapt the reader to the venue's deck
  from one picture per card, each named after its card (``Ah.png``).
  ``vision enrol --from-journal --config FILE --out FILE``: adapt it to the cards the
  table labelled itself while it played (the shoe named them, they were shown, the dealer
  confirmed them), with the reader's score on held-back pictures before and after.
* ``vision render OUT.png --cards "board=Ah,Kd,Tc seat:1=Qs,Jh seat:3=??,??"``:
  a simulated camera frame (``??`` is a face-down card).
* ``vision markers OUTDIR [--layout FILE]``: printable marker images.

A bad picture (missing, not an image, too small) is an error naming the file,
with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dealer_pi.config import ConfigError
from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError

NAME = "vision"
HELP = "find and read cards in camera pictures, calibrate the table, enrol a deck"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    det = sub.add_parser("detect", help="list every card in a picture")
    det.add_argument("image", help="the picture (PNG or JPEG)")
    det.add_argument("--json", action="store_true", help="print JSON instead of a table")
    det.add_argument("--draw", metavar="OUT", help="write the picture with the cards drawn on")
    det.add_argument("--layout", help="table layout TOML (markers, zones); default: the built-in one")
    det.add_argument("--enrolment", help="the venue's deck enrolment (from `vision enrol`)")
    det.add_argument("--min-confidence", type=float, default=0.9, help="below this a card is reported as unknown (default 0.9)")
    det.add_argument("--whole-picture", action="store_true",
                     help="report cards anywhere in the picture, not only on the table (by its markers, or as the picture shows it)")
    cal = sub.add_parser("calibrate", help="fit the camera-to-table homography from the markers")
    cal.add_argument("image", help="a picture of the table with its ArUco markers in view")
    cal.add_argument("--layout", help="table layout TOML (markers, zones); default: the built-in one")
    cal.add_argument("--draw", metavar="OUT", help="write the picture with the markers and zones drawn on")
    enr = sub.add_parser("enrol", help="enrol the venue's deck from one picture per card, or from what the table recorded")
    enr.add_argument("folder", nargs="?", help="one picture per card, each named after its card (Ah.png, Tc.jpg)")
    enr.add_argument("--out", required=True, help="where to write the enrolment (use it with detect --enrolment)")
    enr.add_argument("--from-journal", action="store_true",
                     help="learn from the cards the table itself labelled (the shoe, the showdown, the dealer), "
                          "kept beside the journal; every fourth one is held back to report before and after")
    enr.add_argument("--config", help="with --from-journal: the config whose journal the examples lie beside")
    enr.add_argument("--examples", help="with --from-journal: the examples folder itself")
    ren = sub.add_parser("render", help="draw a simulated overhead camera frame")
    ren.add_argument("out", help="the picture to write (.png or .jpg)")
    ren.add_argument("--cards", required=True, help='cards per zone, ?? face down: e.g. "board=Ah,Kd,Tc seat:1=Qs,Jh burn=??"')
    ren.add_argument("--seed", type=int, default=0, help="seed of the lighting, angles and felt (default 0)")
    mk = sub.add_parser("markers", help="write printable ArUco marker images")
    mk.add_argument("outdir", help="folder for the marker_N.png files (made if missing)")
    mk.add_argument("--layout", help="table layout TOML (markers, zones); default: the built-in one")
    mk.add_argument("--pixels", type=int, default=400, help="side of each marker image in pixels (default 400)")


def _layout(path: str | None):  # type: ignore[no-untyped-def]
    from dealer_pi.vision.calibration import default_layout, load_layout

    return load_layout(path) if path else default_layout()


def run(args: argparse.Namespace) -> int:
    try:
        return _VERBS[args.verb](args)
    except (InputError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _detect(args: argparse.Namespace) -> int:
    import dataclasses

    import cv2

    from dealer_pi.vision.calibration import Calibration, calibrate
    from dealer_pi.vision.detect import annotate
    from dealer_pi.vision.recogniser import Enrolment
    from dealer_pi.vision.sources import read_image
    from dealer_pi.vision.surface import still_cards, still_detector, told_by_markers

    img = read_image(args.image)
    enrolment = Enrolment.load(args.enrolment) if args.enrolment else None
    detector = still_detector(enrolment, args.min_confidence)
    layout = _layout(args.layout)
    cal: Calibration | None
    try:
        cal = calibrate(img, layout)
        told_by_markers(detector, cal)
    except InputError:
        cal = None  # no markers in view: cards without zones
    cards = detector.detect(img)
    zones = cal is not None
    if args.whole_picture:
        cards = [dataclasses.replace(c, zone=cal.zone_of(c.centre)) for c in cards] if cal else cards
    else:
        cards = still_cards(cards, img, cal)
    if args.draw:
        out = cal.draw(img) if cal is not None else img
        if not cv2.imwrite(args.draw, annotate(out, cards)):
            raise InputError(args.draw, "cannot write the annotated picture (unknown extension or folder?)")
    if args.json:
        print(json.dumps({"image": args.image, "zones": zones, "cards": [c.to_dict() for c in cards]}, indent=2, ensure_ascii=False))
    else:
        print(f"{len(cards)} card(s) in {args.image}" + ("" if zones else " (no table markers: no zones)"))
        for c in sorted(cards, key=lambda c: (c.centre[1], c.centre[0])):
            name = str(c.card) if c.card else ("?" if c.face_up else "face down")
            where = f" in {c.zone}" if c.zone else ""
            print(f"  {name:>9}  at ({c.centre[0]:.0f}, {c.centre[1]:.0f}){where}  confidence {c.confidence:.2f}")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from dealer_pi.vision.calibration import calibrate
    from dealer_pi.vision.sources import read_image

    img = read_image(args.image)
    cal = calibrate(img, _layout(args.layout))
    print(f"markers seen: {sorted(cal.markers_px)}; mean fit error {cal.error_mm:.1f} mm")
    length = cal.card_height_px()
    print(f"a card's length: {length:.0f} px, the same in every zone within a tenth" if length else
          "a card's length differs by over a tenth across the zones (the camera looks at a slant): "
          "it is measured from the cards; mount the camera straight over the table")
    print("image->table homography:", json.dumps([[round(v, 6) for v in row] for row in cal.h.tolist()]))
    if args.draw and not cv2.imwrite(args.draw, cal.draw(img)):
        raise InputError(args.draw, "cannot write the picture")
    return 0


def _enrol(args: argparse.Namespace) -> int:
    from dealer_pi.vision.enrol import enrol_folder
    from dealer_pi.vision.recogniser import NOT_INDEX, Recogniser

    if args.from_journal:
        return _enrol_from_journal(args)
    if not args.folder:
        raise InputError("folder", "name the folder of card pictures, or use --from-journal")
    enrolment, problems = enrol_folder(Recogniser(), args.folder)
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    if not len(enrolment):
        raise InputError(args.folder, "no card could be enrolled")
    enrolment.save(args.out)
    cards = len({int(v) for v in enrolment.labels.tolist()} - {NOT_INDEX})
    print(f"enrolled {cards} card(s) ({len(enrolment)} corner indices) and adapted the reader; saved to {args.out}")
    return 0


def _enrol_from_journal(args: argparse.Namespace) -> int:
    from collections import Counter

    from dealer_pi.vision.examples import enrol_examples, examples_dir, load_examples, read_score, split

    if args.examples:
        folder = Path(args.examples)
    elif args.config:
        from dealer_pi.config import load_config

        config = load_config(args.config)
        journal = Path(config.journal.path).expanduser()
        folder = examples_dir(journal if journal.is_absolute() else Path(args.config).resolve().parent / journal)
    else:
        raise InputError("--from-journal", "say where the table's examples are: --config FILE or --examples DIR")
    examples = load_examples(folder)
    if len(examples) < 4:
        raise InputError(str(folder), f"{len(examples)} labelled example(s); at least 4 are needed "
                                      "(the table leaves one for each card whose name became certain)")
    train, held = split(examples)
    before = read_score(held)
    enrolment, problems = enrol_examples(train)
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    if not len(enrolment):
        raise InputError(str(folder), "no example could be learned from")
    after = read_score(held, enrolment)
    enrolment.save(args.out)
    how = Counter(e.how for e in train)
    print(f"learned from {len(train)} example(s) of {len({e.card for e in train})} card(s) "
          f"({', '.join(f'{n} {k}' for k, n in sorted(how.items()))}) in {folder}")
    print(f"held back {len(held)} example(s):")
    print(f"  before: {before}")
    print(f"  after:  {after}")
    print(f"saved to {args.out}; set [camera] enrolment_file to use it")
    return 0


def parse_cards_spec(spec: str) -> dict[str, list[Card | None]]:
    """``"board=Ah,Kd seat:1=??,??"`` -> zone -> cards (None = face down)."""
    out: dict[str, list[Card | None]] = {}
    for part in spec.split():
        if "=" not in part:
            raise InputError(f"--cards {part!r}", "write zone=card,card (e.g. board=Ah,Kd)")
        zone, cards = part.split("=", 1)
        out[zone] = [None if c == "??" else Card.parse(c, where=f"--cards {zone}") for c in cards.split(",") if c]
    return out


def _render(args: argparse.Namespace) -> int:
    import cv2

    from dealer_pi.vision.render import render_table_frame

    try:
        frame = render_table_frame(parse_cards_spec(args.cards), seed=args.seed)
    except ValueError as exc:
        raise InputError("--cards", str(exc)) from exc
    if not cv2.imwrite(args.out, frame):
        raise InputError(args.out, "cannot write the picture")
    print(f"wrote {args.out}")
    return 0


def _markers(args: argparse.Namespace) -> int:
    import cv2

    from dealer_pi.vision.calibration import marker_image

    layout = _layout(args.layout)
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for i, (x, y) in sorted(layout.markers.items()):
        cv2.imwrite(str(out / f"marker_{i}.png"), cv2.copyMakeBorder(marker_image(i, args.pixels, layout.dictionary), 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255))
        print(f"marker {i}: print {layout.marker_mm:.0f} mm wide, centre at ({x:.0f}, {y:.0f}) mm")
    return 0


_VERBS = {"detect": _detect, "calibrate": _calibrate, "enrol": _enrol, "render": _render, "markers": _markers}
