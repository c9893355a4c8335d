"""The dealing faults the simulator can make on purpose, and what the monitor must say.

Each :class:`Fault` is one DEAL-* error class; :func:`expected_alert` gives the
rule ID and verdict the monitor must raise for it under a rule profile (the
profiles differ on exposed hole cards, extra hole cards and the misdeal lock).

>>> from dealer_pi.engine.profiles import get_profile
>>> expected_alert(Fault.HOLE_EXPOSED, get_profile("roberts"))
('DEAL-HOLE-EXPOSED', 'irregularity')
>>> expected_alert(Fault.HOLE_EXPOSED, get_profile("house-pig"))
('DEAL-HOLE-EXPOSED', 'misdeal')
"""

from __future__ import annotations

import enum

from dealer_pi.engine.profiles import RuleProfile


class Fault(enum.Enum):
    FIRST_EXPOSED = "first-exposed"  # the first card dealt lands face up
    HOLE_EXPOSED = "hole-exposed"  # a later hole card lands face up
    EXTRA_HOLE = "extra-hole"  # the first player gets a third card right after the deal
    SHORT_DEAL = "short-deal"  # the deal stops early: someone has one card
    EMPTY_SEAT = "empty-seat"  # a card dealt to a seat nobody plays
    OUT_OF_ORDER = "out-of-order"  # a card to the wrong player
    FLOP_EXTRA = "flop-extra"  # four cards turned on the flop
    FLOP_NO_BURN = "flop-no-burn"  # the flop turned without a burn
    TURN_EARLY = "turn-early"  # the turn exposed during the flop betting
    RIVER_EARLY = "river-early"  # the river exposed during the turn betting
    BOARD_EXTRA = "board-extra"  # two cards turned at the turn or the river
    BOARD_NO_BURN = "board-no-burn"  # the turn or river without a burn
    FACEUP_IN_DECK = "faceup-in-deck"  # a drawn card is face up in the deck
    DUPLICATE_CARD = "duplicate-card"  # the shoe reads a card already out this hand
    MISSING_CARD = "missing-card"  # a card goes missing from the deck
    PLAYER_EXPOSED = "player-exposed"  # a player turns a hole card up during the betting
    MISDEAL_LOCK = "misdeal-lock"  # an extra hole card found after two players acted
    RABBIT = "rabbit"  # a card turned after the hand is over
    SENSOR_DISAGREE = "sensor-disagree"  # the camera reads another card than the shoe
    MISSED_LANDING = "missed-landing"  # a hole card nobody saw land


def expected_alert(fault: Fault, profile: RuleProfile, *, actors: int = 0) -> tuple[str, str]:
    """(rule ID, verdict) the monitor must raise; ``actors``: players past the blinds who acted."""
    lock = profile.misdeal_lock_actions
    if fault is Fault.FIRST_EXPOSED:
        if profile.first_card_exposed_misdeal:
            return "DEAL-FIRST-EXPOSED", "misdeal"
        fault = Fault.HOLE_EXPOSED
    if fault is Fault.HOLE_EXPOSED:
        return "DEAL-HOLE-EXPOSED", "irregularity" if profile.exposed_hole_card == "replace-one" else "misdeal"
    if fault is Fault.EXTRA_HOLE:
        return "DEAL-HOLE-COUNT", "irregularity" if profile.hole_count == "burn-first-extra" else "misdeal"
    if fault is Fault.MISDEAL_LOCK:
        if lock and actors >= lock:
            return "DEAL-MISDEAL-LOCK", "information"
        return "DEAL-HOLE-COUNT", "misdeal"
    if fault is Fault.MISSING_CARD:
        return "DEAL-MISSING-CARD", "information" if actors >= 2 else "misdeal"
    return {
        Fault.SHORT_DEAL: ("DEAL-HOLE-COUNT", "misdeal"),
        Fault.EMPTY_SEAT: ("DEAL-EMPTY-SEAT", "misdeal"),
        Fault.OUT_OF_ORDER: ("DEAL-ORDER", "misdeal"),
        Fault.FLOP_EXTRA: ("DEAL-FLOP-EXTRA", "irregularity"),
        Fault.FLOP_NO_BURN: ("DEAL-FLOP-EXTRA", "irregularity"),
        Fault.TURN_EARLY: ("DEAL-TURN-EARLY", "irregularity"),
        Fault.RIVER_EARLY: ("DEAL-RIVER-EARLY", "irregularity"),
        Fault.BOARD_EXTRA: ("DEAL-BOARD-EXTRA", "irregularity"),
        Fault.BOARD_NO_BURN: ("DEAL-BOARD-EXTRA", "irregularity"),
        Fault.FACEUP_IN_DECK: ("DEAL-FACEUP-IN-DECK", "irregularity"),
        Fault.DUPLICATE_CARD: ("DEAL-DECK", "misdeal"),
        Fault.PLAYER_EXPOSED: ("DEAL-PLAYER-EXPOSED", "information"),
        Fault.RABBIT: ("DEAL-NO-RABBIT", "irregularity"),
        Fault.SENSOR_DISAGREE: ("DEAL-DECK", "uncertain"),
        Fault.MISSED_LANDING: ("DEAL-ORDER", "uncertain"),
    }[fault]
