"""``dealer-pi rules [ID or WORD...]``: look rule IDs up in the rule catalogue (docs/rules.md).

An exact ID prints that rule; any other word prints every rule whose ID or
text contains it (``dealer-pi rules burn``); nothing lists every ID with the
start of its text. The tablet opens the same text when an alert's ID is
tapped, and ``/rules`` on the dashboard lists the whole catalogue.
"""

from __future__ import annotations

import argparse
import json
import sys

NAME = "rules"
HELP = "look up rule IDs (what DEAL-BOARD-EXTRA means), or find rules by a word"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("terms", nargs="*", metavar="ID_OR_WORD",
                        help="a rule ID (DEAL-BOARD-EXTRA) or a word to find (burn); none: list every ID")
    parser.add_argument("--json", action="store_true", help="one JSON object per rule, with its sources")


def run(args: argparse.Namespace) -> int:
    from dealer_pi.rule_catalogue import CATALOGUE, Rule, load_catalogue

    try:
        cat = load_catalogue()
    except OSError as exc:
        print(f"dealer-pi rules: cannot read the catalogue {CATALOGUE}: {exc.strerror}", file=sys.stderr)
        return 2
    if not args.terms:
        for rule in cat.rules.values():
            text = rule.text if len(rule.text) <= 70 else rule.text[:69] + "…"
            print(f"{rule.id:<22} {text}")
        return 0
    found: list[Rule] = []
    status = 0
    for term in args.terms:
        exact = cat.get(term)
        hits = [exact] if exact else [r for r in cat.rules.values() if term.lower() in f"{r.id} {r.text}".lower()]
        if not hits:
            print(f"dealer-pi rules: no rule ID or rule text matches {term!r} (dealer-pi rules: the full list)", file=sys.stderr)
            status = 1
        found += [r for r in hits if r not in found]
    for rule in found:
        if args.json:
            print(json.dumps(cat.to_dict(rule), ensure_ascii=False))
            continue
        print(f"{rule.id}  ({rule.family})\n  {rule.text}")
        print("  Sources: " + "; ".join(f"{s} ({cat.seeds.get(s[:3], '?')})" for s in rule.sources) + "\n")
    return status
