"""The JSON API through Flask's test client: roles, bad bodies, hole-card secrecy, the delay."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import live_helpers as H

from dealer_pi.engine.cards import FULL_DECK

# -------------------------------------------------------------------- roles


@pytest.mark.parametrize("method, path", [
    ("get", "/api/state"), ("get", "/api/events"), ("get", "/api/clock"), ("get", "/api/whoami"),
    ("post", "/api/observations"), ("get", "/api/setup"), ("post", "/api/clock"),
])
def test_wrong_token_is_401_everywhere(live: Any, method: str, path: str) -> None:
    r = getattr(live.client, method)(path, headers={"Authorization": "Bearer not-a-token"}, json={})
    assert r.status_code == 401 and r.json["error"]["kind"] == "auth"
    assert live.client.get(path + "?token=nope").status_code in (401, 405)


def test_no_token_cannot_post_and_producer_is_forbidden(live: Any) -> None:
    fold = {"type": "action", "seat": 1, "action": "fold"}
    assert live.post(fold, token=None).status_code == 401
    assert live.post(fold, token=H.PRODUCER).status_code == 403
    assert live.post({"action": "pause"}, token=None, path="/api/clock").status_code == 401
    assert live.post(H.SETUP, token=H.PRODUCER, path="/api/setup").status_code == 403
    assert live.get("/api/setup").status_code == 401
    assert live.get("/api/hands/1", token=H.DEALER).status_code == 403
    assert live.get("/api/whoami", token=H.PRODUCER).json["role"] == "producer"
    assert live.get("/api/whoami").json["role"] == "public"
    r = live.client.get("/api/whoami", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401


# -------------------------------------------------------------------- bad bodies


@pytest.mark.parametrize("body, where", [
    ({"type": "action", "seat": 1, "action": "jump"}, "observation.action"),
    ({"type": "action", "seat": 11, "action": "fold"}, "observation.seat"),
    ({"type": "action", "seat": 1, "action": "raise"}, "observation.amount"),
    ({"type": "action", "seat": "1", "action": "fold"}, "observation.seat"),
    ({"type": "teleport"}, "observation.type"),
    ({"type": "card_seen", "zone": "seat:3", "face_up": "no"}, "observation.face_up"),
    ({"type": "card_seen", "zone": "table", "face_up": True}, "observation.zone"),
    ({"type": "shoe_draw", "card": "Zz"}, "observation.card"),
    ({"type": "dealer", "declare": "coffee"}, "observation.declare"),
    ({"type": "action", "seat": 1, "action": "fold", "mood": "sad"}, "observation.mood"),
    ([1, 2], "observation"),
    ("fold", "observation"),
])
def test_bad_observation_bodies_get_400_naming_the_field(live: Any, body: Any, where: str) -> None:
    before = live.runtime.journal.last_seq()
    r = live.post(body)
    assert r.status_code == 400, r.json
    assert r.json["error"]["kind"] == "input" and r.json["error"]["where"] == where
    assert live.runtime.journal.last_seq() == before  # nothing recorded


def test_non_json_and_oversized_bodies_are_4xx_json(live: Any) -> None:
    auth = {"Authorization": f"Bearer {H.DEALER}"}
    r = live.client.post("/api/observations", data="fold", headers=auth)
    assert r.status_code == 400 and r.json["error"]["where"] == "body"
    r = live.client.post("/api/observations", data="{not json", headers=auth, content_type="application/json")
    assert r.status_code == 400 and r.json["error"]["where"] == "body"
    r = live.client.post("/api/observations", data="[" + "1," * 40000 + "1]", headers=auth, content_type="application/json")
    assert r.status_code == 413 and "error" in r.json
    assert live.client.get("/api/events?last_event_id=abc").status_code == 400
    assert live.client.get("/api/state?view=live", headers=auth).json["error"]["where"] == "view"
    assert live.client.delete("/api/state").status_code == 405


@pytest.mark.parametrize("body, where", [
    ({"blinds": [5], "seats": {"1": 100, "2": 100}, "button": 1}, "setup.blinds"),
    ({"blinds": [5, 10], "seats": {"1": 100, "12": 100}, "button": 1}, "setup.seats.12"),
    ({"blinds": [5, 10], "seats": {"1": 100, "2": 100}, "button": 1, "rake": 5}, "setup.rake"),
    ({"blinds": [5, 10], "seats": {"1": 100, "2": 100}, "button": 1, "profile": "casino-royale"}, "setup.profile"),
    ({"blinds": [10, 5], "seats": {"1": 100, "2": 100}, "button": 1}, "setup.blinds"),  # BET-BLINDS
    ({"blinds": [5, 10], "seats": {"1": 100, "2": 100}, "button": 4}, "setup.button"),  # no one on seat 4
    ({"blinds": [5, 10], "seats": {"1": 100, "2": 0, "3": 100}, "button": 2}, "setup.button"),  # busted seat
    ({"blinds": [5, 10], "seats": {"1": 10**40, "2": 100}, "button": 1}, "setup.seats.1"),
    ({"blinds": [5, 10**40], "seats": {"1": 100, "2": 100}, "button": 1}, "setup.blinds"),
    ({"blinds": [5, 10], "ante": 10**13, "seats": {"1": 100, "2": 100}, "button": 1}, "setup.ante"),
])
def test_bad_setup_bodies_get_400_naming_the_field(live: Any, body: Any, where: str) -> None:
    r = live.post(body, path="/api/setup?void_hand=1")
    assert r.status_code == 400 and r.json["error"]["where"] == where, r.json


def test_BET_OUT_OF_TURN_refused_with_409_and_nothing_journaled(live: Any) -> None:
    live.feed(H.hole_deal([str(c) for c in __import__("dealer_pi.engine.cards", fromlist=["FULL_DECK"]).FULL_DECK], [2, 3, 1]))
    before = (live.runtime.journal.last_seq(), live.get("/api/state", H.DEALER).json["table"])
    r = live.post({"type": "action", "seat": 3, "action": "fold"})  # seat 1 acts first preflop
    assert r.status_code == 409 and r.json["error"]["kind"] == "rule" and r.json["error"]["rule"] == "BET-OUT-OF-TURN"
    assert (live.runtime.journal.last_seq(), live.get("/api/state", H.DEALER).json["table"]) == before


def test_BET_TABLE_STAKES_setup_refused_while_a_hand_runs(live: Any) -> None:
    r = live.post(dict(H.SETUP, blinds=[10, 20]), path="/api/setup")
    assert r.status_code == 409 and r.json["error"]["rule"] == "BET-TABLE-STAKES"
    r = live.post(dict(H.SETUP, blinds=[10, 20]), path="/api/setup?void_hand=1")
    assert r.status_code == 200 and r.json["setup"]["blinds"] == [10, 20]
    assert live.get("/api/setup", H.PRODUCER).json["setup"]["blinds"] == [10, 20]


# -------------------------------------------------------------------- hole cards are secrets


def _card_strings(text: str) -> set[str]:
    return set(re.findall(r'"([2-9TJQKA][cdhs])"', text))


def _card_names(text: str) -> set[str]:
    """Every card named anywhere in ``text``, inside sentences too ("put 6c back on top")."""
    return set(re.findall(r"\b[2-9TJQKA][cdhs]\b", text))


def test_DEAL_NO_RABBIT_dealer_token_never_sees_a_hole_card(live: Any) -> None:
    holes = {c for cards in H.hole_cards_of_first_hand().values() for c in cards}
    deal = H.checked_down_hand()[:12]  # the hole-card deal, shoe reading every card
    seen = ""
    for obs in deal:
        r = live.post(obs)
        assert r.status_code == 200
        seen += r.get_data(as_text=True)
    snap = live.get("/api/state", H.DEALER)
    seen += snap.get_data(as_text=True)
    assert snap.json["hole_cards"] is None and snap.json["view"] == "dealer"
    seen += _read_stream(live, H.DEALER, last_event_id=0)
    assert not (_card_strings(seen) & holes)
    assert live.audit.read() == []  # the dealer's reads are not hole-card reads


@pytest.mark.parametrize("profile", ["standard", "roberts"])
def test_DEAL_HOLE_EXPOSED_a_card_the_camera_is_not_sure_was_face_up_is_named_to_no_one(live: Any, profile: str) -> None:
    """The smart shoe named the card; the camera saw something face up at the seat but could not
    read it. It may still be a face-down hole card: the "not sure" notice names no card to the
    dealer, the producer or the public, whatever the profile does with a sure exposure."""
    assert live.post(dict(H.SETUP, profile=profile), path="/api/setup?void_hand=1").status_code == 200
    holes = {c for cards in H.hole_cards_of_first_hand().values() for c in cards}
    deal = H.checked_down_hand()[:12]
    deal[3] = dict(deal[3], face_up=True, confidence=0.5)  # seat 3's first card: unsure, unnamed
    for obs in deal:
        assert live.post(obs).status_code == 200
    _past_the_delay(live)  # the public view has the notice too
    alerts = live.get("/api/state", H.DEALER).json["table"]["alerts"]
    assert [(a["rule"], a["verdict"]) for a in alerts] == [("DEAL-HOLE-EXPOSED", "uncertain")]
    for token in (H.DEALER, H.PRODUCER, None):
        notice = live.get("/api/state", token).json["table"]["alerts"]
        assert notice and not (_card_names(json.dumps(notice)) & holes), token
    assert not (_card_strings(_read_stream(live, H.DEALER, last_event_id=0)) & holes)


def test_producer_sees_hole_cards_and_every_read_is_audited(live: Any) -> None:
    live.feed(H.checked_down_hand()[:12])
    snap = live.get("/api/state", H.PRODUCER).json
    assert snap["view"] == "live"
    expected = {str(k): v for k, v in H.hole_cards_of_first_hand().items()}
    assert {k: [c for c in v if c] for k, v in snap["hole_cards"].items()} == expected
    text = _read_stream(live, H.PRODUCER, last_event_id=0)
    assert _card_strings(text) >= {c for v in expected.values() for c in v}
    whats = [a["what"] for a in live.audit.read()]
    assert whats == ["state", "stream-open", "stream-close"] and all(a["role"] == "producer" for a in live.audit.read())


def test_public_stream_has_no_hole_card_before_the_delay_then_gets_them(live: Any) -> None:
    holes = {c for cards in H.hole_cards_of_first_hand().values() for c in cards}
    live.feed(H.checked_down_hand()[:12])
    live.clock.now += 299_000  # one second short of the delay
    live.runtime.publisher.poke()
    public = live.get("/api/state").get_data(as_text=True) + _read_stream(live, None, last_event_id=0)
    assert not (_card_strings(public) & holes)
    assert json.loads(live.get("/api/state").get_data())["last_event_id"] == 0
    live.clock.now += 2_000
    _public_caught_up(live)
    snap = live.get("/api/state").json
    assert snap["view"] == "public" and snap["delay_s"] == 300
    assert {c for v in snap["hole_cards"].values() for c in v if c} == holes
    assert _card_strings(_read_stream(live, None, last_event_id=0)) >= holes


def _read_stream(live: Any, token: str | None, last_event_id: int | None) -> str:
    """Open the SSE stream and read until its first state message (backlog + state)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    r = live.client.get("/api/events", headers=headers, buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    text = ""
    it = iter(r.response)
    try:
        while "event: state" not in text:
            text += next(it).decode()
    finally:
        r.close()
    return text


# -------------------------------------------------------------------- the rest of the API


def test_clock_is_driven_by_the_dealer_and_read_by_anyone(live: Any) -> None:
    levels = [{"small_blind": 5, "big_blind": 10, "minutes": 20}, {"small_blind": 10, "big_blind": 20, "minutes": 20}]
    r = live.post({"action": "set_levels", "levels": levels}, path="/api/clock")
    assert r.status_code == 200 and r.json["level"] == 1 and r.json["running"] is False
    live.post({"action": "start"}, path="/api/clock")
    live.clock.now += 21 * 60_000
    c = live.get("/api/clock").json
    assert c["level"] == 2 and c["running"] is True and c["remaining_ms"] == 19 * 60_000
    r = live.post({"action": "set_levels", "levels": [{"small_blind": 5}]}, path="/api/clock")
    assert r.status_code == 400 and r.json["error"]["where"] == "body.levels[0].big_blind"
    assert live.get("/api/state", H.DEALER).json["clock"]["level"] == 2


def test_openapi_describes_every_route_and_nothing_else(live: Any) -> None:
    spec = live.get("/api/openapi.json").json
    routes = set()
    for rule in live.app.url_map.iter_rules():
        if rule.endpoint == "static" or not rule.rule.startswith(("/api", "/healthz")):
            continue
        routes.add(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule))
    assert routes == set(spec["paths"])
    for path, ops in spec["paths"].items():
        for method in ops:
            assert any(
                re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", r.rule) == path and method.upper() in (r.methods or ())
                for r in live.app.url_map.iter_rules()
            ), (method, path)


