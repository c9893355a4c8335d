"""``dealer-pi demo`` as a visitor meets it: a real process, its journal, its API.

The visitor plays along on the tablet's API: an action entered for the seat to
act is that seat's action and the bots play on from it (no voided hand, no new
table); an undo is followed; a misdeal gets the hand dealt again to the same
players. ``--hands N`` ends with how many hands were played and where the
journal is.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
DEADLINE_S = 300.0  # generous: a busy machine slows the demo, never the test's verdict


class Demo:
    """``dealer-pi demo`` in its own process on a free port, its journal in ``state``."""

    def __init__(self, state: Path, *args: str) -> None:
        self.state_dir = state
        self.errors = open(state.parent / f"{state.name}.stderr", "w+", encoding="utf-8")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dealer_pi", "demo", "--port", "0", "--state-dir", str(state), "--fault-rate", "0",
             *args],
            cwd=REPO, stdout=subprocess.PIPE, stderr=self.errors, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
        try:
            self.banner = self._read_until("Press Ctrl+C")
        except BaseException:
            self.proc.kill()  # never leave a demo running behind a failed start
            self.proc.wait(timeout=30)
            raise
        self.url = re.search(r"served on (http://\S+)", self.banner).group(1)  # type: ignore[union-attr]
        self.token = re.search(r"dealer token:\s+(\S+)", self.banner).group(1)  # type: ignore[union-attr]
        self.db = sqlite3.connect(f"file:{state / 'journal.sqlite3'}?mode=ro", uri=True)

    def _read_until(self, marker: str, timeout: float = 60) -> str:
        assert self.proc.stdout is not None
        fd, out, end = self.proc.stdout.fileno(), b"", time.monotonic() + timeout
        while marker.encode() not in out:  # raw reads: nothing of the rest is left in a Python buffer
            assert time.monotonic() < end and self.proc.poll() is None, f"the demo did not start: {out!r}"
            if select.select([fd], [], [], 0.5)[0]:
                out += os.read(fd, 65536)
        return out.decode()

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def table(self) -> dict[str, Any]:
        status, snap = self.request("GET", "/api/state")
        assert status == 200
        return snap["table"] or {}

    def entries(self, after: int = 0) -> list[tuple[int, str, dict[str, Any]]]:
        rows = self.db.execute("SELECT seq, kind, body FROM entries WHERE seq > ? ORDER BY seq", (after,))
        return [(s, k, json.loads(b)) for s, k, b in rows]

    def events(self, hand: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT body FROM events WHERE hand = ? ORDER BY id", (hand,))
        return [json.loads(b) for (b,) in rows]

    def stop(self) -> str:
        """Ctrl+C, as a visitor would; the demo's closing words."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=60)
        self.db.close()
        self.errors.close()
        return out


@pytest.fixture
def demo(tmp_path: Path) -> Any:
    started: list[Demo] = []

    def start(*args: str) -> Demo:
        started.append(Demo(tmp_path / f"demo{len(started)}", *args))
        return started[-1]

    yield start
    for d in started:
        if d.proc.poll() is None:
            d.proc.kill()
            d.proc.wait(timeout=30)


def until(cond: Any, what: str, timeout: float = DEADLINE_S) -> Any:
    end = time.monotonic() + timeout
    while not (value := cond()):
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.03)
    return value


def passive(hand: dict[str, Any]) -> dict[str, Any]:
    """Check when the seat can, else call: the hand goes on."""
    legal = hand["legal"]
    return {"type": "action", "seat": hand["to_act"], "action": "check" if legal["can_check"] else "call",
            "source": "tablet"}


def act_now(d: Demo, seat: int | None = None) -> tuple[int, int, int] | None:
    """Enter an action for the seat to act (``seat`` only), as the tablet does: (hand, seat, entry seq)."""
    table = d.table()
    hand = table.get("hand") or {}
    if hand.get("phase") != "betting" or hand.get("to_act") is None or (seat is not None and hand["to_act"] != seat):
        return None
    if any(s.get("in_hand") and (s.get("hole_count") or 0) < 2 for s in table["table"]["seats"].values()):
        return None  # the hole cards are still being dealt: nobody acts yet
    status, body = d.request("POST", "/api/observations", passive(hand))
    if status != 200:  # the table moved on since it was read (a bot was quicker): try again
        assert status == 409 and body["error"]["kind"] == "rule", body
        return None
    seq = max(s for s, kind, b in d.entries() if kind == "observation" and b.get("source") == "tablet")
    return table["table"]["hand_number"], hand["to_act"], seq


def hand_ended(d: Demo, hand: int) -> dict[str, Any] | None:
    return next((e for e in d.events(hand) if e["type"] == "hand_ended"), None)


def play_seat_to_the_end(d: Demo, hand: int, seat: int) -> dict[str, Any]:
    """The visitor keeps playing ``seat`` whenever it is to act in ``hand``, until the hand ends."""
    def step() -> dict[str, Any] | None:
        if d.table().get("table", {}).get("hand_number") == hand:
            act_now(d, seat)
        return hand_ended(d, hand)
    return until(step, f"hand {hand} to end")  # type: ignore[no-any-return]


def names_of(setup_or_started: dict[str, Any]) -> dict[str, str]:
    return {str(s["seat"]): s["name"] for s in setup_or_started["setup"]["seats"]}


