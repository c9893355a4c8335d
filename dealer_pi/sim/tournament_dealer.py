"""A simulated dealer at a tournament table: plays hands on a live runtime and follows the floor.

It deals and reports hands the way :class:`~dealer_pi.sim.table.SimTable` does
(bots choose among the legal actions), at a pace, onto the runtime's queue.
Whenever the table is set up again (the floor's seating applied between
hands, a new level), it starts over from the table's new setup, so the
simulated table and the real one never disagree. It waits while
hand-for-hand holds the table (TABLE-HAND-FOR-HAND), and stops dealing when
the table is broken or one player has every chip.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any, Sequence

from dealer_pi.engine.errors import EngineError, RuleViolation
from dealer_pi.engine.observations import (
    AlertDecision, CardLeft, CardSeen, DealerDeclaration, Declaration, Observation, PlayerAction, ShoeDraw,
)
from dealer_pi.engine.table_session import TableSetup

from .faults import Fault
from .table import SimTable

log = logging.getLogger("dealer_pi.sim.tournament")

# Seconds between inputs at pace 1, as a dealer and players at a real table take them.
PAUSE = {ShoeDraw: 0.35, CardSeen: 0.15, CardLeft: 0.15, PlayerAction: 1.1, AlertDecision: 3.0}
NEW_HAND_PAUSE = 4.0
WAIT_S = 0.5  # between tries while the floor holds the table


class TournamentDealer:
    def __init__(self, runtime: Any, seed: int, pace: float = 1.0, faults: Sequence[Fault] = (), fault_rate: float = 0.0,
                 name: str = "") -> None:
        self.runtime = runtime
        self.rng = random.Random(seed)
        self.pace = max(pace, 0.01)
        self.faults, self.fault_rate = tuple(faults), fault_rate
        self.hands = 0
        self.done = threading.Event()  # no more hands here (table broken, or a winner)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"dealer-{name}", daemon=True)

    def start(self) -> TournamentDealer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)

    def _sleep(self, seconds: float) -> bool:
        return self.stopped.wait(seconds / self.pace)

    def _run(self) -> None:
        while not self.stopped.is_set() and not self.done.is_set():
            table = self.runtime.table
            sim = SimTable(TableSetup.from_dict(table.setup_dict()), 10_000, self.rng.randrange(2**32), self.faults,
                           self.fault_rate)
            try:
                self._play(table, sim)
            except EngineError as exc:
                # The table went its own way (an entry on the tablet): start over from it.
                log.info("simulated dealer starts over: %s", exc)
                if self._sleep(1.0):
                    return
            except Exception:
                log.exception("simulated dealer failed")
                if self._sleep(2.0):
                    return
            else:
                if self.runtime.table is table:
                    # One player has every chip here: the floor moves them on at the next hand (TABLE-MOVE).
                    self._new_hand(DealerDeclaration(Declaration.NEW_HAND))

    def _play(self, table: Any, sim: SimTable) -> None:
        for obs in sim.observations():
            if self.stopped.is_set() or self.runtime.table is not table:
                return  # set up again meanwhile (the floor's seating): start over from it
            if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND:
                if self._sleep(NEW_HAND_PAUSE) or not self._new_hand(obs):
                    return
                self.hands += 1
                if self.runtime.table is not table:
                    return
                continue
            if self._sleep(PAUSE.get(type(obs), 0.3)):
                return
            self.runtime.submit("observation", obs)

    def _new_hand(self, obs: Observation) -> bool:
        """Start the next hand when the floor lets the table; False when it never will."""
        while not self.stopped.is_set():
            try:
                self.runtime.submit("observation", obs)
                return True
            except RuleViolation as exc:
                if exc.rule == "TABLE-MOVE":
                    self.done.set()  # the table is broken
                    return False
                # Hand-for-hand holds the table, or one player is left here until the floor moves them.
                self.stopped.wait(WAIT_S)
        return False
