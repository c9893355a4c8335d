"""``dealer-pi serve --config FILE``: run the assistant at a real table."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from pathlib import Path

from dealer_pi.config import ConfigError, load_config

NAME = "serve"
HELP = "run the assistant: engine, journal, devices and the web dashboard"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the TOML config file")
    parser.add_argument("--host", help="override web.host")
    parser.add_argument("--port", type=int, help="override web.port (0: any free port)")


def run(args: argparse.Namespace) -> int:
    from dealer_pi.config_check import problems, warnings
    from dealer_pi.runtime.journal import JournalError
    from dealer_pi.runtime.wiring import Assistant

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"dealer-pi serve: {exc}", file=sys.stderr)
        return 2
    base_dir = Path(args.config).resolve().parent
    if args.port is not None:
        config = replace(config, web=replace(config.web, port=args.port))
    if args.host:
        config = replace(config, web=replace(config.web, host=args.host))
    # The checks check-config makes; the journal's is read only (a damaged one is left as it is).
    found = problems(config, base_dir, journal=True)
    if found:
        for key, message in found:
            print(f"dealer-pi serve: {args.config}: {key}: {message}", file=sys.stderr)
        return 2
    for key, message in warnings(config):
        print(f"dealer-pi serve: warning: {key}: {message}", file=sys.stderr)
    try:
        assistant = Assistant.from_config(config, base_dir=base_dir, host=args.host, port=args.port)
    except (ValueError, OSError, JournalError) as exc:
        print(f"dealer-pi serve: {exc}", file=sys.stderr)
        return 2
    runtime = assistant.runtime
    runtime.devices.update("journal", state="ok", entries=runtime.journal.last_seq(),
                           not_replayed=runtime.replay_mismatches)
    if runtime.replay_mismatches:
        n = runtime.replay_mismatches
        print(f"dealer-pi serve: {n} journal {'entry' if n == 1 else 'entries'} did not replay as recorded "
              "(the log names each); the table was rebuilt from what the rules accept", file=sys.stderr)
    assistant.serve_forever(lambda: print(f"dealer-pi: serving {config.table.name!r} on {assistant.server.url}",
                                          flush=True))
    return 0
