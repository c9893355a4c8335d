"""No client can stall the server: half-sent requests, floods of public streams, one address hogging.

Everything runs on loopback; the attackers take source addresses from 127.0.0.0/8 to look like
many machines, the dealer connects from 127.0.0.1.
"""

from __future__ import annotations

import ctypes
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

import attack as A
import live_helpers as H

DEALER_S = 1.0  # the bound: the dealer still acts within a second, whatever else is open


@pytest.mark.timeout(180)
def test_the_dealer_acts_while_150_requests_hang_half_sent_and_120_public_streams_are_asked_for(serve: Any) -> None:
    # A long request timeout here: the half-open connections must still be open while the dealer acts.
    rt, server = serve(request_timeout_s=60)
    port = server.port
    with ExitStack() as stack:
        hanging = A.half_open(port, 150, addresses=10, stack=stack)
        statuses = A.open_streams(port, 120, per_address=4, stack=stack)
        # the public gets its 64 streams, the rest are told to come back (never a hang)
        assert statuses.count(200) == 64 and statuses.count(503) == 56
        # the dealer's and the producer's streams have their own slots
        assert A.open_streams(port, 1, 1, stack, token=H.DEALER, block=3) == [200]
        assert A.open_streams(port, 1, 1, stack, token=H.PRODUCER, block=4) == [200]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=DEALER_S)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        conn.close()
        for obs in H.checked_down_hand()[:16]:  # the hole cards and the preflop betting
            status, _ = A.post(port, H.DEALER, obs, timeout=DEALER_S)  # a stalled server times out here
            assert status == 200
        assert len([e for e in rt.journal.entries_after(0) if e.kind == "observation"]) == 16
        # and all that while every attacking connection was still open
        assert all(A.still_open(s) for s in hanging)


def test_a_request_half_sent_is_dropped_after_the_request_timeout_even_a_byte_at_a_time(serve: Any) -> None:
    _, server = serve(request_timeout_s=1.0)
    with ExitStack() as stack:
        idle = A.half_open(server.port, 3, addresses=1, stack=stack)
        trickle = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        stack.callback(trickle.close)
        closed_at = None
        for i in range(60):  # one byte every 0.1 s keeps the connection busy, never complete
            if not A.still_open(trickle):
                closed_at = i
                break
            try:
                trickle.send(b"GET / HTTP/1.1\r\nX: "[i % 20:i % 20 + 1] or b"a")
            except OSError:
                closed_at = i
                break
            time.sleep(0.1)
        assert closed_at is not None, "a request trickled for 6 s was not dropped"
        deadline = time.monotonic() + 10
        while any(A.still_open(s) for s in idle) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(A.still_open(s) for s in idle)
        # a complete request on a fresh connection is answered as ever
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/healthz")
        assert json.loads(conn.getresponse().read()) == {"ok": True}
        conn.close()


def test_one_address_cannot_take_every_connection(serve: Any) -> None:
    _, server = serve(per_address=8)
    with ExitStack() as stack:
        socks = A.half_open(server.port, 20, addresses=1, stack=stack)
        deadline = time.monotonic() + 10
        while sum(A.still_open(s) for s in socks) > 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sum(A.still_open(s) for s in socks) == 8  # the first 8 stay; the rest are closed at once
        status, _ = A.post(server.port, H.DEALER, {"type": "dealer", "declare": "undo"}, timeout=5)
        assert status in (200, 400, 409)  # answered: the dealer's own address has room


def _serve_process(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int, Path]:
    """``dealer-pi serve`` in a process of its own; faulthandler on, so SIGABRT writes its stacks."""
    repo = Path(__file__).resolve().parents[2]
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[web]\ndealer_token = "{H.DEALER}"\nproducer_token = "{H.PRODUCER}"\naudit_log = "audit.log"\n'
                   '[journal]\npath = "journal.sqlite3"\n')
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    err = tmp_path / "stderr.log"
    proc = subprocess.Popen([sys.executable, "-m", "dealer_pi", "serve", "--config", str(cfg), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=err.open("w"),
                            env=dict(os.environ, PYTHONPATH=str(repo), PYTHONFAULTHANDLER="1"))
    assert proc.stdout is not None and "serving" in proc.stdout.readline().decode()
    return proc, port, err


def _stopped_within(proc: subprocess.Popen[bytes], err: Path, seconds: float) -> int:
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)  # every thread's stack goes to the log, for the failure
        proc.wait(timeout=10)
        raise AssertionError(f"the server did not stop in {seconds:g} s:\n" + err.read_text()[-8000:]) from None


