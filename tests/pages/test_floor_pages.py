"""The floor's pages and the tablet's floor panel in Chromium, against a real broker, floor and tables."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_helpers import BROADCAST, TABLET, shot
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "floor"))

from floor_helpers import FLOOR_TOKEN, Table, floor, wait_for  # noqa: E402

from dealer_pi.config import config_from_dict  # noqa: E402
from dealer_pi.engine.observations import observation_from_dict  # noqa: E402
from dealer_pi.floor.broker import LocalBroker  # noqa: E402
from dealer_pi.floor.table_api import attach_floor_api  # noqa: E402
from dealer_pi.floor.web import create_floor_app  # noqa: E402
from dealer_pi.web.app import create_app  # noqa: E402
from dealer_pi.web.auth import AuditLog  # noqa: E402
from dealer_pi.web.server import Server  # noqa: E402

DEALER = "dealer-secret-9"
PLAYERS = ["Ana", "Ben", "Chloe", "Dev", "Emeka", "Farah", "Gus", "Hana", "Ivo", "Jules"]


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalBroker]:
    b = LocalBroker(tmp_path_factory.mktemp("mosquitto")).start()
    yield b
    b.stop()


class Hall:
    """A floor with its web server and two tables, t1 with its own tablet server."""

    def __init__(self, tmp: Path, url: str, room: str) -> None:
        self.svc = floor(tmp / "floor", url, room, players=PLAYERS, seats_per_table=6)
        self.floor_server = Server(create_floor_app(self.svc, FLOOR_TOKEN), port=0, threads=8).start()
        self.t1 = Table(tmp, url, room, "t1")
        self.t2 = Table(tmp, url, room, "t2")
        self.svc.command({"cmd": "draw", "seed": 5})
        wait_for(lambda: self.svc.director.drawn == {"t1", "t2"}, what="the draw")
        app = create_app(config_from_dict({"table": {"name": "Table t1"}, "web": {"dealer_token": DEALER}}),
                         self.t1.runtime, audit=AuditLog(tmp / "audit.log"))
        attach_floor_api(app)
        self.tablet = Server(app, port=0, threads=8).start()

    def close(self) -> None:
        self.tablet.close()
        self.t1.close()
        self.t2.close()
        self.floor_server.close()
        self.svc.stop()


@pytest.fixture
def hall(tmp_path: Path, broker: LocalBroker) -> Iterator[Hall]:
    import uuid

    h = Hall(tmp_path, broker.url, "p" + uuid.uuid4().hex[:8])
    yield h
    h.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=TABLET, device_scale_factor=1)
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    ctx.on("weberror", lambda e: errors.append(str(e.error)))
    yield ctx.new_page()
    ctx.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"


def test_floor_page_shows_every_table_its_players_and_the_rooms_alerts(hall: Hall, page: Any) -> None:
    hall.t1.runtime.submit("observation", observation_from_dict(
        {"type": "card_seen", "zone": "board", "face_up": True, "card": "Ah", "source": "camera"}))
    wait_for(lambda: hall.svc.tables_view()["alerts"], what="the alert at the floor")
    hall.t2.close()  # a table whose Pi goes away is shown offline
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{hall.floor_server.url}/floor")
    expect(page.locator("#token-gate")).to_be_visible()  # staff only
    page.fill("#token-input", FLOOR_TOKEN)
    page.click("#token-form button")
    expect(page.locator("#conn")).to_have_text("Live")
    t1 = page.locator('.fl-table[data-table="t1"]')
    t2 = page.locator('.fl-table[data-table="t2"]')
    expect(t1.locator(".pill")).to_have_text("live")
    expect(t2.locator(".pill")).to_have_text("offline")
    seated = [n for n in hall.t1.setup()["names"].values()]
    expect(t1.locator(".fl-players li")).to_have_count(len(seated))
    expect(t1.locator(".fl-players")).to_contain_text(seated[0])
    expect(t1.locator(".fl-facts")).to_contain_text("Hand 1")
    expect(page.locator("#alerts li").first).to_contain_text("Table t1")
    expect(page.locator("#alerts li").first).to_contain_text("DEAL-")
    assert "Ah" not in page.locator("#alerts").inner_text()
    expect(page.locator("#t-facts")).to_contain_text("10 of 10 left")
    # A command from the page: the floor's clock starts.
    page.click('button[data-action="start"]')
    expect(page.locator("#t-clock")).not_to_contain_text("paused")
    shot(page, "floor-page", full_page=True)


def test_tournament_board_shows_clock_blinds_players_left_and_payouts(hall: Hall, page: Any) -> None:
    hall.svc.command({"cmd": "clock", "action": "start"})
    page.set_viewport_size(BROADCAST)
    page.goto(f"{hall.floor_server.url}/board")  # no token: the public board
    expect(page.locator("#conn")).to_have_text("Live")
    expect(page.locator("#b-level")).to_have_text("LEVEL 1")
    expect(page.locator("#b-blinds")).to_have_text("25 / 50")
    expect(page.locator("#b-next")).to_have_text("Next: 50 / 100  ante 10")
    expect(page.locator("#b-break")).to_contain_text("Next break in 19:")
    expect(page.locator("#b-left")).to_have_text("10 / 10")
    expect(page.locator("#b-avg")).to_have_text("5,000")
    expect(page.locator("#b-chips")).to_have_text("50,000")
    expect(page.locator("#b-pool")).to_have_text("$1,000")
    expect(page.locator("#b-payouts tr")).to_have_count(3)
    expect(page.locator("#b-payouts tr").first).to_contain_text("$500")
    first = page.locator("#b-time").inner_text()
    page.wait_for_timeout(2200)
    assert page.locator("#b-time").inner_text() != first  # it counts down
    shot(page, "tournament-board")


def test_tablet_shows_the_floors_orders_hand_for_hand_and_the_level(hall: Hall, page: Any) -> None:
    hall.svc.command({"cmd": "clock", "action": "start"})
    hall.t1.card_out()
    hall.t2.card_out()
    name = next(iter(hall.t1.setup()["names"].values()))
    hall.svc.command({"cmd": "penalty", "player": name, "kind": "away", "minutes": 10, "reason": "card off the table"})
    hall.svc.command({"cmd": "hand_for_hand", "active": True})
    page.goto(f"{hall.tablet.url}/dealer?token={DEALER}")
    expect(page.locator("#conn")).to_have_text("Live")
    expect(page.locator("#level")).to_contain_text(re.compile(r"Level 1 9:\d\d left"))
    expect(page.locator("#floor-link")).to_have_text("connected")
    expect(page.locator("#floor-orders")).to_contain_text(f"Penalty for {name}")
    expect(page.locator("#floor-orders")).to_contain_text("after this hand")
    hall.t1.hand()
    expect(page.locator("#floor-h4h")).to_contain_text("wait, still playing: t2")
    shot(page, "tablet-floor-panel")
    page.click("#new-hand")
    page.click("#confirm-yes") if page.locator("#confirm").is_visible() else None
    expect(page.locator("#msg")).to_contain_text("TABLE-HAND-FOR-HAND")
    hall.t2.hand()
    wait_for(lambda: hall.t1.floor.view()["hand_for_hand"]["may_deal"], what=f"round 1 at t1: {hall.t1.floor.view()}")
    expect(page.locator("#floor-h4h")).to_contain_text("deal your hand")
    # The public overlay shows the level and its time left too.
    page.goto(f"{hall.tablet.url}/overlay")
    expect(page.locator("#level")).to_contain_text("Level 1 · ")
