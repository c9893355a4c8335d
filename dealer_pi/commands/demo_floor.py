"""``dealer-pi demo-floor``: a card room on one machine, a tournament on eight simulated tables.

A private Mosquitto on a free loopback port, eight tables (each the real
table code: runtime, journal, floor link and web server) dealt by simulated
dealers, and the floor process with its page and the tournament board. The
levels are short and the stacks shallow, so that within minutes players are
knocked out, tables are balanced and broken, and hand-for-hand starts near
the bubble. Prints the URLs.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

NAME = "demo-floor"
HELP = "run a tournament on eight simulated tables with the floor page (prints the URLs)"

FIRST = ("Ana", "Ben", "Chloe", "Dev", "Emeka", "Farah", "Gus", "Hana", "Ivo", "Jules", "Kofi", "Lena", "Mateo", "Nia",
         "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tara", "Uma", "Viktor", "Wen", "Yara")
LAST = ("A.", "B.", "C.")
# Blinds and antes in chips; minutes at pace 1 (a faster pace shortens them alike).
LEVELS = [(25, 50, 0), (50, 100, 0), (75, 150, 25), (100, 200, 25), (150, 300, 50), (200, 400, 50), (300, 600, 75),
          (400, 800, 100), (600, 1200, 200), (800, 1600, 200), (1000, 2000, 300)]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address the floor and the tables listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="the floor's port (the tables take free ports)")
    parser.add_argument("--tables", type=int, default=8, help="simulated tables in the tournament (default 8)")
    parser.add_argument("--players", type=int, default=60, help="players registered for the tournament (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the draw and the dealers (default: random)")
    parser.add_argument("--pace", type=float, default=3.0, help="speed factor of the dealers and the clock (default 3)")
    parser.add_argument("--minutes", type=float, default=6.0, help="minutes per level at pace 1 (default 6)")
    parser.add_argument("--fault-rate", type=float, default=0.05, help="share of hands with a dealing mistake")
    parser.add_argument("--state-dir", help="keep the broker's, tables' and floor's files here")


def tournament(args: argparse.Namespace, tables: list[str], seed: int) -> dict[str, Any]:
    names = [f"{f} {l}" for l in LAST for f in FIRST][: args.players]
    minutes = max(0.2, args.minutes / max(args.pace, 0.05))
    levels: list[dict[str, Any]] = []
    for i, (sb, bb, ante) in enumerate(LEVELS):
        levels.append({"small_blind": sb, "big_blind": bb, "ante": ante, "minutes": minutes})
        if i == 3:
            levels.append({"small_blind": sb, "big_blind": bb, "ante": ante, "minutes": minutes / 2, "break": True})
    payouts = [30, 20, 14, 11, 9, 7, 5, 4]
    return {
        "name": "dealer-pi demo tournament", "tables": tables, "seats_per_table": 9, "starting_stack": 5000,
        "buy_in": 50, "rebuy_price": 50, "rebuy_chips": 5000, "rebuy_until_level": 2, "add_on_price": 25,
        "add_on_chips": 2500, "add_on_level": 4, "payouts": payouts, "seed": seed, "players": names,
        "levels": levels, "hand_for_hand_at": len(payouts) + 3,
    }


def run(args: argparse.Namespace) -> int:
    from dealer_pi.commands.floor import start_floor, wait_for_signal
    from dealer_pi.floor.broker import LocalBroker
    from dealer_pi.floor.floor_config import floor_config_from_dict
    from dealer_pi.floor.sim_room import SimRoom

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    tmp = None if args.state_dir else tempfile.TemporaryDirectory(prefix="dealer-pi-floor-demo-")
    base = Path(args.state_dir or tmp.name).resolve()  # type: ignore[union-attr]
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31 - 1) + 1
    try:
        broker = LocalBroker(base / "broker").start()
    except (FileNotFoundError, RuntimeError) as exc:
        print(f"dealer-pi demo-floor: {exc}", file=sys.stderr)
        return 2
    tables = [f"t{i}" for i in range(1, args.tables + 1)]
    token = "floor-" + secrets.token_urlsafe(6)
    config, mqtt, _ = floor_config_from_dict({
        "floor": {"broker": broker.url, "room": "demo"}, "web": {"floor_token": token},
        "store": {"path": str(base / "floor.sqlite3")}, "tournament": tournament(args, tables, seed),
    }, base)
    room = SimRoom(base / "tables", broker.url, "demo", tables, delay_s=30, serve=True, host=args.host).start()
    floor = start_floor(config, mqtt, base, args.host, args.port)
    if floor is None:
        room.stop()
        broker.stop()
        return 2
    service, server = floor
    draw = service.command({"cmd": "draw", "seed": seed})
    service.command({"cmd": "clock", "action": "start"})
    _wait_for_draw(room, {at["table"] for at in draw["seats"].values()})
    room.start_dealers(seed, args.pace, args.fault_rate)
    _print_urls(server.url, token, room, broker.url, seed, args)
    wait_for_signal()
    room.stop()
    server.close()
    service.stop()
    broker.stop()
    if tmp is not None:
        tmp.cleanup()
    return 0


def _wait_for_draw(room: Any, drawn: set[str], timeout: float = 15.0) -> None:
    """The draw reaches the tables over the broker before the dealers start dealing."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not all(room.tables[t].runtime.table.setup.names for t in drawn):
        time.sleep(0.2)


def _print_urls(url: str, token: str, room: Any, broker: str, seed: int, args: argparse.Namespace) -> None:
    lines = [
        f"\ndealer-pi demo-floor: {len(room.tables)} tables, {args.players} players (seed {seed}), broker {broker}\n",
        f"  Floor page         {url}/floor?token={token}",
        f"  Tournament board   {url}/board",
        f"  Floor API          {url}/api/tables (floor token), {url}/api/tournament\n",
    ]
    for t in room.tables.values():
        u = t.assistant.server.url
        lines.append(f"  Table {t.name:<4} tablet {u}/dealer?token={t.dealer_token}   overlay {u}/overlay")
    lines.append(f"\n  floor token: {token}\n\nPress Ctrl+C to stop.")
    print("\n".join(lines), flush=True)
