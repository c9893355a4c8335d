"""The dealer tablet in Chromium: action entry reaches the overlay, no hole card ever, alerts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import live_helpers as H
from page_helpers import BROADCAST, ChildServer, LiveTable, deal_hole_cards, face_cards, open_tablet, shot
from playwright.sync_api import expect

from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.engine.observations import ActionKind, PlayerAction

FIRST_HOLES = H.hole_cards_of_first_hand()  # {2: [...], 3: [...], 1: [...]}
HOLE_CODES = sorted(c for cards in FIRST_HOLES.values() for c in cards)


def seat_bar(overlay: Any, seat: int) -> Any:
    return overlay.locator(f'.pbar[data-seat="{seat}"]')


def test_tablet_actions_update_the_overlay(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    overlay = context.new_page()
    overlay.set_viewport_size(BROADCAST)
    overlay.goto(f"{table.url}/overlay/live?token={H.PRODUCER}")
    tablet.bring_to_front()  # a background tab gets few animation frames: clicks would crawl

    # The token came in the address once, was stored, and left the address bar.
    assert "token" not in tablet.url
    assert tablet.evaluate("localStorage.getItem('dealer-pi.token.dealer')") == H.DEALER

    # Preflop, button 1 of three: seat 1 acts first, 10 to call, min raise to 20 (BET-ORDER, BET-NL-MIN).
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")
    expect(tablet.locator("#to-call")).to_have_text("10")
    expect(tablet.locator("#min-to")).to_have_text("20")
    expect(tablet.locator("#max-to")).to_have_text("1,000")
    expect(tablet.locator('.act[data-action="check"]')).to_be_disabled()
    expect(seat_bar(overlay, 1)).to_have_class(re.compile(r"\bto-act\b"))
    shot(tablet, "dealer-tablet-preflop")
    tablet.set_viewport_size({"width": 800, "height": 1280})  # a tablet held upright
    expect(tablet.locator('.act[data-action="fold"]')).to_be_in_viewport()
    shot(tablet, "dealer-tablet-portrait")
    tablet.set_viewport_size({"width": 1280, "height": 800})

    # Seat 1 raises pot: 10 to match, pot 15 + the call 10 = 25 more, to 35 (BET-PL-MAX wording).
    tablet.click('.size[data-size="pot"]')
    expect(tablet.locator("#amount")).to_have_text("35")
    tablet.click("#raise-btn")
    expect(seat_bar(overlay, 1).locator(".pbet")).to_have_text("35")
    expect(seat_bar(overlay, 1).locator(".paction")).to_have_text("RAISE TO 35")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    expect(tablet.locator("#to-call")).to_have_text("30")

    # Seat 2 raises with the keypad; an amount under the minimum is refused on the tablet first.
    tablet.click("#keypad-open")
    for key in "50":
        tablet.click(f'.key[data-key="{key}"]')
    tablet.click("#keypad-ok")
    expect(tablet.locator("#keypad-hint")).to_contain_text("Below the minimum 60")
    tablet.click('.key[data-key="C"]')
    for key in "120":
        tablet.click(f'.key[data-key="{key}"]')
    tablet.click("#keypad-ok")
    expect(tablet.locator("#keypad")).to_be_hidden()
    expect(tablet.locator("#raise-btn")).to_have_text("Raise to 120")
    tablet.click("#raise-btn")
    expect(seat_bar(overlay, 2).locator(".pbet")).to_have_text("120")
    expect(seat_bar(overlay, 2).locator(".paction")).to_have_text("RAISE TO 120")

    # Seat 3 folds, seat 1 calls: the overlay shows both, and the flop is awaited.
    tablet.click('.act[data-action="fold"]')
    expect(seat_bar(overlay, 3)).to_have_class(re.compile(r"\bfolded\b"))
    expect(seat_bar(overlay, 3).locator(".paction")).to_have_text("FOLD")
    expect(tablet.locator("#call-amt")).to_have_text("85")
    tablet.click('.act[data-action="call"]')
    expect(overlay.locator(".pot-total .pot-amt")).to_have_text("250")
    expect(tablet.locator(".act[data-action]:enabled")).to_have_count(0)

    # What the tablet entered is what the server recorded.
    hand = table.state()["table"]["hand"]
    assert hand["pot_total"] == 250 and hand["to_act"] is None


def test_undo_and_misdeal_from_the_tablet(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    tablet.click('.act[data-action="call"]')
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    # The stream can show the turn pass before the call's answer comes back; until then the tablet
    # takes no other entry.
    expect(tablet.locator("body")).not_to_have_class(re.compile(r"\bbusy\b"))

    tablet.click("#undo")  # takes back the call
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")
    expect(tablet.locator("#msg")).to_have_text("Last entry undone")

    hand_before = table.state()["last_event_id"]
    assert [(h["hand"], h["result"]) for h in table.request("GET", "/api/hands")[1]["hands"]] == [(1, "running")]
    tablet.click("#misdeal")
    expect(tablet.locator("#confirm")).to_be_visible()
    expect(tablet.locator("#confirm-text")).to_contain_text("DEAL-MISDEAL-REMEDY")
    tablet.click("#confirm-yes")
    expect(tablet.locator("#msg")).to_have_text("Misdeal declared")
    assert table.state()["last_event_id"] > hand_before
    # The voided hand is closed in the journal and the redeal is running: dealt again, seat 1 acts again.
    status, hands = table.request("GET", "/api/hands")
    assert status == 200 and [(h["hand"], h["result"]) for h in hands["hands"]] == [(1, "misdeal"), (2, "running")]
    expect(tablet.locator("#turn-name")).to_have_text("Dealing hole cards…")
    deal_hole_cards(table)
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")


def test_a_tap_while_the_last_entry_is_on_its_way_is_said_to_be_dropped(context: Any, table: LiveTable) -> None:
    # A double tap must not enter a call twice, but a dealer whose tap is not taken is told so.
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    held: list[Any] = []
    tablet.route("**/observations", lambda route: held.append(route))
    tablet.click('.act[data-action="call"]')
    expect(tablet.locator("body")).to_have_class(re.compile(r"\bbusy\b"))
    tablet.click('.act[data-action="fold"]')
    expect(tablet.locator("#msg")).to_have_text("Still sending the last entry: tap again")
    assert len(held) == 1
    held[0].continue_()
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    expect(tablet.locator("body")).not_to_have_class(re.compile(r"\bbusy\b"))
    hand = table.state()["table"]["hand"]
    assert hand["to_act"] == 2 and hand["street"] == "preflop", hand  # the call went in, the fold did not


def test_dealer_tablet_never_shows_hole_cards(context: Any, table: LiveTable) -> None:
    """Hole cards are secrets: not in the tablet's DOM at any point of a hand (DEAL-NO-RABBIT too)."""
    tablet = open_tablet(context, table)
    deal_hole_cards(table)
    expect(tablet.locator(".seat-backs .card.back")).to_have_count(6)
    assert face_cards(tablet) == []

    # Play it down to the river: only board cards may have faces.
    deck = [str(c) for c in FULL_DECK][6:]
    table.feed([{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
                {"type": "action", "seat": 3, "action": "check"}])
    board: list[str] = []
    for n in (3, 1, 1):
        street = H.street(deck, n)
        board += [o["card"] for o in street if o.get("zone") == "board"]
        table.feed(street)
        expect(tablet.locator("#board .card[data-card]")).to_have_count(len(board))
        assert sorted(face_cards(tablet)) == sorted(board)
        html = tablet.content()
        for code in HOLE_CODES:
            assert f'data-card="{code}"' not in html
        table.feed([{"type": "action", "seat": s, "action": "check"} for s in (2, 3, 1)])
    shot(tablet, "dealer-tablet-river")


def test_dealer_tablet_renders_no_hole_cards_even_if_the_server_sent_some(context: Any, table: LiveTable) -> None:
    """Defence in depth: a snapshot that wrongly carries hole cards still draws only backs."""
    deal_hole_cards(table)
    leaked = table.state(H.PRODUCER)  # the producer's view: hole cards present
    assert leaked["hole_cards"]
    leaked["view"] = "dealer"
    body = json.dumps(leaked)
    context.route("**/api/state*", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    context.route("**/api/events*", lambda route: route.fulfill(
        status=200, content_type="text/event-stream", body=f"retry: 60000\nid: 1\nevent: state\ndata: {body}\n\n"))
    page = context.new_page()
    page.goto(f"{table.url}/dealer?token={H.DEALER}")
    expect(page.locator("#turn-name")).to_have_text("Seat 1 · Ann")
    expect(page.locator(".seat-backs .card.back")).to_have_count(6)
    assert face_cards(page) == []
    html = page.content()
    for code in HOLE_CODES:
        assert f'data-card="{code}"' not in html


def test_alerts_show_rule_verdict_remedy_and_are_confirmed_or_dismissed(context: Any, table: LiveTable) -> None:
    tablet = open_tablet(context, table)

    # DEAL-FIRST-EXPOSED: the first card of the deal lands face up at seat 2.
    table.feed([{"type": "shoe_draw", "card": "Ah", "source": "shoe"},
                {"type": "card_seen", "zone": "seat:2", "face_up": True, "card": "Ah", "source": "camera"}])
    alert = tablet.locator('.alert[data-rule="DEAL-FIRST-EXPOSED"]')
    expect(alert).to_be_visible()
    expect(alert.locator(".verdict")).to_have_text("misdeal")
    expect(alert.locator(".rule")).to_have_text("DEAL-FIRST-EXPOSED")
    expect(alert.locator(".remedy")).to_contain_text("reshuffle")
    shot(tablet, "dealer-tablet-alert")
    alert.locator(".alert-btn.confirm").click()
    expect(alert).to_have_count(0)
    expect(tablet.locator("#msg")).to_have_text("DEAL-FIRST-EXPOSED confirmed")
    # A confirmed misdeal voids the hand and the redeal starts (DEAL-MISDEAL-REMEDY).
    assert table.state()["table"]["alerts"] == []

    # DEAL-PLAYER-EXPOSED (information): seat 3 shows a card after the deal; the dealer dismisses it.
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1]))
    table.post({"type": "action", "seat": 1, "action": "call"})
    table.post({"type": "card_seen", "zone": "seat:3", "face_up": True, "card": "2d", "source": "camera"})
    info = tablet.locator('.alert[data-rule="DEAL-PLAYER-EXPOSED"]')
    expect(info).to_have_class("alert v-information")
    expect(info.locator(".remedy")).to_contain_text("hand stays live")
    info.locator(".alert-btn.dismiss").click()
    expect(info).to_have_count(0)
    assert table.state()["table"]["alerts"] == []


