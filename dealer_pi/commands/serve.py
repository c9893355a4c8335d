"""``dealer-pi serve --config FILE``: run the assistant at a real table."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from dealer_pi.config import ConfigError, load_config

NAME = "serve"
HELP = "run the assistant: engine, journal, devices and the web dashboard"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the TOML config file")
    parser.add_argument("--host", help="override web.host")
    parser.add_argument("--port", type=int, help="override web.port")


def run(args: argparse.Namespace) -> int:
    from dealer_pi.runtime.wiring import Assistant

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"dealer-pi serve: {exc}", file=sys.stderr)
        return 2
    try:
        assistant = Assistant.from_config(config, base_dir=Path(args.config).resolve().parent,
                                          host=args.host, port=args.port)
    except (ValueError, OSError) as exc:
        print(f"dealer-pi serve: {exc}", file=sys.stderr)
        return 2
    if not config.web.dealer_token:
        print("dealer-pi serve: web.dealer_token is empty: the tablet cannot enter anything", file=sys.stderr)
    print(f"dealer-pi: serving {config.table.name!r} on {assistant.server.url}", flush=True)
    assistant.serve_forever()
    return 0
