"""What the dealer must do, in plain words, for each DEAL-* rule under a profile.

The wording follows the seed each profile takes the rule from (RULES.md), so
a ``roberts`` table hears the 001 procedure and a ``house-pig`` table the 002
one.

>>> from ..profiles import get_profile
>>> hole_exposed(get_profile("roberts"), seat=4, card=None, first=True).startswith("Deal on")
True
>>> "Misdeal" in hole_exposed(get_profile("standard"), seat=4, card=None, first=True)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import Card
from ..profiles import RuleProfile

REDEAL: Final = "Misdeal: collect all cards, reshuffle, cut and redeal; stacks and blinds go back, the button stays (DEAL-MISDEAL-REMEDY)."


def _c(card: Card | None) -> str:
    return str(card) if card is not None else "the card"


def first_exposed(seat: int) -> str:
    return f"The first card dealt (seat {seat}) was exposed. {REDEAL}"


def hole_exposed(profile: RuleProfile, seat: int, card: Card | None, first: bool, unsure: Sequence[int] = ()) -> str:
    """``unsure``: seats whose card the camera was not sure was face up, still open this deal."""
    if profile.exposed_hole_card == "replace-one" and first:
        return (f"Deal on. After the deal, give seat {seat} the top card of the deck in place of "
                f"{_c(card)}, and use {_c(card)} as the burn card before the flop (001){_second(unsure)}.")
    if profile.exposed_hole_card == "replace-one":
        return f"More than one hole card exposed during the deal (seat {seat}, {_c(card)}). {REDEAL}"
    return f"Hole card {_c(card)} to seat {seat} exposed by the dealer (000 §39, 002 §14.1.1). {REDEAL}"


def unsure_exposed(seat: int, replace: bool, unsure: Sequence[int] = ()) -> str:
    """The camera's "not sure" of a hole card face up, with 001's procedure where it applies.
    No card is named: the card may not have been seen, so it may still be secret. ``unsure``:
    other seats' cards the camera was not sure of this deal, still open."""
    what = f"the card dealt to seat {seat} may have been face up"
    if replace:
        what += (f". If it was, deal on: after the deal give seat {seat} the top card of the deck in its place, "
                 "and use the exposed card as the burn card before the flop (001)")
    return uncertain(what + _second(unsure))


def _second(unsure: Sequence[int]) -> str:
    """001 replaces one exposed hole card; a second is a misdeal. Where the camera was not sure of
    another card, only the dealer can tell whether this one is the second."""
    if not unsure:
        return ""
    seats = ", ".join(str(s) for s in unsure)
    return (f". The camera was not sure whether seat {seats}'s card was face up: if it was, confirm that "
            "notice, and the hand is a misdeal (two exposed cards, 001)")


def empty_seat(seat: int) -> str:
    return f"A card was dealt to seat {seat}, which is not in the hand (002 §14.1.2). {REDEAL}"


def out_of_order(seat: int, expected: int) -> str:
    return (f"A card went to seat {seat} but seat {expected} was next: dealing starts left of the button, "
            f"one card at a time, clockwise (002 §14.1.2). {REDEAL}")


def short_deal(seats: list[int]) -> str:
    who = ", ".join(str(s) for s in seats)
    return f"Seat(s) {who} did not get two hole cards (002 §14.1.3). {REDEAL}"


def extra_hole(profile: RuleProfile, seat: int, card: Card | None, to_burn: bool, many: bool) -> str:
    if to_burn:
        return (f"Seat {seat} got a third card: put {_c(card)} back on top of the deck; "
                "it is the burn card before the flop (001).")
    if many:
        return f"Two or more extra hole cards dealt: misdeal regardless of any betting (001). {REDEAL}"
    return f"Seat {seat} has more than two hole cards (002 §14.1.3). {REDEAL}"


def misdeal_locked(profile: RuleProfile, rule: str, what: str) -> str:
    return (f"{what} ({rule}) would be a misdeal, but {profile.misdeal_lock_actions} players after the "
            "blinds have already acted: the hand is played to its end (002 §14.3).")


def flop_extra(reason: str, new_burn: bool) -> str:
    if new_burn:
        return (f"{reason}: take the flop cards back, reshuffle them with the deck, burn a new card "
                "and deal a new flop (002 §14.4).")
    return (f"{reason}: take the flop cards back, reshuffle them with the deck and deal a new flop; "
            "the burn card already out stays (001).")


def redealt_without_burn(street: str, rule: str) -> str:
    return (f"The {street} was dealt again without burning a new card first, as the correction for {rule} "
            f"asks (002 §14.4-14.5). The new {street} stands and the hand goes on; call the floor if a player objects.")


def second_burn(street: str, card: Card | None, exposed: Card | None) -> str:
    why = f"the exposed hole card {exposed} is this street's burn (001)" if exposed is not None \
        else "one card is burned before each street (002 §9.1, §10.1, §11.1)"
    return (f"A second card ({_c(card)}) was burned before the {street}: {why}. Put it back on top of the deck, "
            f"then turn the {street}.")


def river_without_burn(card: Card | None) -> str:
    return (f"After a card turned too early, the river comes without a burn (001): put {_c(card)} back on top "
            "of the deck and turn it as the river.")


def board_extra(street: str, reason: str) -> str:
    return (f"{reason} at the {street}: the board already out stays; put the {street} card(s) back, "
            f"reshuffle the rest of the deck, burn one card and turn one new {street} card (002 §14.5).")


def turn_early(card: Card | None) -> str:
    return (f"The turn ({_c(card)}) was exposed before the flop betting ended: take it out of play. "
            "When the betting is done, burn and turn the next card as the turn. After the turn betting, "
            f"reshuffle the rest of the deck with {_c(card)} (not the burns or discards) and turn the river "
            "without a burn (001).")


def river_early(card: Card | None) -> str:
    return (f"The river ({_c(card)}) was exposed before the turn betting ended: take it out of play. "
            f"When the betting is done, reshuffle the rest of the deck with {_c(card)} (not the burns or "
            "discards) and turn the river without a new burn (001).")


def procedure_broken(rule: str, what: str) -> str:
    return f"The correction for {rule} was not followed: {what}. Call the floor."


def faceup_in_deck(card: Card | None) -> str:
    return f"{_c(card)} was face up in the deck: put it on the bottom and use the next card (002 §14.6)."


def foul_deck(what: str) -> str:
    return f"Foul deck: {what} (DEAL-DECK). Stop, check and replace the deck. {REDEAL}"


def missing_card(locked: bool) -> str:
    if locked:
        return "A card is missing from the deck, but two players have acted: the hand plays on; replace the card before the next hand (002 §14.7)."
    return f"A card is missing from the deck before the betting: replace it, shuffle and cut (002 §14.7). {REDEAL}"


def player_exposed(profile: RuleProfile, seat: int, card: Card | None) -> str:
    text = (f"Seat {seat} exposed {_c(card)}: the hand stays live; tell every player what the card is "
            "(000 §40, 002 §14.8).")
    if profile.deliberate_show_penalty == "half-pot":
        text += (" If it was shown on purpose, the hand is dead and the player owes a penalty of half the pot "
                 "(002 §6.8): your call.")
    return text


def no_rabbit(card: Card | None) -> str:
    return f"The hand is over: {_c(card)} must not be shown. Take it back face down; no rabbit hunting (000 §69)."


def uncertain(what: str) -> str:
    return f"Not sure: {what}. Check the table and confirm or dismiss this notice."
