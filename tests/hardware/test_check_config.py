"""``dealer-pi check-config`` and the example config shipped for the Pi."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dealer_pi.cli import main
from dealer_pi.config import load_config
from dealer_pi.hardware.deck import ORDERS, DeckRegistration
from dealer_pi.hardware.settings import check_hardware

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "hardware" / "config.example.toml"


def test_the_example_config_is_accepted_and_every_key_is_a_real_setting(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["check-config", str(EXAMPLE)]) == 0
    assert "ok" in capsys.readouterr().out
    config = load_config(EXAMPLE)
    # The example writes state only where the service may write.
    assert config.journal.path.startswith("/var/lib/dealer-pi/")
    assert config.web.audit_log.startswith("/var/lib/dealer-pi/")


def test_every_bad_key_is_named_and_the_exit_status_is_1(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[shoe]\nkind = "serial"\nbaud = "fast"\nbogus = 1\n[gpio]\nstuck_ms = "long"\n[camra]\nfps = 5\n')
    r = subprocess.run([sys.executable, "-m", "dealer_pi", "check-config", str(bad)], capture_output=True,
                       text=True, cwd=REPO)
    assert r.returncode == 1
    for key in ("shoe.baud", "shoe.bogus", "gpio.stuck_ms", "camra"):
        assert f": {key}: " in r.stderr, (key, r.stderr)
    assert "4 problem(s)" in r.stderr


def test_hardware_checks_name_pins_used_twice_and_thresholds_out_of_order(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    cfg = tmp_path / "config.toml"
    cfg.write_text('[shoe]\nkind = "gpio"\n[gpio]\nbuzzer_kind = "active"\nbuzzer = 17\nled_kind = "rgb"\n'
                   'led_red = 40\nmax_card_ms = 5000\nbuttons = true\nbutton_confirm = 24\n')
    assert main(["check-config", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert "gpio.max_card_ms: must be less than gpio.stuck_ms (2000)" in err
    assert "gpio.led_red: must be a BCM GPIO number 2..27, got 40" in err
    assert "gpio.led_blue: GPIO24 is already used by gpio.button_confirm" in err
    assert "gpio.buzzer: GPIO17 is already used by gpio.beam_pin" in err


def test_pins_of_parts_not_fitted_are_not_checked() -> None:
    from dealer_pi.config import config_from_dict
    # buzzer on the beam pin is fine while neither a GPIO shoe nor a buzzer is fitted
    assert check_hardware(config_from_dict({"gpio": {"buzzer": 17}})) == []


def test_deck_registration_is_read_relative_to_the_config_and_checked(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    DeckRegistration.from_pairs({c: f"U:0A{i:04X}" for i, c in enumerate(ORDERS["index"])}).save(tmp_path / "deck.json")
    cfg = tmp_path / "config.toml"
    cfg.write_text('[shoe]\nkind = "serial"\nport = "/dev/ttyACM0"\ndeck_registration = "deck.json"\n')
    assert main(["check-config", str(cfg)]) == 0
    data = json.loads((tmp_path / "deck.json").read_text())
    del data["cards"]["Ah"]
    (tmp_path / "deck.json").write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["check-config", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert "shoe.deck_registration" in err and "no tag for Ah" in err


def test_a_missing_file_is_reported_not_a_traceback(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["check-config", str(tmp_path / "nope.toml")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_the_example_documents_every_shoe_and_gpio_setting() -> None:
    import dataclasses
    import tomllib

    from dealer_pi.config import GpioSection, ShoeSection

    data = tomllib.loads(EXAMPLE.read_text())
    for section, cls in (("shoe", ShoeSection), ("gpio", GpioSection)):
        names = {f.name for f in dataclasses.fields(cls)}
        assert set(data[section]) == names, (section, names ^ set(data[section]))
        # and shows the defaults, so an unedited file behaves like no file
        assert cls(**data[section]) == cls(), section
