"""The table across hands: who is seated, the button, the blinds, busting out.

:class:`TableState` is immutable; :func:`next_hand` says how the coming hand
is set up (button, blinds, who is dealt in) and :func:`finish_hand` folds a
finished hand back in. The button follows TABLE-BUTTON; with the profile's
``dead_button`` (000 §21-24) the big blind moves one player each hand, the
small blind goes where the big blind was and the button where the small
blind was, even onto an empty seat, so nobody misses a blind. Heads-up the
button posts the small blind (BET-HEADS-UP). A misdeal changes nothing
(DEAL-MISDEAL-REMEDY: same button, stacks restored).

>>> t = new_table({1: 1000, 3: 1000, 5: 1000, 8: 1000}, small_blind=5, big_blind=10, button=8)
>>> nh = next_hand(t)
>>> nh.button, nh.small_blind_seat, nh.big_blind_seat
(8, 1, 3)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import InputError, RuleViolation
from .events import HandKilled, HandStarted
from .observations import KillReason
from .profiles import DEFAULT_PROFILE, RuleProfile
from .setup import MAX_SEATS, HandSetup, SeatSetup, Structure
from .state import HandState
from .validate import whole


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A seated player. ``waiting``: a new player waiting for the big blind (TABLE-NEW-PLAYER);
    ``post_now``: a new player who posts a big blind at once; ``away``: not at the table (TABLE-AWAY)."""

    seat: int
    stack: int
    name: str = ""
    away: bool = False
    waiting: bool = False
    post_now: bool = False


@dataclass(frozen=True, slots=True)
class TableState:
    """Between hands. ``button``/``small_blind_seat``/``big_blind_seat`` are the last hand's
    positions (seat numbers, possibly of empty seats); 0 before the first hand."""

    seats: tuple[TableSeat, ...]
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    structure: Structure = Structure.NO_LIMIT
    big_bet: int = 0
    profile: RuleProfile = DEFAULT_PROFILE
    button: int = 0
    small_blind_seat: int = 0
    big_blind_seat: int = 0
    hands_played: int = 0

    def seat(self, number: int) -> TableSeat | None:
        return next((s for s in self.seats if s.seat == number), None)


@dataclass(frozen=True, slots=True)
class NextHand:
    """How the coming hand is set up. ``small_blind_seat`` is the small blind's *position*
    (it posts only if ``small_blind_posted``); ``dealt`` are the seats that get cards."""

    started: HandStarted
    button: int
    small_blind_seat: int
    small_blind_posted: bool
    big_blind_seat: int
    dealt: tuple[int, ...]
    killed: tuple[HandKilled, ...]


def new_table(
    stacks: Mapping[int, int],
    small_blind: int,
    big_blind: int,
    *,
    button: int | None = None,
    ante: int = 0,
    big_blind_ante: int = 0,
    structure: Structure = Structure.NO_LIMIT,
    big_bet: int = 0,
    profile: RuleProfile = DEFAULT_PROFILE,
    names: Mapping[int, str] | None = None,
) -> TableState:
    """A table before its first hand; the button starts on ``button`` or the first seated player
    (DEAL-ORDER)."""
    seats = tuple(TableSeat(s, stacks[s], (names or {}).get(s, "")) for s in sorted(stacks))
    for s in seats:
        _check_seat(s.seat, s.stack)
    check_forced_bets(small_blind, big_blind, ante, big_blind_ante, "blinds")
    whole(big_bet, "big bet", low=0)
    first = button if button is not None else (seats[0].seat if seats else 1)
    if not 1 <= first <= MAX_SEATS:
        raise InputError("button", f"must be a seat number 1..{MAX_SEATS}")
    return TableState(
        seats, small_blind, big_blind, ante, big_blind_ante, structure, big_bet, profile, button=first
    )


def check_forced_bets(small_blind: int, big_blind: int, ante: int, big_blind_ante: int, where: str) -> None:
    """Blinds and antes a game can be dealt with (BET-BLINDS, BET-ANTES); errors name ``where``.

    A game has a big blind or an ante: with no blinds at all it is an ante-only game
    (000 §19a), whose smallest bet is the ante (:func:`smallest_bet`).

    >>> check_forced_bets(0, 0, 25, 0, "level")
    >>> check_forced_bets(5, 0, 25, 0, "level")
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: level: a small blind needs a big blind (ante-only: both blinds 0)
    """
    for name, v in (("small blind", small_blind), ("big blind", big_blind), ("ante", ante),
                    ("big blind ante", big_blind_ante)):
        whole(v, f"{where} ({name})", low=0)
    if big_blind == 0 and small_blind:
        raise InputError(where, "a small blind needs a big blind (ante-only: both blinds 0)")
    if big_blind == 0 and big_blind_ante:
        raise InputError(where, "a big blind ante needs a big blind (ante-only: use the ante)")
    if big_blind == 0 and ante == 0:
        raise InputError(where, "a game needs a big blind or an ante to play for")


