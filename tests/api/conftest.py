from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runtime"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # attack.py, shared with benchmarks/load.py

import live_helpers as H  # noqa: E402

from dealer_pi.web.app import create_app  # noqa: E402
from dealer_pi.web.auth import AuditLog  # noqa: E402
from dealer_pi.web.server import Server  # noqa: E402


class FakeClock:
    """Wall clock under the test's control, so the stream delay passes without waiting."""

    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


class Live:
    def __init__(self, tmp: Path, delay_s: int) -> None:
        self.clock = FakeClock()
        self.runtime = H.runtime(tmp, delay_s, now_ms=self.clock)
        self.audit = AuditLog(tmp / "audit.log")
        self.app = create_app(H.config(tmp, delay_s), self.runtime, audit=self.audit)
        self.client = self.app.test_client()

    def post(self, body: Any, token: str | None = H.DEALER, path: str = "/api/observations") -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.post(path, json=body, headers=headers)

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.get(path, headers=headers)

    def feed(self, observations: list[dict[str, Any]]) -> None:
        for i, obs in enumerate(observations):
            r = self.post(obs)
            assert r.status_code == 200, (i, obs, r.json)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    lv = Live(tmp_path, 300)
    yield lv
    lv.runtime.stop()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., tuple[Any, Server]]]:
    """``serve(**server_options)``: the app on a real waitress server on 127.0.0.1 (a free port)."""
    made: list[tuple[Any, Server]] = []

    def start(**options: Any) -> tuple[Any, Server]:
        rt = H.runtime(tmp_path, 300)
        app = create_app(H.config(tmp_path), rt, audit=AuditLog(tmp_path / "audit.log"))
        made.append((rt, Server(app, port=0, **options).start()))
        return made[-1]

    yield start
    for rt, server in made:
        server.close()
        rt.stop()
