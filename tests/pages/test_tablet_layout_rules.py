"""The tablet at 1280x800: controls always on screen, rule IDs open their text, blinds and clocks named."""

from __future__ import annotations

import re
from typing import Any

import live_helpers as H
from page_helpers import BROADCAST, LiveTable, open_tablet, shot
from playwright.sync_api import expect

from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.rule_catalogue import load_catalogue

BOTTOM = ["#undo", "#shot-clock", "#chips-open", "#kill-open", "#misdeal", "#new-hand"]
ACTIONS = ['.act[data-action="fold"]', '.act[data-action="call"]', "#raise-btn"]


def expose_hole_cards(table: LiveTable, count: int) -> None:
    """After the deal and one call, the camera sees ``count`` hole cards face up at the seats:
    one DEAL-PLAYER-EXPOSED alert each (information: they stay open until the dealer answers)."""
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1]))
    table.post({"type": "action", "seat": 1, "action": "call"})
    cards = [(seat, c) for seat, cs in H.hole_cards_of_first_hand().items() for c in cs][:count]
    for seat, card in cards:
        table.post({"type": "card_seen", "zone": f"seat:{seat}", "face_up": True, "card": card, "source": "camera"})
    assert len(table.state()["table"]["alerts"]) == count


def fully_on_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 and \
        box["x"] + box["width"] <= view["width"] and box["y"] + box["height"] <= view["height"]