def smallest_bet(table: TableState) -> int:
    """BET-NL-MIN: a bet is at least the big blind (000 §8); in an ante-only game, the ante."""
    return table.big_blind or table.ante


def _check_seat(seat: int, stack: int) -> None:
    if not 1 <= seat <= MAX_SEATS:
        raise InputError("seat", f"must be 1..{MAX_SEATS}, got {seat}")
    if stack < 0:
        raise InputError("stack", f"must be >= 0, got {stack}")


def _after(numbers: list[int], seat: int) -> int:
    """The first of ``numbers`` (sorted) clockwise after ``seat``."""
    return next((s for s in numbers if s > seat), numbers[0])


def positions(table: TableState) -> tuple[int, int, bool, int]:
    """``(button, small blind position, small blind posts?, big blind)`` for the coming hand."""
    in_line = [s.seat for s in table.seats if s.stack > 0]  # waiting players take the big blind in turn
    playing = [s.seat for s in table.seats if s.stack > 0 and not s.waiting]
    if len(in_line) < 2:
        raise InputError("table", "at least two players with chips are needed to deal a hand")
    if table.hands_played == 0 or not table.big_blind_seat:
        if len(playing) < 2:
            raise InputError("table", "at least two players (not waiting for the big blind) are needed")
        button = table.button if table.button in playing else _after(playing, table.button)
        if len(playing) == 2:
            return button, button, True, _after(playing, button)
        sb = _after(playing, button)
        return button, sb, True, _after(playing, sb)
    if table.profile.dead_button:
        bb = _after(in_line, table.big_blind_seat)
        dealt = sorted(set(playing) | {bb})
        if len(dealt) == 2:
            other = next(s for s in dealt if s != bb)
            return other, other, True, bb
        sb_pos = table.big_blind_seat
        sb_posts = sb_pos in playing and sb_pos != bb
        button = table.small_blind_seat or table.button
        return button, sb_pos, sb_posts, bb
    # Moving button (004): the next active player, the blinds after it; a new player waiting
    # for the big blind takes it when it comes round to him (TABLE-NEW-PLAYER).
    button = _after(playing, table.button)
    if len(playing) == 2:
        return button, button, True, _after(in_line, button)
    sb = _after(playing, button)
    return button, sb, True, _after(in_line, sb)


def next_hand(table: TableState, hand_id: str = "") -> NextHand:
    """The setup of the coming hand (blinds, antes, straddle-free), who is dealt in, who is killed."""
    button, sb_pos, sb_posts, bb = positions(table)
    by_seat = {s.seat: s for s in table.seats}
    in_hand = [s for s in table.seats if s.stack > 0 and (not s.waiting or s.seat == bb)]
    seats: list[SeatSetup] = []
    for s in in_hand:
        blind = 0
        if s.seat == bb:
            blind = table.big_blind
        elif s.seat == sb_pos and sb_posts:
            blind = table.small_blind
        elif s.post_now:
            blind = table.big_blind  # TABLE-NEW-PLAYER: a big blind at once
        ante = table.ante + (table.big_blind_ante if s.seat == bb else 0)
        seats.append(SeatSetup(s.seat, s.stack, ante, blind, s.name))
    # An ante-only game bets in units of the ante (BET-NL-MIN: the minimum bet).
    setup = HandSetup(
        tuple(seats), button, table.structure, small_bet=smallest_bet(table), big_bet=table.big_bet, hand_id=hand_id
    )
    away = [s.seat for s in in_hand if by_seat[s.seat].away]
    # TABLE-AWAY: 000 §31 the away player's hand is dealt and killed; 002 §15.5 it is not dealt.
    dealt = tuple(
        s.seat for s in in_hand if not (by_seat[s.seat].away and table.profile.away_policy == "pay-and-fold")
    )
    return NextHand(
        HandStarted(setup, table.profile), button, sb_pos, sb_posts, bb, dealt,
        tuple(HandKilled(s, "TABLE-AWAY", KillReason.AWAY) for s in away),
    )


