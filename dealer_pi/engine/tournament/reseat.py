"""Applying the floor's seating instructions to a table between two hands.

Rebuys, moves, penalties and the chip race change who sits where and with how
much only when no card is out (000 §47: the hand begins when the first card is
dealt; §60: rebuys only between hands). The table calls :func:`reseat` with the
hand it is about to deal and gets the seats to deal it with, the orders carried
out (for its journal and the floor) and those that wait:

* a player moved in sits out the hand when the seat is between the small blind
  and the button (000 §53, TABLE-MOVE): the order waits for the next hand;
* a disqualified player's chips leave play (000 §45);
* minutes away (TABLE-PENALTY) start with this hand: the player's hand is killed
  and the blinds are still taken (TABLE-AWAY) until the time is up;
* the chip race is run from the small blind of this hand (000 §49c).

>>> hand = StartedHand(button=4, small_blind_seat=6, seats={2: ("Ben", 900), 4: ("Cy", 700), 6: ("Dee", 400)})
>>> r = reseat(hand, [MoveIn("m1", "Ana", 5, 1500, "t2"), MoveIn("m2", "Eve", 8, 800, "t3")], {}, now_ms=0)
>>> sorted(r.seats), r.waiting   # seat 5 is between the button (4) and the small blind (6)
([2, 4, 6, 8], ('m1',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .balance import sits_out
from ..errors import InputError
from .chip_race import chip_race
from .orders import ChipRace, MoveIn, MoveOut, Order, PenaltyOrder, Rebuy, SeatDraw

MINUTE_MS = 60_000


@dataclass(frozen=True, slots=True)
class StartedHand:
    """The hand the table is about to deal: its button, its small blind's position (the
    seat, empty or not, that is the small blind's place) and who sits where with what."""

    button: int
    small_blind_seat: int
    seats: Mapping[int, tuple[str, int]]


@dataclass(frozen=True, slots=True)
class Reseating:
    seats: Mapping[int, tuple[str, int]]
    button: int
    away: Mapping[int, int]  # seat -> when the minutes away end (ms), for penalties still running
    done: tuple[Mapping[str, Any], ...]  # what was carried out, JSON-ready, one record per order
    waiting: tuple[str, ...]  # ids of orders kept for a later hand
    chips_removed: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    def changes(self, hand: StartedHand, away: Mapping[int, int]) -> bool:
        return bool(self.done) or dict(self.seats) != dict(hand.seats) or set(self.away) != set(away)


class _Work:
    def __init__(self, hand: StartedHand, away: Mapping[int, int], now_ms: int) -> None:
        self.seats = dict(hand.seats)
        self.button = hand.button
        self.sb = hand.small_blind_seat
        self.away = {s: t for s, t in away.items() if t > now_ms}
        self.now = now_ms
        self.done: list[Mapping[str, Any]] = []
        self.waiting: list[str] = []
        self.removed = 0
        self.notes: list[str] = []

    def find(self, player: str, seat: int) -> int | None:
        if seat in self.seats and self.seats[seat][0] == player:
            return seat
        return next((s for s, (n, _) in self.seats.items() if n == player), None)

    def leave(self, seat: int) -> int:
        _, stack = self.seats.pop(seat)
        self.away.pop(seat, None)
        return stack

    def free_seat(self, wanted: int) -> int | None:
        """``wanted`` when free, else the next free seat clockwise (10 seats)."""
        for step in range(10):
            s = (wanted - 1 + step) % 10 + 1
            if s not in self.seats:
                return s
        return None


def _draw(w: _Work, o: SeatDraw) -> None:
    w.seats, w.button, w.away = dict(o.seats), o.button, {}
    w.done.append({"id": o.id, "kind": "seat_draw", "players": len(o.seats), "button": o.button})


def _move_out(w: _Work, o: MoveOut) -> None:
    seat = w.find(o.player, o.seat)
    stack = w.leave(seat) if seat is not None else 0
    if seat is None:
        w.notes.append(f"{o.player} is no longer at the table: nobody moved to table {o.to_table}")
    w.done.append({"id": o.id, "kind": "move_out", "player": o.player, "seat": seat or o.seat, "stack": stack,
                   "to_table": o.to_table, "to_seat": o.to_seat})


