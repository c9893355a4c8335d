"""The stream overlays in Chromium: hole cards only where the role allows, pots, winners, transparency."""

from __future__ import annotations

import re
from typing import Any

import live_helpers as H
from page_helpers import BROADCAST, LiveTable, close_holding_state, face_cards, open_holding_state, shot
from playwright.sync_api import expect

from dealer_pi.engine.cards import FULL_DECK

FIRST_HOLES = H.hole_cards_of_first_hand()
HOLE_CODES = sorted(c for cards in FIRST_HOLES.values() for c in cards)
FELT = "radial-gradient(ellipse at 50% 40%, #2f6f4c 0%, #0f2a1c 80%)"


def open_overlay(context: Any, table: LiveTable, live: bool) -> Any:
    page = context.new_page()
    page.set_viewport_size(BROADCAST)
    page.goto(f"{table.url}/overlay/live?token={H.PRODUCER}" if live else f"{table.url}/overlay")
    return page


def broadcast_shots(page: Any, name: str) -> None:
    """The real, transparent frame, plus a preview of it over a felt-coloured backdrop."""
    shot(page, name, omit_background=True)
    # Through the CSSOM: the pages' Content-Security-Policy refuses an injected <style> element.
    page.evaluate("felt => document.documentElement.style.setProperty('background', felt, 'important')", FELT)
    shot(page, f"{name}-preview")


