"""What pushed chips mean: oversized chips, under-raises and declarations.

A dealer often sees chips, not words. :func:`interpret_chips` turns a
:class:`ChipsPlaced` into the action it stands for, following 000 §3
(BET-VERBAL: a declaration wins over chips), §9a-b (BET-UNDER-RAISE) and
§11a-f (BET-OVERSIZED-CHIP). Chips beyond the action's meaning go back; a
declaration with too few chips binds all the same (000 §3: the player "must do
so to the limit that the chips allow") and the rest is owed.

>>> from .hand import Hand
>>> from .setup import blinds_setup
>>> h = Hand.start(blinds_setup({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10))
>>> interpret_chips(h.state, 2, ChipsPlaced(3, 100, single_chip=True))  # 000 §11b
Meaning(action=<ActionKind.CALL: 'call'>, to=10, returned=90, rule='BET-OVERSIZED-CHIP', owed=0)
>>> interpret_chips(h.state, 2, ChipsPlaced(3, 15)).to  # a raise of 5, half of 10: complete to 20
20
>>> interpret_chips(h.state, 2, ChipsPlaced(3, 4, declared=ActionKind.CALL))  # "call" with 4 of 10
Meaning(action=<ActionKind.CALL: 'call'>, to=10, returned=0, rule='BET-VERBAL', owed=6)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .betting import raise_bounds
from .errors import RuleViolation
from .events import ChipsPlaced
from .observations import ActionKind
from .setup import Structure
from .state import HandState


class Meaning(NamedTuple):
    """The action the chips make: ``to`` is the seat's street total; ``returned`` chips go back;
    ``owed`` chips must still follow a declaration the pushed chips fall short of (BET-VERBAL)."""

    action: ActionKind
    to: int
    returned: int
    rule: str
    owed: int = 0


RaiseFn = Callable[[int, str], "Meaning"]
CallFn = Callable[[str], "Meaning"]


def interpret_chips(st: HandState, i: int, c: ChipsPlaced) -> Meaning:
    """The meaning of chips pushed by player ``i`` (index in dealing order)."""
    bet = st.bets[i]
    stack = st.stacks[i]
    cur = st.current_bet
    to_call = cur - bet
    if c.amount > stack:
        raise RuleViolation("BET-TABLE-STAKES", f"seat {st.order[i]} has only {stack} behind, not {c.amount}")
    pushed_to = bet + c.amount
    all_in = c.amount == stack
    bounds = raise_bounds(st, i)
    structure = st.setup.structure

    declared = c.declared

    def call(rule: str) -> Meaning:
        if to_call <= 0:
            return Meaning(ActionKind.CHECK, bet, c.amount, rule)
        need = min(to_call, stack)
        if c.amount < need and declared is None:
            raise RuleViolation(
                "BET-ALL-IN", f"seat {st.order[i]} pushed {c.amount} of the {need} needed to call without a word: "
                "only an all-in calls for less; a declared call binds and is completed (BET-VERBAL)")
        return Meaning(ActionKind.CALL, bet + need, max(0, c.amount - need), rule, max(0, need - c.amount))

    def raise_to(to: int, rule: str) -> Meaning:
        if not bounds.allowed:
            return call(bounds.rule)
        to = min(max(to, bounds.min_to), bounds.max_to)
        if to - bet > stack:
            to = bet + stack
        # Short of ``to``: a declaration binds (BET-VERBAL), an under-raise is completed (BET-UNDER-RAISE).
        return Meaning(ActionKind.RAISE if cur else ActionKind.BET, to, max(0, pushed_to - to), rule,
                       max(0, to - pushed_to))

    if declared is ActionKind.FOLD:
        return Meaning(ActionKind.FOLD, bet, c.amount, "BET-VERBAL")
    if declared in (ActionKind.CHECK, ActionKind.CALL):
        return call("BET-VERBAL")
    if declared is ActionKind.ALL_IN:
        if bet + stack <= cur or not bounds.allowed:
            return call("BET-VERBAL")
        return Meaning(ActionKind.RAISE if cur else ActionKind.BET, bet + stack, 0, "BET-VERBAL")
    if declared in (ActionKind.BET, ActionKind.RAISE):
        if c.declared_amount is not None:
            return raise_to(c.declared_amount, "BET-VERBAL")
        if c.single_chip:
            # 000 §11e (NL: the raise is the chip) and §11f (PL: the most allowed up to the chip).
            return raise_to(pushed_to, "BET-OVERSIZED-CHIP")
        return raise_to(pushed_to, "BET-VERBAL")
    if c.single_chip:
        # 000 §11a (Limit), §11b (NL preflop), §11d (facing a bet): a call.
        # §11c: after the flop the initial bettor bets the chip's value.
        if structure is Structure.LIMIT or st.street == 0 or to_call > 0:
            return call("BET-OVERSIZED-CHIP")
        return _sized(st, i, pushed_to, raise_to, call)
    if pushed_to <= cur:
        return call("BET-ALL-IN" if all_in else "BET-VERBAL")
    if all_in and bounds.allowed and pushed_to <= bounds.max_to:
        return Meaning(ActionKind.RAISE if cur else ActionKind.BET, pushed_to, 0, "BET-ALL-IN")
    return _sized(st, i, pushed_to, raise_to, call)


def _sized(st: HandState, i: int, pushed_to: int, raise_to: RaiseFn, call: CallFn) -> Meaning:
    """Chips beyond a call with no words: a full raise stands; short of one, the 50 % rule."""
    bounds = raise_bounds(st, i)
    if not bounds.allowed:
        return call(bounds.rule)
    if pushed_to >= bounds.min_to:
        return raise_to(pushed_to, "BET-PL-MAX" if pushed_to > bounds.max_to else "BET-VERBAL")
    cur = st.current_bet
    increment = bounds.min_to - cur
    if st.profile.under_raise == "refuse":
        raise RuleViolation("BET-UNDER-RAISE", f"short of the minimum raise to {bounds.min_to}")
    # BET-UNDER-RAISE: >= 50 % of the minimum raise must complete it; less is a call.
    if (pushed_to - cur) * 2 >= increment:
        return raise_to(bounds.min_to, "BET-UNDER-RAISE")
    return call("BET-UNDER-RAISE")
