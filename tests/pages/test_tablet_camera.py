"""The tablet's camera: its live frame rate, and the camera's reads the dealer confirms or corrects."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from page_helpers import LiveTable, close_holding_state, open_holding_state, open_tablet
from playwright.sync_api import expect

import live_helpers as H
from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import CardSeen, ShoeDraw, Zone
from dealer_pi.runtime.teacher import TableTeacher
from dealer_pi.vision.pipeline import TOO_LIGHT
from dealer_pi.vision.examples import ExampleStore


def test_the_camera_light_shows_the_frames_the_vision_looks_at(context: Any, table: LiveTable) -> None:
    table.runtime.devices.update("camera", source="v4l2", fps=15.0, vision_fps=3.4, dropped=41, calibration="ok")
    tablet = open_tablet(context, table)
    expect(tablet.locator("#dev-camera b")).to_have_text("3.4 fps")
    expect(tablet.locator("#dev-camera")).to_have_attribute("title", "v4l2: camera 15.0 fps, vision 3.4 fps, 41 frames dropped")
    table.runtime.devices.update("camera", vision_fps=0.0)  # the vision thread stalled: the camera alone is not enough
    expect(tablet.locator("#dev-camera")).to_have_attribute("data-state", "bad")


def test_DEAL_HOLE_COUNT_the_camera_light_says_when_the_picture_is_too_light_to_count_face_down_cards(context: Any, table: LiveTable) -> None:
    table.runtime.devices.update("camera", source="v4l2", fps=15.0, vision_fps=7.5, dropped=0, calibration="ok",
                                 picture="ok", picture_detail="")
    tablet = open_tablet(context, table)
    expect(tablet.locator("#dev-camera b")).to_have_text("7.5 fps")
    expect(tablet.locator("#dev-camera")).to_have_attribute("data-state", "ok")
    # Frames still come at full rate, but the camera no longer sees the backs: that is no working camera.
    table.runtime.devices.update("camera", picture="too light", picture_detail=TOO_LIGHT)
    expect(tablet.locator("#dev-camera")).to_have_attribute("data-state", "bad")
    expect(tablet.locator("#dev-camera b")).to_have_text("too light")
    expect(tablet.locator("#dev-camera")).to_have_attribute("title", re.compile(r"^the camera cannot tell the table from the cards' white.*exposure"))
    table.runtime.devices.update("camera", picture="ok", picture_detail="")  # exposure lowered
    expect(tablet.locator("#dev-camera b")).to_have_text("7.5 fps")
    expect(tablet.locator("#dev-camera")).to_have_attribute("data-state", "ok")


def test_a_late_state_answer_never_brings_back_a_camera_state_the_stream_has_replaced(context: Any, table: LiveTable) -> None:
    """A device change adds no journal entry, so the page's own GET of /api/state, answered after
    the stream has shown the change, carries the same journal number as the newer snapshot: the
    snapshot's own number (rev) must still keep the older one out (the camera light lit green again
    over a stalled vision thread)."""
    table.runtime.devices.update("camera", source="v4l2", fps=15.0, vision_fps=3.4, dropped=0, calibration="ok")
    page = context.new_page()
    held = open_holding_state(page, f"{table.url}/dealer?token={H.DEALER}")  # answers taken while the vision ran
    expect(page.locator("#dev-camera")).to_have_attribute("data-state", "ok")  # from the stream alone

    table.runtime.devices.update("camera", vision_fps=0.0)
    expect(page.locator("#dev-camera")).to_have_attribute("data-state", "bad")
    stale_route, stale_answer = held.pop(0)
    stale = stale_answer.json()
    assert stale["devices"]["camera"]["vision_fps"] == 3.4, "the held answer must be from before the change"
    stale_route.fulfill(response=stale_answer)
    page.wait_for_timeout(300)
    expect(page.locator("#dev-camera")).to_have_attribute("data-state", "bad")
    close_holding_state(page, held)


def test_the_dealer_confirms_and_corrects_the_cameras_board_reads_and_the_reader_learns(context: Any, table: LiveTable, tmp_path: Path) -> None:
    store = ExampleStore(tmp_path / "camera-examples")
    crops: dict[CardSeen, np.ndarray] = {}
    table.runtime.teacher = TableTeacher(store, crops)
    table.feed(H.checked_down_hand()[:25])  # the deal, the preflop betting, the burn
    for n, (shoe, read) in enumerate((("Td", "Th"), ("Jd", "Jc"))):
        # A shoe that cannot read (GPIO) would leave them all to the dealer; here it disagrees.
        table.runtime.put(ShoeDraw(Card.parse(shoe), "shoe", 100 + n))
        obs = CardSeen(Zone.parse("board"), True, Card.parse(read), 0.95, "camera", 200 + n)
        crops[obs] = np.full((120, 84, 3), 40 * n + 100, np.uint8)
        table.runtime.put(obs)
    tablet = open_tablet(context, table)
    expect(tablet.locator("#reads-open")).to_be_visible(timeout=15_000)
    expect(tablet.locator("#reads-count")).to_have_text("(2)")
    tablet.click("#reads-open")
    items = tablet.locator("#reads-list li.read")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("read as Jc")
    expect(items.nth(0).locator("img")).to_have_js_property("naturalWidth", 84)  # the camera's picture
    items.nth(0).locator("select.read-pick").select_option("Jd")  # corrected
    expect(items).to_have_count(1)
    items.nth(0).locator("button.read-right").click()  # confirmed as read
    expect(tablet.locator("#reads-list")).to_contain_text("Nothing waits for you.")
    assert sorted((str(e.card), e.how) for e in store.examples()) == [("Jd", "dealer"), ("Th", "dealer")]
    assert cv2.imread(str(store.examples()[0].path)).shape == (120, 84, 3)