def test_public_overlay_has_no_hole_cards_before_the_delay_and_the_live_overlay_does(context: Any, table: LiveTable) -> None:
    public = open_overlay(context, table, live=False)
    live = open_overlay(context, table, live=True)
    expect(live.locator("#mode")).to_have_text("LIVE")
    expect(public.locator("#mode")).to_have_text("DELAY 5:00")

    deck = [str(c) for c in FULL_DECK]
    table.feed(H.hole_deal(deck, [2, 3, 1]))
    table.feed([{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
                {"type": "action", "seat": 3, "action": "check"}])
    flop = H.street(deck, 3)
    burn = flop[0]["card"]
    board = [o["card"] for o in flop if o.get("zone") == "board"]
    table.feed(flop)

    # The producer's view: every hole card at once, the board, never the burn (DEAL-NO-RABBIT).
    expect(live.locator(".pbar .card[data-card]")).to_have_count(6)
    expect(live.locator("#board .card[data-card]")).to_have_count(3)
    assert sorted(face_cards(live, ".players")) == HOLE_CODES
    assert face_cards(live, "#board") == board
    assert burn not in face_cards(live)
    broadcast_shots(live, "overlay-live-flop")

    # The public view has nothing of this hand yet: the server holds it back for the delay.
    expect(public.locator("#waiting")).to_be_visible()
    assert face_cards(public) == []
    assert public.locator(".pbar").count() == 0
    broadcast_shots(public, "overlay-public-before-delay")

    # Once the delay has passed the public stream gets the hand as it was, hole cards included.
    table.pass_delay()
    # Released in the order they happened: the deal, then the flop, each drawn as it arrives.
    expect(public.locator(".pbar .card[data-card]")).to_have_count(6)
    expect(public.locator("#board .card[data-card]")).to_have_count(3)
    assert sorted(face_cards(public, ".players")) == HOLE_CODES
    assert face_cards(public, "#board") == board
    assert burn not in face_cards(public)
    expect(public.locator("#waiting")).to_be_hidden()
    broadcast_shots(public, "overlay-public-after-delay")


def test_overlay_shows_side_pots_and_the_winner_of_each_pot(context: Any, table: LiveTable) -> None:
    """Bob is all-in for 300 of 1000: a main pot of 900 and a side pot of 1400, won by different players (POT-SIDE)."""
    status, body = table.request("POST", "/api/setup?void_hand=1", {
        "profile": "standard", "blinds": [5, 10], "seats": {"1": 1000, "2": 300, "3": 1000},
        "names": {"1": "Ann", "2": "Bob", "3": "Cy"}, "button": 1})
    assert status == 200, body
    live = open_overlay(context, table, live=True)

    deck = ["As", "Ad", "Kc", "Kd", "2h", "7c", "3c", "Qs", "Jh", "9c", "4d", "5h", "4s", "8d"]
    holes = {2: ["As", "Kd"], 3: ["Ad", "2h"], 1: ["Kc", "7c"]}
    table.feed(H.hole_deal(deck, [2, 3, 1]))
    table.feed([{"type": "action", "seat": 1, "action": "all-in"}, {"type": "action", "seat": 2, "action": "call"},
                {"type": "action", "seat": 3, "action": "call"}])
    table.feed(H.street(deck, 3))
    expect(live.locator("#board .card[data-card]")).to_have_count(3)
    # All three are all-in: the pots are split at Bob's 300 (900) and the rest (1400).
    expect(live.locator(".pot-chip")).to_have_count(2)
    expect(live.locator(".pot-chip").nth(0)).to_contain_text("900")
    expect(live.locator(".pot-chip").nth(1)).to_contain_text("1,400")
    expect(live.locator('.pbar[data-seat="2"] .paction')).to_have_text("ALL-IN")
    broadcast_shots(live, "overlay-live-all-in")

    table.feed(H.street(deck, 1) + H.street(deck, 1))
    for seat, cards in holes.items():  # all-in hands are turned up (POT-ALL-IN-SHOW)
        table.feed([{"type": "card_seen", "zone": f"seat:{seat}", "face_up": True, "card": c, "source": "camera"}
                    for c in cards])

    rows = live.locator(".win-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("MAIN POT")
    expect(rows.nth(0).locator(".win-name")).to_have_text("Bob wins")
    expect(rows.nth(0).locator(".win-amt")).to_have_text("900")
    expect(rows.nth(1)).to_contain_text("SIDE POT 1")
    expect(rows.nth(1).locator(".win-name")).to_have_text("Cy wins")
    expect(rows.nth(1).locator(".win-amt")).to_have_text("1,400")
    expect(rows.nth(0).locator(".win-hand")).to_have_text("High card, Ace")
    expect(live.locator('.pbar[data-seat="2"]')).to_have_class(re.compile(r"\bwon\b"))
    expect(live.locator('.pbar[data-seat="2"] .paction')).to_have_text("WINS 900")
    expect(live.locator('.pbar[data-seat="1"] .pstack')).to_have_text("0")
    assert sorted(face_cards(live, ".players")) == sorted(c for cards in holes.values() for c in cards)
    broadcast_shots(live, "overlay-live-showdown")


def test_overlay_page_is_transparent_for_a_browser_source(context: Any, table: LiveTable) -> None:
    page = open_overlay(context, table, live=False)
    expect(page.locator("#bug")).to_be_visible()
    backgrounds = page.evaluate(
        "[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]")
    assert backgrounds == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    assert page.evaluate("[document.body.scrollWidth, document.body.scrollHeight]") == [1920, 1080]
    # A transparent screenshot keeps its alpha: the top-right corner, where nothing is drawn, is empty.
    png = page.screenshot(omit_background=True, clip={"x": 1700, "y": 300, "width": 4, "height": 4})
    assert b"IDAT" in png and _alpha_is_zero(png)


def _alpha_is_zero(png: bytes) -> bool:
    """Decode a tiny RGBA PNG with the standard library and check every alpha byte is 0."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, colour = 8, b"", 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, _, _, colour = struct.unpack(">IIBB", data[:10])
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    assert colour == 6, "an RGBA image is expected from a transparent page"
    raw = zlib.decompress(idat)
    stride = 1 + 4 * width
    rows = [raw[i:i + stride] for i in range(0, len(raw), stride)]
    # filter bytes aside, a fully transparent image has alpha 0 in every pixel whatever the filter
    return all(row[1 + 3::4] == b"\x00" * width for row in rows)


def test_overlay_reloaded_mid_street_keeps_last_actions_blinds_and_card_counts(context: Any, table: LiveTable) -> None:
    """The overlay's "CALL 35", SB/BB badges and card backs come from the snapshot: a reload in the
    middle of a betting round (no events seen on this page) shows them all the same."""
    deck = [str(c) for c in FULL_DECK]
    table.feed(H.hole_deal(deck, [2, 3, 1]))
    table.feed([{"type": "action", "seat": 1, "action": "raise", "amount": 35},
                {"type": "action", "seat": 2, "action": "call", "amount": 35}])
    live = open_overlay(context, table, live=True)
    expect(live.locator('.pbar[data-seat="1"] .paction')).to_have_text("RAISE TO 35")
    expect(live.locator('.pbar[data-seat="2"] .paction')).to_have_text("CALL 35")
    expect(live.locator('.pbar[data-seat="3"] .paction')).to_have_text("TO ACT")
    expect(live.locator('.pbar[data-seat="2"] .badge.sb')).to_have_count(1)
    expect(live.locator('.pbar[data-seat="3"] .badge.bb')).to_have_count(1)
    live.reload()
    expect(live.locator('.pbar[data-seat="2"] .paction')).to_have_text("CALL 35")
    broadcast_shots(live, "overlay-live-reloaded-mid-street")

    # The public overlay opened once the delay has passed: the same, from its delayed snapshot.
    table.pass_delay()
    public = open_overlay(context, table, live=False)
    expect(public.locator('.pbar[data-seat="2"] .paction')).to_have_text("CALL 35")
    expect(public.locator('.pbar[data-seat="2"] .badge.sb')).to_have_count(1)


def test_a_late_state_answer_never_overwrites_a_newer_streamed_table(context: Any, table: LiveTable) -> None:
    """The page's own GET of /api/state can be answered after the stream has already shown a newer table
    (two connections, no order between them): the older snapshot must not wind the board back."""
    status, body = table.request("POST", "/api/setup?void_hand=1", {
        "profile": "standard", "blinds": [5, 10], "seats": {"1": 1000, "2": 1000, "3": 1000},
        "names": {"1": "Ann", "2": "Bob", "3": "Cy"}, "button": 1})
    assert status == 200, body
    deck = ["As", "Ad", "Kc", "Kd", "2h", "7c", "3c", "Qs", "Jh", "9c"]
    table.feed(H.hole_deal(deck, [2, 3, 1]))
    table.feed([{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
                {"type": "action", "seat": 3, "action": "check"}])

    page = context.new_page()
    page.set_viewport_size(BROADCAST)
    held = open_holding_state(page, f"{table.url}/overlay/live?token={H.PRODUCER}")  # answers taken before the flop

    table.feed(H.street(deck, 3))
    expect(page.locator("#board .card[data-card]")).to_have_count(3)  # from the stream alone

    stale_route, stale_answer = held.pop(0)
    stale = stale_answer.json()
    assert stale["table"]["hand"]["board"] == [], "the held answer must describe the table before the flop"
    stale_route.fulfill(response=stale_answer)
    page.wait_for_timeout(300)
    expect(page.locator("#board .card[data-card]")).to_have_count(3)
    assert face_cards(page, "#board") == ["Qs", "Jh", "9c"]
    close_holding_state(page, held)
