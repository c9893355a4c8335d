"""The stream's extras in Chromium at 1920x1080: win %, ticker, alert banner, element pages, replayer."""

from __future__ import annotations

from typing import Any

import live_helpers as H
from page_helpers import BROADCAST, LiveTable, shot
from playwright.sync_api import expect

from dealer_pi.engine.cards import FULL_DECK


def _to_flop(table: LiveTable) -> None:
    deck = [str(c) for c in FULL_DECK]
    table.feed(H.hole_deal(deck, [2, 3, 1]))
    table.feed([{"type": "action", "seat": 1, "action": "raise", "amount": 40}, {"type": "action", "seat": 2, "action": "call"},
                {"type": "action", "seat": 3, "action": "fold"}])
    table.feed(H.street(deck, 3))


def _page(context: Any, url: str) -> Any:
    page = context.new_page()
    page.set_viewport_size(BROADCAST)
    page.goto(url)
    return page


def test_live_overlay_shows_win_percent_and_the_ticker_the_public_one_only_after_the_delay(context: Any, table: LiveTable) -> None:
    live = _page(context, f"{table.url}/overlay/live?token={H.PRODUCER}")
    public = _page(context, f"{table.url}/overlay")
    _to_flop(table)
    expect(live.locator(".pbar .pequity")).to_have_count(2)  # the folded seat has none
    shares = [float(x) for x in live.eval_on_selector_all(".pequity", "els => els.map(e => e.dataset.equity)")]
    assert abs(sum(shares) - 1) < 1e-3
    expect(live.locator(".pbar.folded")).to_have_count(1)
    expect(live.locator(".tick.latest")).to_contain_text("Flop:")
    expect(live.locator("#ticker")).to_contain_text("Ann raises to 40")
    shot(live, "broadcast-live-flop-equity", omit_background=True)
    assert public.locator(".pequity").count() == 0 and public.locator(".tick").count() == 0
    table.pass_delay()
    expect(public.locator(".pbar .pequity")).to_have_count(2)
    shot(public, "broadcast-public-flop-equity-after-delay", omit_background=True)


def test_DEAL_FLOP_EXTRA_alert_banner_on_the_public_overlay_only_through_the_delay(context: Any, table: LiveTable) -> None:
    public = _page(context, f"{table.url}/overlay")
    live = _page(context, f"{table.url}/overlay/live?token={H.PRODUCER}")
    deck = [str(c) for c in FULL_DECK]
    table.feed(H.hole_deal(deck, [2, 3, 1]))
    table.feed([{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
                {"type": "action", "seat": 3, "action": "check"}])
    table.feed(H.street(deck, 4))  # a fourth card turned with the flop
    expect(live.locator("#banner")).to_be_visible()
    expect(live.locator("#banner-text")).to_contain_text("DEAL-")
    assert public.locator("#banner").is_hidden()
    table.pass_delay()
    expect(public.locator("#banner")).to_be_visible()
    shot(public, "broadcast-public-alert-banner", omit_background=True)


def test_element_pages_place_one_element_by_url_parameters(context: Any, table: LiveTable) -> None:
    _to_flop(table)
    bars = _page(context, f"{table.url}/overlay/live/bars?token={H.PRODUCER}&x=100&y=200&scale=1.5&accent=ff3366&bb=1")
    expect(bars.locator(".pbar")).to_have_count(3)
    box = bars.locator("#players").bounding_box()
    assert abs(box["x"] - 100) < 2 and abs(box["y"] - 200) < 2
    assert bars.locator("#board").is_hidden() and bars.locator("#bug").is_hidden()
    expect(bars.locator(".pbar").first.locator(".pstack")).to_contain_text("BB")
    shot(bars, "broadcast-element-bars", omit_background=True)
    score = _page(context, f"{table.url}/overlay/live/scoreboard?token={H.PRODUCER}")
    expect(score.locator(".sb-row")).to_have_count(3)
    shot(score, "broadcast-element-scoreboard", omit_background=True)
    ticker = _page(context, f"{table.url}/overlay/live/ticker?token={H.PRODUCER}&y=900")
    expect(ticker.locator(".tick.latest")).to_contain_text("Flop:")
    shot(ticker, "broadcast-element-ticker", omit_background=True)


def test_replayer_steps_through_a_finished_hand(context: Any, table: LiveTable) -> None:
    holes = H.hole_cards_of_first_hand()
    table.feed(H.checked_down_hand() + [
        {"type": "card_seen", "zone": f"seat:{s}", "face_up": True, "card": c, "source": "camera"}
        for s in (2, 3, 1) for c in holes[s]])
    page = context.new_page()
    page.set_viewport_size(BROADCAST)
    page.goto(f"{table.url}/replay?token={H.PRODUCER}")
    page.locator("#hands a").first.click()
    expect(page.locator("#step-text")).to_have_text("Hand 1")
    page.locator("#last").click()
    expect(page.locator("#board .card[data-card]")).to_have_count(5)
    expect(page.locator(".seat .equity").first).not_to_have_text("")
    assert page.locator("#link-phh").get_attribute("href").startswith("/api/replay/hands/1.phh")
    shot(page, "broadcast-replayer-river")
    public = context.new_page()
    public.goto(f"{table.url}/replay")
    expect(public.locator("#empty")).to_contain_text("No finished hand")
