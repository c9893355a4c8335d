from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"


@pytest.fixture(scope="session")
def rules_text() -> str:
    """The rule catalogue the repository ships (docs/rules.md)."""
    return (REPO / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def phh_dir() -> Path:
    """The 15 real hand histories carried in tests/data/phh (see tests/data/README.md)."""
    return DATA / "phh"


@pytest.fixture(scope="session")
def photo_root() -> Path:
    """The real-photo subset carried in tests/data/real-cards (CC BY 4.0, see its README)."""
    return DATA / "real-cards"


@pytest.fixture(scope="session")
def photo_subsets(photo_root: Path) -> dict[str, list[Path]]:
    """Each named list of tests/data/real-cards/subsets.json as image paths."""
    names = json.loads((photo_root / "subsets.json").read_text(encoding="utf-8"))
    return {k: [photo_root / "images" / n for n in v] for k, v in names.items()}
