"""Every key the example config documents does something, and check-config refuses what serve refuses.

For each documented key the test sets a value other than the default, builds what ``serve``
builds from it (the assistant, the shoe, the pins, the camera pipeline) and looks at the
effect. A key that is read and then ignored fails here; so does a documented key with no probe.
"""

from __future__ import annotations

import dataclasses
import socket
import subprocess
import sys
import tomllib
import typing
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dealer_pi.cli import main
from dealer_pi.config import Config, config_from_dict
from dealer_pi.config_check import problems
from dealer_pi.hardware.deck import ORDERS, DeckRegistration
from dealer_pi.hardware.virtual_shoe import VirtualShoe
from dealer_pi.runtime import attach
from dealer_pi.runtime.wiring import Assistant
from floor_helpers import certificates

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "hardware" / "config.example.toml"
DEALER, PRODUCER = "dealer-token-0123", "producer-token-0123"
BASE = {"web": {"dealer_token": DEALER, "producer_token": PRODUCER}, "journal": {"path": "journal.sqlite3"}}


def config(tmp: Path, section: str, values: dict[str, Any]) -> Config:
    data: dict[str, Any] = {k: dict(v) for k, v in BASE.items()}
    data.setdefault(section, {}).update(values)
    data["web"].setdefault("audit_log", str(tmp / "audit.log"))
    return config_from_dict(data)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---- probes: build what serve builds and read off the effect --------------------------------------

def served(cfg: Config, tmp: Path, look: Callable[[Assistant], Any]) -> Any:
    port = None if cfg.web.port != 8000 else 0
    a = Assistant.from_config(cfg, tmp, port=port, attach=False)
    try:
        return look(a)
    finally:
        a.runtime.stop()
        a.server.close()


