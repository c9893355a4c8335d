"""Device notices name no card to the dealer: every kind the shoe, the buttons and the camera raise.

A damaged smart-shoe frame still holds its card (``$11,DRAW,4312,Kd*5D``). The dealer's tablet
is told what happened and where (frame number, byte count); the frame's bytes go to the
producer's view and the log only. The public view gets no notices at all.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import live_helpers as H
from live_helpers import wait_for
from dealer_pi.config import config_from_dict
from dealer_pi.engine.errors import RuleViolation
from dealer_pi.hardware.problems import Reason
from dealer_pi.hardware.virtual_shoe import VirtualShoe
from dealer_pi.runtime.attach import attach_devices
from dealer_pi.runtime.views import redact_notice

# The cards these tests put through the devices, in any spelling (case, 10 for T), and tag ids;
# canonical names of every other card too.
USED = "2c 3c 4c 5c 6c 9s jh kd qs qh td 10h ah".split()
CARD_LIKE = re.compile(r"(?i)(?<![a-z0-9_])(?:" + "|".join(USED) + r")(?![a-z0-9_])|u:[0-9a-f]{4,}"
                       r"|(?-i:\b[2-9TJQKA][cdhs]\b)")


def card_free(notice: dict[str, Any]) -> bool:
    return not CARD_LIKE.search(json.dumps(list(notice.values())))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, VirtualShoe, MockFactory]]:
    pins = MockFactory(pin_class=MockPWMPin)
    shoe = VirtualShoe(link=tmp_path / "shoe", heartbeat_s=0.2).start()
    rt = H.runtime(tmp_path)
    config = config_from_dict({
        "shoe": {"kind": "serial", "port": str(tmp_path / "shoe"), "resend_timeout_ms": 300},
        "gpio": {"buttons": True, "misdeal_hold_ms": 0},
    })
    closers = attach_devices(rt, config, tmp_path, pin_factory=pins)
    try:
        wait_for(lambda: rt.state("dealer")["devices"]["shoe"]["connected"])
        yield rt, shoe, pins
    finally:
        for c in closers:
            c()
        shoe.unplug()
        rt.stop()
        pins.reset()


def notices(rt: Any, view: str) -> list[dict[str, Any]]:
    """Every notice the view's stream carried since the runtime started (the state keeps the last 20)."""
    return [m.data for m in rt.publisher.channels[view].wait(0, 0) or [] if m.kind == "notice"]


def test_DEAL_NO_RABBIT_no_shoe_notice_names_a_card_to_the_dealer(table: Any, caplog: Any) -> None:
    rt, shoe, pins = table
    caplog.set_level(logging.WARNING)
    seq = shoe.draw("2c")
    wait_for(lambda: any(e.kind == "observation" for e in rt.journal.entries_after(0)))
    # confirm with no open alert: pressed now, before a lost draw below can open one
    assert rt.open_alerts() == []
    pins.pin(13).drive_low()
    pins.pin(13).drive_high()
    # bad checksum (the frame then comes back by RESEND), a frame cut short by another, garbage
    shoe.corrupt_next()
    shoe.draw("Kd")
    shoe.send_raw(b"$%d,DRAW,3374,Qs" % (seq + 5))
    shoe.draw("3c")
    # a well-framed line with a card in the wrong place, an unknown type, an over-long line
    for kind, *fields in (("DRAW", "Jh", "extra"), ("KD", "Jh"), ("FAULT", "JAM", "Td" * 120)):
        shoe.send_raw(shoe.prepare(kind, str(shoe.ms()), *fields))
    # a tag nobody registered, fault codes that could be cards, a double draw with its detail
    shoe.draw("U:04A1B2C3")
    shoe.fault("Ah")
    shoe.fault("DOUBLE", "9s")
    # a gap the shoe cannot fill (draws possibly missed) and a restart
    shoe.drop_next()
    shoe.draw("4c")
    shoe.draw("5c")
    want = {Reason.BAD_CHECKSUM, Reason.GAP, Reason.GARBAGE, Reason.BAD_FRAME, Reason.UNKNOWN_TYPE,
            Reason.UNREGISTERED_TAG, Reason.SHOE_FAULT, Reason.DOUBLE_DRAW, Reason.MISSED, Reason.NOTHING_TO_CONFIRM}

    def reasons() -> set[Reason]:
        return {r for n in notices(rt, "live") for r in Reason if n["message"].startswith(r.value + ":")}

    wait_for(lambda: want <= reasons())
    shoe.replug()  # power cycle: "shoe restarted"
    shoe.draw("6c")
    wait_for(lambda: Reason.SHOE_RESTARTED in reasons() or len(notices(rt, "live")) >= 20)
    dealer, live = notices(rt, "dealer"), notices(rt, "live")
    assert len(dealer) == len(live) > 0
    for shown in dealer:
        assert card_free(shown), shown
        assert "secret" not in shown
    secrets = " ".join(n.get("secret", "") for n in live)
    for card in ("Qs", "Jh", "KD", "U:04A1B2C3", "Ah", "9s"):
        assert card in secrets, card
    # The dealer is told where: the frame number or the number of bytes.
    by_reason = {r: [n["message"] for n in dealer if n["message"].startswith(r.value + ":")] for r in want}
    assert any(re.search(r"frame \d+ \(\d+ bytes\)", m) for m in by_reason[Reason.BAD_CHECKSUM])
    assert any(re.search(r"\d+ bytes skipped", m) for m in by_reason[Reason.GARBAGE])
    # The log keeps what the shoe sent.
    assert "Qs" in caplog.text
    assert all(card_free(n) for n in rt.state("dealer")["notices"])
    assert rt.state("public")["notices"] == [] and notices(rt, "public") == []


