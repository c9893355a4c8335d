"""``dealer-pi journal verify FILE``: check a journal's hash chain and that every entry is readable.

Read only: the journal is never changed. Exit status 0 when the journal is
intact, 1 when anything is wrong (each problem named by entry), 2 when the
file cannot be read at all.
"""

from __future__ import annotations

import argparse
import sys

NAME = "journal"
HELP = "check a journal: every entry readable and its hash chain unbroken (verify FILE)"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    verify = sub.add_parser("verify", help="check every entry and the hash chain, without changing the file",
                            description="Check every entry and the hash chain of a journal, without changing it.")
    verify.add_argument("file", help="the journal (the [journal] path of the config)")
    verify.add_argument("--final", metavar="HASH",
                        help="a final hash kept elsewhere (an export prints one): the journal must still contain it")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from dealer_pi.runtime.journal_check import inspect

    path = Path(args.file)
    if not path.is_file():
        print(f"dealer-pi journal verify: no journal at {path}", file=sys.stderr)
        return 2
    report = inspect(path)
    for finding in report.findings:
        print(f"{path}: {finding}", file=sys.stderr)
    if any(f.where == "the file" for f in report.findings):
        return 2
    problems = len(report.findings)
    if args.final:
        at = report.hashes.get(args.final.strip().lower())
        if at is None:
            print(f"{path}: the final hash {args.final} is not in this journal's chain: entries up to it were "
                  "changed or deleted, or it is from another journal", file=sys.stderr)
            problems += 1
        else:
            print(f"{path}: the final hash given is entry {at}'s: nothing up to it was changed", file=sys.stderr)
    sealed = f"; {report.unhashed} entries from before the hash chain are sealed by the entries after them" \
        if report.unhashed and report.unhashed < report.entries else \
        f"; none of its {report.unhashed} entries has a hash (written before the hash chain)" if report.unhashed else ""
    state = "intact" if not problems else f"{problems} problem(s)"
    print(f"{path}: {report.entries} entries, {report.events} events, {state}{sealed}")
    print(f"final hash: {report.final_hash}")
    return 1 if problems else 0
