"""Equities, stats and the replayer per role: equities are as secret as the hole cards they come from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import live_helpers as H

from dealer_pi.config import config_from_dict
from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.web.app import create_app
from dealer_pi.web.auth import AuditLog


class SecureTable:
    """A table served with web.secure_delay = true, its stream clock under the test's control."""

    def __init__(self, tmp: Path) -> None:
        self.now = 1_700_000_000_000
        self.runtime = H.runtime(tmp, 300, now_ms=lambda: self.now, secure_delay=True)
        self.audit = AuditLog(tmp / "audit.log")
        config = config_from_dict({"web": {"dealer_token": H.DEALER, "producer_token": H.PRODUCER, "stream_delay_s": 300,
                                           "audit_log": str(tmp / "audit.log"), "secure_delay": True},
                                   "journal": {"path": str(tmp / "journal.sqlite3")}})
        self.client = create_app(config, self.runtime, audit=self.audit).test_client()

    def get(self, path: str, token: str | None = None) -> Any:
        return self.client.get(path, headers={"Authorization": f"Bearer {token}"} if token else {})

    def feed(self, observations: list[dict[str, Any]]) -> None:
        for obs in observations:
            r = self.client.post("/api/observations", json=obs, headers={"Authorization": f"Bearer {H.DEALER}"})
            assert r.status_code == 200, r.json


def _wait_equity(live: Any, token: str | None, view_public: bool = False) -> dict[str, Any]:
    """The seats' equity on the flop. The equity before it (hole cards only) may still be what a
    busy machine shows first: it is worked out in the background."""
    path = "/api/state" + ("?view=public" if view_public else "")

    def on_the_flop() -> dict[str, Any] | None:
        equity = (live.get(path, token).json.get("broadcast") or {}).get("equity") or {}
        return equity.get("seats") if len(equity.get("board") or "") == 3 * 2 else None  # three card codes

    return H.wait_for(on_the_flop)


def _flop(live: Any) -> None:
    deck = [str(c) for c in FULL_DECK]
    live.feed(H.hole_deal(deck, [2, 3, 1]))
    live.feed([{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
               {"type": "action", "seat": 3, "action": "check"}])
    live.feed(H.street(deck, 3))


def test_DEAL_NO_RABBIT_equity_reaches_the_producer_at_once_the_public_after_the_delay_never_the_dealer(live: Any) -> None:
    _flop(live)
    seats = _wait_equity(live, H.PRODUCER)
    assert set(seats) == {"1", "2", "3"}
    assert abs(sum(s["equity"] for s in seats.values()) - 1) < 1e-3
    dealer = live.get("/api/state", H.DEALER).json
    assert "equity" not in dealer["broadcast"] and dealer["hole_cards"] is None
    assert dealer["broadcast"]["ticker"][-1]["text"].startswith("Flop: ")
    public = live.get("/api/state").json
    assert public["broadcast"]["equity"] is None and public["last_event_id"] == 0
    live.clock.now += 301_000
    live.runtime.publisher.poke()
    assert _wait_equity(live, None) == seats


def test_DEAL_NO_RABBIT_secure_delay_holds_the_producer_back_and_the_audit_log_shows_no_undelayed_read(tmp_path: Path) -> None:
    live = SecureTable(tmp_path)
    try:
        _flop(live)
        snap = live.get("/api/state", H.PRODUCER).json
        assert snap["view"] == "live" and snap["delay_s"] == 300 and snap["last_event_id"] == 0
        assert not any(c for v in (snap["hole_cards"] or {}).values() for c in v)
        assert snap["broadcast"]["equity"] is None
        live.now += 301_000
        live.runtime.publisher.poke()
        seats = _wait_equity(live, H.PRODUCER)
        assert len(seats) == 3
        assert live.get("/api/hands/1", H.PRODUCER).status_code == 404  # not finished, and not older than the delay
        reads = live.audit.read()
        assert reads and all(r["delayed"] is True for r in reads)
    finally:
        live.runtime.stop()


def _showdown() -> list[dict[str, Any]]:
    """Every player turns up both cards (POT-CARDS-SPEAK), from the first seat left of the button."""
    holes = H.hole_cards_of_first_hand()
    return [{"type": "card_seen", "zone": f"seat:{seat}", "face_up": True, "card": c, "source": "camera"}
            for seat in (2, 3, 1) for c in holes[seat]]


def test_stats_and_replayer_follow_the_delay_and_the_roles(live: Any) -> None:
    live.feed(H.checked_down_hand() + _showdown())
    ended = H.wait_for(lambda: live.get("/api/replay/hands", H.PRODUCER).json["hands"])
    assert [h["hand"] for h in ended] == [1]
    assert live.get("/api/replay/hands").json["hands"] == []  # the public: not before the delay
    assert live.get("/api/replay/hands/1").status_code == 404
    stats = live.get("/api/stats", H.DEALER).json
    ann = next(p for p in stats["players"] if p["player"] == "Ann")
    assert ann["hands"] == 1 and ann["vpip"] == 1.0 and ann["pfr"] == 0.0 and ann["wtsd"] == 1.0
    assert live.get("/api/stats").json["hands"] == 0

    steps = live.get("/api/replay/hands/1", H.PRODUCER).json["steps"]
    texts = [s["text"] for s in steps]
    assert texts[0] == "Hand 1" and "Ann calls 10" in texts and any(t.startswith("River: ") for t in texts)
    assert all(len(p["cards"]) == 2 and all(p["cards"]) for p in steps[-1]["seats"])
    assert steps[-1]["equity"] and len(steps[-1]["equity"]["seats"]) == 3
    dealer_steps = live.get("/api/replay/hands/1", H.DEALER).json["steps"]
    assert all(s["equity"] is None for s in dealer_steps)
    before_show = dealer_steps[:next(i for i, s in enumerate(dealer_steps) if s["kind"] == "hand_shown")]
    assert not any(c for s in before_show for p in s["seats"] for c in p["cards"])  # only shown hands, once shown
    assert dealer_steps[-1]["seats"][0]["cards"] == H.hole_cards_of_first_hand()[1]
    assert live.get("/api/replay/hands/1.phh", H.DEALER).status_code == 403
    phh = live.get("/api/replay/hands/1.phh", H.PRODUCER)
    assert phh.status_code == 200 and "actions" in phh.get_data(as_text=True)
    deck = [str(c) for c in FULL_DECK]
    burns = {deck[6], deck[10], deck[12]}  # after six hole cards: burn, flop, burn, turn, burn, river
    text = live.get("/api/replay/hands/1.json", H.PRODUCER).get_data(as_text=True)
    assert deck[7] in text and not any(f'"{b}"' in text for b in burns)

    live.clock.now += 301_000
    assert [h["hand"] for h in live.get("/api/replay/hands").json["hands"]] == [1]
    public = live.get("/api/replay/hands/1").json["steps"]
    assert public[-1]["equity"] is not None
    assert live.get("/api/stats").json["hands"] == 1
    assert json.loads(live.get("/api/stats?from=nonsense").get_data())["error"]["where"] == "from"
