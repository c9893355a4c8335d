"""Helpers for the page tests: a live server driven over HTTP, screenshots, card faces.

Each test gets the backend's app under waitress on 127.0.0.1 (a free port), on
a journal in a temporary folder, with the stream clock under the test's
control so the public delay passes without waiting. Chromium is Debian's
(/usr/bin/chromium), driven by Playwright's sync API; screenshots go to
``test-artifacts/pages/`` (git-ignored).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runtime"))

import live_helpers as H
from playwright.sync_api import expect

from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.web.app import create_app
from dealer_pi.web.auth import AuditLog
from dealer_pi.web.server import Server

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "pages"
CHROMIUM = os.environ.get("DEALER_PI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
DELAY_S = 300
TABLET = {"width": 1280, "height": 800}
BROADCAST = {"width": 1920, "height": 1080}


class LiveTable:
    """A running server plus helpers to drive it over HTTP as a real client would."""

    def __init__(self, tmp: Path, delay_s: int = DELAY_S, fresh: bool = False) -> None:
        self.now = 1_700_000_000_000
        self.delay_s = delay_s
        if fresh:  # a new journal with no setup: no table until one is entered
            from dealer_pi.runtime.engine_thread import Runtime

            self.runtime = Runtime(tmp / "journal.sqlite3", None, stream_delay_s=delay_s, now_ms=lambda: self.now,
                                   proposed_setup=H.SETUP).start()
        else:
            self.runtime = H.runtime(tmp, delay_s, now_ms=lambda: self.now)
        self.app = create_app(H.config(tmp, delay_s), self.runtime, audit=AuditLog(tmp / "audit.log"))
        self.server = Server(self.app, host="127.0.0.1", port=0, threads=16).start()
        self.url = self.server.url

    def request(self, method: str, path: str, body: Any = None, token: str | None = H.DEALER) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def post(self, obs: dict[str, Any]) -> dict[str, Any]:
        status, body = self.request("POST", "/api/observations", obs)
        assert status == 200, (obs, body)
        return body  # type: ignore[no-any-return]

    def feed(self, observations: list[dict[str, Any]]) -> None:
        for obs in observations:
            self.post(obs)

    def state(self, token: str | None = H.DEALER) -> dict[str, Any]:
        status, body = self.request("GET", "/api/state", token=token)
        assert status == 200, body
        return body  # type: ignore[no-any-return]

    def pass_delay(self) -> None:
        """Move the stream clock past the public delay and let the publisher release."""
        self.now += (self.delay_s + 1) * 1000
        self.runtime.publisher.poke()

    def close(self) -> None:
        self.runtime.stop()
        self.server.close()


def shot(page: Any, name: str, **kw: Any) -> Path:
    """Save a screenshot as a test artefact and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), **kw)
    return path


def face_cards(page: Any, scope: str = "body") -> list[str]:
    """Every card face drawn inside ``scope`` (data-card of each face; backs and slots have none)."""
    return page.eval_on_selector_all(f"{scope} .card[data-card]", "els => els.map(e => e.dataset.card)")  # type: ignore[no-any-return]


class ChildServer:
    """``dealer-pi serve`` in its own process, so it can be killed like a real crash (SIGKILL)."""

    def __init__(self, tmp: Path) -> None:
        tmp.mkdir(parents=True, exist_ok=True)
        self.config = tmp / "config.toml"
        self.config.write_text(
            '[table]\nname = "Main event"\nseats = 6\n'
            f'[web]\ndealer_token = "{H.DEALER}"\nproducer_token = "{H.PRODUCER}"\n'
            f'audit_log = "{tmp / "audit.log"}"\n'
            f'[journal]\npath = "{tmp / "journal.sqlite3"}"\n'
        )
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> ChildServer:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dealer_pi", "serve", "--config", str(self.config), "--host", "127.0.0.1",
             "--port", str(self.port)],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "dealer-pi: serving 'Main event' on http://127.0.0.1:PORT"
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert match, f"dealer-pi serve did not start: {line!r}"
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def post(self, obs: dict[str, Any], path: str = "/api/observations") -> Any:
        req = urllib.request.Request(self.url + path, data=json.dumps(obs).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {H.DEALER}"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.status == 200
            return json.load(resp)

    def set_up(self) -> None:
        """Enter the table the setup page proposes (a fresh journal deals nothing until then)."""
        req = urllib.request.Request(self.url + "/api/setup", headers={"Authorization": f"Bearer {H.DEALER}"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            proposed = json.load(resp)["setup"]
        self.post(proposed, "/api/setup")


def open_tablet(context: Any, table: LiveTable) -> Any:
    """The dealer's tablet on ``table``, once its event stream is live."""
    page = context.new_page()
    page.goto(f"{table.url}/dealer?token={H.DEALER}")
    expect(page.locator("#conn")).to_have_text("Live")
    return page


def open_holding_state(page: Any, url: str) -> list[tuple[Any, Any]]:
    """Open ``url`` with every answer to the page's own GET of /api/state held back, as (route,
    the answer fetched at once) for the test to release later; returns once the first is held."""
    held: list[tuple[Any, Any]] = []
    page.route("**/api/state*", lambda route: held.append((route, route.fetch())))
    page.goto(url)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for /api/state"
    return held


def close_holding_state(page: Any, held: list[tuple[Any, Any]]) -> None:
    """Close a page opened by :func:`open_holding_state`, its held answers dropped. The hold is
    lifted before the page closes: a refresh the page asks for while it closes would otherwise be
    fetched through a request context already gone, and its error surfaces in whichever test runs
    next."""
    for route, _ in held:  # later refreshes, never answered in the test
        route.abort()
    page.unroute_all(behavior="ignoreErrors")
    page.close()


def deal_hole_cards(table: LiveTable) -> None:
    """The first hand's hole cards from the shoe, seen face down at seats 2, 3, 1 (DEAL-ORDER)."""
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1]))