def finish_hand(table: TableState, hand: NextHand, state: HandState) -> TableState:
    """The table after ``hand`` ended as ``state``: stacks updated, busted players gone, positions moved.

    A misdeal leaves the table exactly as it was (DEAL-MISDEAL-REMEDY).
    """
    if not state.is_complete:
        raise InputError("hand", "the hand is not over yet")
    if state.misdeal:
        return table
    final = state.final_stacks()
    seats = []
    for s in table.seats:
        if s.seat in final:
            stack = final[s.seat]
            if stack == 0:
                continue  # busted out
            s = dataclasses.replace(s, stack=stack, waiting=False, post_now=False)
        seats.append(s)
    return dataclasses.replace(
        table,
        seats=tuple(seats),
        button=hand.button,
        small_blind_seat=hand.small_blind_seat,
        big_blind_seat=hand.big_blind_seat,
        hands_played=table.hands_played + 1,
    )


def seat_player(
    table: TableState, seat: int, stack: int, name: str = "", *, post_now: bool = False, moved: bool = False
) -> TableState:
    """A new player sits down between hands: posts a big blind at once or waits for it (TABLE-NEW-PLAYER).

    A player ``moved`` from another table takes the seat's position at once, blinds included
    (000 §52), never between the small blind and the button (§53, TABLE-MOVE).
    """
    _check_seat(seat, stack)
    if stack < 1:
        raise InputError("stack", "a new player needs chips")
    if table.seat(seat) is not None:
        raise InputError("seat", f"seat {seat} is taken")
    if moved and table.hands_played > 0:
        playing = dataclasses.replace(table, seats=tuple(sorted(
            (*table.seats, TableSeat(seat, stack, name)), key=lambda s: s.seat)))
        button, sb, _, _ = positions(playing)
        if button != sb and _between(button, sb, seat):
            raise RuleViolation("TABLE-MOVE", f"seat {seat} is between the button (seat {button}) and the small "
                                f"blind (seat {sb}): a moved player may not sit there this hand (000 §53)")
    waiting = table.hands_played > 0 and not post_now and not moved
    new = TableSeat(seat, stack, name, waiting=waiting, post_now=post_now and table.hands_played > 0)
    return dataclasses.replace(table, seats=tuple(sorted((*table.seats, new), key=lambda s: s.seat)))


def _between(after: int, before: int, seat: int) -> bool:
    """Is ``seat`` clockwise strictly after ``after`` and before ``before``?"""
    if after < before:
        return after < seat < before
    return seat > after or seat < before


def remove_player(table: TableState, seat: int) -> TableState:
    """A player leaves the table between hands (their chips go with them)."""
    if table.seat(seat) is None:
        raise InputError("seat", f"nobody sits in seat {seat}")
    return dataclasses.replace(table, seats=tuple(x for x in table.seats if x.seat != seat))


def set_away(table: TableState, seat: int, away: bool) -> TableState:
    """Mark a player away or back (TABLE-AWAY)."""
    s = table.seat(seat)
    if s is None:
        raise InputError("seat", f"nobody sits in seat {seat}")
    return dataclasses.replace(
        table, seats=tuple(dataclasses.replace(x, away=away) if x.seat == seat else x for x in table.seats)
    )


def add_chips(table: TableState, seat: int, amount: int) -> TableState:
    """A rebuy or add-on, only between hands (BET-TABLE-STAKES, TABLE-REBUY)."""
    s = table.seat(seat)
    if s is None:
        raise InputError("seat", f"nobody sits in seat {seat}")
    if amount < 1:
        raise InputError("amount", "a rebuy adds at least one chip")
    return dataclasses.replace(
        table, seats=tuple(dataclasses.replace(x, stack=x.stack + amount) if x.seat == seat else x for x in table.seats)
    )


def set_level(
    table: TableState, small_blind: int, big_blind: int, ante: int = 0, big_blind_ante: int = 0, big_bet: int = 0
) -> TableState:
    """New blinds from the next hand on (TABLE-LEVELS); an ante-only level has both blinds 0."""
    check_forced_bets(small_blind, big_blind, ante, big_blind_ante, "level")
    whole(big_bet, "level (big bet)", low=0)
    return dataclasses.replace(
        table, small_blind=small_blind, big_blind=big_blind, ante=ante, big_blind_ante=big_blind_ante, big_bet=big_bet
    )
