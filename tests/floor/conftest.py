"""A real Mosquitto for the session, on a free loopback port with a generated config; a room per test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_pi.floor.broker import LocalBroker


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalBroker]:
    b = LocalBroker(tmp_path_factory.mktemp("mosquitto")).start()
    yield b
    b.stop()


@pytest.fixture
def room() -> str:
    """A room of its own: retained messages of other tests are elsewhere."""
    return "r" + uuid.uuid4().hex[:10]


@pytest.fixture
def own_broker(tmp_path: Path) -> Iterator[LocalBroker]:
    """A broker this test may stop and start again."""
    b = LocalBroker(tmp_path / "mosquitto").start()
    yield b
    b.stop()
