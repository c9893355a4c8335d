"""The ``dealer-pi`` command line."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence

from dealer_pi import __version__, commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealer-pi", description="Dealer assistant for live Texas Hold'em tables.")
    parser.add_argument("--version", action="version", version=f"dealer-pi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        cmd = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        return 130
