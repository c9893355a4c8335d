"""TABLE-MOVE: who moves where when tables are unbalanced or one is broken (000 §52-55).

Positions are counted in hands before a seat pays the big blind: the big blind
moves one player clockwise each hand (000 §21-24), so a seat's *blind distance*
is the number of players seated clockwise between the current big blind and
it. 0 is the worst position (the next big blind); the player who has just paid
the big blind is the best placed.

* A table is broken when the others can seat all its players: the table with
  the fewest players goes, its players fill open seats, worst first, always at
  the table that is shortest then (000 §52, §54).
* Tables are balanced when one has two players more than another: one player
  moves from the longest to the shortest table, into its worst open seat, and
  the player moved is the one who will not lose position by it (000 §54): the
  player whose blind distance is the largest one not above the seat's.
* Where a moved player sits down between the small blind and the button, the
  player sits out that hand (000 §53): see :func:`sits_out`.

>>> t1 = TableSeats("t1", {1: "Ana", 2: "Ben", 3: "Cy", 4: "Dee", 5: "Eve", 6: "Fay"}, big_blind_seat=3, seats=6)
>>> t2 = TableSeats("t2", {1: "Gus", 3: "Hal", 5: "Ida", 6: "Jo"}, big_blind_seat=5, seats=6)
>>> plan_moves([t1, t2]).moves  # t2's worst open seat, 2, pays the big blind in 2 hands, as Fay would at t1
(Move(player='Fay', from_table='t1', from_seat=6, to_table='t2', to_seat=2, reason='balance'),)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import InputError


@dataclass(frozen=True, slots=True)
class TableSeats:
    """A table as the floor knows it: who sits where and the big blind of the hand being played
    (or the last one; 0 before the first). ``reserved``: seats promised to players on their way
    in; ``leaving``: players already told to move out."""

    table: str
    players: Mapping[int, str]
    big_blind_seat: int = 0
    seats: int = 9
    reserved: frozenset[int] = field(default_factory=frozenset)
    leaving: frozenset[str] = field(default_factory=frozenset)

    @property
    def count(self) -> int:
        """Players there once the moves already ordered are done."""
        return len([p for p in self.players.values() if p not in self.leaving]) + len(self.reserved)

    def occupied(self) -> list[int]:
        return sorted(set(self.players) | self.reserved)

    def open_seats(self) -> list[int]:
        taken = set(self.occupied())
        return [s for s in range(1, self.seats + 1) if s not in taken]


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    reason: str  # "balance" or "break"


@dataclass(frozen=True, slots=True)
class Plan:
    broken: str | None  # the table being broken, if any
    moves: tuple[Move, ...]


def blind_distance(occupied: Iterable[int], big_blind_seat: int, seat: int) -> int:
    """Hands before ``seat`` pays the big blind: the players seated clockwise strictly between
    the current big blind and it.

    >>> blind_distance([1, 3, 5, 8], 3, 5), blind_distance([1, 3, 5, 8], 3, 4), blind_distance([1, 3, 5, 8], 3, 3)
    (0, 0, 3)
    >>> blind_distance([1, 3, 5, 8], 3, 2)
    3
    """
    return sum(1 for s in set(occupied) if s != seat and s != big_blind_seat and _clockwise(big_blind_seat, s) < _clockwise(big_blind_seat, seat))


def _clockwise(start: int, seat: int) -> int:
    """Steps clockwise from ``start`` to ``seat`` (10 seats at most; the same seat is a full turn)."""
    return (seat - start - 1) % 10 + 1


def worst_open_seats(table: TableSeats) -> list[int]:
    """Open seats, the worst positioned first (000 §54): the smallest blind distance, then the
    nearest clockwise after the big blind."""
    occ = table.occupied()
    bb = table.big_blind_seat
    return sorted(table.open_seats(), key=lambda s: (blind_distance(occ, bb, s), _clockwise(bb, s)))


def sits_out(seat: int, button: int, small_blind_seat: int) -> bool:
    """TABLE-MOVE (000 §53): a moved player may not be placed between the small blind and the
    button, clockwise after the button and before the small blind; there the player sits out
    the hand.

    >>> sits_out(5, button=4, small_blind_seat=6), sits_out(7, button=4, small_blind_seat=6)
    (True, False)
    >>> sits_out(1, button=9, small_blind_seat=2), sits_out(9, button=9, small_blind_seat=2)
    (True, False)
    """
    if not button or not small_blind_seat or button == small_blind_seat:
        return False
    return 0 < _clockwise(button, seat) < _clockwise(button, small_blind_seat)


def mover_for(source: TableSeats, seat_distance: int) -> tuple[int, str]:
    """(seat, player) at ``source`` who will not lose position in a seat ``seat_distance`` hands
    from the big blind (000 §54): the largest blind distance not above it."""
    occ = source.occupied()
    ranked = sorted(
        ((blind_distance(occ, source.big_blind_seat, s), s, p) for s, p in source.players.items() if p not in source.leaving),
        key=lambda x: (x[0], _clockwise(source.big_blind_seat, x[1])),
    )
    if not ranked:
        raise InputError("table", f"{source.table} has nobody to move")
    fitting = [r for r in ranked if r[0] <= seat_distance]
    d, seat, player = fitting[-1] if fitting else ranked[0]
    return seat, player


def tables_needed(tables: Sequence[TableSeats]) -> int:
    """The fewest tables that seat every player, the largest tables kept."""
    left = sum(t.count for t in tables)
    n = 0
    for cap in sorted((t.seats for t in tables), reverse=True):
        if left <= 0:
            break
        left -= cap
        n += 1
    return max(n, 1)


def plan_moves(tables: Sequence[TableSeats]) -> Plan:
    """What to do now: break a table if the others can seat its players, else balance."""
    live = [t for t in tables if t.count > 0]
    if len(live) < 2:
        return Plan(None, ())
    if tables_needed(live) < len(live):
        return _break(live)
    return Plan(None, tuple(_balance(live)))


def _shortest(tables: Sequence[TableSeats]) -> TableSeats:
    return min(tables, key=lambda t: (t.count, tables.index(t)))


def _with(table: TableSeats, *, reserve: int | None = None, leave: str | None = None) -> TableSeats:
    return TableSeats(
        table.table, table.players, table.big_blind_seat, table.seats,
        table.reserved | ({reserve} if reserve is not None else set()),
        table.leaving | ({leave} if leave is not None else set()),
    )


def _break(live: list[TableSeats]) -> Plan:
    # Ties go against the table listed last: the floor lists tables in the order it keeps them.
    victim = min(reversed(live), key=lambda t: t.count)
    others = [t for t in live if t is not victim]
    occ = victim.occupied()
    going = sorted(((s, p) for s, p in victim.players.items() if p not in victim.leaving),
                   key=lambda sp: blind_distance(occ, victim.big_blind_seat, sp[0]))
    moves = []
    for seat, player in going:
        roomy = [t for t in others if worst_open_seats(t)]
        if not roomy:
            break  # seats still held by players on their way out: the rest move at the next plan
        dest = _shortest(roomy)
        to_seat = worst_open_seats(dest)[0]
        moves.append(Move(player, victim.table, seat, dest.table, to_seat, "break"))
        others[others.index(dest)] = _with(dest, reserve=to_seat)
    return Plan(victim.table, tuple(moves))


def _balance(live: list[TableSeats]) -> list[Move]:
    moves: list[Move] = []
    tables = list(live)
    while True:
        longest = max(tables, key=lambda t: (t.count, -tables.index(t)))
        shortest = _shortest(tables)
        if longest.count - shortest.count < 2:
            return moves
        open_seats = worst_open_seats(shortest)
        if not open_seats:
            return moves
        to_seat = open_seats[0]
        distance = blind_distance(shortest.occupied(), shortest.big_blind_seat, to_seat)
        from_seat, player = mover_for(longest, distance)
        moves.append(Move(player, longest.table, from_seat, shortest.table, to_seat, "balance"))
        tables[tables.index(longest)] = _with(longest, leave=player)
        tables[tables.index(shortest)] = _with(shortest, reserve=to_seat)
