"""The camera reports a moment late: a card seen leaving one place while the shoe's next card is
still landing is not that card's landing, nor a sign it was lost (DEAL-ORDER, DEAL-BURN)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runtime"))

import live_helpers as H  # noqa: E402

from dealer_pi.engine.cards import FULL_DECK  # noqa: E402
from dealer_pi.engine.monitor.alerts import AlertRaised  # noqa: E402
from dealer_pi.engine.observations import observation_from_dict  # noqa: E402
from dealer_pi.engine.table_session import TableSession, TableSetup  # noqa: E402


def test_DEAL_BURN_a_fold_seen_leaving_late_does_not_lose_the_burn_card_landing() -> None:
    session = TableSession(TableSetup.from_dict(H.SETUP))
    deck = [str(c) for c in FULL_DECK]
    steps = H.hole_deal(deck, [2, 3, 1]) + [
        {"type": "action", "seat": 1, "action": "fold"},  # its cards reach the muck ...
        {"type": "action", "seat": 2, "action": "call"},
        {"type": "action", "seat": 3, "action": "check"},
        {"type": "shoe_draw", "card": deck.pop(0), "source": "shoe"},
        {"type": "card_left", "zone": "seat:1", "source": "camera"},  # ... and are seen gone only now
        {"type": "card_seen", "zone": "burn", "face_up": False, "source": "camera"},
    ] + H.street(deck, 3)[2:]
    alerts = [e for o in steps for e in session.feed(observation_from_dict(o)) if isinstance(e, AlertRaised)]
    assert alerts == []
    assert len(session.hand.board) == 3  # the flop went in as usual