def test_DEAL_NO_RABBIT_the_dealers_notice_stream_names_no_card_but_the_producers_does(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    try:
        cursor = {v: rt.publisher.channels[v].seq for v in ("dealer", "live", "public")}
        rt.report("shoe:serial", "bad checksum: frame 11 (20 bytes): checksum does not match",
                  secret="b'11,DRAW,4312,Kd*5D': checksum 5D, computed 06")
        rt.report("camera", f"refused: {RuleViolation('DEAL-DECK', 'Qh is already on the table')}", "DEAL-DECK")
        sent = {v: rt.publisher.channels[v].wait(cursor[v], 1.0) or [] for v in cursor}
        dealer = [m.data for m in sent["dealer"] if m.kind == "notice"]
        live = [m.data for m in sent["live"] if m.kind == "notice"]
        assert len(dealer) == len(live) == 2
        assert all(card_free(n) for n in dealer), dealer
        assert dealer[1]["message"] == "refused: [DEAL-DECK] a card is already on the table"
        assert "Kd" in live[0]["secret"] and "Qh" in live[1]["message"]
        assert not [m for m in sent["public"] if m.kind == "notice"]
    finally:
        rt.stop()


@pytest.mark.parametrize("message", [
    "garbage: 16 bytes skipped before a frame: b'$10,DRAW,3374,Qs'",
    "bad checksum: frame b'11,DRAW,4312,Kd*5D'",
    "unregistered tag: tag U:04A1B2C3D4 (not in the deck registration)",
    "refused: DEAL-DECK: 10h is already on the table",
])
def test_DEAL_NO_RABBIT_old_style_notice_texts_are_scrubbed_for_the_dealer(message: str) -> None:
    shown = redact_notice({"ts_ms": 1, "source": "x", "message": message, "rule": None}, "dealer")
    assert shown is not None and card_free(shown), shown
    assert redact_notice({"message": message}, "public") is None


def test_DEAL_NO_RABBIT_a_rule_refusal_names_no_card_but_to_the_producer(tmp_path: Path) -> None:
    from dealer_pi.web.app import create_app

    rt = H.runtime(tmp_path)
    app = create_app(H.config(tmp_path), rt)
    refusal = RuleViolation("DEAL-DECK", "Kd is already on the table: a card seen twice is a foul deck")
    try:
        for token, named in ((H.DEALER, False), (None, False), ("not-a-token", False), (H.PRODUCER, True)):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            with app.test_request_context("/api/observations", headers=headers):
                resp = app.handle_user_exception(refusal)
            body = resp.get_json()["error"]
            assert resp.status_code == 409 and body["rule"] == "DEAL-DECK"
            assert ("Kd" in body["message"]) is named, (token, body)
    finally:
        rt.stop()


def test_DEAL_NO_RABBIT_the_beam_shoes_notices_name_no_card_either(tmp_path: Path) -> None:
    import time

    pins = MockFactory(pin_class=MockPWMPin)
    rt = H.runtime(tmp_path)
    config = config_from_dict({"shoe": {"kind": "gpio"},
                               "gpio": {"min_card_ms": 20, "max_card_ms": 100, "min_gap_ms": 200, "stuck_ms": 300}})
    closers = attach_devices(rt, config, tmp_path, pin_factory=pins)
    beam = pins.pin(17)
    try:
        beam.drive_low()  # a card too long in the beam: possible double draw, then stuck: sensor fault
        time.sleep(0.45)
        beam.drive_high()  # clear again: recovered
        for _ in range(2):  # two cards too close together
            beam.drive_low()
            time.sleep(0.04)
            beam.drive_high()
            time.sleep(0.03)
        want = {Reason.DOUBLE_DRAW, Reason.SENSOR_FAULT, Reason.SENSOR_RECOVERED}
        wait_for(lambda: want <= {r for n in notices(rt, "live") for r in Reason if n["message"].startswith(r.value)})
        assert all(card_free(n) for n in notices(rt, "dealer"))
        assert len(notices(rt, "dealer")) == len(notices(rt, "live"))
    finally:
        for c in closers:
            c()
        rt.stop()
        pins.reset()
