"""The one TOML configuration file, checked strictly at start.

Every section is a frozen dataclass; :func:`load_config` refuses unknown keys
and wrong types and names the key (``shoe.baud: must be a whole number``), so
a typo in ``/etc/dealer-pi/config.toml`` is caught before the table opens.
Add a setting by adding a field with a default to its section.
"""

from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, TypeVar


class ConfigError(ValueError):
    """One or more bad keys; ``problems`` lists ``(key, message)`` pairs."""

    def __init__(self, problems: list[tuple[str, str]], source: str = "") -> None:
        self.problems = problems
        head = f"{source}: " if source else ""
        super().__init__(head + "; ".join(f"{k}: {m}" for k, m in problems))


@dataclass(frozen=True)
class TableSection:
    name: str = "Table 1"
    profile: str = "standard"
    profile_file: str = ""
    structure: str = "no-limit"
    small_blind: int = 5
    big_blind: int = 10
    ante: int = 0
    big_blind_ante: bool = False
    seats: int = 9


@dataclass(frozen=True)
class ShoeSection:
    kind: str = "none"  # none | gpio | serial
    port: str = ""
    usb_vid: int = 0
    usb_pid: int = 0
    baud: int = 115200
    deck_registration: str = ""
    heartbeat_timeout_ms: int = 3000
    resend_timeout_ms: int = 500
    reconnect_max_s: float = 5.0


@dataclass(frozen=True)
class GpioSection:
    beam_pin: int = 17
    min_card_ms: int = 20
    max_card_ms: int = 400
    min_gap_ms: int = 120
    stuck_ms: int = 2000
    button_new_hand: int = 5
    button_misdeal: int = 6
    button_confirm: int = 13
    led_red: int = 22
    led_green: int = 23
    led_blue: int = 24
    buzzer: int = 18
    beam_blocked_low: bool = True
    buttons: bool = False  # new hand / misdeal / confirm buttons fitted
    button_debounce_ms: int = 50
    misdeal_hold_ms: int = 1000
    led_kind: str = "none"  # rgb | single | none
    buzzer_kind: str = "none"  # active | none


@dataclass(frozen=True)
class CameraSection:
    source: str = "none"  # none | v4l2 | picamera2 | file
    device: str = "0"
    width: int = 1280
    height: int = 720
    fps: int = 15
    layout_file: str = ""  # markers and zones in table mm (TOML); "" = built-in 9-seat layout
    enrolment_file: str = ""  # the venue's deck, from `dealer-pi vision enrol`
    min_confidence: float = 0.9  # reads below this report the card as unknown
    card_height_px: float = 0.0  # 0 = measure it on the table (see Detector.unread_parts)
    queue_size: int = 1  # frames waiting for vision (1 or 2); older ones are dropped


@dataclass(frozen=True)
class WebSection:
    host: str = "127.0.0.1"
    port: int = 8000
    dealer_token: str = ""
    producer_token: str = ""
    stream_delay_s: int = 300  # public overlay delay, enforced by the server
    secure_delay: bool = False  # the producer's live view (hole cards, equities) waits for the delay too
    public_hole_cards: str = "after-delay"  # after-delay | after-hand (required under 300 s)
    audit_log: str = "audit.log"  # every undelayed hole-card read; relative to the config file
    threads: int = 96  # waitress threads: each open event stream holds one


@dataclass(frozen=True)
class JournalSection:
    path: str = "dealer-pi.sqlite3"


@dataclass(frozen=True)
class BrokerSection:
    """An MQTT broker and the card room on it (the table's [floor], the floor process's [floor])."""

    broker: str = ""  # mqtt://host:1883 or mqtts://host:8883
    room: str = ""
    ca_file: str = ""  # mqtts: the broker's CA (empty: the system's)
    cert_file: str = ""  # mqtts: a client certificate and its key, when the broker asks for one
    key_file: str = ""
    username: str = ""
    password: str = ""
    keepalive_s: int = 30


@dataclass(frozen=True)
class FloorSection(BrokerSection):
    """The card room's floor over MQTT (dealer_pi/floor); no broker: the table plays alone."""

    table_id: str = ""


@dataclass(frozen=True)
class Config:
    table: TableSection = field(default_factory=TableSection)
    shoe: ShoeSection = field(default_factory=ShoeSection)
    gpio: GpioSection = field(default_factory=GpioSection)
    camera: CameraSection = field(default_factory=CameraSection)
    web: WebSection = field(default_factory=WebSection)
    journal: JournalSection = field(default_factory=JournalSection)
    floor: FloorSection = field(default_factory=FloorSection)


T = TypeVar("T")


def _type_name(tp: Any) -> str:
    return {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}.get(tp, str(tp))


def _convert(tp: Any, value: Any, key: str, problems: list[tuple[str, str]]) -> Any:
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            problems.append((key, "must be a table of settings"))
            return None
        return _build(tp, value, key, problems)  # type: ignore[arg-type]
    if origin in (types.UnionType, typing.Union):
        errors: list[tuple[str, str]] = []
        for option in typing.get_args(tp):
            if option is type(None) and value is None:
                return None
            trial: list[tuple[str, str]] = []
            out = _convert(option, value, key, trial)
            if not trial:
                return out
            errors.extend(trial)
        problems.append(errors[0] if errors else (key, "has the wrong type"))
        return None
    if origin in (list, tuple):
        (item_tp, *_) = typing.get_args(tp) or (Any,)
        if not isinstance(value, list):
            problems.append((key, "must be a list"))
            return None
        items = [_convert(item_tp, v, f"{key}[{i}]", problems) for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(value, Mapping):
            problems.append((key, "must be a table"))
            return None
        _, val_tp = typing.get_args(tp)
        return {str(k): _convert(val_tp, v, f"{key}.{k}", problems) for k, v in value.items()}
    if tp is Any:
        return value
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if tp is int and isinstance(value, bool):
        problems.append((key, f"must be {_type_name(tp)}, got {value!r}"))
        return None
    if isinstance(tp, type) and not isinstance(value, tp):
        problems.append((key, f"must be {_type_name(tp)}, got {value!r}"))
        return None
    return value


def _build(cls: type[T], data: Mapping[str, Any], prefix: str, problems: list[tuple[str, str]]) -> T:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        full = f"{prefix}.{key}" if prefix else key
        if key not in fields:
            known = ", ".join(sorted(fields))
            problems.append((full, f"unknown key (known here: {known})"))
            continue
        kwargs[key] = _convert(hints[key], value, full, problems)
    if problems:
        return None  # type: ignore[return-value]
    return cls(**kwargs)


def config_from_dict(data: Mapping[str, Any], source: str = "") -> Config:
    problems: list[tuple[str, str]] = []
    config = _build(Config, data, "", problems)
    if problems:
        raise ConfigError(problems, source)
    return config


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file's tables; :class:`ConfigError` says why it cannot be read (missing, not UTF-8, syntax)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([("(file)", f"cannot read: {exc.strerror or exc}")], str(p)) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError([("(file)", f"is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})")],
                          str(p)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([("(syntax)", str(exc))], str(p)) from exc


def load_config(path: str | Path) -> Config:
    """Read and check a config file; :class:`ConfigError` names every bad key."""
    return config_from_dict(read_toml(path), str(path))


def section_from_dict(cls: type[T], data: Mapping[str, Any], prefix: str = "") -> T:
    """Check one dataclass-shaped table (a rule profile, a zone map) the same strict way."""
    problems: list[tuple[str, str]] = []
    out = _build(cls, data, prefix, problems)
    if problems:
        raise ConfigError(problems)
    return out
