"""Where the broker is and who this table is: ``[floor]`` in the table's config, checked.

>>> parse_broker("mqtt://floor.local")
('floor.local', 1883, False)
>>> parse_broker("mqtts://10.0.0.5:8884")
('10.0.0.5', 8884, True)
>>> parse_broker("http://floor.local")
Traceback (most recent call last):
...
ValueError: must be mqtt://host[:port] or mqtts://host[:port], got 'http://floor.local'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from dealer_pi.config import Config, ConfigError

NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")
RESERVED = ("floor",)


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool = False
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    username: str = ""
    password: str = ""
    keepalive_s: int = 30

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


@dataclass(frozen=True)
class TableLinkSettings:
    broker: Broker
    room: str
    table_id: str


def parse_broker(url: str) -> tuple[str, int, bool]:
    """(host, port, tls) from ``mqtt://host[:port]`` or ``mqtts://host[:port]``."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise ValueError(f"must be mqtt://host[:port] or mqtts://host[:port], got {url!r}")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"the port must be a number 1-65535, got {url!r}") from None
    tls = parts.scheme == "mqtts"
    return parts.hostname, port or (8883 if tls else 1883), tls


def check_name(value: str, key: str, problems: list[tuple[str, str]], *, table: bool = False) -> None:
    if not NAME.match(value):
        problems.append((key, f"must be 1-40 letters, digits, '_', '.' or '-' (it becomes an MQTT topic level), got {value!r}"))
    elif table and value in RESERVED:
        problems.append((key, f"{value!r} is the floor's own topic: choose another table id"))


def broker_from(section: Any, base_dir: Path, prefix: str, problems: list[tuple[str, str]]) -> Broker | None:
    """The broker of a ``[floor]``-shaped section (broker, ca_file, cert_file, ...); problems named."""
    try:
        host, port, tls = parse_broker(section.broker)
    except ValueError as exc:
        problems.append((f"{prefix}.broker", str(exc)))
        return None
    files: dict[str, str] = {}
    for key in ("ca_file", "cert_file", "key_file"):
        value = getattr(section, key)
        if value and not tls:
            problems.append((f"{prefix}.{key}", "only used with an mqtts:// broker"))
        path = Path(value).expanduser() if value else None
        if path is not None and not path.is_absolute():
            path = base_dir / path
        if path is not None and not path.is_file():
            problems.append((f"{prefix}.{key}", f"no such file: {path}"))
        files[key] = str(path) if path else ""
    if bool(files["cert_file"]) != bool(files["key_file"]):
        problems.append((f"{prefix}.cert_file", "give both cert_file and key_file, or neither"))
    if section.password and not section.username:
        problems.append((f"{prefix}.password", "a password needs a username"))
    if not 5 <= section.keepalive_s <= 600:
        problems.append((f"{prefix}.keepalive_s", f"must be 5-600 seconds, got {section.keepalive_s}"))
    return Broker(host, port, tls, files["ca_file"], files["cert_file"], files["key_file"], section.username,
                  section.password, section.keepalive_s)


def check_floor(config: Config, base_dir: Path) -> list[tuple[str, str]]:
    """The problems of the table's ``[floor]`` section (none when it has no broker: the table plays alone)."""
    f = config.floor
    problems: list[tuple[str, str]] = []
    if not f.broker:
        for key in ("room", "table_id", "ca_file", "cert_file", "key_file", "username", "password"):
            if getattr(f, key):
                problems.append((f"floor.{key}", "set, but floor.broker is empty: the table would play alone"))
        return problems
    broker_from(f, base_dir, "floor", problems)
    check_name(f.room, "floor.room", problems)
    check_name(f.table_id, "floor.table_id", problems, table=True)
    return problems


def table_link_settings(config: Config, base_dir: Path) -> TableLinkSettings | None:
    """The link's settings, or None without a broker; :class:`ConfigError` names every bad key."""
    problems = check_floor(config, base_dir)
    if problems:
        raise ConfigError(problems)
    if not config.floor.broker:
        return None
    broker = broker_from(config.floor, base_dir, "floor", [])
    assert broker is not None
    return TableLinkSettings(broker, config.floor.room, config.floor.table_id)
