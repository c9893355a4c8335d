"""``dealer-pi check-config [FILE]``: check a config file and name every bad key.

Runs the strict loader (unknown keys, wrong types) and then the hardware
checks (pins used twice, thresholds out of order, a serial shoe with no port).
Exit status 0 when the file is good, 1 when anything is wrong.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from dealer_pi.config import ConfigError, load_config
from dealer_pi.hardware.settings import check_hardware

NAME = "check-config"
HELP = "check a config file and name every bad key"
DEFAULT = "/etc/dealer-pi/config.toml"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=os.environ.get("DEALER_PI_CONFIG", DEFAULT),
                        help=f"the TOML config (default: $DEALER_PI_CONFIG or {DEFAULT})")


def run(args: argparse.Namespace) -> int:
    path = args.file
    try:
        config = load_config(path)
    except ConfigError as exc:
        problems = exc.problems
    else:
        from dealer_pi.floor.settings import check_floor

        base = Path(path).resolve().parent
        problems = check_hardware(config, base) + check_floor(config, base)
    if problems:
        for key, message in problems:
            print(f"{path}: {key}: {message}", file=sys.stderr)
        print(f"{path}: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"{path}: ok")
    return 0
