"""What the seat to act may do now, with amounts: the dealer tablet's buttons.

>>> from .hand import Hand
>>> from .setup import blinds_setup
>>> h = Hand.start(blinds_setup({1: 100, 2: 100, 3: 100}, button=3, small_blind=1, big_blind=2))
>>> la = legal_actions(h.state)
>>> la.seat, la.to_call, la.can_check, la.min_to, la.max_to
(3, 2, False, 4, 100)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .betting import raise_bounds
from .state import HandState, Phase


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The choices of ``seat``. Amounts are street totals ("raise to") except ``to_call``.

    ``to_call`` is the chips a call adds (capped by the stack: an all-in call for less);
    ``can_raise`` covers an opening bet too (``is_bet``); ``min_to``/``max_to`` bound the
    raise-to (equal in Limit); ``all_in_to`` is the seat's whole stack as a street total.
    When raising is closed, ``raise_closed_by`` names the rule (BET-INCOMPLETE, BET-LIMIT...).
    """

    seat: int
    to_call: int
    can_fold: bool
    can_check: bool
    can_call: bool
    can_raise: bool
    is_bet: bool
    min_to: int
    max_to: int
    all_in_to: int
    current_bet: int
    pot: int
    raise_closed_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def legal_actions(state: HandState) -> LegalActions | None:
    """The seat to act and its options, or None when nobody is to act."""
    if state.phase is not Phase.BETTING or state.to_act < 0:
        return None
    i = state.to_act
    cur = state.current_bet
    owed = cur - state.bets[i]
    to_call = min(max(owed, 0), state.stacks[i])
    b = raise_bounds(state, i)
    return LegalActions(
        seat=state.order[i],
        to_call=to_call,
        can_fold=True,
        can_check=owed <= 0,
        can_call=owed > 0,
        can_raise=b.allowed,
        is_bet=cur == 0,
        min_to=b.min_to if b.allowed else 0,
        max_to=b.max_to if b.allowed else 0,
        all_in_to=state.bets[i] + state.stacks[i],
        current_bet=cur,
        pot=state.pot_total(),
        raise_closed_by="" if b.allowed else b.rule,
    )