def test_tablet_shows_reconnecting_and_catches_up_after_a_crash(context: Any, tmp_path: Path) -> None:
    """The server process is killed; the page says so, and after the restart it shows the table as it is."""
    server = ChildServer(tmp_path / "child").start()
    try:
        server.set_up()
        # Six seats, button 1: hole cards from seat 2 round to seat 1, then seat 4 acts first (BET-ORDER).
        for obs in H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 4, 5, 6, 1]):
            server.post(obs)
        tablet = context.new_page()
        tablet.goto(f"{server.url}/dealer?token={H.DEALER}")
        expect(tablet.locator("#table-name")).to_have_text("Main event")
        expect(tablet.locator("#turn-name")).to_have_text("Seat 4")
        expect(tablet.locator("#conn")).to_have_text("Live")

        server.kill()
        expect(tablet.locator("#conn")).to_have_text("Reconnecting…")
        expect(tablet.locator(".offline-bar")).to_be_visible()
        shot(tablet, "dealer-tablet-reconnecting")

        server.start()  # same port, same journal: the table is replayed
        server.post({"type": "action", "seat": 4, "action": "call"})
        expect(tablet.locator("#conn")).to_have_text("Live", timeout=15000)
        expect(tablet.locator("#turn-name")).to_have_text("Seat 5")
    finally:
        server.kill()


