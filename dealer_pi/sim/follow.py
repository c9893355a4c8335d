"""Playing along with the demo: what the real table did that the simulator did not.

The demo's simulator reports its table through the runtime like any device;
a visitor may also enter inputs on the tablet. :class:`TableFollower` reads the
journal for entries the simulator did not make itself and tells the simulated
table (its ``decide`` hook) what happened:

* an action or chips entered for the seat to act: that seat's action, which
  the bots play on from (and the seat waits longer for its visitor next time);
* an undo while a bot thinks: the last action is taken back in the simulation too;
* an alert confirmed or dismissed without voiding the hand: nothing to follow;
* anything else (a misdeal, a new hand, a new setup, an undo of something
  other than an action): :class:`~dealer_pi.sim.table.OffScript`, and the demo
  deals the hand again from the table as it is.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from dealer_pi.engine.legal import LegalActions
from dealer_pi.engine.observations import ActionKind, PlayerAction
from dealer_pi.engine.state import HandState

from .table import UNDONE, Decision, OffScript

SOURCE = "simulator"  # the source the demo gives the simulated dealer's and bots' entries
OWN_SOURCES = frozenset({SOURCE, "shoe", "camera"})  # "shoe:serial" is the shoe too
HARMLESS = frozenset({"alert_confirmed", "alert_dismissed", "procedure_completed", "alert_raised"})
POLL_S = 0.05


class TableFollower:
    """Finds the entries of ``journal`` (the runtime's) that were not the simulator's own.

    ``think_s()`` is how long a bot thinks before acting (the demo's pace);
    ``visitor_wait_s`` how long a seat the visitor has played waits for the
    visitor before its bot acts again (and the seat goes back to the bot).
    """

    def __init__(self, journal: Any, think_s: Callable[[], float], stop: threading.Event,
                 visitor_wait_s: float = 30.0) -> None:
        self.journal = journal
        self.think_s = think_s
        self.stop = stop
        self.visitor_wait_s = visitor_wait_s
        self.seq = journal.last_seq()
        self.pending: deque[PlayerAction | str] = deque()
        self.visitor_seats: set[int] = set()
        self.followed = 0  # visitor actions taken as the seat's own (for the demo's summary)

    def reset(self) -> None:
        """Everything journaled so far is accounted for (the demo set the table up itself)."""
        self.seq = self.journal.last_seq()
        self.pending.clear()

    def check(self, deciding: bool = False) -> None:
        """Read new entries: queue actions for the next decision (and undos while one is being
        made); raise :class:`OffScript` for what the simulation cannot follow."""
        for entry in self.journal.entries_after(self.seq):
            self.seq = entry.seq
            source = str(entry.body.get("source", "")).split(":")[0]
            if entry.kind == "clock" or (entry.kind == "observation" and source in OWN_SOURCES):
                continue
            if entry.kind != "observation":
                raise OffScript(f"a new {entry.kind} was entered")
            self._foreign(entry, deciding)

    def _foreign(self, entry: Any, deciding: bool) -> None:
        events = [ev.body for ev in self.journal.events_for_entries(entry.seq).get(entry.seq, [])]
        kinds = {ev.get("type") for ev in events}
        bets = [ev for ev in events if ev.get("type") == "bet_placed"]
        if bets:  # what follows from an action (pots, the hand's end) follows in the simulation too
            self.pending.extend(_action(ev) for ev in bets)
        elif kinds == {"entry_undone"} and deciding:  # the last action, while the next seat thinks
            self.pending.append(UNDONE)
        elif not kinds <= HARMLESS:
            what = entry.body.get("declare") or entry.body.get("type") or "entry"
            raise OffScript(f"{what} entered at the table")

    def decide(self, state: HandState, legal: LegalActions) -> Decision:
        """The simulated table's ``decide``: wait as a player thinks, watching for the visitor."""
        visitor = legal.seat in self.visitor_seats
        deadline = time.monotonic() + (self.visitor_wait_s if visitor else self.think_s())
        while True:
            # Read right up to the bot's turn: an entry landing between this read and the bot's
            # action reaching the table is the one race left (the bot's action is then refused).
            self.check(deciding=True)
            if self.pending:
                answer = self.pending.popleft()
                if isinstance(answer, PlayerAction):
                    if answer.seat != legal.seat:
                        raise OffScript(f"seat {answer.seat} acted while the simulation had seat {legal.seat} to act")
                    self.visitor_seats.add(answer.seat)
                    self.followed += 1
                return answer
            left = deadline - time.monotonic()
            if left <= 0 or self.stop.wait(min(POLL_S, left)):
                break
        self.visitor_seats.discard(legal.seat)  # no answer in time: the bot plays the seat again
        return None


def _action(ev: dict[str, Any]) -> PlayerAction:
    """The action a ``bet_placed`` event records, as the simulation applies it ("raise to" totals)."""
    kind = ActionKind(ev["action"])
    amount = ev["to"] if kind in (ActionKind.BET, ActionKind.RAISE) else None
    return PlayerAction(int(ev["seat"]), kind, amount, source="tablet")
