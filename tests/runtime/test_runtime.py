"""The engine thread: journal before publish, replay after restart, the queue's drop policy."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

import live_helpers as H
from dealer_pi.engine.errors import RuleViolation
from dealer_pi.engine.observations import CardSeen, ShoeDraw, Zone, observation_from_dict
from dealer_pi.runtime.engine_thread import Busy, Runtime


def feed(rt: Runtime, observations: list[dict[str, Any]]) -> None:
    for obs in observations:
        rt.submit("observation", observation_from_dict(obs))


def full_state(rt: Runtime) -> tuple[Any, ...]:
    s = rt.state("live")
    return (s["table"], s["hole_cards"], s["last_event_id"], s["seq"], s["setup"], rt.table.hand, rt.table.running)


def test_restart_replays_the_journal_to_the_same_hand_street_pots_and_player_to_act(tmp_path: Path) -> None:
    script = H.checked_down_hand()
    rt = H.runtime(tmp_path)
    feed(rt, script[:20])  # stop in the middle of the flop's betting
    rt.submit("clock", {"action": "set_levels", "levels": [{"small_blind": 5, "big_blind": 10, "ante": 0, "minutes": 20, "break": False}]})
    before, clock_before = full_state(rt), rt.clock.levels
    rt.stop()
    rt = H.runtime(tmp_path)
    assert full_state(rt) == before and rt.clock.levels == clock_before
    assert rt.replay_mismatches == 0
    # ... and play continues from there exactly as it would have.
    feed(rt, script[20:])
    rt.stop()
    other = H.runtime(tmp_path / "never-stopped")
    feed(other, script)
    again = H.runtime(tmp_path)
    assert full_state(other)[:2] == full_state(again)[:2]
    other.stop()
    again.stop()


def test_rejected_input_is_reported_to_the_caller_and_never_journaled(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    feed(rt, H.hole_deal([str(c) for c in __import__("dealer_pi.engine.cards", fromlist=["FULL_DECK"]).FULL_DECK], [2, 3, 1]))
    seq = rt.journal.last_seq()
    with pytest.raises(RuleViolation):
        rt.submit("observation", observation_from_dict({"type": "action", "seat": 3, "action": "fold"}))
    assert rt.journal.last_seq() == seq
    rt.stop()


def test_every_event_is_in_the_journal_before_anyone_hears_of_it(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    published: list[tuple[int, int]] = []
    real = rt.publisher.publish

    def spy(batch: Any) -> None:
        published.append((batch.last_event_id, rt.journal.last_event_id()))  # read by another connection
        real(batch)

    rt.publisher.publish = spy  # type: ignore[method-assign]
    feed(rt, H.checked_down_hand()[:12])
    rt.stop()
    assert published and all(journaled >= told for told, journaled in published)


def test_camera_is_dropped_under_load_but_device_input_waits_and_web_input_gets_busy(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path, queue_size=8)
    gate = threading.Event()
    real_apply = rt._apply

    def slow(work: Any) -> Any:
        gate.wait(10)
        return real_apply(work)

    rt._apply = slow  # type: ignore[method-assign]
    seen = CardSeen(Zone.parse("muck"), face_up=False, source="camera")
    rt.put(ShoeDraw(None, "shoe"))  # taken by the engine thread, which now waits at the gate
    time.sleep(0.1)
    offered = [rt.offer(seen) for _ in range(10)]
    assert offered == [True] * 4 + [False] * 6 and rt.dropped_camera == 6  # half the queue, no more
    done = threading.Event()

    def shoe() -> None:
        for _ in range(6):  # more than the room left: the shoe blocks, nothing is dropped
            rt.put(ShoeDraw(None, "shoe"))
        done.set()

    threading.Thread(target=shoe, daemon=True).start()
    time.sleep(0.2)
    assert not done.is_set()
    with pytest.raises(Busy):
        rt.submit("observation", observation_from_dict({"type": "dealer", "declare": "undo"}), timeout=0.1)
    seq = rt.journal.last_seq()
    gate.set()
    assert done.wait(10)
    deadline = time.monotonic() + 10
    while rt.journal.last_seq() < seq + 11 and time.monotonic() < deadline:
        time.sleep(0.02)
    kinds = [e.body["type"] for e in rt.journal.entries_after(seq)]
    rt.stop()
    assert kinds.count("shoe_draw") == 7 and kinds.count("card_seen") == 4
