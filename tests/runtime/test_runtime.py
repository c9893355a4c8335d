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


def test_TABLE_LEVELS_new_blinds_apply_from_the_next_hand_and_survive_a_restart(tmp_path: Path) -> None:
    from dealer_pi.engine.observations import DealerDeclaration, Declaration
    from dealer_pi.sim import Simulator

    table = Simulator(3, hands_per_table=2, players=(4, 4)).table()
    observations = list(table.observations())
    cut = next(i for i, o in enumerate(observations) if isinstance(o, DealerDeclaration) and o.declare is Declaration.NEW_HAND)
    now = [1_000_000]
    rt = Runtime(tmp_path / "j.sqlite3", table.setup.to_dict(), stream_delay_s=1, now_ms=lambda: now[0]).start()
    levels = [{"small_blind": 5, "big_blind": 10, "ante": 0, "minutes": 1, "break": False},
              {"small_blind": 10, "big_blind": 20, "ante": 2, "minutes": 10, "break": False}]
    rt.submit("clock", {"action": "set_levels", "levels": levels})
    rt.submit("clock", {"action": "start"})
    for obs in observations[: cut // 2]:
        rt.submit("observation", obs)
    now[0] += 61_000  # level 2 starts in the middle of the hand...
    assert rt.clock_view()["level"] == 2 and rt.clock_view()["pending"] is True
    for obs in observations[cut // 2 : cut]:
        rt.submit("observation", obs)  # ...which is played to its end at the old blinds
    assert not rt.table.running and rt.table.snapshot()["table"]["blinds"] == [5, 10]
    ended = rt.table.hand_state()
    setups = len([e for e in rt.journal.entries_after(0) if e.kind == "setup"])
    result = rt.submit("observation", observations[cut])  # "new hand"
    posted = [(e["event"]["type"], e["event"]["amount"]) for e in result["events"] if e["event"]["type"] in ("blind_posted", "ante_posted")]
    assert sorted(a for t, a in posted if t == "blind_posted") == [10, 20]
    assert [a for t, a in posted if t == "ante_posted"] == [2, 2, 2, 2]
    # The level is the engine's own entry, not a new table: same session, button moved on by it.
    entries = list(rt.journal.entries_after(0))
    assert len([e for e in entries if e.kind == "setup"]) == setups
    level, new_hand = entries[-2].body, entries[-1].body
    assert (level["type"], level["small_blind"], level["big_blind"], level["ante"], level["source"]) == (
        "level", 10, 20, 2, "clock")
    assert new_hand["declare"] == "new hand"
    snap = rt.table.snapshot()
    assert snap["table"]["blinds"] == [10, 20] and snap["table"]["ante"] == 2
    assert {int(k): v["stack"] + v["bet"] + 2 for k, v in snap["table"]["seats"].items() if v["in_hand"]} == \
        {s: c for s, c in ended.final_stacks().items() if c > 0}
    assert snap["table"]["button"] != ended.setup.button  # TABLE-BUTTON: it moved on
    assert rt.table.hand == 2 and rt.clock_view()["pending"] is False
    before = full_state(rt)
    rt.stop()
    again = Runtime(tmp_path / "j.sqlite3", table.setup.to_dict(), stream_delay_s=1, now_ms=lambda: now[0]).start()
    assert full_state(again) == before and again.replay_mismatches == 0
    again.stop()


def test_engine_thread_beats_for_the_watchdog_while_idle(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    beats: list[float] = []
    rt.set_heartbeat(lambda: beats.append(time.monotonic()), 0.05)
    rt.put(ShoeDraw(None, "shoe"))  # wakes the loop so that it starts waiting with the new interval
    time.sleep(0.5)
    rt.stop()
    assert len(beats) >= 4


def test_an_engine_bug_is_reported_and_the_table_is_rebuilt_from_the_journal(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    feed(rt, H.checked_down_hand()[:14])
    before = full_state(rt)
    real_feed = rt.table.feed

    def broken(obs: Any) -> Any:
        real_feed(obs)  # the state moves on...
        raise KeyError("a bug")  # ...and then the engine trips

    rt.table.feed = broken  # type: ignore[method-assign]
    with pytest.raises(KeyError):
        rt.submit("observation", observation_from_dict(H.checked_down_hand()[14]))
    assert full_state(rt) == before  # back to what the journal says, not the half-applied input
    feed(rt, H.checked_down_hand()[14:16])  # and the table goes on
    rt.stop()


def test_TABLE_LEVELS_an_ante_only_level_deals_a_hand_with_antes_and_no_blinds(tmp_path: Path) -> None:
    from dealer_pi.engine.observations import DealerDeclaration, Declaration
    from dealer_pi.runtime.clock import check_command

    now = [1_000_000]
    setup = {"blinds": [5, 10], "seats": {"1": 500, "2": 500, "3": 500}, "button": 1}
    rt = Runtime(tmp_path / "j.sqlite3", setup, stream_delay_s=1, now_ms=lambda: now[0]).start()
    try:
        rt.submit("clock", check_command({"action": "set_levels", "levels": [
            {"small_blind": 5, "big_blind": 10, "minutes": 1}, {"small_blind": 0, "big_blind": 0, "ante": 25, "minutes": 10}]}))
        rt.submit("clock", {"action": "start"})
        rt.submit("observation", DealerDeclaration(Declaration.VOID_HAND))  # hand 1 ends unplayed
        now[0] += 61_000
        result = rt.submit("observation", DealerDeclaration(Declaration.NEW_HAND))
        posted = [(e["event"]["type"], e["event"]["amount"]) for e in result["events"]
                  if e["event"]["type"] in ("blind_posted", "ante_posted")]
        assert posted == [("ante_posted", 25)] * 3  # 000 §19a: an ante-only game
        assert rt.table.snapshot()["table"]["blinds"] == [0, 0]
    finally:
        rt.stop()
