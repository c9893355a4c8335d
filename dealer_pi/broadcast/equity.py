"""All-in equity: each hand's chance to win, tie and its share of the pot, from the cards known.

Pure: cards in, numbers out; no I/O, no clock. Every board the unknown cards
can make is dealt out (exact enumeration) when that is at most ``max_evals``
hand evaluations; otherwise boards are drawn at random (Monte Carlo, seeded, so
the same question gives the same answer) until the standard error of every
equity is below ``margin / 1.96`` (a 95 % interval of +/- ``margin``).

``equity`` counts a tie as its share of the pot: two players splitting score
half a pot each. Outs are given on the turn: the river cards with which a
player who is not ahead now wins outright.

>>> from dealer_pi.engine.cards import parse_cards as p
>>> r = equity([p("AhKh"), p("QsQd")], board=p("Ts9s2h"))
>>> r.exact, r.boards, [round(h.equity, 4) for h in r.hands]
(True, 990, [0.2616, 0.7384])
>>> r = equity([p("AhKh"), p("QsQd")], board=p("Ts9s2h3c"))
>>> sorted(str(c) for c in r.hands[0].outs)
['Ac', 'Ad', 'As', 'Kc', 'Kd', 'Ks']
>>> r.hands[1].name, r.hands[0].name
('pair of queens', 'ace high')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
from typing import Any, Final, Sequence

import numpy as np
import numpy.typing as npt

from dealer_pi.engine.cards import RANKS, Card
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.evaluator import HandCategory, evaluate7, hand_category, hand_description

from .handeval import I16, Boards, Fixed, Tables, fixed, strengths, tables

# Heads-up preflop (1,712,304 boards, two hands) is dealt out in full; beyond this, sample.
MAX_EVALS: Final = 3_500_000
MARGIN: Final = 0.005
BATCH: Final = 10_000
MAX_SAMPLES: Final = 1_000_000


@dataclass(frozen=True)
class HandEquity:
    """One hand's result. ``win``/``tie``: shares of boards won alone / split; ``equity``: of the pot."""

    cards: tuple[Card, ...]
    win: float
    tie: float
    equity: float
    stderr: float = 0.0  # of ``equity``; 0 when exact
    outs: tuple[Card, ...] = ()  # on the turn only
    name: str = ""  # the hand it makes now, in a dealer's words

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": "".join(map(str, self.cards)), "win": round(self.win, 6),
                               "tie": round(self.tie, 6), "equity": round(self.equity, 6), "name": self.name,
                               "outs": [str(c) for c in self.outs]}
        if self.stderr:
            out["stderr"] = round(self.stderr, 6)
        return out


@dataclass(frozen=True)
class EquityResult:
    hands: tuple[HandEquity, ...]
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    boards: int  # boards dealt out (exact) or drawn (Monte Carlo)
    exact: bool
    seed: int | None = None
    stderr: float = 0.0  # the largest of the hands' standard errors
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": [h.to_dict() for h in self.hands], "board": "".join(map(str, self.board)),
                               "dead": "".join(map(str, self.dead)), "boards": self.boards, "exact": self.exact}
        if not self.exact:
            out.update(stderr=round(self.stderr, 6), seed=self.seed)
        return out


def check_cards(hands: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card]) -> None:
    """Refuse what cannot be dealt: a hand that is not two cards, a board of 1, 2 or 6+ cards, a card twice."""
    if len(hands) < 2:
        raise InputError("hands", f"equity needs at least two hands, got {len(hands)}")
    if len(hands) > 23:
        raise InputError("hands", f"one deck deals at most 23 hands with a board, got {len(hands)}")
    for i, h in enumerate(hands):
        if len(h) != 2:
            raise InputError(f"hand {i + 1}", f"a hold'em hand is two cards, got {len(h)}")
    if len(board) not in (0, 3, 4, 5):
        raise InputError("board", f"a board is 0, 3, 4 or 5 cards, got {len(board)}")
    seen: dict[Card, str] = {}
    for where, cards in [(f"hand {i + 1}", h) for i, h in enumerate(hands)] + [("board", board), ("dead", dead)]:
        for c in cards:
            if c in seen:
                raise InputError(where, f"{c} is also in {seen[c]}: every card is in the deck once")
            seen[c] = where
    if 52 - len(seen) < 5 - len(board):
        raise InputError("dead", "too few cards left in the deck to finish the board")


def _draw(rng: np.random.Generator, n: int, k: int, count: int) -> npt.NDArray[np.int64]:
    """``count`` columns of ``k`` distinct values from range(n): a partial Fisher-Yates shuffle each."""
    deck = np.tile(np.arange(n, dtype=np.int64), (count, 1))
    rows = np.arange(count)
    for j in range(k):
        pick = rng.integers(j, n, count)
        held = deck[rows, j].copy()
        deck[rows, j] = deck[rows, pick]
        deck[rows, pick] = held
    return deck[:, :k].T.copy()


