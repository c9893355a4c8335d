"""Hold'em hand values: the best five of five, six or seven cards (POT-BEST-FIVE).

A hand value is one int; a higher value is a better hand and equal hands get
equal values, so suits never rank and kickers break ties by plain comparison.
The layout is readable on purpose: ``category << 20`` then the deciding ranks
(2..14), four bits each, most important first. Over all 2,598,960 five-card
hands that gives exactly 7,462 distinct values.

>>> from .cards import parse_cards
>>> hand_description(evaluate7(parse_cards("KhKd5s5c9h")))
'Two pair, Kings and Fives'
>>> hand_description(evaluate7(parse_cards("Ah2d3c4s5h9dKc")))
'Straight, Five high'
>>> evaluate7(parse_cards("AsKsQsJsTs")) > evaluate7(parse_cards("AhAdAcAs2d"))
True
>>> evaluate7(parse_cards("AhKd9c7s3h")) == evaluate7(parse_cards("AcKs9d7h3c"))
True
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, Sequence

from .cards import Card
from .errors import InputError


class HandCategory(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_CATEGORY_SHIFT: Final = 20
_WHEEL: Final = 0b1000000001111  # A-2-3-4-5 as a rank mask (bit 0 = deuce)


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_high(mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, or 0."""
    for high in range(14, 5, -1):
        window = 0b11111 << (high - 6)
        if mask & window == window:
            return high
    return 5 if mask & _WHEEL == _WHEEL else 0


def _top_ranks(mask: int, n: int) -> list[int]:
    return [r for r in range(14, 1, -1) if mask >> (r - 2) & 1][:n]


def _flush_value(mask: int) -> int:
    high = _straight_high(mask)
    if high:
        return _pack(HandCategory.STRAIGHT_FLUSH, (high,))
    return _pack(HandCategory.FLUSH, _top_ranks(mask, 5))


# Value of the best flush or straight flush per suit-mask with >= 5 ranks, filled
# on first sight like _BY_COUNTS below (the whole table took ~40 ms at import).
# With at most seven cards, five of a suit rule out quads and full houses, so a
# flush found here is final.
_FLUSH: dict[int, int] = {}

# Per card index: its rank as a 3-bit counter field, and its suit as a 4-bit one.
_RANK_UNIT: Final[tuple[int, ...]] = tuple(1 << (3 * (i >> 2)) for i in range(52))
_SUIT_UNIT: Final[tuple[int, ...]] = tuple(1 << (4 * (i & 3)) for i in range(52))
# Adding 3 to a 4-bit suit counter sets its top bit exactly when it holds >= 5.
_FIVE_OF_A_SUIT: Final = 0x3333
_SUIT_TOP_BITS: Final = 0x8888


def _value_from_counts(counts: int) -> int:
    """Best non-flush hand from the packed per-rank counters."""
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for r in range(14, 1, -1):
        c = counts >> (3 * (r - 2)) & 7
        if c:
            by_count[c].append(r)
            mask |= 1 << (r - 2)
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]
    if quads:
        rest = [r for r in range(14, 1, -1) if mask >> (r - 2) & 1 and r != quads[0]]
        return _pack(HandCategory.FOUR_OF_A_KIND, (quads[0], rest[0]))
    if trips and (len(trips) > 1 or pairs):
        pair = max(trips[1:] + pairs)
        return _pack(HandCategory.FULL_HOUSE, (trips[0], pair))
    high = _straight_high(mask)
    if high:
        return _pack(HandCategory.STRAIGHT, (high,))
    singles = sorted(by_count[1] + pairs[2:], reverse=True)
    if trips:
        return _pack(HandCategory.THREE_OF_A_KIND, [trips[0]] + singles[:2])
    if len(pairs) >= 2:
        return _pack(HandCategory.TWO_PAIR, (pairs[0], pairs[1], singles[0]))
    if pairs:
        return _pack(HandCategory.PAIR, [pairs[0]] + singles[:3])
    return _pack(HandCategory.HIGH_CARD, singles[:5])


# Filled on first sight of each rank pattern (at most ~74,000 of them): the
# import stays instant and a pattern is worked out once per process.
_BY_COUNTS: dict[int, int] = {}


def evaluate7(cards: Sequence[Card]) -> int:
    """Value of the best five-card hand among 5, 6 or 7 distinct cards."""
    n = len(cards)
    if n < 5 or n > 7:
        raise InputError("cards", f"a hand value needs 5, 6 or 7 cards, got {n}")
    counts = 0
    suits = 0
    for c in cards:
        i = c.index
        counts += _RANK_UNIT[i]
        suits += _SUIT_UNIT[i]
    if len(set(cards)) != n:
        raise InputError("cards", "the same card appears twice: " + " ".join(map(str, cards)))
    flush = (suits + _FIVE_OF_A_SUIT) & _SUIT_TOP_BITS
    if flush:
        suit = (flush.bit_length() - 4) >> 2
        mask = 0
        for c in cards:
            if c.index & 3 == suit:
                mask |= 1 << (c.rank - 2)
        value = _FLUSH.get(mask)
        if value is None:
            value = _FLUSH[mask] = _flush_value(mask)
        return value
    value = _BY_COUNTS.get(counts)
    if value is None:
        value = _BY_COUNTS[counts] = _value_from_counts(counts)
    return value


def hand_category(value: int) -> HandCategory:
    """The category of a value from :func:`evaluate7`.

    >>> from .cards import parse_cards
    >>> hand_category(evaluate7(parse_cards("2h2d2c9s9h"))).name
    'FULL_HOUSE'
    """
    return HandCategory(value >> _CATEGORY_SHIFT)


def _ranks(value: int) -> list[int]:
    return [value >> shift & 15 for shift in (16, 12, 8, 4, 0)]


_SINGULAR: Final = {
    2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace",
}


def _plural(rank: int) -> str:
    return _SINGULAR[rank] + ("es" if rank == 6 else "s")


def hand_description(value: int) -> str:
    """Words a dealer says for a value: ``'Full house, Kings full of Fives'``.

    >>> from .cards import parse_cards
    >>> [hand_description(evaluate7(parse_cards(h))) for h in ("AsKsQsJsTs", "6h6d6c6s2d", "Ah9h7h4h2h")]
    ['Royal flush', 'Four of a kind, Sixes', 'Flush, Ace high']
    """
    category = hand_category(value)
    r = _ranks(value)
    if category is HandCategory.STRAIGHT_FLUSH:
        return "Royal flush" if r[0] == 14 else f"Straight flush, {_SINGULAR[r[0]]} high"
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"Four of a kind, {_plural(r[0])}"
    if category is HandCategory.FULL_HOUSE:
        return f"Full house, {_plural(r[0])} full of {_plural(r[1])}"
    if category is HandCategory.FLUSH:
        return f"Flush, {_SINGULAR[r[0]]} high"
    if category is HandCategory.STRAIGHT:
        return f"Straight, {_SINGULAR[r[0]]} high"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"Three of a kind, {_plural(r[0])}"
    if category is HandCategory.TWO_PAIR:
        return f"Two pair, {_plural(r[0])} and {_plural(r[1])}"
    if category is HandCategory.PAIR:
        return f"Pair of {_plural(r[0])}"
    return f"High card, {_SINGULAR[r[0]]}"
