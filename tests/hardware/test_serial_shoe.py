"""The serial smart shoe end to end: pyserial on a real pseudo-terminal, the virtual shoe at the far end."""

from __future__ import annotations

import ast
import inspect
import random
import time
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo
from shoe_helpers import Collector

from dealer_pi.engine.cards import Card
from dealer_pi.hardware import dps1, serial_shoe
from dealer_pi.hardware.deck import ORDERS, DeckRegistration
from dealer_pi.hardware.problems import Reason
from dealer_pi.hardware.serial_shoe import LinkState, SerialShoe
from dealer_pi.hardware.virtual_shoe import VirtualShoe

Host = tuple[SerialShoe, Collector]


def cards(got: Collector) -> list[str | None]:
    return [str(d.card) if d.card else None for d in got.draws()]


def n_draws(n: int):  # type: ignore[no-untyped-def]
    return lambda items: len([i for i in items if type(i).__name__ == "ShoeDraw"]) >= n


def test_valid_frames_become_shoe_draws_in_order(vshoe: VirtualShoe, host: Host) -> None:
    shoe, got = host
    for c in ("Ah", "Kd", None, "2c"):
        vshoe.draw(c)
    got.wait_for(n_draws(4))
    assert cards(got) == ["Ah", "Kd", None, "2c"]
    assert all(d.source == "shoe:serial" and d.ts_ms > 0 for d in got.draws())
    assert shoe.shoe_id == "VIRTUAL-1" and shoe.state is LinkState.CONNECTED
    assert got.problems() == []


