"""A fresh table waits for its setup; nobody acts while hole cards are dealt ('Cards are out' opens
the betting with no card sensor); the setup page's between-hands panel works on the live table."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import live_helpers as H
import pytest
from page_helpers import LiveTable, shot
from playwright.sync_api import expect

from dealer_pi.engine.cards import FULL_DECK


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[LiveTable]:
    t = LiveTable(tmp_path / "fresh", fresh=True)
    yield t
    t.close()


def open_page(context: Any, table: LiveTable, page: str) -> Any:
    p = context.new_page()
    p.goto(f"{table.url}/{page}?token={H.DEALER}")
    expect(p.locator("#conn")).to_have_text("Live")
    return p


def test_a_fresh_table_waits_for_its_setup_then_cards_out_opens_the_betting(browser: Any, fresh: LiveTable) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        tablet = open_page(context, fresh, "dealer")
        expect(tablet.locator("#turn-name")).to_have_text("No table yet")
        expect(tablet.locator("#no-table")).to_be_visible()
        expect(tablet.locator(".act[data-action]:enabled")).to_have_count(0)
        shot(tablet, "tablet-no-table-yet")

        setup = open_page(context, fresh, "setup")
        setup.set_viewport_size({"width": 1280, "height": 1000})
        expect(setup.locator("#no-table")).to_be_visible()
        expect(setup.locator('#seat-rows tr[data-seat="1"] .name')).to_have_value("Ann")  # the proposed table
        expect(setup.locator("#floor")).to_be_hidden()
        shot(setup, "setup-fresh-table", full_page=True)
        setup.click("#save-setup")
        expect(setup.locator("#setup-msg")).to_contain_text("Saved")
        expect(setup.locator("#no-table")).to_be_hidden()
        expect(setup.locator("#floor")).to_be_visible()

        # Hand 1 is dealt in: nobody acts until the hole cards are out. No sensor here: the dealer says so.
        tablet.bring_to_front()
        expect(tablet.locator("#hand-no")).to_have_text("1")
        expect(tablet.locator("#turn-name")).to_have_text("Dealing hole cards…")
        expect(tablet.locator(".act[data-action]:enabled")).to_have_count(0)
        expect(tablet.locator("#cards-out")).to_be_visible()
        shot(tablet, "tablet-dealing-hole-cards")
        tablet.click("#cards-out")
        expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")
        expect(tablet.locator("#cards-out")).to_be_hidden()
        expect(tablet.locator('.act[data-action="call"]')).to_be_enabled()
        assert fresh.state()["table"]["hand"]["to_act"] == 1
    finally:
        context.close()


def test_while_sensors_report_the_deal_the_buttons_stay_off(context: Any, table: LiveTable) -> None:
    tablet = open_page(context, table, "dealer")
    deal = H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1])
    table.feed(deal[:6])  # three of six hole cards seen
    hand = table.state()["table"]["hand"]
    assert (hand["phase"], hand["to_act"], hand["legal"]) == ("dealing", None, None)
    expect(tablet.locator("#turn-name")).to_have_text("Dealing hole cards…")
    expect(tablet.locator(".act[data-action]:enabled")).to_have_count(0)
    expect(tablet.locator("#to-call")).to_have_text("–")
    table.feed(deal[6:])  # the last card lands: the betting opens by itself
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")
    expect(tablet.locator("#cards-out")).to_be_hidden()


def test_between_hands_the_floor_panel_changes_the_live_table_entry_by_entry(context: Any, table: LiveTable) -> None:
    table.feed([{"type": "dealer", "declare": "cards out"}, {"type": "action", "seat": 1, "action": "fold"},
                {"type": "action", "seat": 2, "action": "fold"}])  # seat 3 (big blind) wins 5 from seat 2
    page = open_page(context, table, "setup")
    page.set_viewport_size({"width": 1280, "height": 1100})
    row = lambda seat: page.locator(f'#floor-rows tr[data-seat="{seat}"]')  # noqa: E731
    # The form and the panel start from the live table, not the setup it began with.
    expect(page.locator('#seat-rows tr[data-seat="2"] .stack')).to_have_value("995")
    expect(page.locator('#seat-rows tr[data-seat="3"] .stack')).to_have_value("1005")
    expect(row(2).locator("td").nth(2)).to_have_text("995")

    row(2).locator(".rebuy-amount").fill("500")
    row(2).locator(".rebuy").click()
    expect(page.locator("#floor-msg")).to_have_text("Seat 2: 500 added")
    expect(row(2).locator("td").nth(2)).to_have_text("1,495")

    row(5).locator(".new-name").fill("Dee")
    row(5).locator(".new-stack").fill("1500")
    row(5).locator(".seat-player").click()
    expect(row(5).locator("td").nth(1)).to_have_text("Dee")

    row(1).locator(".remove").click()
    expect(row(1).locator(".new-name")).to_be_visible()
    page.fill("#lv-sb", "25")
    page.fill("#lv-bb", "50")
    page.click("#set-level")
    expect(page.locator("#floor-msg")).to_have_text("From the next hand: 25 / 50")
    shot(page, "setup-between-hands", full_page=True)

    status, view = table.request("GET", "/api/setup")
    assert status == 200 and view["setup"]["seats"] == {"2": 1495, "3": 1005, "5": 1500}
    assert view["setup"]["blinds"] == [25, 50] and view["setup"]["names"]["5"] == "Dee"
    # Each change is its own journal entry; the table was never set up anew.
    kinds = [e.body.get("type") for e in table.runtime.journal.entries_after(0) if e.kind == "observation"]
    assert kinds[-4:] == ["rebuy", "seat_player", "remove_player", "level"]
    assert [e.kind for e in table.runtime.journal.entries_after(0)].count("setup") == 1

    # During a hand a rebuy is refused, naming the rule.
    table.feed([{"type": "dealer", "declare": "new hand"}])
    row(2).locator(".rebuy-amount").fill("100")
    row(2).locator(".rebuy").click()
    expect(page.locator("#floor-msg")).to_contain_text("BET-TABLE-STAKES")


def test_setup_refused_while_a_hand_runs_says_how_to_void_it(context: Any, table: LiveTable) -> None:
    page = open_page(context, table, "setup")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.click("#save-setup")
    expect(page.locator("#setup-msg")).to_contain_text("BET-TABLE-STAKES")
    expect(page.locator("#setup-msg")).to_contain_text("query parameter void_hand=1")
    status, body = table.request("POST", "/api/setup", H.SETUP)
    assert status == 409 and "POST /api/setup?void_hand=1" in body["error"]["message"]
