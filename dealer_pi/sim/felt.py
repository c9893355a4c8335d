"""What lies on the simulated table's felt: cards where the dealer put them, chips, hands.

:class:`Felt` is the physical truth the overhead camera films
(:mod:`dealer_pi.sim.overhead`): a card is put in a zone (taking the first free place
there: board cards in a row, hole cards as an overlapping pair, burns fanned), turned
over, picked up; bets lie in front of their seat until they are swept into the pot;
hands pass over the cards. Nothing here knows the rules.

>>> from dealer_pi.engine.cards import Card
>>> felt = Felt()
>>> a = felt.place("seat:3", None, face_up=False)
>>> b = felt.place("seat:3", None, face_up=False)
>>> (a.slot, b.slot), felt.turn("seat:3", Card.parse("Ah")) is a, a.face_up
((0, 1), True, True)
>>> [c.slot for c in felt.take("seat:3", everything=True)], felt.cards
([0, 1], [])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from dealer_pi.engine.cards import Card


@dataclass(eq=False)
class PhysicalCard:
    zone: str
    card: Card | None  # None: a face-down card nobody has named
    face_up: bool
    slot: int
    jitter: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mm, mm, degrees: no dealer is a machine
    hidden: bool = False  # a player's hand rests on it: the camera cannot see it


@dataclass(frozen=True)
class Hand:
    """A hand over the felt, in table millimetres; ``angle``: the way the fingers point (degrees)."""

    at: tuple[float, float]
    angle: float
    origin: tuple[float, float] = (0.0, -400.0)  # where its arm comes from: the dealer's place by default


@dataclass
class Felt:
    seed: int = 0
    cards: list[PhysicalCard] = field(default_factory=list)
    chips: dict[str, int] = field(default_factory=dict)  # "pot" or a seat number -> amount
    hands: list[Hand] = field(default_factory=list)  # passing this frame
    resting: dict[str, Hand] = field(default_factory=dict)  # zone -> a hand kept over its cards
    _version: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def _changed(self) -> None:
        self._version += 1

    def still_key(self) -> tuple[int, int]:
        """Changes whenever a card or a chip moves (the camera redraws them then)."""
        return (self._version, len(self.cards))

    def in_zone(self, zone: str) -> list[PhysicalCard]:
        return [c for c in self.cards if c.zone == zone]

    def place(self, zone: str, card: Card | None, face_up: bool, hidden: bool = False) -> PhysicalCard:
        """Put a card down in the first free place of ``zone``."""
        used = {c.slot for c in self.in_zone(zone)}
        slot = len(used) if zone == "muck" else min(set(range(len(used) + 1)) - used)
        r = self.rng
        jitter = (r.gauss(0, 1.5), r.gauss(0, 1.5), r.gauss(0, 2.0))
        pc = PhysicalCard(zone, card, face_up, slot, jitter, hidden)
        self.cards.append(pc)
        self._changed()
        return pc

    def turn(self, zone: str, card: Card) -> PhysicalCard | None:
        """Turn a face-down card of ``zone`` face up, showing ``card`` (None if ``card`` already shows)."""
        here = self.in_zone(zone)
        if any(c.face_up and c.card == card for c in here):
            return None
        down = [c for c in here if not c.face_up]
        if not down:
            return None
        pc = next((c for c in down if c.card == card), down[0])
        pc.face_up, pc.card, pc.hidden = True, card, False
        self.resting.pop(zone, None)  # the player lifts the hand to show the card
        self._changed()
        return pc

    def take(self, zone: str, card: Card | None = None, everything: bool = False) -> list[PhysicalCard]:
        """Pick up ``card`` (or every card, or the last one put down) from ``zone``."""
        here = self.in_zone(zone)
        if everything:
            gone = here
        elif card is not None and any(c.card == card for c in here):
            gone = [next(c for c in here if c.card == card)]
        else:
            gone = here[-1:]
        for c in gone:
            self.cards.remove(c)
        if gone:
            self._changed()
        return gone

    def remove(self, card: PhysicalCard) -> None:
        if card in self.cards:
            self.cards.remove(card)
            self._changed()

    def clear(self) -> None:
        """The dealer collects every card (a new hand, a misdeal); the pot has been pushed."""
        self.cards, self.chips, self.resting = [], {}, {}
        self._changed()

    def bet(self, seat: int, to: int) -> None:
        self.chips[str(seat)] = max(self.chips.get(str(seat), 0), to)
        self._changed()

    def sweep(self) -> None:
        """The street's bets go into the pot."""
        total = sum(v for k, v in self.chips.items() if k != "pot")
        if total:
            self.chips = {"pot": self.chips.get("pot", 0) + total}
            self._changed()

