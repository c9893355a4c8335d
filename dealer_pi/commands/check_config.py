"""``dealer-pi check-config [FILE]``: check a config file and name every bad key.

Runs the strict loader (unknown keys, wrong types, a file that is not UTF-8)
and then every check ``serve`` makes before it starts (``config_check.py``):
what ``check-config`` calls ok, ``serve`` accepts. Warnings (an empty token)
are printed too but do not fail the check. Exit status 0 when the file is
good, 1 when anything is wrong.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

NAME = "check-config"
HELP = "check a config file and name every bad key"
DEFAULT = "/etc/dealer-pi/config.toml"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=os.environ.get("DEALER_PI_CONFIG", DEFAULT),
                        help=f"the TOML config (default: $DEALER_PI_CONFIG or {DEFAULT})")


def run(args: argparse.Namespace) -> int:
    from dealer_pi.config import ConfigError, load_config
    from dealer_pi.config_check import problems, warnings

    path = args.file
    try:
        config = load_config(path)
    except ConfigError as exc:
        found = exc.problems
    else:
        found = problems(config, Path(path).resolve().parent, journal=True)
        for key, message in warnings(config):
            print(f"{path}: warning: {key}: {message}", file=sys.stderr)
    if found:
        for key, message in found:
            print(f"{path}: {key}: {message}", file=sys.stderr)
        print(f"{path}: {len(found)} problem(s)", file=sys.stderr)
        return 1
    print(f"{path}: ok")
    return 0
