"""Fixtures for the page tests: Chromium (Debian's, via Playwright), a live server, a fresh profile."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_helpers import CHROMIUM, CHROMIUM_ARGS, TABLET, LiveTable

# The machine running the suite may be busy: wait longer before calling a page wrong.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is expected at {CHROMIUM} (Debian package 'chromium'; .ci/run installs it)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    t = LiveTable(tmp_path)
    yield t
    t.close()


@pytest.fixture
def context(browser: Any, table: LiveTable) -> Iterator[Any]:
    """A fresh browser profile per test (its own localStorage, so its own tokens).

    It depends on ``table`` so that the pages close before the server stops.
    """
    ctx = browser.new_context(viewport=TABLET, device_scale_factor=1)
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    ctx.on("weberror", lambda e: errors.append(str(e.error)))
    yield ctx
    ctx.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"