@pytest.mark.timeout(120)
def test_stopping_the_server_under_load_ends_cleanly(tmp_path: Path) -> None:
    proc, port, err = _serve_process(tmp_path)
    stop = threading.Event()

    def dealer() -> None:
        while not stop.is_set():
            try:
                A.post(port, H.DEALER, {"type": "dealer", "declare": "undo"}, timeout=5)
            except OSError:
                pass

    def reader() -> None:
        while not stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/api/state")
                conn.getresponse().read()
                conn.close()
            except (OSError, http.client.HTTPException):
                pass

    workers = [threading.Thread(target=f, daemon=True) for f in [dealer] * 4 + [reader] * 8]
    try:
        with ExitStack() as stack:
            assert A.open_streams(port, 40, 4, stack).count(200) == 40
            A.open_streams(port, 4, 4, stack, token=H.PRODUCER, block=5)
            for w in workers:
                w.start()
            time.sleep(1.5)
            proc.send_signal(signal.SIGTERM)
            assert _stopped_within(proc, err, 60) == 0
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
    log = err.read_text()
    assert "Traceback" not in log and "Bad file descriptor" not in log, log[-3000:]


def test_a_server_whose_wake_up_pipe_is_closed_under_it_gets_a_new_one_and_still_closes_from_its_loop(
        serve: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The serving loop's wake-up pipe closed while it serves (it once took a test run down at
    teardown): requests are still served, nothing is written where the old pipe's number now
    points, the log says where the pipe was closed from, and closing the server still closes
    every socket from the serving loop."""
    rt, server = serve()

    def get_state() -> int:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/state")
        status = conn.getresponse().status
        conn.close()
        return status

    assert get_state() in (200, 401)
    old = server._server.trigger
    write_end = old.trigger
    old.close()
    other = tmp_path / "a file that now has the old pipe's number"
    fd = os.open(other, os.O_WRONLY | os.O_CREAT)
    os.dup2(fd, write_end)  # as the next file opened anywhere in the process might
    try:
        server._server.pull_trigger()
    finally:
        os.close(write_end)
        os.close(fd)
    assert other.read_bytes() == b""
    assert get_state() in (200, 401)
    closed_in: list[str] = []
    close_all = server._server.close_all
    server._server.close_all = lambda: (closed_in.append(threading.current_thread().name), close_all())[-1]
    with caplog.at_level("WARNING", logger="dealer_pi.web.server"):
        server.close()
    assert closed_in == ["waitress"], closed_in
    warned = [r.getMessage() for r in caplog.records]
    assert any("wake-up pipe was closed under its loop" in m and "test_a_server_whose_wake_up_pipe" in m for m in warned), warned
    assert not any("did not close its sockets" in m for m in warned), warned
    assert server._thread is not None and not server._thread.is_alive()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)


TGKILL = {"x86_64": 234, "aarch64": 131}  # the Linux system call that signals one thread of a process


@pytest.mark.timeout(60)
@pytest.mark.skipif(os.uname().machine not in TGKILL, reason="tgkill's number is known for x86_64 and aarch64 only")
def test_a_stop_signal_taken_by_any_thread_stops_the_server(tmp_path: Path) -> None:
    # The kernel may hand a process's SIGTERM to any of its threads; Python then runs the handler
    # only when the main thread next runs. Here it goes to a thread that is not the main one.
    proc, _port, err = _serve_process(tmp_path)
    try:
        threads = sorted(int(t) for t in os.listdir(f"/proc/{proc.pid}/task") if int(t) != proc.pid)
        assert threads, "the server runs more than its main thread"
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.syscall(TGKILL[os.uname().machine], proc.pid, threads[-1], signal.SIGTERM) == 0
        assert _stopped_within(proc, err, 15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
