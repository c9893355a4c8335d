"""``dealer-pi replay-session VIDEO SHOELOG --setup FILE``: a recorded session through the whole runtime.

The overhead camera's video goes through the vision pipeline the ``[camera]`` config
section describes (``--config``; every frame, none dropped), the smart shoe's DPS/1 log
through the shoe decoder, the dealer's entries (``--inputs``, JSON lines) as the tablet
gives them, all in time order into a new journal. Prints what each hand came to (board,
hands shown, pots, alerts); ``--json`` prints it as JSON. ``dealer-pi export --journal``
reads the journal it keeps (``--journal``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

NAME = "replay-session"
HELP = "replay a recorded session (overhead video + smart-shoe log) through the whole runtime"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", help="the overhead camera's recording (any video file OpenCV reads)")
    parser.add_argument("shoe_log", metavar="SHOELOG", help="the smart shoe's DPS/1 lines, as it sent them")
    parser.add_argument("--setup", required=True, help="the table's setup as JSON (profile, blinds, seats, button)")
    parser.add_argument("--inputs", help="the dealer's entries: one JSON observation per line, ts_ms on the video's clock")
    parser.add_argument("--config", help="the TOML config whose [camera] section (layout, enrolment...) and shoe registration apply")
    parser.add_argument("--shoe-offset-ms", type=int, default=0,
                        help="the shoe's clock (ms) when the video started (default 0: they started together)")
    parser.add_argument("--journal", help="keep the journal here (a new file; default: a temporary one)")
    parser.add_argument("--json", action="store_true", help="print the hands as JSON")


def run(args: argparse.Namespace) -> int:
    from dealer_pi.config import ConfigError, load_config
    from dealer_pi.engine.errors import InputError
    from dealer_pi.runtime.session_replay import read_dealer_inputs, replay_session

    try:
        setup = json.loads(Path(args.setup).read_text(encoding="utf-8"))
        if not isinstance(setup, dict):
            raise InputError(args.setup, "the setup must be a JSON object")
        camera, base, registration = None, None, None
        if args.config:
            config = load_config(args.config)
            camera, base = config.camera, Path(args.config).resolve().parent
            if config.shoe.deck_registration:
                from dealer_pi.hardware.deck import DeckRegistration
                from dealer_pi.runtime.wiring import resolve

                registration = DeckRegistration.load(resolve(base, config.shoe.deck_registration))
        dealer = read_dealer_inputs(args.inputs) if args.inputs else []
        with tempfile.TemporaryDirectory(prefix="dealer-pi-replay-") as tmp:
            journal = Path(args.journal) if args.journal else Path(tmp) / "journal.sqlite3"
            result = replay_session(args.video, args.shoe_log, setup, journal, dealer=dealer, camera=camera,
                                    base_dir=base, shoe_offset_ms=args.shoe_offset_ms, registration=registration)
    except (InputError, ConfigError, ValueError, OSError) as exc:
        print(f"dealer-pi replay-session: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"frames": result.frames, "bad_frames": result.bad_frames, "camera_observations": result.camera,
                          "draws": result.shoe, "dealer_entries": result.dealer, "problems": result.problems,
                          "hands": result.hands}, indent=1))
        return 0
    print(f"replayed {result.frames} frame(s) ({result.bad_frames} bad), {result.shoe} draw(s), "
          f"{result.dealer} dealer entr{'y' if result.dealer == 1 else 'ies'}; the camera made {result.camera} observation(s)")
    for n, h in enumerate(result.hands, 1):
        shown = ", ".join(f"seat {s}: {' '.join(c)}" for s, c in h["shown"].items()) or "none"
        pots = "; ".join(", ".join(f"seat {seat} {amount}" for seat, amount in shares) for shares in h["pots"]) or "none"
        what = "misdeal" if h["misdeal"] else f"board {' '.join(h['board']) or '-'} | shown {shown} | paid {pots}"
        print(f"hand {n}: {what} | alerts {', '.join(h['alerts']) or 'none'}")
    for p in result.problems:
        print(f"problem: {p}", file=sys.stderr)
    if args.journal:
        print(f"journal: {args.journal} (dealer-pi export --journal {args.journal} --json - shows every event)")
    return 0
