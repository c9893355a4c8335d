"""Crash test: a real server process killed with SIGKILL at random moments during simulated hands.

The killed server is restarted on the same journal and the driver goes on
from what the server says it has recorded. At the end its state and its whole
event log must equal those of a server that was never killed and got the same
observations: same hand, street, pots, player to act, hole cards, and every
event, numbered without a gap.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import live_helpers as H
from dealer_pi.engine.observations import observation_to_dict
from dealer_pi.sim import Simulator

REPO = Path(__file__).resolve().parents[2]
KILLS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, tmp: Path, name: str) -> None:
        self.dir = tmp / name
        self.dir.mkdir()
        self.config = self.dir / "config.toml"
        self.config.write_text(
            f'[web]\ndealer_token = "{H.DEALER}"\nproducer_token = "{H.PRODUCER}"\nstream_delay_s = 60\n'
            'public_hole_cards = "after-hand"\n'
            f'audit_log = "audit.log"\n[journal]\npath = "journal.sqlite3"\n'
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> None:
        self.port = free_port()
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dealer_pi", "serve", "--config", str(self.config), "--port", str(self.port)],
            cwd=self.dir, env=env, stdout=subprocess.DEVNULL, stderr=(self.dir / "stderr.log").open("ab"),
        )
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, (self.dir / "stderr.log").read_text()
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def request(self, method: str, path: str, body: Any = None, token: str | None = H.DEALER) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        r = conn.getresponse()
        data = json.loads(r.read() or b"null")
        conn.close()
        return r.status, data


def script(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    table = Simulator(seed, hands_per_table=5, players=(3, 6)).table()
    observations = []
    for i, obs in enumerate(table.observations()):
        d = observation_to_dict(obs)
        d["ts_ms"] = 1_000 * (i + 1)  # fixed times: both servers get exactly the same input
        observations.append(d)
    return table.setup.to_dict(), observations


def resume_point(server: ServerProcess, setup: dict[str, Any]) -> int:
    """Which observation comes next, from what the server has journaled (a fresh server waits
    for its setup: the driver enters it)."""
    def last_setup() -> tuple[int, Any]:
        with sqlite3.connect(server.dir / "journal.sqlite3") as db:
            row = db.execute("SELECT seq, body FROM entries WHERE kind = 'setup' ORDER BY seq DESC LIMIT 1").fetchone()
        return (0, None) if row is None else (int(row[0]), json.loads(row[1])["setup"])

    if last_setup()[1] != setup:
        status, body = server.request("POST", "/api/setup?void_hand=1", setup)
        assert status == 200, body
    status, state = server.request("GET", "/api/state")
    assert status == 200
    return int(state["seq"]) - last_setup()[0]


def journal(server: ServerProcess) -> tuple[list[Any], list[Any]]:
    with sqlite3.connect(server.dir / "journal.sqlite3") as db:
        entries = [(k, json.loads(b)) for k, b in db.execute("SELECT kind, body FROM entries ORDER BY seq")]
        events = [(i, h, json.loads(b)) for i, h, b in db.execute("SELECT id, hand, body FROM events ORDER BY id")]
    return entries, events


def final_state(server: ServerProcess) -> dict[str, Any]:
    status, state = server.request("GET", "/api/state", token=H.PRODUCER)
    assert status == 200
    return {k: state[k] for k in ("table", "hole_cards", "last_event_id", "seq", "setup")}


@pytest.mark.timeout(300)
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    setup, observations = script(seed=11)
    rng = random.Random(2024)
    kill_at = sorted(rng.sample(range(5, len(observations) - 5), KILLS))

    steady = ServerProcess(tmp_path, "never-killed")
    steady.start()
    try:
        assert resume_point(steady, setup) == 0
        for obs in observations:
            status, body = steady.request("POST", "/api/observations", obs)
            assert status == 200, (obs, body)
        expected_state, expected_journal = final_state(steady), journal(steady)
    finally:
        steady.stop()

    crashy = ServerProcess(tmp_path, "killed")
    crashy.start()
    kills = 0
    try:
        i = resume_point(crashy, setup)
        while i < len(observations):
            if kills < KILLS and i >= kill_at[kills]:
                # Kill while this observation's request is in flight: before, during or after its
                # journal write, the driver cannot know which.
                t = threading.Thread(target=lambda o=observations[i]: _post_ignoring_errors(crashy, o), daemon=True)
                t.start()
                time.sleep(rng.uniform(0.0, 0.02))
                crashy.kill()
                t.join(10)
                kills += 1
                crashy.start()
                i = resume_point(crashy, setup)
                continue
            status, body = crashy.request("POST", "/api/observations", observations[i])
            assert status == 200, (i, observations[i], body)
            i += 1
        assert kills == KILLS
        got_state, got_journal = final_state(crashy), journal(crashy)
    finally:
        crashy.stop()

    assert got_state == expected_state
    assert got_journal == expected_journal
    ids = [e[0] for e in got_journal[1]]
    assert ids == list(range(1, len(ids) + 1))  # no event lost, none twice


def _post_ignoring_errors(server: ServerProcess, obs: dict[str, Any]) -> None:
    try:
        server.request("POST", "/api/observations", obs)
    except (OSError, http.client.HTTPException, json.JSONDecodeError):
        pass  # the server died under it: that is the point
