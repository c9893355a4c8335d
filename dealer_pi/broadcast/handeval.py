"""Seven-card hand strength for whole arrays of boards at once (NumPy lookup tables).

A strength is a small int (0 = the worst high card seven cards can make, the
largest = a royal flush): a higher strength is a better hand, equal hands get equal strengths. It is the
rank of the engine's own hand value (``dealer_pi.engine.evaluator``) among all
7,462 distinct values, so :func:`value_of` turns a strength back into a value
the engine can name.

Two tables do the work. Without a flush, the best hand depends only on the
ranks held, and a sum of one key per rank tells every seven-rank multiset
apart (each key larger than what the lower ones can add up to, allowing four of
a rank), so one lookup gives the strength. A flush is read off the thirteen-bit
rank mask of its suit. With seven cards a flush rules out quads and full houses,
so when there is a flush it is the hand. The tables are built in a few tens of
milliseconds on first use, all in NumPy.

>>> from dealer_pi.engine.cards import parse_cards
>>> t = tables()
>>> def s(text): return int(strength7(t, [c.index for c in parse_cards(text)]))
>>> s("AsKsQsJsTs2d3c") == len(t.values) - 1, s("7c5d4h3s2c8d9h") < s("7c5d4h3s2cAdKh")
(True, True)
>>> s("AhAdKcKs2h3c4d") == s("AcAsKhKd2s3h4c")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Sequence

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
I16 = npt.NDArray[np.int16]
U8 = npt.NDArray[np.uint8]

# One key per rank (deuce first): every multiset of seven ranks, at most four of each, has its own sum.
RANK_KEYS: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
# Four bits per suit counter: adding 3 sets a counter's top bit exactly when it holds five or more.
FIVE_OF_A_SUIT: Final = 0x3333
THREE_OF_A_SUIT: Final = 0x5555
SUIT_TOP_BITS: Final = 0x8888

# The engine's value layout (evaluator.py): category << 20, then five ranks (2..14), four bits each.
_CAT: Final = 20
_WHEEL: Final = 0b1000000001111


def _packed(category: int, ranks: I64) -> I64:
    """Values from a category and a (N, 5) matrix of ranks (0 where unused)."""
    out = np.full(len(ranks), category, dtype=np.int64)
    for i in range(5):
        out = (out << 4) | ranks[:, i]
    return out


@dataclass(frozen=True)
class MaskTables:
    """Per 13-bit rank mask (bit 0 = deuce): how many ranks, the best straight's top, the top ranks."""

    count: I64
    straight: I64  # top rank (5..14) of the best straight, 0 for none
    top: I64  # (8192, 5): the mask's ranks (2..14), highest first, 0 past the end


def _mask_tables() -> MaskTables:
    masks = np.arange(1 << 13, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(13)) & 1  # (8192, 13)
    count = bits.sum(axis=1)
    straight = np.zeros(1 << 13, dtype=np.int64)
    for high in range(6, 15):  # later (higher) straights overwrite lower ones
        window = 0b11111 << (high - 6)
        straight[(masks & window) == window] = high
    straight[(straight == 0) & ((masks & _WHEEL) == _WHEEL)] = 5
    top = np.zeros((1 << 13, 5), dtype=np.int64)
    filled = np.zeros(1 << 13, dtype=np.int64)
    for rank in range(14, 1, -1):
        has = (bits[:, rank - 2] == 1) & (filled < 5)
        rows = np.flatnonzero(has)
        top[rows, filled[rows]] = rank
        filled[rows] += 1
    return MaskTables(count, straight, top)


def _without_top(masks: I64, n: int, mt: MaskTables) -> I64:
    """The masks with their ``n`` highest ranks removed."""
    out = masks.copy()
    for i in range(n):
        out &= ~(np.int64(1) << (mt.top[out, 0] - 2))
    return out


