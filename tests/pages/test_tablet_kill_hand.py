"""The dealer tablet kills a hand (POT-DEAD-HAND) and enters a second forward motion (BET-STRING)."""

from __future__ import annotations

import json
import re
from typing import Any

import live_helpers as H
from page_helpers import LiveTable, deal_hole_cards, face_cards, open_tablet, shot
from playwright.sync_api import expect

from dealer_pi.engine.observations import KILL_RULES, KillReason

CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])[cdhs]\b")
HOLE_CODES = sorted(c for cards in H.hole_cards_of_first_hand().values() for c in cards)


def seats(table: LiveTable) -> dict[str, Any]:
    return table.state()["table"]["table"]["seats"]  # type: ignore[no-any-return]


def hand(table: LiveTable) -> dict[str, Any]:
    return table.state()["table"]["hand"]  # type: ignore[no-any-return]


def journal(table: LiveTable) -> list[dict[str, Any]]:
    """Every event the table recorded, oldest first (the journal itself, not a view of it)."""
    return [e.to_dict()["event"] for e in table.runtime.journal.events_after(0)]


def big_enough(page: Any, selector: str) -> None:
    """Every element ``selector`` matches is a finger's target: at least 44 px each way."""
    boxes = page.eval_on_selector_all(selector, "els => els.map(e => e.getBoundingClientRect())"
                                                ".map(r => [r.width, r.height])")
    assert boxes, selector
    for w, h in boxes:
        assert w >= 44 and h >= 44, (selector, w, h)


def test_POT_DEAD_HAND_clock_kill_from_the_tablet_folds_the_seat_and_returns_its_uncalled_raise(
        context: Any, table: LiveTable) -> None:
    tablet = open_tablet(context, table)
    # While the hole cards are dealt nobody bets: no hand can be killed yet, as no action can be entered.
    expect(tablet.locator("#turn-name")).to_have_text("Dealing hole cards…")
    expect(tablet.locator("#kill-open")).to_be_disabled()
    deal_hole_cards(table)
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")
    expect(tablet.locator("#kill-open")).to_be_enabled()

    # Ann raises to 35 and nobody has called it: Bob is to act.
    tablet.click('.size[data-size="pot"]')
    expect(tablet.locator("#amount")).to_have_text("35")
    tablet.click("#raise-btn")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    assert (seats(table)["1"]["bet"], seats(table)["1"]["stack"]) == (35, 965)

    tablet.click("#kill-open")
    sheet = tablet.locator("#kill")
    expect(sheet).to_be_visible()
    # Every seat still in the hand, the seat to act chosen first.
    expect(sheet.locator('input[name="kill-seat"]')).to_have_count(3)
    expect(sheet.locator('input[name="kill-seat"]:checked')).to_have_value("2")
    expect(sheet.locator('label:has(input[name="kill-seat"][value="2"])')).to_contain_text("to act")
    # Every reason the engine knows, in the dealer's words, with the rule the journal will cite.
    reasons = sheet.locator('input[name="kill-reason"]')
    expect(reasons).to_have_count(len(KillReason))
    for reason in KillReason:
        choice = sheet.locator(f'label:has(input[name="kill-reason"][value="{reason.value}"])')
        expect(choice).to_contain_text(f"({KILL_RULES[reason]})")
        expect(choice.locator("input")).to_have_attribute("data-rule", KILL_RULES[reason])
    expect(sheet.locator('label:has(input[value="clock"])')).to_have_text("Clock ran out (BET-CLOCK)")
    expect(sheet.locator('input[name="kill-reason"]:checked')).to_have_count(0)  # no reason is chosen for the dealer
    big_enough(tablet, "#kill .choice:not([hidden])")
    big_enough(tablet, "#kill-ok, #kill-cancel, #kill-open")

    # No reason chosen: the sheet asks for one and sends nothing.
    before = table.state()["last_event_id"]
    tablet.click("#kill-ok")
    expect(tablet.locator("#kill-hint")).to_have_text("Choose why the hand is dead")
    expect(sheet).to_be_visible()

    # Ann's hand: her clock ran out.
    sheet.locator('label:has(input[name="kill-seat"][value="1"])').click()
    sheet.locator('label:has(input[value="clock"])').click()
    expect(sheet.locator('input[name="kill-seat"]:checked')).to_have_value("1")
    shot(tablet, "dealer-tablet-kill-hand")
    tablet.click("#kill-ok")
    # It cannot be taken back but by Undo: one more step, which names the seat and the rule.
    confirm = tablet.locator("#confirm")
    expect(confirm).to_be_visible()
    expect(sheet).to_be_hidden()
    expect(tablet.locator("#confirm-text")).to_contain_text("seat 1 (Ann)")
    expect(tablet.locator("#confirm-text")).to_contain_text("Clock ran out (BET-CLOCK)")
    expect(tablet.locator("#confirm-yes")).to_have_text("Kill the hand")
    assert table.state()["last_event_id"] == before
    tablet.click("#confirm-yes")
    expect(tablet.locator("#msg")).to_have_text("Ann's hand is dead: clock ran out (BET-CLOCK)")
    expect(tablet.locator("#msg")).to_have_class("msg ok")

    # The journal: the hand killed under BET-CLOCK, the 25 nobody called back to Ann, her hand folded.
    recorded = journal(table)
    assert {"type": "hand_killed", "seat": 1, "rule": "BET-CLOCK", "reason": "clock"} in recorded
    assert {"type": "uncalled_bet_returned", "seat": 1, "amount": 25, "rule": "POT-DEAD-HAND"} in recorded
    fold = [e for e in recorded if e["type"] == "bet_placed" and e["seat"] == 1][-1]
    assert fold["action"] == "fold"
    # The state: Ann folded with 990 (only her big-blind-sized call stays in), Bob to act facing the blind again.
    after = seats(table)
    assert after["1"]["folded"] is True and (after["1"]["bet"], after["1"]["stack"]) == (10, 990)
    assert hand(table)["to_act"] == 2 and hand(table)["legal"]["current_bet"] == 10
    expect(tablet.locator('.seat[data-seat="1"]')).to_have_class(re.compile(r"\bfolded\b"))
    expect(tablet.locator('.seat[data-seat="1"] .seat-stack')).to_have_text("990")
    expect(tablet.locator("#to-call")).to_have_text("5")
    assert face_cards(tablet) == []

    # A dead hand is no longer offered.
    tablet.click("#kill-open")
    expect(sheet.locator('input[name="kill-seat"]')).to_have_count(2)
    expect(sheet.locator('input[name="kill-seat"][value="1"]')).to_have_count(0)
    tablet.click("#kill-cancel")
    expect(sheet).to_be_hidden()

    # Undo takes the kill back: Ann's raise stands again.
    tablet.click("#undo")
    expect(tablet.locator("#msg")).to_have_text("Last entry undone")
    expect(tablet.locator('.seat[data-seat="1"] .seat-stack')).to_have_text("965")
    assert seats(table)["1"]["folded"] is False and seats(table)["1"]["bet"] == 35

    # Between hands there is nothing to kill.
    table.feed([{"type": "action", "seat": 2, "action": "fold"}, {"type": "action", "seat": 3, "action": "fold"}])
    expect(tablet.locator("#turn-name")).to_have_text("Between hands")
    expect(tablet.locator("#kill-open")).to_be_disabled()


