"""The public stream delay: never negative, and a short one only with hole cards kept to the hand's end."""

from __future__ import annotations

from pathlib import Path


import live_helpers as H
from dealer_pi.web.app import create_app
from dealer_pi.web.auth import AuditLog


def test_a_short_delay_with_after_hand_shows_no_hole_card_before_the_hand_is_over(tmp_path: Path) -> None:
    now = [1_700_000_000_000]
    rt = H.runtime(tmp_path, 0, now_ms=lambda: now[0], public_hole_cards_after_hand=True)
    client = create_app(H.config(tmp_path, 0), rt, audit=AuditLog(tmp_path / "audit.log")).test_client()
    dealer = {"Authorization": f"Bearer {H.DEALER}"}
    holes = {c for cards in H.hole_cards_of_first_hand().values() for c in cards}
    # the hole cards, then everyone folds to the big blind: the hand is over
    script = H.checked_down_hand()[:12] + [{"type": "action", "seat": s, "action": "fold"} for s in (1, 2)]
    try:
        seen: set[str] = set()
        for obs in script:
            assert client.post("/api/observations", json=obs, headers=dealer).status_code == 200
            now[0] += 1000
            rt.publisher.poke()
            top = client.get("/api/state", headers=dealer).json["seq"]  # the entry: see test_api._public_caught_up
            H.wait_for(lambda: client.get("/api/state").json["seq"] == top)
            snap = client.get("/api/state").json
            if snap["table"]["hand"]["phase"] != "complete":
                assert not snap["hole_cards"], snap["hole_cards"]
            seen |= {c for cards in (snap["hole_cards"] or {}).values() for c in cards if c}
        # the public stream's own backlog names no hole card either
        r = client.get("/api/events", headers={"Last-Event-ID": "0"}, buffered=False)
        text = ""
        for chunk in r.response:
            text += chunk.decode()
            if "event: state" in text:
                break
        r.close()
        hole_events = [line for line in text.splitlines() if "hole_cards_dealt" in line]
        assert all(c not in line for line in hole_events for c in holes)
        # once the hand is over, the public view may show what was held
        assert snap["table"]["hand"]["phase"] == "complete" and seen == holes
    finally:
        rt.stop()


def test_after_delay_the_public_view_keeps_its_old_behaviour(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path, 0)
    client = create_app(H.config(tmp_path, 0), rt, audit=AuditLog(tmp_path / "audit.log")).test_client()
    try:
        for obs in H.checked_down_hand()[:12]:
            client.post("/api/observations", json=obs, headers={"Authorization": f"Bearer {H.DEALER}"})
        H.wait_for(lambda: client.get("/api/state").json["hole_cards"])
        assert rt.publisher.hole_cards_after_hand is False
    finally:
        rt.stop()