def nonflush_values(m1: I64, m2: I64, m3: I64, m4: I64, mt: MaskTables) -> I64:
    """Engine values of the best hand without a flush, from the masks of the ranks held at least
    once, twice, three and four times."""
    out = np.zeros(len(m1), dtype=np.int64)
    done = np.zeros(len(m1), dtype=bool)
    zero = np.zeros((len(m1), 5), dtype=np.int64)

    def put(cond: npt.NDArray[np.bool_], category: int, ranks: I64) -> None:
        sel = cond & ~done
        out[sel] = _packed(category, ranks[sel])
        done[sel] = True

    quad = mt.top[m4, 0]
    r = zero.copy()
    r[:, 0], r[:, 1] = quad, mt.top[m1 & ~(np.int64(1) << np.maximum(quad - 2, 0)), 0]
    put(m4 != 0, 7, r)
    trip = mt.top[m3, 0]
    trip_bit = np.int64(1) << np.maximum(trip - 2, 0)
    pair_under = mt.top[m2 & ~trip_bit, 0]
    r = zero.copy()
    r[:, 0], r[:, 1] = trip, pair_under
    put((m3 != 0) & (pair_under != 0), 6, r)
    r = zero.copy()
    r[:, 0] = mt.straight[m1]
    put(mt.straight[m1] != 0, 4, r)
    r = zero.copy()
    r[:, 0] = trip
    r[:, 1:3] = mt.top[m1 & ~trip_bit, :2]
    put(m3 != 0, 3, r)
    two = _without_top(m2, 2, mt)
    r = zero.copy()
    r[:, 0:2] = mt.top[m2, :2]
    r[:, 2] = mt.top[m1 & ~(m2 & ~two), 0]
    put(mt.count[m2] >= 2, 2, r)
    r = zero.copy()
    r[:, 0] = mt.top[m2, 0]
    r[:, 1:4] = mt.top[m1 & ~m2, :3]
    put(m2 != 0, 1, r)
    put(np.ones(len(m1), dtype=bool), 0, mt.top[m1])
    return out


def flush_values(masks: I64, mt: MaskTables) -> I64:
    """Engine values of the best flush or straight flush of suit masks with five ranks or more."""
    out = _packed(5, mt.top[masks])
    sf = mt.straight[masks]
    r = np.zeros((len(masks), 5), dtype=np.int64)
    r[:, 0] = sf
    out[sf != 0] = _packed(8, r)[sf != 0]
    return out


def rank_patterns(total: int) -> tuple[I64, list[I64]]:
    """Every multiset of ``total`` ranks (at most four of each): its rank-key sum, and the masks
    of the ranks it holds at least once, twice, three and four times."""
    held = np.zeros(1, np.int64)
    key = np.zeros(1, np.int64)
    masks = [np.zeros(1, np.int64) for _ in range(4)]
    for rank in range(13):
        ok = [np.flatnonzero(held + c <= total) for c in range(5)]
        held = np.concatenate([held[o] + c for c, o in enumerate(ok)])
        key = np.concatenate([key[o] + c * RANK_KEYS[rank] for c, o in enumerate(ok)])
        masks = [np.concatenate([m[o] | ((c > k) << rank) for c, o in enumerate(ok)]) for k, m in enumerate(masks)]
    full = held == total
    return key[full], [m[full] for m in masks]


@dataclass(frozen=True)
class Tables:
    """Everything the array evaluator reads; build once with :func:`tables`."""

    nonflush: I16  # strength by rank-key sum
    flush: I16  # strength by suit rank mask (-1: fewer than five ranks)
    values: I64  # engine value by strength
    key: I64  # per card index (engine order: rank-major, suits cdhs)
    suit_count: I64  # per card: one in its suit's four-bit counter
    suit_bits: I64  # per card: its rank bit in its suit's thirteen-bit field
    flush_shift: I64  # by (suit flags >> 3): the bit offset of the flush suit's field


def _distinct(a: I64) -> I64:
    """Sorted distinct values (np.unique would import numpy.ma: a tenth of a second at start)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))]


@lru_cache(maxsize=1)
def tables() -> Tables:
    mt = _mask_tables()
    keys, (m1, m2, m3, m4) = rank_patterns(7)
    nf = nonflush_values(m1, m2, m3, m4, mt)
    masks = np.flatnonzero(mt.count >= 5).astype(np.int64)
    fl = flush_values(masks, mt)
    values = _distinct(np.concatenate([nf, fl]))
    nonflush = np.zeros(int(keys.max()) + 1, dtype=np.int16)
    nonflush[keys] = np.searchsorted(values, nf)
    flush = np.full(1 << 13, -1, dtype=np.int16)
    flush[masks] = np.searchsorted(values, fl)
    idx = np.arange(52, dtype=np.int64)
    rank, suit = idx >> 2, idx & 3
    shift = np.zeros((SUIT_TOP_BITS >> 3) + 1, dtype=np.int64)
    for s in range(4):
        shift[(8 << (4 * s)) >> 3] = 13 * s
    return Tables(nonflush, flush, values, np.array(RANK_KEYS, dtype=np.int64)[rank],
                  np.int64(1) << (4 * suit), np.int64(1) << (13 * suit + rank), shift)


def value_of(t: Tables, strength: int) -> int:
    """The engine's hand value (``evaluator.hand_description`` names it) of a strength."""
    return int(t.values[strength])


