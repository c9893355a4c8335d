"""``dealer-pi stats --config FILE``: VPIP, PFR, 3-bet, AF, WTSD and W$SD per player, from the journal.

The definitions are in :mod:`dealer_pi.broadcast.stats` and the README. A
session is a calendar day of play; ``--from``/``--to`` choose a range of days.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

NAME = "stats"
HELP = "player statistics from the journal: hands, VPIP, PFR, 3-bet, aggression factor, WTSD, W$SD"


def configure(parser: argparse.ArgumentParser) -> None:
    from ._journal_arg import add_journal_source

    add_journal_source(parser)
    parser.add_argument("--session", metavar="DAY", help="one session: the day it was played (2026-05-04)")
    parser.add_argument("--from", dest="since", metavar="DAY", help="first day of a range (inclusive)")
    parser.add_argument("--to", dest="until", metavar="DAY", help="last day of a range (inclusive)")
    parser.add_argument("--json", action="store_true", help="one JSON object on standard output")


def _pct(x: Any) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def table(stats: dict[str, Any]) -> str:
    head = f"{'player':16} {'hands':>6} {'VPIP':>5} {'PFR':>5} {'3-bet':>6} {'AF':>5} {'WTSD':>5} {'W$SD':>5}"
    lines = [head]
    for p in stats["players"]:
        af = "-" if p["af"] is None else f"{p['af']:.1f}"
        lines.append(f"{p['player'][:16]:16} {p['hands']:6} {_pct(p['vpip']):>5} {_pct(p['pfr']):>5} "
                     f"{_pct(p['three_bet']):>6} {af:>5} {_pct(p['wtsd']):>5} {_pct(p['wsd']):>5}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ._journal_arg import journal_path
    from dealer_pi.broadcast.stats import journal_stats
    from dealer_pi.engine.errors import InputError
    from dealer_pi.runtime.journal import Journal

    path = journal_path(args, "stats")
    if path is None:
        return 2
    journal = Journal(path)
    try:
        stats = journal_stats(journal, session=args.session, since=args.since, until=args.until)
    except InputError as exc:
        print(f"dealer-pi stats: --{exc.where}: {exc.message}", file=sys.stderr)
        return 2
    finally:
        journal.close()
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
    else:
        print(table(stats))
        print(f"{stats['hands']} hand(s) from {path}", file=sys.stderr)
    return 0
