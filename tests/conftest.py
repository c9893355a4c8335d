from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    assert SHARED.is_dir(), f"the shared data folder is expected beside the checkout at {SHARED}"
    return SHARED