@dataclass(frozen=True)
class Fixed:
    """Sums over some fixed cards (a hand's hole cards and the known board): rank keys, suit
    counters and suit rank bits (distinct cards, so the sums are unions)."""

    key: int
    suits: int
    bits: int


def fixed(t: Tables, cards: Sequence[int]) -> Fixed:
    c = list(cards)
    return Fixed(int(t.key[c].sum()), int(t.suit_count[c].sum()), int(t.suit_bits[c].sum()))


class Boards:
    """The cards that vary, many boards at once: ``cols[j][b]`` is the j-th drawn card of board b,
    as a position in ``deck`` (the card indices left). Rank-key and suit sums are kept for every
    board; the suit bits are worked out only for the few boards that may make a flush."""

    def __init__(self, t: Tables, deck: I64, cols: npt.NDArray[np.integer], key: I32, suits: I32) -> None:
        self.cols, self.key, self.suits = cols, key, suits
        self._bits = t.suit_bits[deck]

    @classmethod
    def drawn(cls, t: Tables, deck: I64, cols: npt.NDArray[np.integer]) -> "Boards":
        """Boards given as positions in ``deck``, shape (cards per board, boards)."""
        key_t, suit_t = t.key[deck].astype(np.int32), t.suit_count[deck].astype(np.int32)
        key, suits = np.zeros(cols.shape[1], np.int32), np.zeros(cols.shape[1], np.int32)
        for row in cols:
            key += key_t[row]
            suits += suit_t[row]
        return cls(t, deck, cols, key, suits)

    @classmethod
    def every(cls, t: Tables, deck: I64, k: int) -> "Boards":
        """Every set of ``k`` cards from ``deck``, in lexicographic order of positions.

        The sets starting at position ``a`` are ``a`` followed by the (k-1)-sets above ``a``,
        so the sums are built from the smaller sets' sums, without gathering card by card.
        """
        key_t, suit_t = t.key[deck].astype(np.int32), t.suit_count[deck].astype(np.int32)
        n = len(deck)
        memo: dict[tuple[int, int], tuple[I32, I32, U8]] = {}

        def sub(a: int, j: int) -> tuple[I32, I32, U8]:
            if j == 0:
                return np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros((0, 1), np.uint8)
            if j == 1:
                return key_t[a:], suit_t[a:], np.arange(a, n, dtype=np.uint8)[None, :]
            if (a, j) in memo:
                return memo[a, j]
            tails = [sub(b + 1, j - 1) for b in range(a, n - j + 1)]
            size = sum(len(tk) for tk, _, _ in tails)
            key, suits, cols = np.empty(size, np.int32), np.empty(size, np.int32), np.empty((j, size), np.uint8)
            at = 0
            for b, (tk, ts, tc) in zip(range(a, n - j + 1), tails):
                end = at + len(tk)
                np.add(tk, key_t[b], out=key[at:end])
                np.add(ts, suit_t[b], out=suits[at:end])
                cols[0, at:end] = b
                cols[1:, at:end] = tc
                at = end
            memo[a, j] = key, suits, cols
            return memo[a, j]

        key, suits, cols = sub(0, k)
        return cls(t, deck, cols, key, suits)

    def __len__(self) -> int:
        return len(self.key)

    def bits(self, at: I64) -> I64:
        out = np.zeros(len(at), np.int64)
        for row in self.cols:
            out |= self._bits[row[at]]
        return out


def strengths(t: Tables, boards: Boards, hand: Fixed) -> I16:
    """Strength of one hand (its hole cards and any fixed board cards in ``hand``) on each of
    ``boards``; the cards together must be seven."""
    out = t.nonflush[boards.key + hand.key]
    suits = boards.suits + hand.suits
    maybe = np.flatnonzero((suits + FIVE_OF_A_SUIT) & SUIT_TOP_BITS)
    if maybe.size:
        flags = (suits[maybe] + FIVE_OF_A_SUIT) & SUIT_TOP_BITS
        masks = ((boards.bits(maybe) | hand.bits) >> t.flush_shift[flags >> 3]) & 0x1FFF
        out[maybe] = t.flush[masks]
    return out


def strength7(t: Tables, cards: Sequence[int]) -> int:
    """Strength of exactly seven cards (card indices)."""
    if len(cards) != 7 or len(set(cards)) != 7:
        raise ValueError("strength7 needs seven distinct cards")
    none = Boards.every(t, np.zeros(0, np.int64), 0)
    return int(strengths(t, none, fixed(t, cards))[0])
