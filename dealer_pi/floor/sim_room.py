"""A room of simulated tables on a broker: the real table code (runtime, journal, floor link,
optionally the web server) for each, with a simulated dealer (demo, tests, benchmarks)."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import Any

log = logging.getLogger("dealer_pi.floor.sim")


class SimTable:
    """One table of the room: ``assistant`` (runtime + web) and its simulated ``dealer``."""

    def __init__(self, name: str, assistant: Any, dealer_token: str) -> None:
        self.name, self.assistant, self.dealer_token = name, assistant, dealer_token
        self.dealer: Any = None

    @property
    def runtime(self) -> Any:
        return self.assistant.runtime


class SimRoom:
    def __init__(self, base: Path, broker_url: str, room: str, tables: list[str], *, delay_s: int = 30,
                 blinds: tuple[int, int] = (25, 50), seats: int = 9, serve: bool = False, host: str = "127.0.0.1") -> None:
        self.base, self.broker_url, self.room = Path(base), broker_url, room
        self.names, self.delay_s, self.blinds, self.seats = tables, delay_s, blinds, seats
        self.serve, self.host = serve, host
        self.tables: dict[str, SimTable] = {}

    def start(self) -> SimRoom:
        from dealer_pi.config import config_from_dict
        from dealer_pi.runtime.wiring import Assistant

        for name in self.names:
            token = "dealer-" + secrets.token_urlsafe(6)
            config = config_from_dict({
                "table": {"name": f"Table {name}", "small_blind": self.blinds[0], "big_blind": self.blinds[1],
                          "seats": self.seats},
                "web": {"host": self.host, "port": 0, "dealer_token": token,
                        "producer_token": "producer-" + secrets.token_urlsafe(6), "stream_delay_s": self.delay_s,
                        "audit_log": "audit.log", "threads": 24},
                "journal": {"path": "journal.sqlite3"},
                "floor": {"broker": self.broker_url, "room": self.room, "table_id": name},
            })
            assistant = Assistant.from_config(config, self.base / name, attach=False, port=0)
            if self.serve:
                assistant.server.start()
            self.tables[name] = SimTable(name, assistant, token)
        return self

    def start_dealers(self, seed: int, pace: float, fault_rate: float = 0.0) -> None:
        from dealer_pi.sim import Fault
        from dealer_pi.sim.tournament_dealer import TournamentDealer

        for i, t in enumerate(self.tables.values()):
            if not t.runtime.table.setup.names:
                continue  # not in the draw: the table stays empty
            t.dealer = TournamentDealer(t.runtime, seed * 1000 + i, pace, list(Fault) if fault_rate else (), fault_rate,
                                        t.name).start()

    def stop(self) -> None:
        for t in self.tables.values():
            if t.dealer is not None:
                t.dealer.stop()
        for t in self.tables.values():
            try:
                t.assistant.stop()
            except Exception:
                log.exception("stopping table %s", t.name)