def test_dealer_token_is_entered_once_and_a_wrong_one_is_refused(context: Any, table: LiveTable) -> None:
    page = context.new_page()
    page.goto(f"{table.url}/dealer")
    gate = page.locator("#token-gate")
    expect(gate).to_be_visible()
    expect(gate).to_contain_text("?token=")  # the page says how to pass the token
    shot(page, "dealer-token-entry")

    page.fill("#token-input", "not-the-token")
    page.click("#token-form button")
    expect(page.locator("#token-error")).to_contain_text("refused")
    expect(gate).to_be_visible()

    page.fill("#token-input", H.DEALER)
    page.click("#token-form button")
    expect(gate).to_be_hidden()
    expect(page.locator("#conn")).to_have_text("Live")
    page.reload()  # remembered by this browser
    expect(page.locator("#conn")).to_have_text("Live")
    expect(gate).to_be_hidden()

    # The dealer's token does not open the producer's live overlay (hole cards): asked for the producer's.
    overlay = context.new_page()
    overlay.goto(f"{table.url}/overlay/live?token={H.DEALER}")
    expect(overlay.locator("#token-error")).to_contain_text("refused")
    assert face_cards(overlay) == []


def test_new_hand_after_a_hand_is_won(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    tablet.click('.act[data-action="fold"]')
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    tablet.click('.act[data-action="fold"]')  # seat 2 folds too: Cy's big blind wins the pot uncalled
    expect(tablet.locator("#turn-name")).to_have_text("Between hands")
    # 15 in the middle; the 5 of the big blind nobody matched goes back first (BET-UNCALLED).
    expect(tablet.locator(".pot-award")).to_have_text("Main pot → Cy 10")
    expect(tablet.locator(".seat-backs")).to_have_count(0)
    shot(tablet, "dealer-tablet-hand-won")
    tablet.click("#new-hand")  # no confirmation needed between hands
    # The button moves to seat 2 (TABLE-BUTTON): once the cards are out, seat 2 acts first of three.
    expect(tablet.locator("#turn-name")).to_have_text("Dealing hole cards…")
    tablet.click("#cards-out")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    expect(tablet.locator('.seat[data-seat="2"] .badge.btn')).to_have_count(1)
    # Blinds left of the button (BET-BLINDS), read from the new hand's start on the stream.
    expect(tablet.locator('.seat[data-seat="3"] .badge.sb')).to_have_count(1)
    expect(tablet.locator('.seat[data-seat="1"] .badge.bb')).to_have_count(1)


def test_BET_CLOCK_called_from_the_tablet_counts_on_the_tablet_and_the_table_clock(context: Any, table: LiveTable) -> None:
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    clock = context.new_page()  # same browser profile: it holds the dealer token
    clock.goto(f"{table.url}/clock")
    tablet.bring_to_front()
    tablet.click("#shot-clock")
    expect(tablet.locator("#shot-left")).to_have_text(re.compile(r"^Seat 1 (30|29|28)s$"))
    expect(tablet.locator("#msg")).to_have_text("Shot clock called on seat 1 (BET-CLOCK)")
    assert table.request("GET", "/api/clock", token=None)[1]["shot_clock"]["seat"] == 1
    expect(clock.locator("#shot")).to_have_text(re.compile(r"^Shot clock +Seat 1 +\d+s$"))
    shot(tablet, "dealer-tablet-shot-clock")
    tablet.click("#shot-clock")  # stop it
    expect(tablet.locator("#shot")).to_be_hidden()
    expect(clock.locator("#shot")).to_be_hidden(timeout=15_000)
    assert table.request("GET", "/api/clock", token=None)[1]["shot_clock"] is None


def test_device_status_follows_the_shoe_and_the_camera(context: Any, table: LiveTable) -> None:
    table.runtime.devices.update("shoe", kind="serial", connected=True, state="connected", detail="/dev/ttyACM0")
    table.runtime.devices.update("camera", source="v4l2", fps=14.7, calibration="ok", dropped=0)
    tablet = open_tablet(context, table)
    expect(tablet.locator("#dev-shoe")).to_have_attribute("data-state", "ok")
    expect(tablet.locator("#dev-shoe b")).to_have_text("connected")
    expect(tablet.locator("#dev-camera b")).to_have_text("14.7 fps")
    expect(tablet.locator("#dev-calibration b")).to_have_text("ok")

    # The shoe is unplugged and the camera was knocked: the tablet says so without a reload.
    table.runtime.devices.update("shoe", connected=False, state="disconnected", detail="no heartbeat for 3 s")
    table.runtime.devices.update("camera", fps=0.0, calibration="moved")
    expect(tablet.locator("#dev-shoe b")).to_have_text("disconnected")
    expect(tablet.locator("#dev-shoe")).to_have_attribute("data-state", "bad")
    expect(tablet.locator("#dev-calibration")).to_have_attribute("data-state", "bad")
    expect(tablet.locator("#dev-camera")).to_have_attribute("data-state", "bad")


def test_DEAL_HOLE_EXPOSED_under_roberts_shows_the_replacement_procedure(context: Any, table: LiveTable) -> None:
    """Robert's rules (001): one exposed hole card is replaced after the deal and becomes the burn."""
    status, body = table.request("POST", "/api/setup?void_hand=1", dict(H.SETUP, profile="roberts"))
    assert status == 200, body
    tablet = open_tablet(context, table)
    table.feed([{"type": "shoe_draw", "card": "2c", "source": "shoe"},
                {"type": "card_seen", "zone": "seat:2", "face_up": False, "card": None, "source": "camera"},
                {"type": "shoe_draw", "card": "Kd", "source": "shoe"},
                {"type": "card_seen", "zone": "seat:3", "face_up": True, "card": "Kd", "source": "camera"}])
    alert = tablet.locator('.alert[data-rule="DEAL-HOLE-EXPOSED"]')
    expect(alert).to_have_class("alert v-irregularity")
    expect(alert.locator(".remedy")).to_contain_text("burn card")
    procedure = tablet.locator('.procedure[data-rule="DEAL-HOLE-EXPOSED"]')
    expect(procedure).to_contain_text("becomes the burn")
    shot(tablet, "dealer-tablet-procedure")
    alert.locator(".alert-btn.confirm").click()
    expect(alert).to_have_count(0)


def test_BET_OUT_OF_TURN_from_a_device_is_reported_on_the_tablet(context: Any, table: LiveTable) -> None:
    """A GPIO button or a sensor sends something the rules refuse: the tablet says so, nothing is recorded."""
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    before = table.state()["last_event_id"]
    table.runtime.put(PlayerAction(3, ActionKind.FOLD, source="buttons"))  # seat 1 is to act, not seat 3
    expect(tablet.locator("#msg")).to_contain_text("buttons: BET-OUT-OF-TURN")
    expect(tablet.locator("#msg")).to_have_class("msg bad")
    assert table.state()["last_event_id"] == before
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")


def test_tablet_opened_mid_deal_shows_blind_badges_and_the_cards_each_seat_holds(context: Any, table: LiveTable) -> None:
    """Opened after the hand started (no hand_started on its stream): the snapshot alone gives the
    SB/BB badges (BET-BLINDS) and one back per card at the seat, never which card (DEAL-HOLE-COUNT)."""
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1])[:8])  # seat 2: two cards, 3 and 1: one
    tablet = open_tablet(context, table)
    expect(tablet.locator('.seat[data-seat="1"] .badge.btn')).to_have_count(1)
    expect(tablet.locator('.seat[data-seat="2"] .badge.sb')).to_have_count(1)
    expect(tablet.locator('.seat[data-seat="3"] .badge.bb')).to_have_count(1)
    expect(tablet.locator('.seat[data-seat="2"] .seat-backs .card.back')).to_have_count(2)
    expect(tablet.locator('.seat[data-seat="3"] .seat-backs .card.back')).to_have_count(1)
    expect(tablet.locator('.seat[data-seat="1"] .seat-backs .card.back')).to_have_count(1)
    assert face_cards(tablet) == []
    shot(tablet, "dealer-tablet-mid-deal")
    table.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1])[8:])
    expect(tablet.locator(".seat-backs .card.back")).to_have_count(6)
    assert face_cards(tablet) == []


