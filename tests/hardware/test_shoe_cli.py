"""``dealer-pi shoe ...`` as a user runs it: a real process reading a virtual shoe on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from dealer_pi.hardware.deck import ORDERS, DeckRegistration
from dealer_pi.hardware.virtual_shoe import VirtualShoe

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "dealer_pi", *args]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def wait_for_line(proc: subprocess.Popen[str], lines: list[str], needle: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if needle in line:
            return
    raise AssertionError(f"{needle!r} not seen in {lines!r}")

def start_register(link: Path, out: Path, lines: list[str]) -> subprocess.Popen[str]:
    """``shoe register`` on the virtual shoe, once it has asked for the first card (new-deck order)."""
    proc = subprocess.Popen(cli("shoe", "register", "--port", str(link), "--out", str(out), "--timeout", "30"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    wait_for_line(proc, lines, "first: As")
    time.sleep(0.5)  # the command opens the port and settles before the first draw
    return proc


def test_listen_json_prints_events_and_problems_and_never_dies(tmp_path: Path) -> None:
    link = tmp_path / "shoe"
    with VirtualShoe(link=link, heartbeat_s=0.3) as v:
        proc = subprocess.Popen(cli("shoe", "listen", "--port", str(link), "--json", "--seconds", "60"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
        lines: list[str] = []
        try:
            wait_for_line(proc, lines, '"connected"')
            v.draw("Ah")
            wait_for_line(proc, lines, '"Ah"')
            v.corrupt_next()
            v.draw("Kd")
            v.send_raw(b"\x00\xff\xfegarbage\n$$$\n")
            v.drop_next()
            v.draw("2c")
            v.draw(None)
            wait_for_line(proc, lines, "draws possibly missed")
            v.unplug()
            wait_for_line(proc, lines, '"reconnecting"')
            proc.send_signal(signal.SIGTERM)  # a clean stop, exit status 0
        finally:
            out, err = proc.communicate(timeout=20)
        lines += out.splitlines(keepends=True)
    assert proc.returncode == 0, err
    records = [json.loads(line) for line in lines]  # every line is JSON
    draws = [r for r in records if r["type"] == "draw"]
    assert draws[0] == {"seq": draws[0]["seq"], "type": "draw", "card": "Ah", "ms": draws[0]["ms"]}
    assert [d["card"] for d in draws] == ["Ah", "Kd", None]
    reasons = {r["reason"] for r in records if r["type"] == "problem"}
    assert {"bad checksum", "gap", "garbage", "draws possibly missed", "disconnect"} <= reasons
    assert all(isinstance(r["seq"], int) for r in records if r["type"] in ("draw", "heartbeat", "hello"))


def test_register_a_tagged_deck_then_check_it(tmp_path: Path) -> None:
    link, out = tmp_path / "shoe", tmp_path / "deck.json"
    order = ORDERS["new-deck"]
    with VirtualShoe(link=link, heartbeat_s=0.3) as v:
        lines: list[str] = []
        proc = start_register(link, out, lines)
        for i in range(52):
            v.draw(f"U:04{i:06X}")
        stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0, stderr
    reg = DeckRegistration.load(out)
    assert str(reg.card_for("U:04000000")) == order[0] == "As"
    assert str(reg.card_for("u:04000033")) == order[51] == "Ah"
    ok = subprocess.run(cli("shoe", "check-deck", str(out)), capture_output=True, text=True, env=env())
    assert ok.returncode == 0 and "52 cards" in ok.stdout


def test_DEAL_DECK_register_refuses_a_tag_read_twice_and_a_card_without_tag(tmp_path: Path) -> None:
    link, out = tmp_path / "shoe", tmp_path / "deck.json"
    with VirtualShoe(link=link, heartbeat_s=0.3) as v:
        proc = start_register(link, out, [])
        for i in range(52):
            if i == 5:
                v.draw("U:04000001")  # 6s carries the same tag as 2s
            elif i == 20:
                v.draw(None)  # 8d: no tag read
            else:
                v.draw(f"U:04{i:06X}")
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert "6s: tag U:04000001 was already read for 2s" in stderr
    assert "8d: no tag was read" in stderr
    assert not out.exists()


def test_check_deck_names_the_problem_in_a_damaged_file(tmp_path: Path) -> None:
    pairs = {c: f"U:AA{i:04X}" for i, c in enumerate(ORDERS["index"])}
    pairs["Kd"] = pairs["Qd"]
    del pairs["2c"]
    bad = tmp_path / "deck.json"
    bad.write_text(json.dumps({"format": "dealer-pi deck registration 1", "cards": pairs}))
    r = subprocess.run(cli("shoe", "check-deck", str(bad)), capture_output=True, text=True, env=env())
    assert r.returncode == 1
    assert "is also on Qd" in r.stderr and "no tag for 2c" in r.stderr


def test_shoe_virtual_deals_a_shuffled_deck_that_listen_reads(tmp_path: Path) -> None:
    link = tmp_path / "vshoe"
    proc = subprocess.Popen(cli("shoe", "virtual", "--link", str(link), "--every", "0.1", "--seconds", "30"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    try:
        wait_for_line(proc, [], "virtual shoe on")
        listen = subprocess.Popen(cli("shoe", "listen", "--port", str(link)), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env())
        lines: list[str] = []
        try:
            for _ in range(5):
                wait_for_line(listen, lines, " draw ")
        finally:
            listen.send_signal(signal.SIGTERM)
            listen.communicate(timeout=10)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=10)
    assert proc.returncode == 0 and listen.returncode == 0
    drawn = [line.split("card=")[1].split()[0] for line in lines if " draw " in line]
    assert len(drawn) == 5 and len(set(drawn)) == 5  # text mode, five different cards
    assert any(line.startswith("-- connected") for line in lines)


def test_virtual_shoe_garbage_is_reported_by_the_host(vshoe: VirtualShoe, host) -> None:  # type: ignore[no-untyped-def]
    _, got = host
    vshoe.garbage(500, seed=3)
    vshoe.draw("Qd")
    got.wait_for(lambda items: any(type(i).__name__ == "ShoeDraw" for i in items))
    assert [str(d.card) for d in got.draws()] == ["Qd"]
    assert got.problems()


def test_DEAL_DECK_register_stops_when_a_draw_is_lost(tmp_path: Path) -> None:
    link, out = tmp_path / "shoe", tmp_path / "deck.json"
    with VirtualShoe(link=link, heartbeat_s=0.3) as v:
        proc = start_register(link, out, [])
        for i in range(10):
            if i == 4:
                v.drop_next()  # this card's frame never reaches the host
            v.draw(f"U:04{i:06X}")
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert "draws possibly missed" in stderr and "pass the whole deck again" in stderr
    assert not out.exists()
