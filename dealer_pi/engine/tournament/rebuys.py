"""TABLE-REBUY: rebuys, add-ons and 002's buy-back, and when each is allowed (000 §58-62, 002 §2.2).

Chips bought are added between hands only (000 §60): the floor accepts the
purchase and the table adds the chips when its current hand is over
(:mod:`.reseat`). Here: may this player buy this now, and how many chips?

>>> rules = RebuyRules(starting_stack=3000, rebuy_chips=3000, rebuy_until_level=4, buy_back=True)
>>> chips_for("rebuy", rules, Standing(busted=True), level=2)
3000
>>> chips_for("buy-back", rules, Standing(busted=True, first_out=True), level=6)
1000
>>> chips_for("rebuy", rules, Standing(busted=True), level=5)
Traceback (most recent call last):
...
dealer_pi.engine.errors.RuleViolation: [TABLE-REBUY] rebuys ended with level 4 (now level 5)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError, RuleViolation

KINDS = ("rebuy", "add-on", "buy-back")


@dataclass(frozen=True, slots=True)
class RebuyRules:
    """What a tournament sells. Levels are numbered as on the clock (1 = the first).

    ``rebuy_until_level``: rebuys are sold through this level (0: no rebuys).
    ``add_on_level``: the add-on is sold during this level and the break after it (0: none).
    ``buy_back``: 002 §2.2, the first player out may buy back once, for a third of the
    starting stack.
    """

    starting_stack: int
    rebuy_chips: int = 0
    rebuy_until_level: int = 0
    add_on_chips: int = 0
    add_on_level: int = 0
    buy_back: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's standing, as far as buying chips goes.

    ``missed_hand``: out of chips and a hand was dealt at the table without the
    player (000 §58: the right to rebuy is lost). ``first_out``: the first player
    knocked out of the tournament (002 §2.2).
    """

    busted: bool = False
    missed_hand: bool = False
    first_out: bool = False
    add_ons: int = 0
    buy_backs: int = 0
    disqualified: bool = False


def chips_for(kind: str, rules: RebuyRules, player: Standing, level: int) -> int:
    """The chips this purchase gives; raises RuleViolation (TABLE-REBUY) when it is not allowed now."""
    if kind not in KINDS:
        raise InputError("kind", "must be one of " + ", ".join(KINDS))
    if player.disqualified:
        raise RuleViolation("TABLE-PENALTY", "a disqualified player may not buy chips (000 §45)")
    if player.missed_hand:
        raise RuleViolation("TABLE-REBUY", "the player was out of chips and a hand was dealt without them: "
                            "the right to rebuy is lost (000 §58)")
    if kind == "rebuy":
        if not rules.rebuy_until_level or not rules.rebuy_chips:
            raise RuleViolation("TABLE-REBUY", "this tournament has no rebuys")
        if level > rules.rebuy_until_level:
            raise RuleViolation("TABLE-REBUY", f"rebuys ended with level {rules.rebuy_until_level} (now level {level})")
        return rules.rebuy_chips
    if kind == "add-on":
        if not rules.add_on_level or not rules.add_on_chips:
            raise RuleViolation("TABLE-REBUY", "this tournament has no add-on")
        if level not in (rules.add_on_level, rules.add_on_level + 1):
            raise RuleViolation("TABLE-REBUY", f"the add-on is sold in level {rules.add_on_level} and the break after it "
                                f"(now level {level})")
        if player.add_ons:
            raise RuleViolation("TABLE-REBUY", "one add-on per player")
        return rules.add_on_chips
    if not rules.buy_back:
        raise RuleViolation("TABLE-REBUY", "this tournament has no buy-back (002 §2.2)")
    if not player.busted or not player.first_out:
        raise RuleViolation("TABLE-REBUY", "only the first player out may buy back in (002 §2.2)")
    if player.buy_backs:
        raise RuleViolation("TABLE-REBUY", "the buy-back is taken once (002 §2.2)")
    return max(1, rules.starting_stack // 3)