def whoami(a: Assistant, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return a.app.test_client().get("/api/whoami", headers=headers).json


def setup_of(a: Assistant) -> dict[str, Any]:
    """What the setup page offers a fresh table (the config's [table] section fills it in)."""
    got = a.app.test_client().get("/api/setup", headers={"Authorization": f"Bearer {DEALER}"})
    assert got.status_code == 200 and got.json["table"] is False
    return got.json["setup"]  # type: ignore[no-any-return]


def floor_link(cfg: Config, tmp: Path, look: Callable[[Any], Any]) -> Any:
    """The table's link to the floor as serve starts it (it connects in the background, to nothing here)."""
    a = Assistant.from_config(cfg, tmp, port=0, attach=False)
    try:
        link = next(s.__self__ for s in a._stoppers if type(getattr(s, "__self__", None)).__name__ == "TableLink")
        return look(link)
    finally:
        a.stop()


def serial_shoe(cfg: Config, tmp: Path, look: Callable[[Any], Any]) -> Any:
    a = Assistant.from_config(cfg, tmp, port=0, attach=False)
    try:
        closer = attach.attach_serial_shoe(a.runtime, cfg, tmp)
        try:
            return look(closer.__self__)  # the SerialShoe serve runs
        finally:
            closer()
    finally:
        a.runtime.stop()
        a.server.close()


def devices(cfg: Config, tmp: Path, look: Callable[[list[Any], Any, MockFactory], Any]) -> Any:
    pins = MockFactory(pin_class=MockPWMPin)
    a = Assistant.from_config(cfg, tmp, port=0, attach=False)
    closers = attach.attach_devices(a.runtime, cfg, tmp, pin_factory=pins)
    try:
        return look([getattr(c, "__self__", None) for c in closers], a.runtime, pins)
    finally:
        for c in closers:
            c()
        a.runtime.stop()
        a.server.close()
        pins.reset()


def bcm(device: Any) -> int:
    """The BCM number of a gpiozero device's pin (``GPIO21`` -> 21)."""
    return int(device.pin.info.name.removeprefix("GPIO"))


def of_type(objs: list[Any], name: str) -> Any:
    return next(o for o in objs if type(o).__name__ == name)


def camera(cfg: Config, tmp: Path, look: Callable[[dict[str, Any]], Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    """attach_camera as serve calls it, with the pipeline it builds and the source it opens recorded."""
    from dealer_pi.vision import pipeline as vp
    from dealer_pi.vision import sources

    seen: dict[str, Any] = {}
    real_pipeline, real_open = vp.pipeline_from_config, sources.open_source

    def pipeline_from_config(*args: Any, **kw: Any) -> Any:
        seen["pipeline"], seen["stage"] = out = real_pipeline(*args, **kw)
        return out

    def open_source(*args: Any) -> Any:
        seen["open"] = args
        return real_open(*args)

    monkeypatch.setattr(vp, "pipeline_from_config", pipeline_from_config)
    monkeypatch.setattr(sources, "open_source", open_source)
    a = Assistant.from_config(cfg, tmp, port=0, attach=False)
    try:
        close = attach.attach_camera(a.runtime, cfg, base_dir=tmp, emit=False)
        try:
            seen["board"] = a.runtime.devices.view()["camera"]
            return look(seen)
        finally:
            close()
    finally:
        a.runtime.stop()
        a.server.close()


# ---- fixtures for keys that name files ---------------------------------------------------------------

@pytest.fixture
def files(tmp_path: Path, photo_root: Path) -> Iterator[dict[str, str]]:
    from dealer_pi.vision.recogniser import FEATURES, NOT_INDEX, Enrolment

    (tmp_path / "house.toml").write_text('base = "house-pig"\nclock_seconds = 45\n')
    DeckRegistration.from_pairs({c: f"U:0A{i:04X}" for i, c in enumerate(ORDERS["index"])}).save(tmp_path / "deck.json")
    (tmp_path / "layout.toml").write_text("markers = { 0 = [-500.0, -300.0], 1 = [500.0, -300.0] }\n"
                                          "zones = { board = [[-100.0, -50.0], [100.0, -50.0], [100.0, 50.0]] }\n")
    Enrolment(np.zeros((2, FEATURES), np.float32), np.array([0, NOT_INDEX])).save(tmp_path / "deck.npz")
    photo = sorted((photo_root / "images").glob("*.jpg"))[0]
    ca, cert, key = certificates(tmp_path)
    shoe = VirtualShoe(link=tmp_path / "shoe", heartbeat_s=0.2).start()
    yield {"photo": str(photo), "shoe": str(tmp_path / "shoe"), "ca": str(ca), "cert": str(cert), "key": str(key)}
    shoe.unplug()


# ---- every documented key: (section, key) -> (values, probe, expected) -----------------------------

def effects(files: dict[str, str], port: int, mp: pytest.MonkeyPatch) -> dict[tuple[str, str], Any]:
    serial = {"kind": "serial", "port": files["shoe"]}
    controls = {"buttons": True, "led_kind": "rgb", "buzzer_kind": "active"}
    shoe = {"kind": "serial", "port": files["shoe"]}
    cam = {"source": "file", "device": files["photo"]}
    # A closed loopback port: the link is built and keeps trying in the background, as at a room whose
    # broker is down; what it would connect with is what the probes read.
    floor = {"broker": "mqtt://127.0.0.1:9", "room": "hall", "table_id": "t4"}
    tls = {**floor, "broker": "mqtts://127.0.0.1:9", "ca_file": files["ca"], "cert_file": files["cert"],
           "key_file": files["key"]}

    def gpio(values: dict[str, Any], look: Callable[..., Any]) -> tuple[Any, ...]:
        return ("gpio", values, lambda c, t: devices(c, t, look))

    return {
        ("table", "name"): ({"name": "Main event"}, lambda c, t: served(c, t, lambda a: whoami(a)["table_name"]),
                            "Main event"),
        ("table", "profile"): ({"profile": "roberts"}, lambda c, t: served(c, t, lambda a: setup_of(a)["profile"]),
                               "roberts"),
        ("table", "profile_file"): ({"profile_file": "house.toml"}, lambda c, t: served(
            c, t, lambda a: (setup_of(a)["profile"], setup_of(a)["overrides"])), ("house-pig", {"clock_seconds": 45})),
        ("table", "structure"): ({"structure": "pot-limit"}, lambda c, t: served(
            c, t, lambda a: setup_of(a)["structure"]), "pot-limit"),
        ("table", "small_blind"): ({"small_blind": 2}, lambda c, t: served(c, t, lambda a: setup_of(a)["blinds"]),
                                   [2, 10]),
        ("table", "big_blind"): ({"big_blind": 20}, lambda c, t: served(c, t, lambda a: setup_of(a)["blinds"]), [5, 20]),
        ("table", "ante"): ({"ante": 1}, lambda c, t: served(c, t, lambda a: setup_of(a)["ante"]), 1),
        ("table", "big_blind_ante"): ({"big_blind_ante": True}, lambda c, t: [k for k, _ in problems(c, t)],
                                      ["table.big_blind_ante"]),
        ("table", "seats"): ({"seats": 6}, lambda c, t: served(c, t, lambda a: len(setup_of(a)["seats"])), 6),
        ("shoe", "kind"): ({"kind": "gpio"}, lambda c, t: devices(c, t, lambda o, rt, p: rt.devices.view()["shoe"]["kind"]),
                           "gpio"),
        ("shoe", "port"): (serial, lambda c, t: serial_shoe(c, t, lambda s: s.port), files["shoe"]),
        ("shoe", "usb_vid"): ({"kind": "serial", "usb_vid": 0x2E8A, "usb_pid": 0x000A},
                              lambda c, t: serial_shoe(c, t, lambda s: s.usb_vid), 0x2E8A),
        ("shoe", "usb_pid"): ({"kind": "serial", "usb_vid": 0x2E8A, "usb_pid": 0x000A},
                              lambda c, t: serial_shoe(c, t, lambda s: s.usb_pid), 0x000A),
        ("shoe", "baud"): ({**shoe, "baud": 9600}, lambda c, t: serial_shoe(c, t, lambda s: s.baud), 9600),
        ("shoe", "deck_registration"): ({**shoe, "deck_registration": "deck.json"}, lambda c, t: serial_shoe(
            c, t, lambda s: str(s.registration.card_for("U:0A0000"))), ORDERS["index"][0]),
        ("shoe", "heartbeat_timeout_ms"): ({**shoe, "heartbeat_timeout_ms": 1500}, lambda c, t: serial_shoe(
            c, t, lambda s: s.heartbeat_timeout_ms), 1500),
        ("shoe", "resend_timeout_ms"): ({**shoe, "resend_timeout_ms": 700}, lambda c, t: serial_shoe(
            c, t, lambda s: s.sequencer.resend_timeout_ms), 700),
        ("shoe", "reconnect_max_s"): ({**shoe, "reconnect_max_s": 2.5}, lambda c, t: serial_shoe(
            c, t, lambda s: s.backoff_s), (0.2, 2.5)),
        ("gpio", "beam_pin"): gpio({"beam_pin": 21}, lambda o, rt, p: bcm(of_type(o, "GpioShoe").sensor))
        + (21,),
        ("gpio", "beam_blocked_low"): gpio({"beam_blocked_low": False}, lambda o, rt, p: of_type(
            o, "GpioShoe").sensor.pull_up) + (False,),
        ("gpio", "min_card_ms"): gpio({"min_card_ms": 30}, lambda o, rt, p: of_type(o, "GpioShoe").timing.min_card_ms)
        + (30,),
        ("gpio", "max_card_ms"): gpio({"max_card_ms": 500}, lambda o, rt, p: of_type(o, "GpioShoe").timing.max_card_ms)
        + (500,),
        ("gpio", "min_gap_ms"): gpio({"min_gap_ms": 90}, lambda o, rt, p: of_type(o, "GpioShoe").timing.min_gap_ms)
        + (90,),
        ("gpio", "stuck_ms"): gpio({"stuck_ms": 3000}, lambda o, rt, p: of_type(o, "GpioShoe").timing.stuck_ms)
        + (3000,),
        ("gpio", "buttons"): gpio({"buttons": True}, lambda o, rt, p: rt.devices.view()["buttons"]["present"]) + (True,),
        ("gpio", "button_new_hand"): gpio({"buttons": True, "button_new_hand": 26},
                                        lambda o, rt, p: bcm(of_type(o, "DealerButtons").new_hand)) + (26,),
        ("gpio", "button_misdeal"): gpio({"buttons": True, "button_misdeal": 19},
                                        lambda o, rt, p: bcm(of_type(o, "DealerButtons").misdeal)) + (19,),
        ("gpio", "button_confirm"): gpio({"buttons": True, "button_confirm": 16},
                                        lambda o, rt, p: bcm(of_type(o, "DealerButtons").confirm)) + (16,),
        ("gpio", "button_debounce_ms"): gpio({"buttons": True, "button_debounce_ms": 80}, lambda o, rt, p: of_type(
            o, "DealerButtons").debounce_ms) + (80,),
        ("gpio", "misdeal_hold_ms"): gpio({"buttons": True, "misdeal_hold_ms": 1500}, lambda o, rt, p: of_type(
            o, "DealerButtons").misdeal.hold_time) + (1.5,),
        ("gpio", "led_kind"): gpio({"led_kind": "single"}, lambda o, rt, p: of_type(o, "AlertSignals").led is not None)
        + (True,),
        ("gpio", "led_red"): gpio({**controls, "led_red": 12},
                                  lambda o, rt, p: bcm(of_type(o, "AlertSignals").rgb._leds[0])) + (12,),
        ("gpio", "led_green"): gpio({**controls, "led_green": 20},
                                  lambda o, rt, p: bcm(of_type(o, "AlertSignals").rgb._leds[1])) + (20,),
        ("gpio", "led_blue"): gpio({**controls, "led_blue": 25},
                                  lambda o, rt, p: bcm(of_type(o, "AlertSignals").rgb._leds[2])) + (25,),
        ("gpio", "buzzer_kind"): gpio({"buzzer_kind": "active"}, lambda o, rt, p: of_type(
            o, "AlertSignals").buzzer is not None) + (True,),
        ("gpio", "buzzer"): gpio({"buzzer_kind": "active", "buzzer": 27},
                                 lambda o, rt, p: bcm(of_type(o, "AlertSignals").buzzer)) + (27,),
        ("camera", "source"): (cam, lambda c, t: camera(c, t, lambda s: s["board"]["source"], mp), "file"),
        ("camera", "device"): (cam, lambda c, t: camera(c, t, lambda s: s["open"][1], mp), files["photo"]),
        ("camera", "width"): ({**cam, "width": 640}, lambda c, t: camera(c, t, lambda s: s["open"][2], mp), 640),
        ("camera", "height"): ({**cam, "height": 480}, lambda c, t: camera(c, t, lambda s: s["open"][3], mp), 480),
        ("camera", "fps"): ({**cam, "fps": 10}, lambda c, t: camera(c, t, lambda s: s["open"][4], mp), 10),
        ("camera", "layout_file"): ({**cam, "layout_file": "layout.toml"}, lambda c, t: camera(
            c, t, lambda s: sorted(s["pipeline"].layout.zones), mp), ["board"]),
        ("camera", "enrolment_file"): ({**cam, "enrolment_file": "deck.npz"}, lambda c, t: camera(
            c, t, lambda s: len(s["pipeline"].detector.recogniser.enrolment), mp), 1),
        ("camera", "min_confidence"): ({**cam, "min_confidence": 0.75}, lambda c, t: camera(
            c, t, lambda s: s["pipeline"].detector.recogniser.min_confidence, mp), 0.75),
        ("camera", "card_height_px"): ({**cam, "card_height_px": 88.0}, lambda c, t: camera(
            c, t, lambda s: s["pipeline"].detector.card_height_px, mp), 88.0),
        ("camera", "queue_size"): ({**cam, "queue_size": 2}, lambda c, t: camera(
            c, t, lambda s: s["stage"]._maxsize, mp), 2),
        ("web", "host"): ({"host": "127.0.0.2", "port": 0}, lambda c, t: served(c, t, lambda a: a.server.host),
                          "127.0.0.2"),
        ("web", "port"): ({"port": port}, lambda c, t: served(c, t, lambda a: a.server.port), port),
        ("web", "dealer_token"): ({"dealer_token": "another-dealer-token"}, lambda c, t: served(
            c, t, lambda a: whoami(a, "another-dealer-token")["role"]), "dealer"),
        ("web", "producer_token"): ({"producer_token": "another-producer-token"}, lambda c, t: served(
            c, t, lambda a: whoami(a, "another-producer-token")["role"]), "producer"),
        ("web", "stream_delay_s"): ({"stream_delay_s": 600}, lambda c, t: served(
            c, t, lambda a: a.runtime.state("public")["delay_s"]), 600),
        ("web", "public_hole_cards"): ({"public_hole_cards": "after-hand"}, lambda c, t: served(
            c, t, lambda a: a.runtime.publisher.hole_cards_after_hand), True),
        ("web", "audit_log"): ({"audit_log": "reads.log"}, lambda c, t: served(
            c, t, lambda a: (a.app.test_client().get("/api/state", headers={"Authorization": f"Bearer {PRODUCER}"}),
                             (t / "reads.log").is_file())[1]), True),
        ("web", "threads"): ({"threads": 50}, lambda c, t: served(c, t, lambda a: a.server._server.adj.threads), 50),
        ("journal", "path"): ({"path": "elsewhere.sqlite3"}, lambda c, t: served(
            c, t, lambda a: a.runtime.journal.path.name), "elsewhere.sqlite3"),
        ("web", "secure_delay"): ({"secure_delay": True, "stream_delay_s": 60}, lambda c, t: served(
            c, t, lambda a: a.runtime.publisher.secure), True),
        ("floor", "broker"): (floor, lambda c, t: floor_link(c, t, lambda k: (k.client._host, k.client._port)),
                              ("127.0.0.1", 9)),
        ("floor", "room"): (floor, lambda c, t: floor_link(c, t, lambda k: k.topic["status"].split("/")[1]), "hall"),
        ("floor", "table_id"): (floor, lambda c, t: floor_link(c, t, lambda k: k.runtime.floor.table_id), "t4"),
        ("floor", "ca_file"): (tls, lambda c, t: floor_link(c, t, lambda k: k.client._ssl_context.verify_mode.name),
                               "CERT_REQUIRED"),
        ("floor", "cert_file"): (tls, lambda c, t: floor_link(c, t, lambda k: k.settings.broker.cert_file),
                                 files["cert"]),
        ("floor", "key_file"): (tls, lambda c, t: floor_link(c, t, lambda k: k.settings.broker.key_file), files["key"]),
        ("floor", "username"): ({**floor, "username": "t4"}, lambda c, t: floor_link(
            c, t, lambda k: k.client._username), b"t4"),
        ("floor", "password"): ({**floor, "username": "t4", "password": "pw-4"}, lambda c, t: floor_link(
            c, t, lambda k: k.client._password), b"pw-4"),
        ("floor", "keepalive_s"): ({**floor, "keepalive_s": 12}, lambda c, t: floor_link(
            c, t, lambda k: k.client._keepalive), 12),
    }


def documented() -> list[tuple[str, str]]:
    data = tomllib.loads(EXAMPLE.read_text())
    return [(section, key) for section, table in data.items() for key in table]


@pytest.mark.parametrize("section, key", documented())
def test_every_documented_key_takes_effect(tmp_path: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch,
                                           section: str, key: str) -> None:
    table = effects(files, free_port(), monkeypatch)
    assert (section, key) in table, f"{section}.{key} is documented but nothing shows what it does"
    section_of, values, probe, expected = (section, *table[(section, key)]) if len(table[(section, key)]) == 3 \
        else table[(section, key)]
    cfg = config(tmp_path, section_of, values)
    if section_of == "gpio":  # the beam's pin is driven only with a GPIO shoe
        cfg = dataclasses.replace(cfg, shoe=dataclasses.replace(cfg.shoe, kind="gpio"))
    assert probe(cfg, tmp_path) == expected


def test_every_key_of_the_config_is_documented() -> None:
    doc = set(documented())
    for name, section in typing.get_type_hints(Config).items():
        for f in dataclasses.fields(section):
            assert (name, f.name) in doc, f"{name}.{f.name} is not in {EXAMPLE.name}"


# ---- check-config refuses what serve refuses, naming the key ------------------------------------------

REFUSED = [
    ("[web]\nport = 70000\n", "web.port"),
    ("[web]\nthreads = 0\n", "web.threads"),
    ('[web]\ndealer_token = "the-same-token-1"\nproducer_token = "the-same-token-1"\n', "web.producer_token"),
    ('[web]\ndealer_token = "short"\n', "web.dealer_token"),
    ("[web]\nstream_delay_s = -30\n", "web.stream_delay_s"),
    ("[web]\nstream_delay_s = 30\n", "web.stream_delay_s"),
    ('[web]\npublic_hole_cards = "sometimes"\n', "web.public_hole_cards"),
    ('[web]\nhost = "not a host"\n', "web.host"),
    ('[table]\nprofile = "nope"\n', "table.profile"),
    ("[table]\nsmall_blind = -5\n", "table.small_blind"),
    ("[table]\nbig_blind = -10\n", "table.big_blind"),
    ("[table]\nsmall_blind = 10\nbig_blind = 5\n", "table.small_blind"),
    ("[table]\nseats = 12\n", "table.seats"),
    ("[table]\nbig_blind_ante = true\n", "table.big_blind_ante"),
    ('[table]\nprofile_file = "missing.toml"\n', "table.profile_file"),
    ('[camera]\nsource = "webcam"\n', "camera.source"),
    ('[camera]\nsource = "file"\ndevice = "nowhere.png"\n', "camera.device"),
    ("[camera]\nqueue_size = 5\n", "camera.queue_size"),
    ('[shoe]\nkind = "virtual"\n', "shoe.kind"),
]


@pytest.mark.parametrize("text, key", REFUSED)
def test_check_config_refuses_what_serve_refuses_naming_the_key(tmp_path: Path, capsys: Any, text: str,
                                                                key: str) -> None:
    cfg = tmp_path / "config.toml"
    base = f'[journal]\npath = "{tmp_path / "j.sqlite3"}"\n'
    if "[web]" not in text:
        base += f'[web]\ndealer_token = "{DEALER}"\nproducer_token = "{PRODUCER}"\n'
    cfg.write_text(base + text)
    assert main(["check-config", str(cfg)]) == 1
    assert f": {key}: " in capsys.readouterr().err
    # serve in its own process, so that one that wrongly starts is stopped rather than hanging the test
    r = subprocess.run([sys.executable, "-m", "dealer_pi", "serve", "--config", str(cfg)], capture_output=True,
                       text=True, cwd=REPO, timeout=60)
    assert r.returncode == 2 and f": {key}: " in r.stderr, r.stderr
    assert not (tmp_path / "j.sqlite3").exists()  # serve refused before it started anything


def test_a_config_that_is_not_utf8_is_named_not_a_traceback(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(b'[table]\nname = "Caf\xe9"\n')
    for args in (["check-config", str(cfg)], ["serve", "--config", str(cfg)]):
        r = subprocess.run([sys.executable, "-m", "dealer_pi", *args], capture_output=True, text=True, cwd=REPO)
        assert r.returncode in (1, 2) and "Traceback" not in r.stderr
        assert "is not UTF-8 text (byte 0xe9 at offset 19)" in r.stderr, r.stderr


def test_empty_tokens_are_a_warning_naming_the_key_and_the_example_is_still_ok(capsys: Any) -> None:
    assert main(["check-config", str(EXAMPLE)]) == 0
    out = capsys.readouterr()
    assert "ok" in out.out
    assert "warning: web.dealer_token: is empty" in out.err and "warning: web.producer_token: is empty" in out.err