def test_event_streams_are_shared_out_so_the_dealer_and_producer_always_get_theirs(tmp_path: Any) -> None:
    from dealer_pi.config import config_from_dict
    from dealer_pi.web.app import create_app

    config = config_from_dict({"web": {"dealer_token": H.DEALER, "producer_token": H.PRODUCER, "threads": 40,
                                       "audit_log": str(tmp_path / "a.log")}})
    rt = H.runtime(tmp_path)
    client = create_app(config, rt).test_client()

    def stream(addr: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return client.get("/api/events", buffered=False, headers=headers, environ_base={"REMOTE_ADDR": addr})

    opened: list[Any] = []
    try:
        # 40 threads: 16 kept for the API, 8 streams for the dealer, 8 for the producer, 8 public
        opened += [stream("10.0.0.1") for _ in range(4)]
        assert all(r.status_code == 200 for r in opened)
        fifth = stream("10.0.0.1")  # one address gets at most 4
        assert fifth.status_code == 429 and "per address" in fifth.json["error"]["message"]
        opened += [stream("10.0.0.2") for _ in range(4)]
        assert all(r.status_code == 200 for r in opened)
        full = stream("10.0.0.3")  # the public's 8 are taken
        assert full.status_code == 503 and full.json["error"]["kind"] == "busy" and full.headers["Retry-After"]
        # the dealer and the producer still get theirs, from any address, and the API answers
        mine = [stream("10.0.0.1", H.DEALER), stream("10.0.0.2", H.PRODUCER)]
        assert [r.status_code for r in mine] == [200, 200]
        opened += mine
        assert client.get("/api/state").status_code == 200
        opened.pop(0).close()  # a public stream ends: its slot is free again
        again = stream("10.0.0.3")
        assert again.status_code == 200
        opened.append(again)
        # with shared slots free again, the dealer may use them beyond its own 8
        for r in opened[:8]:
            r.close()
        del opened[:8]
        more = [stream("10.0.0.9", H.DEALER) for _ in range(10)]
        opened += more
        assert [r.status_code for r in more] == [200] * 10
    finally:
        for r in opened:
            r.close()
        rt.stop()


def test_a_journal_that_cannot_be_written_refuses_the_input_and_loses_nothing(live: Any) -> None:
    script = H.checked_down_hand()
    live.feed(script[:13])
    before = live.get("/api/state", H.DEALER).json
    live.runtime.journal._write.execute("PRAGMA query_only=1")  # the disk refuses writes (full, read-only)
    r = live.post(script[13])
    assert r.status_code == 503 and r.json["error"]["kind"] == "state" and "journal" in r.json["error"]["message"]
    after = live.get("/api/state", H.DEALER).json
    assert (after["table"], after["seq"], after["last_event_id"]) == (before["table"], before["seq"], before["last_event_id"])
    live.runtime.journal._write.execute("PRAGMA query_only=0")  # room again
    live.feed(script[13:16])
    assert live.get("/api/state", H.DEALER).json["seq"] == before["seq"] + 3


# -------------------------------------------------------------------- gaps a page opened mid-hand would see


def _past_the_delay(live: Any) -> None:
    """Move the clock past the stream delay and wait until the public view has caught up."""
    live.clock.now += 301_000
    _public_caught_up(live)


def _public_caught_up(live: Any) -> None:
    """Wake the delay's release and wait until the public view has the dealer's last journal
    entry: not the last event id, which entries without a public event (a hole card dealt) leave
    as it was, so that the public view matched it while still releasing them."""
    live.runtime.publisher.poke()
    top = live.get("/api/state", H.DEALER).json["seq"]
    H.wait_for(lambda: live.get("/api/state").json["seq"] == top)


def _extra_card_hand() -> tuple[list[dict[str, Any]], str]:
    """A hand where seat 2 gets a third card (DEAL-HOLE-COUNT): it goes back on top and is the
    burn before the flop; the hand then goes to the river, where a bet wins it."""
    deck = [str(c) for c in FULL_DECK]
    obs = H.hole_deal(deck, [2, 3, 1])
    extra = deck.pop(0)
    obs += [{"type": "shoe_draw", "card": extra, "source": "shoe"},
            {"type": "card_seen", "zone": "seat:2", "face_up": False, "card": None, "source": "camera"},
            {"type": "card_left", "zone": "seat:2", "card": None, "source": "camera"}]
    obs += [{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
            {"type": "action", "seat": 3, "action": "check"}]
    obs += [{"type": "shoe_draw", "card": extra, "source": "shoe"},
            {"type": "card_seen", "zone": "burn", "face_up": False, "card": None, "source": "camera"}]
    for _ in range(3):
        card = deck.pop(0)
        obs += [{"type": "shoe_draw", "card": card, "source": "shoe"},
                {"type": "card_seen", "zone": "board", "face_up": True, "card": card, "source": "camera"}]
    obs += [{"type": "action", "seat": s, "action": "check"} for s in (2, 3, 1)]
    obs += H.street(deck, 1)
    obs += [{"type": "action", "seat": s, "action": "check"} for s in (2, 3, 1)]
    obs += H.street(deck, 1)
    obs += [{"type": "action", "seat": 2, "action": "check"}, {"type": "action", "seat": 3, "action": "check"},
            {"type": "action", "seat": 1, "action": "bet", "amount": 10},
            {"type": "action", "seat": 2, "action": "fold"}, {"type": "action", "seat": 3, "action": "fold"}]
    return obs, extra


def test_DEAL_NO_RABBIT_a_card_that_becomes_the_burn_is_named_in_no_view(live: Any) -> None:
    obs, extra = _extra_card_hand()
    live.feed(obs)
    raised = [ev.body for ev in live.runtime.journal.iter_events(0, 10_000) if ev.body["type"] == "alert_raised"]
    assert any(a["rule"] == "DEAL-HOLE-COUNT" and extra in a["remedy"] for a in raised)  # the engine names it
    _past_the_delay(live)
    for token in (H.DEALER, H.PRODUCER, None):
        seen = live.get("/api/state", token).get_data(as_text=True) + _read_stream(live, token, last_event_id=0)
        assert "DEAL-HOLE-COUNT" in seen
        assert extra not in _card_names(seen), token
    assert live.get("/api/hands", H.PRODUCER).json["hands"][0]["hand"] == 1
    assert extra not in _card_names(live.get("/api/hands/1", H.PRODUCER).get_data(as_text=True))


def test_DEAL_NO_RABBIT_a_wrong_burn_after_an_extra_card_names_neither_card_in_any_view(live: Any) -> None:
    """The extra card should have been the burn; another is burned instead: the alert's text names the
    burn and the extra card (now back in the deck). Neither identity reaches a view."""
    obs, extra = _extra_card_hand()
    cut = next(i for i, o in enumerate(obs) if o.get("zone") == "burn")
    wrong = str(FULL_DECK[-1])
    obs = obs[:cut - 1] + [{"type": "shoe_draw", "card": wrong, "source": "shoe"}, obs[cut]]
    live.feed(obs)
    raised = [ev.body for ev in live.runtime.journal.iter_events(0, 10_000) if ev.body["type"] == "alert_raised"]
    assert any(wrong in a["remedy"] and extra in a["remedy"] for a in raised)  # the engine names both
    _past_the_delay(live)
    for token in (H.DEALER, H.PRODUCER, None):
        seen = live.get("/api/state", token).get_data(as_text=True) + _read_stream(live, token, last_event_id=0)
        assert "was burned" in seen
        assert not ({wrong, extra} & _card_names(seen)), token


def test_void_hand_setup_keeps_the_snapshot_hand_number_with_the_events(live: Any) -> None:
    r = live.post(dict(H.SETUP, blinds=[10, 20]), path="/api/setup?void_hand=1")
    assert r.status_code == 200
    snap = live.get("/api/state", H.DEALER).json
    events = list(live.runtime.journal.iter_events(0, snap["last_event_id"]))
    assert [ev.hand for ev in events if ev.body["type"] == "hand_started"] == [1, 2]
    assert snap["table"]["table"]["hand_number"] == 2


def test_snapshot_has_blind_seats_hole_counts_and_last_actions_for_every_view(live: Any) -> None:
    deck = [str(c) for c in FULL_DECK]
    live.feed(H.hole_deal(deck, [2, 3, 1])[:8])  # mid-deal: seat 2 has two cards, 3 and 1 one each
    _past_the_delay(live)
    for token in (H.DEALER, H.PRODUCER, None):
        t = live.get("/api/state", token).json["table"]
        assert (t["hand"]["small_blind_seat"], t["hand"]["big_blind_seat"]) == (2, 3)
        assert {k: v["hole_count"] for k, v in t["table"]["seats"].items()} == {"1": 1, "2": 2, "3": 1}
    live.feed(H.hole_deal(deck, [2, 3, 1])[8:] + [{"type": "action", "seat": 1, "action": "raise", "amount": 30}])
    seats = live.get("/api/state", H.DEALER).json["table"]["table"]["seats"]
    assert seats["1"]["last_action"] == {"action": "raise", "to": 30, "all_in": False}


def test_TABLE_BUTTON_undoing_a_new_hand_takes_its_number_back(live: Any) -> None:
    live.feed(H.hole_deal([str(c) for c in FULL_DECK], [2, 3, 1])
              + [{"type": "action", "seat": 1, "action": "fold"}, {"type": "action", "seat": 2, "action": "fold"},
                 {"type": "dealer", "declare": "new hand"}])
    assert live.get("/api/state", H.DEALER).json["table"]["table"]["hand_number"] == 2
    live.feed([{"type": "dealer", "declare": "undo"}])
    assert live.get("/api/state", H.DEALER).json["table"]["table"]["hand_number"] == 1
    live.feed([{"type": "dealer", "declare": "new hand"}])
    snap = live.get("/api/state", H.DEALER).json
    started = [ev.hand for ev in live.runtime.journal.iter_events(0, snap["last_event_id"]) if ev.body["type"] == "hand_started"]
    assert started == [1, 2, 2] and snap["table"]["table"]["hand_number"] == 2