def _move_in(w: _Work, o: MoveIn) -> None:
    seat = w.free_seat(o.seat)
    if seat is None:
        w.waiting.append(o.id)
        w.notes.append(f"{o.player}: no free seat, waits")
        return
    if sits_out(seat, w.button, w.sb):
        w.waiting.append(o.id)
        w.notes.append(f"{o.player} sits out this hand: seat {seat} is between the small blind and the button "
                       "(TABLE-MOVE, 000 §53)")
        return
    w.seats[seat] = (o.player, o.stack)
    w.done.append({"id": o.id, "kind": "move_in", "player": o.player, "seat": seat, "stack": o.stack,
                   "from_table": o.from_table})


def _rebuy(w: _Work, o: Rebuy) -> None:
    seat = w.find(o.player, o.seat)
    if seat is not None:
        name, stack = w.seats[seat]
        w.seats[seat] = (name, stack + o.chips)
    elif o.seat not in w.seats:
        seat = o.seat
        w.seats[seat] = (o.player, o.chips)
    else:
        w.done.append({"id": o.id, "kind": "rebuy", "player": o.player, "seat": o.seat, "chips": 0,
                       "refused": f"seat {o.seat} is taken by {w.seats[o.seat][0]}"})
        return
    w.done.append({"id": o.id, "kind": "rebuy", "player": o.player, "seat": seat, "chips": o.chips,
                   "purchase": o.purchase, "stack": w.seats[seat][1]})


def _penalty(w: _Work, o: PenaltyOrder) -> None:
    seat = w.find(o.player, o.seat)
    rec: dict[str, Any] = {"id": o.id, "kind": "penalty", "player": o.player, "seat": seat or o.seat,
                           "penalty": o.penalty.to_dict()}
    if seat is not None and o.penalty.kind == "disqualification":
        rec["chips_removed"] = w.leave(seat)
        w.removed += rec["chips_removed"]
    elif seat is not None and o.penalty.kind == "away":
        w.away[seat] = w.now + o.penalty.minutes * MINUTE_MS
        rec["away_until_ms"] = w.away[seat]
    elif seat is None:
        rec["not_seated"] = True
    w.done.append(rec)


def _race(w: _Work, o: ChipRace) -> None:
    seats = sorted(w.seats)
    start = next((s for s in seats if s >= w.sb), seats[0]) if seats else 0
    order = seats[seats.index(start):] + seats[:seats.index(start)] if seats else []
    try:
        result = chip_race({s: w.seats[s][1] for s in seats}, order, o.remove, o.next_chip, seed=o.seed)
    except InputError as exc:  # never a reason to hold the table: the floor hears why
        w.done.append({"id": o.id, "kind": "chip_race", "refused": exc.message})
        return
    for s, stack in result.stacks.items():
        w.seats[s] = (w.seats[s][0], stack)
    w.removed += result.removed - o.next_chip * len(result.rescued)
    w.done.append(dict({"id": o.id, "kind": "chip_race", "remove": o.remove, "next_chip": o.next_chip},
                       race=result.to_dict()))


T = TypeVar("T")


def _of(orders: Sequence[Order], kind: type[T]) -> list[T]:
    return [o for o in orders if isinstance(o, kind)]


def reseat(hand: StartedHand, orders: Sequence[Order], away: Mapping[int, int], now_ms: int) -> Reseating:
    """The seats to deal ``hand`` with, once ``orders`` (those not carried out yet) are applied."""
    w = _Work(hand, away, now_ms)
    # One kind after the other, whatever order they came in: a new seating first, then who leaves,
    # then chips bought, then who arrives, then the race on the stacks as they will play.
    for draw in _of(orders, SeatDraw):
        _draw(w, draw)
    for penalty in _of(orders, PenaltyOrder):
        _penalty(w, penalty)
    for out in _of(orders, MoveOut):
        _move_out(w, out)
    for rebuy in _of(orders, Rebuy):
        _rebuy(w, rebuy)
    for arrival in _of(orders, MoveIn):
        _move_in(w, arrival)
    for race in _of(orders, ChipRace):
        _race(w, race)
    away = {s: t for s, t in w.away.items() if s in w.seats}  # a player knocked out is away no more
    return Reseating(dict(sorted(w.seats.items())), w.button, away, tuple(w.done), tuple(w.waiting), w.removed,
                     tuple(w.notes))
