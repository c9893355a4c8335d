"""Shared by tests/runtime and tests/api: a table, a clean hand's observations, a runtime on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_pi.config import Config, config_from_dict
from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.runtime.engine_thread import Runtime

DEALER = "dealer-secret-1"
PRODUCER = "producer-secret-2"
SETUP: dict[str, Any] = {
    "profile": "standard", "blinds": [5, 10], "seats": {"1": 1000, "2": 1000, "3": 1000},
    "names": {"1": "Ann", "2": "Bob", "3": "Cy"}, "button": 1,
}


def hole_deal(deck: list[str], seats: list[int]) -> list[dict[str, Any]]:
    """Two rounds of hole cards, one at a time, from the shoe to each seat face down (DEAL-ORDER)."""
    out: list[dict[str, Any]] = []
    for _ in range(2):
        for seat in seats:
            card = deck.pop(0)
            out.append({"type": "shoe_draw", "card": card, "source": "shoe"})
            out.append({"type": "card_seen", "zone": f"seat:{seat}", "face_up": False, "card": None, "source": "camera"})
    return out


def street(deck: list[str], n: int) -> list[dict[str, Any]]:
    """A burn then ``n`` board cards face up (DEAL-BURN)."""
    burn = deck.pop(0)
    out = [{"type": "shoe_draw", "card": burn, "source": "shoe"},
           {"type": "card_seen", "zone": "burn", "face_up": False, "card": None, "source": "camera"}]
    for _ in range(n):
        card = deck.pop(0)
        out.append({"type": "shoe_draw", "card": card, "source": "shoe"})
        out.append({"type": "card_seen", "zone": "board", "face_up": True, "card": card, "source": "camera"})
    return out


def checked_down_hand() -> list[dict[str, Any]]:
    """Button 1 of seats 1-3: everyone calls preflop and checks to the river."""
    deck = [str(c) for c in FULL_DECK]
    seats = [2, 3, 1]
    obs = hole_deal(deck, seats)
    obs += [{"type": "action", "seat": 1, "action": "call"}, {"type": "action", "seat": 2, "action": "call"},
            {"type": "action", "seat": 3, "action": "check"}]
    for n in (3, 1, 1):
        obs += street(deck, n)
        obs += [{"type": "action", "seat": s, "action": "check"} for s in seats]
    return obs


def hole_cards_of_first_hand() -> dict[int, list[str]]:
    deck = [str(c) for c in FULL_DECK]
    out: dict[int, list[str]] = {}
    for _ in range(2):
        for seat in (2, 3, 1):
            out.setdefault(seat, []).append(deck.pop(0))
    return out


def config(tmp: Path, delay_s: int = 300) -> Config:
    return config_from_dict({
        "table": {"name": "Test table"},
        "web": {"dealer_token": DEALER, "producer_token": PRODUCER, "stream_delay_s": delay_s,
                "audit_log": str(tmp / "audit.log")},
        "journal": {"path": str(tmp / "journal.sqlite3")},
    })


def runtime(tmp: Path, delay_s: float = 300, **kw: Any) -> Runtime:
    return Runtime(tmp / "journal.sqlite3", SETUP, stream_delay_s=delay_s, **kw).start()


def wait_for(cond: Any, timeout: float = 10.0) -> Any:
    """Poll ``cond`` until it gives a true value (returned); fail after ``timeout`` seconds."""
    import time

    end = time.monotonic() + timeout
    while not (value := cond()):
        assert time.monotonic() < end, "condition not met in time"
        time.sleep(0.02)
    return value
