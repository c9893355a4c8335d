"""From the simulator's truth to the felt: what the dealer and players physically do.

The simulated table (:mod:`dealer_pi.sim.table`) says what happened as observations;
:class:`Stagehand` turns each one into what moves on the :class:`~dealer_pi.sim.felt.Felt`
(a card put down where it landed, turned over, picked up and put in the muck or the
burn pile; chips bet and swept; hands passing) and says what the overhead camera should
now report (:class:`Expect`). The camera path never sees the truth: the expectation only
paces the simulated dealer (who waits for the camera as a real one would for a
landing to register) and checks the camera afterwards.

>>> from dealer_pi.engine.cards import Card
>>> from dealer_pi.engine.observations import CardSeen, ShoeDraw, Zone
>>> hand = Stagehand(Felt())
>>> hand.apply(ShoeDraw(Card.parse("Kd")), 0)
>>> hand.apply(CardSeen(Zone.parse("board"), True, Card.parse("Kd")), 1).seen
[('board', True, Card('Kd'))]
>>> [(c.zone, str(c.card), c.face_up) for c in hand.felt.cards]
[('board', 'Kd', True)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import (
    ActionKind, CardLeft, CardSeen, DealerDeclaration, Declaration, Observation, PlayerAction, ShoeDraw, Zone,
)

from .felt import Felt, Hand, PhysicalCard
from .overhead import bet_spot, card_spot, seat_place

# Zones whose camera reports the dealing monitor reads; the muck pile and cards leaving the
# felt (other than from the shoe) change nothing there, so they are neither awaited nor checked.
WATCHED = ("seat", "board", "burn", "shoe")
Seen = tuple[str, bool, Card | None]


@dataclass
class Expect:
    """What the camera should report after one moment, and how long the dealer waits for it."""

    seen: list[Seen] = field(default_factory=list)  # (zone, face up, card when face up)
    left: list[str] = field(default_factory=list)  # zones a card must be seen leaving
    min_frames: int = 1
    max_frames: int = 8
    then: "Expect | None" = None  # a second step after this one settles (a card dropped, then gone)
    after: object = None  # what the felt does before the second step


def is_camera(obs: Observation) -> bool:
    """Observations only the camera makes: in the camera path the pipeline makes them instead."""
    return isinstance(obs, (CardSeen, CardLeft))


class Stagehand:
    """Moves the felt as the simulator's observations say, one observation at a time."""

    def __init__(self, felt: Felt, unseen: Mapping[int, Zone] | None = None) -> None:
        self.felt = felt
        self.unseen = unseen if unseen is not None else {}  # draw index -> zone its card went to, unseen (filled as the table plays)
        self.pending: tuple[int, ShoeDraw] | None = None
        self.held: list[PhysicalCard] = []  # picked up, about to be put down elsewhere
        self.last: Observation | None = None

    def apply(self, obs: Observation, index: int) -> Expect | None:
        """Move the felt for truth observation number ``index``; the camera's expected report."""
        self.felt.hands = []
        if self.pending is not None and not (isinstance(obs, CardSeen)):
            self._unseen_landing()
        out: Expect | None = None
        if isinstance(obs, ShoeDraw):
            self._face_up_in_deck_to_bottom()
            self.pending = (index, obs)
        elif isinstance(obs, CardSeen):
            out = self._seen(obs)
        elif isinstance(obs, CardLeft):
            out = self._left(obs)
        elif isinstance(obs, PlayerAction):
            out = self._action(obs)
        elif isinstance(obs, DealerDeclaration) and obs.declare in (Declaration.NEW_HAND, Declaration.MISDEAL):
            out = self.collect()
        self.last = obs
        return out

    # ------------------------------------------------------------ cards

    def _seen(self, obs: CardSeen) -> Expect:
        zone = str(obs.zone)
        if self.pending is not None:  # the card just drawn lands here
            _, draw = self.pending
            self.pending = None
            identity = obs.card if obs.face_up else draw.card
            if obs.zone.kind == "board":
                self.felt.sweep()  # the street's bets went in before the cards came out
            pc = self.felt.place(zone, identity, obs.face_up)
            self._dealer_hand(pc)
            return Expect([(zone, obs.face_up, obs.card if obs.face_up else None)], min_frames=3, max_frames=8)
        if obs.face_up and obs.card is not None and obs.zone.kind == "seat":
            for c in [c for c in self.felt.in_zone(zone) if c.hidden]:
                # The player lifts the hand that hid a card and turns it up in front of them.
                self.felt.remove(c)
                self.felt.resting.pop(zone, None)
                self.felt.place(zone, c.card, face_up=False)
            if self.felt.turn(zone, obs.card) is None:
                return Expect(max_frames=0)  # already face up: nothing moves
            self.felt.sweep()
            return Expect([(zone, True, obs.card)], min_frames=3, max_frames=8)
        # Put down by hand: the exposed card to the burn, folded cards to the muck.
        cards = self.held or [PhysicalCard(zone, obs.card, obs.face_up, 0)]
        self.held = []
        for c in cards:
            self.felt.place(zone, c.card, obs.face_up)
        if obs.zone.kind in WATCHED:
            return Expect([(zone, obs.face_up, obs.card if obs.face_up else None)] * len(cards), min_frames=3, max_frames=8)
        return Expect(min_frames=1, max_frames=1)

    def _left(self, obs: CardLeft) -> Expect:
        zone = str(obs.zone)
        if obs.zone.kind == "shoe":
            # A card missing from the deck: it slips out by the shoe face down, then off the table.
            pc = self.felt.place(zone, None, face_up=False)
            return Expect([(zone, False, None)], min_frames=3, max_frames=8,
                          then=Expect(left=[zone], min_frames=3, max_frames=8), after=pc)
        fold = isinstance(self.last, PlayerAction) and self.last.action is ActionKind.FOLD \
            and obs.zone.seat == self.last.seat
        gone = self.felt.take(zone, obs.card, everything=fold)
        self.held = gone
        if obs.zone.kind == "board":
            # Board cards taken back: the place must show bare felt before the street is dealt again.
            return Expect(left=[zone] * len(gone), min_frames=1, max_frames=7)
        return Expect(min_frames=1, max_frames=1)  # nothing lands at a seat again this hand

    def finish(self, expect: Expect) -> Expect | None:
        """The second step of a two-step moment (the lost card leaves the table)."""
        if isinstance(expect.after, PhysicalCard):
            self.felt.remove(expect.after)
        return expect.then

    def _unseen_landing(self) -> None:
        """A drawn card nobody saw land (DEAL-ORDER uncertain): it lies under the player's hand."""
        assert self.pending is not None
        index, draw = self.pending
        self.pending = None
        zone = self.unseen.get(index)
        if zone is None:
            return
        pc = self.felt.place(str(zone), draw.card, face_up=False, hidden=True)
        x, y, angle = card_spot(pc)
        self.felt.resting[str(zone)] = Hand((x * 1.08, y * 1.08), angle + 90, (x * 1.4, y * 1.4))

    def _face_up_in_deck_to_bottom(self) -> None:
        for c in self.felt.in_zone("shoe"):
            if c.face_up:  # DEAL-FACEUP-IN-DECK: it goes to the bottom before the next card
                self.felt.take("shoe", c.card)

    def collect(self) -> Expect:
        """Every card off the felt (a new hand, a misdeal); the camera must see each place bare."""
        left = [c.zone for c in self.felt.cards if Zone.parse(c.zone).kind in WATCHED and not c.hidden]
        self.felt.clear()
        self.held = []
        return Expect(left=left, min_frames=1, max_frames=7)

    # ------------------------------------------------------------ chips and hands

    def _action(self, obs: PlayerAction) -> Expect | None:
        if obs.action in (ActionKind.FOLD, ActionKind.CHECK):
            return None  # nothing moves (folded cards move with the card observations that follow)
        current = max([v for k, v in self.felt.chips.items() if k != "pot"], default=0)
        self.felt.bet(obs.seat, obs.amount if obs.amount is not None else max(current, 1))
        x, y = bet_spot(obs.seat)
        sx, sy, _ = seat_place(obs.seat)
        self.felt.hands = [Hand((x * 1.1, y * 1.1), 0.0, (sx * 1.3, sy * 1.3))]  # the player's hand pushing chips
        return Expect(min_frames=1, max_frames=1)

    def _dealer_hand(self, pc: PhysicalCard) -> None:
        x, y, _ = card_spot(pc)
        # The dealer's hand leaves the card: over its far end this frame, gone the next.
        self.felt.hands = [Hand((x * 0.9, y * 0.9 - 45), 90.0)]
