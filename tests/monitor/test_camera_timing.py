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


def _feed(session: TableSession, steps: list[dict[str, object]]) -> list[AlertRaised]:
    return [e for o in steps for e in session.feed(observation_from_dict(o)) if isinstance(e, AlertRaised)]


def _draw(deck: list[str]) -> dict[str, object]:
    return {"type": "shoe_draw", "card": deck.pop(0), "source": "shoe"}


def _down(seat: int) -> dict[str, object]:
    return {"type": "card_seen", "zone": f"seat:{seat}", "face_up": False, "card": None, "source": "camera"}


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
    assert _feed(session, steps) == []
    assert len(session.hand.board) == 3  # the flop went in as usual


def test_DEAL_ORDER_a_card_not_seen_landing_seen_there_while_the_next_lands_is_not_dealt_out_of_order() -> None:
    session = TableSession(TableSetup.from_dict(H.SETUP))
    deck = [str(c) for c in FULL_DECK]
    steps = H.hole_deal(deck, [2, 3])[:4] + [
        _draw(deck),  # seat 1's first card: nobody sees it land (a player's hand over it)
        _draw(deck),  # seat 2's second card leaves the shoe ...
        _down(1),  # ... as seat 1's hand lifts: the card taken as dealt there, seen now
        _down(2),  # ... and lands
    ]
    steps += [_draw(deck), _down(3), _draw(deck), _down(1)]
    alerts = _feed(session, steps)
    assert [(a.rule, a.verdict.value) for a in alerts] == [("DEAL-ORDER", "uncertain")]
    assert [len(c) for c in session.hand.hole] == [2, 2, 2]  # every seat has its two cards, no more


def test_DEAL_HOLE_COUNT_the_last_hole_card_not_seen_landing_seen_at_the_burn_is_not_a_third_card() -> None:
    session = TableSession(TableSetup.from_dict(H.SETUP))
    deck = [str(c) for c in FULL_DECK]
    steps = H.hole_deal(deck, [2, 3, 1])[:-1] + [  # the dealer's last card lands unseen
        {"type": "action", "seat": 1, "action": "call"},
        {"type": "action", "seat": 2, "action": "call"},
        {"type": "action", "seat": 3, "action": "check"},
        _draw(deck),  # the burn leaves the shoe ...
        _down(1),  # ... as seat 1's hand lifts from the card it was dealt
        {"type": "card_seen", "zone": "burn", "face_up": False, "card": None, "source": "camera"},
    ] + H.street(deck, 3)[2:]
    alerts = _feed(session, steps)
    assert [(a.rule, a.verdict.value) for a in alerts] == [("DEAL-ORDER", "uncertain")]
    assert len(session.hand.board) == 3  # the burn went where it landed, the flop after it


def test_DEAL_HOLE_COUNT_a_card_more_at_a_seat_whose_cards_were_all_seen_is_still_a_misdeal() -> None:
    session = TableSession(TableSetup.from_dict(H.SETUP))
    deck = [str(c) for c in FULL_DECK]
    steps = H.hole_deal(deck, [2, 3, 1]) + [
        {"type": "action", "seat": 1, "action": "call"},
        {"type": "action", "seat": 2, "action": "call"},
        {"type": "action", "seat": 3, "action": "check"},
        _draw(deck),
        _down(1),  # the card meant for the burn lands at seat 1: a third card
    ]
    alerts = _feed(session, steps)
    assert ("DEAL-HOLE-COUNT", "misdeal") in [(a.rule, a.verdict.value) for a in alerts]
