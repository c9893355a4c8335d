"""The dealer tablet awards a pot at the showdown when no sensor read the tabled hands (POT-CARDS-SPEAK)."""

from __future__ import annotations

import re
from typing import Any

import live_helpers as H
from page_helpers import LiveTable, open_tablet
from playwright.sync_api import expect

CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])[cdhs]\b")


def counting_shoe_showdown() -> list[dict[str, Any]]:
    """The checked-down hand with a shoe that only counts, and at the showdown every hand turned up
    where the camera names no card: nothing says which cards they are."""
    obs = [dict(o, card=None) if o["type"] == "shoe_draw" else o for o in H.checked_down_hand()]
    for seat in (2, 3, 1):
        obs += [{"type": "card_seen", "zone": f"seat:{seat}", "face_up": True, "card": None, "source": "camera"}] * 2
    return obs


def test_POT_CARDS_SPEAK_the_dealer_awards_the_pot_of_a_hand_no_sensor_could_read(context: Any, table: LiveTable) -> None:
    tablet = open_tablet(context, table)
    expect(tablet.locator("#award-open")).to_be_hidden()  # no showdown yet
    table.feed(counting_shoe_showdown())
    hand = table.state()["table"]["hand"]
    assert hand["phase"] == "showdown" and not hand["awards"]
    status, body = table.request("POST", "/api/observations", {"type": "dealer", "declare": "new hand"})
    assert status == 409, body  # the hand waits for its pot

    expect(tablet.locator("#award-open")).to_be_visible()
    tablet.click("#award-open")
    sheet = tablet.locator("#award")
    expect(sheet).to_be_visible()
    expect(sheet.locator('input[name="award-pot"]')).to_have_count(1)
    expect(sheet.locator('input[name="award-pot"]:checked')).to_have_value("0")
    expect(sheet.locator('label:has(input[name="award-pot"])')).to_contain_text("30")
    expect(sheet.locator('input[name="award-seat"]')).to_have_count(3)
    assert not CARD_CODE.search(sheet.inner_text())

    # No seat chosen: the sheet asks for one and sends nothing.
    before = table.state()["last_event_id"]
    tablet.click("#award-ok")
    expect(tablet.locator("#award-hint")).to_have_text("Choose who wins it")
    assert table.state()["last_event_id"] == before

    # A split pot: Bob and Cy.
    tablet.check('input[name="award-seat"][value="2"]')
    tablet.check('input[name="award-seat"][value="3"]')
    tablet.click("#award-ok")
    expect(sheet).to_be_hidden()
    expect(tablet.locator("#msg")).to_contain_text("Main pot to seat 2 and seat 3")
    H.wait_for(lambda: table.state()["table"]["hand"]["awards"])
    [award] = table.state()["table"]["hand"]["awards"]
    assert award["pot"] == 0 and sorted(map(tuple, award["shares"])) == [(2, 15), (3, 15)]
    expect(tablet.locator("#award-open")).to_be_hidden()
    table.post({"type": "dealer", "declare": "new hand"})
