"""What a hand starts from: seats, stacks, button, forced bets, betting structure.

Seats are numbered 1..10 and may be sparse; clockwise is increasing seat
number, wrapping. The button may sit on an empty seat (a dead button,
TABLE-DEAD-BUTTON). Forced bets are given per seat, as in PHH: ``ante`` is
dead money (a big-blind ante is simply an ante on the big blind's seat) and
``blind`` is a live blind or straddle.

>>> s = blinds_setup({1: 1000, 4: 1000, 7: 1000}, button=7, small_blind=5, big_blind=10)
>>> [(x.seat, x.blind) for x in s.seats]
[(1, 5), (4, 10), (7, 0)]
>>> heads_up = blinds_setup({2: 500, 5: 500}, button=5, small_blind=5, big_blind=10)
>>> [(x.seat, x.blind) for x in heads_up.seats]  # BET-HEADS-UP: the button posts the small blind
[(2, 10), (5, 5)]
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, NamedTuple

from .errors import InputError
from .validate import whole

MAX_SEATS: Final = 10
# More chips than any table holds, and small enough that every sum of them stays exact as a
# JavaScript number (2**53) on the tablet and the overlays.
MAX_CHIPS: Final = 10**12


class _Layout(NamedTuple):
    order: tuple[int, ...]
    stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    index_of: Mapping[int, int]
    blind_seats: frozenset[int]


class Structure(enum.Enum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    LIMIT = "limit"


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """One seat dealt into the hand: its stack before any forced bet."""

    seat: int
    stack: int
    ante: int = 0
    blind: int = 0
    name: str = ""


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything fixed when the hand starts (BET-TABLE-STAKES: stacks are frozen here).

    ``small_bet`` is the minimum bet (NL/PL: the big blind; Limit: the small
    bet), ``big_bet`` the Limit big bet (0 means ``2 * small_bet``).
    ``seats`` are in seat-number order.
    """

    seats: tuple[SeatSetup, ...]
    button: int
    structure: Structure = Structure.NO_LIMIT
    small_bet: int = 2
    big_bet: int = 0
    hand_id: str = ""
    # Derived once here rather than on every replay (see the properties below).
    _layout: _Layout = field(init=False, repr=False, compare=False, default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        check_setup(self)
        seats = self.seats
        button = self.button
        k = 0
        for i, s in enumerate(seats):
            if s.seat > button:
                k = i
                break
        ordered = seats[k:] + seats[:k]  # seats are sorted: dealing order is a rotation
        # One pass over the seats, then transposed: every hand replayed builds this.
        rows = [(s.seat, s.stack, s.ante, s.blind) for s in ordered]
        order, stacks, antes, blinds = zip(*rows)
        object.__setattr__(self, "_layout", _Layout(
            order,
            stacks,
            antes,
            blinds,
            MappingProxyType({s: i for i, s in enumerate(order)}),
            frozenset(seat for seat, _, _, blind in rows if blind),
        ))

    @property
    def order(self) -> tuple[int, ...]:
        """Seat numbers in dealing order: first left of the button, the button (if seated) last."""
        return self._layout.order

    @property
    def stacks(self) -> tuple[int, ...]:
        """Starting stacks in dealing order."""
        return self._layout.stacks

    @property
    def antes(self) -> tuple[int, ...]:
        return self._layout.antes

    @property
    def blinds(self) -> tuple[int, ...]:
        return self._layout.blinds

    @property
    def index_of(self) -> Mapping[int, int]:
        """Seat number -> position in dealing order."""
        return self._layout.index_of

    @property
    def blind_seats(self) -> frozenset[int]:
        return self._layout.blind_seats

    @property
    def limit_big_bet(self) -> int:
        return self.big_bet or 2 * self.small_bet


def check_setup(setup: HandSetup) -> None:
    """Refuse a setup that cannot be dealt; errors name the field."""
    if not isinstance(setup.structure, Structure):
        raise InputError("setup.structure", "must be no-limit, pot-limit or limit")
    if len(setup.seats) < 2:
        raise InputError("setup.seats", "a hand needs at least two seats dealt in")
    last = 0
    for i, s in enumerate(setup.seats):
        seat, stack, ante, blind = s.seat, s.stack, s.ante, s.blind
        if type(seat) is int and type(stack) is int and type(ante) is int and type(blind) is int and (
            last < seat <= MAX_SEATS and stack > 0 and ante >= 0 and blind >= 0
        ):
            last = seat
            continue  # the usual case, checked in one go; below says what is wrong
        w = f"setup.seats[{i}]"
        whole(seat, f"{w}.seat", low=1, high=MAX_SEATS)
        if seat <= last:
            raise InputError(f"{w}.seat", "seats must be listed once each, in increasing order")
        for name in ("stack", "ante", "blind"):
            whole(getattr(s, name), f"{w}.{name}", low=0)
        raise InputError(f"{w}.stack", "a seat with no chips cannot be dealt in")
    button, small_bet, big_bet = setup.button, setup.small_bet, setup.big_bet
    if type(button) is int and type(small_bet) is int and type(big_bet) is int and (
        1 <= button <= MAX_SEATS and small_bet >= 1 and big_bet >= 0
    ):
        return  # the usual case again: every hand replayed checks its setup
    whole(button, "setup.button", low=1, high=MAX_SEATS)
    whole(small_bet, "setup.small_bet", low=1)
    whole(big_bet, "setup.big_bet", low=0)


def check_table(seats: Mapping[int, int], button: int, blinds: tuple[int, int], ante: int,
                where: str = "setup") -> None:
    """Refuse a table that a dealer entering a setup cannot mean; errors name the field.

    A new table's button is on a seated player: a dead button (TABLE-DEAD-BUTTON) only comes
    about as the button moves between hands.

    >>> check_table({1: 1000, 2: 1000}, 1, (10, 5), 0)
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: setup.blinds: the small blind (10) is more than the big blind (5) (BET-BLINDS)
    >>> check_table({1: 1000, 2: 1000}, 4, (5, 10), 0)
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: setup.button: seat 4 has no player with chips: put the button on a seated player
    """
    small, big = blinds
    for name, amount in (("blinds", small), ("blinds", big), ("ante", ante)):
        if amount > MAX_CHIPS:
            raise InputError(f"{where}.{name}", f"{amount} is more than {MAX_CHIPS} chips")
    if small > big:
        raise InputError(f"{where}.blinds", f"the small blind ({small}) is more than the big blind ({big}) (BET-BLINDS)")
    for seat, stack in seats.items():
        if stack > MAX_CHIPS:
            raise InputError(f"{where}.seats.{seat}", f"a stack of {stack} is more than {MAX_CHIPS} chips")
    if seats.get(button, 0) <= 0:
        raise InputError(f"{where}.button", f"seat {button} has no player with chips: put the button on a seated player")


def default_small_blind(big_blind: int, structure: Structure = Structure.NO_LIMIT) -> int:
    """BET-BLINDS: half the big blind; in Limit half the small bet rounded down ($2 at $5/$10).

    >>> default_small_blind(5, Structure.LIMIT), default_small_blind(100)
    (2, 50)
    """
    return big_blind // 2


def clockwise_from(seats: Sequence[int], after: int) -> list[int]:
    """``seats`` (sorted seat numbers) in dealing order starting left of seat ``after``.

    >>> clockwise_from([1, 3, 6, 9], 6)
    [9, 1, 3, 6]
    >>> clockwise_from([1, 3, 6, 9], 4)
    [6, 9, 1, 3]
    """
    later = [s for s in seats if s > after]
    return later + [s for s in seats if s <= after]


def blinds_setup(
    stacks: Mapping[int, int],
    button: int,
    small_blind: int,
    big_blind: int,
    *,
    ante: int = 0,
    big_blind_ante: int = 0,
    straddles: Sequence[int] = (),
    structure: Structure = Structure.NO_LIMIT,
    big_bet: int = 0,
    names: Mapping[int, str] | None = None,
) -> HandSetup:
    """The usual forced bets from a button position (BET-BLINDS, BET-HEADS-UP).

    Small blind left of the button, big blind next, straddles after it;
    heads-up the button posts the small blind. ``ante`` is paid by every seat,
    ``big_blind_ante`` by the big blind only. ``small_bet`` is the big blind.
    """
    order = clockwise_from(sorted(stacks), button)
    if len(order) < 2:
        raise InputError("stacks", "a hand needs at least two seats dealt in")
    if len(order) == 2:
        posters = [order[1], order[0]]  # button (last in order) posts the small blind
    else:
        posters = order[:]
    amounts = [small_blind, big_blind, *straddles]
    blind_of = {seat: amt for seat, amt in zip(posters, amounts)}
    bb_seat = posters[1]
    seats = tuple(
        SeatSetup(
            seat=s,
            stack=stacks[s],
            ante=ante + (big_blind_ante if s == bb_seat else 0),
            blind=blind_of.get(s, 0),
            name=(names or {}).get(s, ""),
        )
        for s in sorted(stacks)
    )
    return HandSetup(seats=seats, button=button, structure=structure, small_bet=big_blind, big_bet=big_bet)
