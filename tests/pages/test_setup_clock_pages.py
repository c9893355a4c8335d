"""Setup and table clock pages in Chromium, against the real server."""

from __future__ import annotations

import re
from typing import Any

import live_helpers as H
from page_helpers import BROADCAST, LiveTable, shot
from playwright.sync_api import expect


def open_setup(context: Any, table: LiveTable) -> Any:
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{table.url}/setup?token={H.DEALER}")
    expect(page.locator("#conn")).to_have_text("Live")
    return page


def seat_row(page: Any, seat: int) -> Any:
    return page.locator(f'#seat-rows tr[data-seat="{seat}"]')


def test_setup_page_saves_players_stacks_and_blinds_between_hands(context: Any, table: LiveTable) -> None:
    page = open_setup(context, table)
    # The form starts from the server's setup.
    expect(seat_row(page, 1).locator(".name")).to_have_value("Ann")
    expect(seat_row(page, 3).locator(".stack")).to_have_value("1000")
    expect(page.locator("#sb")).to_have_value("5")
    expect(page.locator("#running")).to_be_visible()  # hand 1 was dealt in at start

    # A seat with a player but no stack is caught on the page, pointing at the field.
    seat_row(page, 5).locator(".name").fill("Dee")
    page.click("#save-setup")
    expect(page.locator("#setup-msg")).to_have_text("seat 5: enter a stack of at least 1 chip")
    expect(seat_row(page, 5).locator(".stack")).to_have_class("stack bad-field")

    seat_row(page, 5).locator(".stack").fill("1500")
    page.select_option("#profile", "roberts")
    page.fill("#sb", "25")
    page.fill("#bb", "50")
    page.select_option("#button", "3")
    # While the hand runs the server refuses, naming the rule (BET-TABLE-STAKES).
    page.click("#save-setup")
    expect(page.locator("#setup-msg")).to_contain_text("BET-TABLE-STAKES")
    shot(page, "setup-refused-while-hand-runs", full_page=True)

    page.check("#void-hand")
    page.click("#save-setup")
    expect(page.locator("#setup-msg")).to_contain_text("Saved")
    status, body = table.request("GET", "/api/setup")
    assert status == 200
    setup = body["setup"]
    assert setup["profile"] == "roberts" and setup["blinds"] == [25, 50] and setup["button"] == 3
    assert setup["seats"] == {"1": 1000, "2": 1000, "3": 1000, "5": 1500}
    assert setup["names"]["5"] == "Dee"
    shot(page, "setup", full_page=True)


def test_clock_page_shows_level_blinds_time_left_and_next_level(context: Any, table: LiveTable) -> None:
    setup = open_setup(context, table)
    # Enter a two-level structure on the setup page.
    rows = setup.locator("#level-rows tr")
    first = rows.nth(0)
    first.locator(".small_blind").fill("25")
    first.locator(".big_blind").fill("50")
    first.locator(".minutes").fill("20")
    setup.click("#add-level")
    second = rows.nth(1)
    expect(second.locator(".big_blind")).to_have_value("100")  # the next level doubles by default
    second.locator(".ante").fill("10")
    setup.click("#save-levels")
    expect(setup.locator("#levels-msg")).to_contain_text("Saved 2 levels")

    # The clock on a wall screen; this browser holds the dealer token, so the controls show.
    clock = context.new_page()
    clock.set_viewport_size(BROADCAST)
    clock.goto(f"{table.url}/clock")
    expect(clock.locator("#controls")).to_be_visible()
    expect(clock.locator("#level")).to_have_text("Level 1")
    expect(clock.locator("#blinds")).to_have_text("25 / 50")
    expect(clock.locator("#next")).to_contain_text("50 / 100")
    expect(clock.locator("#next")).to_contain_text("ante 10")
    expect(clock.locator("#state")).to_have_text("Paused")
    clock.click("#toggle")  # start
    expect(clock.locator("#toggle")).to_have_text("Pause")
    # Running; with hand 1 still going the new level may wait for the next hand (TABLE-LEVELS).
    expect(clock.locator("#state")).to_have_text(re.compile(r"^(|New level from the next hand)$"))
    # The server's clock is frozen in this test, so the time left is exactly the level's 20 minutes.
    expect(clock.locator("#time")).to_have_text("20:00")
    shot(clock, "clock")

    clock.click('[data-clock="next"]')
    expect(clock.locator("#level")).to_have_text("Level 2")
    expect(clock.locator("#blinds")).to_have_text("50 / 100")
    expect(clock.locator("#ante")).to_have_text("10")
    expect(clock.locator("#next")).to_have_text("Last level")
    assert table.request("GET", "/api/clock", token=None)[1]["level"] == 2


def test_clock_without_a_token_is_read_only(context: Any, table: LiveTable) -> None:
    status, _ = table.request("POST", "/api/clock", {"action": "set_levels", "levels": [
        {"small_blind": 100, "big_blind": 200, "ante": 25, "minutes": 30}]})
    assert status == 200
    page = context.new_page()
    page.goto(f"{table.url}/clock")
    expect(page.locator("#blinds")).to_have_text("100 / 200")
    expect(page.locator("#ante")).to_have_text("25")
    expect(page.locator("#time")).to_have_text("30:00")
    expect(page.locator("#controls")).to_be_hidden()