def test_corrupt_checksum_is_reported_and_the_frame_recovered_by_resend(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.draw("Ah")
    vshoe.corrupt_next()
    vshoe.draw("Kd")
    vshoe.draw("Qs")
    got.wait_for(n_draws(3))
    assert cards(got) == ["Ah", "Kd", "Qs"]
    assert len(got.problems(Reason.BAD_CHECKSUM)) == 1
    assert got.problems(Reason.GAP) and not got.problems(Reason.MISSED)
    assert any(c.kind == "RESEND" for c in vshoe.commands)


def test_garbage_bytes_are_reported_and_skipped(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.send_raw(b"\x00\xff\xfe line noise \r\n $$$ \x07")
    vshoe.draw("Td")
    got.wait_for(n_draws(1))
    assert cards(got) == ["Td"]
    (garbage,) = got.problems(Reason.GARBAGE)
    assert "bytes skipped" in garbage.detail
    assert got.problems(Reason.MISSED) == []


def test_split_and_joined_lines(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    a = vshoe.prepare("DRAW", "10", "Ah")
    b = vshoe.prepare("DRAW", "20", "Kd").replace(b"\n", b"\r\n")
    c = vshoe.prepare("DRAW", "30", "Qc")
    for piece in (a[:3], a[3:9], a[9:] + b[:5]):  # split across writes, and a frame joined to the next
        vshoe.send_raw(piece)
        time.sleep(0.03)
    vshoe.send_raw(b[5:] + c)  # two frames in one write
    got.wait_for(n_draws(3))
    assert cards(got) == ["Ah", "Kd", "Qc"]
    assert got.problems() == []


def test_gap_filled_by_resend_keeps_card_order(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.draw("2h")
    vshoe.skip_next(2)
    for c in ("3h", "4h", "5h", "6h"):
        vshoe.draw(c)
    got.wait_for(n_draws(5))
    assert cards(got) == ["2h", "3h", "4h", "5h", "6h"]
    (gap,) = got.problems(Reason.GAP)
    assert "2 frames" in gap.detail
    assert got.problems(Reason.MISSED) == []


def test_gap_the_shoe_cannot_fill_says_draws_possibly_missed(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.draw("2h")
    vshoe.drop_next(1)
    vshoe.draw("3h")  # gone for good
    vshoe.draw("4h")
    got.wait_for(lambda items: got.problems(Reason.MISSED) != [] and n_draws(2)(items))
    assert cards(got) == ["2h", "4h"]
    (missed,) = got.problems(Reason.MISSED)
    assert "draws possibly missed" in missed.detail and missed.seq is not None


def test_gap_without_resend_times_out_into_missed(tmp_path: Path) -> None:
    with VirtualShoe(link=tmp_path / "shoe", heartbeat_s=0.2, answer_resend=False) as v:
        got = Collector()
        with SerialShoe(v.path, on_observation=got, on_problem=got, on_state=got, resend_timeout_ms=300):
            got.wait_for(lambda items: LinkState.CONNECTED in got.states())
            v.draw("Ah")
            v.skip_next(1)
            v.draw("Kh")
            v.draw("Qh")
            items = got.wait_for(lambda items: n_draws(2)(items))
            assert cards(got) == ["Ah", "Qh"]
            missed = got.problems(Reason.MISSED)
            assert missed and "no resend within 300 ms" in missed[0].detail
            # nothing after the gap was let through before the shoe had its chance to resend
            assert items.index(missed[0]) < items.index(got.draws()[1])


def test_unplug_reconnects_with_backoff_and_recovers_draws_made_meanwhile(vshoe: VirtualShoe, host: Host) -> None:
    shoe, got = host
    vshoe.draw("Ah")
    got.wait_for(n_draws(1))
    vshoe.unplug()
    got.wait_for(lambda items: LinkState.RECONNECTING in got.states())
    assert got.problems(Reason.DISCONNECT)
    time.sleep(0.3)
    vshoe.replug(restart=False)
    vshoe.draw("Kd")  # a self-powered shoe kept counting while the cable was out
    got.wait_for(n_draws(2))
    got.wait_for(lambda items: got.states()[-1] is LinkState.CONNECTED)
    assert cards(got) == ["Ah", "Kd"]
    states = got.states()
    assert states.index(LinkState.RECONNECTING) < len(states) - 1
    assert got.problems(Reason.MISSED) == []


def test_replug_after_power_cycle_is_a_restart_not_a_gap(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    for c in ("Ah", "Kd", "Qs"):
        vshoe.draw(c)
    got.wait_for(n_draws(3))
    vshoe.unplug()
    got.wait_for(lambda items: LinkState.RECONNECTING in got.states())
    vshoe.replug(restart=True)
    got.wait_for(lambda items: got.problems(Reason.SHOE_RESTARTED) != [])
    vshoe.draw("Jc")
    got.wait_for(n_draws(4))
    assert cards(got)[-1] == "Jc"
    # the frames since power-up are asked for quietly: no gap, nothing missed
    assert got.problems(Reason.GAP) == [] and got.problems(Reason.MISSED) == []


def test_silence_for_the_heartbeat_timeout_is_disconnected_then_recovers(tmp_path: Path) -> None:
    with VirtualShoe(link=tmp_path / "shoe", heartbeat_s=0.1) as v:
        got = Collector()
        with SerialShoe(v.path, on_problem=got, on_state=got, heartbeat_timeout_ms=600):
            got.wait_for(lambda items: LinkState.CONNECTED in got.states())
            v.silent = True
            got.wait_for(lambda items: LinkState.DISCONNECTED in got.states())
            (p,) = got.problems(Reason.DISCONNECT)
            assert "no heartbeat" in p.detail
            v.silent = False
            got.wait_for(lambda items: got.states()[-1] is LinkState.CONNECTED)


def test_tags_map_through_the_deck_registration(vshoe: VirtualShoe, tmp_path: Path) -> None:
    order = ORDERS["new-deck"]
    reg = DeckRegistration.from_pairs({c: f"U:04{i:06X}" for i, c in enumerate(order)})
    got = Collector()
    with SerialShoe(vshoe.path, registration=reg, on_observation=got, on_problem=got, on_state=got):
        got.wait_for(lambda items: LinkState.CONNECTED in got.states())
        vshoe.draw("U:04000000")
        vshoe.draw("U:04000033")
        vshoe.draw("U:DEADBEEF")
        got.wait_for(n_draws(3))
    assert cards(got) == [order[0], order[51], None]
    (p,) = got.problems(Reason.UNREGISTERED_TAG)
    # The tag goes to the producer view and the log only: a registration elsewhere may name its card.
    assert "DEADBEEF" not in p.detail and p.secret == "tag U:DEADBEEF" and "not in the deck registration" in p.detail


def test_shoe_faults_are_problems_with_their_code(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.fault("JAM")
    vshoe.fault("DOUBLE")
    got.wait_for(lambda items: len(got.problems()) >= 2)
    assert [p.reason for p in got.problems()] == [Reason.SHOE_FAULT, Reason.DOUBLE_DRAW]
    assert "JAM" in got.problems()[0].detail
    # A code or a detail field that could be a card is not shown to the dealer.
    vshoe.fault("Kd")
    vshoe.fault("JAM", "Qs")
    got.wait_for(lambda items: len(got.problems()) >= 4)
    code, extra = got.problems()[2:]
    assert "Kd" not in code.detail and "a code" in code.detail and code.secret == "Kd"
    assert "Qs" not in extra.detail and "JAM" in extra.detail and extra.secret == "JAM,Qs"


@pytest.mark.timeout(120)
def test_one_megabyte_of_random_bytes_with_valid_frames_mixed_in(vshoe: VirtualShoe) -> None:
    rnd = random.Random(20261122)
    vshoe.heartbeat_s = 0
    vshoe.write_timeout_s = 10
    got = Collector()
    messages: list[dps1.Message] = []
    with SerialShoe(vshoe.path, on_observation=got, on_problem=got, on_state=got, on_message=messages.append,
                    heartbeat_timeout_ms=60_000):
        got.wait_for(lambda items: LinkState.CONNECTED in got.states())
        sent: list[str] = []
        total = 0
        while total < 1_000_000:
            junk = rnd.randbytes(rnd.randint(0, 4000))
            card = str(Card.from_index(rnd.randrange(52)))
            vshoe.send_raw(junk)
            vshoe.send_raw(vshoe.prepare("DRAW", str(len(sent)), card))
            sent.append(card)
            total += len(junk)
        got.wait_for(n_draws(len(sent)), timeout=90)
    assert vshoe.dropped_bytes == 0
    draws = [m for m in messages if isinstance(m, dps1.Draw)]
    assert [d.card for d in draws] == sent
    assert [d.ms for d in draws] == list(range(len(sent)))
    assert cards(got) == sent
    assert got.problems(Reason.GARBAGE) and got.problems(Reason.MISSED) == []


def test_find_port_by_usb_vid_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    def port(dev: str, vid: int | None, pid: int | None) -> ListPortInfo:
        info = ListPortInfo(dev, skip_link_detection=True)
        info.vid, info.pid = vid, pid
        return info

    ports = [port("/dev/ttyUSB0", 0x0403, 0x6001), port("/dev/ttyACM1", 0x2E8A, 0x000A),
             port("/dev/ttyACM0", 0x2E8A, 0x000A), port("/dev/ttyAMA0", None, None)]
    monkeypatch.setattr(serial_shoe.list_ports, "comports", lambda: ports)
    assert serial_shoe.find_port(0x2E8A, 0x000A) == "/dev/ttyACM0"
    assert serial_shoe.find_port(0x1234, 0x5678) is None


def test_searching_while_no_device_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serial_shoe.list_ports, "comports", lambda: [])
    got = Collector()
    with SerialShoe(usb_vid=0x2E8A, usb_pid=0x000A, on_state=got, backoff_s=(0.05, 0.1)):
        got.wait_for(lambda items: LinkState.SEARCHING in got.states())
    assert "2e8a:000a" in got.items[0][1]


def test_link_state_is_assigned_in_one_place_only() -> None:
    tree = ast.parse(inspect.getsource(serial_shoe))
    writers = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                else:
                    targets = []
                if any(isinstance(t, ast.Attribute) and t.attr == "_state" for t in targets):
                    writers.append(fn.name)
    assert sorted(writers) == ["__init__", "_set_state"]


def test_a_failing_receiver_does_not_stop_the_reader(vshoe: VirtualShoe) -> None:
    got = Collector()
    calls = []

    def flaky(obs: object) -> None:
        calls.append(obs)
        if len(calls) == 1:
            raise RuntimeError("queue full")
        got(obs)

    with SerialShoe(vshoe.path, on_observation=flaky, on_state=got):
        got.wait_for(lambda items: LinkState.CONNECTED in got.states())
        vshoe.draw("Ah")
        vshoe.draw("Kd")
        got.wait_for(n_draws(1))
    assert cards(got) == ["Kd"] and len(calls) == 2


def test_a_second_reader_cannot_steal_the_port(vshoe: VirtualShoe, host: Host) -> None:
    second = Collector()
    with SerialShoe(vshoe.path, on_state=second, backoff_s=(0.05, 0.1)):
        second.wait_for(lambda items: LinkState.RECONNECTING in second.states())
    assert "lock" in second.items[0][1].lower()
    _, got = host
    vshoe.draw("9s")
    got.wait_for(n_draws(1))
    assert cards(got) == ["9s"]


def test_frames_older_than_the_shoes_64_frame_history_are_reported_missed(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.heartbeat_s = 0
    vshoe.draw("Ah")
    got.wait_for(n_draws(1))
    vshoe.skip_next(70)  # kept but not sent; the shoe only keeps the last 64
    deck = [str(Card.from_index(i % 52)) for i in range(70)]
    for c in deck:
        vshoe.draw(c)
    vshoe.draw("Kh")
    got.wait_for(n_draws(1 + 63 + 1))  # the 64 kept include Kh itself
    missed = got.problems(Reason.MISSED)
    assert len(missed) == 1 and "7 frames" in missed[0].detail and "no longer had them" in missed[0].detail
    assert cards(got) == ["Ah"] + deck[7:] + ["Kh"]


def test_a_resent_draw_keeps_the_time_it_was_drawn_not_the_time_it_came_back(vshoe: VirtualShoe, host: Host) -> None:
    _, got = host
    vshoe.draw("Ah")
    got.wait_for(n_draws(1))
    vshoe.skip_next()
    vshoe.draw("Kd")  # drawn now, but only reaches the host after the RESEND
    time.sleep(0.4)
    vshoe.draw("Qs")
    got.wait_for(n_draws(3))
    a, k, q = got.draws()
    assert cards(got) == ["Ah", "Kd", "Qs"]
    assert k.ts_ms <= q.ts_ms - 300  # placed at its draw, ~0.4 s before the queen
    assert a.ts_ms <= k.ts_ms