@dataclass
class _Tally:
    n: int
    boards: int = 0
    win: npt.NDArray[np.int64] = field(init=False)
    tie: npt.NDArray[np.int64] = field(init=False)
    share: npt.NDArray[np.float64] = field(init=False)  # sum of pot shares
    share_sq: npt.NDArray[np.float64] = field(init=False)  # for the standard error

    def __post_init__(self) -> None:
        self.win = np.zeros(self.n, np.int64)
        self.tie = np.zeros(self.n, np.int64)
        self.share = np.zeros(self.n, np.float64)
        self.share_sq = np.zeros(self.n, np.float64)

    def add(self, values: I16) -> None:
        """``values``: (hands, boards) strengths."""
        top = values == values.max(axis=0)
        count = top.sum(axis=0, dtype=np.int64)
        self.boards += values.shape[1]
        by_k = 1.0 / np.arange(1, self.n + 1)
        for i in range(self.n):
            # How often hand i was one of k winners, for each k (index 0: it lost).
            won = np.bincount(count[top[i]], minlength=self.n + 1)[1:]
            self.win[i] += won[0]
            self.tie[i] += won[1:].sum()
            self.share[i] += (won * by_k).sum()
            self.share_sq[i] += (won * by_k * by_k).sum()

    def stderr(self) -> npt.NDArray[np.float64]:
        n = max(self.boards, 1)
        mean = self.share / n
        return np.sqrt(np.maximum(self.share_sq / n - mean * mean, 0.0) / n)


def _values(t: Tables, holes: list[Fixed], boards: Boards) -> I16:
    return np.vstack([strengths(t, boards, h) for h in holes])


def equity(
    hands: Sequence[Sequence[Card]], board: Sequence[Card] = (), dead: Sequence[Card] = (), *,
    max_evals: int = MAX_EVALS, margin: float = MARGIN, seed: int = 0, exact: bool | None = None,
) -> EquityResult:
    """Equity of each hand; ``exact=True``/``False`` forces enumeration / sampling."""
    check_cards(hands, board, dead)
    t = tables()
    known = {c.index for h in hands for c in h} | {c.index for c in (*board, *dead)}
    rest = np.array([i for i in range(52) if i not in known], dtype=np.int64)
    k = 5 - len(board)
    holes = [fixed(t, [c.index for c in (*h, *board)]) for h in hands]
    tally = _Tally(len(hands))
    total = comb(len(rest), k)
    do_exact = exact if exact is not None else total * len(hands) <= max_evals
    if do_exact:
        tally.add(_values(t, holes, Boards.every(t, rest, k)))
    else:
        rng = np.random.default_rng(seed)
        while tally.boards < MAX_SAMPLES:
            tally.add(_values(t, holes, Boards.drawn(t, rest, _draw(rng, len(rest), k, BATCH))))
            if 1.96 * float(tally.stderr().max()) <= margin:
                break
    return _result(hands, board, dead, tally, do_exact, seed, t)


def _result(hands: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card], tally: _Tally,
            exact: bool, seed: int, t: Tables) -> EquityResult:
    n = tally.boards
    errs = np.zeros(len(hands)) if exact else tally.stderr()
    outs = turn_outs(hands, board, dead, t) if len(board) == 4 else [()] * len(hands)
    out = tuple(
        HandEquity(tuple(h), float(tally.win[i] / n), float(tally.tie[i] / n), float(tally.share[i] / n), float(errs[i]),
                   outs[i], hand_name(h, board))
        for i, h in enumerate(hands)
    )
    return EquityResult(out, tuple(board), tuple(dead), n, exact, None if exact else seed,
                        0.0 if exact else float(errs.max()))


def turn_outs(hands: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card],
              t: Tables | None = None) -> list[tuple[Card, ...]]:
    """Per hand, the river cards that make it the only winner when it is not alone in front now."""
    t = t or tables()
    now = [evaluate7([*h, *board]) for h in hands]
    leaders = {i for i, v in enumerate(now) if v == max(now)}
    known = {c for h in hands for c in h} | set(board) | set(dead)
    river = np.array([i for i in range(52) if Card.from_index(i) not in known], dtype=np.int64)
    holes = [fixed(t, [c.index for c in (*h, *board)]) for h in hands]
    values = _values(t, holes, Boards.every(t, river, 1))
    best = values.max(axis=0)
    alone = (values == best) & ((values == best).sum(axis=0) == 1)
    return [() if leaders == {i} else tuple(Card.from_index(int(c)) for c in river[alone[i]])
            for i in range(len(hands))]


_WORD: Final = {r: w.lower() for r, w in zip(RANKS, (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"))}


def hand_name(hole: Sequence[Card], board: Sequence[Card] = ()) -> str:
    """What a dealer calls the hand now: ``'pocket kings'``, ``'ace-king suited'``, ``'two pair, kings and fives'``.

    >>> from dealer_pi.engine.cards import parse_cards as p
    >>> hand_name(p("KhKd")), hand_name(p("AsKs")), hand_name(p("Qh9d")), hand_name(p("Kh5d"), p("Kc5s2h"))
    ('pocket kings', 'ace-king suited', 'queen-nine offsuit', 'two pair, kings and fives')
    >>> hand_name(p("Ah2h"), p("3c4d5s"))
    'straight, five high'
    """
    if len(hole) != 2:
        return ""
    if board:
        value = evaluate7([*hole, *board])
        if hand_category(value) is HandCategory.HIGH_CARD:
            return f"{_WORD[RANKS[(value >> 16 & 15) - 2]]} high"
        return hand_description(value).lower()
    hi, lo = sorted(hole, key=lambda c: c.rank, reverse=True)
    a, b = _WORD[str(hi)[0]], _WORD[str(lo)[0]]
    if hi.rank == lo.rank:
        return "pocket sixes" if a == "six" else f"pocket {a}s"
    return f"{a}-{b} {'suited' if hi.suit == lo.suit else 'offsuit'}"


def describe_margin(result: EquityResult) -> str:
    """One line on how the numbers were got, for people."""
    if result.exact:
        return f"exact: all {result.boards:,} boards"
    return f"Monte Carlo: {result.boards:,} boards, standard error {100 * result.stderr:.2f} points (seed {result.seed})"