def test_BET_OVERSIZED_CHIP_and_BET_VERBAL_chips_entered_on_the_tablet(context: Any, table: LiveTable) -> None:
    """The dealer enters what was pushed (and said); the engine decides what it means."""
    deal_hole_cards(table)
    tablet = open_tablet(context, table)
    expect(tablet.locator("#turn-name")).to_have_text("Seat 1 · Ann")

    # One 100 chip, nothing said, facing the big blind preflop: a call (000 §11b), 90 goes back.
    tablet.click("#chips-open")
    expect(tablet.locator("#chips-seat")).to_have_text("Ann")
    tablet.fill("#chips-amount", "100")
    tablet.check("#chips-single")
    shot(tablet, "dealer-tablet-chips")
    tablet.click("#chips-ok")
    expect(tablet.locator("#msg")).to_have_text("Ann: 100 in one chip")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 2 · Bob")
    seats = table.state()["table"]["table"]["seats"]
    assert (seats["1"]["bet"], seats["1"]["stack"]) == (10, 990)
    assert seats["1"]["last_action"]["action"] == "call"

    # 40 in chips with "raise to 30" said: the words win (BET-VERBAL), a raise to 30.
    tablet.click("#chips-open")
    tablet.fill("#chips-amount", "40")
    tablet.select_option("#chips-declared", "raise")
    expect(tablet.locator("#chips-declared-amount")).to_be_visible()
    tablet.fill("#chips-declared-amount", "30")
    tablet.click("#chips-ok")
    expect(tablet.locator("#turn-name")).to_have_text("Seat 3 · Cy")
    seats = table.state()["table"]["table"]["seats"]
    assert (seats["2"]["bet"], seats["2"]["stack"]) == (30, 970)
    assert seats["2"]["last_action"] == {"action": "raise", "to": 30, "all_in": False}
    expect(tablet.locator('.seat[data-seat="2"] .seat-state')).to_have_text("RAISE TO 30")

    # Nothing entered: the sheet says so and posts nothing.
    before = table.state()["last_event_id"]
    tablet.click("#chips-open")
    tablet.click("#chips-ok")
    expect(tablet.locator("#chips")).to_be_visible()
    assert table.state()["last_event_id"] == before
    tablet.click("#chips-cancel")
    expect(tablet.locator("#chips")).to_be_hidden()
