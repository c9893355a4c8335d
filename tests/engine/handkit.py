"""Small helpers for engine tests: start a hand and play a compact script.

Script steps, separated by commas:
``3 f`` fold, ``3 x`` check, ``3 c`` call, ``3 r 60`` bet/raise to 60, ``3 a`` all-in,
``3 chips 50`` chips pushed, ``board AhKd2c`` board cards, ``hole 3 AhKd`` hole cards,
``show 3`` / ``show 3 AhKd`` and ``muck 3`` at the showdown.
"""

from __future__ import annotations

from collections.abc import Mapping

from dealer_pi.engine.cards import parse_cards
from dealer_pi.engine.events import (
    ActionTaken,
    BoardDealt,
    ChipsPlaced,
    Entry,
    HandMucked,
    HandShown,
    HoleCardsDealt,
)
from dealer_pi.engine.hand import Hand
from dealer_pi.engine.observations import ActionKind as A
from dealer_pi.engine.profiles import RuleProfile, get_profile
from dealer_pi.engine.setup import Structure, blinds_setup

KINDS = {"f": A.FOLD, "x": A.CHECK, "c": A.CALL, "a": A.ALL_IN}


def start(
    stacks: Mapping[int, int],
    button: int,
    sb: int = 1,
    bb: int = 2,
    *,
    profile: str | RuleProfile = "standard",
    structure: Structure = Structure.NO_LIMIT,
    **kw: object,
) -> Hand:
    prof = get_profile(profile) if isinstance(profile, str) else profile
    return Hand.start(blinds_setup(stacks, button, sb, bb, structure=structure, **kw), prof)  # type: ignore[arg-type]


def entry(step: str) -> Entry:
    words = step.split()
    if words[0] == "board":
        return BoardDealt(tuple(parse_cards(words[1])))
    if words[0] == "hole":
        return HoleCardsDealt(int(words[1]), tuple(parse_cards(words[2])))
    if words[0] == "show":
        return HandShown(int(words[1]), tuple(parse_cards(words[2])) if len(words) > 2 else ())
    if words[0] == "muck":
        return HandMucked(int(words[1]))
    seat = int(words[0])
    if words[1] == "r":
        return ActionTaken(seat, A.RAISE, int(words[2]))
    if words[1] == "chips":
        return ChipsPlaced(seat, int(words[2]))
    return ActionTaken(seat, KINDS[words[1]])


def play(hand: Hand, script: str) -> Hand:
    for step in script.split(","):
        if step.strip():
            hand.apply(entry(step.strip()))
    return hand


def chips_in_play(hand: Hand) -> int:
    """Every chip of the hand: stacks, rake taken, and what is still in the pot."""
    st = hand.state
    return sum(st.stacks) + st.rake + (0 if st.is_complete else sum(st.total))
