"""Cards in PHH spelling: rank ``23456789TJQKA`` then suit ``cdhs`` (``Ah``, ``Td``).

There are exactly 52 :class:`Card` objects; :func:`Card.parse` returns the
shared instance, so cards compare and hash as fast as small ints.

>>> Card.parse("Ah")
Card('Ah')
>>> Card.parse("Ah") is Card.parse("ah")
True
>>> [str(c) for c in parse_cards("AcKd")]
['Ac', 'Kd']
>>> Card.parse("1h")
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: card '1h': rank must be one of 23456789TJQKA
"""

from __future__ import annotations

from typing import Final, Iterator

from .errors import InputError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"


class Card:
    """One of the 52 cards. ``rank`` is 2..14 (ace high), ``suit`` one of ``cdhs``."""

    __slots__ = ("rank", "suit", "index", "_text")

    rank: int
    suit: str
    index: int
    _text: str

    def __init__(self, rank: int, suit: str) -> None:
        # Only the module builds cards; everyone else goes through parse().
        self.rank = rank
        self.suit = suit
        self.index = (rank - 2) * 4 + SUITS.index(suit)
        self._text = RANKS[rank - 2] + suit

    @staticmethod
    def parse(text: str, where: str = "") -> "Card":
        """Read ``Ah``-style text; ``10h`` is accepted for ``Th``."""
        label = where or f"card {text!r}"
        if not isinstance(text, str):
            raise InputError(label, f"expected a card like 'Ah', got {type(text).__name__}")
        t = text.strip()
        if t[:2] == "10":
            t = "T" + t[2:]
        if len(t) != 2:
            raise InputError(label, "a card is a rank and a suit, like 'Ah' or 'Td'")
        rank_ch, suit_ch = t[0].upper(), t[1].lower()
        if rank_ch not in RANKS:
            raise InputError(label, f"rank must be one of {RANKS}")
        if suit_ch not in SUITS:
            raise InputError(label, f"suit must be one of {SUITS}")
        return _BY_INDEX[(RANKS.index(rank_ch)) * 4 + SUITS.index(suit_ch)]

    @staticmethod
    def from_index(index: int) -> "Card":
        """The card with ``index`` 0..51 (rank-major: 2c, 2d, 2h, 2s, 3c, ...)."""
        return _BY_INDEX[index]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._text,))


_BY_INDEX: Final[tuple[Card, ...]] = tuple(Card(r, s) for r in range(2, 15) for s in SUITS)
FULL_DECK: Final[tuple[Card, ...]] = _BY_INDEX


def parse_cards(text: str, where: str = "") -> list[Card]:
    """Read concatenated cards (``"AcKd"``, ``"Jc3d5c"``); spaces are ignored."""
    compact = text.replace(" ", "")
    if len(compact) % 2:
        raise InputError(where or f"cards {text!r}", "cards come in pairs of characters, like 'AcKd'")
    return [
        Card.parse(compact[i : i + 2], where=f"{where or 'cards'}[{i // 2}] {compact[i:i + 2]!r}")
        for i in range(0, len(compact), 2)
    ]


def iter_deck() -> Iterator[Card]:
    return iter(_BY_INDEX)


LOOPED_RANKS: Final = frozenset({6, 8, 9})  # digits made of loops: blurred or upside down, one reads as another


def misread_as(a: Card, b: Card) -> bool:
    """Whether a card reader's likeliest mistakes turn one of two different cards into the other:
    one rank in two suits of a colour (a club read as a spade), or one suit and two of the looped
    ranks 6, 8 and 9 (an upside-down 6 read as an 8). Any other two names are rarely one card's:
    the print's colour tells a heart from a spade.

    >>> misread_as(Card.parse("Ks"), Card.parse("Kc")), misread_as(Card.parse("6h"), Card.parse("8h"))
    (True, True)
    >>> misread_as(Card.parse("3s"), Card.parse("9s")), misread_as(Card.parse("Kh"), Card.parse("9d")), misread_as(Card.parse("Jd"), Card.parse("Js"))
    (False, False, False)
    """
    one_colour = (a.suit in "hd") == (b.suit in "hd")
    return a != b and ((a.rank == b.rank and one_colour)
                       or (a.suit == b.suit and a.rank in LOOPED_RANKS and b.rank in LOOPED_RANKS))
