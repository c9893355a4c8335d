"""TABLE-CHIP-RACE: colouring up the smallest chips (000 §49-50).

When chips of value ``remove`` leave play, each player trades what they can
for chips of the next value ``next_chip`` (49a); what is left over (the odd
chips, worth less than one ``next_chip``) goes to the middle and is traded for
as many ``next_chip`` chips as it makes, the rest removed (49b). From the
small blind of the next hand on, each player who put odd chips in gets one
card; the highest rank wins, a tie going to the card dealt first (49c).
From the winner on, clockwise, each of those players gets one chip from the
middle until it is empty (49d). Nobody is raced out: a player left with no
chip gets one chip of the smallest value still in play (50).

Stacks are values; the odd chips of a stack are its value modulo ``next_chip``
(whatever small chips make it up, that is the part that cannot be traded).
The cards are recorded (the dealer enters them) or drawn with a seeded draw.

>>> r = chip_race({1: 1050, 3: 975, 5: 25, 7: 2000}, order=[3, 5, 7, 1], remove=25, next_chip=100, seed=11)
>>> r.odd
{3: 75, 5: 25, 1: 50}
>>> r.chips_out, r.removed   # 150 in the middle: one chip of 100, 50 removed
(1, 50)
>>> sum(r.stacks.values()) == 1050 + 975 + 25 + 2000 - r.removed + 100 * len(r.rescued)
True
>>> r.stacks[5] > 0   # 000 §50: raced out of nothing
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import FULL_DECK, Card
from ..errors import InputError


@dataclass(frozen=True, slots=True)
class RaceResult:
    """``odd``: each racing seat's odd chips (value), in the order the cards were dealt;
    ``cards``: (seat, card) in that order; ``winners``: the seats given a chip from the
    middle, in the order given; ``rescued``: seats given one chip so as not to be raced out."""

    stacks: Mapping[int, int]
    odd: Mapping[int, int]
    cards: tuple[tuple[int, str], ...]
    winners: tuple[int, ...]
    chips_out: int
    removed: int
    rescued: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "stacks": {str(s): v for s, v in self.stacks.items()}, "odd": {str(s): v for s, v in self.odd.items()},
            "cards": [[s, c] for s, c in self.cards], "winners": list(self.winners), "chips_out": self.chips_out,
            "removed": self.removed, "rescued": list(self.rescued),
        }


def _check(stacks: Mapping[int, int], order: Sequence[int], remove: int, next_chip: int) -> None:
    if remove < 1 or next_chip <= remove or next_chip % remove:
        raise InputError("chip_race", f"the next chip ({next_chip}) must be a multiple of the chip removed ({remove})")
    if sorted(order) != sorted(stacks) or len(set(order)) != len(order):
        raise InputError("chip_race.order", "must list every seat once, from the small blind of the next hand")
    for seat, stack in stacks.items():
        if stack < 0:
            raise InputError(f"chip_race.stacks.{seat}", f"a stack is 0 or more, got {stack}")


def _deal(n: int, cards: Sequence[Card] | None, seed: int | None) -> list[Card]:
    if cards is not None:
        if len(cards) != n or len(set(cards)) != n:
            raise InputError("chip_race.cards", f"one different card for each of the {n} players racing")
        return list(cards)
    if seed is None:
        raise InputError("chip_race", "give the cards dealt, or a seed to draw them")
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck[:n]


def chip_race(stacks: Mapping[int, int], order: Sequence[int], remove: int, next_chip: int, *,
              cards: Sequence[Card] | None = None, seed: int | None = None) -> RaceResult:
    """Race the odd chips; ``order``: every seat, clockwise from the small blind of the next hand."""
    _check(stacks, order, remove, next_chip)
    odd = {s: stacks[s] % next_chip for s in order if stacks[s] % next_chip}
    racing = list(odd)
    dealt = _deal(len(racing), cards, seed)
    total = sum(odd.values())
    chips_out = total // next_chip
    new = {s: stacks[s] - odd.get(s, 0) for s in stacks}
    winners: list[int] = []
    if racing:
        best = max(range(len(racing)), key=lambda i: (dealt[i].rank, -i))  # a tie: the card dealt first
        for k in range(chips_out):
            winners.append(racing[(best + k) % len(racing)])
        for s in winners:
            new[s] += next_chip
    rescued = tuple(s for s in racing if new[s] == 0)
    for s in rescued:
        new[s] = next_chip
    return RaceResult(
        stacks={s: new[s] for s in sorted(new)}, odd=odd,
        cards=tuple((s, str(c)) for s, c in zip(racing, dealt)), winners=tuple(winners),
        chips_out=chips_out, removed=total - chips_out * next_chip, rescued=rescued,
    )
