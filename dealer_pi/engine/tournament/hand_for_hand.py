"""TABLE-HAND-FOR-HAND: every table waits until all have finished their hand (000 §56-57).

The floor numbers the rounds. Round 0 begins when hand-for-hand is called:
the tables finish the hand they are playing and wait. When every table in
play has finished its hand of the round, the floor opens the next round and
each table may deal exactly one hand.

>>> tables = {"t1": Progress(playing=False, played_round=0), "t2": Progress(playing=True, played_round=0)}
>>> round_complete(0, tables), still_playing(0, tables)
(False, ['t2'])
>>> may_start(active=True, current_round=1, played_round=0), may_start(active=True, current_round=1, played_round=1)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Progress:
    """A table in a hand-for-hand round: is a hand being played, and in which round did it start
    its last hand (the round current when hand-for-hand was called, for the hand in play then)."""

    playing: bool
    played_round: int


def done_with(current_round: int, table: Progress) -> bool:
    """The table has played its hand of this round (round 0: the hand in play when it was called)."""
    return not table.playing and (current_round == 0 or table.played_round >= current_round)


def still_playing(current_round: int, tables: Mapping[str, Progress]) -> list[str]:
    """Tables the others are waiting for, in name order (what the tablets show)."""
    return sorted(t for t, p in tables.items() if not done_with(current_round, p))


def round_complete(current_round: int, tables: Mapping[str, Progress]) -> bool:
    return not still_playing(current_round, tables)


def may_start(active: bool, current_round: int, played_round: int) -> bool:
    """May a table deal its next hand: always without hand-for-hand, else once per round."""
    return not active or played_round < current_round
