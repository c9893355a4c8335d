"""The floor process's config file (``dealer-pi floor --config FILE``), checked like the table's.

```toml
[floor]
broker = "mqtt://127.0.0.1:1883"
room = "main"

[web]
port = 8080
floor_token = "..."        # the floor staff's page and commands; the board needs none

[store]
path = "floor.sqlite3"

[tournament]
name = "Sunday 5k"
tables = ["t1", "t2", "t3"]
starting_stack = 5000
buy_in = 100
payouts = [50, 30, 20]     # percent, 1st first: must sum to 100 (TABLE-PAYOUT)
levels = [{small_blind = 25, big_blind = 50, minutes = 20}, {small_blind = 0, big_blind = 1, minutes = 10, break = true}]
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer_pi.config import BrokerSection, ConfigError, read_toml, section_from_dict
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.tournament.payout import PayoutStructure

from .settings import Broker, broker_from, check_name


@dataclass(frozen=True)
class FloorWebSection:
    host: str = "127.0.0.1"
    port: int = 8080
    floor_token: str = ""
    threads: int = 32


@dataclass(frozen=True)
class StoreSection:
    path: str = "floor.sqlite3"


@dataclass(frozen=True)
class TournamentSection:
    name: str = "Tournament"
    tables: list[str] = field(default_factory=list)
    seats_per_table: int = 9
    starting_stack: int = 3000
    currency: str = "$"
    buy_in: int = 0  # whole money units
    rebuy_price: int = 0
    add_on_price: int = 0
    buy_back_price: int = 0
    rake_percent: int = 0
    rebuy_chips: int = 0
    rebuy_until_level: int = 0
    add_on_chips: int = 0
    add_on_level: int = 0
    buy_back: bool = False  # 002 §2.2
    payouts: list[float] = field(default_factory=lambda: [50.0, 30.0, 20.0])
    payout_unit: int = 1
    auto_balance: bool = True
    hand_for_hand_at: int = 0  # hand-for-hand starts by itself with this many players left (0: the floor calls it)
    seed: int = 0  # 0: a random seed at the draw (journaled)
    players: list[str] = field(default_factory=list)
    levels: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class FloorConfig:
    floor: BrokerSection = field(default_factory=BrokerSection)
    web: FloorWebSection = field(default_factory=FloorWebSection)
    store: StoreSection = field(default_factory=StoreSection)
    tournament: TournamentSection = field(default_factory=TournamentSection)


def check_tournament(t: TournamentSection, problems: list[tuple[str, str]]) -> None:
    from dealer_pi.runtime.clock import check_level

    try:
        PayoutStructure.parse(t.payouts, "tournament.payouts")
    except RuleViolation as exc:
        problems.append(("tournament.payouts", f"{exc.message.removeprefix('tournament.payouts: ')} ({exc.rule})"))
    except InputError as exc:
        problems.append((exc.where, exc.message))
    for i, lv in enumerate(t.levels):
        try:
            check_level(lv, f"tournament.levels[{i}]")
        except InputError as exc:
            problems.append((exc.where, exc.message))
    for i, name in enumerate(t.tables):
        check_name(name, f"tournament.tables[{i}]", problems, table=True)
    if len(set(t.tables)) != len(t.tables):
        problems.append(("tournament.tables", "a table is listed twice"))
    if not 2 <= t.seats_per_table <= 10:
        problems.append(("tournament.seats_per_table", f"must be 2-10, got {t.seats_per_table}"))
    for key in ("starting_stack", "payout_unit"):
        if getattr(t, key) < 1:
            problems.append((f"tournament.{key}", "must be at least 1"))
    for key in ("hand_for_hand_at", "buy_in", "rebuy_price", "add_on_price", "buy_back_price", "rebuy_chips", "add_on_chips",
                "rebuy_until_level", "add_on_level"):
        if getattr(t, key) < 0:
            problems.append((f"tournament.{key}", "must be 0 or more"))
    if not 0 <= t.rake_percent <= 100:
        problems.append(("tournament.rake_percent", "must be 0-100"))


def load_floor_config(path: str | Path) -> tuple[FloorConfig, Broker, Path]:
    """(config, broker, the config's folder); :class:`ConfigError` names every bad key."""
    p = Path(path)
    return floor_config_from_dict(read_toml(p), p.resolve().parent, str(p))


def floor_config_from_dict(data: dict[str, Any], base: Path, source: str = "") -> tuple[FloorConfig, Broker, Path]:
    try:
        config = section_from_dict(FloorConfig, data)
    except ConfigError as exc:
        raise ConfigError(exc.problems, source) from None
    problems: list[tuple[str, str]] = []
    broker = broker_from(config.floor, base, "floor", problems)
    check_name(config.floor.room, "floor.room", problems)
    check_tournament(config.tournament, problems)
    if problems or broker is None:
        raise ConfigError(problems, source)
    return config, broker, base
