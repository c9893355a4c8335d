"""Player statistics by their documented definitions (dealer_pi/broadcast/stats.py)."""

from __future__ import annotations

from typing import Any

from dealer_pi.broadcast.stats import Tally


def bet(seat: int, action: str, to: int = 0) -> dict[str, Any]:
    return {"type": "bet_placed", "seat": seat, "action": action, "to": to, "all_in": False}


STREET = {"type": "street_completed"}


def three_handed_hand() -> list[dict[str, Any]]:
    """Ann opens, Bob 3-bets from the small blind, Cy folds the big blind, Ann calls; Bob wins at showdown."""
    return [
        {"type": "hand_started", "setup": {"seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bob"},
                                                      {"seat": 3, "name": "Cy"}]}},
        {"type": "blind_posted", "seat": 2, "amount": 5}, {"type": "blind_posted", "seat": 3, "amount": 10},
        bet(1, "raise", 30), bet(2, "raise", 90), bet(3, "fold", 10), bet(1, "call", 90),
        STREET, bet(2, "bet", 100), bet(1, "call", 100),
        STREET, bet(2, "check"), bet(1, "check"),
        STREET, bet(2, "check"), bet(1, "bet", 150), bet(2, "raise", 400), bet(1, "call", 400),
        {"type": "pot_awarded", "shares": [[2, 1190]]},
        {"type": "hand_ended", "misdeal": False},
    ]


def rows(*hands: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    t = Tally()
    for h in hands:
        t.add_hand(h)
    return {r["player"]: r for r in t.rows()}


def test_stats_vpip_pfr_and_3bet_count_only_voluntary_preflop_actions() -> None:
    s = rows(three_handed_hand())
    assert (s["Ann"]["vpip"], s["Ann"]["pfr"], s["Ann"]["three_bet"]) == (1.0, 1.0, None)  # opened: no 3-bet chance
    assert (s["Bob"]["vpip"], s["Bob"]["pfr"], s["Bob"]["three_bet"]) == (1.0, 1.0, 1.0)
    assert (s["Cy"]["vpip"], s["Cy"]["pfr"], s["Cy"]["three_bet"]) == (0.0, 0.0, None)  # faced a 3-bet, not one raise


def test_stats_aggression_and_showdown_shares() -> None:
    s = rows(three_handed_hand())
    assert s["Ann"]["af"] == 0.5 and s["Bob"]["af"] is None  # Bob never called after the flop
    assert s["Ann"]["wtsd"] == s["Bob"]["wtsd"] == 1.0 and s["Cy"]["wtsd"] is None
    assert s["Bob"]["wsd"] == 1.0 and s["Ann"]["wsd"] == 0.0


def test_stats_a_misdealt_hand_is_not_counted() -> None:
    voided = three_handed_hand()[:-1] + [{"type": "hand_ended", "misdeal": True}]
    s = rows(voided, three_handed_hand())
    assert s["Ann"]["hands"] == 1
