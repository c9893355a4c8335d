"""Devices wired to the runtime: gpiozero's MockFactory pins, a smart shoe on a real pseudo-terminal."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import live_helpers as H
from live_helpers import wait_for
from dealer_pi.config import config_from_dict
from dealer_pi.engine.observations import observation_from_dict
from dealer_pi.hardware.virtual_shoe import VirtualShoe
from dealer_pi.runtime.attach import attach_devices


def drawn(rt: Any) -> list[dict[str, Any]]:
    return [e.body for e in rt.journal.entries_after(0) if e.kind == "observation" and e.body["type"] == "shoe_draw"]


def test_serial_shoe_draws_reach_the_journal_and_its_link_shows_on_the_dashboard(tmp_path: Path) -> None:
    shoe = VirtualShoe(link=tmp_path / "shoe", heartbeat_s=0.2).start()
    rt = H.runtime(tmp_path)
    config = config_from_dict({"shoe": {"kind": "serial", "port": str(tmp_path / "shoe")}})
    closers = attach_devices(rt, config, tmp_path)
    try:
        wait_for(lambda: rt.state("dealer")["devices"]["shoe"]["connected"])
        shoe.draw("Ah")
        shoe.draw("Kd")
        wait_for(lambda: len(drawn(rt)) == 2)
        assert [d["card"] for d in drawn(rt)] == ["Ah", "Kd"]
        # the cards the shoe read are hole cards: the dealer's state never names them
        assert "Ah" not in str(rt.state("dealer"))
        shoe.unplug()
        wait_for(lambda: not rt.state("dealer")["devices"]["shoe"]["connected"])
    finally:
        for c in closers:
            c()
        shoe.unplug()
        rt.stop()


@pytest.fixture
def pins() -> Any:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def test_gpio_beam_buttons_and_alert_light_mirror_the_table(tmp_path: Path, pins: Any) -> None:
    rt = H.runtime(tmp_path)
    config = config_from_dict({
        "shoe": {"kind": "gpio"},
        "gpio": {"buttons": True, "led_kind": "rgb", "buzzer_kind": "active", "misdeal_hold_ms": 0},
    })
    closers = attach_devices(rt, config, tmp_path, pin_factory=pins)
    try:
        assert rt.state("dealer")["devices"]["light"]["pattern"] == "ok"
        beam = pins.pin(config.gpio.beam_pin)
        beam.drive_low()  # a card breaks the beam for 60 ms
        time.sleep(0.06)
        beam.drive_high()
        wait_for(lambda: len(drawn(rt)) == 1)
        # DEAL-FIRST-EXPOSED: the first card lands face up in the first seat: a misdeal alert, the light says so
        rt.submit("observation", observation_from_dict(
            {"type": "card_seen", "zone": "seat:2", "face_up": True, "card": "Ah", "source": "camera"}))
        alerts = rt.open_alerts()
        assert [a["rule"] for a in alerts] == ["DEAL-FIRST-EXPOSED"]
        assert rt.state("dealer")["devices"]["light"]["pattern"] == "misdeal"
        # the confirm button answers the newest open alert
        confirm = pins.pin(config.gpio.button_confirm)
        confirm.drive_low()
        time.sleep(0.02)
        confirm.drive_high()
        wait_for(lambda: not rt.open_alerts())
        wait_for(lambda: rt.state("dealer")["devices"]["light"]["pattern"] == "ok")
        decisions = [e.body for e in rt.journal.entries_after(0) if e.body.get("type") == "decision"]
        assert decisions and decisions[0]["alert_id"] == alerts[0]["alert_id"] and decisions[0]["source"] == "button"
    finally:
        for c in closers:
            c()
        rt.stop()


def test_a_device_that_cannot_open_is_reported_and_the_table_runs_on(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    config = config_from_dict({"shoe": {"kind": "serial", "deck_registration": "missing-deck.json"}})
    closers = attach_devices(rt, config, tmp_path)
    shoe = rt.state("dealer")["devices"]["shoe"]
    assert shoe["state"] == "failed" and "missing-deck.json" in shoe["detail"]
    rt.submit("observation", observation_from_dict(H.checked_down_hand()[0]))
    for c in closers:
        c()
    rt.stop()
