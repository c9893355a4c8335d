"""An assistant told to stop before it serves (a demo's last hand played out while it was still
starting) stops without ever serving."""

from __future__ import annotations

import signal
import socket
import threading
from pathlib import Path

import live_helpers as H
from dealer_pi.runtime.wiring import Assistant


def test_an_assistant_stopped_before_it_serves_never_opens_for_requests(tmp_path: Path) -> None:
    assistant = Assistant.from_config(H.config(tmp_path), tmp_path, port=0, attach=False)
    port = assistant.server.port
    assistant.stop()
    told: list[str] = []
    serving_before = {t for t in threading.enumerate() if t.name == "waitress"}  # other tests' servers
    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        assistant.serve_forever(lambda: told.append("serving"))  # returns at once: it was stopped
    finally:
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGINT, handlers[1])
    assert told == []  # nobody is told it serves
    assert {t for t in threading.enumerate() if t.name == "waitress"} <= serving_before  # no server thread started
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0  # nothing listens
