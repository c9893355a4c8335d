"""``dealer-pi replay FILE...``: play PHH hand histories through the rules engine.

Per hand it prints the final stacks and whether they match the file's
``finishing_stacks``; ``--json`` prints one JSON object per hand instead. Stacks
that agree but for a split odd chip the file shares out in fractions
(``10112.5``) match, and the verdict says so (POT-ODD-CHIP). A missing file is
named on standard error (it is not a hand). A file that cannot be read, a hand
the engine refuses, or a mismatch makes the exit status 1, after every other
file has been replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from dealer_pi.engine.errors import InputError
from dealer_pi.engine.phh import HOLDEM_VARIANTS, HandHistory, parse_phh_file
from dealer_pi.engine.phh_replay import Replay, replay_history
from dealer_pi.engine.profiles import PROFILES, get_profile

NAME = "replay"
HELP = "replay PHH hand histories through the rules engine and check the final stacks"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="PHH files (.phh, or .phhs with several hands)")
    parser.add_argument("--json", action="store_true", help="one JSON object per hand on standard output")
    parser.add_argument(
        "--profile", default="standard", choices=sorted(PROFILES),
        help="rule profile to judge the hands by (default: standard)",
    )


def _label(path: str, name: str) -> str:
    return f"{path}[{name}]" if name else path


def _record(label: str, r: Replay | None, error: str = "") -> dict[str, Any]:
    if r is None:
        return {"file": label, "ok": False, "match": None, "error": error}
    h = r.history
    status_ok = not r.error and r.matches is not False
    return {
        "file": label,
        "ok": status_ok,
        "match": r.matches,
        "match_note": r.note or None,
        "complete": r.complete,
        "variant": h.variant,
        "players": [h.name(p) for p in range(1, h.player_count + 1)],
        "starting_stacks": list(h.starting_stacks),
        "final_stacks": None if r.final_stacks is None else list(r.final_stacks),
        "finishing_stacks": None if h.finishing_stacks is None else list(h.finishing_stacks),
        "error": r.error or None,
    }


def _print_text(out: TextIO, label: str, r: Replay | None, error: str) -> None:
    if r is None:
        print(f"{label}: ERROR {error}", file=out)
        return
    h: HandHistory = r.history
    if r.error:
        verdict = f"ERROR {r.error}"
    elif r.matches is None:
        verdict = "not checked (no finishing_stacks)"
    elif r.odd_chip_split:
        verdict = r.note
    elif r.matches:
        verdict = "match"
    else:
        verdict = "MISMATCH"
    if not r.complete and not r.error:
        verdict += " (the history stops before the hand is over)"
    print(f"{label}: {verdict} [{HOLDEM_VARIANTS[h.variant]}, {h.player_count} players]", file=out)
    if r.final_stacks is None:
        return
    width = max(len(h.name(p)) for p in range(1, h.player_count + 1))
    for p in range(1, h.player_count + 1):
        got = r.final_stacks[p - 1]
        line = f"  p{p:<2} {h.name(p):<{width}} {h.starting_stacks[p - 1]:>12} -> {got:>12}"
        if h.finishing_stacks is not None and h.finishing_stacks[p - 1] != got:
            line += f"   expected {h.finishing_stacks[p - 1]}"
        print(line, file=out)


def _unreadable(path: str) -> str | None:
    """Why the file cannot be read at all, or None when it can be opened."""
    p = Path(path)
    if not p.exists():
        return "no such file"
    if p.is_dir():
        return "is a folder: give the hand histories in it (e.g. DIR/*.phh)"
    return None


def run(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    out = sys.stdout
    failures = 0
    hands = 0
    missing = 0
    for path in args.files:
        why = _unreadable(path)
        if why is not None:
            missing += 1
            if args.json:
                print(json.dumps(_record(path, None, why), ensure_ascii=False), file=out)
            else:
                print(f"dealer-pi replay: {path}: {why}", file=sys.stderr)
            continue
        try:
            text = Path(path).read_text(encoding="utf-8")
            parsed = parse_phh_file(text)
        except (OSError, UnicodeDecodeError) as err:
            parsed = [("", InputError("", f"cannot read the file: {err}"))]
        except InputError as err:
            parsed = [("", err)]
        for name, item in parsed:
            hands += 1
            label = _label(path, name)
            if isinstance(item, InputError):
                r, error = None, str(item)
            else:
                r, error = replay_history(item, profile), ""
            record = _record(label, r, error)
            if not record["ok"]:
                failures += 1
            if args.json:
                print(json.dumps(record, ensure_ascii=False), file=out)
            else:
                _print_text(out, label, r, error)
    if not args.json and hands:
        print(f"{hands} hand(s), {failures} with a problem", file=out)
    if missing and not args.json:
        print(f"dealer-pi replay: {missing} of {len(args.files)} file(s) could not be read", file=sys.stderr)
    return 1 if failures or missing else 0
