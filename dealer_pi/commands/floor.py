"""``dealer-pi floor --config FILE``: the card room's floor.

Subscribes to every table of the room on the MQTT broker, keeps the floor's
journal, runs the tournament (the one clock, the draw, moves, hand-for-hand,
penalties, rebuys, payouts) and serves the floor staff's page and the public
tournament board.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import Any

NAME = "floor"
HELP = "run the card room's floor: tables over MQTT, the floor page and the tournament board"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the floor's TOML config file")
    parser.add_argument("--host", help="override web.host")
    parser.add_argument("--port", type=int, help="override web.port")


def run(args: argparse.Namespace) -> int:
    from dealer_pi.config import ConfigError
    from dealer_pi.floor.floor_config import load_floor_config

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config, broker, base = load_floor_config(args.config)
    except ConfigError as exc:
        print(f"dealer-pi floor: {exc}", file=sys.stderr)
        return 2
    floor = start_floor(config, broker, base, args.host, args.port)
    if floor is None:
        return 2
    service, server = floor
    token = config.web.floor_token
    print(f"dealer-pi floor: room {config.floor.room!r} on {broker.url}\n"
          f"  Floor page        {server.url}/floor{'?token=' + token if token else ''}\n"
          f"  Tournament board  {server.url}/board", flush=True)
    if not token:
        print("dealer-pi floor: web.floor_token is empty: the floor page and the commands are closed", file=sys.stderr)
    wait_for_signal()
    server.close()
    service.stop()
    return 0


def start_floor(config: Any, broker: Any, base: Any, host: str | None = None, port: int | None = None) -> tuple[Any, Any] | None:
    """The floor's service and web server, started (None when the port is taken)."""
    from dealer_pi.floor.service import FloorService
    from dealer_pi.floor.web import create_floor_app
    from dealer_pi.web.server import Server

    service = FloorService(config, broker, base).start()
    app = create_floor_app(service, config.web.floor_token)
    try:
        server = Server(app, host=host or config.web.host, port=config.web.port if port is None else port,
                        threads=config.web.threads).start()
    except OSError as exc:
        service.stop()
        print(f"dealer-pi floor: cannot serve: {exc}", file=sys.stderr)
        return None
    return service, server


def wait_for_signal() -> None:
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGINT, lambda *a: stop.set())
    while not stop.wait(0.5):  # a timed wait: a signal taken by another thread is handled within 0.5 s
        pass
