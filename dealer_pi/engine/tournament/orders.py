"""The floor's instructions to one table, checked field by field (they arrive over the network).

Each has an ``id`` (the floor's, unique in the room: the table applies an id
once however often it is sent) and a ``kind``. Seating changes wait for the
end of the hand (:mod:`.reseat`); a warning and a deck change are shown at once.

>>> order_from_dict({"id": "m7-out", "kind": "move_out", "player": "Ana", "seat": 3, "to_table": "t5", "to_seat": 7})
MoveOut(id='m7-out', player='Ana', seat=3, to_table='t5', to_seat=7)
>>> order_from_dict({"id": "r1", "kind": "rebuy", "player": "Ana", "seat": 3, "chips": -5, "purchase": "rebuy"})
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: order.chips: must be a whole number from 1 to 100000000, got -5
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Final, Union

from ..errors import InputError
from ..observations import MAX_SEATS
from .penalties import Penalty, check_penalty
from .rebuys import KINDS as PURCHASES

ID: Final = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
MAX_CHIPS: Final = 10**8


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """A whole new seating (the draw at the start): seat -> (name, stack), and the button."""

    id: str
    seats: Mapping[int, tuple[str, int]]
    button: int


@dataclass(frozen=True, slots=True)
class MoveOut:
    id: str
    player: str
    seat: int
    to_table: str
    to_seat: int


@dataclass(frozen=True, slots=True)
class MoveIn:
    id: str
    player: str
    seat: int
    stack: int
    from_table: str


@dataclass(frozen=True, slots=True)
class Rebuy:
    id: str
    player: str
    seat: int
    chips: int
    purchase: str


@dataclass(frozen=True, slots=True)
class PenaltyOrder:
    id: str
    player: str
    seat: int
    penalty: Penalty


@dataclass(frozen=True, slots=True)
class ChipRace:
    id: str
    remove: int
    next_chip: int
    seed: int


@dataclass(frozen=True, slots=True)
class DeckChange:
    id: str
    reason: str


Order = Union[SeatDraw, MoveOut, MoveIn, Rebuy, PenaltyOrder, ChipRace, DeckChange]
SEATING: Final = (SeatDraw, MoveOut, MoveIn, Rebuy, PenaltyOrder, ChipRace)


def _int(data: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise InputError(f"{where}.{key}", f"must be a whole number from {low} to {high}, got {v!r}")
    return v


def _text(data: Mapping[str, Any], key: str, where: str, most: int = 40) -> str:
    v = data.get(key)
    if not isinstance(v, str) or not v.strip() or len(v) > most or not v.isprintable():
        raise InputError(f"{where}.{key}", f"must be text of 1 to {most} printable characters, got {v!r}")
    return v


def _table_id(data: Mapping[str, Any], key: str, where: str) -> str:
    v = data.get(key)
    if not isinstance(v, str) or not ID.match(v):
        raise InputError(f"{where}.{key}", f"must be a table id (letters, digits, _ . : -), got {v!r}")
    return v


def _seat(data: Mapping[str, Any], key: str, where: str) -> int:
    return _int(data, key, where, 1, MAX_SEATS)


def _seat_draw(d: Mapping[str, Any], w: str, i: str) -> Order:
    seats = d.get("seats")
    if not isinstance(seats, Mapping) or len(seats) < 2:
        raise InputError(f"{w}.seats", 'must be an object of at least two seats: {"3": {"name": "Ana", "stack": 3000}}')
    out: dict[int, tuple[str, int]] = {}
    for key, row in seats.items():
        k = str(key)
        if not k.isdigit() or not 1 <= int(k) <= MAX_SEATS:
            raise InputError(f"{w}.seats.{k}", f"seat number must be 1..{MAX_SEATS}")
        if not isinstance(row, Mapping):
            raise InputError(f"{w}.seats.{k}", "must be an object with name and stack")
        out[int(k)] = (_text(row, "name", f"{w}.seats.{k}"), _int(row, "stack", f"{w}.seats.{k}", 1, MAX_CHIPS))
    button = _seat(d, "button", w)
    if button not in out:
        raise InputError(f"{w}.button", f"seat {button} has nobody in the draw")
    return SeatDraw(i, dict(sorted(out.items())), button)


def _rebuy(d: Mapping[str, Any], w: str, i: str) -> Order:
    purchase = d.get("purchase")
    if purchase not in PURCHASES:
        raise InputError(f"{w}.purchase", "must be one of " + ", ".join(PURCHASES))
    return Rebuy(i, _text(d, "player", w), _seat(d, "seat", w), _int(d, "chips", w, 1, MAX_CHIPS), str(purchase))


def _penalty(d: Mapping[str, Any], w: str, i: str) -> Order:
    p = d.get("penalty")
    if not isinstance(p, Mapping):
        raise InputError(f"{w}.penalty", "must be an object with kind, minutes and reason")
    return PenaltyOrder(i, _text(d, "player", w), _seat(d, "seat", w), check_penalty(p, f"{w}.penalty"))


def _chip_race(d: Mapping[str, Any], w: str, i: str) -> Order:
    remove = _int(d, "remove", w, 1, MAX_CHIPS)
    nxt = _int(d, "next_chip", w, 2, MAX_CHIPS)
    if nxt <= remove or nxt % remove:
        raise InputError(f"{w}.next_chip", f"must be a multiple of the chip removed ({remove}) and larger")
    return ChipRace(i, remove, nxt, _int(d, "seed", w, 0, 2**63 - 1))


_READERS: Final[dict[str, tuple[frozenset[str], Callable[[Mapping[str, Any], str, str], Order]]]] = {
    "seat_draw": (frozenset({"seats", "button"}), _seat_draw),
    "move_out": (frozenset({"player", "seat", "to_table", "to_seat"}), lambda d, w, i: MoveOut(
        i, _text(d, "player", w), _seat(d, "seat", w), _table_id(d, "to_table", w), _seat(d, "to_seat", w))),
    "move_in": (frozenset({"player", "seat", "stack", "from_table"}), lambda d, w, i: MoveIn(
        i, _text(d, "player", w), _seat(d, "seat", w), _int(d, "stack", w, 1, MAX_CHIPS), _table_id(d, "from_table", w))),
    "rebuy": (frozenset({"player", "seat", "chips", "purchase"}), _rebuy),
    "penalty": (frozenset({"player", "seat", "penalty"}), _penalty),
    "chip_race": (frozenset({"remove", "next_chip", "seed"}), _chip_race),
    "deck_change": (frozenset({"reason"}), lambda d, w, i: DeckChange(i, _text(d, "reason", w, 200))),
}
KINDS: Final = tuple(_READERS)
KIND_OF: Final[dict[type, str]] = {SeatDraw: "seat_draw", MoveOut: "move_out", MoveIn: "move_in", Rebuy: "rebuy",
                                   PenaltyOrder: "penalty", ChipRace: "chip_race", DeckChange: "deck_change"}


def order_from_dict(data: object, where: str = "order") -> Order:
    """Check one instruction; :class:`InputError` names the field that is wrong."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object with id and kind")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in _READERS:
        raise InputError(f"{where}.kind", "must be one of " + ", ".join(_READERS))
    known, read = _READERS[kind]
    extra = sorted(set(data) - known - {"id", "kind"})
    if extra:
        raise InputError(f"{where}.{extra[0]}", f"unknown field for {kind} (known: {', '.join(sorted(known))})")
    oid = data.get("id")
    if not isinstance(oid, str) or not ID.match(oid):
        raise InputError(f"{where}.id", f"must be 1-64 letters, digits or _ . : -, got {oid!r}")
    return read(data, where, oid)


