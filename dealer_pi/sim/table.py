"""A simulated table: whole hands as a real table's sensors would report them.

Bots choose among the betting engine's legal actions; a dealer deals from a
shuffled deck (``random.Random(seed)``: same seed, same observations) and
every card is reported the way the shoe and the camera would: a ``ShoeDraw``
(with the card when the shoe reads it) followed by the ``CardSeen`` where it
lands, hole cards face down (unread), board cards face up.

Faults (:class:`~dealer_pi.sim.faults.Fault`) are made on purpose at a random
moment of a hand; each one made is recorded as an :class:`Injection` with the
index of the observation that shows it and the alert the monitor owes. The
simulated dealer then does what the rule asks (declares the misdeal and
redeals, or carries out the correction), so the hands go on.

A table can be played along: give it ``decide``, asked at every betting
decision once everything before it has been handed out. It answers with the
action the real table already took for that seat (a visitor's tap on the
tablet: applied, not reported again), ``UNDONE`` (the last action was taken
back: the seat before decides again), or None (the bot decides). Without it
the same seed gives the same observations.

>>> sim = Simulator(seed=7, hands_per_table=3)
>>> table = next(sim.tables(3))
>>> obs = list(table.observations())
>>> type(obs[0]).__name__, type(obs[1]).__name__
('ShoeDraw', 'CardSeen')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field

from dealer_pi.engine.cards import FULL_DECK, Card
from dealer_pi.engine.events import ActionTaken, BoardDealt, Entry, HandShown
from dealer_pi.engine.hand import apply, start_hand
from dealer_pi.engine.legal import LegalActions, legal_actions
from dealer_pi.engine.observations import (
    ActionKind,
    CardLeft,
    CardSeen,
    DealerDeclaration,
    Declaration,
    Observation,
    PlayerAction,
    ShoeDraw,
    Zone,
)
from dealer_pi.engine.state import HandState, Phase
from dealer_pi.engine.table import NextHand, finish_hand, new_table, next_hand, set_away
from dealer_pi.engine.table_session import TableSetup

from .faults import Fault, expected_alert

BOARD = Zone("board")
BURN = Zone("burn")
MUCK = Zone("muck")
SHOE = Zone("shoe")
TAKE_CHANCE = 0.35  # at each moment a fault could happen, the odds it happens there


@dataclass(frozen=True, slots=True)
class Injection:
    """One fault made: ``at`` is the index (in its table's observations) that shows it."""

    fault: Fault
    at: int
    hand: int
    rule: str
    verdict: str


class _Misdeal(Exception):
    """The dealer stops the hand: it is redealt."""


class OffScript(Exception):
    """The real table went where the simulated one cannot follow (an entry it cannot take back)."""


UNDONE = "undone"  # what ``decide`` answers when the table took the last action back
Decision = PlayerAction | str | None
Decider = Callable[[HandState, LegalActions], Decision]


@dataclass
class SimTable:
    """One table session: its setup and its observations, produced lazily."""

    setup: TableSetup
    hands: int
    seed: int
    faults: Sequence[Fault] = ()
    rate: float = 0.0
    shoe_reads: bool = True
    injections: list[Injection] = field(default_factory=list)
    played: int = 0  # hands finished so far (a misdeal's redeal is the same hand)
    unseen: dict[int, Zone] = field(default_factory=dict)  # a draw's index -> where its card went unseen
    decide: Decider | None = field(default=None, repr=False, compare=False)

    def observations(self) -> Iterator[Observation]:
        """Every observation of every hand, one at a time (a demo can pace them)."""
        self._rng = random.Random(self.seed)
        self._profile = self.setup.rule_profile()
        self._count = 0
        self._armed: Fault | None = None
        self._deals = 0
        sb, bb = self.setup.blinds
        table = new_table(self.setup.seats, sb, bb, button=self.setup.button, ante=self.setup.ante,
                          structure=self.setup.structure, profile=self._profile)
        for seat in self.setup.away:  # TABLE-AWAY: dealt and killed, blinds still taken
            table = set_away(table, seat, True)
        for h in range(self.hands):
            if h:
                yield self._emit(DealerDeclaration(Declaration.NEW_HAND))
            redeal = False
            while True:
                self._out: list[Observation] = []
                self._deals += 1
                nh = next_hand(table)
                try:
                    final = yield from self._hand(nh, redeal)
                except _Misdeal:
                    final = None
                yield from self._flush()
                if final is not None:
                    self.played += 1
                    break
                redeal = True  # the redeal after a misdeal is dealt clean
            table = finish_hand(table, nh, final)
            if sum(1 for x in table.seats if x.stack > 0) < 2:
                return

    # ------------------------------------------------------------ plumbing

    def _emit(self, o: Observation) -> Observation:
        self._count += 1
        return o

    def _flush(self) -> Iterator[Observation]:
        """Hand out what is waiting, so that a decision taken next sees the table after it."""
        out, self._out = self._out, []
        for o in out:
            yield self._emit(o)

    def _at(self) -> int:
        """Index the next observation put in ``_out`` will have."""
        return self._count + len(self._out)

    def _arm(self) -> None:
        if self._armed is None and self.faults and self._rng.random() < self.rate:
            self._armed = self._rng.choice(list(self.faults))

    def _take(self, fault: Fault, *, always: bool = False) -> bool:
        """Make the armed fault here? (at a random one of the moments it could happen)"""
        if self._armed is not fault:
            return False
        if always or self._rng.random() < TAKE_CHANCE:
            self._armed = None
            return True
        return False

    def _record(self, fault: Fault, at: int, actors: int = 0) -> str:
        rule, verdict = expected_alert(fault, self._profile, actors=actors)
        self.injections.append(Injection(fault, at, self._deals, rule, verdict))
        return verdict

    def _land(self, zone: Zone, face_up: bool, card: Card, *, read_as: Card | None = None, seen: bool = True) -> None:
        if not seen:
            self.unseen[self._at()] = zone  # for the simulated camera: the card is there, under a hand
        self._out.append(ShoeDraw(card if self.shoe_reads else None, source="shoe"))
        if seen:
            shown = read_as or (card if face_up else None)
            self._out.append(CardSeen(zone, face_up, shown, 0.97 if face_up else 1.0, source="camera"))

    def _misdeal_if(self, verdict: str) -> None:
        if verdict == "misdeal":
            self._out.append(DealerDeclaration(Declaration.MISDEAL))
            raise _Misdeal()

    # ------------------------------------------------------------ a hand

    def _hand(self, nh: NextHand, redeal: bool) -> Generator[Observation, None, HandState]:
        self._st: HandState = start_hand(nh.started.setup, nh.started.profile)
        self._taken_back: list[HandState] = []  # the state before each action since the last card
        for killed in nh.killed:
            self._apply(killed)
        if not redeal:
            self._arm()
        deck = list(FULL_DECK)
        self._rng.shuffle(deck)
        self._deck = deck
        self._drawn: list[Card] = []
        order = self._st.order
        self._hole: dict[int, list[Card]] = {s: [] for s in order}
        self._exposed_burned = False
        self._set_aside: Card | None = None
        self._river_no_burn = False
        self._shown_exposed = False
        self._deal(order)
        while not self._st.is_complete:
            if self._st.phase is Phase.BETTING:
                yield from self._betting_moment()
            elif self._st.phase is Phase.DEALING:
                self._street()
            else:
                self._showdown()
        if len(self._st.board) < 5 and len(self._st.live()) == 1 and self._take(Fault.RABBIT, always=True):
            self._draw_to(BURN, False)
            at = self._at() + 1
            c = self._draw_to(BOARD, True)
            self._record(Fault.RABBIT, at)
            self._out.append(CardLeft(BOARD, c))
        return self._st

    def _pop(self) -> Card:
        c = self._deck.pop()
        self._drawn.append(c)
        return c

    def _draw_to(self, zone: Zone, face_up: bool, **kw: object) -> Card:
        c = self._pop()
        self._land(zone, face_up, c, **kw)  # type: ignore[arg-type]
        return c

    def _apply(self, entry: Entry) -> None:
        self._st = apply(self._st, entry)

    # ------------------------------------------------------------ the deal

    def _deal(self, order: tuple[int, ...]) -> None:
        n = len(order)
        total = 2 * n
        rng = self._rng
        short = 0
        if self._take(Fault.SHORT_DEAL, always=True):
            short = rng.randint(1, max(1, min(3, n - 1)))
        special = rng.randrange(1, total)
        for p in range(total - short):
            seat = order[p % n]
            if p == 0 and self._take(Fault.FIRST_EXPOSED, always=True):
                at = self._at() + 1
                self._hole[seat].append(self._draw_to(Zone("seat", seat), True))
                self._misdeal_if(self._record(Fault.FIRST_EXPOSED, at))
                continue
            if p == special and self._armed is not None and self._deal_fault(p, seat, order):
                continue
            self._hole[seat].append(self._draw_to(Zone("seat", seat), False))
        if short:
            self._short_at = True
            return
        self._short_at = False
        if self._take(Fault.EXTRA_HOLE, always=True):
            first = order[0]
            at = self._at() + 1
            c = self._draw_to(Zone("seat", first), False)
            verdict = self._record(Fault.EXTRA_HOLE, at)
            self._misdeal_if(verdict)
            self._out.append(CardLeft(Zone("seat", first), None))
            self._deck.append(c)  # back on top: it will be the burn
            self._drawn.remove(c)

    def _deal_fault(self, p: int, seat: int, order: tuple[int, ...]) -> bool:
        """A fault made at deal position ``p``; True when the card was dealt here already."""
        z = Zone("seat", seat)
        if self._take(Fault.HOLE_EXPOSED, always=True):
            at = self._at() + 1
            c = self._draw_to(z, True)
            self._hole[seat].append(c)
            self._misdeal_if(self._record(Fault.HOLE_EXPOSED, at))
            self._replace_exposed = (seat, c)
            return True
        if self._take(Fault.EMPTY_SEAT, always=True):
            empty = [s for s in range(1, 11) if s not in order]
            if empty:
                at = self._at() + 1
                self._draw_to(Zone("seat", self._rng.choice(empty)), False)
                self._misdeal_if(self._record(Fault.EMPTY_SEAT, at))
            self._armed = None if empty else Fault.EMPTY_SEAT
            return False
        if self._take(Fault.OUT_OF_ORDER, always=True):
            at = self._at() + 1
            self._draw_to(Zone("seat", order[(p + 1) % len(order)]), False)
            self._misdeal_if(self._record(Fault.OUT_OF_ORDER, at))
        if self._take(Fault.FACEUP_IN_DECK, always=True):
            at = self._at() + 1
            c = self._deck.pop()
            self._out.append(ShoeDraw(c if self.shoe_reads else None, source="shoe"))
            self._out.append(CardSeen(SHOE, True, c, 0.97, source="camera"))
            self._deck.insert(0, c)  # to the bottom; the next card is used
            self._record(Fault.FACEUP_IN_DECK, at)
            return False
        if self._take(Fault.DUPLICATE_CARD, always=True) and self._drawn and self.shoe_reads:
            at = self._at()
            twin = self._rng.choice(self._drawn)
            self._pop()
            self._out.append(ShoeDraw(twin, source="shoe"))
            self._out.append(CardSeen(z, False, None, source="camera"))
            self._misdeal_if(self._record(Fault.DUPLICATE_CARD, at))
        if self._take(Fault.MISSED_LANDING, always=True):
            at = self._at()
            self._hole[seat].append(self._draw_to(z, False, seen=False))
            self._record(Fault.MISSED_LANDING, at)
            return True
        return False

    # ------------------------------------------------------------ betting

    def _betting_moment(self) -> Iterator[Observation]:
        st = self._st
        if getattr(self, "_short_at", False):
            self._short_at = False
            at = self._at()
            yield from self._flush()
            self._act(passive=True)
            self._misdeal_if(self._record(Fault.SHORT_DEAL, at))
            return
        if hasattr(self, "_replace_exposed"):
            seat, c = self._replace_exposed
            del self._replace_exposed
            new = self._draw_to(Zone("seat", seat), False)
            self._out.append(CardLeft(Zone("seat", seat), c))
            self._out.append(CardSeen(BURN, False, None, source="camera"))
            self._hole[seat] = [x for x in self._hole[seat] if x != c] + [new]
            self._exposed_burned = True
        live = [st.order[i] for i in st.live()]
        if self._take(Fault.PLAYER_EXPOSED):
            seat = self._rng.choice(live)
            at = self._at()
            self._out.append(CardSeen(Zone("seat", seat), True, self._hole[seat][0], 0.97, source="camera"))
            self._record(Fault.PLAYER_EXPOSED, at)
        if self._take(Fault.MISSING_CARD):
            at = self._at()
            self._out.append(CardLeft(SHOE, None, source="camera"))
            self._deck.pop(0)
            self._misdeal_if(self._record(Fault.MISSING_CARD, at, st.acted_after_blinds))
        if st.street == 0 and st.acted_after_blinds >= 2 and self._take(Fault.MISDEAL_LOCK):
            others = [s for s in live if s != st.order[0]]
            if others:
                seat = self._rng.choice(others)
                at = self._at() + 1
                self._draw_to(Zone("seat", seat), False)
                self._misdeal_if(self._record(Fault.MISDEAL_LOCK, at, st.acted_after_blinds))
                self._out.append(CardLeft(Zone("seat", seat), None))
            else:
                self._armed = Fault.MISDEAL_LOCK
        if st.street in (1, 2) and self._set_aside is None and (
                self._take(Fault.TURN_EARLY) if st.street == 1 else self._take(Fault.RIVER_EARLY)):
            fault = Fault.TURN_EARLY if st.street == 1 else Fault.RIVER_EARLY
            self._draw_to(BURN, False)
            at = self._at() + 1
            c = self._draw_to(BOARD, True)
            self._record(fault, at)
            self._out.append(CardLeft(BOARD, c))
            self._set_aside = c
            self._early_street = st.street
        yield from self._flush()
        self._act()

    def _asked(self) -> tuple[LegalActions, PlayerAction | None]:
        """The seat to act's choices, and what the real table says that seat did, if anything."""
        while True:
            la = legal_actions(self._st)
            assert la is not None
            answer = self.decide(self._st, la) if self.decide is not None else None
            if answer != UNDONE:
                return la, answer if isinstance(answer, PlayerAction) else None
            if not self._taken_back:
                raise OffScript("an entry was taken back that the simulated dealer cannot take back")
            self._st = self._taken_back.pop()

    def _act(self, passive: bool = False) -> None:
        """One decision: the table's own when ``decide`` reports one, else the bot's;
        ``passive``: the bot checks or calls, so the hand cannot end here."""
        la, taken = self._asked()
        self._taken_back.append(self._st)
        if taken is not None:
            self._apply(ActionTaken(la.seat, taken.action, taken.amount))
            if taken.action is ActionKind.FOLD:
                self._muck(la.seat)
            return
        st = self._st
        rng = self._rng
        r = 0.5 if passive else rng.random()
        amount: int | None = None
        if la.can_raise and r > 0.8:
            kind = ActionKind.BET if la.is_bet else ActionKind.RAISE
            span = la.max_to - la.min_to
            amount = la.min_to + (rng.randrange(span // 3 + 1) if span > 0 else 0)
            if rng.random() < 0.02:
                amount = la.max_to
        elif la.can_check:
            kind = ActionKind.CHECK
        elif r < 0.25 and not passive:
            kind = ActionKind.FOLD
        else:
            kind = ActionKind.CALL
        self._out.append(PlayerAction(la.seat, kind, amount))
        self._apply(ActionTaken(la.seat, kind, amount))
        if kind is ActionKind.FOLD:
            self._muck(la.seat)

    def _muck(self, seat: int) -> None:
        self._out.append(CardLeft(Zone("seat", seat), None))
        self._out.append(CardSeen(MUCK, False, None, source="camera"))

    # ------------------------------------------------------------ board

    def _street(self) -> None:
        st = self._st
        k = st.street + 1
        need = 3 if k == 1 else 1
        betting_follows = len(st.able()) >= 2
        if k == 3 and self._set_aside is not None:
            # DEAL-TURN-EARLY / DEAL-RIVER-EARLY: reshuffle the rest with the card taken out, no burn.
            self._deck.append(self._set_aside)
            self._set_aside = None
            self._reshuffle()
            self._board([self._draw_to(BOARD, True)])
            return
        if k == 1 and self._take(Fault.FLOP_NO_BURN):
            at = self._at() + 1
            back = [self._draw_to(BOARD, True) for _ in range(3)]
            self._record(Fault.FLOP_NO_BURN, at)
            self._take_back(back)
        elif k == 1 and betting_follows and self._take(Fault.FLOP_EXTRA):
            self._draw_to(BURN, False)
            back = [self._draw_to(BOARD, True) for _ in range(3)]
            at = self._at() + 1
            back.append(self._draw_to(BOARD, True))
            self._record(Fault.FLOP_EXTRA, at)
            self._take_back(back)
        elif k > 1 and self._take(Fault.BOARD_NO_BURN):
            at = self._at() + 1
            back = [self._draw_to(BOARD, True)]
            self._record(Fault.BOARD_NO_BURN, at)
            self._take_back(back)
        elif k > 1 and betting_follows and self._take(Fault.BOARD_EXTRA):
            self._draw_to(BURN, False)
            back = [self._draw_to(BOARD, True)]
            at = self._at() + 1
            back.append(self._draw_to(BOARD, True))
            self._record(Fault.BOARD_EXTRA, at)
            self._take_back(back)
        if k == 1 and self._exposed_burned:
            self._exposed_burned = False  # the exposed hole card was this burn (001)
        else:
            self._draw_to(BURN, False)
        cards = []
        for _ in range(need):
            if self.shoe_reads and self._take(Fault.SENSOR_DISAGREE):
                c = self._pop()
                wrong = self._deck[self._rng.randrange(len(self._deck))]
                at = self._at() + 1
                self._land(BOARD, True, c, read_as=wrong)
                self._record(Fault.SENSOR_DISAGREE, at)
            else:
                c = self._draw_to(BOARD, True)
            cards.append(c)
        self._board(cards)

    def _board(self, cards: list[Card]) -> None:
        self._apply(BoardDealt(tuple(cards)))
        self._taken_back = []  # cards are out: no action before them can be taken back here

    def _take_back(self, back: list[Card]) -> None:
        for c in back:
            self._out.append(CardLeft(BOARD, c))
            self._drawn.remove(c)
        self._deck.extend(back)
        self._reshuffle()

    def _reshuffle(self) -> None:
        self._rng.shuffle(self._deck)
        self._out.append(DealerDeclaration(Declaration.SHUFFLE_DONE))

    def _showdown(self) -> None:
        st = self._st
        for i in st.live():
            seat = st.order[i]
            cards = self._hole[seat][:2]
            for c in cards:
                self._out.append(CardSeen(Zone("seat", seat), True, c, 0.97, source="camera"))
            self._apply(HandShown(seat, tuple(cards)))
            if st.is_complete:
                break
            st = self._st


class Simulator:
    """Tables one after another, seeded: ``tables(hands)`` plays ``hands`` hands in all.

    Each table has 2-9 random seats out of 10, random stacks (50-300 big blinds)
    and a random button; it ends after ``hands_per_table`` hands or when one
    player has every chip. ``faults`` with ``rate`` (the chance a hand gets
    one) make the dealer err on purpose.
    """

    def __init__(self, seed: int = 0, *, profile: str = "standard", structure: str = "no-limit",
                 blinds: tuple[int, int] = (5, 10), faults: Sequence[Fault] = (), rate: float = 0.0,
                 hands_per_table: int = 40, shoe_reads: bool = True, players: tuple[int, int] = (2, 9)) -> None:
        self.rng = random.Random(seed)
        self.profile = profile
        self.structure = structure
        self.blinds = blinds
        self.faults = tuple(faults)
        self.rate = rate
        self.hands_per_table = hands_per_table
        self.shoe_reads = shoe_reads
        self.players = players

    def table(self) -> SimTable:
        rng = self.rng
        n = rng.randint(*self.players)
        seats = sorted(rng.sample(range(1, 11), n))
        bb = self.blinds[1]
        setup = TableSetup.from_dict({
            "profile": self.profile, "structure": self.structure, "blinds": list(self.blinds),
            "seats": {str(s): rng.randint(50, 300) * bb for s in seats}, "button": rng.choice(seats),
        })
        return self.table_from(setup)

    def table_from(self, setup: TableSetup) -> SimTable:
        """A simulated table going on from ``setup``: its first hand is the one that setup deals."""
        return SimTable(setup, self.hands_per_table, self.rng.randrange(2**32), self.faults, self.rate, self.shoe_reads)

    def tables(self, hands: int) -> Iterator[SimTable]:
        """Tables until ``hands`` hands are played; consume each table before asking for the next."""
        left = hands
        while left > 0:
            t = self.table()
            t.hands = min(t.hands, left)
            yield t
            left -= max(t.played, 1)