def test_bottom_controls_stay_on_screen_with_five_open_alerts(context: Any, table: LiveTable) -> None:
    expose_hole_cards(table, 5)
    tablet = open_tablet(context, table)
    expect(tablet.locator(".alert")).to_have_count(5)
    expect(tablet.locator("#alerts-count")).to_have_text("5 open alerts, oldest first · scroll for more")
    shot(tablet, "dealer-tablet-five-alerts")
    for selector in BOTTOM + ACTIONS:
        assert fully_on_screen(tablet, selector), f"{selector} is not wholly inside 1280x800"
        # nothing lies on top of it either: the point a finger lands on is the button itself
        box = tablet.locator(selector).bounding_box()
        hit = tablet.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button')?.id || "
                              "document.elementFromPoint(x, y).closest('button')?.dataset.action",
                              [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert hit in (selector.lstrip("#"), selector.split('"')[1] if '"' in selector else None), (selector, hit)
    # The alerts scroll in their own area: the last one can be reached and answered.
    notices = tablet.locator("#notices")
    assert notices.evaluate("n => n.scrollHeight > n.clientHeight")
    last = tablet.locator(".alert").last
    last.scroll_into_view_if_needed()
    assert fully_on_screen(tablet, ".alert >> nth=-1")
    last.locator(".alert-btn.dismiss").click()
    expect(tablet.locator(".alert")).to_have_count(4)
    # and the bottom controls answer taps: Undo takes back the dismissal
    tablet.click("#undo")
    expect(tablet.locator("#msg")).to_have_text("Last entry undone")
    expect(tablet.locator(".alert")).to_have_count(5)


def test_bottom_controls_stay_on_screen_in_portrait_with_alerts(context: Any, table: LiveTable) -> None:
    expose_hole_cards(table, 3)
    tablet = open_tablet(context, table)
    tablet.set_viewport_size({"width": 800, "height": 1280})
    expect(tablet.locator(".alert")).to_have_count(3)
    for selector in BOTTOM + ACTIONS:
        assert fully_on_screen(tablet, selector), selector
    shot(tablet, "dealer-tablet-portrait-alerts")


def test_tapping_an_alerts_rule_id_shows_the_catalogue_text(context: Any, table: LiveTable) -> None:
    expose_hole_cards(table, 1)
    tablet = open_tablet(context, table)
    rule = load_catalogue().get("DEAL-PLAYER-EXPOSED")
    assert rule is not None
    tablet.locator('.alert[data-rule="DEAL-PLAYER-EXPOSED"] .rule').click()  # one tap
    sheet = tablet.locator("#rule-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.locator("#rule-id")).to_have_text("DEAL-PLAYER-EXPOSED")
    expect(sheet.locator("#rule-text")).to_have_text(rule.text)
    expect(sheet.locator("#rule-sources li")).to_have_count(len(rule.sources))
    expect(sheet.locator("#rule-sources li").first).to_contain_text("000 §40")
    expect(sheet.locator("#rule-more")).to_have_attribute("href", "/rules#DEAL-PLAYER-EXPOSED")
    shot(tablet, "dealer-tablet-rule-sheet")
    tablet.click("#rule-close")
    expect(sheet).to_be_hidden()
    # The alert is still there to be answered.
    expect(tablet.locator('.alert[data-rule="DEAL-PLAYER-EXPOSED"]')).to_be_visible()


def test_the_rules_page_jumps_to_a_rule_and_filters(context: Any, table: LiveTable) -> None:
    page = context.new_page()
    page.goto(f"{table.url}/rules/DEAL-BOARD-EXTRA")
    target = page.locator("#DEAL-BOARD-EXTRA")
    expect(target).to_be_in_viewport()
    expect(target).to_contain_text("Too many cards or no burn at turn or river")
    page.fill("#find", "rabbit")
    expect(page.locator(".rule-entry:visible")).to_have_count(1)
    expect(page.locator(".rule-entry:visible")).to_have_attribute("id", "DEAL-NO-RABBIT")
    shot(page, "rules-page")


def test_blinds_are_labelled_with_the_level_and_its_time_left(context: Any, table: LiveTable) -> None:
    levels = [{"small_blind": 5, "big_blind": 10, "ante": 0, "minutes": 20},
              {"small_blind": 10, "big_blind": 20, "ante": 5, "minutes": 20}]
    assert table.request("POST", "/api/clock", {"action": "set_levels", "levels": levels})[0] == 200
    tablet = open_tablet(context, table)
    expect(tablet.locator("#blinds")).to_have_text("Blinds 5 / 10")
    expect(tablet.locator("#level")).to_have_text("Level 1 20:00 paused")
    assert table.request("POST", "/api/clock", {"action": "start"})[0] == 200
    # The server's clock stands still in this test; the tablet counts down between its answers.
    expect(tablet.locator("#level")).to_have_text(re.compile(r"^Level 1 (20:00|19:5\d) left$"))
    shot(tablet, "dealer-tablet-blinds-level")

    # Level 2 on the clock: the hand being dealt keeps its blinds; the new ones come with the next hand.
    assert table.request("POST", "/api/clock", {"action": "next"})[0] == 200
    expect(tablet.locator("#level")).to_have_text(re.compile(r"^Level 2 (20:00|19:5\d) left$"))
    expect(tablet.locator("#level")).to_have_class(re.compile(r"\bpending\b"))
    expect(tablet.locator("#blinds")).to_have_text("Blinds 5 / 10")
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1]))
    for seat in (1, 2):
        table.post({"type": "action", "seat": seat, "action": "fold"})
    table.post({"type": "dealer", "declare": "new hand"})  # TABLE-LEVELS: the next hand at level 2
    expect(tablet.locator("#blinds")).to_have_text("Blinds 10 / 20 · Ante 5")
    expect(tablet.locator("#level")).not_to_have_class(re.compile(r"\bpending\b"))


def test_the_shot_clock_and_the_tournament_clock_are_named_apart(context: Any, table: LiveTable) -> None:
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1]))
    tablet = open_tablet(context, table)
    expect(tablet.locator("#shot-clock")).to_have_text("Shot clock")
    tablet.click("#shot-clock")
    expect(tablet.locator("#shot")).to_contain_text("Shot clock")
    expect(tablet.locator("#shot-clock")).to_have_text("Stop shot clock")
    expect(tablet.locator("#msg")).to_have_text("Shot clock called on seat 1 (BET-CLOCK)")

    clock = context.new_page()
    clock.set_viewport_size(BROADCAST)
    clock.goto(f"{table.url}/clock")
    assert clock.title().startswith("Tournament clock")
    expect(clock.locator(".clock-kind")).to_have_text("Tournament clock")
    expect(clock.locator("#shot")).to_have_text(re.compile(r"^Shot clock +Seat 1 +\d+s$"))

    setup = context.new_page()
    setup.goto(f"{table.url}/setup")
    nav = setup.locator(".setup-head nav a")
    expect(nav).to_have_text(["Dealer tablet", "Tournament clock", "Overlay", "Rules"])
    for page in (tablet, clock, setup):  # no bare "Clock" left to mean either
        assert not re.search(r"(?<![Ss]hot )(?<![Tt]ournament )\bClock\b", page.locator("body").inner_text())