def order_to_dict(order: Order) -> dict[str, Any]:
    """The JSON form read back by :func:`order_from_dict`."""
    out: dict[str, Any] = {"id": order.id, "kind": KIND_OF[type(order)]}
    if isinstance(order, SeatDraw):
        out.update(seats={str(s): {"name": n, "stack": st} for s, (n, st) in order.seats.items()}, button=order.button)
    elif isinstance(order, PenaltyOrder):
        out.update(player=order.player, seat=order.seat, penalty=order.penalty.to_dict())
        if order.penalty.kind != "away":
            del out["penalty"]["minutes"]
    else:
        out.update({k: getattr(order, k) for k in order.__dataclass_fields__ if k != "id"})
    return out


def describe(order: Order) -> str:
    """One line for the tablet and the floor page (never a card)."""
    if isinstance(order, SeatDraw):
        return f"New seating from the draw: {len(order.seats)} players, button seat {order.button}"
    if isinstance(order, MoveOut):
        return f"Move {order.player} (seat {order.seat}) to table {order.to_table} seat {order.to_seat} (TABLE-MOVE)"
    if isinstance(order, MoveIn):
        return f"{order.player} comes from table {order.from_table} to seat {order.seat} with {order.stack} (TABLE-MOVE)"
    if isinstance(order, Rebuy):
        return f"{order.purchase.capitalize()}: {order.player} (seat {order.seat}) gets {order.chips} chips (TABLE-REBUY)"
    if isinstance(order, PenaltyOrder):
        return f"Penalty for {order.player} (seat {order.seat}): {order.penalty.describe()} (TABLE-PENALTY)"
    if isinstance(order, ChipRace):
        return f"Colour up the {order.remove} chips into {order.next_chip}s: chip race (TABLE-CHIP-RACE)"
    return f"New deck: register it with the shoe and the camera ({order.reason}) (TABLE-DECK-CHANGE)"
