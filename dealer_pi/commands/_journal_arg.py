"""The journal a reading command (export, stats) works on: ``--journal FILE``, or ``--config FILE``'s."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_journal_source(parser: argparse.ArgumentParser) -> None:
    """``--config FILE`` or ``--journal FILE``, exactly one (read back by :func:`journal_path`)."""
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--config", help="the TOML config (its journal.path is read)")
    src.add_argument("--journal", help="the journal file itself")


def journal_path(args: argparse.Namespace, command: str) -> Path | None:
    """The journal file; None once the reason it cannot be had is printed (a bad config, no such file)."""
    from dealer_pi.config import ConfigError, load_config
    from dealer_pi.runtime.wiring import resolve

    if args.config:
        try:
            config = load_config(args.config)
        except ConfigError as exc:
            print(f"dealer-pi {command}: {exc}", file=sys.stderr)
            return None
        path = resolve(Path(args.config).resolve().parent, config.journal.path)
    else:
        path = Path(args.journal)
    if not path.is_file():
        print(f"dealer-pi {command}: no journal at {path}", file=sys.stderr)
        return None
    return path
