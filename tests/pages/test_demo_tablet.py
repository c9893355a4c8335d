"""The demo's own tablet in Chromium: a visitor taps an action and the bots play on from it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from page_helpers import TABLET, shot
from playwright.sync_api import expect
from test_demo import Demo, until


def test_a_tap_on_the_demo_tablet_is_the_seats_action_and_the_bots_play_on(browser: Any, tmp_path: Path) -> None:
    d = Demo(tmp_path / "demo", "--pace", "2", "--seed", "11", "--no-camera")
    ctx = browser.new_context(viewport=TABLET, device_scale_factor=1)
    try:
        tablet = ctx.new_page()
        tablet.goto(f"{d.url}/dealer?token={d.token}")
        expect(tablet.locator("#conn")).to_have_text("Live")

        def tap() -> bool:
            """Tap Check or Call for the seat to act, once the hole cards are out."""
            seats = (d.table().get("table") or {}).get("seats") or {}
            if any(s.get("in_hand") and (s.get("hole_count") or 0) < 2 for s in seats.values()):
                return False
            for action in ("check", "call"):
                button = tablet.locator(f'.act[data-action="{action}"]')
                if button.is_enabled():
                    tablet.evaluate("document.getElementById('msg').textContent = ''")
                    button.click()
                    return True
            return False

        def accepted() -> bool:
            """Tap until the tablet says the action was taken (a bot may have been quicker: then the
            tap is refused as out of turn, and the visitor taps again)."""
            until(tap, "a seat to act on the tablet", timeout=120)
            msg = until(lambda: tablet.locator("#msg").inner_text(), "the tablet's answer")
            return bool(re.search(r": (check|call)$", msg))

        until(accepted, "a tap to be taken")
        first = [s for s, _, b in d.entries() if b.get("source") == "tablet"][-1]
        seat = d.entries(first - 1)[0][2]["seat"]
        # The bots play on from it: the next actions come from the simulator, with no new setup.
        until(lambda: any(b.get("source") == "simulator" and b["type"] == "action" and b["seat"] != seat
                          for _, _, b in d.entries(first)), "a bot to act after the tap")
        assert [k for _, k, _ in d.entries(first) if k == "setup"] == [], (d.entries(first - 12), d.stop())
        shot(tablet, "demo-tablet-play-along")
        out = d.stop()
        assert "action(s) from the tablet" in out and "dealt again" not in out, out
    finally:
        ctx.close()
        if d.proc.poll() is None:
            d.proc.kill()
            d.proc.wait(timeout=30)
