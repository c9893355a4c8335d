"""Registration and the random seat draw (000 §51: initial seats are randomly assigned).

The draw is seeded, so the floor can journal the seed and draw the same seats
again after a restart. The players fill the fewest tables that seat them, the
first ones the floor listed (never more than one player apart: a table more
would have to be broken at once, TABLE-MOVE); within a table the players' seats are spread
over the table's seats at random, and the button goes to a random player.

>>> seats = draw_seats(["Ana", "Ben", "Cy", "Dee", "Eve"], ["t1", "t2"], seats_per_table=3, seed=4)
>>> sorted(s.table for s in seats.values())
['t1', 't1', 't1', 't2', 't2']
>>> seats == draw_seats(["Ana", "Ben", "Cy", "Dee", "Eve"], ["t1", "t2"], seats_per_table=3, seed=4)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import InputError, RuleViolation

MAX_NAME = 40


@dataclass(frozen=True, slots=True, order=True)
class SeatAt:
    table: str
    seat: int


def check_name(name: object, registered: Iterable[str], where: str = "name") -> str:
    """A new player's name: 1-40 printable characters, not already registered (any case)."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(where, "must be the player's name")
    clean = " ".join(name.split())
    if len(clean) > MAX_NAME or not clean.isprintable():
        raise InputError(where, f"at most {MAX_NAME} printable characters")
    if clean.casefold() in {r.casefold() for r in registered}:
        raise InputError(where, f"{clean!r} is already registered")
    return clean


def draw_seats(players: Sequence[str], tables: Sequence[str], seats_per_table: int, seed: int) -> dict[str, SeatAt]:
    """Every player's table and seat, drawn at random (000 §51)."""
    if not tables:
        raise InputError("tables", "the draw needs at least one table")
    if not 2 <= seats_per_table <= 10:
        raise InputError("seats_per_table", f"must be 2..10, got {seats_per_table}")
    if len(players) > len(tables) * seats_per_table:
        raise RuleViolation("TABLE-MOVE", f"{len(players)} players do not fit at {len(tables)} tables of "
                            f"{seats_per_table} seats")
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    # The fewest tables that seat everyone (a table more would be broken at once), evenly filled.
    used = max(1, -(-len(order) // seats_per_table)) if order else 0
    out: dict[str, SeatAt] = {}
    for t in range(used):
        group = order[t::used]
        numbers = sorted(rng.sample(range(1, seats_per_table + 1), len(group)))
        for player, seat in zip(group, numbers):
            out[player] = SeatAt(tables[t], seat)
    return out


def draw_buttons(seating: Mapping[str, SeatAt], seed: int) -> dict[str, int]:
    """Each table's first button, on a random player's seat (the draw for the button)."""
    rng = random.Random(seed ^ 0x5EA7)
    by_table: dict[str, list[int]] = {}
    for at in sorted(seating.values()):
        by_table.setdefault(at.table, []).append(at.seat)
    return {t: rng.choice(seats) for t, seats in by_table.items()}
