"""Every page under its Content-Security-Policy in Chromium: no inline code, nothing refused, all drawn."""

from __future__ import annotations

from typing import Any

import live_helpers as H
import pytest
from page_helpers import LiveTable
from playwright.sync_api import expect

PAGES = [
    ("/dealer?token=" + H.DEALER, "#seats .seat"),
    ("/setup?token=" + H.DEALER, "#level-rows"),
    ("/overlay", "#mode"),
    ("/overlay/live?token=" + H.PRODUCER, "#mode"),
    ("/clock", "#level"),
    ("/", "h1"),
]


@pytest.mark.parametrize("path, drawn", PAGES)
def test_pages_keep_to_a_strict_content_security_policy_and_send_no_referrer(
        context: Any, table: LiveTable, path: str, drawn: str) -> None:
    table.feed(H.checked_down_hand()[:4])
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    response = page.goto(table.url + path)
    assert response is not None and response.ok
    headers = response.headers
    assert headers["referrer-policy"] == "no-referrer"
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "unsafe-inline" not in csp
    expect(page.locator(drawn).first).to_be_attached()  # on the dealer page, drawn by its script from the state
    page.wait_for_timeout(300)  # let the event stream's first messages be drawn
    assert refused == [], refused