def test_POT_DEAD_HAND_kill_sheet_fits_an_upright_tablet(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    tablet.set_viewport_size({"width": 800, "height": 1280})
    expect(tablet.locator("#kill-open")).to_be_in_viewport(ratio=1)
    tablet.click("#kill-open")
    for selector in ("#kill-ok", "#kill-cancel", 'label:has(input[value="dealer-kill"])'):
        expect(tablet.locator(selector)).to_be_in_viewport(ratio=1)
    big_enough(tablet, "#kill .choice:not([hidden])")
    shot(tablet, "dealer-tablet-kill-hand-portrait")


def test_DEAL_PLAYER_EXPOSED_the_kill_sheet_offers_a_deliberate_show_only_where_the_rules_kill_for_it(
        context: Any, table: LiveTable) -> None:
    deliberate = '#kill label:has(input[value="deliberate-show"])'
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    # Standard rules: a card shown on purpose leaves the hand in play (000 §40), so it is no choice.
    assert "deliberate-show" not in table.state()["table"]["table"]["kill_reasons"]
    tablet.click("#kill-open")
    expect(tablet.locator(deliberate)).to_be_hidden()
    expect(tablet.locator('#kill label:has(input[value="clock"])')).to_be_visible()
    tablet.click("#kill-cancel")
    # The house's rules kill it, half the pot the penalty (002 §6.8): the choice is there.
    status, _ = table.request("POST", "/api/setup?void_hand=1", dict(H.SETUP, profile="house-pig"))
    assert status == 200
    assert "deliberate-show" in table.state()["table"]["table"]["kill_reasons"]
    deal_hole_cards(table)
    expect(tablet.locator("#kill-open")).to_be_enabled()
    tablet.click("#kill-open")
    expect(tablet.locator(deliberate)).to_be_visible()


def test_POT_DEAD_HAND_refusals_show_the_rule_and_never_a_card(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    # The server has the last word: a kill the rules refuse (here a deliberate show under the standard
    # rules, 000 §40, sent as an older tablet would) is refused, and the tablet shows why.
    before = table.state()["last_event_id"]
    context.route("**/api/observations", lambda route: route.continue_(
        post_data=route.request.post_data.replace('"clock"', '"deliberate-show"')))
    tablet.click("#kill-open")
    tablet.locator('#kill label:has(input[value="clock"])').click()
    tablet.click("#kill-ok")
    tablet.click("#confirm-yes")
    expect(tablet.locator("#msg")).to_contain_text("DEAL-PLAYER-EXPOSED")
    expect(tablet.locator("#msg")).to_contain_text("stays in play")
    expect(tablet.locator("#msg")).to_have_class("msg bad")
    assert table.state()["last_event_id"] == before and seats(table)["1"]["folded"] is False

    # A refusal that names cards (as some engine messages can) is shown without them.
    context.unroute("**/api/observations")
    leak = "seat 1 has no live hand to kill: it holds " + " ".join(HOLE_CODES[:2]) + ", 10h and the burn Td"
    context.route("**/api/observations", lambda route: route.fulfill(
        status=409, content_type="application/json",
        body=json.dumps({"error": {"kind": "rule", "rule": "POT-DEAD-HAND", "message": leak}})))
    tablet.click("#kill-open")
    tablet.locator('#kill label:has(input[value="clock"])').click()
    tablet.click("#kill-ok")
    tablet.click("#confirm-yes")
    expect(tablet.locator("#msg")).to_have_text(
        "POT-DEAD-HAND: seat 1 has no live hand to kill: it holds a card a card, a card and the burn a card")
    assert not CARD_CODE.search(tablet.locator("#msg").inner_text())


def test_BET_STRING_second_motion_completes_a_raise_said_without_an_amount(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")

    # Ann says "raise" and pushes 30: a raise to 30 (BET-VERBAL); the turn moves on to Bob.
    tablet.click("#chips-open")
    tablet.fill("#chips-amount", "30")
    tablet.select_option("#chips-declared", "raise")
    tablet.click("#chips-ok")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    assert seats(table)["1"]["bet"] == 30

    # She brings 40 more in a second forward motion: the sheet offers the seat that just pushed.
    tablet.click("#chips-open")
    expect(tablet.locator("#chips-seat")).to_have_text("Bob")
    expect(tablet.locator("#chips-second-seat")).to_be_hidden()
    tablet.check("#chips-second")
    expect(tablet.locator("#chips-second-seat")).to_be_visible()
    expect(tablet.locator("#chips-second-seat")).to_have_value("1")
    expect(tablet.locator("#chips-seat")).to_have_text("Ann")
    expect(tablet.locator("#chips-declared")).to_be_hidden()  # what was said belongs to the first motion
    expect(tablet.locator("#chips-hint")).to_contain_text("BET-STRING")
    big_enough(tablet, "label:has(#chips-second), #chips-second-seat")  # the whole label is the checkbox's target
    tablet.fill("#chips-amount", "40")
    shot(tablet, "dealer-tablet-chips-second-motion")
    tablet.click("#chips-ok")
    expect(tablet.locator("#msg")).to_have_text("Ann: 40 more in a second motion")

    # One raise of both motions' chips: to 70; Bob faces 70 with his 5 in.
    after = seats(table)
    assert (after["1"]["bet"], after["1"]["stack"]) == (70, 930)
    assert after["1"]["last_action"] == {"action": "raise", "to": 70, "all_in": False}
    legal = hand(table)["legal"]
    assert hand(table)["to_act"] == 2 and legal["current_bet"] == 70 and legal["to_call"] == 65
    expect(tablet.locator("#to-call")).to_have_text("65")
    expect(tablet.locator('.seat[data-seat="1"] .seat-state')).to_have_text("RAISE TO 70")


def test_BET_STRING_second_motion_without_a_declared_raise_is_refused_on_the_tablet(
        context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    # Ann pushes 10 and says nothing: a call.
    tablet.click("#chips-open")
    tablet.fill("#chips-amount", "10")
    tablet.click("#chips-ok")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    before = table.state()["last_event_id"]

    # Then 20 more in a second motion: dismissed, its chips go back (000 §6).
    tablet.click("#chips-open")
    tablet.check("#chips-second")
    expect(tablet.locator("#chips-second-seat")).to_have_value("1")
    tablet.fill("#chips-amount", "20")
    tablet.click("#chips-ok")
    msg = tablet.locator("#msg")
    expect(msg).to_contain_text("BET-STRING")
    expect(msg).to_contain_text("a second forward motion is dismissed")
    expect(msg).to_have_class("msg bad")
    shot(tablet, "dealer-tablet-bet-string-refused")
    assert not CARD_CODE.search(msg.inner_text())
    assert face_cards(tablet) == []
    # Nothing was recorded: Ann's call stands, Bob is still to act.
    assert table.state()["last_event_id"] == before
    assert (seats(table)["1"]["bet"], seats(table)["1"]["stack"]) == (10, 990)
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")

    # The sheet forgets the second motion: the next chips are an ordinary entry for the seat to act.
    tablet.click("#chips-open")
    expect(tablet.locator("#chips-second")).not_to_be_checked()
    expect(tablet.locator("#chips-seat")).to_have_text("Bob")
    expect(tablet.locator("#chips-declared")).to_be_visible()
