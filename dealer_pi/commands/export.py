"""``dealer-pi export``: finished hands out of the journal, as PHH files and/or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

NAME = "export"
HELP = "export finished hands from the journal: --phh DIR (hand histories) and/or --json FILE"


def configure(parser: argparse.ArgumentParser) -> None:
    from ._journal_arg import add_journal_source

    add_journal_source(parser)
    parser.add_argument("--phh", metavar="DIR", help="write hand-N.phh files here (dealer-pi replay reads them)")
    parser.add_argument("--json", metavar="FILE", help="write every finished hand with its full event log ('-': standard output)")


def run(args: argparse.Namespace) -> int:
    from ._journal_arg import journal_path
    from dealer_pi.runtime.export import export_hands
    from dealer_pi.runtime.journal import Journal
    from dealer_pi.runtime.journal_check import inspect

    if not args.phh and not args.json:
        print("dealer-pi export: say what to write: --phh DIR and/or --json FILE", file=sys.stderr)
        return 2
    path = journal_path(args, "export")
    if path is None:
        return 2
    # The chain's final hash goes with the export: `dealer-pi journal verify FILE --final HASH` later
    # shows whether anything up to this export was changed.
    report = inspect(path)
    for finding in report.findings:
        print(f"dealer-pi export: warning: journal {path}: {finding}", file=sys.stderr)
    journal = Journal(path)
    try:
        hands = list(export_hands(journal))
    finally:
        journal.close()
    print(f"journal {path}: {report.entries} entries, final hash {report.final_hash}", file=sys.stderr)
    problems = 0
    if args.phh:
        out = Path(args.phh)
        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for h in hands:
            if h.history is None:
                if not h.misdeal:
                    problems += 1
                print(f"hand {h.hand}: not written as PHH: {h.problem}", file=sys.stderr)
                continue
            (out / f"hand-{h.hand:05d}.phh").write_text(h.phh(), encoding="utf-8")
            written += 1
        (out / "journal-hash.txt").write_text(f"{path}\nentries {report.entries}\nfinal hash {report.final_hash}\n",
                                              encoding="utf-8")
        print(f"{written} PHH file(s) written to {out}", file=sys.stderr)
    if args.json:
        text = json.dumps({"journal": str(path), "journal_entries": report.entries, "journal_hash": report.final_hash,
                           "hands": [h.to_dict() for h in hands]}, indent=1, ensure_ascii=False)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
            print(f"{len(hands)} hand(s) written to {args.json}", file=sys.stderr)
    return 1 if problems else 0
