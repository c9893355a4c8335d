"""Checks of the ``[shoe]`` and ``[gpio]`` sections beyond types.

:func:`check_hardware` finds what the strict TOML loader cannot (pins used
twice, thresholds in the wrong order, a serial shoe with no way to find it, a
deck registration that does not load); ``dealer-pi check-config`` calls it.

>>> from dealer_pi.config import config_from_dict
>>> for key, message in check_hardware(config_from_dict({"shoe": {"kind": "serial"}, "gpio": {"min_card_ms": 500}})):
...     print(key, "-", message)
shoe.port - a serial shoe needs a port, or usb_vid and usb_pid to find it
gpio.min_card_ms - must be less than gpio.max_card_ms (400)
"""

from __future__ import annotations

from pathlib import Path

from dealer_pi.config import Config, ShoeSection

from .controls import BUZZER_KINDS, LED_KINDS
from .deck import DeckRegistration, RegistrationError

SHOE_KINDS = ("none", "gpio", "serial")
BCM_PINS = range(2, 28)  # GPIO2..GPIO27 on the 40-pin header


def _check_shoe(shoe: ShoeSection, base_dir: Path, out: list[tuple[str, str]]) -> None:
    if shoe.kind == "virtual":
        out.append(("shoe.kind", "a virtual shoe is not served from the config: run `dealer-pi shoe virtual --link "
                                 "PATH` and set kind = \"serial\" with port = that PATH (or try `dealer-pi demo`)"))
    elif shoe.kind not in SHOE_KINDS:
        out.append(("shoe.kind", f"must be one of {', '.join(SHOE_KINDS)}, got {shoe.kind!r}"))
    if shoe.kind == "serial" and not shoe.port and not (shoe.usb_vid and shoe.usb_pid):
        out.append(("shoe.port", "a serial shoe needs a port, or usb_vid and usb_pid to find it"))
    for key in ("usb_vid", "usb_pid"):
        if not 0 <= getattr(shoe, key) <= 0xFFFF:
            out.append((f"shoe.{key}", f"must be 0..65535 (0x0000..0xFFFF), got {getattr(shoe, key)}"))
    if shoe.baud <= 0:
        out.append(("shoe.baud", f"must be positive, got {shoe.baud}"))
    if shoe.heartbeat_timeout_ms < 1000:
        out.append(("shoe.heartbeat_timeout_ms", "must be at least 1000: a DPS/1 shoe beats once a second"))
    if shoe.resend_timeout_ms <= 0:
        out.append(("shoe.resend_timeout_ms", f"must be positive, got {shoe.resend_timeout_ms}"))
    if shoe.reconnect_max_s <= 0:
        out.append(("shoe.reconnect_max_s", f"must be positive, got {shoe.reconnect_max_s}"))
    if shoe.deck_registration:
        # Relative to the config file, as the runtime reads it.
        try:
            DeckRegistration.load(base_dir / shoe.deck_registration)
        except RegistrationError as exc:
            out.append(("shoe.deck_registration", str(exc)))


def _check_gpio(config: Config, out: list[tuple[str, str]]) -> None:
    g = config.gpio
    if not 0 < g.min_card_ms:
        out.append(("gpio.min_card_ms", f"must be positive, got {g.min_card_ms}"))
    if g.min_card_ms >= g.max_card_ms:
        out.append(("gpio.min_card_ms", f"must be less than gpio.max_card_ms ({g.max_card_ms})"))
    if g.max_card_ms >= g.stuck_ms:
        out.append(("gpio.max_card_ms", f"must be less than gpio.stuck_ms ({g.stuck_ms})"))
    for key in ("min_gap_ms", "button_debounce_ms", "misdeal_hold_ms"):
        if getattr(g, key) < 0:
            out.append((f"gpio.{key}", f"must not be negative, got {getattr(g, key)}"))
    if g.led_kind not in LED_KINDS:
        out.append(("gpio.led_kind", f"must be one of {', '.join(LED_KINDS)}, got {g.led_kind!r}"))
    if g.buzzer_kind not in BUZZER_KINDS:
        out.append(("gpio.buzzer_kind", f"must be one of {', '.join(BUZZER_KINDS)}, got {g.buzzer_kind!r}"))
    used: dict[int, str] = {}
    for key in used_pins(config):
        pin = getattr(g, key)
        if pin not in BCM_PINS:
            out.append((f"gpio.{key}", f"must be a BCM GPIO number 2..27, got {pin}"))
        elif pin in used:
            out.append((f"gpio.{key}", f"GPIO{pin} is already used by gpio.{used[pin]}"))
        else:
            used[pin] = key


def used_pins(config: Config) -> list[str]:
    """The ``[gpio]`` keys whose pins this config actually drives."""
    g = config.gpio
    keys = ["beam_pin"] if config.shoe.kind == "gpio" else []
    if g.buttons:
        keys += ["button_new_hand", "button_misdeal", "button_confirm"]
    keys += {"rgb": ["led_red", "led_green", "led_blue"], "single": ["led_red"]}.get(g.led_kind, [])
    if g.buzzer_kind == "active":
        keys.append("buzzer")
    return keys


def check_hardware(config: Config, base_dir: str | Path = ".") -> list[tuple[str, str]]:
    """Every ``(key, message)`` wrong with the ``[shoe]`` and ``[gpio]`` sections; empty when fine.

    ``base_dir`` is the config file's folder: relative paths in the file are read from there.
    """
    out: list[tuple[str, str]] = []
    _check_shoe(config.shoe, Path(base_dir), out)
    _check_gpio(config, out)
    return out