def test_a_tablet_action_is_that_seats_action_and_the_bots_play_on(demo: Any) -> None:
    d = demo("--pace", "3", "--seed", "5", "--no-camera")  # the bots and the tablet, not the vision
    hand, seat, first = until(lambda: act_now(d), "a seat to act")
    ended = play_seat_to_the_end(d, hand, seat)

    assert ended["misdeal"] is False  # played to its end, not voided
    later = d.entries(first)
    assert [k for _, k, _ in later if k == "setup"] == []  # no new table, no voided hand
    bots = [b for _, k, b in later if k == "observation" and b["type"] == "action" and b["source"] == "simulator"]
    assert bots and bots[0]["seat"] != seat  # the bots played on from the visitor's action
    mine = [b for _, k, b in d.entries(first - 1) if b.get("source") == "tablet"]
    assert mine and all(b["seat"] == seat for b in mine)

    # The next hand is dealt to the same players: the table was not re-seated.
    started = [e for e in d.events(hand) if e["type"] == "hand_started"][-1]
    nxt = until(lambda: next((e for e in d.events(hand + 1) if e["type"] == "hand_started"), None), "the next hand")
    assert set(names_of(nxt).values()) <= set(names_of(started).values())

    # The tournament clock moves to 10/20 (TABLE-LEVELS): the next hand is dealt at the new blinds
    # to the same players, and the bots go on playing it.
    assert d.request("POST", "/api/clock", {"action": "next"})[0] == 200
    mark = d.entries()[-1][0]
    lseq, relevel = until(lambda: next(((s, b) for s, k, b in d.entries(mark) if k == "observation" and b["type"] == "level"),
                                       None), "the next level")
    assert relevel["source"] == "clock" and (relevel["small_blind"], relevel["big_blind"]) == (10, 20)
    assert [k for _, k, _ in d.entries(mark) if k == "setup"] == []  # the same table: no new setup
    dealt = until(lambda: next((json.loads(b) for (b,) in d.db.execute(
        "SELECT body FROM events WHERE entry_seq = ? ORDER BY id", (lseq + 1,)) if '"hand_started"' in b), None),
        "a hand at the new level")
    assert set(names_of(dealt).values()) <= set(names_of(started).values())
    at = d.entries()[-1][0]
    until(lambda: any(b.get("source") == "simulator" and b["type"] == "action" for _, k, b in d.entries(at)),
          "the bots to play at the new level")
    out = d.stop()
    assert re.search(r"dealer-pi demo: \d+ hand\(s\) played \(\d+ action\(s\) from the tablet\); journal: ", out), out
    assert "dealt again" not in out


def test_an_undo_is_followed_and_a_misdeal_is_dealt_again_to_the_same_players(demo: Any) -> None:
    d = demo("--pace", "3", "--seed", "8", "--no-camera")
    hand, seat, first = until(lambda: act_now(d), "a seat to act")
    status, body = d.request("POST", "/api/observations", {"type": "dealer", "declare": "undo", "source": "tablet"})
    assert status == 200, body
    # The action is taken back on the table and in the simulation: the seat is to act again.
    again = until(lambda: act_now(d, seat), f"seat {seat} to act again")
    assert again[0] == hand
    assert play_seat_to_the_end(d, hand, seat)["misdeal"] is False
    assert [k for _, k, _ in d.entries(first) if k == "setup"] == []

    # A misdeal declared on the tablet: the same players get the hand dealt again (not a new table).
    now = until(lambda: d.table().get("hand", {}).get("to_act") and d.table(), "a hand under way")
    before = d.entries()[-1][0]
    status, body = d.request("POST", "/api/observations", {"type": "dealer", "declare": "misdeal", "source": "tablet"})
    assert status == 200, body
    setup = until(lambda: next((b for _, k, b in d.entries(before) if k == "setup"), None), "the hand dealt again")
    players = {str(s): v["name"] for s, v in now["table"]["seats"].items() if v.get("in_hand")}  # not the busted
    assert setup["setup"]["names"] == players
    after = setup and d.entries()[-1][0]
    until(lambda: any(b.get("source") == "simulator" and b["type"] == "action" for _, k, b in d.entries(after)),
          "the bots to play the hand dealt again")
    out = d.stop()
    assert "1 hand(s) dealt again after a tablet entry the bots could not follow" in out, out


def test_demo_hands_says_how_many_were_played_and_where_the_journal_is(demo: Any, tmp_path: Path) -> None:
    d = demo("--pace", "20", "--hands", "2", "--seed", "2")
    out, _ = d.proc.communicate(timeout=DEADLINE_S)
    assert d.proc.returncode == 0
    journal = d.state_dir / "journal.sqlite3"
    assert out.rstrip().splitlines()[-1] == (
        f"dealer-pi demo: 2 hand(s) played; journal: {journal} (dealer-pi export --journal {journal} --phh DIR)")
    finished = [json.loads(b) for (b,) in d.db.execute("SELECT body FROM events ORDER BY id") if '"hand_ended"' in b]
    assert len([e for e in finished if not e["misdeal"]]) == 2
    # make demo's default path: the cards on the felt were reported by the vision pipeline, not the simulator
    seen = [json.loads(b) for (b,) in d.db.execute("SELECT body FROM entries WHERE kind = 'observation'")]
    sightings = [o for o in seen if o["type"] in ("card_seen", "card_left")]
    assert sightings and {o["source"] for o in sightings} == {"camera"}
