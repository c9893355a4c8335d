"""The demo's simulator following a visitor's tablet entries, on a real runtime and journal.

Each test plays simulated hands into a runtime as the demo does, and at a chosen decision enters
something on the runtime as the tablet would. Every observation the simulator sends afterwards
must still be accepted: a refusal would mean the simulation and the table went apart.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any, Callable

import live_helpers as H
import pytest

from dealer_pi.engine.observations import observation_from_dict
from dealer_pi.sim import OffScript, Simulator
from dealer_pi.sim.follow import SOURCE, TableFollower

RUNNING: list[Any] = []


@pytest.fixture(autouse=True)
def _stop_runtimes() -> Any:
    yield
    while RUNNING:
        RUNNING.pop().stop()


def play(tmp: Path, visit: Callable[[Any, int, Any], None], seed: int = 4) -> tuple[Any, TableFollower, Any]:
    """Two hands of a simulated table into a runtime; ``visit(runtime, n, legal)`` runs at decision n."""
    runtime = H.runtime(tmp)
    table = Simulator(seed, hands_per_table=2, players=(4, 6)).table()
    runtime.submit("setup", {"setup": table.setup.to_dict(), "void_hand": True})
    follower = TableFollower(runtime.journal, lambda: 0.0, threading.Event(), visitor_wait_s=0.0)
    follower.reset()
    count = 0

    def decide(state: Any, legal: Any) -> Any:
        nonlocal count
        count += 1
        visit(runtime, count, legal)
        return follower.decide(state, legal)

    table.decide = decide
    RUNNING.append(runtime)
    for obs in table.observations():
        follower.check()
        if obs.source not in ("shoe", "camera"):
            obs = dataclasses.replace(obs, source=SOURCE)
        runtime.submit("observation", obs)  # raises if the table refuses it
    return runtime, follower, table


def tablet(runtime: Any, body: dict[str, Any]) -> None:
    runtime.submit("observation", observation_from_dict(dict(body, source="tablet"), "observation"))


def hands_ended(runtime: Any) -> list[dict[str, Any]]:
    """The simulated table's hands as they ended (not the starting table's hand, voided by its setup)."""
    events = [ev.body for ev in runtime.journal.events_after(0)]
    voided = next(i for i, e in enumerate(events) if e["type"] == "misdeal_declared" and e["rule"] == "BET-TABLE-STAKES")
    first = next(i for i, e in enumerate(events) if i > voided and e["type"] == "hand_started")
    return [e for e in events[first:] if e["type"] == "hand_ended"]


def test_BET_OVERSIZED_CHIP_chips_and_a_raise_from_the_tablet_are_the_seats_actions(tmp_path: Path) -> None:
    def visit(runtime: Any, n: int, legal: Any) -> None:
        if n == 3:  # one chip of 500 pushed, nothing said: a call (BET-OVERSIZED-CHIP), the rest back
            tablet(runtime, {"type": "chips", "seat": legal.seat, "amount": 500, "single_chip": True})
        if n == 5 and legal.can_raise:
            tablet(runtime, {"type": "action", "seat": legal.seat, "action": "raise", "amount": legal.min_to})

    runtime, follower, table = play(tmp_path, visit)
    assert follower.followed == 2 and table.played == 2
    assert [e["misdeal"] for e in hands_ended(runtime)] == [False, False]
    mine = [e.body for e in runtime.journal.entries_after(0) if e.body.get("source") == "tablet"]
    assert [m["type"] for m in mine] == ["chips", "action"]


def test_an_undo_while_the_next_seat_thinks_is_followed(tmp_path: Path) -> None:
    seats: list[int] = []

    def visit(runtime: Any, n: int, legal: Any) -> None:
        seats.append(legal.seat)
        if n == 4:
            tablet(runtime, {"type": "dealer", "declare": "undo"})

    runtime, follower, table = play(tmp_path, visit)
    assert seats[4] == seats[2]  # the seat whose action was taken back decides again
    assert table.played == 2 and [e["misdeal"] for e in hands_ended(runtime)] == [False, False]


def test_a_misdeal_from_the_tablet_is_off_the_script(tmp_path: Path) -> None:
    def visit(runtime: Any, n: int, legal: Any) -> None:
        if n == 2:
            tablet(runtime, {"type": "dealer", "declare": "misdeal"})

    with pytest.raises(OffScript, match="misdeal entered at the table"):
        play(tmp_path, visit)


def test_an_alert_dismissed_on_the_tablet_changes_nothing_to_follow(tmp_path: Path) -> None:
    def visit(runtime: Any, n: int, legal: Any) -> None:
        if n == 2:  # the camera sees a player's card; the dealer dismisses the alert
            hole = [k for k, v in runtime.table.hole_cards().items() if int(k) == legal.seat][0]
            card = runtime.table.hole_cards()[hole][0]
            runtime.submit("observation", observation_from_dict(
                {"type": "card_seen", "zone": f"seat:{legal.seat}", "face_up": True, "card": card, "source": "camera"}, "o"))
            alert = runtime.newest_open_alert()
            tablet(runtime, {"type": "decision", "alert_id": alert, "decision": "dismiss"})

    runtime, follower, table = play(tmp_path, visit)
    assert table.played == 2 and follower.followed == 0
